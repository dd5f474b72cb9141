#!/bin/sh
payload=$(cat)
case "$payload" in
*'.env"'*) echo '{"permission": "deny"}' ;;
*) echo '{"permission": "allow"}' ;;
esac
