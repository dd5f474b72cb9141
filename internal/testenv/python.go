package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Main runs the tests (a *testing.M, or one that wraps it) with the real
// python3 first on PATH (RealPython), then exits with their status.
func Main(m interface{ Run() int }) {
	undo := RealPython()
	code := m.Run()
	undo()
	os.Exit(code)
}

// RealPython puts the real python3 first on PATH, for a test binary that
// runs handlers many times, and returns what undoes it. Version managers'
// shims (pyenv) start a shell script and a dozen programs before every
// interpreter, which makes hundreds of handler runs slow for no gain.
// Where python3 does not run, PATH is left as it is.
func RealPython() (undo func()) {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return func() {}
	}
	dir, err := os.MkdirTemp("", "hookctl-python")
	if err != nil {
		return func() {}
	}
	path := os.Getenv("PATH")
	if os.Symlink(strings.TrimSpace(string(out)), filepath.Join(dir, "python3")) == nil {
		os.Setenv("PATH", dir+string(os.PathListSeparator)+path)
	}
	return func() {
		os.Setenv("PATH", path)
		os.RemoveAll(dir)
	}
}
