package lint

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// assignments is a small script on which ShellCheck 0.9.0 takes hundreds
// of megabytes (3 KB: 402 MB and 9 s), each line assigning a variable
// from another never set.
func assignments(n int) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for i := range n {
		b.WriteString("a" + strconv.Itoa(i) + "=$b" + strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// memWorkspace writes a workspace whose hooks run the scripts files
// names, each from a handler of its own, and returns it.
func memWorkspace(t *testing.T, files map[string]string) Target {
	t.Helper()
	ws := t.TempDir()
	var names []string
	for name, body := range files {
		writeImpactFile(t, filepath.Join(ws, name), body, 0o755)
		if rel, ok := strings.CutPrefix(name, ".agents/"); ok {
			names = append(names, rel)
		}
	}
	slices.Sort(names)
	var hs []string
	for _, n := range names {
		hs = append(hs, `{"command": "./`+n+`"}`)
	}
	path := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.WriteFile(path, []byte(`{"h": {"Stop": [`+strings.Join(hs, ", ")+`]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}
}

func scSummary(fs []Finding) []string {
	var got []string
	for _, f := range fs {
		msg, _, _ := strings.Cut(f.Message, ":")
		if strings.HasPrefix(f.Message, "ShellCheck could not check") {
			msg = f.Message
		}
		got = append(got, f.File+":"+strconv.Itoa(f.Span.Start.Line)+" "+f.Severity.String()+" "+msg)
	}
	slices.Sort(got)
	return got
}

// TestShellcheckMemory: a script on which ShellCheck takes more memory
// than its bound (160 MB and four times the bytes read) is stopped and
// named, with the bound; the script checked in the same run is checked
// again on its own and keeps its finding.
func TestShellcheckMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ShellCheck's memory is bounded on Linux")
	}
	bin := testenv.Need(t, "shellcheck")
	t.Setenv(scMemoryEnv, "")
	tgt := memWorkspace(t, map[string]string{
		".agents/hooks/a.sh":    "#!/bin/sh\necho $1\n",
		".agents/hooks/vars.sh": assignments(300),
	})
	got := scSummary(shellcheckFindings(t, bin, tgt))
	info, err := os.Stat(tgt.Path)
	if err != nil {
		t.Fatal(err)
	}
	read := info.Size() + int64(len("#!/bin/sh\necho $1\n")+len(assignments(300)))
	want := []string{
		".agents/hooks.json:1 info ShellCheck could not check .agents/hooks/vars.sh: it needs more than " + strconv.FormatInt(scMemory(read)/1_000_000, 10) + " MB, the most hookctl lets one ShellCheck take (160 MB and four times the bytes lint read; HOOKCTL_SHELLCHECK_MEMORY=MB raises it), so it was not checked: run shellcheck on it yourself if you trust it",
		".agents/hooks/a.sh:2 info SC2086",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestShellcheckOrdinaryScripts: scripts as large and as busy as hook
// scripts are, on which ShellCheck takes more than lint's own goal of
// 30 MB (100 variables set and used: 39 MB), are still checked.
func TestShellcheckOrdinaryScripts(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ShellCheck's memory is bounded on Linux")
	}
	bin := testenv.Need(t, "shellcheck")
	t.Setenv(scMemoryEnv, "")
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for i := range 100 {
		b.WriteString("a" + strconv.Itoa(i) + "=x; echo \"$a" + strconv.Itoa(i) + "\"\n")
	}
	b.WriteString("echo $1\n")
	tgt := memWorkspace(t, map[string]string{".agents/hooks/busy.sh": b.String()})
	got := scSummary(shellcheckFindings(t, bin, tgt))
	want := []string{".agents/hooks/busy.sh:102 info SC2086"}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestShellcheckRCNoSources: a workspace's .shellcheckrc that turns on
// external sources, with a script that sources /dev/zero, no longer sends
// ShellCheck reading it (past 3 GB): those settings are not copied, the
// others are.
func TestShellcheckRCNoSources(t *testing.T) {
	bin := testenv.Need(t, "shellcheck")
	tgt := memWorkspace(t, map[string]string{
		".shellcheckrc":        "# the workspace's\ndisable=SC2086 external-sources=true\nsource-path=/dev\n",
		".agents/hooks/z.sh":   "#!/bin/sh\n# shellcheck source=/dev/zero\n. ./lib.sh\n. /dev/zero\necho $1\nx=1\n",
		".agents/hooks/lib.sh": "#!/bin/sh\n",
	})
	got := scSummary(shellcheckFindings(t, bin, tgt))
	want := []string{".agents/hooks/z.sh:6 warning SC2034"}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestScSafeRC: only which checks run, the dialect and the extra analysis
// are copied from a .shellcheckrc, however the settings are laid out.
func TestScSafeRC(t *testing.T) {
	src := "disable=SC2086 external-sources=true # external-sources=true\n\tsource-path=SCRIPTDIR enable=all\nshell=bash\nextended-analysis=false\nsource=/dev/zero\nEXTERNAL-SOURCES=true\n"
	want := "disable=SC2086\nenable=all\nshell=bash\nextended-analysis=false\n"
	if got := string(scSafeRC([]byte(src))); got != want {
		t.Errorf("scSafeRC = %q, want %q", got, want)
	}
}

// TestShellcheckNesting: a text nested deeper than scMaxNesting is not
// handed to ShellCheck (100 levels of $( ) cost it 35 MB and 0.9 s, 1,000
// of subshells 210 MB and 12 s) and is named; one as deep as people write
// is checked.
func TestShellcheckNesting(t *testing.T) {
	bin, log := fakeShellcheck(t, "")
	deep := "echo " + strings.Repeat("$(", scMaxNesting+1) + "x" + strings.Repeat(")", scMaxNesting+1)
	tgt := memWorkspace(t, map[string]string{
		".agents/hooks/deep.sh": "#!/bin/sh\n" + strings.Repeat("if a; then\n", scMaxNesting+1) + "x\n" + strings.Repeat("fi\n", scMaxNesting+1),
		".agents/hooks/ok.sh":   "#!/bin/sh\n" + strings.Repeat("if a; then\n", 10) + "echo '((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((('\n" + strings.Repeat("fi\n", 10),
	})
	src, err := os.ReadFile(tgt.Path)
	if err != nil {
		t.Fatal(err)
	}
	src = []byte(strings.Replace(string(src), `]}}`, `, {"command": "`+deep+`"}]}}`, 1))
	if err := os.WriteFile(tgt.Path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	got := scSummary(shellcheckFindings(t, bin, tgt))
	why := "it nests more than 50 levels (subshells, blocks, substitutions, if, case, loops), where ShellCheck takes seconds and hundreds of megabytes, so it was not checked"
	want := []string{
		".agents/hooks.json:1 info ShellCheck could not check .agents/hooks/deep.sh: " + why,
		".agents/hooks.json:1 info ShellCheck could not check the command: " + why,
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var texts []string
	for _, r := range readShellcheckLog(t, log) {
		texts = append(texts, r.texts...)
	}
	if len(texts) != 1 || !strings.Contains(texts[0], "(((((") {
		t.Errorf("ShellCheck was handed %d texts, want ok.sh alone", len(texts))
	}
}

// TestScNesting: brackets and compound commands where a command starts
// count, comments, single quotes and keywords used as words do not.
func TestScNesting(t *testing.T) {
	for src, want := range map[string]int{
		"echo $(a $(b))":                       2,
		"if a; then while b; do c; done; fi":   2,
		"echo if for case while; echo done fi": 0,
		"# ((((((\necho '(((((' x":             0,
		"{ ( [ x ] ) }":                        3,
		"a() { if x; then (y); fi; }":          3,
	} {
		if got := scNesting([]byte(src)); got != want {
			t.Errorf("scNesting(%q) = %d, want %d", src, got, want)
		}
	}
}
