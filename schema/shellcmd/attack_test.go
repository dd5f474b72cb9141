package shellcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestScriptFolderAgainstItsOwnCode runs scripts that change, in ways the
// text of the line does not show, what their own folder or a command
// means, and checks that ParseScript never names a file the shell did not
// source at the last line.
func TestScriptFolderAgainstItsOwnCode(t *testing.T) {
	for _, sh := range []string{"sh", "bash"} {
		testenv.Need(t, sh)
	}
	w := shellTree(t)
	agents := filepath.Join(w, ".agents")
	for _, d := range []string{"bin", "evil/sub", "hooks/evil", "10", "-P"} {
		if err := os.MkdirAll(filepath.Join(agents, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(agents, "bin/dirname"), "#!/bin/sh\necho other\n")
	write(t, filepath.Join(agents, "evil/sub/lib.sh"), "echo MARK:.agents/evil/sub/lib.sh\n")
	write(t, filepath.Join(agents, "hoo"), "echo MARK:.agents/hoo\n")
	write(t, filepath.Join(agents, "defs.sh"), "dirname() { echo other; }\n")
	write(t, filepath.Join(agents, "hooks/nocd.sh"), "cd() { :; }\n")
	write(t, filepath.Join(agents, "hooks/docd.sh"), "cd hooks/sub\n")
	write(t, filepath.Join(agents, "hooks/qcd.sh"), "'cd' hooks/sub\n")
	write(t, filepath.Join(agents, "hooks/callf2.sh"), "f\n")
	write(t, filepath.Join(agents, "hooks/cmds.sh"), "BASH_CMDS[dirname]=$PWD/bin/dirname\n")
	write(t, filepath.Join(agents, "hooks/rc.sh"), "CDPATH=$PWD/evil\n")
	write(t, filepath.Join(agents, "hooks/callf.sh"), "f; . ./lib.sh\n")
	for _, tc := range []struct{ name, command, script string }{
		{"IFS", "./hooks/gate.sh", `IFS=k; . $(dirname $0)/lib.sh`},
		{"IFS read", "./hooks/gate.sh", `read -r IFS <<EOF` + "\nk\nEOF\n" + `. $(dirname $0)/lib.sh`},
		{"CDPATH", "./hooks/gate.sh", `cd "$(dirname "$0")"; CDPATH=../evil; cd sub; . ./lib.sh`},
		{"CDPATH sub", "./hooks/gate.sh", `CDPATH=evil; D="$(cd sub 2>/dev/null; cd "$(dirname "$0")" && pwd)"; cd "$D"; cd sub; . ./lib.sh`},
		{"PATH prefix", "PATH=bin:$PATH ./hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"PATH export", "export PATH=bin:$PATH; ./hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"PATH env", "env PATH=bin:/usr/bin:/bin ./hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"BASH_ENV", "BASH_ENV=./defs.sh bash hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"BASH_ENV env", "env BASH_ENV=./defs.sh bash hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"BASH_FUNC", "env 'BASH_FUNC_dirname%%=() { echo other; }' bash hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"workspace", "HOOKCTL_WORKSPACE=$PWD/other ./hooks/gate.sh", `. "$HOOKCTL_WORKSPACE/lib.sh"`},
		{"workspace export", "export HOOKCTL_WORKSPACE=$PWD/other; ./hooks/gate.sh", `. "$HOOKCTL_WORKSPACE/lib.sh"`},
		{"printf quoted", "bash hooks/gate.sh", `D="$(dirname "$0")"; printf -v 'D' %s other; . "$D/lib.sh"`},
		{"printf joined", "bash hooks/gate.sh", `D="$(dirname "$0")"; printf -vD %s other; . "$D/lib.sh"`},
		{"printf by name", "bash hooks/gate.sh", `N=D; D="$(dirname "$0")"; printf -v "$N" %s other; . "$D/lib.sh"`},
		{"read by name", "./hooks/gate.sh", `N=D; D="$(dirname "$0")"; read "$N" <<EOF` + "\nother\nEOF\n" + `. "$D/lib.sh"`},
		{"read quoted", "./hooks/gate.sh", `D="$(dirname "$0")"; read 'D' <<EOF` + "\nother\nEOF\n" + `. "$D/lib.sh"`},
		{"declare quoted", "bash hooks/gate.sh", `D="$(dirname "$0")"; declare 'D=other'; . "$D/lib.sh"`},
		{"export quoted", "./hooks/gate.sh", `D="$(dirname "$0")"; export 'D=other'; . "$D/lib.sh"`},
		{"export by name", "./hooks/gate.sh", `N=D; D="$(dirname "$0")"; export "$N=other"; . "$D/lib.sh"`},
		{"local by name", "bash hooks/gate.sh", `N=D; D="$(dirname "$0")"; f() { declare -g "$N=other"; }; f; . "$D/lib.sh"`},
		{"mapfile", "bash hooks/gate.sh", `D="$(dirname "$0")"; mapfile -t D <<EOF` + "\nother\nEOF\n" + `. "$D/lib.sh"`},
		{"getopts", "bash hooks/gate.sh", `D="$(dirname "$0")"; set -- -x; getopts x D; cd other; . "./$D/../lib.sh"`},
		{"let quoted", "bash hooks/gate.sh", `D="$(dirname "$0")"; let 'D=1'; . "$D/lib.sh"`},
		{"arith by name", "bash hooks/gate.sh", `N=D; D="$(dirname "$0")"; : $(( $N = 1 )); . "$D/lib.sh"`},
		{"sourced cd", "./hooks/gate.sh", `. "$(dirname "$0")/nocd.sh"; cd hooks/sub; . ./lib.sh`},
		{"eval cd", "./hooks/gate.sh", `eval 'cd() { :; }'; cd hooks/sub; . ./lib.sh`},
		{"cd in subst", "./hooks/gate.sh", `: "$(cd hooks/sub)"; . ./lib.sh`},
		{"assign subst cd", "./hooks/gate.sh", `D="$(cd hooks/sub && pwd)"; . "$D/lib.sh"`},
		{"alias dash", "./hooks/gate.sh", `command alias dirname='echo other'` + "\n" + `. "$(dirname "$0")/lib.sh"`},
		{"argv0 export", "bash hooks/gate.sh", `export BASH_ARGV0=/x; . "$(dirname "$0")/lib.sh"`},
		{"argv0 declare", "bash hooks/gate.sh", `declare BASH_ARGV0=/x; . "$(dirname "$0")/lib.sh"`},
		{"argv0 read", "bash hooks/gate.sh", `read BASH_ARGV0 <<EOF` + "\nother/x\nEOF\n" + `. "$(dirname "$0")/lib.sh"`},
		{"source cmdsubst", "bash hooks/gate.sh", `. <(echo 'echo MARK:.agents/evil/sub/lib.sh'); . "$(dirname "$0")/lib.sh"`},
		{"posix", "bash hooks/gate.sh", `set -o posix; . "$(dirname "$0")/lib.sh"`},
		{"exec -a", "exec -a other/x bash hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"bash -c name", "bash -c '. hooks/gate.sh' other/x", `. "$(dirname "$0")/lib.sh"`},
		{"bash -c name2", "bash -c 'bash \"$0\"' hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"here-doc", "./hooks/gate.sh", `D="$(dirname "$0")"; cat <<EOF` + "\n$(D=other)\nEOF\n" + `. "$D/lib.sh"`},
		{"ENV", "ENV=./defs.sh sh -i hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"SHELLOPTS", "SHELLOPTS=physical bash hooks/gate.sh", `D="$(cd "$(dirname "$0")/sublink/.." && pwd)"; . "$D/lib.sh"`},
		{"POSIXLY", "POSIXLY_CORRECT=1 bash hooks/gate.sh", `. "$(dirname "$0")/lib.sh"`},
		{"dirname space", "./hooks/gate.sh", `. "$(dirname "$0")"/lib.sh`},
		{"glob in 0", "./hooks/gate.sh", `cd "$(dirname "$0")"; . ../hook*/lib.sh`},
		{"heredoc arith", "./hooks/gate.sh", `D="$(dirname "$0")"; : <<EOF` + "\n$((D=1))\nEOF\n" + `. "$D/lib.sh"`},
		{"PS4", "./hooks/gate.sh", `D="$(dirname "$0")"; PS4='$((D=1))'; set -x; :; . "$D/lib.sh"`},
		{"pushd dash", "./hooks/gate.sh", `pushd hooks/sub 2>/dev/null; . ./lib.sh`},
		{"pushd +1", "bash hooks/gate.sh", `cd hooks; pushd sub >/dev/null; pushd +1 >/dev/null; . ./lib.sh`},
		{"builtin cd", "./hooks/gate.sh", `builtin cd hooks/sub 2>/dev/null || command cd hooks/sub; . ./lib.sh`},
		{"command cd", "./hooks/gate.sh", `command cd hooks/sub; . ./lib.sh`},
		{"quoted cd", "./hooks/gate.sh", `'c'd hooks/sub; . ./lib.sh`},
		{"and cd", "./hooks/gate.sh", `false && cd hooks/sub; . ./lib.sh`},
		{"and chain", "./hooks/gate.sh", `cd hooks && cd sub && . ./lib.sh`},
		{"function cwd", "./hooks/gate.sh", `f() { . ./lib.sh; }; cd hooks/sub; f`},
		{"function cd", "./hooks/gate.sh", `f() { cd sub; }; cd "$HOOKCTL_WORKSPACE/.agents/hooks"; f; . ./lib.sh`},
		{"function cd abs", "bash $PWD/hooks/gate.sh", `f() { cd sub; }; cd "$(dirname "$0")"; f; . ./lib.sh`},
		{"cd in function same", "bash $PWD/hooks/gate.sh", `cd "$(dirname "$0")"; f() { cd ../hooks; }; cd "$HOOKCTL_WORKSPACE/.agents"; f; . ./lib.sh`},
		{"eval cd here", "./hooks/gate.sh", `eval 'cd hooks/sub'; . ./lib.sh`},
		{"sourced does cd", "./hooks/gate.sh", `. ./hooks/docd.sh; . ./lib.sh`},
		{"caller function", "./hooks/gate.sh", `f() { cd hooks/sub; }; . ./hooks/callf.sh`},
		{"OPTARG", "./hooks/gate.sh", `OPTARG=hooks; getopts a: x -a other; . "./$OPTARG/lib.sh"`},
		{"REPLY", "./hooks/gate.sh", `REPLY=hooks; read -r <<EOF` + "\nother\nEOF\n" + `. "./$REPLY/lib.sh"`},
		{"MAPFILE", "bash hooks/gate.sh", `MAPFILE=hooks; mapfile <<EOF` + "\nother\nEOF\n" + `. "./$MAPFILE/lib.sh"`},
		{"OLDPWD", "./hooks/gate.sh", `OLDPWD="$HOOKCTL_WORKSPACE/.agents/hooks"; cd other; . "$OLDPWD/lib.sh"`},
		{"PWD", "./hooks/gate.sh", `PWD="$HOOKCTL_WORKSPACE/.agents/hooks"; cd ../.agents/other; . "$PWD/lib.sh"`},
		{"underscore", "bash hooks/gate.sh", `_=hooks; : other; . "./$_/lib.sh"`},
		{"REMATCH", "bash hooks/gate.sh", `BASH_REMATCH=hooks; [[ other =~ other ]]; . "./$BASH_REMATCH/lib.sh"`},
		{"SECONDS", "bash hooks/gate.sh", `SECONDS=hooks; . "./$SECONDS/lib.sh"`},
		{"select", "bash hooks/gate.sh", `REPLY=hooks; select x in a; do break; done <<EOF` + "\nother\nEOF\n" + `. "./$REPLY/lib.sh"`},
		{"BASH_ENV nested", "./hooks/gate.sh", `export BASH_ENV=./hooks/docd.sh; bash -c '. ./lib.sh'`},
		{"BASH_ENV nested prefix", "./hooks/gate.sh", `BASH_ENV=./hooks/docd.sh bash -c '. ./lib.sh'`},
		{"BASH_ENV nested env", "./hooks/gate.sh", `env BASH_ENV=./hooks/docd.sh bash -c '. ./lib.sh'`},
		{"exported cd", "bash hooks/gate.sh", `cd() { builtin cd hooks/sub; }; export -f cd; bash -c 'cd x; . ./lib.sh'`},
		{"keyword", "bash hooks/gate.sh", `D="$(dirname "$0")"; set -k; set -o posix; : D=other; . "$D/lib.sh"`},
		{"keyword start", "bash -k -o posix hooks/gate.sh", `D="$(dirname "$0")"; : D=other; . "$D/lib.sh"`},
		{"fd name", "bash hooks/gate.sh", `D="$(dirname "$0")"; exec {D}>/dev/null; . "$D/lib.sh"`},
		{"cd option", "bash hooks/gate.sh", `D=-P; R="$(cd "$D" && pwd)"; . "$R/lib.sh"`},
		{"env -u", "env -u HOOKCTL_WORKSPACE ./hooks/gate.sh", `. "$HOOKCTL_WORKSPACE/lib.sh"`},
		{"unset workspace", "unset HOOKCTL_WORKSPACE; ./hooks/gate.sh", `. "$HOOKCTL_WORKSPACE/lib.sh"`},
		{"unreadable CDPATH", "./hooks/gate.sh", `cd hooks; CDPATH=../evil; cd sub; . ./lib.sh` + "\necho \"$(\n"},
		{"unreadable workspace", "./hooks/gate.sh", `HOOKCTL_WORKSPACE=$PWD/other; . "$HOOKCTL_WORKSPACE/lib.sh"` + "\necho \"$(\n"},
		{"unreadable eval cd", "./hooks/gate.sh", `eval 'cd hooks/sub'; . ./lib.sh` + "\necho \"$(\n"},
		{"unreadable builtin cd", "./hooks/gate.sh", `builtin cd hooks/sub; . ./lib.sh` + "\necho \"$(\n"},
		{"unreadable function", "./hooks/gate.sh", `f() { cd hooks/sub; }; f; . ./lib.sh` + "\necho \"$(\n"},
		{"unreadable alias", "./hooks/gate.sh", `alias f='cd hooks/sub'` + "\nf; . ./lib.sh\necho \"$(\n"},
		{"interactive", "bash --rcfile hooks/rc.sh -i hooks/gate.sh", `cd hooks; cd sub; . ./lib.sh`},
		{"quoted read", "./hooks/gate.sh", `D="$(dirname "$0")"; 'read' D <<EOF` + "\nother\nEOF\n" + `. "$D/lib.sh"`},
		{"quoted eval", "./hooks/gate.sh", `D="$(dirname "$0")"; 'eval' 'D=other'; . "$D/lib.sh"`},
		{"escaped export", "./hooks/gate.sh", `D="$(dirname "$0")"; \export D=other; . "$D/lib.sh"`},
		{"quoted cd in function", "./hooks/gate.sh", `f() { 'cd' hooks/sub; }; f; . ./lib.sh`},
		{"quoted cd sourced", "./hooks/gate.sh", `. ./hooks/qcd.sh; . ./lib.sh`},
		{"sourced calls function", "./hooks/gate.sh", `f() { cd hooks/sub; }; . ./hooks/callf2.sh; . ./lib.sh`},
		{"quoted dirname function", "./hooks/gate.sh", `'dirname'() { echo other; }; . "$(dirname "$0")/lib.sh"`},
		{"BASH_CMDS", "bash hooks/gate.sh", `BASH_CMDS[dirname]=$PWD/bin/dirname; . "$(dirname "$0")/lib.sh"`},
		{"BASH_ALIASES", "bash hooks/gate.sh", `set -o posix; BASH_ALIASES[cd]=:` + "\ncd hooks/sub; . ./lib.sh"},
		{"BASH_CMDS sourced", "bash hooks/gate.sh", `. ./hooks/cmds.sh; . "$(dirname "$0")/lib.sh"`},
	} {
		for _, shebang := range []string{"#!/bin/sh", "#!/bin/bash"} {
			t.Run(tc.name+"/"+shebang[7:], func(t *testing.T) {
				body := shebang + "\n" + tc.script + "\n"
				write(t, filepath.Join(agents, "hooks/gate.sh"), body)
				ran, out := markRan(agents, w, tc.command)
				refs, _ := Parse(tc.command, agents, w).Refs()
				var main *Ref
				for i := range refs {
					if strings.HasSuffix(refs[i].Path, "gate.sh") {
						main = &refs[i]
					}
				}
				if main == nil {
					t.Skipf("no script in %q: %v", tc.command, refs)
				}
				start := main.StartOf(Start{}, strings.Contains(shebang, "bash"))
				got := deepestSourced(ParseScript(body, main.Call.Dir, w, start, readSourced), w, start, 0)
				if got != "" && got != ran {
					t.Errorf("read as sourcing %s, but the shell sourced %q (%s); started as %v\n%s", got, ran, out, start, body)
				}
			})
		}
	}
}

// deepestSourced is lastSourced, followed into the file sourced when it
// is not one of the lib.sh files that print where they are.
func deepestSourced(c *Command, w string, start Start, depth int) string {
	got := lastSourced(c)
	b, err := os.ReadFile(got)
	if got == "" || err != nil || strings.Contains(string(b), "MARK:") || depth > 3 {
		return got
	}
	refs, _ := c.Refs()
	for _, r := range refs {
		if r.Role == Script && Resolve(r.Path) == got {
			return deepestSourced(ParseScript(string(b), r.Call.Dir, w, r.StartOf(start, false), readSourced), w, r.StartOf(start, false), depth+1)
		}
	}
	return got
}

// TestCommandFolderAgainstItsOwnCode runs handler commands that change,
// in ways a cd's word does not show, the folder a later line sources from,
// or the workspace's variable, with dash, and checks that Parse never names
// a file dash did not source.
func TestCommandFolderAgainstItsOwnCode(t *testing.T) {
	w := shellTree(t)
	agents := filepath.Join(w, ".agents")
	if err := os.MkdirAll(filepath.Join(agents, "evil/sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(agents, "evil/sub/lib.sh"), "echo MARK:.agents/evil/sub/lib.sh\n")
	for _, command := range []string{
		`CDPATH=evil; cd sub; . ./lib.sh`,
		`export CDPATH=evil; cd sub && . ./lib.sh`,
		`eval 'cd hooks/sub'; . ./lib.sh`,
		`builtin cd hooks/sub; . ./lib.sh`,
		`pushd hooks/sub; . ./lib.sh`,
		`false && cd hooks/sub; . ./lib.sh`,
		`f() { cd hooks/sub; }; f; . ./lib.sh`,
		`alias f='cd hooks/sub'` + "\n" + `f; . ./lib.sh`,
		`HOOKCTL_WORKSPACE=$PWD/other; . "$HOOKCTL_WORKSPACE/lib.sh"`,
		`X=cd; $X hooks/sub; . ./lib.sh`,
		`CDPATH=evil cd sub; . ./lib.sh`,
	} {
		ran, _ := markRan(agents, w, command)
		got := lastSourced(Parse(command, agents, w))
		if got != "" && got != ran {
			t.Errorf("%s: read as sourcing %s, the shell sourced %q", command, got, ran)
		}
	}
}

// markRan runs command with /bin/sh -c in dir, $HOOKCTL_WORKSPACE set to
// w, and returns the file of w that printed the last "MARK:" line ("" for
// none) and all the shell printed.
func markRan(dir, w, command string) (string, string) {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOOKCTL_WORKSPACE="+w)
	out, _ := cmd.CombinedOutput()
	ran := ""
	for _, l := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(l, "MARK:"); ok {
			ran = filepath.Join(w, m)
		}
	}
	return ran, string(out)
}
