package doctor

import (
	"fmt"
	"strings"
	"time"

	"github.com/hookctl/hookctl/runtime/agy"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
)

// haveSome says how many hooks have something: "1 hook has", "2 hooks
// have".
func haveSome(n int) string {
	if n == 1 {
		return "1 hook has"
	}
	return schema.Plural(n, "hook") + " have"
}

// areCount says how many there are: "1 is", "0 are".
func areCount(n int) string {
	if n == 1 {
		return "1 is"
	}
	return fmt.Sprintf("%d are", n)
}

// lintFix is the lint command for the files doctor read, from the current
// folder.
func (d *Facts) lintFix() string {
	if d.cwd == d.ws {
		return "hookctl lint"
	}
	args := []string{"hookctl lint"}
	for _, f := range d.files {
		args = append(args, d.arg(f.path))
	}
	return strings.Join(args, " ")
}

// pluginFailure is the check for the log's latest "Failed to parse hooks
// for plugin NAME" line: the agent loads none of that plugin's hooks. The
// plugin's own hooks.json is looked for where agy installs plugins.
func pluginFailure(d *Facts) Result {
	log, l := d.logPath, d.log
	c := Result{Check: "agent-log", Status: Fail,
		Data: map[string]any{"log": log, "line": l.LineData(l.PluginLine), "plugin": l.Plugin, "message": l.PluginMsg},
		Message: fmt.Sprintf("the agent's log (%s) says it failed to parse the hooks of the plugin %q, so it runs none of them: %s",
			l.Line(l.PluginLine), schema.Visible(l.Plugin), schema.Visible(l.PluginMsg)),
		Fix: "the plugin's hooks/hooks.json must follow this format (a hook name, then events); update or reinstall the plugin (agy plugin install), or report it to its authors"}
	if d.pluginFile != "" {
		p, cfg := d.pluginFile, d.pluginCfg
		c.File = d.shown(p)
		if span, ok := agy.InvalidHookIn(cfg, l.PluginMsg); ok {
			c.Line, c.Column = span.Start.Line, span.Start.Col
			c.Message = fmt.Sprintf("%s:%d:%d: %s", c.File, c.Line, c.Column, c.Message)
		}
		c.Fix = "hookctl lint " + d.arg(p) + " says what to change; update or reinstall the plugin, or report it to its authors"
	}
	return c
}

// checkContract points at hookctl test --contract, the check of every
// handler against what the agent punishes, in both formats.
func checkContract(d *Facts) (c checks) {
	if len(d.files) == 0 {
		return nil
	}
	c.add(Result{Check: "next", Status: OK,
		Message: "hookctl test --contract runs every enabled handler on generated payloads and checks what the agent punishes (an answer it cannot take, a timeout)",
		Fix:     "hookctl test --contract"})
	return c
}

// declaredHook is an enabled hook of a file the agent loads.
type declaredHook struct {
	file *hooksFile
	hook *schema.HookDefinition
}

func (d *Facts) declaredHooks() []declaredHook {
	var out []declaredHook
	for _, f := range d.files {
		if f.verdict == nil || f.drops {
			continue
		}
		for _, h := range f.verdict.Hooks {
			if h.Def != nil && h.Enabled {
				out = append(out, declaredHook{f, h.Def})
			}
		}
	}
	return out
}

// loadedAt is when the agent's log says it last loaded hooks.json files,
// zero when it does not say.
func (d *Facts) loadedAt() time.Time {
	if d.log == nil || d.log.Loaded < 0 {
		return time.Time{}
	}
	return d.log.LoadedAt
}

// checkRuns reads the recorded runs of each declared hook: when it last
// ran, whether that run failed (a warning: hookctl test --contract tells
// why), and how many runs came since the agent last loaded the files.
func checkRuns(d *Facts) (c checks) {
	if !d.runsKnown {
		return nil
	}
	if len(d.runs) == 0 {
		c.add(Result{Check: "runs", Status: OK,
			Message: "no runs recorded: put hookctl trace -- in front of a handler's command, or set HOOKCTL_LOG, to see which hooks ran (hookctl log)"})
		return c
	}
	var never []string
	data := map[string]string{}
	for _, dh := range d.declaredHooks() {
		name := schema.Visible(dh.hook.Name)
		where := fmt.Sprintf("%s:%d:%d", dh.file.shown, dh.hook.Pos.Line, dh.hook.Pos.Col)
		runs := tracelog.RunsOf(d.runs, dh.hook, dh.file.path, dh.file.cfg.Dir)
		if len(runs) == 0 {
			never = append(never, fmt.Sprintf("%s (%s)", name, where))
			continue
		}
		last := runs[len(runs)-1]
		data[dh.hook.Name] = schema.FormatTime(last.At)
		msg := fmt.Sprintf("%s (%s) last ran %s (%s)", name, where, schema.FormatTime(last.At), schema.Visible(last.Event))
		if loadedAt := d.loadedAt(); !loadedAt.IsZero() {
			since := 0
			for _, r := range runs {
				if !r.At.Before(loadedAt) {
					since++
				}
			}
			msg += fmt.Sprintf("; %s since the agent last loaded the files (%s)", schema.Plural(since, "run"), schema.FormatTime(loadedAt))
		}
		x := Result{Check: "runs", Status: OK, File: dh.file.shown, Line: dh.hook.Pos.Line, Column: dh.hook.Pos.Col, Message: msg}
		if last.Failed != "" {
			x.Status = Warn
			x.Message = fmt.Sprintf("%s (%s): its last run, %s (%s), failed: %s", name, where, schema.FormatTime(last.At), schema.Visible(last.Event), schema.Visible(last.Failed))
			x.Fix = "hookctl test --contract says what the agent makes of each handler; hookctl log --show " + last.ID + " shows the run"
		}
		c.add(x)
	}
	if len(never) > 0 {
		c.add(Result{Check: "runs", Status: Warn, Data: data,
			Message: "no recorded run of " + strings.Join(never, ", ") + ": if the agent ran them through hookctl trace, it never called them",
			Fix:     "hookctl log shows what ran; check the matcher (hookctl run EVENT --tool NAME --explain)"})
	}
	return c
}
