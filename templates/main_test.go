package templates

import (
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestMain puts the real python3 first on PATH (see testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }
