package convert

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Where commands run, before and after. Every other agent runs a project's
// hooks in the project's root; this format runs them in the folder that
// holds hooks.json (<root>/.agents), so relative paths are rebased and
// commands that need the root go there first.
type places struct {
	// base is the folder the source's handlers ran in.
	base string
	// project is the folder the source's project variables
	// ($CLAUDE_PROJECT_DIR, ...) name.
	project string
	// plugin is the folder $CLAUDE_PLUGIN_ROOT and its kin name, "" when the
	// source is no plugin.
	plugin string
	// altBase is where a relative path that is not found from base is
	// looked for next: the folder of the source file, whose paths some
	// authors write from there.
	altBase string
	// targetDir is the folder the converted handlers run in; targetRoot the
	// workspace root, "" for the user's hooks.json, which serves every
	// workspace.
	targetDir  string
	targetRoot string
	// anchorSrc and anchorDst are the folders that correspond in the source
	// and the target: the project root and the workspace root for another
	// agent's file, the folders of the two files for a file of this format.
	// With strict, only paths inside anchorSrc keep their place.
	anchorSrc, anchorDst string
	strict               bool
}

// Variables that other agents set for their hooks.
var (
	projectVars = []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR", "CODEX_PROJECT_DIR", "GEMINI_CWD"}
	pluginVars  = []string{"CLAUDE_PLUGIN_ROOT", "CURSOR_PLUGIN_ROOT", "CODEX_PLUGIN_ROOT", "extensionPath"}
	agentPrefix = []string{"CLAUDE_", "GEMINI_", "CURSOR_", "CODEX_"}
)

// Project tools find their configuration from the folder they run in: run
// from .agents they would miss the project, so such commands first go to
// the workspace root.
var projectTools = map[string]bool{
	"npm": true, "npx": true, "pnpm": true, "pnpx": true, "yarn": true, "go": true, "cargo": true,
	"make": true, "just": true, "task": true, "tsc": true, "eslint": true, "prettier": true,
	"biome": true, "ruff": true, "black": true, "mypy": true, "pyright": true, "pytest": true,
	"flake8": true, "isort": true, "uv": true, "uvx": true, "poetry": true, "pipenv": true,
	"mvn": true, "gradle": true, "composer": true, "dotnet": true, "mix": true, "bundle": true,
	"rake": true, "tox": true, "nox": true, "pre-commit": true, "firebase": true,
	"docker-compose": true, "terraform": true, "turbo": true, "nx": true, "vitest": true,
	"jest": true, "swift": true, "flutter": true, "dart": true, "golangci-lint": true,
	"lefthook": true, "husky": true, "lint-staged": true,
}

// commandChange is what converting a command did.
type commandChange struct {
	Command string
	// Scripts are the files the command runs that exist, as absolute paths.
	Scripts []string
	// Rebased lists "old → new" for every path rewritten.
	Rebased []string
	// Vars lists the other agent's variables replaced.
	Vars []string
	// Unset lists the other agent's variables left in the command, which
	// this agent does not set.
	Unset []string
	// ToRoot is set when the command first goes to the workspace root: it
	// runs Tool, a project tool, or it is for the user's hooks.json and
	// names project files.
	ToRoot bool
	Tool   string
	// Missing lists scripts the command names that do not exist.
	Missing []string
	// Unparsed is set when the command is not shell syntax hookctl can
	// read: only its variables were replaced.
	Unparsed bool
	// Same is set when the command comes out as it went in: it runs the
	// same files from the new folder, and there is nothing to say.
	Same bool
}

type edit struct {
	from, to int
	text     string
}

type wordInfo struct {
	word *syntax.Word
	// value is the word's text when it is literal, with a leading project
	// or plugin variable resolved to its folder; ok is false otherwise.
	value string
	ok    bool
	// vars are the project or plugin variables the word holds.
	vars []string
	// gitRoot is set when the word starts with $(git rev-parse
	// --show-toplevel), the project root as git knows it.
	gitRoot bool
}

