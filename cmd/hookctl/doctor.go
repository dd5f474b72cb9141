package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fatih/color"
	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime/agy"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// doctorOptions are the answers of the doctor command's flags, and what a
// test replaces.
type doctorOptions struct {
	workspace string
	offline   bool
	format    string
	verbose   bool
	timeout   time.Duration
	home      string
	getenv    func(string) string
}

// newDoctorCommand is hookctl doctor. runF, when given, is called in place
// of doctorRun.
func newDoctorCommand(f *factory, runF func(*doctorOptions) error) *cli.Command {
	s := f.streams
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check why hooks would not run on this machine: the agent, the files, its own view, its log, trust, what handlers need",
		ArgsUsage: " ",
		Description: "One line per check: ok, warn or fail, what was found, and the command that fixes it.\n" +
			"It looks at the agent (agy on PATH, or the program HOOKCTL_AGY names, and its version),\n" +
			"the user's and the workspace's hooks.json as the agent reads them (a file the agent drops\n" +
			"whole is a failure, at its first cause), hooks files where the agent never looks, the\n" +
			"agent's own list of hooks (agy -p \"/hooks\" --output-format json; not with --offline),\n" +
			"its log (~/.gemini/antigravity-cli/cli.log, or HOOKCTL_AGY_LOG), the agent's folder trust\n" +
			"(~/.gemini/trustedFolders.json) and hookctl's, the programs and scripts handlers run,\n" +
			"lint's errors, and the runs hookctl trace and hookctl run recorded.\n\n" +
			"Exit status: 0 no check failed, 1 one did, 2 doctor could not run.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workspace", Usage: "the workspace `DIR` (default: found from the current folder upward)"},
			&cli.BoolFlag{Name: "offline", Usage: "do not ask the agent for its list of hooks"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, or json (an array of checks, with what was read in data)"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "show the details of each check"},
			&cli.DurationFlag{Name: "agent-timeout", Value: 20 * time.Second, Usage: "how long to wait for the agent to answer: a `DURATION`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("hookctl doctor takes no arguments; name the workspace with --workspace DIR")
			}
			home, _ := f.homeDir()
			opts := &doctorOptions{
				workspace: c.String("workspace"), offline: c.Bool("offline"), format: c.String("format"),
				verbose: c.Bool("verbose"), timeout: c.Duration("agent-timeout"), home: home, getenv: f.getenv,
			}
			if runF != nil {
				return runF(opts)
			}
			return doctorRun(s, *opts)
		},
	}
}

