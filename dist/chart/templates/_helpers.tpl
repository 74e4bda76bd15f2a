{{/*
Expand the name of the chart.
*/}}
{{- define "toolgate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Create a default fully qualified app name.
We truncate at 63 chars because some Kubernetes name fields are limited to this (by the DNS naming spec).
If release name contains chart name it will be used as a full name.
*/}}
{{- define "toolgate.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Namespace for generated references.
Always uses the Helm release namespace.
*/}}
{{- define "toolgate.namespaceName" -}}
{{- .Release.Namespace }}
{{- end }}

{{/*
Resource name with proper truncation for Kubernetes 63-character limit.
Takes a dict with:
  - .suffix: Resource name suffix (e.g., "metrics", "webhook")
  - .context: Template context (root context with .Values, .Release, etc.)
Dynamically calculates safe truncation to ensure total name length <= 63 chars.
*/}}
{{- define "toolgate.resourceName" -}}
{{- $fullname := include "toolgate.fullname" .context }}
{{- $suffix := .suffix }}
{{- $maxLen := sub 62 (len $suffix) | int }}
{{- if gt (len $fullname) $maxLen }}
{{- printf "%s-%s" (trunc $maxLen $fullname | trimSuffix "-") $suffix | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" $fullname $suffix | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/*
ServiceAccount name to use.
When enabled, use the chart's ServiceAccount name.
When disabled, serviceAccount.name must be set; use "default" to pick the namespace default ServiceAccount.
*/}}
{{- define "toolgate.serviceAccountName" -}}
{{- if .Values.serviceAccount.enabled }}
{{- include "toolgate.resourceName" (dict "suffix" "controller-manager" "context" .) }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.enabled=false (set name: default explicitly to use the namespace default ServiceAccount)" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The gateway's pod labels, which its Service, its Deployment and the network policies select by
(the same as config/gateway's, so a policy written for one install selects the other's pods).
*/}}
{{- define "toolgate.gatewaySelector" -}}
app.kubernetes.io/name: {{ include "toolgate.name" . }}
app.kubernetes.io/component: gateway
{{- end }}

{{/*
The labels of every object the gateway's part of the chart renders.
*/}}
{{- define "toolgate.gatewayLabels" -}}
{{ include "toolgate.gatewaySelector" . }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version | replace "+" "_" }}
{{- end }}

{{/*
Whether cert-manager issues the metrics certificate the manager serves: certManager.enabled, for
a secure metrics endpoint. One condition for the Certificate, the manager's flag and its mount.
*/}}
{{- define "toolgate.metricsCertManaged" -}}
{{- if and .Values.certManager.enabled .Values.metrics.enabled .Values.metrics.secure }}true{{ end }}
{{- end }}

{{/*
A PodDisruptionBudget for a Deployment's pods (dict: name, what (its values' key), replicas, pdb
(its podDisruptionBudget values), selector (its pods' selector, YAML), labels (YAML), context).
At most one of minAvailable and maxUnavailable, maxUnavailable 1 when neither is given; the chart
refuses a budget that lets no pod be evicted, which would leave every node drain waiting for ever.
*/}}
{{- define "toolgate.podDisruptionBudget" -}}
{{- $pdb := .pdb }}
{{- $has := dict "min" (and (hasKey $pdb "minAvailable") (ne (toString $pdb.minAvailable) "")) "max" (and (hasKey $pdb "maxUnavailable") (ne (toString $pdb.maxUnavailable) "")) }}
{{- if and $has.min $has.max }}
{{- fail (printf "%s.podDisruptionBudget: give minAvailable or maxUnavailable, not both" .what) }}
{{- end }}
{{- if not (or $has.min $has.max) }}
{{- $pdb = dict "maxUnavailable" 1 }}
{{- $_ := set $has "max" true }}
{{- end }}
{{- if and $has.max (or (eq (toString $pdb.maxUnavailable) "0") (eq (toString $pdb.maxUnavailable) "0%")) }}
{{- fail (printf "%s.podDisruptionBudget.maxUnavailable is %v: no pod could ever be evicted, so every node drain would wait for ever" .what $pdb.maxUnavailable) }}
{{- end }}
{{- if and $has.min (or (eq (toString $pdb.minAvailable) "100%") (and (not (kindIs "string" $pdb.minAvailable)) (ge (int $pdb.minAvailable) (int .replicas)))) }}
{{- fail (printf "%s.podDisruptionBudget.minAvailable is %v with %s.replicas %v: no pod could ever be evicted, so every node drain would wait for ever" .what $pdb.minAvailable .what .replicas) }}
{{- end }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  labels:
    {{- .labels | nindent 4 }}
  name: {{ .name }}
  namespace: {{ .context.Release.Namespace }}
spec:
  {{- if $has.min }}
  minAvailable: {{ $pdb.minAvailable }}
  {{- else }}
  maxUnavailable: {{ $pdb.maxUnavailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- .selector | nindent 6 }}
{{- end }}
