package oracle

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/runtime/trust"
)

// misreadWay is the way of a file trust reads as shell code when another
// interpreter runs it.
const misreadWay Way = "read by trust as shell code"

// Fed is the way of a file whose text an interpreter took in through a
// pipe or its arguments (cat f | sh, xargs -a f sh -c '{}').
const Fed Way = "fed as code through a pipe or an argument"

// Finding is a file of the workspace that a command's process tree ran as
// code, which trust neither covers nor names.
type Finding struct {
	// File is the file, relative to the workspace, with slashes.
	File string
	Way  Way
	// By is the program that took it in; Argv its arguments.
	By   string
	Argv []string
	// Via is the name the program gave (the path it executed or opened),
	// or where fed code came from.
	Via string
	// Verdict is "" for a file trust neither covers nor names, else
	// "covered", "data" or the gap that names it.
	Verdict string
}

func (f Finding) String() string {
	argv := strings.Join(f.Argv, " ")
	if len(argv) > 120 {
		argv = argv[:120] + "..."
	}
	via := ""
	if f.Via != "" && f.Via != f.File {
		via = fmt.Sprintf(" (as %q)", f.Via)
	}
	s := fmt.Sprintf("%s %s by %s%s [%s]", f.File, f.Way, f.By, via, argv)
	if f.Verdict != "" {
		s += ": " + f.Verdict
	}
	return s
}

// Workspace is a workspace's files as they were before a command ran:
// their content by path relative to the root, with slashes.
type Workspace struct {
	Root  string
	Files map[string][]byte
}

// ReadWorkspace reads every regular file under root (links not followed,
// .git's objects skipped), up to 1 MiB each.
func ReadWorkspace(root string) (*Workspace, error) {
	w := &Workspace{Root: root, Files: map[string][]byte{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "objects" && strings.HasSuffix(filepath.Dir(p), ".git") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 1<<20 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		w.Files[filepath.ToSlash(rel)] = b
		return nil
	})
	return w, err
}

// Input is what Judge compares: trust's snapshot of a workspace and one
// of its commands, the workspace as it was before the command ran, and the
// trace of its run.
type Input struct {
	Snapshot *trust.Snapshot
	// Command is one of Snapshot.Commands.
	Command trust.Command
	Before  *Workspace
	Trace   *Trace
	// Stdin is what the command read on stdin (the agent's payload): text
	// fed on that is in it comes from the agent, not from a file.
	Stdin []byte
	// Data are patterns (path.Match, relative to the root) of files shown
	// to be data for this command: their reads by path and their text fed
	// on are not code; "LANG:PATTERN" (python:Makefile) makes them data to
	// the programs of that language alone.
	Data []string
}

