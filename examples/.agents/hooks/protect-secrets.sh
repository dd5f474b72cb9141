#!/bin/sh
# PreToolUse gate for file tools: deny reading or writing secrets (.env files,
# private keys, credentials). Reads the event on stdin, prints a decision.
# Needs jq: apt-get install jq, or brew install jq.
if ! command -v jq >/dev/null 2>&1; then
  echo "protect-secrets: jq is not installed (apt-get install jq, or brew install jq)" >&2
  exit 1
fi
path=$(jq -r '.toolCall.args | (.AbsolutePath // .TargetFile // "")')
case "$(basename -- "$path")" in
  .env | .env.* | *.pem | *.key | id_rsa | id_ed25519 | credentials.json)
    jq -n --arg p "$path" '{decision: "deny", reason: ("\($p) holds secrets; hooks keep agents away from it")}'
    ;;
  *)
    echo '{"decision": "allow"}'
    ;;
esac
