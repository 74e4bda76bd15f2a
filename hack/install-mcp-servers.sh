#!/usr/bin/env bash
# Installs the third-party MCP servers the gateway tests put behind toolgate-gateway, and the MCP
# Inspector's CLI, pinned by hack/mcp-servers/package-lock.json, into bin/mcp-servers/<lock digest>/.
# Usage: install-mcp-servers.sh [--print-dir]
exec "$(dirname "${BASH_SOURCE[0]}")/install-npm-pinned.sh" mcp-servers "$@"
