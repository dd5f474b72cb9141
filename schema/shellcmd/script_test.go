package shellcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/internal/testenv"
)

func TestDirname(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"x", "."},
		{"x/", "."},
		{"/x", "/"},
		{"/", "/"},
		{"///", "/"},
		{"a//b", "a"},
		{"a/b//", "a"},
		{"a//b//", "a"},
		{"./hooks/gate.sh", "./hooks"},
		{"hooks/gate.sh", "hooks"},
		{"/w/.agents/hooks/gate.sh", "/w/.agents/hooks"},
		{"/w//x", "/w"},
		{"///x//", "/"},
		{"../x", ".."},
		{".", "."},
		{"..", "."},
	} {
		got, ok := dirnameOf(val{s: tc.in})
		if !ok || got.s != tc.want {
			t.Errorf("dirname %q = %q, %v; want %q", tc.in, got.s, ok, tc.want)
		}
		if out, err := exec.Command("dirname", "--", tc.in).Output(); err == nil && strings.TrimSuffix(string(out), "\n") != tc.want {
			t.Errorf("dirname %q: the system's dirname says %q, the table %q", tc.in, out, tc.want)
		}
	}
	// POSIX leaves //x's folder to the system; the empty path is "." to
	// some and an error to others.
	for _, in := range []string{"//x", "//", ""} {
		if got, ok := dirnameOf(val{s: in}); ok {
			t.Errorf("dirname %q = %q, want unknown", in, got.s)
		}
	}
	// A folder the shell spells its own way: the part after it may be
	// cut, never the folder itself.
	for _, tc := range []struct {
		in     val
		want   string
		anchor int
	}{
		{val{"/w/h/lib.sh", 4}, "/w/h", 4},
		{val{"/w/h/x//y//", 4}, "/w/h/x", 4},
		{val{"/w/h/x", 4}, "/w/h", 4},
	} {
		got, ok := dirnameOf(tc.in)
		if !ok || got.s != tc.want || got.anchor != tc.anchor {
			t.Errorf("dirname %v = %v, %v; want %q@%d", tc.in, got, ok, tc.want, tc.anchor)
		}
	}
	for _, in := range []val{{"/w/h", 4}, {"/w/h//", 4}} {
		if got, ok := dirnameOf(in); ok {
			t.Errorf("dirname %v = %v, want unknown", in, got)
		}
	}
}

func TestCutSuffix(t *testing.T) {
	vars := map[string]val{"0": {s: "./hooks/gate.sh"}, "N": {s: "gate.sh"}, "R": {s: "/x"}, "D": {s: "/w/h", anchor: 4}, "E": {s: "/w/h/a/b", anchor: 4}}
	for _, tc := range []struct{ word, want string }{
		{`"${0%/*}"`, "./hooks"},
		{`"${N%/*}"`, "gate.sh"}, // no slash: unchanged
		{`"${R%/*}"`, ""},        // empty, as the shell makes it
		{`"${E%/*}/x"`, "/w/h/a/x"},
		{`"${D%/*}"`, "?"},
		{`"${0%/}"`, "?"},
		{`"${0%%/*}"`, "?"},
		{`"${0#/*}"`, "?"},
	} {
		f, err := parse("x " + tc.word)
		if err != nil {
			t.Fatal(err)
		}
		w := &walker{c: &Command{}}
		st := &state{sc: &scope{vals: vars}}
		got, ok := w.eval(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1], st, false, 0)
		if !ok {
			got.s = "?"
		}
		if got.s != tc.want {
			t.Errorf("%s = %q, want %q", tc.word, got.s, tc.want)
		}
	}
}

