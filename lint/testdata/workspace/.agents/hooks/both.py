import json, sys
p = json.load(sys.stdin)
args = p.get("toolCall", {}).get("args") or p.get("tool_input")
