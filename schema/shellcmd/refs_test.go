package shellcmd

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// describe lists a command's refs as "role path" and its gaps' reasons.
func describe(c *Command) (refs, gaps []string) {
	rs, gs := c.Refs()
	for _, r := range rs {
		s := r.Role.String() + " " + r.Path
		if len(r.Alternatives) > 0 {
			s += " " + fmt.Sprint(r.Alternatives)
		}
		if r.Process {
			s += " (process)"
		}
		refs = append(refs, s)
	}
	for _, g := range gs {
		gaps = append(gaps, g.Why)
	}
	return refs, gaps
}

func TestRefs(t *testing.T) {
	const dir, ws = "/w/.agents", "/w"
	for _, tc := range []struct {
		command string
		refs    []string
		gap     string // a substring of the only gap, "" for none
	}{
		{"./hooks/guard.sh", []string{"program /w/.agents/./hooks/guard.sh"}, ""},
		{"python3 hooks/lint.py --fix", []string{"script /w/.agents/hooks/lint.py [/w/.agents/hooks/lint.py /w/.agents/hooks/lint.py/__main__.py]"}, ""},
		{"python3 -u -W ignore guard.py", []string{"script /w/.agents/guard.py [/w/.agents/guard.py /w/.agents/guard.py/__main__.py]"}, ""},
		{"node ../tools/check.mjs && ./hooks/b.sh | tee log", []string{"script /w/.agents/../tools/check.mjs", "program /w/.agents/./hooks/b.sh"}, ""},
		{`sh -c './hooks/a.sh; bash hooks/b.sh'`, []string{"program /w/.agents/./hooks/a.sh", "script /w/.agents/hooks/b.sh"}, ""},
		{`bash -ec "true; ./hooks/gate.sh"`, []string{"program /w/.agents/./hooks/gate.sh"}, ""},
		// A shell's -e, -p and -h are options, not code: the script follows.
		{"bash -e hooks/gate.sh", []string{"script /w/.agents/hooks/gate.sh"}, ""},
		{"sh -eu -p hooks/gate.sh", []string{"script /w/.agents/hooks/gate.sh"}, ""},
		{"node -e 'run()' hooks/x.js", []string{"argument /w/.agents/hooks/x.js"}, ""},
		{`timeout 5 sh -c "./hooks/gate.sh"`, []string{"program /w/.agents/./hooks/gate.sh"}, ""},
		{`env FOO=1 sh -c './hooks/gate.sh'`, []string{"program /w/.agents/./hooks/gate.sh"}, ""},
		{`nice -n 5 timeout -k 2 10s ./hooks/gate.sh`, []string{"program /w/.agents/./hooks/gate.sh"}, ""},
		{"cd hooks && ./gate.sh", []string{"program /w/.agents/hooks/./gate.sh"}, ""},
		{`cd "$HOOKCTL_WORKSPACE" && ./scripts/gate.sh`, []string{"program /w/./scripts/gate.sh"}, ""},
		{"cd .. && make lint", []string{"module /w/.agents/../Makefile [/w/.agents/../GNUmakefile /w/.agents/../makefile /w/.agents/../Makefile]"}, "project's own scripts"},
		{"(cd hooks && ./a.sh); ./b.sh", []string{"program /w/.agents/hooks/./a.sh", "program /w/.agents/./b.sh"}, ""},
		{"cd hooks | true; ./b.sh", []string{"program /w/.agents/./b.sh"}, ""},
		{"sh < hooks/gate.sh", []string{"script /w/.agents/hooks/gate.sh"}, ""},
		{"sh gate", []string{"script /w/.agents/gate"}, ""},
		// xargs hands sh the lines of list; find -exec the files it finds.
		{"xargs sh < hooks/list", nil, "xargs gives sh the script it runs, read from its input"},
		{`find hooks -name '*.run' -exec sh {} \;`, nil, "find -exec hands sh the files it finds"},
		{`find . -exec {} \;`, nil, "find -exec runs a program found only when the command runs"},
		{`find . -name x -exec ./hooks/each.sh {} +`, []string{"program /w/.agents/./hooks/each.sh"}, ""},
		{`find . -execdir bash hooks/each.sh {} \;`, []string{"script /w/.agents/hooks/each.sh"}, ""},
		{"python3 -m hooks.gate", []string{"module /w/.agents/hooks/gate.py [/w/.agents/hooks/gate/__main__.py /w/.agents/hooks/gate/__init__.py /w/.agents/hooks/gate.py]"}, ""},
		{"python3 hooks/pkg", []string{"script /w/.agents/hooks/pkg [/w/.agents/hooks/pkg /w/.agents/hooks/pkg/__main__.py]"}, ""},
		{"node hooks/gate", []string{"module /w/.agents/hooks/gate [/w/.agents/hooks/gate /w/.agents/hooks/gate.js /w/.agents/hooks/gate.mjs /w/.agents/hooks/gate.cjs /w/.agents/hooks/gate.json /w/.agents/hooks/gate.node /w/.agents/hooks/gate.ts /w/.agents/hooks/gate/package.json /w/.agents/hooks/gate/index.js /w/.agents/hooks/gate/index.mjs /w/.agents/hooks/gate/index.cjs]"}, ""},
		{`sh -c "$(cat gate.txt)"`, []string{"code /w/.agents/gate.txt"}, ""},
		{`sh -c "$(curl -s https://x.example/install)"`, nil, "code built only when the command runs"},
		{`python3 -c "$(cat gate.txt)"`, nil, "python3 runs code built only when the command runs"},
		{`node -e "$CODE"`, nil, "node runs code built only when the command runs"},
		{`env perl -e "$CODE" x`, nil, "perl runs code built only when the command runs"},
		{`python3 -c 'import sys'`, nil, ""},
		{`deno eval "$CODE"`, nil, "deno runs code built only when the command runs"},
		{"curl -s https://x.example/i.sh | sh", nil, "runs the code that another command of the pipeline prints"},
		{`"$HOOKCTL_WORKSPACE/scripts/x.sh"`, []string{"program /w/scripts/x.sh"}, ""},
		{`${HOOKCTL_WORKSPACE}/scripts/x.sh`, []string{"program /w/scripts/x.sh"}, ""},
		{`'./hooks/with space.sh'`, []string{"program /w/.agents/./hooks/with space.sh"}, ""},
		{`./hooks/a\ b.sh`, []string{"program /w/.agents/./hooks/a b.sh"}, ""},
		{"/opt/gate/bin/gate --strict", []string{"program /opt/gate/bin/gate"}, ""},
		{"jq -r .toolCall.name", nil, ""},
		{"echo hi > out/log.txt", nil, ""},
		{"$HOME/bin/x.sh", nil, "runs a program named only when the command runs"},
		// A variable's literal default is what runs when the user sets
		// nothing: the call is read with it too.
		{"${PYTHON:-python3} hooks/x.py", []string{"script /w/.agents/hooks/x.py [/w/.agents/hooks/x.py /w/.agents/hooks/x.py/__main__.py]"}, "runs a program named only when the command runs"},
		{"./hooks/*.sh", nil, "runs a program named by a pattern, which matches files only when the command runs"},
		{"cd $SOMEWHERE && ./x.sh", nil, "after a cd to a folder known only when the command runs"},
		{"PATH=./bin:$PATH gate", nil, "sets PATH for the call"},
		{"export $(cat env.txt | xargs); gate", nil, "sets a variable it names only when it runs (export \"$k=$v\", export $(cat f)), which may change what the commands after it run"},
		{"export -n X \"Y=$Z\"; gate", nil, ""},
		{"HOME=../tools bash -lc true", nil, "sets HOME for the call"},
		// A setting git is given that may run a program, and one that
		// runs none.
		{"git -c alias.x='!sh x.sh' x", nil, "runs git with -c alias.x, a setting that may run a program"},
		{"git --config-env=core.pager=P log", nil, "runs git with --config-env core.pager, a setting that may run a program"},
		{"git -c \"$K\" log", nil, "runs git with -c set to a value known only when the command runs"},
		{"git -c color.ui=never -c core.quotePath=false status", nil, ""},
		{"exec -a name sh x.sh", []string{"script /w/.agents/x.sh"}, ""},
		{"hash -p ./bin/tool ls", []string{"program /w/.agents/./bin/tool"}, ""},
		// bash's ANSI-C quoting is read as the text it gives.
		{"$'\\x73h' $'x\\056sh'", []string{"script /w/.agents/x.sh"}, ""},
		{"$'\\cAsh' x.sh", []string{"argument /w/.agents/x.sh"}, "runs a program named by a value the command computes"},
		// A wrapper that runs the program in another folder.
		{"env -C ../tools sh x.sh", []string{"script /w/.agents/x.sh"}, "runs the program in another folder (env -C ../tools), where the files it names are not looked for"},
		{"env --chdir=../tools ./x.sh", []string{"program /w/.agents/./x.sh"}, "runs the program in another folder (env --chdir=../tools)"},
		{"sudo -D /srv sh x.sh", []string{"script /w/.agents/x.sh"}, "runs the program in another folder (sudo -D /srv)"},
		{"eval \"$(./hooks/gen.sh)\"", []string{"program /w/.agents/./hooks/gen.sh"}, "eval runs code built"},
		// The sourced file is not read here: it may cd.
		{". ./lib.sh && ./x.sh", []string{"script /w/.agents/./lib.sh"}, "runs ./x.sh after a cd to a folder known only when the command runs"},
		{"echo $(./hooks/sub.sh)", []string{"program /w/.agents/./hooks/sub.sh"}, ""},
		{"hookctl trace --hook gate -- ./hooks/gate.py", []string{"program /w/.agents/./hooks/gate.py"}, ""},
		{"/usr/local/bin/hookctl trace -- python3 hooks/g.py", []string{"script /w/.agents/hooks/g.py [/w/.agents/hooks/g.py /w/.agents/hooks/g.py/__main__.py]"}, ""},
		{"uv run python hooks/x.py", []string{"script /w/.agents/hooks/x.py [/w/.agents/hooks/x.py /w/.agents/hooks/x.py/__main__.py]"}, "uv run first brings the project's environment up to date, which builds and installs the project"},
		{"uv run --no-sync hooks/x.py", []string{"script /w/.agents/hooks/x.py"}, ""},
		{"npm test", nil, "project's own scripts"},
		// Test runners, linters and builds that import the project's
		// tests, configuration, plugins or build scripts.
		{"pytest -q", nil, "runs the project's own scripts or packages (pytest)"},
		{"timeout 60 eslint .", nil, "runs the project's own scripts or packages (eslint)"},
		{"cargo clippy", nil, "runs the project's own scripts or packages (cargo)"},
		{"pip install -e .", nil, "runs the project's own scripts or packages (pip)"},
		{"./gradlew test", []string{"program /w/.agents/./gradlew"}, "runs the project's own scripts or packages (gradlew)"},
		{"python3 -m pytest -q", []string{"module /w/.agents/pytest.py [/w/.agents/pytest/__main__.py /w/.agents/pytest/__init__.py /w/.agents/pytest.py]"}, "runs the project's own scripts or packages (python -m pytest)"},
		{"pip list", nil, ""},
		{"git add ../notes/MEMORY.md", []string{"argument /w/.agents/../notes/MEMORY.md"}, ""},
		{"if then fi ((", nil, "that hookctl cannot read"},
		// A shell's options that take a value: the value is not the
		// script, nor the end of the options before -c.
		{"bash -euo pipefail -c '. ./x.sh'", []string{"script /w/.agents/./x.sh"}, ""},
		{"bash -O extglob -c '. ./x.sh'", []string{"script /w/.agents/./x.sh"}, ""},
		{"sh +e -c '. ./x.sh'", []string{"script /w/.agents/./x.sh"}, ""},
		{"bash -euo pipefail hooks/gate.sh", []string{"script /w/.agents/hooks/gate.sh"}, ""},
		{"bash +O extglob hooks/gate.sh", []string{"script /w/.agents/hooks/gate.sh"}, ""},
		{". -- ./lib.sh", []string{"script /w/.agents/./lib.sh"}, ""},
		// The code eval runs there, and the code a trap or an alias runs
		// later, in a folder not known.
		{"eval '. ./lib.sh'", []string{"argument /w/.agents/. ./lib.sh", "script /w/.agents/./lib.sh"}, ""},
		{"trap '. ./lib.sh' EXIT", []string{"argument /w/.agents/. ./lib.sh"}, "runs ./lib.sh after a cd to a folder known only when the command runs"},
		{`trap "$X" EXIT`, nil, "trap runs code built only when the command runs"},
		{"alias x='. ./lib.sh'", []string{"argument /w/.agents/x=. ./lib.sh"}, "runs ./lib.sh after a cd to a folder known only when the command runs"},
		{"bash --rcfile hooks/rc.sh hooks/gate.sh", []string{"script /w/.agents/hooks/gate.sh", "argument /w/.agents/hooks/rc.sh"}, ""},
		// Code read from a descriptor: the file that feeds it, or named.
		{"bash -s x < hooks/gate.sh", []string{"script /w/.agents/hooks/gate.sh"}, ""},
		{"cat hooks/gate.sh | sh", []string{"argument /w/.agents/hooks/gate.sh", "script /w/.agents/hooks/gate.sh"}, ""},
		{"sh /dev/stdin", []string{"script /dev/stdin (process)"}, "sh /dev/stdin reads its code on stdin, where the agent's payload is"},
		{"perl", nil, "perl reads its code on stdin, where the agent's payload is"},
		{"sh /proc/self/cwd/x.sh", []string{"script /proc/self/cwd/x.sh (process)"}, "names something of the process that opens it"},
		{"git apply /dev/stdin", nil, ""},
		{"command -v osascript", nil, ""},
		{"xargs -i sh -c '{}'", nil, "hands the shell code built only when the command runs"},
		{"xargs -0 python3 -c", nil, "xargs gives python3 the code it runs"},
		{"{ . /dev/fd/3; } 3< hooks/lib.sh", []string{"script /w/.agents/hooks/lib.sh"}, ""},
		// An interpreter named by a path reads its script as by its name.
		{"/usr/bin/python3 hooks/x.py", []string{"program /usr/bin/python3", "script /w/.agents/hooks/x.py [/w/.agents/hooks/x.py /w/.agents/hooks/x.py/__main__.py]"}, ""},
		{"../.venv/bin/python hooks/x.py", []string{"program /w/.agents/../.venv/bin/python", "script /w/.agents/hooks/x.py [/w/.agents/hooks/x.py /w/.agents/hooks/x.py/__main__.py]"}, ""},
		{"/usr/bin/make -C ../build", []string{"program /usr/bin/make", "module /w/.agents/../build/Makefile [/w/.agents/../build/GNUmakefile /w/.agents/../build/makefile /w/.agents/../build/Makefile]", "argument /w/.agents/../build"}, "project's own scripts"},
		// sh -s reads its code on stdin; its words are its arguments.
		{"sh -s hooks/x.sh < hooks/code.sh", []string{"script /w/.agents/hooks/code.sh", "argument /w/.agents/hooks/x.sh"}, ""},
		{"bash -es hooks/x.sh", []string{"argument /w/.agents/hooks/x.sh"}, "reads its code on stdin"},
		// awk's program files, gawk's libraries and extensions.
		{"gawk -f hooks/x.awk data.txt", []string{"module /w/.agents/hooks/x.awk [/w/.agents/hooks/x.awk /w/.agents/hooks/x.awk.awk]"}, ""},
		{"awk -F: -v x=1 -fhooks/x.awk -i lib", []string{"module /w/.agents/hooks/x.awk [/w/.agents/hooks/x.awk /w/.agents/hooks/x.awk.awk]", "module /w/.agents/lib [/w/.agents/lib /w/.agents/lib.awk]"}, ""},
		{"gawk --file=../x.awk --include=y", []string{"module /w/.agents/../x.awk [/w/.agents/../x.awk /w/.agents/../x.awk.awk]", "module /w/.agents/y [/w/.agents/y /w/.agents/y.awk]"}, ""},
		{"awk '{print $1}' hooks/data.txt", []string{"argument /w/.agents/hooks/data.txt"}, ""},
		{"gawk -l ../ext.so 'BEGIN{}'", []string{"argument /w/.agents/../ext.so"}, "loads an extension (../ext.so)"},
		{"awk -f \"$F\"", nil, "awk is given a program, an option or a file known only when the command runs"},
		// make's makefiles, where -C leads.
		{"make -f ../x.mk all", []string{"module /w/.agents/../x.mk [/w/.agents/../x.mk]"}, "project's own scripts"},
		{"make -C ../build -f sub/x.mk --file=y.mk", []string{"module /w/.agents/sub/x.mk [/w/.agents/../build/sub/x.mk]", "module /w/.agents/y.mk [/w/.agents/../build/y.mk]", "argument /w/.agents/../build"}, "project's own scripts"},
	} {
		c := Parse(tc.command, dir, ws)
		refs, gaps := describe(c)
		if !slices.Equal(refs, tc.refs) {
			t.Errorf("%s\n refs %q\n want %q", tc.command, refs, tc.refs)
		}
		switch {
		case tc.gap == "" && len(gaps) > 0:
			t.Errorf("%s: gaps %q, want none", tc.command, gaps)
		case tc.gap != "" && (len(gaps) != 1 || !strings.Contains(gaps[0], tc.gap)):
			t.Errorf("%s: gaps %q, want one containing %q", tc.command, gaps, tc.gap)
		}
	}
}

