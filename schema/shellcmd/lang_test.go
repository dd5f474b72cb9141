package shellcmd

import (
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// argvPrinter writes a shell script that prints $0 and each argument on
// a line of its own, between brackets, and returns its path.
func argvPrinter(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "pr")
	write(t, p, "#!/bin/sh\nfor a in \"$0\" \"$@\"; do printf '[%s]\\n' \"$a\"; done\n")
	return p
}

// printed reads what argvPrinter printed.
func printed(out string) []string {
	var args []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			args = append(args, l[1:len(l)-1])
		}
	}
	return args
}

// ReadShebang reads a #! line as the kernel does: each line is run by the
// kernel, with an interpreter that prints the arguments it was given, and
// they must be the interpreter and the argument ReadShebang says.
func TestReadShebangAgainstTheKernel(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the reading is Linux's")
	}
	dir := t.TempDir()
	pr := argvPrinter(t, dir)
	long := strings.Repeat("a", 300)
	for _, head := range []string{
		"#!PR\n",
		"#!PR -x\n",
		"#!  PR  a b  \n",
		"#!PR\ta\tb\t\n",
		"#!\tPR\n",
		"#!PR",
		"#!PR -x",
		"#!PR a\r\n",
		"#!PR ../payload.txt\necho body\n",
		"#!PR " + long + "\n",
		"#!PR " + long[:255-len("#!PR ")-len(dir+"/pr")+2] + "\n",
		"#!PR a\x00b\n",
		"#!\n",
		"#!   \n",
		"#!" + strings.Repeat("/", 300) + "\n",
		"#!PR" + strings.Repeat("/", 300) + "\n",
		"echo no line\n",
	} {
		content := strings.ReplaceAll(head, "PR", pr)
		f := filepath.Join(dir, "x")
		write(t, f, content)
		s, ok := ReadShebang([]byte(content))
		out, err := exec.Command(f).Output()
		var errno syscall.Errno
		if errors.As(err, &errno) && errno == syscall.ENOEXEC {
			if ok {
				t.Errorf("%q: the kernel refuses it (ENOEXEC), ReadShebang reads %+v", head, s)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", head, err)
		}
		want := []string{s.Interp}
		if s.Arg != "" {
			want = append(want, s.Arg)
		}
		want = append(want, f)
		if got := printed(string(out)); !ok || !slices.Equal(got, want) {
			t.Errorf("%q: the kernel ran %q, ReadShebang reads %q (%v)", head, got, want, ok)
		}
		if s.Cut != (len(content) > 255 && !strings.Contains(content[:256], "\n") && !strings.Contains(content[:255], "\x00")) {
			t.Errorf("%q: Cut is %v", head, s.Cut)
		}
	}
}

// splitString splits as GNU env -S does: each string is handed to the real
// env, whose program prints what it was given.
func TestEnvSplitAgainstEnv(t *testing.T) {
	if _, err := exec.LookPath("env"); err != nil {
		t.Skip("no env")
	}
	pr := argvPrinter(t, t.TempDir())
	for _, s := range []string{
		`a b`,
		`  a   b  `,
		"a\tb",
		`'a b' "c d"`,
		`a\_b`,
		`"a\_b"`,
		`'it\'s' "q\"q" 'b\\s'`,
		`a # a comment`,
		`a#b`,
		`a \c b`,
		`"t\tb"`,
		`''`,
	} {
		words, ok := splitString(pr + " " + s)
		if !ok {
			t.Errorf("%s: not read", s)
			continue
		}
		out, err := exec.Command("env", "-S", pr+" "+s).Output()
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := printed(string(out)); !slices.Equal(got, words) {
			t.Errorf("%s: env gave %q, splitString %q", s, got, words)
		}
	}
	// What env expands or may refuse is not read.
	for _, s := range []string{`${HOME}/x`, `"${HOME}"`, `a\qb`, `'open`} {
		if words, ok := splitString(s); ok {
			t.Errorf("%s read as %q", s, words)
		}
	}
}

// describeReading lists what a Reading of the one file a command runs
// names: its language, the kernel's refs and gaps, and why it is not read.
func describeReading(t *testing.T, command, content string) (string, []string, []string, string) {
	t.Helper()
	refs, _ := Parse(command, "/w/.agents", "/w").Refs()
	if len(refs) == 0 {
		t.Fatalf("%s: no ref", command)
	}
	rd := refs[0].Read([]byte(content), "/w")
	var krefs, kgaps []string
	if rd.Kernel != nil {
		for _, r := range mustRefs(rd.Kernel) {
			s := r.Role.String() + " " + r.Path
			if r.Interpreter != "" {
				s += " (" + r.Interpreter + ")"
			}
			krefs = append(krefs, s)
		}
		_, gs := rd.Kernel.Refs()
		for _, g := range gs {
			kgaps = append(kgaps, g.Why)
		}
	}
	return rd.Lang.String(), krefs, kgaps, rd.Why
}

func mustRefs(c *Command) []Ref {
	rs, _ := c.Refs()
	return rs
}

