#!/bin/sh
# Refuses force pushes.
if grep -q -- '--force'; then
	echo '{"permission": "deny", "user_message": "force push refused", "agent_message": "Do not force push."}'
else
	echo '{"permission": "allow"}'
fi