// A program word that is not literal is code no fingerprint holds when
// the code computes its value (a command's output, read, a loop, a
// caller's argument, a pattern), and the user's choice when it comes
// from a variable the code never assigns.
func TestProgramNamedByAValue(t *testing.T) {
	const computed = "runs a program named by a value the command computes when it runs (from a command's output or its input)"
	const chosen = "runs a program named only when the command runs"
	for _, tc := range []struct {
		src, why string
		code     bool
	}{
		{`p=$(cat list.txt); "$p" x`, computed, true},
		{`$(cat list.txt) x`, computed, true},
		{"`cat list.txt` x", computed, true},
		{`read -r p < list.txt; "$p"`, computed, true},
		{`read -r < list.txt; "$REPLY"`, computed, true},
		{`f() { cat list.txt; }; p=$(f); "$p"`, computed, true},
		{`for p in $(cat list.txt); do "$p"; done`, computed, true},
		{`while read -r p; do "$p" x; done < list.txt`, computed, true},
		{`if true; then p=../tools/x.sh; fi; "$p"`, computed, true},
		{`run() { "$@"; }; run ./x.sh`, computed, true},
		{`env "$1" x`, computed, true},
		{`"${JQ:-$(cat list.txt)}" .`, computed, true},
		{`sh -c 'p=$(cat l); "$p"'`, computed, true},
		{`./hooks/*.sh`, "runs a program named by a pattern, which matches files only when the command runs", true},
		// The user's choice: the environment's variables.
		{`"$JQ" .`, chosen, false},
		{`"${JQ:-jq}" .`, chosen, false},
		{`$HOME/bin/x`, chosen, false},
	} {
		for _, script := range []bool{false, true} {
			var c *Command
			if script {
				c = ParseScript(tc.src, "/w/.agents/hooks", "/w", Start{}, nil)
			} else {
				c = Parse(tc.src, "/w/.agents", "/w")
			}
			_, gaps := c.Refs()
			var got []Gap
			for _, g := range gaps {
				if strings.HasPrefix(g.Why, "runs a program named") {
					got = append(got, g)
				}
			}
			if len(got) != 1 || got[0].Why != tc.why || got[0].Code != tc.code {
				t.Errorf("%s (script %v): gaps %+v, want one %q, code %v", tc.src, script, got, tc.why, tc.code)
			}
		}
	}
}

