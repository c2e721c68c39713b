#!/usr/bin/env bash
# Builds the native binding of @tensorflow/tfjs-node (or, with `gpu`, @tensorflow/tfjs-node-gpu)
# against the TensorFlow C API inside a pinned PyPI wheel, so biometrics runs on the `tensorflow`
# backend instead of wasm. The packages' own install script downloads libtensorflow from a fixed
# storage host instead (pnpm never runs it: root package.json `neverBuiltDependencies`).
#
#   bash scripts/tfjs-native.sh [cpu|gpu]      # after `pnpm install`; cpu by default
#
# Steps: `pip download` the wheel (hash-pinned below) into $SIGNET_CACHE/tfjs-native/wheels; unpack
# libtensorflow_cc.so.2, libtensorflow_framework.so.2 and the C API headers (gpu: plus the lib/ of
# every nvidia-*-cu12 wheel that `tensorflow[and-cuda]` pins, under deps/nvidia/, where the
# libraries' RUNPATH `$ORIGIN/../nvidia/<lib>/lib` finds them); compile the binding with the
# package's node-pre-gyp against this Node's headers; load it once. The result is cached under a
# key of the package version, the N-API version and the wheel's sha256, and linked into the
# package directory (`lib/`, `deps/`), so a re-run or a fresh node_modules only re-links (seconds).
#
# Then Human's models are converted into TensorFlow SavedModels (services/biometrics/tfgraph/
# convert.py, in a venv of the same wheel) under the build's deps/graphs/human@<version>/, so the
# service runs each model as one session instead of op by op (graph-sessions.ts); where that fails
# it says so in one line and the models run eagerly (the binding stays in use).
#
# Where anything fails it prints ONE line saying why and that biometrics will use wasm, and exits 0
# (the service's TF_BACKEND=auto then picks wasm). TFJS_NATIVE_STRICT=1 exits 1 instead (image
# builds). TFJS_NATIVE_APP is the directory whose node_modules hold the package
# (default services/biometrics); TFJS_NATIVE_COPY=1 copies the build into the package instead of
# linking it (an image must not point into a build cache). SIGNET_TFJS_NATIVE=0 builds nothing and
# unlinks a linked build (biometrics then runs on wasm).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VARIANT="${1:-cpu}"
APP="${TFJS_NATIVE_APP:-$ROOT/services/biometrics}"
STRICT="${TFJS_NATIVE_STRICT:-0}"
CACHE="${SIGNET_CACHE:-$HOME/.cache/signet}/tfjs-native"
LOG="$CACHE/$VARIANT.log"

TF_VERSION="2.15.1" # 2.21 fails one tfjs-core op test (round on int32)
case "$VARIANT" in
  cpu)
    PKG="@tensorflow/tfjs-node"
    WHEEL_REQ="tensorflow-cpu==$TF_VERSION"
    WHEEL_FILE="tensorflow_cpu-$TF_VERSION-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
    WHEEL_SHA256="54660c074d7241a503e81edfd9f5ef5af88f64051b72e2945f26318c790f2d26"
    ;;
  gpu)
    PKG="@tensorflow/tfjs-node-gpu"
    WHEEL_REQ="tensorflow==$TF_VERSION"
    WHEEL_FILE="tensorflow-$TF_VERSION-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
    WHEEL_SHA256="bb0edd69103c154245c5f209f0507355cc68ba7e4de350084bc31edc562478e4"
    ;;
  *)
    echo "usage: $0 [cpu|gpu]" >&2
    exit 2
    ;;
esac
# The same wheel on every machine: CPython 3.11, manylinux2014 x86_64 (independent of the local Python).
WHEEL_PLATFORM=(--only-binary=:all: --python-version 3.11 --implementation cp --platform manylinux2014_x86_64)

say() { printf '[tfjs-native] %s\n' "$*" >&2; }
give_up() {
  say "$PKG not built ($1): biometrics will use the wasm backend"
  [ "$STRICT" = 1 ] && exit 1
  exit 0
}

[ "$(uname -sm)" = "Linux x86_64" ] || give_up "the pinned wheel is for Linux x86_64, this is $(uname -sm)"
[ -e "$APP/node_modules/$PKG/package.json" ] || give_up "$APP/node_modules/$PKG is not installed; run pnpm install first"
PKG_DIR="$(readlink -f "$APP/node_modules/$PKG")"
if [ "${SIGNET_TFJS_NATIVE:-1}" = 0 ]; then # also takes a linked build out again
  for d in lib deps; do [ -L "$PKG_DIR/$d" ] && rm -f "${PKG_DIR:?}/$d"; done
  give_up "SIGNET_TFJS_NATIVE=0"
