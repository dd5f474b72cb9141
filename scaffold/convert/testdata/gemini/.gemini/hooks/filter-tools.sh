#!/bin/sh
echo '{"hookSpecificOutput": {"toolConfig": {"mode": "AUTO"}}}'
