{{/* Names ------------------------------------------------------------------------------- */}}
{{- define "signet.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "signet.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* <fullname>-<component>; args: dict root name */}}
{{- define "signet.componentName" -}}
{{- printf "%s-%s" (include "signet.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "signet.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels; args: dict root name (component) */}}
{{- define "signet.selectorLabels" -}}
app.kubernetes.io/name: {{ include "signet.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "signet.labels" -}}
helm.sh/chart: {{ include "signet.chart" .root }}
{{ include "signet.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: signet
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Labels every pod of the release carries (for the default-deny policy). */}}
{{- define "signet.releaseSelector" -}}
app.kubernetes.io/name: {{ include "signet.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "signet.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "signet.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The call graph and what each service needs. The single source for env, NetworkPolicies and
     the Secret wiring; mirrors services/<name>/src/config.ts. */}}
{{- define "signet.catalog" -}}
gateway:     { port: 8080,  protocol: http, public: true, calls: [identity, billing, transaction, ceremony, ledger], uses: [redis], secrets: [downloadLinkSecret] }
identity:    { port: 50051, protocol: grpc, public: true, calls: [], uses: [mongodb, nats, redis, smtp], secrets: [mongoUrl, jwtSecret, totpEncryptionKey] }
transaction: { port: 50052, protocol: grpc, public: true, calls: [billing, biometrics], uses: [mongodb, nats, redis, smtp, s3], secrets: [mongoUrl, s3AccessKey, s3SecretKey, downloadLinkSecret, webhookEndpointKey] }
ceremony:    { port: 50053, protocol: grpc, webauthn: true, calls: [transaction], uses: [mongodb, nats, redis, s3], secrets: [mongoUrl, s3AccessKey, s3SecretKey] }
biometrics:  { port: 50054, protocol: grpc, calls: [], uses: [mongodb, nats, s3], secrets: [mongoUrl, s3AccessKey, s3SecretKey] }
ledger:      { port: 50055, protocol: grpc, public: true, ledgerOrigin: true, calls: [], uses: [mongodb, nats, s3], secrets: [mongoUrl, ledgerSigningKey, ledgerTestSigningKey, s3AccessKey, s3SecretKey{{ if .Values.signedPdf.enabled }}, sealCertificate, sealKey{{ end }}] }
billing:     { port: 50056, protocol: grpc, calls: [], uses: [mongodb, nats, redis], secrets: [mongoUrl, webhookSecret] }
{{- end -}}

{{/* Secret entry → environment variable. */}}
{{- define "signet.secretEnvNames" -}}
jwtSecret: JWT_SECRET
totpEncryptionKey: TOTP_ENCRYPTION_KEY
webhookSecret: WEBHOOK_SECRET
ledgerSigningKey: LEDGER_SIGNING_KEY
ledgerTestSigningKey: LEDGER_TEST_SIGNING_KEY
downloadLinkSecret: DOWNLOAD_LINK_SECRET
webhookEndpointKey: WEBHOOK_ENDPOINT_KEY
s3AccessKey: S3_ACCESS_KEY
s3SecretKey: S3_SECRET_KEY
mongoUrl: MONGO_URL
mongoRootPassword: MONGODB_ROOT_PASSWORD
sealCertificate: LEDGER_SEAL_CERT
sealKey: LEDGER_SEAL_KEY
{{- end -}}

{{/* Evaluation infrastructure: component → port. */}}
{{- define "signet.infraPorts" -}}
mongodb: 27017
nats: 4222
redis: 6379
smtp: 1025
s3: 9000
{{- end -}}

{{/* Infrastructure component → Deployment name suffix. */}}
{{- define "signet.infraComponent" -}}
{{- $m := dict "mongodb" "mongodb" "nats" "nats" "redis" "redis" "smtp" "mailpit" "s3" "minio" -}}
{{- index $m . -}}
{{- end -}}

{{/* The public URL without a trailing slash. */}}
{{- define "signet.publicUrl" -}}
{{- if .Values.publicUrl -}}
{{- .Values.publicUrl | trimSuffix "/" -}}
{{- else -}}
{{- printf "http://%s-gateway.%s.svc.cluster.local:8080" (include "signet.fullname" .) .Release.Namespace -}}
{{- end -}}
{{- end -}}

{{/* fail that also fails `helm lint`. Lint renders with fail reduced to an [INFO] line and goes on, so
     a configuration the chart refuses passed lint (and CI gates built on it). After fail (which stops
     helm template/install/Argo CD with the message), include a template named by the message: none
     exists, so lint stops there with an [ERROR] that carries the message. Argument: the message. */}}
{{- define "signet.fail" -}}
{{- fail . -}}
{{- include (printf "refused: %s" .) dict -}}
{{- end -}}

{{/* Infrastructure URLs (evaluation infra or external values). */}}
{{- define "signet.infraUrl" -}}
{{- $root := .root -}}
{{- $f := include "signet.fullname" $root -}}
{{- if $root.Values.infra.enabled -}}
{{- $u := dict "nats" (printf "nats://%s-nats:4222" $f) "redis" (printf "redis://%s-redis:6379" $f) "smtp" (printf "smtp://%s-mailpit:1025" $f) "s3" (printf "http://%s-minio:9000" $f) "natsMonitoring" (printf "%s-nats.%s.svc:8222" $f $root.Release.Namespace) -}}
{{- index $u .name -}}
{{- else -}}
{{- $e := $root.Values.external -}}
{{- $u := dict "nats" $e.natsUrl "redis" $e.redisUrl "smtp" $e.smtpUrl "s3" $e.s3Endpoint "natsMonitoring" $e.natsMonitoringEndpoint -}}
{{- $v := index $u .name -}}
{{- if not $v -}}{{- include "signet.fail" (printf "infra.enabled is false: set the external endpoint for %s (see docs/kubernetes.md)" .name) -}}{{- end -}}
{{- $v -}}
{{- end -}}
{{- end -}}

{{/* Port a NetworkPolicy opens towards external infrastructure; args: dict root name */}}
{{- define "signet.externalPort" -}}
{{- $p := index .root.Values.external.ports .name | int -}}
{{- if gt $p 0 -}}{{- $p -}}{{- else -}}
{{- $u := urlParse (include "signet.infraUrl" .) -}}
{{- $hp := splitList ":" $u.host -}}
{{- if gt (len $hp) 1 -}}{{- last $hp -}}
{{- else -}}{{- index (dict "http" "80" "https" "443" "smtp" "25" "smtps" "465" "nats" "4222" "tls" "4222" "redis" "6379" "rediss" "6379") $u.scheme -}}{{- end -}}
{{- end -}}
{{- end -}}

{{/* Image reference [<registry>/]<repository>/<name>(:<tag>|@<digest>); args: dict root name (image
     name, e.g. gateway or biometrics-gpu). An empty registry leaves the host out: the container
     runtime's configured default registry or mirror resolves the reference. */}}
{{- define "signet.image" -}}
{{- $img := .root.Values.image -}}
{{- $ref := printf "%s/%s" $img.repository .name -}}
{{- with $img.registry -}}{{- $ref = printf "%s/%s" . $ref -}}{{- end -}}
{{- $digest := index $img.digests .name -}}
{{- if $digest -}}
{{- printf "%s@%s" $ref $digest -}}
{{- else -}}
{{- printf "%s:%s" $ref (default .root.Chart.AppVersion $img.tag) -}}
{{- end -}}
{{- end -}}

{{/* Where a secret entry lives (name, key). Precedence: the entry's existingSecret, its value
     (the chart's Secret), secrets.existingSecret, else generated into the chart's Secret.
     args: dict root entry */}}
{{- define "signet.secretRef" -}}
{{- $s := index .root.Values.secrets .entry -}}
{{- $envName := index (include "signet.secretEnvNames" . | fromYaml) .entry -}}
{{- if $s.existingSecret -}}
name: {{ $s.existingSecret }}
key: {{ $s.key }}
{{- else if include "signet.secretIsOwned" . -}}
name: {{ include "signet.fullname" .root }}
key: {{ $envName }}
{{- else -}}
name: {{ .root.Values.secrets.existingSecret }}
key: {{ $s.key }}
{{- end -}}
{{- end -}}

{{/* True when the chart's own Secret holds the entry. */}}
{{- define "signet.secretIsOwned" -}}
{{- $s := index .root.Values.secrets .entry -}}
{{- if and (not $s.existingSecret) (or $s.value (not .root.Values.secrets.existingSecret)) -}}true{{- end -}}
{{- end -}}

{{- define "signet.podSecurityContext" -}}
{{- toYaml .Values.podSecurityContext -}}
{{- end -}}

{{- define "signet.containerSecurityContext" -}}
{{- toYaml .Values.containerSecurityContext -}}
{{- end -}}

{{/* Topology spread constraints for one component; args: dict root name */}}
{{- define "signet.topologySpread" -}}
{{- range $key := list "topology.kubernetes.io/zone" "kubernetes.io/hostname" }}
- maxSkew: 1
  topologyKey: {{ $key }}
  whenUnsatisfiable: {{ $.root.Values.topologySpread.whenUnsatisfiable }}
  labelSelector:
    matchLabels:
      {{- include "signet.selectorLabels" $ | nindent 6 }}
{{- end }}
{{- end -}}

{{/* Egress rules for DNS (networkPolicy.dns): the cluster DNS pods, NodeLocal DNSCache or OpenShift's DNS. */}}
{{- define "signet.dnsEgress" -}}
{{- $dns := .Values.networkPolicy.dns }}
{{- if eq $dns.mode "openshift" }}
- to:
    - namespaceSelector:
        matchLabels: { kubernetes.io/metadata.name: openshift-dns }
      podSelector:
        matchLabels: { dns.operator.openshift.io/daemonset-dns: default }
  ports:
    - { port: 5353, protocol: UDP }
    - { port: 5353, protocol: TCP }
    - { port: 53, protocol: UDP }
    - { port: 53, protocol: TCP }
{{- else }}
- to:
    - namespaceSelector: {}
      podSelector:
        matchLabels: { k8s-app: kube-dns }
    {{- if eq $dns.mode "nodelocal" }}
    - ipBlock: { cidr: {{ printf "%s/32" $dns.nodeLocalIP }} }
    {{- with $dns.clusterDNSIP }}
    - ipBlock: { cidr: {{ printf "%s/32" . }} }
    {{- end }}
    {{- end }}
  ports:
    - { port: 53, protocol: UDP }
    - { port: 53, protocol: TCP }
{{- end }}
{{- with $dns.extraPeers }}
- to:
    {{- toYaml . | nindent 4 }}
  ports:
    - { port: 53, protocol: UDP }
    - { port: 53, protocol: TCP }
{{- end }}
{{- end }}
