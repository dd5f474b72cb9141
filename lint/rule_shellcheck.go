package lint

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

type shellCheck struct{ RuleBase }

func newShellCheck() Rule {
	return &shellCheck{newBase("shellcheck", Warning,
		"ShellCheck's findings on the shell scripts handlers run and on inline commands (when shellcheck is on PATH), as SCnnnn with its wiki link")}
}

// Severities are those of the rule's findings, most serious first:
// ShellCheck's errors and warnings are warnings, its infos and style
// notes infos.
func (r *shellCheck) Severities() []Severity { return []Severity{Warning, Info} }

// shellcheckTimeout bounds one run of shellcheck, which checks a batch of
// texts: a hostile script must not hold lint for ever.
var shellcheckTimeout = 20 * time.Second

const (
	// shellcheckOutput bounds what one run (one batch) may print.
	shellcheckOutput = 8 << 20
	// shellcheckWiki is where each ShellCheck code is explained.
	shellcheckWiki = "https://www.shellcheck.net/wiki/SC"
)

// shellcheckExcluded are codes about files ShellCheck was not given
// (source ./lib.sh), which say nothing about the script itself.
const shellcheckExcluded = "SC1090,SC1091"

// FindShellCheck returns the ShellCheck program to run: the one
// HOOKCTL_SHELLCHECK names (a path, or a name looked up in PATH), else
// shellcheck from PATH; "" when there is none.
func FindShellCheck() string {
	name := os.Getenv("HOOKCTL_SHELLCHECK")
	if name == "" {
		name = "shellcheck"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return p
}

// scJob is one text for shellcheck to check: a script, or an inline
// command. Jobs are checked in batches (see runShellcheck).
type scJob struct {
	dialect string
	// path is the script's file, "" for an inline command, whose text is
	// src.
	path string
	src  []byte
	// dir is where shellcheck runs, so that the repository's
	// .shellcheckrc applies.
	dir string

	comments []scComment
	err      error
}

// scComment is one finding of shellcheck --format=json1.
type scComment struct {
	// File is the name shellcheck was given, which says which text of a
	// batch the finding is in.
	File      string `json:"file"`
	Line      int    `json:"line"`
	EndLine   int    `json:"endLine"`
	Column    int    `json:"column"`
	EndColumn int    `json:"endColumn"`
	Level     string `json:"level"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
}

// scUse is where a job's findings are reported: in a script file, or at a
// handler's command in hooks.json.
type scUse struct {
	job *scJob
	f   *File
	h   handlerRef
	// shown names the script in findings; "" for an inline command.
	shown string
	// at is where hooks.json names the script, or the command.
	at schema.Span
}

func (r *shellCheck) CheckRun(run *Run) {
	if run.shellcheck == "" && !run.reportSkipped {
		return
	}
	uses := r.collect(run)
	if len(uses) == 0 {
		return
	}
	bin := run.shellcheck
	if bin == "" {
		if run.reportSkipped {
			u := uses[0]
			r.reportSeverity(u.f, Info, u.at, "",
				"shellcheck is not on PATH, so the shell scripts and inline commands were not checked with ShellCheck: install it (apt install shellcheck, brew install shellcheck; https://www.shellcheck.net), or name it with HOOKCTL_SHELLCHECK")
		}
		return
	}
	var jobs []*scJob
	seen := map[*scJob]bool{}
	for _, u := range uses {
		if !seen[u.job] {
			seen[u.job] = true
			jobs = append(jobs, u.job)
		}
	}
	var read int64
	for _, f := range run.Files {
		if f.Config != nil {
			read += int64(len(f.Config.Src))
		}
	}
	runShellcheck(run.context(), bin, jobs, read)
	if run.stopped() {
		return
	}
	reported := map[*scJob]bool{}
	for _, u := range uses {
		if u.job.err != nil {
			if !reported[u.job] {
				reported[u.job] = true
				r.reportSeverity(u.f, Info, u.at, "", "ShellCheck could not check %s: %s", u.what(), u.job.err)
			}
			continue
		}
		if u.shown != "" {
			if reported[u.job] {
				continue // a script's findings are in the script, once
			}
			reported[u.job] = true
			if len(u.job.comments) > 0 {
				if run.sources == nil {
					run.sources = map[string][]byte{}
				}
				run.sources[u.shown] = u.job.src
			}
		}
		for _, c := range u.job.comments {
			r.reportComment(u, c)
		}
	}
}

func (u scUse) what() string {
	if u.shown != "" {
		return u.shown
	}
	return "the command"
}

// collect lists every script and inline command to check, one job for
// each distinct one.
func (r *shellCheck) collect(run *Run) []scUse {
	type key struct{ dialect, path, src, dir string }
	jobs := map[key]*scJob{}
	job := func(k key) *scJob {
		j, ok := jobs[k]
		if !ok {
			j = &scJob{dialect: k.dialect, path: k.path, src: []byte(k.src), dir: k.dir}
			jobs[k] = j
		}
		return j
	}
	var uses []scUse
	for _, f := range run.Files {
		if !f.choice.runs(r.id) || f.foreign != nil {
			continue
		}
		for _, s := range f.scripts() {
			dialect := scriptDialect(f, s)
			if dialect == "" {
				continue
			}
			uses = append(uses, scUse{job: job(key{dialect: dialect, path: s.path, dir: f.Dir()}), f: f, h: s.handler, shown: scriptName(f, s.path), at: s.span})
		}
		for _, h := range f.allHandlers() {
			c := f.command(h)
			// A command of plain words gives ShellCheck nothing to say,
			// and one that does not parse is shell-syntax's.
			if c == nil || c.simple || c.parsed.Err != nil {
				continue
			}
			uses = append(uses, scUse{job: job(key{dialect: "sh", src: c.src, dir: f.Dir()}), f: f, h: h, at: h.Command.Span})
		}
	}
	return uses
}

// scriptDialect is the shell ShellCheck reads a handler's script as, ""
// for a script that is not shell (or a shell ShellCheck does not know,
// such as zsh).
func scriptDialect(f *File, s handlerScript) string {
	if s.unreadText() || !f.fs.exists(s.path) {
		return ""
	}
	name := ""
	if s.viaInterpreter() {
		name = filepath.Base(s.ref.Interpreter)
	} else {
		name = filepath.Base(interpreterFor(s.path, f.fs.head(s.path)))
	}
	switch name {
	case "sh", "dash", "posix":
		return "sh"
	case "bash", "ksh":
		return name
	}
	return ""
}

// scriptName names a script for findings, from where the hooks.json's
// name starts: ".agents/hooks/gate.sh".
func scriptName(f *File, path string) string {
	return filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(f.Name), rel(f.Dir(), path))))
}

// reportComment reports one of ShellCheck's findings where it stands.
func (r *shellCheck) reportComment(u scUse, c scComment) {
	sev := Warning
	if c.Level == "info" || c.Level == "style" {
		sev = Info
	}
	msg := fmt.Sprintf("SC%d: %s (%s%d)", c.Code, schema.VisibleText(strings.TrimSuffix(c.Message, ".")), shellcheckWiki, c.Code)
	if u.shown != "" {
		span := textSpan(u.job.src, c)
		r.reportSeverity(&File{Name: u.shown, choice: u.f.choice}, sev, span, "", "%s", msg)
		return
	}
	span := textSpan(u.job.src, c)
	r.reportSeverity(u.f, sev, u.f.strSpan(u.h.Command, span.Start.Offset, span.End.Offset), "", "%s", msg)
}

// textSpan turns ShellCheck's lines and columns (1-based, a tab and every
// other character counting one) into a span of src with byte offsets.
func textSpan(src []byte, c scComment) schema.Span {
	at := func(line, col int) schema.Pos {
		off, l := 0, 1
		for l < line && off < len(src) {
			i := bytes.IndexByte(src[off:], '\n')
			if i < 0 {
				off = len(src)
				break
			}
			off += i + 1
			l++
		}
		p := schema.Pos{Line: line, Col: 1, Offset: off}
		for p.Col < col && p.Offset < len(src) && src[p.Offset] != '\n' {
			_, size := utf8.DecodeRune(src[p.Offset:])
			p.Offset += size
			p.Col++
		}
		p.Col = max(col, 1)
		return p
	}
	start := at(max(c.Line, 1), c.Column)
	end := at(max(c.EndLine, c.Line, 1), c.EndColumn)
	if end.Offset < start.Offset {
		end = start
	}
	return schema.Span{Start: start, End: end}
}

// scCache keeps what shellcheck said about each text, for the life of the
// process: an editor lints the same commands on every keystroke.
var scCache = struct {
	sync.Mutex
	m map[[sha256.Size]byte][]scComment
}{m: map[[sha256.Size]byte][]scComment{}}

const scCacheSize = 4096

func scCacheKey(bin string, j *scJob) [sha256.Size]byte {
	h := sha256.New()
	for _, s := range []string{bin, j.dialect, j.dir} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(j.src)
	var k [sha256.Size]byte
	copy(k[:], h.Sum(nil))
	return k
}

// scCached returns what shellcheck said about j's text before, if it did.
func scCached(bin string, j *scJob) ([]scComment, bool) {
	scCache.Lock()
	defer scCache.Unlock()
	c, ok := scCache.m[scCacheKey(bin, j)]
	return c, ok
}

// scRemember keeps what shellcheck said about j's text.
func scRemember(bin string, j *scJob) {
	scCache.Lock()
	defer scCache.Unlock()
	if len(scCache.m) >= scCacheSize {
		clear(scCache.m)
	}
	scCache.m[scCacheKey(bin, j)] = j.comments
}

// stderrLine quotes the first line of what shellcheck printed on stderr,
// escaped, for a message.
func stderrLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return ": " + strconv.Quote(s)
}
