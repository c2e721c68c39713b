#!/usr/bin/env bash
# Re-renders the kustomize base and the network-policies component from the chart.
# (The same as `UPDATE_GOLDEN=1 npx vitest run test/chart/kustomize.test.ts`.)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HELM="${SIGNET_CACHE:-$HOME/.cache/signet}/bin/helm"
common=(template signet "$ROOT/charts/signet" --namespace signet --kube-version 1.31.0 -f "$ROOT/k8s/base/values.yaml")
"$HELM" "${common[@]}" --skip-tests > "$ROOT/k8s/base/signet.yaml"
"$HELM" "${common[@]}" --set networkPolicy.enabled=true --show-only templates/networkpolicy.yaml \
  > "$ROOT/k8s/components/network-policies/networkpolicies.yaml"
