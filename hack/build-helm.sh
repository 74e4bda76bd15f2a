#!/usr/bin/env bash
# Builds the pinned Helm from the Go module proxy (prebuilt downloads are unreachable here) and
# caches it in bin/helm/<version>/helm. The chart test renders dist/chart with it. A build goes to
# a scratch directory and is moved into place only once it reports the expected version.
#   --print-path  build if needed (progress on stderr), then print the binary's path on stdout
set -euo pipefail

HELM_VERSION="${HELM_VERSION:-4.3.1}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${ROOT}/bin/helm/${HELM_VERSION}"

done_msg() { if [[ "${1:-}" == "--print-path" ]]; then echo "${DEST}/helm"; else echo "helm v${HELM_VERSION} ready in ${DEST}"; fi; }
if [[ -x "${DEST}/helm" ]]; then done_msg "${1:-}"; exit 0; fi

exec 3>&1 1>&2
printf '[%s] building helm v%s from the Go module proxy (a few minutes on 2 cores)\n' "$(date +%H:%M:%S)" "${HELM_VERSION}"
mkdir -p "${ROOT}/bin"
STAGE="$(mktemp -d "${ROOT}/bin/.helm-build.XXXXXX")"
trap 'rm -rf "${STAGE}"' EXIT
(cd "${STAGE}" && GOWORK=off CGO_ENABLED=0 GOBIN="${STAGE}/out" GOFLAGS=-mod=mod \
  go install -ldflags "-X helm.sh/helm/v4/internal/version.version=v${HELM_VERSION}" "helm.sh/helm/v4/cmd/helm@v${HELM_VERSION}")
"${STAGE}/out/helm" version --short | grep -q "v${HELM_VERSION}" || { echo "built helm does not report v${HELM_VERSION}" >&2; exit 1; }
mkdir -p "$(dirname "${DEST}")"
rm -rf "${DEST}" && mv "${STAGE}/out" "${DEST}"
exec 1>&3
done_msg "${1:-}"
