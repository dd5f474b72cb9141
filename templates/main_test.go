package templates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain puts the real python3 first on PATH: version managers' shims
// (pyenv) start a shell script before every interpreter, which would make
// the hundreds of handler runs of these tests slow for no gain.
func TestMain(m *testing.M) {
	if out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output(); err == nil {
		if dir, err := os.MkdirTemp("", "hookctl-python"); err == nil {
			if os.Symlink(strings.TrimSpace(string(out)), filepath.Join(dir, "python3")) == nil {
				os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
			}
			code := m.Run()
			os.RemoveAll(dir)
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}
