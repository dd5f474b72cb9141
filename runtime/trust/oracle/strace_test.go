package oracle

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// These tests read logs written by hand in strace's format (strace 6.1,
// -f -y): the oracle's reading of strace, without strace.

func TestParseLogJoinsAndDecodes(t *testing.T) {
	log := strings.Join([]string{
		`10 execve("/bin/sh", ["/bin/sh", "-c", "x"], 0x7ffd /* 3 vars */) = 0`,
		`10 openat(AT_FDCWD</w/.agents>, "./we>ird, (x)/l\"b.sh", O_RDONLY) = 3</w/.agents/we\76ird, (x)/l\"b.sh>`,
		`10 vfork( <unfinished ...>`,
		`11 read(0<pipe:[7]>, "a\tb\\\1\0023", 4096) = 7`,
		`10 <... vfork resumed>)              = 11`,
		`11 syscall_0x7ff80c000000(0x1, 0x2`,
		`11 +++ exited with 0 +++`,
		`10 --- SIGCHLD {si_signo=SIGCHLD} ---`,
		`10 read(3</w/x>, ""..., 1024) = 1024`,
	}, "\n")
	calls, err := ParseLog(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range calls {
		names = append(names, c.Name)
	}
	// The vfork is where it was entered, before its child's read.
	if want := []string{"execve", "openat", "vfork", "read", "read"}; !slices.Equal(names, want) {
		t.Fatalf("calls %q, want %q", names, want)
	}
	if c := calls[1]; c.Path != `/w/.agents/we>ird, (x)/l"b.sh` || c.Val != 3 || len(c.Args) != 3 {
		t.Errorf("openat: %+v", c)
	}
	if v, ok := Str(calls[1].Args[1]); !ok || v != `./we>ird, (x)/l"b.sh` {
		t.Errorf("openat's path %q", v)
	}
	if calls[2].Val != 11 {
		t.Errorf("vfork returned %d, want 11", calls[2].Val)
	}
	if v, ok := Str(calls[3].Args[1]); !ok || v != "a\tb\\\x01\x023" {
		t.Errorf("read's data %q", v)
	}
	if argv, ok := StrArray(calls[0].Args[1]); !ok || !slices.Equal(argv, []string{"/bin/sh", "-c", "x"}) {
		t.Errorf("argv %q", argv)
	}
	if n, p, ok := FD("AT_FDCWD</w/.agents>"); !ok || n != -100 || p != "/w/.agents" {
		t.Errorf("FD(AT_FDCWD) = %d %q %v", n, p, ok)
	}
}

// A traced call strace printed in a way the oracle cannot read is kept,
// marked, for the caller to judge; a line of another call is skipped.
func TestParseLogKeepsWhatItCannotRead(t *testing.T) {
	calls, err := ParseLog(strings.NewReader("5 openat(AT_FDCWD</w>, \"x\", O_RDONLY\n5 frobnicate(1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].Name != "?" || !strings.Contains(calls[0].Ret, "openat") {
		t.Fatalf("calls %+v", calls)
	}
	tr := Analyze(calls, "/w", "/w")
	if len(tr.Unread) != 1 {
		t.Fatalf("unread %q", tr.Unread)
	}
}

func analyze(t *testing.T, root string, lines ...string) *Trace {
	t.Helper()
	calls, err := ParseLog(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return Analyze(calls, root, root+"/.agents")
}

func loads(tr *Trace) []string {
	var out []string
	for _, l := range tr.Loads {
		out = append(out, l.Path+" "+string(l.Way)+" "+l.Proc.Name())
	}
	return out
}

// How a shell's reads are told apart: its program on stdin, a file it
// opens through /dev/stdin, a file a redirection gives a builtin (read x <
// f), which is data, and bash's "exec 3< f", opened right at 3 and then
// asked for its flags.
func TestShellReads(t *testing.T) {
	tr := analyze(t, "/w",
		`1 execve("/bin/dash", ["sh"], 0x1 /* 1 vars */) = 0`,
		`1 read(0</w/prog.txt>, "echo hi\n", 8192) = 8`,
		`1 openat(AT_FDCWD</w/.agents>, "/dev/stdin", O_RDONLY) = 3</w/prog.txt>`,
		`1 read(3</w/prog.txt>, "echo hi\n", 8192) = 8`,
		`1 openat(AT_FDCWD</w/.agents>, "list.txt", O_RDONLY) = 4</w/.agents/list.txt>`,
		`1 fcntl(0</w/prog.txt>, F_DUPFD, 10) = 11</w/prog.txt>`,
		`1 dup2(4</w/.agents/list.txt>, 0</w/prog.txt>) = 0</w/.agents/list.txt>`,
		`1 read(0</w/.agents/list.txt>, "a\n", 8192) = 2`,
		`1 dup2(11</w/prog.txt>, 0</w/.agents/list.txt>) = 0</w/prog.txt>`,
		`1 read(0</w/prog.txt>, "", 8192) = 0`,
		`2 execve("/bin/bash", ["bash", "-c", "exec 3< d.txt; read -u 3 x; . ./lib.sh"], 0x1 /* 1 vars */) = 0`,
		`2 openat(AT_FDCWD</w/.agents>, "d.txt", O_RDONLY) = 3</w/.agents/d.txt>`,
		`2 fcntl(3</w/.agents/d.txt>, F_GETFD)  = 0`,
		`2 read(3</w/.agents/d.txt>, "a\n", 4096) = 2`,
		`2 openat(AT_FDCWD</w/.agents>, "./lib.sh", O_RDONLY) = 4</w/.agents/lib.sh>`,
		`2 read(4</w/.agents/lib.sh>, "x=1\n", 4) = 4`,
	)
	want := []string{
		"/w/prog.txt " + string(Stdin) + " dash",
		"/w/prog.txt " + string(Alias) + " dash",
		"/w/.agents/list.txt " + string(Redirected) + " dash",
		"/w/prog.txt " + string(Stdin) + " dash",
		"/w/.agents/d.txt " + string(Redirected) + " bash",
		"/w/.agents/lib.sh " + string(Opened) + " bash",
	}
	if got := loads(tr); !slices.Equal(got, want) {
		t.Fatalf("loads\n%q\nwant\n%q", got, want)
	}
	if len(tr.Texts) != 1 || tr.Texts[0].Text != "exec 3< d.txt; read -u 3 x; . ./lib.sh" {
		t.Fatalf("texts %+v", tr.Texts)
	}
}

// What a pipe feeds an interpreter as its program is text to match, and
// so is a file it runs from the temporary folder (a copy); what cat reads
// is not a load, jq's input is data, and so is a system file.
func TestPipes(t *testing.T) {
	tr := analyze(t, "/w",
		`1 execve("/usr/bin/cat", ["cat", "../tools/p.txt"], 0x1 /* 1 vars */) = 0`,
		`1 openat(AT_FDCWD</w/.agents>, "../tools/p.txt", O_RDONLY) = 3</w/tools/p.txt>`,
		`1 read(3</w/tools/p.txt>, ". ./x\n", 131072) = 6`,
		`2 dup2(3<pipe:[9]>, 0</dev/null>) = 0<pipe:[9]>`,
		`2 execve("/usr/bin/sh", ["sh"], 0x1 /* 1 vars */) = 0`,
		`2 read(0<pipe:[9]>, ". ./x\n", 8192) = 6`,
		`3 execve("/usr/bin/jq", ["jq", "."], 0x1 /* 1 vars */) = 0`,
		`3 read(0<pipe:[10]>, "{}", 8192) = 2`,
		`4 execve("/usr/bin/sh", ["sh", "`+tempDir+`/tmp.x"], 0x1 /* 1 vars */) = 0`,
		`4 openat(AT_FDCWD</w/.agents>, "`+tempDir+`/tmp.x", O_RDONLY) = 3<`+tempDir+`/tmp.x>`,
		`4 read(3<`+tempDir+`/tmp.x>, "echo copied\n", 8192) = 12`,
		`4 openat(AT_FDCWD</w/.agents>, "/usr/share/x", O_RDONLY) = 3</usr/share/x>`,
		`4 read(3</usr/share/x>, "echo system\n", 8192) = 12`,
	)
	if len(tr.Loads) != 0 {
		t.Errorf("loads %q", loads(tr))
	}
	var texts []string
	for _, x := range tr.Texts {
		texts = append(texts, x.Text)
	}
	if want := []string{". ./x\n", "echo copied\n"}; !slices.Equal(texts, want) || !tr.Texts[0].Program || !Interpreter(tr.Texts[0].Proc.Name(), nil).Shell {
		t.Fatalf("texts %+v, want %q", tr.Texts, want)
	}
}

// A #! script is executed and its interpreter too, each looked up from the
// current folder as the kernel does; threads share their process, a child
// starts in its parent's folder, also when its first call shows before the
// clone returns in its parent (strace prints a call when it returns).
func TestExecAndShebang(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{".agents/hooks/gate": "#!../../tools/interp -x\n", "tools/interp": "#!/bin/sh\n"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tr := analyze(t, root,
		`1 chdir("/")                  = 0`,
		`1 chdir("`+root+`/.agents/hooks")                  = 0`,
		`2 clone3({flags=CLONE_VM|CLONE_THREAD, exit_signal=0}, 88) = 3`,
		`1 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD) = 2`,
		`1 chdir("/")                  = 0`,
		`3 execve("../hooks/gate", ["../hooks/gate", "a"], 0x1 /* 1 vars */) = 0`,
	)
	want := []string{
		root + "/.agents/hooks/gate " + string(Exec) + " gate",
		root + "/tools/interp " + string(Interp) + " interp",
	}
	if got := loads(tr); !slices.Equal(got, want) {
		t.Fatalf("loads\n%q\nwant\n%q", got, want)
	}
	im := tr.Images[0]
	if !Interpreter(im.Name(), nil).Shell || im.Script != root+"/.agents/hooks/gate" {
		t.Errorf("image %+v", im)
	}
	if want := []string{"/bin/sh", "../../tools/interp", "-x", "../hooks/gate", "a"}; !slices.Equal(im.Argv, want) {
		t.Errorf("argv %q, want %q", im.Argv, want)
	}
}

func TestInterpreterArguments(t *testing.T) {
	for _, tc := range []struct {
		name  string
		argv  []string
		stdin bool
		code  []string
	}{
		{"dash", []string{"sh"}, true, nil},
		{"dash", []string{"sh", "-s", "a"}, true, nil},
		{"dash", []string{"sh", "-eu", "x.sh"}, false, nil},
		{"dash", []string{"sh", "-ec", "echo 1", "name"}, false, []string{"echo 1"}},
		{"bash", []string{"bash", "-o", "pipefail", "--rcfile", "r", "-c", "x"}, false, []string{"x"}},
		{"dash", []string{"sh", "-"}, true, nil},
		{"python3.11", []string{"python3"}, true, nil},
		{"python3.11", []string{"python3", "-"}, true, nil},
		{"python3.11", []string{"python3", "-u", "x.py"}, false, nil},
		{"python3.11", []string{"python3", "-Ic", "import m"}, false, []string{"import m"}},
		{"python3.11", []string{"python3", "-m", "pkg"}, false, nil},
		{"node", []string{"node"}, true, nil},
		{"node", []string{"node", "-r", "./pre", "x.js"}, false, nil},
		{"node", []string{"node", "-e", "require('x')"}, false, []string{"require('x')"}},
		{"perl", []string{"perl"}, true, nil},
		{"perl", []string{"perl", "-le", "print 1"}, false, []string{"print 1"}},
		{"perl", []string{"perl", "-Ilib", "x.pl"}, false, nil},
		{"ruby3.1", []string{"ruby", "-e", "load 'x'"}, false, []string{"load 'x'"}},
		{"gawk", []string{"awk", "-F:", "{print}"}, false, []string{"{print}"}},
		{"gawk", []string{"awk", "-f", "x.awk", "data"}, false, nil},
		{"cat", []string{"cat"}, false, nil},
	} {
		p := Interpreter(tc.name, tc.argv)
		if p.StdinProgram != tc.stdin || !slices.Equal(p.Code, tc.code) {
			t.Errorf("%s %q: stdin %v code %q, want %v %q", tc.name, tc.argv, p.StdinProgram, p.Code, tc.stdin, tc.code)
		}
	}
	if p := Interpreter("jq", []string{"jq", "-f", "lib/f.jq", "data.json"}); !p.IsCode("/w/lib/f.jq") || p.IsCode("/w/data.json") {
		t.Error("jq reads its -f file as code and the rest as data")
	}
	if p := Interpreter("git", []string{"git", "status"}); !p.IsCode("/w/.git/config") || p.IsCode("/w/.git/HEAD") {
		t.Error("git's code is in its config, not in HEAD")
	}
}

// A gap names a way of running code when it says what runs is not known,
// or names the channel code was fed through, or the language that loads
// a file; the project's own scripts (npm) name no shell sourcing.
func TestNaming(t *testing.T) {
	for _, tc := range []struct {
		gap  string
		way  Way
		lang string
		want bool
	}{
		{"sh is given an option or script known only when the command runs", Opened, "shell", true},
		{"sh runs the code that another command of the pipeline prints", Fed, "shell", true},
		{"runs the project's own scripts or packages (npm), which are not fingerprinted", Opened, "shell", false},
		{"runs the project's own scripts or packages (make), which are not fingerprinted", Opened, "make", true},
		{"sets BASH_ENV for the call, which changes what it runs", Opened, "shell", true},
		{"x.py:3 changes where Python imports from", Opened, "python", true},
		{"x.py:3 changes where Python imports from", Opened, "perl", false},
		{"runs a program named by a value the command computes when it runs (from a command's output or its input)", Opened, "shell", true},
		{"runs a program named by a pattern, which matches files only when the command runs", Opened, "shell", true},
	} {
		if got := Naming([]string{tc.gap}, tc.way, tc.lang) != ""; got != tc.want {
			t.Errorf("Naming(%q, %s, %s) = %v, want %v", tc.gap, tc.way, tc.lang, got, tc.want)
		}
	}
}
