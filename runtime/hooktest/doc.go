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
// results. CaseFromRecord turns a run recorded in the log into a case that
// expects what was answered (hookctl test --add-from-log), as the runtime
// judges it.
//
// Contract needs no test file: it sends every enabled handler of hooks.json
// files, alone, generated payloads (one per known tool its matcher selects,
// or one of its other event) and holds each answer to what the agent
// punishes (see the Check constants); ContractPrinter and HandlerReport.JSON
// write its report. Every handler either runs gets HOOKCTL_TEST=1.
package hooktest
