// Package doctor tells why hooks would not run on this machine: it
// gathers facts about the agent, the hooks.json files, the agent's own
// view and log, trust, what handlers need, lint's findings and the
// recorded runs (Gather), then runs checks that are each a function of
// the facts alone (Run). hookctl doctor prints what they say.
package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime/agy"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Result is one line of doctor's report: a check, its status, what was
// found, where, and the command that fixes it.
type Result struct {
	Check   string `json:"check"`
	Status  string `json:"status"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Fix     string `json:"fix,omitempty"`
	Data    any    `json:"data,omitempty"`
	// Details are what a reader asks for with more (hookctl doctor
	// --verbose).
	Details []string `json:"-"`
}

// The statuses of a check.
const (
	OK   = "ok"
	Warn = "warn"
	Fail = "fail"
)

// allChecks are doctor's checks, in the order of its report: each a
// function of the facts alone.
var allChecks = []func(*Facts) checks{
	checkAgent, checkFiles, checkMisplaced, checkAgentView, checkAgentLog,
	checkTrust, checkHandlers, checkLint, checkRuns, checkContract,
}

// checks are the lines one check adds to the report.
type checks []Result

func (c *checks) add(x Result) { *c = append(*c, x) }

// Run runs every check over the facts, and returns the report in the
// order of the checks.
func Run(d *Facts) []Result {
	var report []Result
	for _, check := range allChecks {
		report = append(report, check(d)...)
	}
	return report
}

// shown names a path for the report: when it lies in the workspace, from
// the workspace named with --workspace, or from the current folder for a
// workspace found from it ("../.agents/hooks.json" in a subfolder); else
// with ~ for the home folder.
func (d *Facts) shown(p string) string {
	if r, err := filepath.Rel(d.ws, p); err == nil && !strings.HasPrefix(r, "..") {
		if d.found.By != scope.ByName {
			return d.found.Rel(p)
		}
		return r
	}
	if d.opts.Home != "" {
		if r, err := filepath.Rel(d.opts.Home, p); err == nil && !strings.HasPrefix(r, "..") {
			return "~/" + r
		}
	}
	return p
}

// arg names a path for a command of a fix, to be typed in the current
// folder: from it when the path lies in it, else as shown (with ~ for
// home), quoted for the shell.
func (d *Facts) arg(p string) string {
	if d.cwd != "" {
		if r, err := filepath.Rel(d.cwd, p); err == nil && !strings.HasPrefix(r, "..") {
			return shellcmd.Quote(r)
		}
	}
	shown := d.shown(p)
	if !strings.HasPrefix(shown, "~/") && !filepath.IsAbs(shown) {
		shown = p
	}
	return shellcmd.QuoteHome(shown)
}

// checkAgent says which agent runs, and its version.
func checkAgent(d *Facts) (c checks) {
	prog, how, out, err := d.agentProg, d.agentHow, d.versionOut, d.versionErr
	switch {
	case d.findErr != nil:
		c.add(Result{Check: "agent", Status: Warn,
			Message: "agy is not on PATH: the checks that ask the agent itself are skipped",
			Fix:     "install agy, or set HOOKCTL_AGY to its path"})
	case errors.Is(err, agy.ErrTimeout):
		c.add(Result{Check: "agent", Status: Warn,
			Message: fmt.Sprintf("%s --version did not answer within %s: the checks that ask the agent are skipped", prog, d.opts.Timeout),
			Fix:     "check that agy starts at all (agy --version in a terminal), or raise --agent-timeout"})
	case err != nil && out == "":
		c.add(Result{Check: "agent", Status: Warn,
			Message: fmt.Sprintf("%s (from %s) cannot be run: %v", prog, how, err),
			Fix:     "reinstall agy, or set HOOKCTL_AGY to a working agy"})
	case !d.versionOK:
		c.add(Result{Check: "agent", Status: Warn,
			Message: fmt.Sprintf("%s --version printed no version hookctl can read: %q", prog, schema.Visible(firstLine(out))),
			Fix:     "update agy; if it is current, attach hookctl doctor --format json to a bug report (it keeps what agy printed)",
			Data:    map[string]string{"path": prog, "versionOutput": out}})
	default:
		v := d.version
		c.add(Result{Check: "agent", Status: OK, Message: fmt.Sprintf("agy %s (%s)", v.Text, d.shown(prog)),
			Data: map[string]string{"path": prog, "version": v.Text}})
	}
	return c
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// checkFiles reads the user's and the workspace's hooks.json as the agent
// reads them.
func checkFiles(d *Facts) (c checks) {
	for _, f := range d.places {
		check := f.scope.String() + "-file"
		switch err := f.err; {
		case errors.Is(err, fs.ErrNotExist):
			c.add(Result{Check: check, Status: OK, Message: fmt.Sprintf("no %s hooks (%s does not exist)", f.scope, f.shown)})
			continue
		case err != nil:
			fix := "make it a readable regular file: ls -l " + d.arg(f.path)
			if ol := (*schema.OutsideLinkError)(nil); errors.As(err, &ol) {
				fix = "see where the link leads, and put a file of the repository's own in its place: ls -l " + d.arg(f.path)
			}
			c.add(Result{Check: check, Status: Fail, File: f.shown,
				Message: fmt.Sprintf("%s %s", f.shown, schema.ReadReason(err)), Fix: fix})
			continue
		}
		cfg, v := f.cfg, f.verdict
		if !v.Known {
			c.add(Result{Check: check, Status: Warn, File: f.shown, Line: cfg.Syntax.Pos.Line, Column: cfg.Syntax.Pos.Col,
				Message: fmt.Sprintf("%s:%d:%d: %s", f.shown, cfg.Syntax.Pos.Line, cfg.Syntax.Pos.Col, cfg.Syntax.Msg),
				Fix:     "hookctl lint " + d.arg(f.path)})
			continue
		}
		if drop := v.Drop; drop != nil {
			x := Result{Check: check, Status: Fail, File: f.shown, Line: drop.Pos.Line, Column: drop.Pos.Col}
			if drop.Syntax {
				x.Message = fmt.Sprintf("%s:%d:%d: not valid JSON, so the agent loads none of its hooks: %s", f.shown, drop.Pos.Line, drop.Pos.Col, cfg.Syntax.Msg)
				x.Fix = "hookctl lint " + d.arg(f.path)
			} else {
				hooks := "hooks"
				if n := v.HookCount(); n >= 0 {
					hooks = schema.Plural(n, "hook")
				}
				x.Message = fmt.Sprintf("%s:%d:%d: the agent loads none of this file's %s: %s", f.shown, drop.Pos.Line, drop.Pos.Col, hooks, drop.Why)
				x.Fix = "hookctl lint " + d.arg(f.path) + " shows every cause, and hookctl lint --fix mends the certain ones"
			}
			c.add(x)
			continue
		}
		counts := map[schema.Event]int{}
		enabled, disabled := 0, 0
		for _, h := range v.Hooks {
			if !h.Enabled {
				disabled++
				continue
			}
			enabled++
			for _, e := range h.Events {
				counts[e]++
			}
		}
		var per []string
		data := map[string]int{}
		for _, e := range schema.Events {
			if counts[e] > 0 {
				per = append(per, fmt.Sprintf("%s %d", e, counts[e]))
				data[string(e)] = counts[e]
			}
		}
		msg := fmt.Sprintf("%s: %s", f.shown, schema.Plural(enabled, "enabled hook"))
		if len(per) > 0 {
			msg += " (" + strings.Join(per, ", ") + ")"
		}
		if disabled > 0 {
			msg += fmt.Sprintf(", %d disabled", disabled)
		}
		c.add(Result{Check: check, Status: OK, File: f.shown, Message: msg, Data: data})
		if counts[schema.SessionStart] > 0 && d.noSessionStart() {
			c.add(Result{Check: check, Status: Warn, File: f.shown,
				Message: fmt.Sprintf("agy %s never runs SessionStart handlers (%s some): it fires the event from %s on", d.version.Text, haveSome(counts[schema.SessionStart]), schema.SessionStartSince),
				Fix:     "update agy, or give the context from a PreInvocation handler when invocationNum is 0"})
		}
	}
	return c
}

// checkMisplaced names hooks files where the agent never looks.
func checkMisplaced(d *Facts) (c checks) {
	if d.misplaced != nil {
		for _, f := range d.misplaced.Findings {
			c.add(Result{Check: "misplaced", Status: Warn, File: f.File, Message: f.Message,
				Fix: "move its hooks into " + f.Suggestion + " and delete it"})
		}
	}
	// A plugin's hooks.json: whether agy runs the hooks a plugin brings is
	// not established for every version (docs/agent.md).
	for _, m := range d.plugins {
		c.add(Result{Check: "misplaced", Status: Warn, File: d.shown(m),
			Message: d.shown(m) + " is a plugin's hooks file: not every agy version runs plugin hooks, and hookctl does not",
			Fix:     "to be sure they run, put them in ~/.gemini/config/hooks.json or .agents/hooks.json"})
	}
	return c
}

// declared lists the enabled hooks the files declare, as "name" with
// where each stands.
func (d *Facts) declared() (names []string, where map[string]string) {
	where = map[string]string{}
	for _, dh := range d.declaredHooks() {
		names = append(names, dh.hook.Name)
		where[dh.hook.Name] = fmt.Sprintf("%s:%d:%d", dh.file.shown, dh.hook.Pos.Line, dh.hook.Pos.Col)
	}
	return names, where
}

// checkAgentView asks the agent which hooks it loaded.
func checkAgentView(d *Facts) (c checks) {
	if !d.viewAsked {
		return nil
	}
	out, err := d.viewOut, d.viewErr
	data := map[string]string{"command": d.agent + ` -p "/hooks" --output-format json`, "output": out}
	if errors.Is(err, agy.ErrTimeout) {
		c.add(Result{Check: "agent-view", Status: Warn, Data: data,
			Message: fmt.Sprintf("agy did not list its hooks within %s", d.opts.Timeout),
			Fix:     "run agy -p \"/hooks\" --output-format json by hand, or rerun with --offline"})
		return c
	}
	names, ok := agy.Hooks(out)
	if !ok {
		msg := "agy's answer to /hooks holds no list of hooks hookctl can read"
		if err != nil {
			msg += fmt.Sprintf(" (it ended: %v)", err)
		}
		c.add(Result{Check: "agent-view", Status: Warn, Data: data,
			Message: msg + ": " + fmt.Sprintf("%q", schema.Visible(firstLine(out))),
			Fix:     "attach hookctl doctor --format json to a bug report; the answer is kept there"})
		return c
	}
	loaded := map[string]bool{}
	for _, n := range names {
		loaded[n] = true
	}
	decl, where := d.declared()
	missing := 0
	for _, n := range decl {
		if loaded[n] {
			continue
		}
		missing++
		file, line, col := splitWhere(where[n])
		c.add(Result{Check: "agent-view", Status: Fail, File: file, Line: line, Column: col, Data: data,
			Message: fmt.Sprintf("%s: the hook %q is declared and enabled, but agy did not load it", where[n], schema.Visible(n)),
			Fix:     "check that agy trusts the workspace and runs in it, then hookctl lint; restart the agy session after editing hooks.json"})
	}
	if missing == 0 {
		c.add(Result{Check: "agent-view", Status: OK, Data: data,
			Message: fmt.Sprintf("agy lists %s: every enabled hook of the files it can load is among them", schema.Plural(len(names), "hook"))})
	}
	return c
}

// splitWhere reads FILE:LINE:COL.
func splitWhere(w string) (string, int, int) {
	var line, col int
	i := strings.LastIndexByte(w, ':')
	j := strings.LastIndexByte(w[:max(i, 0)], ':')
	if i < 0 || j < 0 {
		return w, 0, 0
	}
	fmt.Sscanf(w[j+1:i], "%d", &line)
	fmt.Sscanf(w[i+1:], "%d", &col)
	return w[:j], line, col
}

// checkAgentLog reads what the agent's log says of hooks.json files.
func checkAgentLog(d *Facts) (c checks) {
	path, l, err := d.logPath, d.log, d.logErr
	if path == "" {
		return nil
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.add(Result{Check: "agent-log", Status: OK, Message: fmt.Sprintf("no agent log at %s yet", d.shown(path))})
		return c
	case err != nil:
		c.add(Result{Check: "agent-log", Status: Warn, Message: fmt.Sprintf("the agent's log %s %s", d.shown(path), schema.ReadReason(err)),
			Fix: "make it a readable regular file (ls -l " + d.arg(path) + "), or name another with HOOKCTL_AGY_LOG"})
		return c
	}
	reported := false
	if l.FailedPath != "" {
		reported = true
		var f *hooksFile
		for _, g := range d.files {
			if schema.SameFile(g.path, l.FailedPath) {
				f = g
			}
		}
		x := Result{Check: "agent-log", Status: Fail,
			Data: map[string]any{"log": path, "line": l.LineData(l.FailedLine), "file": l.FailedPath, "message": l.FailedMsg}}
		// The agent's own check of a hook ("invalid hook NAME: command hook
		// must specify 'command'") fails a file that decodes: it still
		// fails while that hook has a handler without a command.
		stillInvalid := false
		if f != nil {
			stillInvalid = agy.InvalidHookStands(f.cfg, l.FailedMsg)
		}
		switch {
		case f == nil:
			x.Message = fmt.Sprintf("the agent's log (%s) says it failed to parse %s: %s", l.Line(l.FailedLine), schema.Visible(l.FailedPath), schema.Visible(l.FailedMsg))
			x.Fix = "hookctl lint " + d.arg(l.FailedPath)
		case stillInvalid:
			span, _ := agy.InvalidHookIn(f.cfg, l.FailedMsg)
			x.File, x.Line, x.Column = f.shown, span.Start.Line, span.Start.Col
			x.Message = fmt.Sprintf("%s:%d:%d: the agent's log (%s) says it failed to parse this file, so it loads none of its hooks: %s", f.shown, x.Line, x.Column, l.Line(l.FailedLine), schema.Visible(l.FailedMsg))
			x.Fix = "give every handler of the hook a \"command\" (hookctl lint " + d.arg(f.path) + " shows where)"
		case !f.drops && l.LoadedLine > l.FailedLine:
			x.Status = OK
			x.Message = fmt.Sprintf("the agent failed to parse %s earlier (log %s), and has loaded hooks since", f.shown, l.Line(l.FailedLine))
		case f.cfg.Syntax != nil && f.cfg.Syntax.Bound:
			// Read no further than the bound: whether it parses now, and
			// where it fails, are not known.
			x.Status = Warn
			x.File = f.shown
			x.Message = fmt.Sprintf("%s: the agent's log (%s) says it failed to parse this file: %s; whether it parses now is not known: %s", f.shown, l.Line(l.FailedLine), schema.Visible(l.FailedMsg), f.cfg.Syntax.Msg)
			x.Fix = "hookctl lint " + d.arg(f.path)
		case !f.drops:
			x.Status = Warn
			x.Message = fmt.Sprintf("the agent failed to parse %s (log %s: %s); it parses now", f.shown, l.Line(l.FailedLine), schema.Visible(l.FailedMsg))
			x.Fix = "start a new agy session to load it"
		default:
			x.File = f.shown
			x.Fix = "hookctl lint " + d.arg(f.path)
			pos, stands := agy.LogCause(f.cfg, l.FailedMsg)
			switch {
			case !stands && l.FailedBefore(f.modified):
				// The file fails now for another cause, which the file's
				// own check reports, and it was written after the log's
				// line: the line is of an earlier version.
				x.Status = Warn
				when := "(log " + l.Line(l.FailedLine) + ")"
				if !l.FailedAt.IsZero() {
					when = "at " + schema.FormatTime(l.FailedAt) + " " + when
				}
				x.Message = fmt.Sprintf("%s: the agent failed to load an earlier version of this file %s; it has changed since: %s", f.shown, when, schema.Visible(l.FailedMsg))
				x.Fix += " shows why the file fails now; a new agy session logs what the agent makes of it"
			case pos != nil:
				x.Line, x.Column = pos.Line, pos.Col
				x.Message = fmt.Sprintf("%s:%d:%d: the agent's log (%s) says it failed to parse this file: %s", f.shown, x.Line, x.Column, l.Line(l.FailedLine), schema.Visible(l.FailedMsg))
			default:
				x.Message = fmt.Sprintf("%s: the agent's log (%s) says it failed to parse this file: %s", f.shown, l.Line(l.FailedLine), schema.Visible(l.FailedMsg))
			}
		}
		c.add(x)
	}
	if l.Plugin != "" {
		reported = true
		c.add(pluginFailure(d))
	}
	if l.Loaded >= 0 {
		reported = true
		decl, _ := d.declared()
		x := Result{Check: "agent-log", Status: OK,
			Data: map[string]any{"log": path, "line": l.LineData(l.LoadedLine), "loaded": l.Loaded, "files": l.LoadedFiles, "declared": len(decl)},
			Message: fmt.Sprintf("the agent last loaded %s from %s (log %s); %s declared here",
				schema.Plural(l.Loaded, "named hook"), schema.Plural(l.LoadedFiles, "file"), l.Line(l.LoadedLine), areCount(len(decl)))}
		if l.Loaded < len(decl) {
			x.Status = Warn
			x.Fix = "start a new agy session in this workspace, so that it loads the files as they are now"
		}
		c.add(x)
	}
	if !reported {
		c.add(Result{Check: "agent-log", Status: OK, Message: fmt.Sprintf("the agent's log %s says nothing of hooks.json files", d.shown(path))})
	}
	return c
}

// checkTrust says whether the agent trusts the workspace, and hookctl.
func checkTrust(d *Facts) (c checks) {
	if !d.hasWorkspace {
		return nil
	}
	if d.foldersRead {
		switch err := d.foldersErr; {
		case errors.Is(err, fs.ErrNotExist):
			c.add(Result{Check: "agent-trust", Status: OK, Message: "~/.gemini/trustedFolders.json does not exist: the agent's folder trust is not in use"})
		case err != nil:
			c.add(Result{Check: "agent-trust", Status: Warn, Message: "~/.gemini/trustedFolders.json " + schema.ReadReason(err),
				Fix: "make it a readable regular file: ls -l ~/.gemini/trustedFolders.json"})
		default:
			decision, rule, ok := agy.FolderTrust(d.folders, d.wsReal)
			switch {
			case !ok:
				c.add(Result{Check: "agent-trust", Status: Warn, Message: "~/.gemini/trustedFolders.json is not a JSON object of folders: hookctl cannot tell whether the agent trusts this workspace",
					Fix: "start agy here and answer its trust question, which rewrites the file"})
			case decision == agy.Trusted:
				c.add(Result{Check: "agent-trust", Status: OK, Message: "the agent trusts this workspace (" + schema.Visible(rule) + ")"})
			case decision == agy.Untrusted:
				c.add(Result{Check: "agent-trust", Status: Fail, File: "~/.gemini/trustedFolders.json",
					Message: "the agent does not trust this workspace (" + schema.Visible(rule) + "), so it loads none of its hooks",
					Fix:     "trust the folder in agy, or change its entry in ~/.gemini/trustedFolders.json"})
			default:
				c.add(Result{Check: "agent-trust", Status: Warn,
					Message: "~/.gemini/trustedFolders.json says nothing of this workspace: the agent asks whether to trust it, and loads its hooks only if you say yes",
					Fix:     "start agy here and trust the folder"})
			}
		}
	}
	if d.store == "" {
		return c
	}
	if d.storeErr != nil {
		c.add(Result{Check: "hookctl-trust", Status: Warn, Message: d.storeErr.Error(),
			Fix: "hookctl trust --list shows what hookctl can read of " + d.arg(d.store)})
		return c
	}
	for _, t := range d.trusted {
		if t.ok {
			c.add(Result{Check: "hookctl-trust", Status: OK, Message: "hookctl trusts this workspace's hooks, so hookctl run runs them"})
		} else {
			c.add(Result{Check: "hookctl-trust", Status: Warn,
				Message: "hookctl does not trust this workspace (" + t.why + "): hookctl run skips its hooks (the agent's own loading does not depend on it)",
				Fix:     "hookctl trust " + d.arg(d.ws)})
		}
	}
	return c
}

// checkHandlers says whether every program and script the handlers of
// enabled hooks run is there: the scripts as lint finds them, the
// programs on PATH.
func checkHandlers(d *Facts) (c checks) {
	if len(d.handlers) == 0 {
		return nil
	}
	missing := map[string][]string{} // what is missing → where it is needed
	var order []string
	for _, h := range d.handlers {
		for _, what := range h.missing {
			if _, ok := missing[what]; !ok {
				order = append(order, what)
			}
			missing[what] = append(missing[what], h.where)
		}
	}
	if len(order) == 0 {
		c.add(Result{Check: "handlers", Status: OK, Message: fmt.Sprintf("every program and script the %s run is there", schema.Plural(len(d.handlers), "handler"))})
		return c
	}
	for _, what := range order {
		wheres := missing[what]
		file, line, col := splitWhere(strings.SplitN(wheres[0], " (", 2)[0])
		fix := "install it, or fix the command"
		if strings.HasSuffix(what, "(not executable)") {
			fix = "chmod +x " + strings.TrimSuffix(what, " (not executable)")
		}
		c.add(Result{Check: "handlers", Status: Fail, File: file, Line: line, Column: col,
			Message: fmt.Sprintf("%s, needed by %s", schema.Visible(what), strings.Join(wheres, ", ")), Fix: fix})
	}
	return c
}

// checkLint sums up lint's findings on the files.
func checkLint(d *Facts) (c checks) {
	if d.lint == nil {
		return nil
	}
	var errs, warns int
	for _, f := range d.lint.Findings {
		switch f.Severity {
		case lint.Error:
			errs++
		case lint.Warning:
			warns++
		}
	}
	x := Result{Check: "lint", Status: OK, Message: "lint finds nothing to fix"}
	switch {
	case errs > 0:
		x.Status, x.Message, x.Fix = Warn, fmt.Sprintf("lint finds %s", schema.Plural(errs, "error")), d.lintFix()
		if warns > 0 {
			x.Message += " and " + schema.Plural(warns, "warning")
		}
	case warns > 0:
		x.Status, x.Message, x.Fix = Warn, fmt.Sprintf("lint finds %s", schema.Plural(warns, "warning")), d.lintFix()
	}
	for _, f := range d.lint.Findings {
		if f.Severity >= lint.Warning {
			x.Details = append(x.Details, f.String())
		}
	}
	c.add(x)
	return c
}
