import sys
sys.stdin.read()
