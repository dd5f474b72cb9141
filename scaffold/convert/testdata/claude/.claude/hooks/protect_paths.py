#!/usr/bin/env python3
"""Keeps the agent out of secrets and generated files."""
import json
import sys

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if path.endswith(".env") or "/dist/" in path:
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": f"{path} is protected",
        }
    }))
sys.exit(0)
