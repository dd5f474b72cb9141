// Package testenv is what the tests ask of the machine they run on: the
// programs a test drives (Need, Want), whether the run is CI's (CI), and
// the environment of test binaries that run handlers many times (Main), and
// how many tests run at once in packages whose tests mostly wait (Waiting).
//
// Tests drive the real programs users have (shells, jq, node, ShellCheck,
// git, Neovim...). Where one is missing a test is skipped and says which;
// under HOOKCTL_CI=1, which .ci/run sets after installing every program a
// test drives, it fails instead, so that CI never passes by skipping.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// CI reports whether the tests run in CI: HOOKCTL_CI is set, to anything
// but 0 (.ci/run sets HOOKCTL_CI=1). There everything a test needs is
// installed and allowed, so a test fails where it would else be skipped.
func CI() bool {
	v := os.Getenv("HOOKCTL_CI")
	return v != "" && v != "0"
}

// Need returns the path of program, looked up in PATH. When it is missing
// the test stops: failed under HOOKCTL_CI=1, skipped otherwise, saying
// which program is missing either way.
func Need(t testing.TB, program string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err == nil {
		return path
	}
	if CI() {
		t.Fatalf("%s is not on PATH, and HOOKCTL_CI says this is CI, where every program a test drives is installed: install it (.ci/run does)", program)
	}
	t.Skipf("%s is not on PATH: this test drives it", program)
	return ""
}

// Want returns the path of program, looked up in PATH, for a test that
// leaves out the cases that need it and runs the others. When it is
// missing Want returns "", and the test fails under HOOKCTL_CI=1 (and goes
// on); otherwise it logs the cases left out.
func Want(t testing.TB, program, cases string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err == nil {
		return path
	}
	if CI() {
		t.Errorf("%s is not on PATH, and HOOKCTL_CI says this is CI, where every program a test drives is installed: install it (.ci/run does)", program)
	} else {
		t.Logf("%s is not on PATH: %s are left out", program, cases)
	}
	return ""
}
