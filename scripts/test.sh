#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what is missing, checks types and lint,
# runs every vitest project against real infrastructure, and ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
set -e
bash scripts/install.sh
pnpm install --frozen-lockfile --reporter=append-only | tail -n 3
echo "== typecheck"; pnpm -s typecheck && npx tsc -p test/tsconfig.json && npx tsc -p services/biometrics/test/tsconfig.json
echo "== lint"; pnpm -s lint
set +e
mkdir -p .data
rm -f .data/test-results.json
npx vitest run --reporter=default --reporter=json --outputFile.json=.data/test-results.json "$@"
status=$?
node scripts/test-summary.mjs .data/test-results.json || status=1
exit $status
