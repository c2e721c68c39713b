#!/usr/bin/env bash
# Builds promtool (Prometheus's rule checker and rule unit-test runner) with `go install`, cached in
# ~/.cache/signet/bin with a version stamp like the other Go-built tools of scripts/install.sh. The
# chart tests (test/chart/alerts.test.ts) run `promtool test rules` on the rendered PrometheusRule.
# Idempotent: a re-run with the same pinned version does nothing.
set -euo pipefail

CACHE="${SIGNET_CACHE:-$HOME/.cache/signet}"
BIN="$CACHE/bin"
# Go module versions of Prometheus are v0.<major><minor>.<patch>: v0.316.0 is Prometheus 3.16.0.
PROMTOOL_VERSION="v0.316.0"
stamp="$BIN/.promtool.version"

mkdir -p "$BIN"
if [ -x "$BIN/promtool" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$PROMTOOL_VERSION" ]; then exit 0; fi
printf '[install] %s\n' "go install github.com/prometheus/prometheus/cmd/promtool@$PROMTOOL_VERSION (cached in $BIN)" >&2
GOBIN="$BIN" GOFLAGS=-trimpath go install "github.com/prometheus/prometheus/cmd/promtool@$PROMTOOL_VERSION"
echo "$PROMTOOL_VERSION" > "$stamp"