// shellTree makes a workspace whose lib.sh files each print where they
// are, and returns its folder, links resolved.
func shellTree(t *testing.T) string {
	t.Helper()
	w, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".agents/hooks/sub", ".agents/other", "my dir/hooks"} {
		if err := os.MkdirAll(filepath.Join(w, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"lib.sh", ".agents/lib.sh", ".agents/hooks/lib.sh", ".agents/hooks/sub/lib.sh", ".agents/other/lib.sh", "my dir/hooks/lib.sh"} {
		write(t, filepath.Join(w, f), "echo \"MARK:"+f+"\"\n")
	}
	// quiet.sh is sourced before the line under test; evil.sh reassigns
	// what the script computed.
	write(t, filepath.Join(w, ".agents/hooks/quiet.sh"), ":\n")
	write(t, filepath.Join(w, ".agents/hooks/evil.sh"), "D=/; dirname() { echo /; }\n")
	write(t, filepath.Join(w, ".agents/hooks/assigns.sh"), "if true; then D=/; fi\n")
	for link, target := range map[string]string{
		".agents/linked.sh":     "hooks/gate.sh", // a script reached by a link: $0 is the link
		".agents/hooks/sublink": "../other",      // a folder link, for cd -L and -P
		"my dir/hooks/gate.sh":  "../../.agents/hooks/gate.sh",
	} {
		if err := os.Symlink(target, filepath.Join(w, link)); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
}

// lastSourced returns the file the last . of a script sources, as
// ParseScript reads it, "" for a gap.
func lastSourced(c *Command) string {
	var last *Call
	for _, call := range c.Calls {
		if call.Args[0].Lit && (call.Args[0].Text == "." || call.Args[0].Text == "source") {
			last = call
		}
	}
	if last == nil || len(last.Args) < 2 || !last.Args[1].Lit || last.Dir == "" && !strings.HasPrefix(last.Args[1].Text, "/") {
		return ""
	}
	return Resolve(join(last.Dir, last.Args[1].Text))
}

// TestScriptFolderAsTheShellsComputeIt runs each script with dash and
// bash, started the ways a command starts one, and checks that the file
// ParseScript says its last line sources is the file the shell sourced,
// or that ParseScript leaves it unknown where it must. -short runs each
// script under one of the starts, in turn.
func TestScriptFolderAsTheShellsComputeIt(t *testing.T) {
	for _, sh := range []string{"sh", "bash"} {
		testenv.Need(t, sh)
	}
	w := shellTree(t)
	agents := filepath.Join(w, ".agents")
	// How the script is started: the command, run by /bin/sh -c in
	// .agents, and its #! line.
	type start struct{ command, shebang string }
	starts := map[string]start{
		"prog-sh":   {"./hooks/gate.sh", "#!/bin/sh"},
		"prog-bash": {"./hooks/gate.sh", "#!/usr/bin/env bash"},
		"sh":        {"sh hooks/gate.sh", ""},
		"bash":      {"bash hooks/gate.sh", ""},
		"abs":       {"bash " + agents + "/hooks/gate.sh", ""},
		"env":       {"env X=1 timeout 5 ./hooks/gate.sh", "#!/bin/sh"},
		"link":      {"./linked.sh", "#!/bin/bash"},
		"cd":        {"cd hooks && sh ./gate.sh", ""},
		"spaces":    {`"../my dir/hooks/gate.sh"`, "#!/bin/bash"},
	}
	all := []string{"prog-sh", "prog-bash", "sh", "bash", "abs", "env", "link", "cd", "spaces"}
	bashOnly := []string{"prog-bash", "bash", "abs", "link", "spaces"}
	// cd ../x takes .. off the shell's own spelling of its folder.
	notUp := []string{"prog-sh", "prog-bash", "sh", "bash", "abs", "env", "link", "cd"}
	for k, tc := range []struct {
		name, script string
		// resolves are the starts under which the line is known; under
		// the others it must stay a gap.
		resolves []string
	}{
		{"dirname", `. "$(dirname "$0")/lib.sh"`, all},
		{"dirname unquoted", `. $(dirname $0)/lib.sh`, []string{"prog-sh", "prog-bash", "sh", "bash", "abs", "env", "link", "cd"}},
		{"dirname --", `. "$(dirname -- "$0")/sub/lib.sh"`, all},
		{"backquotes", "D=`dirname \"$0\"`; . \"$D/lib.sh\"", all},
		{"cut suffix", `. "${0%/*}/lib.sh"`, all},
		{"cd && pwd", `DIR="$(cd "$(dirname "$0")" && pwd)"` + "\n" + `. "$DIR/lib.sh"`, notUp},
		{"cd; pwd", `DIR=$(cd "$(dirname "$0")"; pwd)` + "\n" + `. "$DIR/lib.sh"`, notUp},
		{"cd -P && pwd -P", `DIR="$(cd -P -- "$(dirname "$0")" && pwd -P)"; . "$DIR/sub/lib.sh"`, all},
		{"cd -P up", `DIR="$(cd -P -- "$(dirname "$0")/.." && pwd -P)"; . "$DIR/lib.sh"`, all},
		{"cd .. -L", `ROOT="$(cd "$(dirname "$0")/sublink/.." && pwd)"; . "$ROOT/lib.sh"`, nil},
		{"cd .. -P", `ROOT="$(cd -P "$(dirname "$0")/sublink/.." && pwd)"; . "$ROOT/lib.sh"`, all},
		{"cd .. plain", `ROOT="$(cd "$(dirname "$0")/sub/.." && pwd)"; . "$ROOT/lib.sh"`, []string{"prog-sh", "prog-bash", "sh", "bash", "abs", "env", "cd"}},
		{"cd up out of pwd", `ROOT="$(cd "$(dirname "$0")" && cd .. && pwd)"; . "$ROOT/lib.sh"`, nil},
		{"dirname of pwd", `D="$(cd "$(dirname "$0")" && pwd)"; . "$(dirname "$D")/lib.sh"`, nil},
		{"export", `SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"; export SCRIPT_DIR` + "\n" + `. "$SCRIPT_DIR/lib.sh"`, notUp},
		{"source", `SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"; source "$SCRIPT_DIR/lib.sh"`, notUp},
		{"export assign", `export D="$(dirname "$0")"; readonly E="$D/sub"; . "$E/lib.sh"`, all},
		{"bash source", `. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"`, bashOnly},
		{"bash source short", `. "$(dirname "$BASH_SOURCE")/lib.sh"`, bashOnly},
		{"top-level cd", `cd "$(dirname "$0")/sub"; . ./lib.sh`, []string{"prog-sh", "prog-bash", "sh", "bash", "abs", "env", "cd"}},
		// What must stay unknown: a reassignment the straight line does
		// not show, or one a sourced file may make.
		{"if", `D="$(dirname "$0")"; if true; then D=/; fi; . "$D/lib.sh"`, nil},
		{"or", `D="$(dirname "$0")"; true || D=/; . "$D/lib.sh"`, nil},
		{"loop", `D="$(dirname "$0")"; for i in 1 2; do . "$D/lib.sh"; D=/; done`, nil},
		{"function", `f() { D=/; }; D="$(dirname "$0")"; f; . "$D/lib.sh"`, nil},
		{"function dirname", `dirname() { echo /; }; . "$(dirname "$0")/lib.sh"`, nil},
		{"sourced between", `D="$(dirname "$0")"; . "$D/evil.sh"; . "$D/lib.sh"`, nil},
		{"sourced quiet", `D="$(dirname "$0")"; . "$D/quiet.sh"; . "$D/lib.sh"`, []string{"prog-sh", "prog-bash", "sh", "bash", "abs", "env", "cd"}},
		{"sourced quiet by name", `cd "$(dirname "$0")"; D="$(pwd)"; . quiet.sh; . "$D/lib.sh"`, nil},
		{"sourced assigns", `D="$(dirname "$0")"; . "$D/assigns.sh"; . "$D/lib.sh"`, nil},
		{"readonly in if", `if true; then readonly D=/; fi; D="$(dirname "$0")" 2>/dev/null; . "$D/lib.sh"`, nil},
		{"sourced redefines dirname", `. "$(dirname "$0")/evil.sh"; . "$(dirname "$0")/lib.sh"`, nil},
		{"eval", `D="$(dirname "$0")"; eval 'D=/'; . "$D/lib.sh"`, nil},
		{"read", `D="$(dirname "$0")"; read D </dev/null; . "$D/lib.sh"`, nil},
		{"for", `D="$(dirname "$0")"; for D in /; do :; done; . "$D/lib.sh"`, nil},
		{"unset", `D="$(dirname "$0")"; unset D; . "$D/lib.sh"`, nil},
		{"append", `D="$(dirname "$0")"; D+=/sub; . "$D/lib.sh"`, nil},
		{"subshell", `D=/; (D="$(dirname "$0")"); . "$D/lib.sh"`, nil},
		{"default assign", `D="$(dirname "$0")"; : "${D:=/}"; unset D; : "${D:=/}"; . "$D/lib.sh"`, nil},
		{"arithmetic", `D="$(dirname "$0")"; : $((D=1)); . "$D/lib.sh"`, nil},
		{"prefix", `D="$(dirname "$0")"; D=/ true; . "$D/lib.sh"`, nil},
		{"argv0", `BASH_ARGV0=/x; . "$(dirname "$0")/lib.sh"`, nil},
		{"trap", `trap 'D=/' DEBUG; D="$(dirname "$0")"; . "$D/lib.sh"`, nil},
		{"background", `D="$(dirname "$0")" & wait; . "$D/lib.sh"`, nil},
		{"readonly reassigned", `readonly D="$(dirname "$0")"; D=/ 2>/dev/null; . "$D/lib.sh"`, nil},
		{"pwd", `cd "$(dirname "$0")"; D="$(pwd)"; . "$D/lib.sh"`, notUp},
		{"lengthened", `D="$(cd "$(dirname "$0")" && pwd)"; . "$D""-x/../lib.sh"`, nil},
		{"PATH", `PATH=/nonexistent:$PATH; . "$(dirname "$0")/lib.sh"`, nil},
		{"hash", `hash -p /bin/echo dirname 2>/dev/null; . "$(dirname "$0")/lib.sh"`, nil},
		{"set -P", `set -P; D="$(cd "$(dirname "$0")/sublink/.." && pwd)"; . "$D/lib.sh"`, nil},
	} {
		for i, name := range all {
			// -short runs each line under one start, taking the starts in
			// turn.
			if testing.Short() && i != k%len(all) {
				continue
			}
			s := starts[name]
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				body := s.shebang + "\n" + tc.script + "\n"
				write(t, filepath.Join(agents, "hooks/gate.sh"), body)
				cmd := exec.Command("/bin/sh", "-c", s.command)
				cmd.Dir = agents
				cmd.Stdin = nil
				out, _ := cmd.CombinedOutput()
				ran := ""
				for _, l := range strings.Split(string(out), "\n") {
					if m, ok := strings.CutPrefix(l, "MARK:"); ok {
						ran = filepath.Join(w, m)
					}
				}
				refs, _ := Parse(s.command, agents, w).Refs()
				if len(refs) == 0 {
					t.Fatalf("no script in %q", s.command)
				}
				main := refs[len(refs)-1]
				start := main.StartOf(Start{}, strings.Contains(s.shebang, "bash"))
				got := lastSourced(ParseScript(body, main.Call.Dir, w, start, readSourced))
				want := false
				for _, r := range tc.resolves {
					want = want || r == name
				}
				_, err := os.Stat(got)
				switch {
				case got != "" && got != ran && (ran != "" || err == nil) && !strings.Contains(string(out), "source: not found"):
					// dash has no source: covering the file costs nothing.
					t.Errorf("read as sourcing %s, but the shell sourced %q (%s); started as %v\n%s", got, ran, out, start, body)
				case want && got == "" && ran != "":
					t.Errorf("left unknown, the shell sourced %q; started as %v\n%s", ran, start, body)
				case !want && got != "":
					t.Errorf("read as %s (which the shell sourced this time), but it must stay unknown\n%s", got, body)
				}
			})
		}
	}
}