// Words point at the text they stand for, in nested code too.
func TestWordPositions(t *testing.T) {
	cmd := `cd hooks && sh -c './gate.sh --x' && python3 "lint.py"`
	c := Parse(cmd, "/w/.agents", "/w")
	rs, _ := c.Refs()
	var got []string
	for _, r := range rs {
		got = append(got, cmd[r.Word.From:r.Word.To])
	}
	if want := []string{"./gate.sh", `"lint.py"`}; !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
}

func TestMain_(t *testing.T) {
	for cmd, want := range map[string]string{
		"python3 hooks/x.py":       "hooks/x.py",
		"./hooks/x.sh --flag":      "./hooks/x.sh",
		"env A=1 node x.mjs":       "x.mjs",
		"jq .":                     "",
		"./a.sh && ./b.sh":         "",
		"bash -c './x.sh'":         "",
		"uv run --with rich x.py":  "x.py",
		"npx --yes tsx hooks/a.ts": "hooks/a.ts",
	} {
		r, ok := Parse(cmd, "/d", "").Main()
		if got := r.Word.Text; ok != (want != "") || got != want {
			t.Errorf("Main(%q) = %q %v, want %q", cmd, got, ok, want)
		}
	}
}

func TestResolveFollowsLinksBeforeDotDot(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"sub/agents/hooks", "real"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("sub/agents", filepath.Join(root, ".agents")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../real", filepath.Join(root, "sub/agents/linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		root + "/.agents/../gate.sh":            root + "/sub/gate.sh",
		root + "/.agents/./hooks/../../gate.sh": root + "/sub/gate.sh",
		root + "/.agents/linked/../x":           root + "/x",
		root + "/.agents/hooks/missing/../x.sh": root + "/sub/agents/hooks/x.sh",
		root + "/.agents/hooks":                 root + "/sub/agents/hooks",
		root + "/loop/x":                        root + "/loop/x",
		"rel/../x":                              "x",
	} {
		if got := Resolve(in); got != want {
			t.Errorf("Resolve(%s) = %s, want %s", in, got, want)
		}
	}
}

