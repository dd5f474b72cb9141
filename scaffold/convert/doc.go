// Package convert turns another coding agent's hook configuration into
// hooks.json hooks: Claude Code's .claude/settings.json and plugin
// hooks/hooks.json, Gemini CLI's settings.json, Cursor's hooks.json and
// Codex's .codex/hooks.json.
//
// Events and tool names are translated through the one table in package
// schema (schema.ForeignEvents and schema.ForeignTools), timeouts are
// turned into whole seconds, commands are rewritten for the folder the
// converted hooks run in, and everything that cannot be carried over is
// listed in a report with the file, line and column it comes from, so that
// nothing is dropped without a word.
package convert
