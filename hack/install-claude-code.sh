#!/usr/bin/env bash
# Installs Claude Code (its native Linux x86-64 binary), the coding agent internal/hook's suite runs
# with toolgate-hook as its PreToolUse hook, pinned by hack/claude-code/package-lock.json, into
# bin/claude-code/<lock digest>/.
# Usage: install-claude-code.sh [--print-dir]
exec "$(dirname "${BASH_SOURCE[0]}")/install-npm-pinned.sh" claude-code "$@"
