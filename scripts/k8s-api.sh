#!/usr/bin/env bash
# A real Kubernetes API for the chart's install test (test/infra/chart-install.int.test.ts): etcd
# (Debian's etcd-server, scripts/install.sh), kube-apiserver, kube-controller-manager and
# kube-scheduler built from the k8s.io/kubernetes module (the wrapper module scripts/k8s-api pins its
# staging modules), and kwok simulating the nodes (pods become Ready without a kubelet or images):
# three CPU nodes and one with nvidia.com/gpu capacity (tainted, labelled like the GPU operator's).
# The Prometheus Operator and KEDA CRDs are applied from their Go modules' released manifests.
#
#   scripts/k8s-api.sh install     build and cache everything (idempotent; ~/.cache/signet/k8s-api)
#   scripts/k8s-api.sh up DIR      start the control plane; DIR/kubeconfig, logs and pids in DIR
#   scripts/k8s-api.sh down DIR    stop what `up DIR` started
#
# Loopback only; one static token allowed everything (AlwaysAllow): a throwaway test cluster.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SIGNET_CACHE:-$HOME/.cache/signet}"
BIN="$CACHE/bin"
K8S="$CACHE/k8s-api"
KUBERNETES_VERSION="v1.36.3" # scripts/k8s-api/go.mod requires it; its staging modules at v0.36.3
KWOK_VERSION="v0.8.0"
PROMETHEUS_OPERATOR_VERSION="v0.85.0"
KEDA_VERSION="v2.21.0"

log() { printf '[k8s-api] %s\n' "$*" >&2; }

