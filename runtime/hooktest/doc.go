// Package hooktest runs the unit tests of hooks: the cases of a
// hooks.test.json, each an event and a partial payload sent through
// runtime.Dispatch (the same dispatch as hookctl run), with the merged answer
// compared with what the case expects.
//
// A test file reads
//
//	{"tests": [
//	  {"name": "gate denies rm -rf", "tool": "run_command",
//	   "args": {"CommandLine": "rm -rf /"}, "expect": {"decision": "deny"}}
//	]}
//
// Load checks the file and reports every mistake with its line and column;
// Run sends a case through the hooks; Compare decides whether an answer holds
// what a case expects (see its rules); TextPrinter and Report.JSON write the
// results.
package hooktest
