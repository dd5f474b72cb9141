package convert

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkConvert reads and converts the largest real Claude Code
// configuration of the corpus (22 hooks, 17 KB), scripts scanned and
// commands parsed: the whole of hookctl import but the output.
func BenchmarkConvert(b *testing.B) {
	path := filepath.Join("..", "..", "testdata", "realworld", "095.json")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	opts := Options{Target: filepath.Join(dir, ".agents", "hooks.json"), Root: dir}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		s, err := Parse(workDir(b), path, src, "")
		if err != nil {
			b.Fatal(err)
		}
		if res := Convert(s, opts); len(res.Hooks) == 0 {
			b.Fatal("nothing converted")
		}
	}
}

// BenchmarkConvertMatcher rewrites a matcher of many alternatives.
func BenchmarkConvertMatcher(b *testing.B) {
	for b.Loop() {
		convertMatcher("^(?:Bash|Read|Edit|MultiEdit|Write|apply_patch|exec_command|shell|shell_command|mcp__.*)$")
	}
}
