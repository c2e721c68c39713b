#!/usr/bin/env bash
# Starts (up), stops (down) or lists (status) the whole local stack without Docker.
# `up` installs what is missing, builds the services, starts infrastructure and services, waits
# for every /readyz and prints where everything is.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmd="${1:-up}"
if [ "$cmd" = up ]; then
  bash scripts/install.sh
  pnpm install --frozen-lockfile --reporter=append-only | tail -n 3
  bash scripts/tfjs-native.sh # biometrics on TensorFlow, else one line and wasm
  pnpm -s build >/dev/null
fi
exec node --import tsx scripts/stack.ts "$cmd"
