#!/bin/sh
# PostToolUse: append one line per tool call to .agents/audit.log (a JSON
# object with the time, the tool and whether it failed).
# Needs jq: apt-get install jq, or brew install jq.
command -v jq >/dev/null 2>&1 || { echo "audit-log: jq is not installed" >&2; exit 1; }
jq -c --arg at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  '{at: $at, tool: .toolCall.name, failed: ((.error // "") != "")}' >> audit.log
