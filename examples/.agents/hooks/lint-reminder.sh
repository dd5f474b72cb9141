#!/bin/sh
# PreInvocation: remind the model to run the linter before it claims to be
# done.
cat >/dev/null
echo '{"injectSteps": [{"ephemeralMessage": "Run the linter on the files you changed before you finish."}]}'
