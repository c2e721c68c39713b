#!/usr/bin/env bash
# Starts (up), stops (down) or lists (status) the whole local stack without Docker.
# `up` installs what the stack runs (not the test-only tools: scripts/test.sh installs those), builds
# the services, starts infrastructure and services, waits for every /readyz and prints where
# everything is, with each step's time and the total.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmd="${1:-up}"
if [ "$cmd" = up ]; then
  # stack.ts prints the start's own time and the total since here.
  export SIGNET_STACK_STARTED_AT="$(date +%s)"
  step() { # name command...
    local name="$1" t=$SECONDS
    shift
    "$@"
    printf '[stack] %-28s %4d s\n' "$name" $((SECONDS - t)) >&2
  }
  pnpm_install() { pnpm install --frozen-lockfile --reporter=append-only | tail -n 3; }
  step "install (stack only)" bash scripts/install.sh stack
  step "pnpm install" pnpm_install
  step "tfjs-node" bash scripts/tfjs-native.sh # biometrics on TensorFlow, else one line and wasm
  step "build" pnpm -s build
fi
exec node --import tsx scripts/stack.ts "$cmd"
