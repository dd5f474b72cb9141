#!/bin/sh
cat >> "$HOME/.cursor/mcp-audit.log"
