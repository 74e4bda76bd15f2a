#!/usr/bin/env bash
# Installs the third-party MCP servers the gateway tests put behind toolgate-gateway, pinned by
# hack/mcp-servers/package-lock.json, from the npm registry into bin/mcp-servers/<lock digest>/.
# A finished install is reused; an install is assembled in a scratch directory and moved into
# place only when complete, so an interrupted run never leaves half an install behind.
#
# Usage: install-mcp-servers.sh [--print-dir]
#   --print-dir  install if needed (progress on stderr), then print the install directory on stdout
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="${ROOT}/hack/mcp-servers"
DIGEST="$(cat "${SRC}/package.json" "${SRC}/package-lock.json" | sha256sum | cut -c1-16)"
DEST="${ROOT}/bin/mcp-servers/${DIGEST}"
mode="${1:-}"

if [[ ! -f "${DEST}/.complete" ]]; then
  command -v npm >/dev/null || { echo "install-mcp-servers: npm is not installed" >&2; exit 1; }
  mkdir -p "${ROOT}/bin/mcp-servers"
  scratch="$(mktemp -d "${ROOT}/bin/mcp-servers/.install-XXXXXX")"
  trap 'rm -rf "${scratch}"' EXIT
  cp "${SRC}/package.json" "${SRC}/package-lock.json" "${scratch}/"
  (cd "${scratch}" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
  touch "${scratch}/.complete"
  rm -rf "${DEST}"
  mv "${scratch}" "${DEST}"
  trap - EXIT
fi
if [[ "${mode}" == "--print-dir" ]]; then echo "${DEST}"; else echo "MCP servers ready in ${DEST}" >&2; fi
