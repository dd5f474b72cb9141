package trust

import (
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// needTools skips the test when one of the programs it runs is not on
// PATH, and fails it under HOOKCTL_CI, where .ci/run installs them.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		testenv.Need(t, tool)
	}
}
