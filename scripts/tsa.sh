#!/usr/bin/env bash
# The development PKI and RFC 3161 time-stamping authority of the local stack and the tests
# (issue 17): certomancer serves a TSA from scripts/tsa/certomancer.yml; pyhanko-cli validates the
# signed PDFs in the tests. Both live in a venv in $SIGNET_CACHE/tsa-venv (default
# ~/.cache/signet/tsa-venv), installed with pip from scripts/tsa/requirements.txt (hashes required,
# wheels only) and cached by that file's hash: a re-run is a no-op.
#
#   scripts/tsa.sh install          build the venv (scripts/install.sh calls this)
#   scripts/tsa.sh pki DIR          first start: RSA keys (openssl) and the certificates into DIR:
#                                   DIR/keys/{root,tsa,seal}.key.pem, DIR/certs/{root,tsa,seal}.pem
#   scripts/tsa.sh serve DIR PORT   pki DIR for PORT, then runs `certomancer animate` on 127.0.0.1:PORT
#                                   (the TSA answers at http://127.0.0.1:PORT/signet-dev/tsa/tsa, the
#                                   root's CRL at http://127.0.0.1:PORT/signet-dev/crls/root/latest.crl)
# The keys are test-only, made on the machine at first start and never committed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SIGNET_CACHE:-$HOME/.cache/signet}"
VENV="$CACHE/tsa-venv"
REQ="$ROOT/scripts/tsa/requirements.txt"
CONFIG="$ROOT/scripts/tsa/certomancer.yml"
STAMP="$VENV/.signet-requirements"
PY="${TSA_BASE_PYTHON:-python3}"

log() { printf '[tsa] %s\n' "$*" >&2; }

install() {
  local want
  want="$(sha256sum "$REQ" | cut -c1-16)"
  if [ -x "$VENV/bin/certomancer" ] && [ -x "$VENV/bin/pyhanko" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  command -v "$PY" >/dev/null || { log "no $PY: cannot build $VENV"; return 1; }
  rm -rf "$VENV"
  mkdir -p "$CACHE"
  if ! "$PY" -m venv "$VENV" 2>/dev/null; then
    # Debian's python3 needs python3-venv for ensurepip.
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null 2>&1; }
    fi
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
  fi
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-input \
    --require-hashes --no-deps --only-binary=:all: -r "$REQ"
  "$VENV/bin/certomancer" --version >/dev/null
  echo "$want" >"$STAMP"
  log "venv ready: $VENV (certomancer, pyhanko)"
}

pki() {
  local dir="$1" port="${2:-}" k c want
  mkdir -p "$dir/keys" "$dir/certs"
  # The certificates name the CRL's URL, so they carry the served port: a new port (or a changed
  # config) re-issues them with the same keys.
  want="$(sed "s#^external-url-prefix: 'http://127.0.0.1'#external-url-prefix: 'http://127.0.0.1${port:+:$port}'#" "$CONFIG")"
  if [ "$want" != "$(cat "$dir/certomancer.yml" 2>/dev/null)" ]; then
    printf '%s\n' "$want" >"$dir/certomancer.yml"
    rm -f "$dir/certs/root.pem" "$dir/certs/tsa.pem" "$dir/certs/seal.pem"
  fi
  for k in root tsa seal; do
    if [ ! -s "$dir/keys/$k.key.pem" ]; then
      (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/keys/$k.key.pem" 2>/dev/null)
    fi
  done
  for c in root tsa seal; do
    [ -s "$dir/certs/$c.pem" ] || "$VENV/bin/certomancer" --config "$dir/certomancer.yml" summon signet-dev "$c" "$dir/certs/$c.pem"
  done
}

case "${1:-install}" in
  install) install ;;
  pki) install && pki "${2:?usage: tsa.sh pki DIR}" ;;
  serve)
    install
    pki "${2:?usage: tsa.sh serve DIR PORT}" "${3:?usage: tsa.sh serve DIR PORT}"
    exec "$VENV/bin/certomancer" --config "$2/certomancer.yml" animate --port "${3:?usage: tsa.sh serve DIR PORT}" --no-web-ui
    ;;
  *) echo "usage: tsa.sh [install | pki DIR | serve DIR PORT]" >&2; exit 2 ;;
esac
