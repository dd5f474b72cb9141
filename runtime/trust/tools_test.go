package trust

import (
	"os"
	"os/exec"
	"testing"
)

// needTools skips the test when one of the programs it runs is not on
// PATH, and fails it under HOOKCTL_CI, where .ci/run installs them.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("HOOKCTL_CI") != "" {
				t.Fatalf("%s is not on PATH, and HOOKCTL_CI says this is CI, where this test must run it: install it (.ci/run does)", tool)
			}
			t.Skipf("no %s", tool)
		}
	}
}
