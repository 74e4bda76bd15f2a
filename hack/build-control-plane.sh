#!/usr/bin/env bash
# Builds the pinned test control plane (kube-apiserver, kubectl, etcd) from the Go module proxy and
# caches it in bin/k8s/<version>/. Prebuilt downloads (setup-envtest) are unreachable here, so this is
# the only source of a real API server. A finished cache is reused; a build is assembled in a scratch
# directory and moved into place only after every binary reports the expected version, so an
# interrupted run never leaves a half-built cache behind.
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-1.37.2}"
ETCD_VERSION="${ETCD_VERSION:-3.6.16}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${ROOT}/bin/k8s/${K8S_VERSION}"

# Usage: build-control-plane.sh [--dir | --print-dir]
#   --dir        print the cache directory and exit (no build)
#   --print-dir  build if needed (progress on stderr), then print the cache directory on stdout
mode="${1:-}"
if [[ "${mode}" == "--dir" ]]; then echo "${DEST}"; exit 0; fi
done_msg() { if [[ "${mode}" == "--print-dir" ]]; then echo "${DEST}"; else echo "control plane v${K8S_VERSION} (etcd v${ETCD_VERSION}) ready in ${DEST}"; fi; }

if [[ -x "${DEST}/kube-apiserver" && -x "${DEST}/etcd" && -x "${DEST}/kubectl" && -f "${DEST}/.complete" ]]; then
  done_msg
  exit 0
fi

# Progress goes to stderr so that --print-dir keeps stdout for the answer.
exec 3>&1 1>&2
step() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }

STAGE="$(mktemp -d "${ROOT}/bin/.k8s-build.XXXXXX" 2>/dev/null || { mkdir -p "${ROOT}/bin"; mktemp -d "${ROOT}/bin/.k8s-build.XXXXXX"; })"
trap 'rm -rf "${STAGE}"' EXIT
export GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0

step "building kube-apiserver and kubectl v${K8S_VERSION} and etcd v${ETCD_VERSION} (first build takes ~10 minutes on 2 cores)"

# k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces them with local paths,
# which a consumer cannot see; replace each with the matching published v0.x release.
mkdir -p "${STAGE}/k8s" "${STAGE}/etcd" "${STAGE}/out"
step "resolving k8s.io/kubernetes v${K8S_VERSION}"
modfile="$(cd "${STAGE}/k8s" && go mod download -json "k8s.io/kubernetes@v${K8S_VERSION}" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
staging_version="v0.${K8S_VERSION#1.}"
{
  echo "module toolgate.dev/build-control-plane"
  echo "go 1.26"
  echo "require k8s.io/kubernetes v${K8S_VERSION}"
  grep -E '^\s+k8s.io/[a-z0-9-]+ => ./staging/' "${modfile}" | awk -v v="${staging_version}" '{print "replace " $1 " => " $1 " " v}'
} > "${STAGE}/k8s/go.mod"
cat > "${STAGE}/k8s/tools.go" <<'GO'
//go:build tools

package tools
GO

ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X ${pkg}.gitVersion=v${K8S_VERSION} -X ${pkg}.gitMajor=${K8S_VERSION%%.*}"
  minor="${K8S_VERSION#*.}"; minor="${minor%%.*}"
  ldflags+=" -X ${pkg}.gitMinor=${minor} -X ${pkg}.gitTreeState=clean"
done

(
  cd "${STAGE}/k8s"
  step "resolving dependencies"
  go get "k8s.io/kubernetes/cmd/kube-apiserver@v${K8S_VERSION}" "k8s.io/kubernetes/cmd/kubectl@v${K8S_VERSION}" >/dev/null 2>&1 \
    || go get "k8s.io/kubernetes/cmd/kube-apiserver@v${K8S_VERSION}" "k8s.io/kubernetes/cmd/kubectl@v${K8S_VERSION}"
  step "compiling kube-apiserver"
  go build -trimpath -ldflags "${ldflags}" -o "${STAGE}/out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
  step "compiling kubectl"
  go build -trimpath -ldflags "${ldflags}" -o "${STAGE}/out/kubectl" k8s.io/kubernetes/cmd/kubectl
)

(
  cd "${STAGE}/etcd"
  printf 'module toolgate.dev/build-etcd\ngo 1.26\n' > go.mod
  step "resolving etcd"
  go get "go.etcd.io/etcd/server/v3@v${ETCD_VERSION}" >/dev/null 2>&1 || go get "go.etcd.io/etcd/server/v3@v${ETCD_VERSION}"
  step "compiling etcd"
  go build -trimpath -ldflags "-s -w" -o "${STAGE}/out/etcd" go.etcd.io/etcd/server/v3
)

step "verifying versions"
# Each output is captured before it is searched: with pipefail, `etcd --version | grep -q` fails
# whenever grep exits at its match before etcd has written its last line (SIGPIPE).
apiserver_version="$("${STAGE}/out/kube-apiserver" --version)"
kubectl_version="$("${STAGE}/out/kubectl" version --client 2>&1)"
etcd_version="$("${STAGE}/out/etcd" --version)"
[[ "${apiserver_version}" == *"v${K8S_VERSION}" ]] || { echo "kube-apiserver reports ${apiserver_version}" >&2; exit 1; }
[[ "${kubectl_version}" == *"v${K8S_VERSION}"* ]] || { echo "kubectl reports ${kubectl_version}" >&2; exit 1; }
[[ "${etcd_version}" == *"etcd Version: ${ETCD_VERSION}"* ]] || { echo "etcd reports ${etcd_version}" >&2; exit 1; }
echo "${apiserver_version}"
echo "${etcd_version%%$'\n'*}"
touch "${STAGE}/out/.complete"

mkdir -p "$(dirname "${DEST}")"
rm -rf "${DEST}"
mv "${STAGE}/out" "${DEST}"
step "control plane ready in ${DEST}"
exec 1>&3
done_msg
