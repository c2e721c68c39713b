#!/usr/bin/env bash
# Builds and caches the C2SP tlog witness of the local stack and the tests: litewitness from
# filippo.io/torchwood, the way scripts/install.sh builds NATS, Mailpit and Helm (go install through
# the Go module proxy, cached in ~/.cache/signet/bin with a version stamp; a re-run reuses it).
# litewitness takes its Ed25519 key from an ssh-agent (ssh-agent, ssh-add, ssh-keygen: openssh-client)
# and keeps its known logs in SQLite; its companion witnessctl does not build here (a dependency of
# its Sigsum commands is not served), so the harness registers logs with the sqlite3 shell instead.
set -euo pipefail

CACHE="${SIGNET_CACHE:-$HOME/.cache/signet}"
BIN="$CACHE/bin"
LITEWITNESS_VERSION="v0.6.1"
mkdir -p "$BIN"

log() { printf '[witness] %s\n' "$*" >&2; }

need_apt=()
command -v ssh-agent >/dev/null && command -v ssh-add >/dev/null && command -v ssh-keygen >/dev/null || need_apt+=(openssh-client)
command -v sqlite3 >/dev/null || need_apt+=(sqlite3)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

stamp="$BIN/.litewitness.version"
if [ -x "$BIN/litewitness" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$LITEWITNESS_VERSION" ]; then exit 0; fi
log "go install filippo.io/torchwood/cmd/litewitness@$LITEWITNESS_VERSION (cached in $BIN)"
GOBIN="$BIN" GOFLAGS=-trimpath go install "filippo.io/torchwood/cmd/litewitness@$LITEWITNESS_VERSION"
echo "$LITEWITNESS_VERSION" > "$stamp"
