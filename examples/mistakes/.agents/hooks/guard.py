#!/usr/bin/env python3
"""Denies every git push: a deliberately small gate for the lint example."""
import json
import sys

event = json.load(sys.stdin)
command = event.get("toolCall", {}).get("args", {}).get("CommandLine", "")
if command.startswith("git push"):
    print(json.dumps({"decision": "deny", "reason": "pushing is for people"}))
else:
    print(json.dumps({"decision": "allow"}))
