package lint

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
)

// shellcheckWorkspace writes a workspace whose hooks run a sh script (from
// five handlers, once through sh), a bash script, a Python script and an
// inline command (from three handlers), and one inline command that does
// not parse.
func shellcheckWorkspace(t *testing.T) Target {
	t.Helper()
	ws := t.TempDir()
	files := map[string]string{
		".agents/hooks/check.sh": "#!/bin/sh\nif [[ -n $1 ]]; then\n\techo $1 >&2\nfi\n",
		".agents/hooks/tidy":     "#!/usr/bin/env bash\nfor f in $(ls); do echo \"$f\" >&2; done\n",
		".agents/hooks/guard.py": "#!/usr/bin/env python3\nimport sys\n",
	}
	for name, body := range files {
		writeImpactFile(t, filepath.Join(ws, name), body, 0o755)
	}
	src := `{
  "gate": {
    "PreToolUse": [
      {"matcher": "run_command", "hooks": [{"command": "./hooks/check.sh"}, {"command": "sh hooks/check.sh x"}, {"command": "./hooks/tidy"}, {"command": "python3 hooks/guard.py"}]},
      {"matcher": "view_file", "hooks": [{"command": "./hooks/check.sh"}, {"command": "cd $HOOKCTL_WORKSPACE && true"}]}
    ],
    "Stop": [{"command": "./hooks/check.sh"}, {"command": "cd $HOOKCTL_WORKSPACE && true"}, {"command": "./hooks/check.sh"}, {"command": "echo 'open >&2"}],
    "PreInvocation": [{"command": "cd $HOOKCTL_WORKSPACE && true"}]
  }
}
`
	path := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}
}

// fakeShellcheck writes a shellcheck that, like the real one, checks the
// files it is given after its options (--format=json1 -s DIALECT -e
// CODES): it logs each run's arguments and each file's text (one log file
// a run, in the folder log, as runs go in parallel), and prints
// as findings what body prints for each file, which sees the text in $in
// and prints comma-separated comments whose "file" is "-".
func fakeShellcheck(t *testing.T, body string) (bin, log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "runs")
	if err := os.Mkdir(log, 0o755); err != nil {
		t.Fatal(err)
	}
	return fakeShellcheckRaw(t, `log='`+log+`'/$$
printf 'run %s\n' "$*" >> "$log"
dialect=$3
shift 5
out=
for f; do
	in=$(cat "$f")
	printf 'text %s\n%s\n---\n' "$dialect" "$in" >> "$log"
	c=$(`+body+`
)
	c=$(printf '%s' "$c" | sed "s/\"file\":\"-\"/\"file\":\"$f\"/g")
	if [ -n "$c" ]; then out="${out:+$out,}$c"; fi
done
printf '{"comments":[%s]}\n' "$out"`), log
}

// fakeShellcheckRaw writes a shellcheck that runs script.
func fakeShellcheckRaw(t *testing.T, script string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "shellcheck")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// scRun is one run of a fakeShellcheck: its arguments and the texts of
// the files it checked, each with the dialect it was checked as.
type scRun struct {
	args  string
	texts []string
}

func readShellcheckLog(t *testing.T, log string) []scRun {
	t.Helper()
	logs, err := os.ReadDir(log)
	if err != nil {
		t.Fatal(err)
	}
	var runs []scRun
	for _, l := range logs {
		b, err := os.ReadFile(filepath.Join(log, l.Name()))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, parseShellcheckLog(t, b)...)
	}
	return runs
}

// parseShellcheckLog reads the log of one run of a fakeShellcheck.
func parseShellcheckLog(t *testing.T, b []byte) []scRun {
	t.Helper()
	var runs []scRun
	for rest := string(b); rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		switch {
		case strings.HasPrefix(line, "run "):
			runs = append(runs, scRun{args: strings.TrimPrefix(line, "run ")})
			rest = after
		case strings.HasPrefix(line, "text ") && len(runs) > 0:
			text, after2, _ := strings.Cut(after, "\n---\n")
			r := &runs[len(runs)-1]
			r.texts = append(r.texts, strings.TrimPrefix(line, "text ")+": "+text)
			rest = after2
		default:
			t.Fatalf("unexpected log line %q in:\n%s", line, b)
		}
	}
	return runs
}

func shellcheckFindings(t *testing.T, bin string, tgts ...Target) []Finding {
	t.Helper()
	res, err := Lint(Request{Files: tgts, ShellCheck: bin})
	if err != nil {
		t.Fatal(err)
	}
	var out []Finding
	for _, f := range res.Findings {
		if f.Rule == "shellcheck" {
			out = append(out, f)
		}
	}
	return out
}

