package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime/agy"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Facts are what doctor learns of this machine, gathered once before
// any check: every check is a function of the facts alone, so none
// depends on what another found, and the order of the report is the
// order of the checks, not of what they need.
type Facts struct {
	opts Options
	ws   string
	// cwd is the current folder, for fixes: the paths they name are from
	// it.
	cwd string
	// found is how the workspace was chosen: named with --workspace, or
	// found from the current folder upward.
	found scope.Found

	// The agent: its program and how it was found (findErr when it was
	// not), what --version printed and how that run ended.
	agentProg, agentHow string
	findErr             error
	versionOut          string
	versionErr          error
	// agent is the agent's program when it runs, "" when there is none.
	agent     string
	version   agy.Version
	versionOK bool

	// places are the user's and the workspace's hooks.json, read or not;
	// files are those that were read.
	places []*hooksFile
	files  []*hooksFile

	// misplaced is lint's misplaced-config run (nil when it failed), and
	// plugins the plugins' hooks files.
	misplaced *lint.Result
	plugins   []string

	// viewOut is the agent's answer to "/hooks" and viewErr how it ended;
	// viewAsked is false when it was not asked.
	viewAsked bool
	viewOut   string
	viewErr   error

	// logPath is the agent's log, "" when there is none to read; log is
	// what it says, logErr why it could not be read.
	logPath string
	log     *agy.Log
	logErr  error
	// pluginFile is the hooks.json of the plugin the log's latest plugin
	// line names, where agy installs it, "" when none was read.
	pluginFile string
	pluginCfg  *schema.Config

	// hasWorkspace is set when the workspace's hooks.json was read: only
	// then do the trust checks run.
	hasWorkspace bool
	// foldersRead is set when ~/.gemini/trustedFolders.json was looked
	// for: folders is its text, foldersErr why it could not be read;
	// wsReal is the workspace with its links resolved, as agy keys it.
	foldersRead bool
	folders     []byte
	foldersErr  error
	wsReal      string
	// store is hookctl's trust store ("" when it has no place), storeErr
	// why it could not be opened, trusted each workspace file's decision.
	store    string
	storeErr error
	trusted  []trustDecision

	// handlers are the handlers of the files' enabled hooks, each with
	// what it runs that is not there.
	handlers []handlerNeeds

	// lint is lint's run on the files (nil when there are none, or it
	// failed).
	lint *lint.Result

	// runsKnown is set when the record of runs has a place; runs are its
	// latest records.
	runsKnown bool
	runs      []*tracelog.Record
}

// hooksFile is one hooks.json doctor looked at.
type hooksFile struct {
	path, shown string
	scope       scope.Scope
	// err is why the file could not be read.
	err error
	cfg *schema.Config
	// verdict is what the agent makes of the file, for the agent's
	// version when known; drops is set when it drops the whole file.
	verdict *schema.Verdict
	drops   bool
	// modified is when the file was last written.
	modified time.Time
}

// handlerNeeds is a handler of an enabled hook, and what it runs that is
// not there.
type handlerNeeds struct {
	// where is FILE:LINE:COL (HOOK).
	where string
	// missing are the scripts lint finds missing or not runnable, "PATH
	// (PROBLEM)", then the programs not on PATH, "NAME (not on PATH)".
	missing []string
}

// trustDecision is hookctl's trust decision for a workspace file.
type trustDecision struct {
	ok  bool
	why string
}

// noSessionStart reports whether the agent's version is known to never
// run SessionStart handlers.
func (d *Facts) noSessionStart() bool {
	return d.versionOK && !d.version.AtLeast(schema.SessionStartSince)
}

// Options say where doctor looks and how long it waits for the agent.
type Options struct {
	// Found is the workspace, as it was chosen.
	Found scope.Found
	// Offline is set when the agent is not to be asked for its list of
	// hooks.
	Offline bool
	// Timeout is how long to wait for each answer of the agent;
	// DefaultTimeout when it is not above zero.
	Timeout time.Duration
	// Home is the user's home folder, "" when there is none.
	Home string
	// Getenv reads the environment (HOOKCTL_AGY, HOOKCTL_AGY_LOG);
	// os.Getenv when nil.
	Getenv func(string) string
}

// DefaultTimeout is how long doctor waits for each answer of the agent
// unless told.
const DefaultTimeout = 20 * time.Second