// Judge returns every file of the workspace the trace shows taken in,
// with its verdict: covered, data, named by a gap, or "" (a failure).
func Judge(in Input) []Finding {
	snap, cmd, before, tr, data := in.Snapshot, in.Command, in.Before, in.Trace, in.Data
	var misread []Finding
	cmd.Gaps, misread = shellMisreads(snap.Root, cmd.Gaps, tr)
	cmd.Gaps = payloadMisreads(cmd.Gaps, tr, in.Stdin)
	covered := map[string]bool{}
	var coveredText []string
	for _, f := range snap.Files {
		if f.State != trust.Present {
			continue
		}
		covered[f.Path] = true
		if r, err := filepath.EvalSymlinks(filepath.Join(snap.Root, filepath.FromSlash(f.Path))); err == nil {
			if rel, ok := relTo(snap.Root, r); ok {
				covered[rel] = true
			}
		}
		if b, ok := before.Files[f.Path]; ok {
			coveredText = append(coveredText, string(b))
		}
	}
	isData := func(rel, lang string) bool {
		for _, d := range data {
			if l, pat, ok := strings.Cut(d, ":"); ok {
				if l != lang {
					continue
				}
				d = pat
			}
			if ok, _ := path.Match(d, rel); ok || d == rel {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	var out []Finding
	add := func(f Finding) {
		key := f.File + "\x00" + string(f.Way) + "\x00" + f.Verdict
		if !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	for _, l := range tr.Loads {
		rel, ok := relTo(snap.Root, l.Path)
		if !ok {
			continue
		}
		if _, existed := before.Files[rel]; !existed {
			// Written by the run itself: not what a clone brings.
			continue
		}
		prog := Interpreter(l.Proc.Name(), l.Proc.Argv)
		f := Finding{File: rel, Way: l.Way, By: l.Proc.Name(), Argv: l.Proc.Argv, Via: l.Via}
		switch {
		case covered[rel]:
			f.Verdict = "covered"
		case l.Way == Redirected:
			f.Verdict = "data"
		case (l.Way == Opened || l.Way == Alias || l.Way == Stdin) && !prog.IsCode(l.Path):
			f.Verdict = "data"
		case l.Way == Opened && isData(rel, prog.Lang):
			f.Verdict = "data"
		default:
			if g := Naming(cmd.Gaps, l.Way, prog.Lang); g != "" {
				f.Verdict = "named: " + g
			}
		}
		add(f)
	}
	// Text fed on: a line of an uncovered file of the workspace, long
	// enough to be its own, that is in no covered file.
	var lines []struct{ file, line string }
	for rel, b := range before.Files {
		if covered[rel] || strings.Contains(rel, "/.git/") || strings.HasPrefix(rel, ".git/") {
			continue
		}
		for _, ln := range strings.Split(string(b), "\n") {
			ln = strings.TrimSpace(ln)
			if len(ln) < 8 || strings.HasPrefix(ln, "#!") {
				continue
			}
			inCovered := false
			for _, t := range coveredText {
				if strings.Contains(t, ln) {
					inCovered = true
					break
				}
			}
			if !inCovered && !strings.Contains(cmd.Command, ln) && !strings.Contains(string(in.Stdin), ln) {
				lines = append(lines, struct{ file, line string }{rel, ln})
			}
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].file < lines[j].file })
	for _, t := range tr.Texts {
		prog := Interpreter(t.Proc.Name(), t.Proc.Argv)
		for _, l := range lines {
			if strings.Contains(t.Text, l.line) && !isData(l.file, prog.Lang) {
				f := Finding{File: l.file, Way: Fed, By: t.Proc.Name(), Argv: t.Proc.Argv, Via: t.From}
				if g := Naming(cmd.Gaps, Fed, prog.Lang); g != "" {
					f.Verdict = "named: " + g
				}
				add(f)
			}
		}
	}
	for _, f := range misread {
		add(f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Way < out[j].Way
	})
	return out
}

// shellGap is a gap that says a file holds shell code trust cannot read.
var shellGap = regexp.MustCompile(`^(.+?):\d+ holds shell code from its line \d+ on`)

// shellMisreads drops the gaps that call a file shell code when the trace
// shows no shell reading it and another interpreter running it (a Python
// script run by its #! line, read as shell): such a gap names nothing of
// what runs. Each is returned as a finding of its own.
func shellMisreads(root string, gaps []string, tr *Trace) ([]string, []Finding) {
	var keep []string
	var out []Finding
	for _, g := range gaps {
		m := shellGap.FindStringSubmatch(g)
		if m == nil {
			keep = append(keep, g)
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(m[1]))
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		shell, other := false, Image{}
		for _, l := range tr.Loads {
			if l.Path != p || l.Way == Exec {
				continue
			}
			prog := Interpreter(l.Proc.Name(), l.Proc.Argv)
			if prog.Shell {
				shell = true
			} else if prog.Lang != "" {
				other = l.Proc
			}
		}
		if shell || other.Exe == "" {
			keep = append(keep, g)
			continue
		}
		out = append(out, Finding{File: m[1], Way: misreadWay, By: other.Name(), Argv: other.Argv, Via: g})
	}
	return keep, out
}

// payloadGap is a gap that says an interpreter reads the agent's payload
// as its code.
var payloadGap = regexp.MustCompile(`reads its code on stdin, where the agent's payload is`)

// payloadMisreads drops the gaps that say an interpreter runs the agent's
// payload as code when the trace shows none did: its stdin was a file, a
// here-document or a pipe of the command's own, whose code the gap does
// not name.
func payloadMisreads(gaps []string, tr *Trace, stdin []byte) []string {
	for _, x := range tr.Texts {
		n := min(len(x.Text), 64)
		if x.Program && n > 0 && strings.Contains(string(stdin), x.Text[:n]) {
			return gaps
		}
	}
	var keep []string
	for _, g := range gaps {
		if !payloadGap.MatchString(g) {
			keep = append(keep, g)
		}
	}
	return keep
}

func relTo(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// What a gap must say to name a way of running code. A gap that says
// code runs that trust cannot know (built or named only when the command
// runs, read on stdin, printed by another command) names whatever that
// code loads. A gap names code fed to an interpreter when it speaks of
// stdin, a descriptor, a pipe, a here-document or a redirection; a file
// run by a path when it speaks of a variable, a computed name or a
// pattern, or of the language that loads it.
var (
	unknownGap = regexp.MustCompile(`(?i)runs the code that|reads its code|built only when|known only when|named only when|not known|cannot read|changes what it runs`)
	fedGap     = regexp.MustCompile(`(?i)stdin|/dev/|/proc/|descriptor|pipe|here-?doc|here-?string|redirect|its input|prints|xargs|read from`)
	dynamicGap = regexp.MustCompile(`(?i)variable|comput|pattern`)
	langGap    = map[string]*regexp.Regexp{
		"python":  regexp.MustCompile(`(?i)python|import|sys\.path|exec`),
		"node":    regexp.MustCompile(`(?i)node|javascript|require|import|package`),
		"perl":    regexp.MustCompile(`(?i)perl|require|\buse\b|\bdo\b`),
		"ruby":    regexp.MustCompile(`(?i)ruby|require|load`),
		"awk":     regexp.MustCompile(`(?i)awk|@include`),
		"make":    regexp.MustCompile(`(?i)\bmake\b|makefile`),
		"git":     regexp.MustCompile(`(?i)\bgit\b|repository`),
		"hookctl": regexp.MustCompile(`(?i)hookctl`),
		"java":    regexp.MustCompile(`(?i)java`),
		"php":     regexp.MustCompile(`(?i)php|include|require`),
		"lua":     regexp.MustCompile(`(?i)lua|require|dofile`),
	}
)

// Naming returns the first of the gaps that names the way a program of
// the language lang ran code, "" when none does.
func Naming(gaps []string, way Way, lang string) string {
	for _, g := range gaps {
		if unknownGap.MatchString(g) {
			return g
		}
		switch way {
		case Fed, Stdin, Alias:
			if fedGap.MatchString(g) {
				return g
			}
		default:
			if dynamicGap.MatchString(g) {
				return g
			}
		}
		if re := langGap[lang]; re != nil && re.MatchString(g) {
			return g
		}
	}
	return ""
}
