import json, sys
p = json.load(sys.stdin)
print(p["tool_input"]["command"])
