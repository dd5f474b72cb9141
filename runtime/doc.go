// Package runtime dispatches an event to the hooks of hooks.json files
// exactly as the agent does, and adds their answers up into the one answer
// the agent receives.
//
// A dispatch has three stages:
//
//   - plan ([NewPlan]): read the payload, find the files (the user's
//     ~/.gemini/config/hooks.json, then the workspace's .agents/hooks.json,
//     or the files the caller names), and decide for every handler of the
//     event whether it runs: the hook must be enabled, its group's matcher
//     must select the tool (an anchored RE2 expression), its file must be
//     trusted, and an identical handler runs once;
//   - execute ([Plan.Run]): every handler at once, each as /bin/sh -c
//     COMMAND in the folder that holds its hooks.json and in its own process
//     group, the payload bytes on stdin, stopped with SIGTERM and then
//     SIGKILL when its timeout passes, and whatever it started killed when
//     it ends;
//   - merge ([Merge]): the outcomes in config order, never in the order the
//     handlers finished, per the event's rule (the strictest PreToolUse
//     decision wins, a Stop continues when any handler continues, ...).
//
// [Dispatch] does all three. A handler that fails (exits with another
// status, times out, prints more than [StdoutCap] or something that is not a
// valid answer) is reported in [Result.Notes]; for PreToolUse it adds the
// decision that [Options.OnError] names. A file that cannot be read or
// parsed, and each invalid part of a file, count as failed handlers.
//
// On Linux the first dispatch makes the calling process a child subreaper
// (PR_SET_CHILD_SUBREAPER) for the rest of its life, so that what a handler
// leaves behind comes back to it and can be killed and reaped even when it
// left the handler's process group. The processes the caller starts itself
// are never signalled nor reaped by a dispatch; an orphan of one of them now
// comes back to the caller, to reap.
//
// [RunWrapped] runs one command the way hookctl trace and hookctl adapt
// wrap a handler's: directly, without a shell, with its streams passed
// through and their start kept, the signals the wrapper receives passed
// on, and its exit status or death by a signal returned for the wrapper to
// repeat ([Reraise]).
package runtime
