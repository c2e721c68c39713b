{{/*
The ledger's witnesses (witnessing.*): LEDGER_WITNESSES as the JSON list the ledger reads and
LEDGER_WITNESS_QUORUM when given, set into the ledger's env dict ("env"). Refuses a witness without
url or key, a non-http(s) URL, a key listed twice and a quorum outside 1..the number of witnesses.
*/}}
{{- define "signet.ledgerWitnessEnv" -}}
{{- $w := .root.Values.witnessing }}
{{- $keys := list }}
{{- range $i, $x := $w.witnesses }}
{{- if or (not $x.url) (not $x.key) }}{{ include "signet.fail" (printf "witnessing.witnesses[%d]: give url and key" $i) }}{{ end }}
{{- if not (regexMatch "^https?://[^\\s]+$" $x.url) }}{{ include "signet.fail" (printf "witnessing.witnesses[%d].url: an http(s) URL" $i) }}{{ end }}
{{- if has $x.key $keys }}{{ include "signet.fail" (printf "witnessing.witnesses[%d]: key listed twice" $i) }}{{ end }}
{{- $keys = append $keys $x.key }}
{{- end }}
{{- if $w.witnesses }}
{{- $_ := set .env "LEDGER_WITNESSES" (toJson $w.witnesses) }}
{{- end }}
{{- if not (kindIs "invalid" $w.quorum) }}
{{- if or (lt (int $w.quorum) 1) (gt (int $w.quorum) (len $w.witnesses)) }}{{ include "signet.fail" (printf "witnessing.quorum: between 1 and the %d witness(es) listed" (len $w.witnesses)) }}{{ end }}
{{- $_ := set .env "LEDGER_WITNESS_QUORUM" (toString $w.quorum) }}
{{- end }}
{{- end -}}

{{/* The distinct ports of the witnesses' URLs (egress of the ledger), one a line. */}}
{{- define "signet.witnessPorts" -}}
{{- $ports := list }}
{{- range .Values.witnessing.witnesses }}
{{- $u := urlParse .url }}
{{- $hp := splitList ":" $u.host }}
{{- $p := ternary (last $hp) (ternary "443" "80" (eq $u.scheme "https")) (gt (len $hp) 1) }}
{{- if not (has $p $ports) }}{{ $ports = append $ports $p }}{{ end }}
{{- end }}
{{- join "\n" $ports }}
{{- end -}}
