#!/usr/bin/env bash
# Python environment of the API fuzzing test (test/e2e/schemathesis.test.ts): a venv in
# $SIGNET_CACHE/schemathesis-venv (default ~/.cache/signet/schemathesis-venv) holding schemathesis and
# its dependencies, each pinned in scripts/schemathesis/requirements.txt and installed with pip
# (--no-deps: only what the file names). Cached by that file's hash: a re-run is a no-op.
# Where it cannot be built it prints one line and exits 0; the fuzzing test then fails saying so.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SIGNET_CACHE:-$HOME/.cache/signet}"
VENV="$CACHE/schemathesis-venv"
REQ="$ROOT/scripts/schemathesis/requirements.txt"
STAMP="$VENV/.signet-requirements"
PY="${SCHEMATHESIS_BASE_PYTHON:-python3}"

skip() {
  printf '[schemathesis-venv] not installed: %s (the API fuzzing test will fail saying so)\n' "$*" >&2
  rm -rf "$VENV"
  exit 0
}

want="$(sha256sum "$REQ" | cut -c1-16)"
if [ -x "$VENV/bin/schemathesis" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ]; then
  exit 0
fi

command -v "$PY" >/dev/null || skip "no $PY"
rm -rf "$VENV"
mkdir -p "$CACHE"
if ! "$PY" -m venv "$VENV" 2>/dev/null; then
  # Debian's python3 needs python3-venv for ensurepip.
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null 2>&1; }
  fi
  rm -rf "$VENV"
  "$PY" -m venv "$VENV" 2>/dev/null || skip "$PY -m venv failed"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-input --no-deps -r "$REQ" >/dev/null 2>&1 ||
  skip "pip could not install $(grep -o '^schemathesis==[0-9.]*' "$REQ") for $("$VENV/bin/python" -V 2>&1)"
"$VENV/bin/schemathesis" --version >/dev/null 2>&1 || skip "schemathesis does not run"
echo "$want" >"$STAMP"
printf '[install] schemathesis venv ready: %s\n' "$VENV" >&2
