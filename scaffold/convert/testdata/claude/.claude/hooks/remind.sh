#!/bin/sh
# Reminds the model of the house rules, and refuses prompts that paste keys.
if grep -q 'sk-[A-Za-z0-9]\{20\}'; then
	echo "the prompt contains an API key" >&2
	exit 2
fi
echo "Run the tests before you say you are done."