// TestShellcheckOncePerScript: each distinct script and inline command is
// checked once, however many handlers name it, in runs of one dialect
// each; none for Python, for a command of plain words, or for one that
// does not parse.
func TestShellcheckOncePerScript(t *testing.T) {
	bin, log := fakeShellcheck(t, `true`)
	tgt := shellcheckWorkspace(t)
	if fs := shellcheckFindings(t, bin, tgt); len(fs) > 0 {
		t.Fatalf("findings from a shellcheck that finds nothing: %s", formatFindings(fs))
	}
	runs := readShellcheckLog(t, log)
	var texts []string
	for _, r := range runs {
		for _, text := range r.texts {
			dialect, _, _ := strings.Cut(text, ":")
			if want := "--format=json1 -s " + dialect + " -e SC1090,SC1091 t"; !strings.HasPrefix(r.args, want) {
				t.Errorf("run %q checks a %s text, want arguments starting %q", r.args, dialect, want)
			}
			texts = append(texts, text)
		}
	}
	sort.Strings(texts)
	want := []string{
		"bash: #!/usr/bin/env bash\nfor f in $(ls); do echo \"$f\" >&2; done",
		"sh: #!/bin/sh\nif [[ -n $1 ]]; then\n\techo $1 >&2\nfi",
		"sh: cd $HOOKCTL_WORKSPACE && true",
	}
	if !slices.Equal(texts, want) {
		t.Fatalf("%d runs checked\n%q\nwant\n%q", len(runs), texts, want)
	}
	// Lint again: the answers are remembered, nothing runs.
	shellcheckFindings(t, bin, tgt)
	if again := readShellcheckLog(t, log); len(again) != len(runs) {
		t.Errorf("shellcheck ran again for the same texts")
	}
}

