#!/bin/sh
# Appends every shell command to the audit log.
cat >> "$HOME/.gemini/shell-audit.jsonl"
