// Package oracle checks trust against what really runs: it runs a hook
// command as hookctl run does, under strace -f, and reads from the system
// calls every file of the workspace the process tree executed, mapped as
// code or read as an interpreter's program, and the code interpreters took
// from pipes and their arguments. Each must be covered by trust's snapshot
// or named, at the command's line, by a gap that says how it ran.
//
// The oracle does not read commands the way runtime/trust and
// schema/shellcmd do: it watches processes. Its tests (docs/trust.md,
// "Checking trust against what runs") run a corpus of attack forms, every
// template, the realworld hooks.json files and generated chains of
// scripts.
package oracle