// FuzzRefs reads any command without failing: every file it names is
// absolute, and resolving it stays absolute.
func FuzzRefs(f *testing.F) {
	for _, s := range []string{
		"./hooks/guard.sh", "python3 hooks/lint.py --fix", `sh -c 'sh -c "./a.sh"'`, `"$HOOKCTL_WORKSPACE/x.sh"`,
		"a | b && ./c.sh; $(./d.sh) `./e.sh`", "x=1 ./y.sh > out 2>&1 < in", `./a\ b.sh`, "((", "${HOOKCTL_WORKSPACE:-/x}/y.sh",
		"cat <<EOF\n./x.sh\nEOF", "if true; then ./a.sh; fi", "f() { ./b.sh; }; f", "cd .. && cd x || ./y.sh",
		`timeout 5 env A=1 bash -ec 'cd hooks; python3 -m a.b'`, `sh -c "$(cat x.txt)"`, "node hooks/x", "hookctl trace -- ./x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		c := Parse(command, "/w/.agents", "/w")
		refs, _ := c.Refs()
		readOthers(t, c)
		for _, r := range refs {
			if !filepath.IsAbs(r.Path) || r.Word.From < 0 || r.Word.To > len(command) || r.Word.From > r.Word.To {
				t.Fatalf("Refs(%q) gave %+v", command, r)
			}
			if !filepath.IsAbs(Resolve(r.Path)) {
				t.Fatalf("Resolve(%q) is not absolute", r.Path)
			}
		}
	})
}