// $HOOKCTL_WORKSPACE is the workspace as the runner spells it: a path may
// begin with it, but no text is cut from it.
func TestWorkspaceSpelling(t *testing.T) {
	for _, tc := range []struct{ command, script, want string }{
		{`"$HOOKCTL_WORKSPACE/gate.sh"`, `. "$(dirname "$0")/lib.sh"`, "/w/lib.sh"},
		{`sh "$HOOKCTL_WORKSPACE"/s/gate.sh`, `. "$(dirname "$(dirname "$0")")/lib.sh"`, "/w/lib.sh"},
		{`sh "$HOOKCTL_WORKSPACE/gate.sh"`, `. "$(dirname "$(dirname "$0")")/lib.sh"`, ""},
		{`sh "$HOOKCTL_WORKSPACE/gate.sh"`, `. "${0%/*}/lib.sh"`, "/w/lib.sh"},
		{`sh "$HOOKCTL_WORKSPACE/gate.sh"`, `. "${HOOKCTL_WORKSPACE%/*}/lib.sh"`, ""},
		{`sh "$HOOKCTL_WORKSPACE"x/gate.sh`, `. "$(dirname "$0")/lib.sh"`, ""},
		{`sh "$HOOKCTL_WORKSPACE/gate.sh"`, `. $HOOKCTL_WORKSPACE/lib.sh`, ""},
		{`sh "$HOOKCTL_WORKSPACE/gate.sh"`, `. "$HOOKCTL_WORKSPACE/lib.sh"`, "/w/lib.sh"},
		{`sh -es "$HOOKCTL_WORKSPACE/gate.sh"`, `. "$(dirname "$0")/lib.sh"`, ""},
		{`sh -e "$HOOKCTL_WORKSPACE/gate.sh"`, `. "$(dirname "$0")/lib.sh"`, "/w/lib.sh"},
		{`sudo sh "$HOOKCTL_WORKSPACE/gate.sh"`, `. "$(dirname "$0")/lib.sh"`, ""},
		{`sh < "$HOOKCTL_WORKSPACE/gate.sh"`, `. "$(dirname "$0")/lib.sh"`, ""},
	} {
		refs, _ := Parse(tc.command, "/w/.agents", "/w").Refs()
		if len(refs) != 1 {
			t.Fatalf("%s: refs %v", tc.command, refs)
		}
		c := ParseScript(tc.script+"\n", "/w/.agents", "/w", refs[0].StartOf(Start{}, false), nil)
		got := ""
		for _, call := range c.Calls {
			if call.Args[0].Text == "." && call.Args[1].Lit {
				got = call.Args[1].Text
			}
		}
		if got != tc.want {
			t.Errorf("%s, then %s: sources %q, want %q", tc.command, tc.script, got, tc.want)
		}
	}
}

