{{/*
Names. The fullname is the release name, with the chart name appended unless the release name already contains it.
*/}}
{{- define "kaas.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "kaas.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 52 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 52 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 52 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The brokers' headless Service: KAAS_HEADLESS_SERVICE, whose EndpointSlices are the broker registry. */}}
{{- define "kaas.headlessServiceName" -}}
{{- printf "%s-brokers" (include "kaas.fullname" .) }}
{{- end }}

{{- define "kaas.bootstrapServiceName" -}}
{{- printf "%s-bootstrap" (include "kaas.fullname" .) }}
{{- end }}

{{- define "kaas.dataClaimName" -}}
{{- printf "%s-data" (include "kaas.fullname" .) }}
{{- end }}

{{/* The PVC of volume pool member .member (mounted at /vols/<name>). */}}
{{- define "kaas.poolClaimName" -}}
{{- printf "%s-vol-%s" (include "kaas.fullname" .root) .member.name }}
{{- end }}

{{/*
KAAS_VOLUME_POOL: storage.pool as the brokers (log dirs) and the operator (placement) read it, one JSON array of
{name, path, defaultEligible, cordoned, labels}; the path is where the pod mounts the member's claim.
*/}}
{{- define "kaas.volumePool" -}}
{{- $members := list }}
{{- range .Values.storage.pool }}
{{- $members = append $members (dict "name" .name "path" (printf "/vols/%s" .name) "defaultEligible" (default false .defaultEligible) "cordoned" (default false .cordoned) "labels" (default (dict) .labels)) }}
{{- end }}
{{- toJson $members }}
{{- end }}

{{/* The controller Lease the brokers compete for: KAAS_LEASE_NAME. */}}
{{- define "kaas.controllerLeaseName" -}}
{{- printf "%s-controller" (include "kaas.fullname" .) }}
{{- end }}

{{/* The Lease operator replicas compete for: KAAS_OPERATOR_LEASE_NAME. */}}
{{- define "kaas.operatorLeaseName" -}}
{{- printf "%s-operator" (include "kaas.fullname" .) }}
{{- end }}

{{- define "kaas.brokerServiceAccountName" -}}
{{- if .Values.broker.serviceAccount.create }}
{{- default (printf "%s-broker" (include "kaas.fullname" .)) .Values.broker.serviceAccount.name }}
{{- else }}
{{- required "broker.serviceAccount.name names the existing ServiceAccount when broker.serviceAccount.create is false" .Values.broker.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "kaas.operatorServiceAccountName" -}}
{{- if .Values.operator.serviceAccount.create }}
{{- default (printf "%s-operator" (include "kaas.fullname" .)) .Values.operator.serviceAccount.name }}
{{- else }}
{{- required "operator.serviceAccount.name names the existing ServiceAccount when operator.serviceAccount.create is false" .Values.operator.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Labels.
*/}}
{{- define "kaas.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "kaas.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: kaas
{{- end }}

{{- define "kaas.brokerSelectorLabels" -}}
app.kubernetes.io/name: {{ include "kaas.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: broker
{{- end }}

{{- define "kaas.operatorSelectorLabels" -}}
app.kubernetes.io/name: {{ include "kaas.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end }}

{{/*
Images: repository:tag, the tag defaulting to the chart's appVersion.
*/}}
{{- define "kaas.brokerImage" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "kaas.operatorImage" -}}
{{- printf "%s:%s" .Values.operator.image.repository (default .Chart.AppVersion .Values.operator.image.tag) }}
{{- end }}

{{/*
Listeners. "kaas.enabledListeners" is the JSON array of the enabled entries of .Values.listeners without their
`enabled` flag (absent means enabled) and the chart's own `certificate`: the KAAS_LISTENERS value, and what every
other listener template iterates.
Ports pass through int64 so large numbers never print in float notation.
*/}}
{{- define "kaas.enabledListeners" -}}
{{- $enabled := list }}
{{- range .Values.listeners }}
{{- if or (not (hasKey . "enabled")) .enabled }}
{{- $entry := omit . "enabled" "certificate" }}
{{- $_ := set $entry "port" (int64 .port) }}
{{- $enabled = append $enabled $entry }}
{{- end }}
{{- end }}
{{- toJson $enabled }}
{{- end }}

{{/*
The certificate Secret of each enabled TLS listener, as a JSON object from listener name to Secret name: its
certificate.secretName, or <fullname>-<listener name>-tls. Each is mounted as a directory at /etc/kaas/tls/<name>/,
where the broker reads tls.crt, tls.key and ca.crt (a directory, not subPath: the kubelet's atomic swap of a rotated
certificate reaches the broker, which reloads it).
*/}}
{{- define "kaas.tlsListenerSecrets" -}}
{{- $secrets := dict }}
{{- range .Values.listeners }}
{{- if and (or (not (hasKey . "enabled")) .enabled) .tls }}
{{- $name := dig "certificate" "secretName" "" . }}
{{- $_ := set $secrets .name (default (printf "%s-%s-tls" (include "kaas.fullname" $) .name) $name) }}
{{- else if and (dig "certificate" "secretName" "" .) (not .tls) }}
{{- fail (printf "listeners: listener %s has certificate.secretName but tls: false" .name) }}
{{- end }}
{{- end }}
{{- toJson $secrets }}
{{- end }}

{{/*
The port name of enabled listener number $index: the first is "kafka", the name the broker registry reads the client
port from on the headless Service's EndpointSlices (the port on KAAS_PORT); the others keep their listener's name.
*/}}
{{- define "kaas.listenerPortName" -}}
{{- if eq (int .index) 0 }}kafka{{ else }}{{ .listener.name }}{{ end }}
{{- end }}

{{/*
Checks values.schema.json cannot express: at least one enabled listener; listener names and ports unique and clear of
the port names and ports the chart reserves; pool member names unique.
*/}}
{{- define "kaas.validate" -}}
{{- $listeners := include "kaas.enabledListeners" . | fromJsonArray }}
{{- if not $listeners }}
{{- fail "listeners: at least one listener must be enabled; the broker serves clients on the first" }}
{{- end }}
{{- $names := dict "kafka" "the first listener's port" "heartbeat" "broker.heartbeatPort" "health" "broker.healthPort" }}
{{- $ports := dict (toString (int64 .Values.broker.heartbeatPort)) "broker.heartbeatPort" (toString (int64 .Values.broker.healthPort)) "broker.healthPort" }}
{{- range $listeners }}
{{- if hasKey $names .name }}
{{- fail (printf "listeners: the name %q is taken (%s)" .name (get $names .name)) }}
{{- end }}
{{- $_ := set $names .name (printf "listener %s" .name) }}
{{- $port := toString .port }}
{{- if hasKey $ports $port }}
{{- fail (printf "listeners: listener %s's port %s is taken (%s)" .name $port (get $ports $port)) }}
{{- end }}
{{- $_ := set $ports $port (printf "listener %s" .name) }}
{{- end }}
{{- $pool := dict "default" "the data volume" }}
{{- range .Values.storage.pool }}
{{- if hasKey $pool .name }}
{{- fail (printf "storage.pool: the name %q is taken (%s)" .name (get $pool .name)) }}
{{- end }}
{{- $_ := set $pool .name "a pool member" }}
{{- end }}
{{- end }}