// readOthers reads what else a command runs (git's repositories, nested
// hookctl, the logs hookctl writes) and checks the paths are absolute.
func readOthers(t *testing.T, c *Command) {
	for _, r := range c.Repos() {
		if !filepath.IsAbs(r.Dir) {
			t.Fatalf("Repos(%q) gave %+v", c.Src, r)
		}
	}
	for _, n := range c.Nested() {
		for _, p := range append(append([]string{}, n.Configs...), n.Tests...) {
			if !filepath.IsAbs(p) {
				t.Fatalf("Nested(%q) gave %+v", c.Src, n)
			}
		}
	}
	for _, l := range c.Logs() {
		if l.Word.From < 0 || l.Word.To > len(c.Src) || l.Word.From > l.Word.To {
			t.Fatalf("Logs(%q) gave %+v", c.Src, l)
		}
	}
}

// FuzzScript reads any shell script, as bash started it by a path,
// without failing: every file it names is absolute.
func FuzzScript(f *testing.F) {
	for _, s := range []string{
		"#!/bin/bash\n. \"$(dirname \"$0\")/lib.sh\"\n", "D=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\nsource \"$D/x\"\n", "x=$(cat f)\n(( x ))\n",
		"exec 3< f; . /dev/fd/3\n", "sh <<X\n. ./a\nX\n", "git -C .. status\n", "hookctl run Stop --config ../x.json\n", "source() { :; }\nsource x\n",
		"cat f | sh\nxargs -I{} sh -c '{}'\n", "for ((i=0;i<n;i++)); do let y=i; done\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := Start{arg0: val{s: "./hooks/gate.sh"}, hasArg0: true, source: val{s: "./hooks/gate.sh"}, hasSource: true, bash: true}
		c := ParseScript(src, "/w/.agents", "/w", start, func(string) (string, bool) { return "D=x\n", true })
		refs, gaps := c.Refs()
		readOthers(t, c)
		for _, r := range refs {
			if !filepath.IsAbs(r.Path) || r.Word.From < 0 || r.Word.To > len(src) || r.Word.From > r.Word.To {
				t.Fatalf("Refs(%q) gave %+v", src, r)
			}
		}
		for _, g := range gaps {
			if g.Word.From < 0 || g.Word.To > len(src) || g.Word.From > g.Word.To {
				t.Fatalf("Refs(%q) gave the gap %+v", src, g)
			}
		}
	})
}