// convertCommand rewrites a command for the folder the converted hook runs
// in. Which words name files, which folder each call runs in after a cd,
// and which scripts the result runs are read by schema/shellcmd, the one
// reader of commands that lint, run and trust share: import says a script
// is missing exactly when lint will say so of the imported command.
func (pl places) convertCommand(cmd string) commandChange {
	ch := commandChange{Command: cmd}
	f, err := syntax.NewParser(syntax.KeepComments(false)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		ch.Unparsed = true
		ch.Command = pl.replaceVarsText(cmd, &ch)
		return ch
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if n, ok := n.(*syntax.ParamExp); ok && n.Param != nil {
			name := n.Param.Value
			if hasAgentPrefix(name) && !isOneOf(name, projectVars) && !isOneOf(name, pluginVars) || isOneOf(name, pluginVars) && pl.plugin == "" {
				ch.Unset = appendNew(ch.Unset, name)
			}
		}
		return true
	})
	src := shellcmd.ParseVars(cmd, pl.base, pl.knownVars())
	roles, cds := pl.wordRoles(src)
	// Decide first whether the command must run from the workspace root.
	for _, c := range src.Calls {
		if c.Depth > 0 {
			continue
		}
		if prog, _ := shellcmd.ProgramOf(c.Args); prog >= 0 && c.Args[prog].Lit {
			name := path.Base(c.Args[prog].Text)
			if projectTools[name] || name == "cd" || ((name == "bun" || name == "deno") && !runsScript(c.Args[prog+1:])) {
				ch.Tool = name
				break
			}
		}
	}
	ch.ToRoot = ch.Tool != ""
	if !ch.ToRoot {
		// python3 -m finds its module from the folder it runs in: the
		// word is a module's name, no path to rebase, so the command goes
		// to the workspace root, where the module was found.
		refs, _ := src.Refs()
		for _, r := range refs {
			if r.Call.Depth == 0 && r.Role == shellcmd.Module && shellcmd.IsPython(r.Interpreter) && r.Call.Dir == pl.base {
				ch.ToRoot = true
				break
			}
		}
	}
	frame := pl.targetDir
	if ch.ToRoot && pl.targetRoot != "" {
		frame = pl.targetRoot
	}
	var edits []edit
	seen := map[*syntax.Word]bool{}
	rewrite := func(w *syntax.Word, r wordRole) {
		if seen[w] {
			return
		}
		seen[w] = true
		if e, ok := pl.rewriteWord(cmd, w, r, frame, &ch); ok {
			edits = append(edits, e)
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		for _, a := range c.Assigns {
			if a.Value != nil {
				// CONFIG=.claude/x.json, not PATH=a:b.
				v := a.Value.Lit()
				rewrite(a.Value, wordRole{role: roleArg, moved: afterCd(cds, a.Value),
					names: strings.Contains(v, "/") && !strings.ContainsAny(v, ":*?[")})
			}
		}
		for _, a := range c.Args {
			r, ok := roles[span{int(a.Pos().Offset()), int(a.End().Offset())}]
			if !ok {
				r = wordRole{role: roleArg, moved: afterCd(cds, a)}
			}
			rewrite(a, r)
		}
		return true
	})
	// The files of redirections and file tests ([[ -f x ]]) are rebased
	// too, unless a cd before them moved the shell.
	syntax.Walk(f, func(n syntax.Node) bool {
		var w *syntax.Word
		switch n := n.(type) {
		case *syntax.Redirect:
			if n.Op != syntax.DplIn && n.Op != syntax.DplOut && n.Op != syntax.Hdoc && n.Op != syntax.DashHdoc && n.Op != syntax.WordHdoc {
				w = n.Word
			}
		case *syntax.UnaryTest:
			if fileTests[n.Op] {
				w, _ = n.X.(*syntax.Word)
			}
		}
		if w != nil && !seen[w] {
			rewrite(w, wordRole{role: roleArg, moved: afterCd(cds, w), names: true})
		}
		return true
	})
	out := cmd
	for _, e := range disjoint(edits) {
		out = out[:e.from] + e.text + out[e.to:]
	}
	if pl.targetRoot == "" && len(ch.Vars) > 0 {
		ch.ToRoot = true
	}
	// What the converted command runs, read as lint and the runtime will
	// read it: from the folder the command starts in.
	runs, runsDir := out, pl.targetDir
	switch {
	case ch.ToRoot && pl.targetRoot != "":
		// "cd $CLAUDE_PROJECT_DIR && ..." has become "cd . && ...".
		out = "cd " + shellcmd.Quote(relPath(pl.targetDir, pl.targetRoot)) + " && " + strings.TrimPrefix(out, "cd . && ")
		runs = out
	case ch.ToRoot:
		// The user's hooks.json serves every workspace: its command goes
		// to the root of the one it runs in, read here as the project the
		// hooks came from.
		runs, runsDir = strings.TrimPrefix(out, "cd . && "), pl.project
		out = `cd "$(git rev-parse --show-toplevel)" && ` + runs
	}
	ch.Command = out
	ch.Same = out == cmd
	pl.scripts(src, runs, runsDir, &ch)
	return ch
}