fi
PKG_VERSION="$(node -p "require('$PKG_DIR/package.json').version")" || give_up "cannot read $PKG_DIR/package.json"
NAPI="$(node -p process.versions.napi)"
# tfjs-node asks for N-API 8 at most; node-pre-gyp picks the highest the package and Node share.
MODULE_PATH="lib/napi-v$(node -p "Math.min(8, $NAPI)")"
KEY="${PKG#@tensorflow/}@$PKG_VERSION-napi$NAPI-$(cut -c1-16 <<<"$WHEEL_SHA256")"
BUILD="$CACHE/$KEY"

mkdir -p "$CACHE/wheels" || give_up "cannot create $CACHE"
exec 9>"$CACHE/.lock"
flock 9 || give_up "cannot lock $CACHE/.lock"

# node -e … < /dev/null: the binding loads and computes, and the backend is `tensorflow`.
check_load() {
  (cd "$APP" && TF_CPP_MIN_LOG_LEVEL=2 node -e "
    const tf = require('$PKG');
    const s = tf.tensor1d([1, 2, 3]).square().sum().dataSync()[0];
    if (tf.getBackend() !== 'tensorflow' || s !== 14) { console.error('backend', tf.getBackend(), 'sum', s); process.exit(1); }
  " </dev/null >>"$LOG" 2>&1)
}

# Put the cached build into the package directory: links (local) or copies (images).
install_build() {
  local d
  for d in lib deps; do
    # already linked here: leave it (a running process may be loading it)
    [ "${TFJS_NATIVE_COPY:-0}" != 1 ] && [ "$(readlink "$PKG_DIR/$d")" = "$BUILD/$d" ] && continue
    if [ -L "$PKG_DIR/$d" ] || [ -e "$PKG_DIR/$d" ]; then rm -rf "${PKG_DIR:?}/$d"; fi
    if [ "${TFJS_NATIVE_COPY:-0}" = 1 ]; then cp -a "$BUILD/$d" "$PKG_DIR/$d"; else ln -s "$BUILD/$d" "$PKG_DIR/$d"; fi
  done
}

unlink_build() {
  local d
  for d in lib deps; do [ -L "$PKG_DIR/$d" ] && rm -f "${PKG_DIR:?}/$d"; done
  return 0
}

# Human's models as TensorFlow SavedModels, in $BUILD/deps/graphs/human@<version>/ (kept while the
# Human version and convert.py are the same). A failure leaves the models eager: one line, no exit.
HUMAN_DIR="$(readlink -f "$APP/node_modules/@vladmandic/human" 2>/dev/null)"
CONVERT="$ROOT/services/biometrics/tfgraph/convert.py"
GRAPH_MODELS=(blazeface facemesh iris faceres antispoof liveness)
convert_graphs() {
  local hv stamp graphs venv
  [ -f "$HUMAN_DIR/package.json" ] || {
    say "@vladmandic/human is not installed in $APP: the models run eagerly"
    return 0
  }
  hv="$(node -p "require('$HUMAN_DIR/package.json').version")"
  graphs="$BUILD/deps/graphs/human@$hv"
  stamp="$(sha256sum "$CONVERT" "$ROOT/services/biometrics/tfgraph/constraints.txt" | sha256sum | cut -c1-16)"
  if [ "$(cat "$graphs/.complete" 2>/dev/null)" != "$stamp" ]; then
    venv="$CACHE/convert-venv-$(cut -c1-16 <<<"$WHEEL_SHA256")"
    rm -rf "$graphs"
    [ -f "$CACHE/wheels/$WHEEL_FILE" ] || {
      say "$WHEEL_FILE is not in $CACHE/wheels (remove $BUILD and run this script again): the models run eagerly"
      return 0
    }
    if ! { [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >>"$LOG" 2>&1; } ||
      ! "$venv/bin/python" -m pip install -q "$CACHE/wheels/$WHEEL_FILE" \
        -c "$ROOT/services/biometrics/tfgraph/constraints.txt" >>"$LOG" 2>&1; then
      say "cannot install $WHEEL_REQ for the model conversion (see $LOG): the models run eagerly"
      return 0
    fi
    if ! TF_CPP_MIN_LOG_LEVEL=2 "$venv/bin/python" "$CONVERT" "$HUMAN_DIR/models" "$graphs.tmp" "${GRAPH_MODELS[@]}" >>"$LOG" 2>&1; then
      rm -rf "$graphs.tmp"
      say "converting Human's models failed (see $LOG): they run eagerly"
      return 0
    fi
    mv "$graphs.tmp" "$graphs" && echo "$stamp" >"$graphs/.complete"
  fi
  # an image copies deps/ instead of linking it
  if [ "${TFJS_NATIVE_COPY:-0}" = 1 ]; then
    mkdir -p "$PKG_DIR/deps/graphs" && rm -rf "$PKG_DIR/deps/graphs/human@$hv" && cp -a "$graphs" "$PKG_DIR/deps/graphs/"
  fi
  say "Human@$hv's models converted to TensorFlow sessions (${GRAPH_MODELS[*]})"
}

mkdir -p "$CACHE" && : >"$LOG"
if [ -f "$BUILD/.complete" ]; then
  install_build || give_up "cannot link $BUILD into $PKG_DIR"
  if check_load; then
    convert_graphs
    say "$PKG@$PKG_VERSION on tensorflow $TF_VERSION (cached build $KEY): biometrics will use the tensorflow backend"
    exit 0
  fi
  unlink_build
  give_up "the cached build $KEY does not load, see $LOG"
fi

command -v python3 >/dev/null || give_up "python3 is missing (pip downloads the TensorFlow wheel)"
python3 -m pip --version >>"$LOG" 2>&1 || give_up "python3 -m pip is missing"
command -v make >/dev/null && command -v g++ >/dev/null || give_up "make and g++ are needed to compile the binding"
NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
# Without local headers node-gyp would download them from outside the package registries.
[ -f "$NODE_PREFIX/include/node/node_api.h" ] || give_up "no Node headers in $NODE_PREFIX/include/node"
PRE_GYP="$(cd "$PKG_DIR" && node -p "require.resolve('@mapbox/node-pre-gyp/bin/node-pre-gyp')" 2>>"$LOG")" ||
  give_up "@mapbox/node-pre-gyp (a dependency of $PKG) is not installed"
NODE_GYP="$NODE_PREFIX/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
[ -f "$NODE_GYP" ] || NODE_GYP="$(node -p "require.resolve('node-gyp/bin/node-gyp.js')" 2>>"$LOG")" ||
  give_up "node-gyp (bundled with npm) not found"

# 1. The wheel, verified against the pinned hash (pip checks it; a cached file is re-checked).
WHEEL="$CACHE/wheels/$WHEEL_FILE"
if [ ! -f "$WHEEL" ] || [ "$(sha256sum "$WHEEL" | cut -d' ' -f1)" != "$WHEEL_SHA256" ]; then
  rm -f "$WHEEL"
  printf '%s --hash=sha256:%s\n' "$WHEEL_REQ" "$WHEEL_SHA256" >"$CACHE/$VARIANT.requirements.txt"
  python3 -m pip download --no-deps --require-hashes "${WHEEL_PLATFORM[@]}" --dest "$CACHE/wheels" \
    -r "$CACHE/$VARIANT.requirements.txt" >>"$LOG" 2>&1 || give_up "pip download $WHEEL_REQ failed, see $LOG"
  [ -f "$WHEEL" ] || give_up "pip did not produce $WHEEL_FILE"
fi

# 2. Unpack the libraries and the headers the binding includes.
rm -rf "$BUILD" "$BUILD.tmp"
mkdir -p "$BUILD.tmp/deps/lib" "$BUILD.tmp/deps/include" || give_up "cannot create $BUILD.tmp"
python3 - "$WHEEL" "$BUILD.tmp/deps" >>"$LOG" 2>&1 <<'PY' || give_up "unpacking $WHEEL_FILE failed, see $LOG"
import os, shutil, sys, zipfile
wheel, deps = sys.argv[1], sys.argv[2]
libs = {"tensorflow/libtensorflow_cc.so.2", "tensorflow/libtensorflow_framework.so.2"}
headers = ("tensorflow/c/", "tensorflow/core/platform/", "tensorflow/tsl/", "tsl/")
n = 0
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        name = info.filename
        if name in libs:
            dest = os.path.join(deps, "lib", os.path.basename(name))
        elif name.startswith("tensorflow/include/") and name[len("tensorflow/include/"):].startswith(headers) and not name.endswith("/"):
            dest = os.path.join(deps, "include", name[len("tensorflow/include/"):])
        else:
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with z.open(info) as src, open(dest, "wb") as out:
            shutil.copyfileobj(src, out)
        n += 1
missing = [l for l in libs if not os.path.exists(os.path.join(deps, "lib", os.path.basename(l)))]
if missing:
    sys.exit(f"missing in wheel: {missing}")
print(f"unpacked {n} files")
PY
(
  cd "$BUILD.tmp/deps/lib" &&
    ln -s libtensorflow_cc.so.2 libtensorflow.so &&
    ln -s libtensorflow_framework.so.2 libtensorflow_framework.so
) || give_up "cannot link the libraries in $BUILD.tmp/deps/lib"

# 2b. gpu: the CUDA 12.2 / cuDNN 8.9 libraries from the nvidia-*-cu12 wheels tensorflow[and-cuda]
# pins (read from the wheel's own metadata), so only the driver comes from the host.
if [ "$VARIANT" = gpu ]; then
  python3 - "$WHEEL" >"$CACHE/gpu.cuda-requirements.txt" 2>>"$LOG" <<'PY' || give_up "cannot read the and-cuda pins of $WHEEL_FILE"
import re, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    for line in z.read(meta).decode().splitlines():
        m = re.match(r"Requires-Dist: (nvidia-[\w-]+) \(==([\w.]+)\) ; extra == 'and-cuda'", line)
        if m:
            print(f"{m.group(1)}=={m.group(2)}")
PY
  [ -s "$CACHE/gpu.cuda-requirements.txt" ] || give_up "no and-cuda pins in $WHEEL_FILE"
  mkdir -p "$CACHE/wheels/cuda"
  python3 -m pip download --no-deps "${WHEEL_PLATFORM[@]}" --dest "$CACHE/wheels/cuda" \
    -r "$CACHE/gpu.cuda-requirements.txt" >>"$LOG" 2>&1 || give_up "pip download of the CUDA wheels failed, see $LOG"
  python3 - "$CACHE/gpu.cuda-requirements.txt" "$CACHE/wheels/cuda" "$BUILD.tmp/deps" >>"$LOG" 2>&1 <<'PY' ||
import glob, os, re, shutil, sys, zipfile
reqs, wheels, deps = sys.argv[1:4]
for req in open(reqs).read().split():
    name, version = req.split("==")
    found = glob.glob(os.path.join(wheels, f"{name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        sys.exit(f"no wheel for {req}")
    with zipfile.ZipFile(found[0]) as z:
        for info in z.infolist():
            # nvidia/<lib>/lib/<file>: what libtensorflow's RUNPATH $ORIGIN/../nvidia/<lib>/lib names
            if re.match(r"nvidia/[^/]+/lib/[^/]+$", info.filename):
                dest = os.path.join(deps, info.filename)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with z.open(info) as src, open(dest, "wb") as out:
                    shutil.copyfileobj(src, out)
    print("unpacked", req)
PY
    give_up "unpacking the CUDA wheels failed, see $LOG"
fi

# 3. Compile the binding in the build directory (sources copied from the package, never built in
#    node_modules), with this Node's headers; node-pre-gyp writes it to lib/napi-v<N>/.
cp -a "$PKG_DIR/package.json" "$PKG_DIR/binding.gyp" "$PKG_DIR/binding" "$BUILD.tmp/" || give_up "cannot copy the binding sources"
(
  cd "$BUILD.tmp" &&
    npm_config_node_gyp="$NODE_GYP" node "$PRE_GYP" install --build-from-source --nodedir="$NODE_PREFIX" \
      --jobs="$(nproc)" >>"$LOG" 2>&1
) || give_up "compiling the binding failed, see $LOG"
[ -f "$BUILD.tmp/$MODULE_PATH/tfjs_binding.node" ] || give_up "no $MODULE_PATH/tfjs_binding.node after the build, see $LOG"
rm -rf "$BUILD.tmp/build" "$BUILD.tmp/binding" "$BUILD.tmp/binding.gyp" "$BUILD.tmp/package.json"
mv "$BUILD.tmp" "$BUILD" || give_up "cannot move the build to $BUILD"

# 4. Link it in and prove it loads before calling it done.
install_build || give_up "cannot link $BUILD into $PKG_DIR"
if ! check_load; then
  unlink_build
  give_up "the binding does not load, see $LOG"
fi
date -u +%FT%TZ >"$BUILD/.complete"
convert_graphs
# Older builds of this package are dead weight (a libtensorflow is 0.5-1 GB).
for old in "$CACHE/${PKG#@tensorflow/}@"*; do
  [ "$old" != "$BUILD" ] && [ -d "$old" ] && rm -rf "$old"
done
say "$PKG@$PKG_VERSION built on tensorflow $TF_VERSION ($KEY): biometrics will use the tensorflow backend"