// TestParseVars: variables whose values are known before the command runs
// (another agent's project folder, for import) make the words that use
// them literal; the others stay unknown.
func TestParseVars(t *testing.T) {
	vars := map[string]string{"CLAUDE_PROJECT_DIR": "/p"}
	for _, tc := range []struct {
		command string
		refs    []string
		gap     string
	}{
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`, []string{"program /p/.claude/hooks/x.sh"}, ""},
		{`cd "${CLAUDE_PROJECT_DIR}" && python3 hooks/c.py`, []string{"script /p/hooks/c.py [/p/hooks/c.py /p/hooks/c.py/__main__.py]"}, ""},
		{`"$CLAUDE_PLUGIN_ROOT"/x.sh`, nil, "runs a program named only when the command runs"},
		{`"$HOOKCTL_WORKSPACE"/x.sh`, nil, "runs a program named only when the command runs"},
	} {
		refs, gaps := describe(ParseVars(tc.command, "/p", vars))
		if !slices.Equal(refs, tc.refs) || tc.gap == "" && len(gaps) > 0 || tc.gap != "" && (len(gaps) != 1 || !strings.Contains(gaps[0], tc.gap)) {
			t.Errorf("%s:\n refs %q\n gaps %q\nwant %q, gap %q", tc.command, refs, gaps, tc.refs, tc.gap)
		}
	}
}

// TestNestedHookctl: a call of hookctl that runs hooks is read through:
// the hooks.json files and test files it runs, and what cannot be known
// is a gap of code; hookctl adapt runs its COMMAND as trace does.
func TestNestedHookctl(t *testing.T) {
	const dir, ws = "/w/.agents", "/w"
	for _, tc := range []struct {
		command string
		nested  string // the Nested read, as "verb configs workspace tests contract user"
		refs    []string
		gap     string
	}{
		{"hookctl run Stop --config ../tools/inner.json", "run [/w/tools/inner.json]  [] false false", nil, ""},
		{"hookctl run --config=../a.json -config /b.json Stop", "run [/w/a.json /b.json]  [] false false", nil, ""},
		{"hookctl run Stop", "", nil, ""},
		{"hookctl run Stop --explain --config x.json", "", nil, ""},
		{`hookctl run Stop --config "$X"`, "", nil, "runs hookctl run on a hooks.json named only when the command runs"},
		{`cd "$X" && hookctl run Stop --config a.json`, "", nil, "runs hookctl run on a hooks.json named only when the command runs"},
		{"hookctl test", "test []  [/w/.agents/.agents/hooks.test.json] false false", nil, ""},
		{"hookctl test --workspace ../sub", "test [] /w/sub [/w/.agents/.agents/hooks.test.json] false false", nil, ""},
		{"hookctl test ../sub x.json --run gate", "test []  [/w/sub /w/.agents/x.json] false false", nil, ""},
		{"hookctl test --contract", "test [] /w/.agents [] true false", nil, ""},
		{"hookctl test --contract --user", "test []  [] true true", nil, ""},
		{"hookctl --color never test --config ../h.json t.json", "test [/w/h.json]  [/w/.agents/t.json] false false", nil, ""},
		{"hookctl init --yes", "", nil, "runs hookctl init, which writes a new hook and runs it"},
		{"hookctl trust --yes ../x", "", []string{"argument /w/.agents/../x"}, "runs hookctl trust, which may trust the hooks of a workspace"},
		{"hookctl lint && hookctl list", "", nil, ""},
		{"hookctl $V", "", nil, "runs hookctl with a command known only when the command runs"},
		{"hookctl adapt --from claude -- ./x.sh", "", []string{"program /w/.agents/./x.sh"}, ""},
		{"hookctl adapt --from=claude --event Stop python3 x.py", "", []string{"script /w/.agents/x.py [/w/.agents/x.py /w/.agents/x.py/__main__.py]"}, ""},
		{"hookctl adapt --from claude --weird 3 -- ./x.sh", "", []string{"program /w/.agents/./x.sh"}, ""},
		{"hookctl adapt --from claude --weird 3 ./x.sh", "", []string{"argument /w/.agents/./x.sh"}, "adapt with options the reader does not know"},
		{"hookctl --color=never trace -- ./x.sh", "", []string{"program /w/.agents/./x.sh"}, ""},
	} {
		c := Parse(tc.command, dir, ws)
		var nested []string
		for _, n := range c.Nested() {
			nested = append(nested, fmt.Sprintf("%s %v %s %v %v %v", n.Verb, n.Configs, n.Workspace, n.Tests, n.Contract, n.User))
		}
		refs, gaps := describe(c)
		if got := strings.Join(nested, "; "); got != tc.nested {
			t.Errorf("%s: nested %q, want %q", tc.command, got, tc.nested)
		}
		var ran []string
		for _, r := range refs {
			if !strings.HasSuffix(r, ".json") && !strings.Contains(r, "/sub") {
				ran = append(ran, r)
			}
		}
		if !slices.Equal(ran, tc.refs) {
			t.Errorf("%s: refs %q, want %q", tc.command, ran, tc.refs)
		}
		switch {
		case tc.gap == "" && len(gaps) > 0:
			t.Errorf("%s: gaps %q, want none", tc.command, gaps)
		case tc.gap != "" && !slices.ContainsFunc(gaps, func(g string) bool { return strings.Contains(g, tc.gap) }):
			t.Errorf("%s: gaps %q, want %q", tc.command, gaps, tc.gap)
		}
	}
}

// Argv reads a program and its arguments that another language's code
// hands the system: the files it runs, code built for a shell named, and
// no gap for a git whose folder that code computes.
func TestArgv(t *testing.T) {
	lit := func(s string) Word { return Word{Text: s, Lit: true} }
	for _, tc := range []struct {
		args []Word
		refs []string
		gap  string
	}{
		{[]Word{lit("sh"), lit("./n1.txt")}, []string{"script /w/.agents/./n1.txt"}, ""},
		{[]Word{lit("sh"), lit("-c"), lit("./a.sh")}, []string{"program /w/.agents/./a.sh"}, ""},
		{[]Word{lit("sh"), lit("-c"), {Text: "code"}}, nil, "hands the shell code built only when the command runs"},
		{[]Word{lit("git"), lit("-C"), {Text: "ws"}, lit("status")}, nil, ""},
	} {
		refs, gaps := describe(Argv(tc.args, "/w/.agents"))
		if !slices.Equal(refs, tc.refs) || tc.gap == "" && len(gaps) > 0 || tc.gap != "" && (len(gaps) != 1 || gaps[0] != tc.gap) {
			t.Errorf("%v: refs %q, gaps %q; want %q, %q", tc.args, refs, gaps, tc.refs, tc.gap)
		}
	}
}

// ansiC reads bash's $'...' escapes as bash does, and refuses the ones it
// does not read.
func TestAnsiC(t *testing.T) {
	for in, want := range map[string]string{`\x73h`: "sh", `\163h`: "sh", `a\tb`: "a\tb", `\u00e9`: "é", `\'x\\`: `'x\`, `plain`: "plain"} {
		if got, ok := ansiC(in); !ok || got != want {
			t.Errorf("ansiC(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := ansiC(`\cA`); ok {
		t.Error(`ansiC(\cA) read, want refused`)
	}
}