// scripts fills in the files the command runs: Scripts, those of the
// source command and of the converted one that exist (to read what they
// use), and Missing, those the converted command runs that do not exist,
// as lint's script-not-found reads them (a program by a path or an
// interpreter's script, in a call that runs unconditionally).
func (pl places) scripts(src *shellcmd.Command, out, dir string, ch *commandChange) {
	refs, _ := src.Refs()
	for _, r := range refs {
		if !r.Needed() {
			continue
		}
		if p, ok := r.Target(); ok {
			ch.Scripts = appendNew(ch.Scripts, p)
		} else if pl.altBase != "" && !filepath.IsAbs(r.Word.Text) && r.Call.Dir == pl.base {
			if alt := shellcmd.Resolve(filepath.Join(pl.altBase, r.Word.Text)); exists(alt) {
				ch.Scripts = appendNew(ch.Scripts, alt)
			}
		}
	}
	refs, _ = shellcmd.Parse(out, dir, pl.targetRoot).Refs()
	for _, r := range refs {
		if !r.Needed() {
			continue
		}
		switch p, ok := r.Target(); {
		case ok:
			ch.Scripts = appendNew(ch.Scripts, p)
		case !r.Call.Conditional && r.Missing():
			ch.Missing = appendNew(ch.Missing, shellcmd.Resolve(r.Path))
		}
	}
}

// span is where a word stands in a command, in bytes.
type span struct{ from, to int }

// wordRole is what a word of a command is, as schema/shellcmd reads it.
type wordRole struct {
	role int
	// moved is set when the word's call runs after a cd: a relative path
	// in it starts from where the cd went, which is rebased itself.
	moved bool
	// names is set for an argument that names a file: one schema/shellcmd
	// takes for a path, a redirection's file, the operand of a file test.
	names bool
}

