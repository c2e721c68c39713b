#!/usr/bin/env bash
# Builds kubeconform with `go install` (cached in ~/.cache/signet/bin with a version stamp, like the
# other Go-built tools of scripts/install.sh) and the JSON schemas it validates the chart against
# offline: for each Kubernetes version below, the OpenAPI spec of the k8s.io/kubernetes Go module
# (api/openapi-spec/swagger.json, fetched with `go mod download`) converted by scripts/k8s-schemas.mjs
# into ~/.cache/signet/k8s-schemas/v<version>-standalone-strict/. The chart tests
# (test/chart/kubeconform.test.ts) run kubeconform -strict on every rendered values file.
# Idempotent: a re-run with the same versions and converter does nothing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SIGNET_CACHE:-$HOME/.cache/signet}"
BIN="$CACHE/bin"
SCHEMAS="$CACHE/k8s-schemas"
KUBECONFORM_VERSION="v0.7.0"
# The oldest and the newest Kubernetes the chart supports (test/chart/helm.ts KUBE_VERSIONS).
K8S_VERSIONS="1.27.0 1.31.0"

log() { printf '[install] %s\n' "$*" >&2; }
mkdir -p "$BIN" "$SCHEMAS"

stamp="$BIN/.kubeconform.version"
if ! [ -x "$BIN/kubeconform" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$KUBECONFORM_VERSION" ]; then
  log "go install github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION (cached in $BIN)"
  GOBIN="$BIN" GOFLAGS=-trimpath go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
  echo "$KUBECONFORM_VERSION" > "$stamp"
fi

converter=$(sha256sum "$ROOT/scripts/k8s-schemas.mjs" | cut -c1-12)
for v in $K8S_VERSIONS; do
  out="$SCHEMAS/v$v-standalone-strict"
  if [ "$(cat "$out/.converter" 2>/dev/null)" = "$converter" ]; then continue; fi
  log "Kubernetes $v JSON schemas from the k8s.io/kubernetes module's OpenAPI spec (cached in $out)"
  dir=$(cd "$ROOT" && go mod download -json "k8s.io/kubernetes@v$v" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  rm -rf "$out"
  node "$ROOT/scripts/k8s-schemas.mjs" "$dir/api/openapi-spec/swagger.json" "$out" >/dev/null
  echo "$converter" > "$out/.converter"
done
