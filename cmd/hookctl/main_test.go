package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookctl/hookctl/internal/testenv"
)

var updateScripts = flag.Bool("update", false, "rewrite the golden files of testdata/script from the real output")

// noShellcheck is a ShellCheck that finds nothing, which the tests use
// unless they ask for the real one.
var noShellcheck, _ = filepath.Abs(filepath.Join("testdata", "shellcheck-none"))

// TestMain lets the test binary act as hookctl, for the tests that find it
// on PATH, and runs the tests with the real python3 first on PATH
// (testenv.RealPython), four at once: the parallel ones spend much of
// their time waiting on the processes they start.
func TestMain(m *testing.M) {
	if os.Getenv("HOOKCTL_SHELLCHECK") == "" {
		os.Setenv("HOOKCTL_SHELLCHECK", noShellcheck)
	}
	testscript.Main(realPython{m}, map[string]func(){
		"hookctl": func() { os.Exit(run(os.Args, streams{os.Stdin, os.Stdout, os.Stderr})) },
	})
}

// realPython runs the tests with the real python3 first on PATH, four at
// once.
type realPython struct{ m *testing.M }

func (r realPython) Run() int {
	testenv.Waiting(4)
	defer testenv.RealPython()()
	return r.m.Run()
}

// TestScripts runs the end-to-end scripts of testdata/script: each is a
// txtar archive of files and hookctl command lines with their expected exit
// status and output. They run hookctl as built for users, first on PATH:
// the scripts start it hundreds of times, and it starts in half the time
// of the test binary acting as it.
func TestScripts(t *testing.T) {
	t.Parallel()
	bin := filepath.Dir(hookctlBinary(t))
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *updateScripts,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			if err := copyFile("../../schema/hooks.schema.json", env.WorkDir+"/schema.json"); err != nil {
				return err
			}
			if err := copyFile("../../schema/hookctl.schema.json", env.WorkDir+"/config.schema.json"); err != nil {
				return err
			}
			// A home of its own, so the user's hooks.json never leaks in.
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/home/.config")
			env.Setenv("NO_COLOR", "")
			env.Setenv("HOOKCTL_SHELLCHECK", noShellcheck)
			// The workspace a command finds is looked for no higher than
			// the script's own folder: what lies above it is the machine's.
			env.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(env.WorkDir))
			env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
			return os.MkdirAll(env.WorkDir+"/home", 0o755)
		},
	})
}

// hookctlOnPath returns a new folder that holds hookctl, as built for
// users (hookctlBinary): a real process.
func hookctlOnPath(t *testing.T) string {
	t.Helper()
	exe := hookctlBinary(t)
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "hookctl")); err != nil {
		t.Fatal(err)
	}
	return bin
}

// machineOf is the environment of hookctl processes that must touch
// nothing of the user's: the test's, with home as the home folder (its
// configuration and state inside), no log of runs, the ShellCheck that
// finds nothing, and bin first on PATH.
func machineOf(home, bin string) []string {
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "HOOKCTL_LOG=", "HOOKCTL_SHELLCHECK="+noShellcheck,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}
