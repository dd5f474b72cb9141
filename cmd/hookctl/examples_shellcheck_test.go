package main

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestExamplesCleanUnderShellCheck: the README says examples/ lints
// clean, and users who have ShellCheck installed get its findings on the
// bundled scripts too; so examples/ must be clean with the real
// ShellCheck, not only with the stand-in the other tests use.
func TestExamplesCleanUnderShellCheck(t *testing.T) {
	bin := testenv.Need(t, "shellcheck")
	t.Setenv("HOOKCTL_SHELLCHECK", bin)
	var out, errOut strings.Builder
	code := run([]string{"hookctl", "--color", "never", "lint", "--fail-on", "info", "../../examples"}, streams{strings.NewReader(""), &out, &errOut})
	if code != 0 || out.String() != "no problems in 1 file\n" {
		t.Fatalf("hookctl lint --fail-on info examples: exit %d with ShellCheck %s\n%s%s", code, bin, out.String(), errOut.String())
	}
}