// wordRoles returns the role of each word of the command's own calls, by
// its span, and the spans of the calls that change folder.
func (pl places) wordRoles(c *shellcmd.Command) (map[span]wordRole, []span) {
	roles := map[span]wordRole{}
	var cds []span
	refs, _ := c.Refs()
	for _, call := range c.Calls {
		if call.Depth > 0 || len(call.Args) == 0 {
			continue
		}
		moved := call.Dir != pl.base
		prog, script := shellcmd.ProgramOf(call.Args)
		cd := prog >= 0 && call.Args[prog].Lit && (call.Args[prog].Text == "cd" || call.Args[prog].Text == "pushd")
		if cd {
			cds = append(cds, span{call.Args[0].From, call.Args[len(call.Args)-1].To})
		}
		for i, a := range call.Args {
			r := wordRole{role: roleArg, moved: moved, names: namesFile(refs, a)}
			switch {
			case i == prog:
				r.role = roleProgram
			case i == script:
				r.role = roleScript
			case cd && i == prog+1:
				r.role = roleDir
			}
			roles[span{a.From, a.To}] = r
		}
	}
	for _, ref := range refs {
		if ref.Call.Depth > 0 || ref.Role != shellcmd.Script {
			continue
		}
		// A script read by a shell on stdin, or named after "uv run".
		k := span{ref.Word.From, ref.Word.To}
		if r, ok := roles[k]; ok {
			r.role = roleScript
			roles[k] = r
		}
	}
	return roles, cds
}

// namesFile reports whether schema/shellcmd takes a word for a file the
// command names.
func namesFile(refs []shellcmd.Ref, w shellcmd.Word) bool {
	for _, r := range refs {
		if r.Word.From == w.From && r.Word.To == w.To && r.Call.Depth == 0 {
			return true
		}
	}
	return false
}

// fileTests are the test operators whose operand is a file.
var fileTests = map[syntax.UnTestOperator]bool{
	syntax.TsExists: true, syntax.TsRegFile: true, syntax.TsDirect: true, syntax.TsCharSp: true,
	syntax.TsBlckSp: true, syntax.TsNmPipe: true, syntax.TsSocket: true, syntax.TsSmbLink: true,
	syntax.TsSticky: true, syntax.TsGIDSet: true, syntax.TsUIDSet: true, syntax.TsGrpOwn: true,
	syntax.TsUsrOwn: true, syntax.TsModif: true, syntax.TsRead: true, syntax.TsWrite: true,
	syntax.TsExec: true, syntax.TsNoEmpty: true,
}

// afterCd reports whether a word stands after a cd of the command.
func afterCd(cds []span, w *syntax.Word) bool {
	at := int(w.Pos().Offset())
	for _, cd := range cds {
		if cd.to <= at {
			return true
		}
	}
	return false
}

// knownVars are the other agent's variables whose folders are known, for
// schema/shellcmd to read the words that use them.
func (pl places) knownVars() map[string]string {
	vars := map[string]string{}
	for _, group := range [][]string{projectVars, pluginVars} {
		for _, name := range group {
			if dir := pl.varDir(name); dir != "" {
				vars[name] = dir
			}
		}
	}
	return vars
}

// disjoint keeps the edits that do not overlap, the innermost first (a word
// inside a command substitution rather than the word around it), and
// returns them from the end of the command backwards.
func disjoint(edits []edit) []edit {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].to-edits[i].from < edits[j].to-edits[j].from })
	var kept []edit
	for _, e := range edits {
		ok := true
		for _, k := range kept {
			if e.from < k.to && k.from < e.to {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, e)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].from > kept[j].from })
	return kept
}

const (
	roleArg = iota
	roleProgram
	roleScript
	roleDir
)

// runsScript reports whether bun or deno is given a script file rather
// than a package script or task.
func runsScript(args []shellcmd.Word) bool {
	for _, a := range args {
		l := a.Text
		if l == "run" || strings.HasPrefix(l, "-") {
			continue
		}
		return a.Lit && strings.ContainsAny(l, "/.")
	}
	return false
}

