import json, sys
event = json.load(sys.stdin)
if not event.get("stop_hook_active"):
    print(json.dumps({"decision": "block", "reason": "run the tests once more"}))
