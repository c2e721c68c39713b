#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what is missing, checks types and lint,
# runs every vitest project (the tiers unit, integration, e2e, browser) in one vitest run, and ends
# with "N passed, N failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
set -e
bash scripts/install.sh
pnpm install --frozen-lockfile --reporter=append-only | tail -n 3
bash scripts/tfjs-native.sh # biometrics on TensorFlow, else one line and wasm
set +e
# A failed type check or lint is a failed suite: say so in the summary line, like a failed test.
echo "== typecheck"
if ! { pnpm -s typecheck && npx tsc -p test/tsconfig.json && npx tsc -p services/biometrics/test/tsconfig.json; }; then
  echo "type check failed (see above); no tests were run"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "== lint"
if ! pnpm -s lint; then
  echo "lint failed (see above); no tests were run"
  echo "0 passed, 1 failed"
  exit 1
fi
mkdir -p .data
rm -f .data/test-results.json .data/test-rerun.json
npx vitest run --reporter=default --reporter=json --outputFile.json=.data/test-results.json "$@"
# Files none of whose tests ran (their vitest worker process died: seen once for ops.test.ts, cause not found)
# run once more; a test that still never runs counts as failed (scripts/test-summary.mjs).
mapfile -t never < <(node scripts/test-summary.mjs --never-ran .data/test-results.json)
if ((${#never[@]})); then
  echo "== a worker died before these files' tests ran; running them once more: ${never[*]}"
  npx vitest run --reporter=default --reporter=json --outputFile.json=.data/test-rerun.json "${never[@]}"
fi
node scripts/test-summary.mjs .data/test-results.json .data/test-rerun.json