// rewriteWord rebases one word, when it is a path or holds a project or
// plugin variable.
func (pl places) rewriteWord(cmd string, w *syntax.Word, r wordRole, frame string, ch *commandChange) (edit, bool) {
	info := pl.wordValue(cmd, w)
	from, to := int(w.Pos().Offset()), int(w.End().Offset())
	old := cmd[from:to]
	if !info.ok {
		if len(info.vars) == 0 {
			return edit{}, false
		}
		// A variable inside a word hookctl cannot read whole (it also holds
		// a command substitution, say): replace the variable alone.
		text := pl.replaceVarsText(old, ch)
		if text != old {
			ch.Rebased = appendNew(ch.Rebased, old+" → "+text)
		}
		return edit{from, to, text}, text != old
	}
	value := info.value
	isPath := len(info.vars) > 0 || info.gitRoot
	var abs string
	switch {
	case isPath:
		abs = value
	case filepath.IsAbs(value) || strings.HasPrefix(value, "~") || strings.Contains(value, "://") || strings.HasPrefix(value, "-"):
		return edit{}, false
	case r.moved:
		// Relative to where a cd went, which is rebased itself.
		return edit{}, false
	default:
		abs = filepath.Join(pl.base, value)
		if pl.altBase != "" && !exists(abs) && (exists(filepath.Join(pl.altBase, value)) || strings.HasPrefix(value, filepath.Base(pl.base)+"/")) {
			abs = filepath.Join(pl.altBase, value)
		}
		switch r.role {
		case roleProgram:
			isPath = strings.Contains(value, "/")
		case roleScript, roleDir:
			isPath = value != "" && !strings.ContainsAny(value, "*?[=")
		default:
			isPath = r.names && (exists(abs) || hasKnownPrefix(value))
		}
	}
	if !isPath {
		return edit{}, false
	}
	ch.Vars = append(ch.Vars, info.vars...)
	text := pl.render(abs, frame, r.role == roleProgram)
	if pl.targetRoot == "" && !filepath.IsAbs(strings.Trim(text, "'")) {
		ch.ToRoot = true
	}
	if text == old || len(info.vars) == 0 && !info.gitRoot && filepath.Clean(value) == filepath.Clean(strings.Trim(text, "'")) {
		return edit{}, false
	}
	ch.Rebased = appendNew(ch.Rebased, old+" → "+text)
	return edit{from, to, text}, true
}

// render writes an absolute path for a command that runs in frame: relative
// to it when the path has a place in the target, else absolute. Within one
// project the path names the same file it named, whatever the frame:
// rebasing never changes what a command runs.
func (pl places) render(abs, frame string, isProgram bool) string {
	var p string
	switch {
	case pl.targetRoot == "":
		// The user's hooks.json serves every workspace: a command that needs
		// the project first goes to its root, so paths stay project-relative.
		rel, ok := within(pl.project, abs)
		if !ok {
			return shellcmd.Quote(abs)
		}
		p = rel
	case sameDir(pl.project, pl.targetRoot) || isWithin(pl.targetRoot, pl.base) && exists(abs):
		// The source is in the project the hooks are for: a path names
		// the same file from the new folder. (A path to nothing yet keeps
		// its place relative to the file, as written for .agents.)
		p = relPath(frame, abs)
	default:
		rel, err := filepath.Rel(pl.anchorSrc, abs)
		if err != nil || pl.strict && (rel == ".." || strings.HasPrefix(rel, "../")) {
			return shellcmd.Quote(abs)
		}
		p = relPath(frame, filepath.Join(pl.anchorDst, rel))
	}
	if isProgram && !strings.Contains(p, "/") {
		p = "./" + p
	}
	return shellcmd.Quote(p)
}

