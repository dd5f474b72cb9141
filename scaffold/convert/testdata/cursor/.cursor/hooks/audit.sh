#!/bin/sh
cat >> .cursor/audit.log