// Gather reads, runs and asks everything doctor's checks look at.
func Gather(ctx context.Context, opts Options) *Facts {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	d := &Facts{opts: opts, ws: opts.Found.Root, found: opts.Found}
	d.cwd, _ = os.Getwd()
	d.gatherAgent(ctx)
	d.gatherFiles()
	d.gatherMisplaced()
	if !opts.Offline && d.agent != "" {
		d.viewAsked = true
		d.viewOut, d.viewErr = agy.Run(ctx, d.agent, d.ws, opts.Timeout, agy.HooksArgs...)
	}
	d.gatherLog()
	d.gatherTrust()
	d.gatherLint()
	d.gatherHandlers()
	if l, err := tracelog.Default(); err == nil {
		d.runsKnown = true
		if b, err := l.Tail(2000, tracelog.Filter{}); err == nil {
			d.runs = b.Records
		}
	}
	return d
}

// gatherAgent finds the agent and runs agy --version.
func (d *Facts) gatherAgent(ctx context.Context) {
	d.agentProg, d.agentHow, d.findErr = agy.Find(d.opts.Getenv)
	if d.findErr != nil {
		return
	}
	d.versionOut, d.versionErr = agy.Run(ctx, d.agentProg, "", d.opts.Timeout, "--version")
	if errors.Is(d.versionErr, agy.ErrTimeout) || d.versionErr != nil && d.versionOut == "" {
		return
	}
	d.agent = d.agentProg
	d.version, d.versionOK = agy.ParseVersion(d.versionOut)
}

// gatherFiles reads the user's and the workspace's hooks.json as the
// agent reads them.
func (d *Facts) gatherFiles() {
	type place struct {
		scope scope.Scope
		path  string
	}
	places := []place{{scope.Workspace, scope.WorkspaceFile(d.ws)}}
	if d.opts.Home != "" {
		places = append([]place{{scope.User, scope.UserFile(d.opts.Home)}}, places...)
	}
	for _, p := range places {
		f := &hooksFile{path: p.path, shown: d.shown(p.path), scope: p.scope}
		d.places = append(d.places, f)
		f.cfg, f.err = schema.Load(p.path)
		if f.err != nil {
			f.cfg = nil
			continue
		}
		d.files = append(d.files, f)
		f.verdict = schema.VerdictOf(f.cfg, schema.AgentOptions{NoSessionStart: d.noSessionStart()})
		f.drops = f.verdict.Known && f.verdict.Drop != nil
		f.modified = modTime(f.path)
		if f.scope == scope.Workspace {
			d.hasWorkspace = true
		}
	}
}

// gatherMisplaced runs lint's misplaced-config on the workspace and home,
// and finds the plugins' hooks files.
func (d *Facts) gatherMisplaced() {
	req := lint.Request{Workspaces: []lint.Place{{Dir: d.ws, Name: d.shown(d.ws)}}, Rules: []string{"misplaced-config"}}
	if d.opts.Home != "" {
		req.Home = &lint.Place{Dir: d.opts.Home, Name: "~"}
	}
	if res, err := lint.Lint(req); err == nil {
		d.misplaced = res
	}
	if d.opts.Home != "" {
		d.plugins, _ = filepath.Glob(filepath.Join(d.opts.Home, ".gemini", "antigravity-cli", "plugins", "*", "hooks", "hooks.json"))
	}
}