// relPath returns path relative to dir, with slashes.
func relPath(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// within returns path relative to dir when it lies in dir.
func within(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// wordValue reads a word whose value is known before it runs: literal text
// in any quoting, with at most a project or plugin variable at its start.
func (pl places) wordValue(cmd string, w *syntax.Word) wordInfo {
	info := wordInfo{word: w, ok: true}
	var b strings.Builder
	var lead string
	addVar := func(name string) bool {
		if dir := pl.varDir(name); dir != "" {
			info.vars = append(info.vars, name)
			if b.Len() == 0 && lead == "" {
				lead = dir
				return true
			}
		} else if isOneOf(name, projectVars) || isOneOf(name, pluginVars) {
			info.vars = append(info.vars, name)
		}
		return false
	}
	var part func(p syntax.WordPart)
	part = func(p syntax.WordPart) {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `\`) {
				info.ok = false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				info.ok = false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				part(q)
			}
		case *syntax.ParamExp:
			if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil {
				info.ok = false
				return
			}
			if !addVar(p.Param.Value) {
				info.ok = false
			}
		case *syntax.CmdSubst:
			if isGitRoot(p) && b.Len() == 0 && lead == "" {
				lead, info.gitRoot = pl.project, true
				return
			}
			info.ok = false
			syntax.Walk(p, func(n syntax.Node) bool {
				if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil {
					if isOneOf(pe.Param.Value, projectVars) || isOneOf(pe.Param.Value, pluginVars) {
						info.vars = append(info.vars, pe.Param.Value)
					}
				}
				return true
			})
		default:
			info.ok = false
			// Look inside for variables all the same.
			syntax.Walk(p, func(n syntax.Node) bool {
				if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil {
					if isOneOf(pe.Param.Value, projectVars) || isOneOf(pe.Param.Value, pluginVars) {
						info.vars = append(info.vars, pe.Param.Value)
					}
				}
				return true
			})
		}
	}
	for _, p := range w.Parts {
		part(p)
	}
	rest := b.String()
	if lead != "" {
		if rest != "" && !strings.HasPrefix(rest, "/") {
			info.ok = false
		}
		info.value = filepath.Join(lead, rest)
	} else {
		info.value = rest
	}
	if strings.ContainsAny(info.value, "*?[") || strings.HasPrefix(rest, "~") {
		info.ok = false
	}
	return info
}

// isGitRoot reports whether a command substitution is git rev-parse
// --show-toplevel, which handlers use to find the project root.
func isGitRoot(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 3 {
		return false
	}
	return call.Args[0].Lit() == "git" && call.Args[1].Lit() == "rev-parse" && call.Args[2].Lit() == "--show-toplevel"
}

// varDir returns the folder a project or plugin variable names, "" when
// the source does not set it.
func (pl places) varDir(name string) string {
	switch {
	case isOneOf(name, projectVars):
		return pl.project
	case isOneOf(name, pluginVars) && pl.plugin != "":
		return pl.plugin
	}
	return ""
}

// replaceVarsText replaces the project and plugin variables of a command
// hookctl cannot parse, as text.
func (pl places) replaceVarsText(s string, ch *commandChange) string {
	for _, group := range [][]string{projectVars, pluginVars} {
		for _, name := range group {
			dir := pl.varDir(name)
			if dir == "" {
				continue
			}
			text := pl.render(dir, pl.targetDir, false)
			if text == "." || pl.targetRoot == "" && dir == pl.project {
				text = `$(git rev-parse --show-toplevel)`
			}
			for _, form := range []string{"${" + name + "}", "$" + name} {
				if strings.Contains(s, form) {
					s = strings.ReplaceAll(s, form, text)
					ch.Vars = appendNew(ch.Vars, name)
				}
			}
		}
	}
	return s
}

// hasKnownPrefix reports whether a relative path starts where agents keep
// their files, so it is a path even when the file is not there yet.
func hasKnownPrefix(s string) bool {
	for _, p := range []string{"./", "../", ".agents/", ".agent/", ".claude/", ".gemini/", ".cursor/", ".codex/", ".github/", "scripts/", "hooks/", "tools/", "bin/"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func hasAgentPrefix(name string) bool {
	for _, p := range agentPrefix {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func isOneOf(s string, list []string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func appendNew(list []string, s string) []string {
	if isOneOf(s, list) {
		return list
	}
	return append(list, s)
}

func sameDir(a, b string) bool {
	return a != "" && b != "" && filepath.Clean(a) == filepath.Clean(b)
}

// isWithin reports whether path lies in dir (or is dir).
func isWithin(dir, path string) bool {
	_, ok := within(dir, path)
	return ok
}