// The language a file is read in is the one of the program that runs it.
func TestReadDecidesTheLanguage(t *testing.T) {
	for _, tc := range []struct {
		command, content string
		lang             string
		refs             []string // the kernel's
		gap, why         string   // substrings, "" for none
	}{
		// Handed to an interpreter: its language, whatever the #! line.
		{"python3 hooks/x", "#!/bin/sh\n", "Python", nil, "", ""},
		{"sh hooks/x.py", "#!/usr/bin/env python3\n", "shell", nil, "", ""},
		{". hooks/x.py", "#!/usr/bin/env python3\n", "shell", nil, "", ""},
		{"node hooks/x.mjs", "#!/bin/sh\n", "JavaScript", nil, "", ""},
		{"perl hooks/x.pl", "#!/usr/bin/perl -w\n", "Perl", nil, "", ""},
		{"ruby hooks/x.rb", "#!/bin/sh\n", "Ruby", nil, "", ""},
		{"gawk -f hooks/x.awk", "", "awk", nil, "", ""},
		{"lua hooks/x.lua", "", "none", nil, "", "is run by lua, whose code hookctl does not read"},
		// perl runs the program a #! line names when it does not name perl.
		{"perl hooks/x", "#!/bin/sh\n. ./lib.sh\n", "none", nil, "", "perl runs in its place"},
		// Started as a program: the kernel's call for its #! line.
		{"./hooks/x", "#!/usr/bin/env python3\n\"\"\"doc\"\"\"\n", "none", []string{"script /w/.agents/./hooks/x (python3)"}, "", ""},
		{"./hooks/x", "#!/bin/sh\n", "none", []string{"script /w/.agents/./hooks/x (sh)"}, "", ""},
		{"./hooks/x", "#!/bin/sh ../payload.txt\n", "none", []string{"script /w/.agents/../payload.txt (sh)", "argument /w/.agents/./hooks/x"}, "", ""},
		{"./hooks/x", "#!/usr/bin/env -S sh ../payload.txt\n", "none", []string{"script /w/.agents/../payload.txt (sh)", "argument /w/.agents/./hooks/x"}, "", ""},
		{"./hooks/x", "#!../tools/interp\n", "none", []string{"program /w/.agents/../tools/interp", "argument /w/.agents/./hooks/x"}, "", "whose program hookctl does not read"},
		{"./hooks/x", "#!python3\n", "none", []string{"program /w/.agents/./python3", "script /w/.agents/./hooks/x (python3)"}, "", ""},
		{"./hooks/x", "#!/w/tools/sh\n", "none", []string{"program /w/tools/sh", "script /w/.agents/./hooks/x (sh)"}, "", ""},
		{"./hooks/x", "#!/usr/bin/env -S node --no-warnings\n", "none", []string{"module /w/.agents/./hooks/x (node)"}, "", ""},
		{"./hooks/x", "#!/usr/bin/gawk -f\n", "none", []string{"module /w/.agents/./hooks/x (gawk)"}, "", ""},
		{"./hooks/x", "#!/usr/bin/make -f\n", "none", []string{"module /w/.agents/./hooks/x (make)"}, "project's own scripts", ""},
		{"./hooks/x", "#!/bin/sh -s\n", "none", []string{"argument /w/.agents/./hooks/x"}, "reads its code on stdin", "whose program hookctl does not read"},
		{"./hooks/x < ../code.sh", "#!/bin/sh -s\n", "none", []string{"script /w/.agents/../code.sh (sh)", "argument /w/.agents/./hooks/x"}, "", ""},
		{"./hooks/x", "#!/bin/sh -c\n", "none", nil, "", "whose program hookctl does not read"},
		{"./hooks/x", "#!/usr/bin/env -S -C .. sh x\n", "none", nil, "", "changes the folder"},
		{"./hooks/x", "#!/usr/bin/env -S sh ${HOME}/x\n", "none", nil, "", "options to env are not read"},
		{"./hooks/x", "#!/usr/bin/env python3 -u\n", "none", []string{"argument /w/.agents/./hooks/x"}, "", "whose program hookctl does not read"},
		{"./hooks/x", "#!/bin/sh " + strings.Repeat("a", 300) + "\n", "none", nil, "", "longer than the 255 bytes"},
		// Without a #! line, the shell that started it reads it.
		{"./hooks/x", "echo hi\n", "shell", nil, "", ""},
		{"./hooks/x", "#!\necho hi\n", "shell", nil, "", ""},
		{"./hooks/x", "\x7fELF\x02\x01\x01", "none", nil, "", "compiled program"},
		{"node hooks/x", "\x7fELF\x02\x01\x01", "none", nil, "", "compiled program"},
	} {
		lang, refs, gaps, why := describeReading(t, tc.command, tc.content)
		if lang != tc.lang || !slices.Equal(refs, tc.refs) {
			t.Errorf("%s with %q: read as %s, kernel refs %q; want %s, %q", tc.command, tc.content, lang, refs, tc.lang, tc.refs)
		}
		if g := strings.Join(gaps, "\n"); tc.gap == "" && g != "" || !strings.Contains(g, tc.gap) {
			t.Errorf("%s with %q: gaps %q, want %q", tc.command, tc.content, gaps, tc.gap)
		}
		if tc.why == "" && why != "" || !strings.Contains(why, tc.why) {
			t.Errorf("%s with %q: why %q, want %q", tc.command, tc.content, why, tc.why)
		}
	}
}

// ShebangProgram names the program a #! line runs, past env.
func TestShebangProgram(t *testing.T) {
	for content, want := range map[string]string{
		"#!/bin/sh\n":                         "sh",
		"#!/bin/bash -e\n":                    "bash",
		"#!/usr/bin/env bash\n":               "bash",
		"#!/usr/bin/env -S bash -e\n":         "bash",
		"#!/usr/bin/env -S -i python3 -u\n":   "python3",
		"#!/usr/bin/env -S uv run --script\n": "uv",
		"echo\n":                              "",
		"#!\n":                                "",
	} {
		if got := ShebangProgram([]byte(content)); got != want {
			t.Errorf("%q: %q, want %q", content, got, want)
		}
	}
}
