#!/bin/sh
# Sends the agent back to work while tests fail.
if ! make test >/dev/null 2>&1; then
	echo '{"followup_message": "The tests still fail. Fix them."}'
fi