// TestShellcheckMapping: ShellCheck's lines and columns land in the script
// (named from where the hooks.json's name starts) or at the column inside
// the command's JSON string, with the code, its link and the severity;
// what it says reaches no terminal raw.
func TestShellcheckMapping(t *testing.T) {
	bin, _ := fakeShellcheck(t, `case "$in" in
*'$(ls)'*) echo '{"file":"-","line":2,"endLine":2,"column":10,"endColumn":15,"level":"error","code":2045,"message":"Iterating over ls output is fragile. Use globs."}' ;;
*'[['*) echo '{"file":"-","line":3,"endLine":3,"column":7,"endColumn":9,"level":"style","code":2086,"message":"Double \u001b[31mquote\u001b[0m."}' ;;
*HOOKCTL*) echo '{"file":"-","line":1,"endLine":1,"column":4,"endColumn":22,"level":"info","code":2086,"message":"Double quote to prevent globbing and word splitting."}' ;;
esac`)
	fs := shellcheckFindings(t, bin, shellcheckWorkspace(t))
	got := formatFindings(fs)
	want := `.agents/hooks.json:5:91: info: SC2086: Double quote to prevent globbing and word splitting (https://www.shellcheck.net/wiki/SC2086) [shellcheck]
.agents/hooks.json:7:63: info: SC2086: Double quote to prevent globbing and word splitting (https://www.shellcheck.net/wiki/SC2086) [shellcheck]
.agents/hooks.json:8:39: info: SC2086: Double quote to prevent globbing and word splitting (https://www.shellcheck.net/wiki/SC2086) [shellcheck]
.agents/hooks/check.sh:3:7: info: SC2086: Double \x1b[31mquote\x1b[0m (https://www.shellcheck.net/wiki/SC2086) [shellcheck]
.agents/hooks/tidy:2:10: warning: SC2045: Iterating over ls output is fragile. Use globs (https://www.shellcheck.net/wiki/SC2045) [shellcheck]
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, f := range fs {
		if f.File == ".agents/hooks.json" && f.Span.End.Col-f.Span.Start.Col != 18 {
			t.Errorf("%s: the span is %d characters, want 18 ($HOOKCTL_WORKSPACE)", f, f.Span.End.Col-f.Span.Start.Col)
		}
		if f.File == ".agents/hooks/tidy" && (f.Span.Start.Offset != 29 || f.Span.End.Offset != 34) {
			t.Errorf("%s: offsets %d-%d, want 29-34 ($(ls))", f, f.Span.Start.Offset, f.Span.End.Offset)
		}
	}
}

// TestShellcheckReal runs the real ShellCheck, when it is installed.
func TestShellcheckReal(t *testing.T) {
	bin := testenv.Need(t, "shellcheck")
	fs := shellcheckFindings(t, bin, shellcheckWorkspace(t))
	var got []string
	for _, f := range fs {
		code, _, _ := strings.Cut(f.Message, ":")
		got = append(got, f.File+":"+strconv.Itoa(f.Span.Start.Line)+":"+strconv.Itoa(f.Span.Start.Col)+" "+f.Severity.String()+" "+code)
		if !strings.Contains(f.Message, "(https://www.shellcheck.net/wiki/"+code+")") {
			t.Errorf("no link: %s", f.Message)
		}
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		".agents/hooks/check.sh:2:4 warning SC3010", // [[ ]] in sh
		".agents/hooks/check.sh:3:7 info SC2086",    // echo $1
		".agents/hooks/tidy:2:10 warning SC2045",    // for f in $(ls)
		".agents/hooks.json:5:91 info SC2086",       // cd $HOOKCTL_WORKSPACE, at its column
		".agents/hooks.json:7:63 info SC2086",       // the same command, in another handler
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %s in:\n%s", want, joined)
		}
	}
}

// TestShellcheckSkipped: without ShellCheck, one info for the whole run,
// and only when asked for.
func TestShellcheckSkipped(t *testing.T) {
	a, b := shellcheckWorkspace(t), shellcheckWorkspace(t)
	b.Name = "other/.agents/hooks.json"
	for _, ask := range []bool{false, true} {
		res, err := Lint(Request{Files: []Target{a, b}, ReportSkipped: ask})
		if err != nil {
			t.Fatal(err)
		}
		var notes []Finding
		for _, f := range res.Findings {
			if f.Rule == "shellcheck" {
				notes = append(notes, f)
			}
		}
		want := 0
		if ask {
			want = 1
		}
		if len(notes) != want || ask && (notes[0].Severity != Info || !strings.Contains(notes[0].Message, "shellcheck is not on PATH")) {
			t.Errorf("ReportSkipped=%v: %s", ask, formatFindings(notes))
		}
	}
}

// TestShellcheckHostile: a shellcheck that hangs is stopped at the
// timeout, one that floods its output is cut off, one that fails says
// why (escaped); each once for each text the run was to check.
func TestShellcheckHostile(t *testing.T) {
	t.Parallel()
	defer func(d time.Duration) { shellcheckTimeout = d }(shellcheckTimeout)
	for body, want := range map[string]string{
		"exec sleep 30": "did not finish within 300ms",
		"yes '{\"comments\":[' | head -c 9000000": "printed more than 8 MiB",
		"echo not json": "its output is not the JSON of --format=json1",
		"printf 'Unknown shell: \\033[2Jzsh\\n' >&2; exit 4": `shellcheck failed (exit status 4): "Unknown shell: \x1b[2Jzsh"`,
	} {
		shellcheckTimeout = 20 * time.Second
		if strings.HasPrefix(body, "exec sleep") {
			shellcheckTimeout = 300 * time.Millisecond
		}
		bin := fakeShellcheckRaw(t, body)
		fs := shellcheckFindings(t, bin, shellcheckWorkspace(t))
		if len(fs) != 3 {
			t.Errorf("%s: %d findings, want one per text:\n%s", body, len(fs), formatFindings(fs))
			continue
		}
		for _, f := range fs {
			if f.Severity != Info || !strings.Contains(f.Message, want) {
				t.Errorf("%s: %s", body, f)
			}
		}
	}
}

// TestShellcheckManyCommands: 300 different inline commands (some in two
// handlers), a sh and a bash script, checked by the real ShellCheck
// through a HOOKCTL_SHELLCHECK wrapper that counts its runs: a few runs,
// not one per text, and every finding at its column in hooks.json or its
// line in the script, the script's dialect its own, the workspace's
// .shellcheckrc applied.
func TestShellcheckManyCommands(t *testing.T) {
	real := testenv.Need(t, "shellcheck")
	ws := t.TempDir()
	files := map[string]string{
		".shellcheckrc":          "disable=SC2034\n",
		".agents/hooks/check.sh": "#!/bin/sh\n[[ -n $1 ]] && exit 2\n",
		".agents/hooks/tidy":     "#!/usr/bin/env bash\n[[ -n $1 ]] && exit 2\n",
	}
	for name, body := range files {
		writeImpactFile(t, filepath.Join(ws, name), body, 0o755)
	}
	const n = 300
	var src strings.Builder
	var want []string
	src.WriteString("{\n  \"gate\": {\n    \"Stop\": [\n      {\"command\": \"./hooks/check.sh\"}, {\"command\": \"./hooks/tidy\"},\n")
	line := 4
	for i := range n {
		// x=1 is SC2034, which .shellcheckrc disables; echo $... is SC2086.
		cmd := "x=1; test -n " + strings.Repeat("y", i%37) + strconv.Itoa(i) + " && echo $HOOKCTL_WORKSPACE"
		uses := 1
		if i%10 == 0 {
			uses = 2
		}
		for range uses {
			line++
			prefix := `      {"command": "`
			src.WriteString(prefix + cmd + "\"},\n")
			col := len(prefix) + strings.Index(cmd, "$") + 1
			want = append(want, ".agents/hooks.json:"+strconv.Itoa(line)+":"+strconv.Itoa(col)+" info SC2086")
		}
	}
	src.WriteString("      {\"command\": \"true\"}\n    ]\n  }\n}\n")
	want = append(want, ".agents/hooks/check.sh:2:1 warning SC3010") // [[ ]] in sh, not in bash
	path := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	count := filepath.Join(t.TempDir(), "runs")
	wrapper := fakeShellcheckRaw(t, "echo run >> '"+count+"'\nexec '"+real+"' \"$@\"")
	t.Setenv("HOOKCTL_SHELLCHECK", wrapper)
	bin := FindShellCheck()
	if bin != wrapper {
		t.Fatalf("FindShellCheck() = %q, want HOOKCTL_SHELLCHECK's %q", bin, wrapper)
	}
	fs := shellcheckFindings(t, bin, Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws})
	var got []string
	for _, f := range fs {
		code, _, _ := strings.Cut(f.Message, ":")
		got = append(got, f.File+":"+strconv.Itoa(f.Span.Start.Line)+":"+strconv.Itoa(f.Span.Start.Col)+" "+f.Severity.String()+" "+code)
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%d findings, want %d:\n%s", len(got), len(want), formatFindings(fs))
	}
	b, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	// One batch per processor and dialect at most, more only for batches
	// longer than scBatchFiles.
	runs := strings.Count(string(b), "run\n")
	if limit := max(runtime.NumCPU(), (n+2)/scBatchFiles+1) + 2; runs > limit || runs >= n {
		t.Errorf("%d runs of shellcheck for %d texts, want at most %d", runs, n+2, limit)
	}
}

