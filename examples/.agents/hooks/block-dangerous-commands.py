#!/usr/bin/env python3
"""PreToolUse gate for run_command: deny command lines that destroy data or
run code fetched from the network, ask before anything that rewrites history.

Reads the event on stdin; prints {"decision": ..., "reason": ...}.
"""
import json
import shlex
import sys

DENY_PROGRAMS = {"mkfs", "mkfs.ext4", "dd", "shutdown", "reboot"}
SHELLS = {"sh", "bash", "zsh", "dash"}


def segments(command_line):
    """Split a command line into simple commands at ; && || | and newlines."""
    lexer = shlex.shlex(command_line, posix=True, punctuation_chars=";&|\n")
    lexer.whitespace_split = True
    current = []
    try:
        for token in lexer:
            if token and set(token) <= set(";&|\n"):
                if current:
                    yield current, token
                current = []
            else:
                current.append(token)
    except ValueError:  # unbalanced quotes: judge what was read
        pass
    if current:
        yield current, ""


def verdict(command_line):
    previous_pipe = False
    for words, separator in segments(command_line):
        while words and "=" in words[0] and not words[0].startswith("-"):
            words = words[1:]  # VAR=value prefixes
        if words and words[0] in ("sudo", "env", "command", "exec"):
            words = words[1:]
        if not words:
            continue
        program, args = words[0].rsplit("/", 1)[-1], words[1:]
        flags = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
        if program == "rm" and ("r" in flags.lower() or "--recursive" in args):
            targets = [a for a in args if not a.startswith("-")]
            if any(t in ("/", "/*", "~", "~/", "$HOME", ".", "..", "*") for t in targets):
                return "deny", "refusing recursive rm of %s" % " ".join(targets)
        if program in DENY_PROGRAMS:
            return "deny", "%s can destroy data; run it yourself if you mean it" % program
        if previous_pipe and program in SHELLS:
            return "deny", "piping downloaded code into %s runs it unseen" % program
        if program == "git" and args[:1] == ["push"] and any(a in ("-f", "--force") for a in args):
            return "ask", "force-push rewrites shared history"
        previous_pipe = separator == "|" and program in ("curl", "wget")
    return "allow", ""


def main():
    event = json.load(sys.stdin)
    command_line = event.get("toolCall", {}).get("args", {}).get("CommandLine", "")
    decision, reason = verdict(command_line)
    answer = {"decision": decision}
    if reason:
        answer["reason"] = reason
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
