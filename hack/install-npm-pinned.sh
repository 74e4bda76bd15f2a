#!/usr/bin/env bash
# Installs a set of third-party programs the tests run, pinned by hack/<SET>/package-lock.json,
# from the npm registry into bin/<SET>/<lock digest>/. A finished install is reused; an install is
# assembled in a scratch directory and moved into place only when complete, so an interrupted run
# never leaves half an install behind. Install scripts never run (--ignore-scripts).
#
# Usage: install-npm-pinned.sh SET [--print-dir]
#   SET          mcp-servers (the gateway tests' MCP servers and the Inspector's CLI) or
#                claude-code (the coding agent the hook's suite runs)
#   --print-dir  install if needed (progress on stderr), then print the install directory on stdout
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SET="${1:?usage: install-npm-pinned.sh SET [--print-dir]}"
SRC="${ROOT}/hack/${SET}"
[[ -f "${SRC}/package-lock.json" ]] || { echo "install-npm-pinned: no ${SRC}/package-lock.json" >&2; exit 1; }
DIGEST="$(cat "${SRC}/package.json" "${SRC}/package-lock.json" | sha256sum | cut -c1-16)"
DEST="${ROOT}/bin/${SET}/${DIGEST}"
mode="${2:-}"

if [[ ! -f "${DEST}/.complete" ]]; then
  command -v npm >/dev/null || { echo "install-npm-pinned: npm is not installed" >&2; exit 1; }
  mkdir -p "${ROOT}/bin/${SET}"
  scratch="$(mktemp -d "${ROOT}/bin/${SET}/.install-XXXXXX")"
  trap 'rm -rf "${scratch}"' EXIT
  cp "${SRC}/package.json" "${SRC}/package-lock.json" "${scratch}/"
  (cd "${scratch}" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
  touch "${scratch}/.complete"
  rm -rf "${DEST}"
  mv "${scratch}" "${DEST}"
  trap - EXIT
fi
if [[ "${mode}" == "--print-dir" ]]; then echo "${DEST}"; else echo "${SET} ready in ${DEST}" >&2; fi