// TestShellcheckRelativeProgram: a shellcheck named by a path relative to
// the current folder runs, though the runs start in a temporary folder.
func TestShellcheckRelativeProgram(t *testing.T) {
	bin, log := fakeShellcheck(t, `true`)
	t.Chdir(filepath.Dir(bin))
	t.Setenv("HOOKCTL_SHELLCHECK", "./shellcheck")
	rel := FindShellCheck()
	if rel != "shellcheck" && rel != "./shellcheck" {
		t.Fatalf("FindShellCheck() = %q, want the relative ./shellcheck", rel)
	}
	if fs := shellcheckFindings(t, rel, shellcheckWorkspace(t)); len(fs) > 0 {
		t.Fatalf("findings: %s", formatFindings(fs))
	}
	if runs := readShellcheckLog(t, log); len(runs) == 0 {
		t.Errorf("./shellcheck did not run")
	}
}

// TestShellcheckIgnoresTheTemporaryFoldersRC: the texts are checked in a
// folder under the shared temporary folder, where anyone may write a
// .shellcheckrc; ShellCheck must never read one there. The user's own is
// still followed when the workspace has none.
func TestShellcheckIgnoresTheTemporaryFoldersRC(t *testing.T) {
	real := testenv.Need(t, "shellcheck")
	wsParent := t.TempDir()
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, ".shellcheckrc"), []byte("disable=SC2086\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	lintIt := func() []string {
		forgetShellcheck()
		ws, err := os.MkdirTemp(wsParent, "ws")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(ws, ".agents", "hooks.json")
		writeImpactFile(t, path, `{"gate": {"Stop": [{"command": "x=1; echo $HOOKCTL_WORKSPACE"}]}}`, 0o644)
		res, err := Lint(Request{Files: []Target{{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}}, ShellCheck: real})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, f := range res.Findings {
			if f.Rule == "shellcheck" {
				code, _, _ := strings.Cut(f.Message, ":")
				codes = append(codes, code)
			}
		}
		sort.Strings(codes)
		return codes
	}
	if got := strings.Join(lintIt(), " "); got != "SC2034 SC2086" {
		t.Errorf("with a .shellcheckrc in the temporary folder: %s, want SC2034 SC2086", got)
	}
	if err := os.WriteFile(filepath.Join(home, ".shellcheckrc"), []byte("disable=SC2034\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lintIt(), " "); got != "SC2086" {
		t.Errorf("with the user's ~/.shellcheckrc disabling SC2034: %s, want SC2086", got)
	}
}
