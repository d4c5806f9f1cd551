{{/* Chart name, truncated to the DNS label limit. */}}
{{- define "whistle.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-scoped base name; a workload's resources are "<fullname>-<workload>". */}}
{{- define "whistle.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else if contains (include "whistle.name" .) .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "whistle.name" .) | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "whistle.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The routing table: {workloads, routes, localeNamespaces}. */}}
{{- define "whistle.routingTable" -}}
{{- .Files.Get "files/routes.json" }}
{{- end }}

{{- define "whistle.labels" -}}
helm.sh/chart: {{ include "whistle.chart" . }}
app.kubernetes.io/name: {{ include "whistle.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: whistle
{{- end }}

{{- define "whistle.selectorLabels" -}}
app.kubernetes.io/name: {{ include "whistle.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of one workload. Call with (dict "root" $ "name" $name "kind" $kind). */}}
{{- define "whistle.workloadLabels" -}}
{{ include "whistle.labels" .root }}
app.kubernetes.io/component: {{ .name }}
whistle/kind: {{ .kind }}
{{- end }}

{{- define "whistle.workloadSelectorLabels" -}}
{{ include "whistle.selectorLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{/* Image reference of one workload. Call with (dict "root" $ "workload" $w). */}}
{{- define "whistle.image" -}}
{{- $registry := .root.Values.image.registry }}
{{- $tag := .workload.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion }}
{{- /* A digest pins the exact image: a re-pushed tag cannot change what runs. */}}
{{- $reference := printf ":%s" $tag }}
{{- with .workload.image.digest }}{{ $reference = printf "@%s" . }}{{ end }}
{{- if $registry }}
{{- printf "%s/%s%s" $registry .workload.image.repository $reference }}
{{- else }}
{{- printf "%s%s" .workload.image.repository $reference }}
{{- end }}
{{- end }}

{{/* Values that must be set: fail early with a message that says what to do. */}}
{{- define "whistle.publicUrl" -}}
{{- required "publicUrl is required: the public origin of Whistle, e.g. https://whistle.example.com" .Values.publicUrl }}
{{- end }}

{{- define "whistle.existingSecret" -}}
{{- required "existingSecret is required: the name of a Secret you created with the credentials (docs/operations.md)" .Values.existingSecret }}
{{- end }}

{{- define "whistle.publicHost" -}}
{{- (urlParse (include "whistle.publicUrl" .)).host }}
{{- end }}

{{/* remotes.json: values.remotes, or every frontend of the routing table but the shell, by its federation name (mfe-x -> mfe_x);
with config.errorReporting.browserDsn, also the browser's errorReporting entry. */}}
{{- define "whistle.remotesJson" -}}
{{- $remotes := deepCopy (.Values.remotes | default dict) }}
{{- if not $remotes }}
{{- $table := include "whistle.routingTable" . | fromJson }}
{{- $remotes = dict }}
{{- range $name, $workload := $table.workloads }}
{{- if and (eq $workload.kind "frontend") (ne $name "shell") }}
{{- $_ := set $remotes ($name | replace "-" "_") (printf "/remotes/%s/mf-manifest.json" $name) }}
{{- end }}
{{- end }}
{{- end }}
{{- with .Values.config.errorReporting }}
{{- if .browserDsn }}
{{- $reporting := dict "dsn" .browserDsn "tracesSampleRate" .tracesSampleRate }}
{{- with .environment }}{{- $_ := set $reporting "environment" . }}{{- end }}
{{- with .release }}{{- $_ := set $reporting "release" . }}{{- end }}
{{- $_ := set $remotes "errorReporting" $reporting }}
{{- end }}
{{- end }}
{{- toPrettyJson $remotes }}
{{- end }}

{{/* ServiceAccount of one workload. Call with (dict "root" $ "name" $name "workload" $w). */}}
{{- define "whistle.serviceAccountName" -}}
{{- if .workload.serviceAccount.create }}
{{- .workload.serviceAccount.name | default (printf "%s-%s" (include "whistle.fullname" .root) .name) }}
{{- else }}
{{- .workload.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* With tests.enabled: the `helm test` Pod as a NetworkPolicy peer (it asks every workload's /readyz). */}}
{{- define "whistle.testPeer" -}}
{{- if .Values.tests.enabled }}
        - podSelector:
            matchLabels:
              {{- include "whistle.selectorLabels" . | nindent 14 }}
              whistle/kind: test
{{- end }}
{{- end }}
