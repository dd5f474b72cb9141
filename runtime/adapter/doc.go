// Package adapter lets the hooks of this format serve another agent: it
// translates a Claude Code, Gemini CLI, Cursor or Codex hook invocation (the
// agent's event name and its payload) into this format's event and payload,
// and translates the answer the runtime merged back into what that agent
// reads: stdout, exit status and stderr together.
//
// Tool names and argument names go through the one table of schema
// (schema.ForeignTools), which lint and hookctl import read too; events
// through schema.ForeignEvents. What has no equivalent is "no opinion" for
// the other agent, never a block, with a line saying so.
//
// The package dispatches nothing itself: the caller runs each payload
// through runtime.NewPlan and Plan.Run, as hookctl run does, and hands the
// merged answers to Call.Reply.
package adapter
