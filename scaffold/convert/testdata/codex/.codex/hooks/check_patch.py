#!/usr/bin/env python3
import sys

patch = sys.stdin.read()
if "*** Delete File: " in patch:
    sys.stderr.write("deleting files through a patch is not allowed\n")
    sys.exit(2)