// gatherLog reads the agent's log, and the hooks.json of the plugin its
// latest plugin line names.
func (d *Facts) gatherLog() {
	d.logPath = d.opts.Getenv("HOOKCTL_AGY_LOG")
	if d.logPath == "" {
		if d.opts.Home == "" {
			return
		}
		d.logPath = agy.LogPath(d.opts.Home)
	}
	d.log, d.logErr = agy.ReadLog(d.logPath)
	if d.log == nil || d.log.Plugin == "" || d.opts.Home == "" || strings.ContainsAny(d.log.Plugin, `/\`) || d.log.Plugin == ".." {
		return
	}
	for _, dir := range agy.PluginDirs(d.opts.Home) {
		p := filepath.Join(dir, d.log.Plugin, "hooks", "hooks.json")
		if cfg, err := schema.Load(p); err == nil {
			d.pluginFile, d.pluginCfg = p, cfg
			return
		}
	}
}

// gatherTrust reads the agent's folder trust and hookctl's own, when the
// workspace has hooks.
func (d *Facts) gatherTrust() {
	if !d.hasWorkspace {
		return
	}
	if d.opts.Home != "" {
		d.foldersRead = true
		d.folders, d.foldersErr = schema.ReadFile(agy.TrustedFoldersPath(d.opts.Home), schema.MaxFileSize)
		d.wsReal, _ = filepath.EvalSymlinks(d.ws)
		if d.wsReal == "" {
			d.wsReal = d.ws
		}
	}
	store, err := trust.DefaultPath()
	if err != nil {
		return
	}
	d.store = store
	st, err := trust.Open(store)
	if err != nil {
		d.storeErr = err
		return
	}
	root, _ := trust.Key(d.ws)
	for _, f := range d.files {
		if f.scope != scope.Workspace {
			continue
		}
		ok, why := st.Verify(root, f.cfg)
		d.trusted = append(d.trusted, trustDecision{ok, why})
	}
}

// lintTargets are the files read, for lint.
func (d *Facts) lintTargets() []lint.Target {
	var targets []lint.Target
	for _, f := range d.files {
		tg := lint.TargetOf(f.path, d.opts.Home)
		tg.Name = f.shown
		targets = append(targets, tg)
	}
	return targets
}

// gatherLint runs lint on the files.
func (d *Facts) gatherLint() {
	targets := d.lintTargets()
	if len(targets) == 0 {
		return
	}
	if res, err := lint.Lint(lint.Request{Files: targets}); err == nil {
		d.lint = res
	}
}

// shellBuiltins run without a program on PATH.
var shellBuiltins = map[string]bool{
	"cd": true, "echo": true, "printf": true, "test": true, "[": true, "true": true, "false": true, "exit": true,
	"export": true, "read": true, "set": true, "unset": true, "source": true, ".": true, ":": true, "eval": true,
	"exec": true, "command": true, "shift": true, "return": true, "local": true, "trap": true, "wait": true,
	"pushd": true, "popd": true, "type": true, "ulimit": true, "umask": true, "[[": true,
}

// scriptRules are lint's rules about the files handlers run.
var scriptRules = []string{"script-not-found", "script-not-executable"}

// gatherHandlers finds, for every handler of an enabled hook, the scripts
// it runs that lint finds missing or not runnable (whatever the files'
// own choice of rules), and the programs it calls that are not on PATH.
func (d *Facts) gatherHandlers() {
	targets := d.lintTargets()
	// The scripts lint finds, by file and handler.
	type handlerKey struct {
		file   string
		offset int
	}
	scripts := map[handlerKey][]string{}
	if len(targets) > 0 {
		if res, err := lint.Lint(lint.Request{Files: targets, Rules: scriptRules, Enable: scriptRules}); err == nil {
			for _, fd := range res.Findings {
				if s := fd.Script; s != nil {
					k := handlerKey{fd.File, s.Handler.Offset}
					scripts[k] = append(scripts[k], s.Path+" ("+s.Problem+")")
				}
			}
		}
	}
	for _, f := range d.files {
		if f.cfg.File == nil {
			continue
		}
		root := ""
		if f.scope == scope.Workspace {
			root = d.ws
		}
		for _, h := range f.cfg.File.Hooks {
			if !h.IsEnabled() {
				continue
			}
			for _, hd := range h.AllHandlers() {
				n := handlerNeeds{where: fmt.Sprintf("%s:%d:%d (%s)", f.shown, hd.Pos.Line, hd.Pos.Col, h.Name),
					missing: scripts[handlerKey{f.shown, hd.Pos.Offset}]}
				n.missing = append(n.missing, notOnPath(shellcmd.Parse(hd.Command, f.cfg.Dir, root))...)
				d.handlers = append(d.handlers, n)
			}
		}
	}
}

// notOnPath lists the programs a command calls, and the interpreters it
// hands scripts to, that are not on PATH: "NAME (not on PATH)".
func notOnPath(cmd *shellcmd.Command) []string {
	var out []string
	lookup := func(name string) {
		if _, err := exec.LookPath(name); err != nil {
			out = append(out, name+" (not on PATH)")
		}
	}
	refs, _ := cmd.Refs()
	for _, r := range refs {
		if r.Role != shellcmd.Program && r.Role != shellcmd.Script || r.Call.Conditional {
			continue
		}
		if r.Interpreter != "" && !strings.Contains(r.Interpreter, " ") && !shellBuiltins[r.Interpreter] {
			lookup(r.Interpreter)
		}
	}
	for _, c := range cmd.Calls {
		if len(c.Args) == 0 || !c.Args[0].Lit || c.Conditional {
			continue
		}
		name := c.Args[0].Text
		if strings.Contains(name, "/") || shellBuiltins[name] || strings.Contains(name, "=") {
			continue
		}
		lookup(name)
	}
	return out
}

// modTime is when the file at path was last written, zero when it cannot
// be told.
func modTime(path string) time.Time {
	info, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return info.ModTime()
}