moddir() { (cd "$ROOT/scripts/k8s-api" && go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'); }

install() {
  mkdir -p "$BIN" "$K8S"
  command -v etcd >/dev/null || { log "etcd missing: apt-get install etcd-server (scripts/install.sh does)"; exit 1; }
  local want stamp="$BIN/.kube-apiserver.version"
  want="$KUBERNETES_VERSION+$(cat "$ROOT/scripts/k8s-api/go.mod" "$ROOT/scripts/k8s-api/go.sum" | sha256sum | cut -c1-12)"
  if ! [ -x "$BIN/kube-apiserver" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    log "building kube-apiserver, kube-controller-manager, kube-scheduler $KUBERNETES_VERSION (cached in $BIN; long on 2 cores)"
    # The version the API server reports (/version): helm checks the chart's kubeVersion against it;
    # a module build would say v0.0.0-master (the release's ldflags, as hack/lib/version.sh sets them).
    local v="k8s.io/component-base/version" minor="${KUBERNETES_VERSION#v1.}"
    local ldflags="-X $v.gitVersion=$KUBERNETES_VERSION -X $v.gitMajor=1 -X $v.gitMinor=${minor%%.*} -X $v.gitTreeState=clean"
    (cd "$ROOT/scripts/k8s-api" && GOFLAGS=-trimpath go build -ldflags "$ldflags" -o "$BIN/" \
      k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler)
    echo "$want" > "$stamp"
  fi
  stamp="$BIN/.kwok.version"
  if ! [ -x "$BIN/kwok" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$KWOK_VERSION" ]; then
    log "go install sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION (cached in $BIN)"
    GOBIN="$BIN" GOFLAGS=-trimpath go install "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
    echo "$KWOK_VERSION" > "$stamp"
  fi
  want="$KWOK_VERSION $PROMETHEUS_OPERATOR_VERSION $KEDA_VERSION"
  if [ "$(cat "$K8S/.manifests" 2>/dev/null)" != "$want" ]; then
    log "CRDs of the Prometheus Operator $PROMETHEUS_OPERATOR_VERSION and KEDA $KEDA_VERSION, kwok's stages (from their modules)"
    local kwok po keda
    kwok=$(moddir "sigs.k8s.io/kwok@$KWOK_VERSION")
    po=$(moddir "github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION")
    keda=$(moddir "github.com/kedacore/keda/v2@$KEDA_VERSION")
    rm -rf "$K8S/crds" && mkdir -p "$K8S/crds"
    cp "$po"/example/prometheus-operator-crd/monitoring.coreos.com_{servicemonitors,prometheusrules,podmonitors}.yaml "$K8S/crds/"
    cp "$keda"/config/crd/bases/keda.sh_{scaledobjects,triggerauthentications,clustertriggerauthentications}.yaml "$K8S/crds/"
    # kwok's fast node and pod stages: nodes Ready at once, pods Running and Ready once scheduled.
    for f in node/fast/node-initialize.yaml node/heartbeat/node-heartbeat.yaml pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
      cat "$kwok/kustomize/stage/$f"
      echo "---"
    done > "$K8S/kwok-stages.yaml"
    chmod -R u+w "$K8S/crds"
    echo "$want" > "$K8S/.manifests"
  fi
}

wait_for() { # description, command...
  local what="$1" i
  shift
  for i in $(seq 1 240); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  log "timed out waiting for $what"
  return 1
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start() { # name, command...
  local name="$1"
  shift
  "$@" > "$DIR/$name.log" 2>&1 &
  echo $! > "$DIR/$name.pid"
}

up() {
  DIR="$1"
  mkdir -p "$DIR"
  local etcd_client etcd_peer api kc
  etcd_client=$(free_port)
  etcd_peer=$(free_port)
  api=$(free_port)
  kc="$DIR/kubeconfig"
  # One static token, in system:masters (AlwaysAllow refuses anonymous requests).
  echo "signet-k8s-api-test,admin,admin,system:masters" > "$DIR/tokens.csv"
  openssl genrsa -out "$DIR/sa.key" 2048 2>/dev/null
  openssl rsa -in "$DIR/sa.key" -pubout -out "$DIR/sa.pub" 2>/dev/null
  start etcd etcd --name k8s-api --data-dir "$DIR/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
    --initial-cluster "k8s-api=http://127.0.0.1:$etcd_peer" --unsafe-no-fsync
  wait_for etcd curl -fsS "http://127.0.0.1:$etcd_client/health"
  start kube-apiserver "$BIN/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_client" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api" --cert-dir "$DIR/certs" \
    --authorization-mode AlwaysAllow --token-auth-file "$DIR/tokens.csv" \
    --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$DIR/sa.pub" \
    --service-account-signing-key-file "$DIR/sa.key" --service-cluster-ip-range 10.96.0.0/16 \
    --enable-priority-and-fairness=false --endpoint-reconciler-type none
  cat > "$kc" <<EOF
apiVersion: v1
kind: Config
clusters: [{ name: k8s-api, cluster: { server: "https://127.0.0.1:$api", insecure-skip-tls-verify: true } }]
users: [{ name: admin, user: { token: signet-k8s-api-test } }]
contexts: [{ name: k8s-api, context: { cluster: k8s-api, user: admin } }]
current-context: k8s-api
EOF
  wait_for kube-apiserver kubectl --kubeconfig "$kc" get --raw /readyz
  start kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig "$kc" --bind-address 127.0.0.1 --secure-port 0 \
    --leader-elect=false --service-account-private-key-file "$DIR/sa.key" --use-service-account-credentials=false \
    --controllers deployment-controller,replicaset-controller,statefulset-controller,disruption-controller,horizontal-pod-autoscaler-controller,garbage-collector-controller,namespace-controller,serviceaccount-controller,endpoints-controller,endpointslice-controller,job-controller \
    --concurrent-deployment-syncs 10 --concurrent-replicaset-syncs 10
  start kube-scheduler "$BIN/kube-scheduler" --kubeconfig "$kc" --bind-address 127.0.0.1 --secure-port 0 --leader-elect=false
  start kwok "$BIN/kwok" --kubeconfig "$kc" --config "$K8S/kwok-stages.yaml" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
    --node-ip 10.244.0.1 --cidr 10.244.0.0/16 --server-address "127.0.0.1:$(free_port)"
  kubectl --kubeconfig "$kc" apply --server-side -f "$K8S/crds" > /dev/null
  local n
  for n in 0 1 2; do add_node "cpu-$n" ""; done
  add_node gpu-0 gpu
  wait_for "4 Ready nodes" sh -c "[ \$(kubectl --kubeconfig '$kc' get nodes --no-headers 2>/dev/null | grep -c ' Ready ') -eq 4 ]"
  # The API server taints a new node not-ready; the node lifecycle controller (not run: kwok's nodes
  # have no kubelet to watch) would lift it once Ready.
  kubectl --kubeconfig "$kc" taint nodes --all node.kubernetes.io/not-ready:NoSchedule- > /dev/null
  wait_for "the default ServiceAccount" kubectl --kubeconfig "$kc" get serviceaccount default -n default
  log "up: $kc"
}

add_node() { # name, gpu?
  local gpu="$2" labels capacity taints=""
  labels="{ kubernetes.io/hostname: $1, kubernetes.io/os: linux, kubernetes.io/arch: amd64, type: kwok, topology.kubernetes.io/zone: zone-${1##*-} }"
  capacity="{ cpu: '32', memory: 128Gi, pods: '110' }"
  if [ -n "$gpu" ]; then
    labels="{ kubernetes.io/hostname: $1, kubernetes.io/os: linux, kubernetes.io/arch: amd64, type: kwok, topology.kubernetes.io/zone: zone-gpu, nvidia.com/gpu.present: 'true' }"
    capacity="{ cpu: '32', memory: 128Gi, pods: '110', nvidia.com/gpu: '4' }"
    taints="taints: [{ key: nvidia.com/gpu, value: present, effect: NoSchedule }]"
  fi
  kubectl --kubeconfig "$DIR/kubeconfig" apply -f - > /dev/null <<EOF
apiVersion: v1
kind: Node
metadata:
  name: $1
  annotations: { kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0" }
  labels: $labels
spec:
  $taints
status:
  allocatable: $capacity
  capacity: $capacity
EOF
}

down() {
  local name pid
  for name in kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
    pid=$(cat "$1/$name.pid" 2>/dev/null || true)
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  done
  for name in kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
    pid=$(cat "$1/$name.pid" 2>/dev/null || true)
    [ -n "$pid" ] || continue
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$1/$name.pid"
  done
}

case "${1:-}" in
  install) install ;;
  up) up "${2:?usage: k8s-api.sh up DIR}" ;;
  down) down "${2:?usage: k8s-api.sh down DIR}" ;;
  *) echo "usage: $0 install | up DIR | down DIR" >&2; exit 2 ;;
esac