// doctorCheck is one line of doctor's report.
type doctorCheck struct {
	Check   string `json:"check"`
	Status  string `json:"status"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Fix     string `json:"fix,omitempty"`
	Data    any    `json:"data,omitempty"`
	// Details are shown with --verbose.
	Details []string `json:"-"`
}

// The statuses of a check.
const (
	statusOK   = "ok"
	statusWarn = "warn"
	statusFail = "fail"
)

// doctorChecks are doctor's checks, in the order of its report: each a
// function of the facts alone.
var doctorChecks = []func(*doctorFacts) checks{
	checkAgent, checkFiles, checkMisplaced, checkAgentView, checkAgentLog,
	checkTrust, checkHandlers, checkLint, checkRuns, checkContract,
}

// checks are the lines one check adds to the report.
type checks []doctorCheck

func (c *checks) add(x doctorCheck) { *c = append(*c, x) }

func doctorRun(s streams, opts doctorOptions) error {
	if opts.format != "text" && opts.format != "json" {
		return usageErrorf("--format must be text or json, not %q", opts.format)
	}
	found, err := scope.Choose(opts.workspace)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if info, err := os.Stat(found.Root); err != nil || !info.IsDir() {
		return usageErrorf("--workspace %s: not a folder", opts.workspace)
	}
	if opts.timeout <= 0 {
		opts.timeout = 20 * time.Second
	}
	facts := gatherFacts(context.Background(), opts, found)
	var report checks
	for _, check := range doctorChecks {
		report = append(report, check(facts)...)
	}
	if opts.format == "json" {
		enc := json.NewEncoder(s.out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else if err := report.print(s.out, opts.verbose); err != nil {
		return err
	}
	for _, c := range report {
		if c.Status == statusFail {
			return &exitError{code: exitFindings}
		}
	}
	return nil
}

// shown names a path for the report: when it lies in the workspace, from
// the workspace named with --workspace, or from the current folder for a
// workspace found from it ("../.agents/hooks.json" in a subfolder); else
// with ~ for the home folder.
func (d *doctorFacts) shown(p string) string {
	if r, err := filepath.Rel(d.ws, p); err == nil && !strings.HasPrefix(r, "..") {
		if d.found.By != scope.ByName {
			return d.found.Rel(p)
		}
		return r
	}
	if d.opts.home != "" {
		if r, err := filepath.Rel(d.opts.home, p); err == nil && !strings.HasPrefix(r, "..") {
			return "~/" + r
		}
	}
	return p
}

// arg names a path for a command of a fix, to be typed in the current
// folder: from it when the path lies in it, else as shown (with ~ for
// home), quoted for the shell.
func (d *doctorFacts) arg(p string) string {
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
func checkAgent(d *doctorFacts) (c checks) {
	prog, how, out, err := d.agentProg, d.agentHow, d.versionOut, d.versionErr
	switch {
	case d.findErr != nil:
		c.add(doctorCheck{Check: "agent", Status: statusWarn,
			Message: "agy is not on PATH: the checks that ask the agent itself are skipped",
			Fix:     "install agy, or set HOOKCTL_AGY to its path"})
	case errors.Is(err, agy.ErrTimeout):
		c.add(doctorCheck{Check: "agent", Status: statusWarn,
			Message: fmt.Sprintf("%s --version did not answer within %s: the checks that ask the agent are skipped", prog, d.opts.timeout),
			Fix:     "check that agy starts at all (agy --version in a terminal), or raise --agent-timeout"})
	case err != nil && out == "":
		c.add(doctorCheck{Check: "agent", Status: statusWarn,
			Message: fmt.Sprintf("%s (from %s) cannot be run: %v", prog, how, err),
			Fix:     "reinstall agy, or set HOOKCTL_AGY to a working agy"})
	case !d.versionOK:
		c.add(doctorCheck{Check: "agent", Status: statusWarn,
			Message: fmt.Sprintf("%s --version printed no version hookctl can read: %q", prog, schema.Visible(firstLine(out))),
			Fix:     "update agy; if it is current, attach hookctl doctor --format json to a bug report (it keeps what agy printed)",
			Data:    map[string]string{"path": prog, "versionOutput": out}})
	default:
		v := d.version
		c.add(doctorCheck{Check: "agent", Status: statusOK, Message: fmt.Sprintf("agy %s (%s)", v.Text, d.shown(prog)),
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
func checkFiles(d *doctorFacts) (c checks) {
	for _, f := range d.places {
		check := f.scope.String() + "-file"
		switch err := f.err; {
		case errors.Is(err, fs.ErrNotExist):
			c.add(doctorCheck{Check: check, Status: statusOK, Message: fmt.Sprintf("no %s hooks (%s does not exist)", f.scope, f.shown)})
			continue
		case err != nil:
			c.add(doctorCheck{Check: check, Status: statusFail, File: f.shown,
				Message: fmt.Sprintf("%s %s", f.shown, schema.ReadReason(err)),
				Fix:     "make it a readable regular file: ls -l " + d.arg(f.path)})
			continue
		}
		cfg, v := f.cfg, f.verdict
		if !v.Known {
			c.add(doctorCheck{Check: check, Status: statusWarn, File: f.shown, Line: cfg.Syntax.Pos.Line, Column: cfg.Syntax.Pos.Col,
				Message: fmt.Sprintf("%s:%d:%d: %s", f.shown, cfg.Syntax.Pos.Line, cfg.Syntax.Pos.Col, cfg.Syntax.Msg),
				Fix:     "hookctl lint " + d.arg(f.path)})
			continue
		}
		if drop := v.Drop; drop != nil {
			x := doctorCheck{Check: check, Status: statusFail, File: f.shown, Line: drop.Pos.Line, Column: drop.Pos.Col}
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
		c.add(doctorCheck{Check: check, Status: statusOK, File: f.shown, Message: msg, Data: data})
		if counts[schema.SessionStart] > 0 && d.noSessionStart() {
			c.add(doctorCheck{Check: check, Status: statusWarn, File: f.shown,
				Message: fmt.Sprintf("agy %s never runs SessionStart handlers (%s some): it fires the event from %s on", d.version.Text, haveSome(counts[schema.SessionStart]), schema.SessionStartSince),
				Fix:     "update agy, or give the context from a PreInvocation handler when invocationNum is 0"})
		}
	}
	return c
}

// checkMisplaced names hooks files where the agent never looks.
func checkMisplaced(d *doctorFacts) (c checks) {
	if d.misplaced != nil {
		for _, f := range d.misplaced.Findings {
			c.add(doctorCheck{Check: "misplaced", Status: statusWarn, File: f.File, Message: f.Message,
				Fix: "move its hooks into " + f.Suggestion + " and delete it"})
		}
	}
	// A plugin's hooks.json: whether agy runs the hooks a plugin brings is
	// not established for every version (docs/agent.md).
	for _, m := range d.plugins {
		c.add(doctorCheck{Check: "misplaced", Status: statusWarn, File: d.shown(m),
			Message: d.shown(m) + " is a plugin's hooks file: not every agy version runs plugin hooks, and hookctl does not",
			Fix:     "to be sure they run, put them in ~/.gemini/config/hooks.json or .agents/hooks.json"})
	}
	return c
}

// declared lists the enabled hooks the files declare, as "name" with
// where each stands.
func (d *doctorFacts) declared() (names []string, where map[string]string) {
	where = map[string]string{}
	for _, dh := range d.declaredHooks() {
		names = append(names, dh.hook.Name)
		where[dh.hook.Name] = fmt.Sprintf("%s:%d:%d", dh.file.shown, dh.hook.Pos.Line, dh.hook.Pos.Col)
	}
	return names, where
}

// checkAgentView asks the agent which hooks it loaded.
func checkAgentView(d *doctorFacts) (c checks) {
	if !d.viewAsked {
		return nil
	}
	out, err := d.viewOut, d.viewErr
	data := map[string]string{"command": d.agent + ` -p "/hooks" --output-format json`, "output": out}
	if errors.Is(err, agy.ErrTimeout) {
		c.add(doctorCheck{Check: "agent-view", Status: statusWarn, Data: data,
			Message: fmt.Sprintf("agy did not list its hooks within %s", d.opts.timeout),
			Fix:     "run agy -p \"/hooks\" --output-format json by hand, or rerun with --offline"})
		return c
	}
	names, ok := agy.Hooks(out)
	if !ok {
		msg := "agy's answer to /hooks holds no list of hooks hookctl can read"
		if err != nil {
			msg += fmt.Sprintf(" (it ended: %v)", err)
		}
		c.add(doctorCheck{Check: "agent-view", Status: statusWarn, Data: data,
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
		c.add(doctorCheck{Check: "agent-view", Status: statusFail, File: file, Line: line, Column: col, Data: data,
			Message: fmt.Sprintf("%s: the hook %q is declared and enabled, but agy did not load it", where[n], schema.Visible(n)),
			Fix:     "check that agy trusts the workspace and runs in it, then hookctl lint; restart the agy session after editing hooks.json"})
	}
	if missing == 0 {
		c.add(doctorCheck{Check: "agent-view", Status: statusOK, Data: data,
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
func checkAgentLog(d *doctorFacts) (c checks) {
	path, l, err := d.logPath, d.log, d.logErr
	if path == "" {
		return nil
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.add(doctorCheck{Check: "agent-log", Status: statusOK, Message: fmt.Sprintf("no agent log at %s yet", d.shown(path))})
		return c
	case err != nil:
		c.add(doctorCheck{Check: "agent-log", Status: statusWarn, Message: fmt.Sprintf("the agent's log %s %s", d.shown(path), schema.ReadReason(err)),
			Fix: "make it a readable regular file (ls -l " + d.arg(path) + "), or name another with HOOKCTL_AGY_LOG"})
		return c
	}
	reported := false
	if l.FailedPath != "" {
		reported = true
		var f *doctorFile
		for _, g := range d.files {
			if schema.SameFile(g.path, l.FailedPath) {
				f = g
			}
		}
		x := doctorCheck{Check: "agent-log", Status: statusFail,
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
			x.Status = statusOK
			x.Message = fmt.Sprintf("the agent failed to parse %s earlier (log %s), and has loaded hooks since", f.shown, l.Line(l.FailedLine))
		case f.cfg.Syntax != nil && f.cfg.Syntax.Bound:
			// Read no further than the bound: whether it parses now, and
			// where it fails, are not known.
			x.Status = statusWarn
			x.File = f.shown
			x.Message = fmt.Sprintf("%s: the agent's log (%s) says it failed to parse this file: %s; whether it parses now is not known: %s", f.shown, l.Line(l.FailedLine), schema.Visible(l.FailedMsg), f.cfg.Syntax.Msg)
			x.Fix = "hookctl lint " + d.arg(f.path)
		case !f.drops:
			x.Status = statusWarn
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
				x.Status = statusWarn
				when := "(log " + l.Line(l.FailedLine) + ")"
				if !l.FailedAt.IsZero() {
					when = "at " + formatTime(l.FailedAt) + " " + when
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
		x := doctorCheck{Check: "agent-log", Status: statusOK,
			Data: map[string]any{"log": path, "line": l.LineData(l.LoadedLine), "loaded": l.Loaded, "files": l.LoadedFiles, "declared": len(decl)},
			Message: fmt.Sprintf("the agent last loaded %s from %s (log %s); %s declared here",
				schema.Plural(l.Loaded, "named hook"), schema.Plural(l.LoadedFiles, "file"), l.Line(l.LoadedLine), areCount(len(decl)))}
		if l.Loaded < len(decl) {
			x.Status = statusWarn
			x.Fix = "start a new agy session in this workspace, so that it loads the files as they are now"
		}
		c.add(x)
	}
	if !reported {
		c.add(doctorCheck{Check: "agent-log", Status: statusOK, Message: fmt.Sprintf("the agent's log %s says nothing of hooks.json files", d.shown(path))})
	}
	return c
}

// checkTrust says whether the agent trusts the workspace, and hookctl.
func checkTrust(d *doctorFacts) (c checks) {
	if !d.hasWorkspace {
		return nil
	}
	if d.foldersRead {
		switch err := d.foldersErr; {
		case errors.Is(err, fs.ErrNotExist):
			c.add(doctorCheck{Check: "agent-trust", Status: statusOK, Message: "~/.gemini/trustedFolders.json does not exist: the agent's folder trust is not in use"})
		case err != nil:
			c.add(doctorCheck{Check: "agent-trust", Status: statusWarn, Message: "~/.gemini/trustedFolders.json " + schema.ReadReason(err),
				Fix: "make it a readable regular file: ls -l ~/.gemini/trustedFolders.json"})
		default:
			decision, rule, ok := agy.FolderTrust(d.folders, d.wsReal)
			switch {
			case !ok:
				c.add(doctorCheck{Check: "agent-trust", Status: statusWarn, Message: "~/.gemini/trustedFolders.json is not a JSON object of folders: hookctl cannot tell whether the agent trusts this workspace",
					Fix: "start agy here and answer its trust question, which rewrites the file"})
			case decision == agy.Trusted:
				c.add(doctorCheck{Check: "agent-trust", Status: statusOK, Message: "the agent trusts this workspace (" + schema.Visible(rule) + ")"})
			case decision == agy.Untrusted:
				c.add(doctorCheck{Check: "agent-trust", Status: statusFail, File: "~/.gemini/trustedFolders.json",
					Message: "the agent does not trust this workspace (" + schema.Visible(rule) + "), so it loads none of its hooks",
					Fix:     "trust the folder in agy, or change its entry in ~/.gemini/trustedFolders.json"})
			default:
				c.add(doctorCheck{Check: "agent-trust", Status: statusWarn,
					Message: "~/.gemini/trustedFolders.json says nothing of this workspace: the agent asks whether to trust it, and loads its hooks only if you say yes",
					Fix:     "start agy here and trust the folder"})
			}
		}
	}
	if d.store == "" {
		return c
	}
	if d.storeErr != nil {
		c.add(doctorCheck{Check: "hookctl-trust", Status: statusWarn, Message: d.storeErr.Error(),
			Fix: "hookctl trust --list shows what hookctl can read of " + d.arg(d.store)})
		return c
	}
	for _, t := range d.trusted {
		if t.ok {
			c.add(doctorCheck{Check: "hookctl-trust", Status: statusOK, Message: "hookctl trusts this workspace's hooks, so hookctl run runs them"})
		} else {
			c.add(doctorCheck{Check: "hookctl-trust", Status: statusWarn,
				Message: "hookctl does not trust this workspace (" + t.why + "): hookctl run skips its hooks (the agent's own loading does not depend on it)",
				Fix:     "hookctl trust " + d.arg(d.ws)})
		}
	}
	return c
}

// checkHandlers says whether every program and script the handlers of
// enabled hooks run is there: the scripts as lint finds them, the
// programs on PATH.
func checkHandlers(d *doctorFacts) (c checks) {
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
		c.add(doctorCheck{Check: "handlers", Status: statusOK, Message: fmt.Sprintf("every program and script the %s run is there", schema.Plural(len(d.handlers), "handler"))})
		return c
	}
	for _, what := range order {
		wheres := missing[what]
		file, line, col := splitWhere(strings.SplitN(wheres[0], " (", 2)[0])
		fix := "install it, or fix the command"
		if strings.HasSuffix(what, "(not executable)") {
			fix = "chmod +x " + strings.TrimSuffix(what, " (not executable)")
		}
		c.add(doctorCheck{Check: "handlers", Status: statusFail, File: file, Line: line, Column: col,
			Message: fmt.Sprintf("%s, needed by %s", schema.Visible(what), strings.Join(wheres, ", ")), Fix: fix})
	}
	return c
}

// checkLint sums up lint's findings on the files.
func checkLint(d *doctorFacts) (c checks) {
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
	x := doctorCheck{Check: "lint", Status: statusOK, Message: "lint finds nothing to fix"}
	switch {
	case errs > 0:
		x.Status, x.Message, x.Fix = statusWarn, fmt.Sprintf("lint finds %s", schema.Plural(errs, "error")), d.lintFix()
		if warns > 0 {
			x.Message += " and " + schema.Plural(warns, "warning")
		}
	case warns > 0:
		x.Status, x.Message, x.Fix = statusWarn, fmt.Sprintf("lint finds %s", schema.Plural(warns, "warning")), d.lintFix()
	}
	for _, f := range d.lint.Findings {
		if f.Severity >= lint.Warning {
			x.Details = append(x.Details, f.String())
		}
	}
	c.add(x)
	return c
}

// The colours of doctor's marks.
var (
	greenAttr  = color.FgGreen
	yellowAttr = color.FgYellow
	redAttr    = color.FgRed
)

// print writes the report for people: one line per check, its fix and,
// with --verbose, its details; then the count.
func (report checks) print(w io.Writer, verbose bool) error {
	var b strings.Builder
	counts := map[string]int{}
	for _, c := range report {
		counts[c.Status]++
		mark := paint().Sprint("[✓]")
		switch c.Status {
		case statusWarn:
			mark = paint(yellowAttr).Sprint("[!]")
		case statusFail:
			mark = paint(redAttr).Sprint("[✗]")
		case statusOK:
			mark = paint(greenAttr).Sprint("[✓]")
		}
		// Messages and fixes name files, hooks and lines of logs that a
		// workspace or the agent wrote: whatever they hold, no escape
		// reaches the terminal (Visible leaves what it made visible as it
		// is).
		fmt.Fprintf(&b, "%s %-14s %s\n", mark, c.Check, schema.Visible(c.Message))
		if c.Fix != "" && c.Status != statusOK {
			fmt.Fprintf(&b, "    %-14s fix: %s\n", "", schema.Visible(c.Fix))
		}
		if verbose {
			for _, det := range c.Details {
				fmt.Fprintf(&b, "    %-14s %s\n", "", schema.Visible(det))
			}
		}
	}
	fmt.Fprintf(&b, "%s: %d ok, %s, %d failed\n", schema.Plural(len(report), "check"), counts[statusOK], schema.Plural(counts[statusWarn], "warning"), counts[statusFail])
	_, err := io.WriteString(w, b.String())
	return err
}
