package trust

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// benchWorkspace writes a workspace of n hooks, each with its own script
// of about 2 KiB.
func benchWorkspace(b *testing.B, n int) string {
	root, err := Key(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	var hooks []string
	for i := range n {
		hooks = append(hooks, fmt.Sprintf(`"h%d":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"python3 hooks/h%d.py --strict"}]}]}`, i, i))
		p := filepath.Join(root, ".agents", "hooks", fmt.Sprintf("h%d.py", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(strings.Repeat("print('x')\n", 200)), 0o644)
	}
	os.WriteFile(filepath.Join(root, HooksFile), []byte("{"+strings.Join(hooks, ",")+"}"), 0o644)
	return root
}

// BenchmarkCheck is what hookctl run adds to every dispatch of a trusted
// workspace: fingerprint the loaded hooks.json and its scripts, compare.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			root := benchWorkspace(b, n)
			src, _ := os.ReadFile(filepath.Join(root, HooksFile))
			cfg := schema.Parse(filepath.Join(root, HooksFile), src)
			st := &Store{Workspaces: map[string]*Record{}}
			st.Workspaces[root] = NewRecord(FromConfig(root, cfg), time.Now())
			b.ResetTimer()
			for b.Loop() {
				if ok, why := st.Check(FromConfig(root, cfg)); !ok {
					b.Fatal(why)
				}
			}
		})
	}
}

// BenchmarkVerify is what hookctl run really does: the same check, reading
// only the files whose StatID changed since they were trusted (none here).
func BenchmarkVerify(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			root := benchWorkspace(b, n)
			src, _ := os.ReadFile(filepath.Join(root, HooksFile))
			cfg := schema.Parse(filepath.Join(root, HooksFile), src)
			st := &Store{Workspaces: map[string]*Record{}}
			st.Workspaces[root] = NewRecord(FromConfig(root, cfg), time.Now())
			b.ResetTimer()
			for b.Loop() {
				if ok, why := st.Verify(root, cfg); !ok {
					b.Fatal(why)
				}
			}
		})
	}
}

// BenchmarkOpen reads a store of 100 trusted workspaces with their kept
// contents at the store's bound, as hookctl run does once per dispatch.
func BenchmarkOpen(b *testing.B) {
	st := &Store{Path: filepath.Join(b.TempDir(), "trust.json"), Workspaces: map[string]*Record{}}
	text := strings.Repeat("echo checking the command line\n", 2000)
	for i := range 100 {
		snap := &Snapshot{Fingerprint: "sha256:" + strings.Repeat("0", 64)}
		snap.Files = append(snap.Files, hashBytes(HooksFile, []byte(text)), hashBytes(".agents/hooks/a.sh", []byte(text)))
		st.Workspaces[fmt.Sprintf("/home/u/src/project%d", i)] = NewRecord(snap, time.Now().Add(time.Duration(i)*time.Minute))
	}
	if err := st.Save(); err != nil {
		b.Fatal(err)
	}
	info, _ := os.Stat(st.Path)
	b.ReportMetric(float64(info.Size())/1024, "KiB/store")
	for b.Loop() {
		if _, err := Open(st.Path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyGapEveryLine checks a trusted workspace whose script, at
// the bound of what is read for imports, runs code from a string on every
// line: each line is a gap named with its line number.
func BenchmarkVerifyGapEveryLine(b *testing.B) {
	root, err := Key(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(root, ".agents", "hooks", "g.py")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(strings.Repeat("exec(1)\n", maxParsed/8)), 0o644)
	os.WriteFile(filepath.Join(root, HooksFile), []byte(`{"g":{"Stop":[{"command":"python3 hooks/g.py"}]}}`), 0o644)
	src, _ := os.ReadFile(filepath.Join(root, HooksFile))
	cfg := schema.Parse(filepath.Join(root, HooksFile), src)
	st := &Store{Workspaces: map[string]*Record{}}
	snap := FromConfig(root, cfg)
	if n := len(snap.Commands[0].Gaps); n != maxParsed/8 {
		b.Fatalf("%d gaps, want one a line (%d)", n, maxParsed/8)
	}
	st.Workspaces[root] = NewRecord(snap, time.Now())
	b.ResetTimer()
	for b.Loop() {
		if ok, why := st.Verify(root, cfg); !ok {
			b.Fatal(why)
		}
	}
}

// followWorkspace writes a trusted workspace of the kind named: "small",
// three hooks with small shell and Python scripts; "shell1MiB", a hook
// whose 1 MiB shell script sources two others; "python", a hook whose
// script imports a package of modules.
func followWorkspace(tb testing.TB, kind string) (string, *schema.Config) {
	root, err := Key(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	w := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	switch kind {
	case "small":
		w(HooksFile, `{"a":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"sh hooks/a.sh"},{"command":"python3 hooks/b.py"},{"command":"node hooks/c.js"}]}]}}`)
		w(".agents/hooks/a.sh", ". ./hooks/lib.sh\necho a\n")
		w(".agents/hooks/lib.sh", "x=1\n")
		w(".agents/hooks/b.py", "import json\nimport util\nprint(1)\n")
		w(".agents/hooks/util.py", "X = 1\n")
		w(".agents/hooks/c.js", "const l = require('./l')\n")
		w(".agents/hooks/l.js", "module.exports = 1\n")
	case "shell1MiB":
		w(HooksFile, `{"a":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"sh hooks/big.sh"}]}]}}`)
		line := "echo \"checking $1\" | grep -q x && exit 2\n"
		w(".agents/hooks/big.sh", ". ./hooks/lib1.sh\n. ./hooks/lib2.sh\n"+strings.Repeat(line, maxParsed/len(line)-1))
		w(".agents/hooks/lib1.sh", "x=1\n")
		w(".agents/hooks/lib2.sh", "y=1\n")
	case "python":
		w(HooksFile, `{"a":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"python3 hooks/main.py"}]}]}}`)
		var imports []string
		for i := range 20 {
			imports = append(imports, fmt.Sprintf("import pkg.m%d\n", i))
			w(fmt.Sprintf(".agents/hooks/pkg/m%d.py", i), "import json\nimport os\n"+strings.Repeat("def f(): return 1\n", 200))
		}
		w(".agents/hooks/pkg/__init__.py", "")
		w(".agents/hooks/main.py", strings.Join(imports, "")+strings.Repeat("print(1)\n", 1000))
	}
	src, err := os.ReadFile(filepath.Join(root, HooksFile))
	if err != nil {
		tb.Fatal(err)
	}
	return root, schema.Parse(filepath.Join(root, HooksFile), src)
}

// BenchmarkVerifyFollow is hookctl run's check of a trusted workspace
// whose scripts load others, unchanged since it was trusted.
func BenchmarkVerifyFollow(b *testing.B) {
	for _, kind := range []string{"small", "shell1MiB", "python"} {
		b.Run(kind, func(b *testing.B) {
			root, cfg := followWorkspace(b, kind)
			st := &Store{Workspaces: map[string]*Record{root: NewRecord(FromConfig(root, cfg), time.Now())}}
			b.ResetTimer()
			for b.Loop() {
				if ok, why := st.Verify(root, cfg); !ok {
					b.Fatal(why)
				}
			}
		})
	}
}
