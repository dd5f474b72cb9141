package runtime

import (
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestMain runs eight tests at once: most of them wait on handlers'
// timeouts, sleeps and the processes they leave, not on the CPU.
func TestMain(m *testing.M) {
	testenv.Waiting(8)
	m.Run()
}
