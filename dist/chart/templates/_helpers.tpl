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

{{/*
How the manager's webhook server authenticates its clients, one answer for its flags, volume and
mount: "ca" (mutual TLS: --webhook-client-ca, reading the Secret webhook.mutualTLS.clientCASecretName
mounted), "any" (--webhook-any-client), or "" when the chart adds neither: without the webhook
server (it then answers no one), or when manager.args name --webhook-client-ca or
--webhook-any-client themselves, as before webhook.mutualTLS existed (the arguments then decide, and
a volume they need is theirs to give in manager.extraVolumes).
*/}}
{{- define "toolgate.webhookClientAuth" -}}
{{- $explicit := false }}
{{- range .Values.manager.args }}
{{- if regexMatch "^--?webhook-(client-ca|any-client)(=|$)" (toString .) }}
{{- $explicit = true }}
{{- end }}
{{- end }}
{{- if and .Values.webhook.enabled (not $explicit) }}
{{- if .Values.webhook.mutualTLS.enabled }}ca{{ else }}any{{ end }}
{{- end }}
{{- end }}

{{/*
An image reference (dict: image (repository, tag, digest), default (the repository when none is
given), context). With a digest: repository@digest, or repository:tag@digest when a tag is given
(the tag is then only a label for people: the runtime pulls the digest); without one,
repository:tag, the tag defaulting to the chart's appVersion. A repository that already ends in
@sha256:... is used as it is.
*/}}
{{- define "toolgate.image" -}}
{{- $repo := .image.repository | default .default }}
{{- if contains "@" $repo }}
{{- if .image.digest }}
{{- fail (printf "image repository %q already pins a digest: give the digest in image.digest, not both" $repo) }}
{{- end }}
{{- $repo }}
{{- else if .image.digest }}
{{- $repo }}{{ with .image.tag }}:{{ . }}{{ end }}@{{ .image.digest }}
{{- else }}
{{- $repo }}:{{ .image.tag | default .context.Chart.AppVersion }}
{{- end }}
{{- end }}

{{/*
A container's env list (dict: defaults (the chart's own entries), env (the values' list),
overrides (the values' name -> value map)), each name once: an entry of env replaces a default of
the same name and an override replaces both, so the API server never sees a name twice (with
server-side apply, a list keyed by name with a name twice is refused; otherwise the last wins
silently). "[]" when empty.
*/}}
{{- define "toolgate.env" -}}
{{- $overrides := .overrides | default dict }}
{{- $given := dict }}
{{- range .env }}{{ $_ := set $given .name true }}{{ end }}
{{- $out := list }}
{{- range .defaults }}
{{- if not (or (hasKey $given .name) (hasKey $overrides .name)) }}{{ $out = append $out . }}{{ end }}
{{- end }}
{{- range .env }}
{{- if not (hasKey $overrides .name) }}{{ $out = append $out . }}{{ end }}
{{- end }}
{{- range $k := keys $overrides | sortAlpha }}
{{- $out = append $out (dict "name" $k "value" (toString (get $overrides $k))) }}
{{- end }}
{{- if $out }}{{ toYaml $out }}{{ else }}[]{{ end }}
{{- end }}

{{/*
Refuses a flag the chart sets itself given again in a list of extra arguments (dict: args (the
list, each item rendered with tpl as the container's arguments are), what (the list's values key),
owned (a dict: each flag the chart sets, without dashes, to what sets it: the value and its
setting, or why the chart fixes it), context). The binaries parse their flags with Go's flag
package, where the last of a flag given twice wins, silently: the extra argument would override
the value and leave what the chart rendered from it (a Service's port, a probe, a mount, the
names RBAC grants) pointing elsewhere. Go's flag reads -flag and --flag alike, with its value
after = or as the next argument; both spellings are caught. same (optional) maps a flag to the
value the chart gives it: --flag=that-value, which changes nothing, passes (values files that
copied an older default list of arguments still render).
*/}}
{{- define "toolgate.refuseOwnedFlags" -}}
{{- $ctx := .context }}
{{- range $arg := .args }}
{{- $a := tpl (toString $arg) $ctx }}
{{- if regexMatch "^--?[^-]" $a }}
{{- $name := regexReplaceAll "^--?([^=]*)(=.*)?$" $a "${1}" }}
{{- if and (hasKey $.owned $name) (not (and $.same (hasKey $.same $name) (eq $a (printf "--%s=%s" $name (get $.same $name))))) }}
{{- fail (printf "%s: %q sets --%s, which the chart already sets from %s: change that, and remove the flag from %s (of a flag given twice, the last silently wins)" $.what $a $name (get $.owned $name) $.what) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Refuses two listeners of one container on one port (dict: ports, a list of dicts each with name
(the value, or what fixes it) and port). Each server binds its own port: two on one, the second
fails to bind and the manager exits, so the pod never becomes ready and, the webhook failing
closed, every AgentToolCall create is refused. The render fails instead, naming both and the port.
*/}}
{{- define "toolgate.refusePortCollisions" -}}
{{- $seen := dict }}
{{- range .ports }}
{{- $p := toString (int .port) }}
{{- if hasKey $seen $p }}
{{- fail (printf "%s and %s are both %s: each is a listener of the manager's container, and the second could not bind its port, so the pod would never start; give them different ports" (get $seen $p) .name $p) }}
{{- end }}
{{- $_ := set $seen $p .name }}
{{- end }}
{{- end }}

{{/*
Whether manager.args turn on leader election, as the manager's Go flag package reads
--leader-elect: one dash or two, a boolean's =true/=1/=t (=false undoes an earlier one), the last
given winning. "true" or "".
*/}}
{{- define "toolgate.leaderElect" -}}
{{- $on := false }}
{{- range .Values.manager.args }}
{{- $a := toString . }}
{{- if regexMatch "^--?leader-elect(=(1|t|T|true|TRUE|True))?$" $a }}{{ $on = true }}{{ end }}
{{- if regexMatch "^--?leader-elect=(0|f|F|false|FALSE|False)$" $a }}{{ $on = false }}{{ end }}
{{- end }}
{{- if $on }}true{{ end }}
{{- end }}

{{/*
The port the manager's peer listener serves on (manager.peerPort), or "" when it serves none: it
serves only with the webhooks and leader election (cmd/peers.go), and manager.peerPort -1 turns it
off. One answer for the container's port, the port collision check and the NetworkPolicy.
*/}}
{{- define "toolgate.peerPort" -}}
{{- $port := int .Values.manager.peerPort }}
{{- if and .Values.webhook.enabled (include "toolgate.leaderElect" .) (gt $port 0) }}{{ $port }}{{ end }}
{{- end }}
