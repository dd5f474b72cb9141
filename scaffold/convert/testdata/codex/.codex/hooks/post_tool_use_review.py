import json, sys
event = json.load(sys.stdin)
if event.get("tool_response", {}).get("exit_code"):
    print(json.dumps({"decision": "block", "reason": "the command failed: look at its output"}))