// readSourced is what trust gives ParseScript: the file a script
// sources, read from disk.
func readSourced(p string) (string, bool) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", false
	}
	return string(b), true
}

func TestSourcedEffects(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // the names, "!" when not known
	}{
		{"A=1\nexport B=2\n", "A B"},
		{"if x; then read C; fi\n", "C"},
		{"echo hi\n", ""},
		{"f() { :; }\n", "!"},
		{". ./other.sh\n", "!"},
		{"eval x\n", "!"},
		{"cd /tmp\n", "!"},
		{"PATH=/x\n", "!"},
		{"BASH_ARGV0=x\n", "!"},
		{"readonly D\n", "!"},
		{"declare -r D=1\n", "!"},
		{"alias x=y\n", "!"},
		{"$X\n", "!"},
		{"set -o physical\n", "!"},
		{"((\n", "!"},
	} {
		names, ok := SourcedEffects(tc.src)
		got := strings.Join(names, " ")
		if !ok {
			got = "!"
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.src, got, tc.want)
		}
	}
}

// SourcedNames gives the variables a sourced file may assign anywhere,
// its functions' bodies too (more, where a builtin's words may be names),
// and none it can tell when it runs code it does not show.
func TestSourcedNames(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // names among those given, "!" when not known
	}{
		{"A=1\nexport B=2\n", "A B"},
		{"f() { C=$(cat x); }\n", "C"},
		{"while read -r D; do :; done < x\nprintf -v E %s x\n", "D E"},
		{"$X\ncd /tmp\nPATH=/x\n", "PATH"},
		{"echo hi\n", ""},
		{". ./other.sh\n", "!"},
		{"source x\n", "!"},
		{"eval x\n", "!"},
		{"trap 'A=1' EXIT\n", "!"},
		{"read \"$n\" < x\n", "!"},
		{"((\n", "!"},
	} {
		names, ok := SourcedNames(tc.src)
		switch {
		case tc.want == "!" && ok, tc.want != "!" && !ok:
			t.Errorf("%q: %q, %v; want %q", tc.src, names, ok, tc.want)
		case tc.want == "" && len(names) > 0:
			t.Errorf("%q: %q, want none", tc.src, names)
		}
		for _, n := range strings.Fields(strings.Trim(tc.want, "!")) {
			if !slices.Contains(names, n) {
				t.Errorf("%q: %q, want %s among them", tc.src, names, n)
			}
		}
	}
}
