package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Go initialises every package linked into hookctl before main, whatever
// the command, and hookctl run and trace start before every tool call of
// the agent: work done at a package's initialisation is paid on that path.
// These tests keep the heavy kinds out: a regular expression compiled at
// package level (internal/lazyre compiles on first use), a large table
// built at package level (sync.OnceValue builds it on first use), and the
// libraries a release build leaves out.

// ownInitBytes is the most one of hookctl's packages may allocate at its
// initialisation. A compiled regular expression takes several KB, the
// templates' tables took 69 KB and shellcmd's 33 KB; the largest left
// take about 11 KB.
const ownInitBytes = 16 << 10

// notLinked are packages whose initialisation a release build of hookctl
// must not run: the CLI library's man-page generator (left out by
// -tags urfave_cli_no_docs) and net, which a UUID library brought in.
var notLinked = []string{
	"github.com/russross/blackfriday/v2",
	"github.com/cpuguy83/go-md2man/v2/md2man",
	"net",
}

// TestInitWork builds hookctl as a release is built and reads what
// GODEBUG=inittrace=1 says each package allocated before main: counts,
// not times, so the verdict does not depend on the machine's load.
func TestInitWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	bin := releaseBinary(t, t.TempDir())
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hookctl --version: %v\n%s", err, stderr.String())
	}
	// init github.com/x/y @1.2 ms, 0.05 ms clock, 3056 bytes, 31 allocs
	line := regexp.MustCompile(`(?m)^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, (\d+) bytes, (\d+) allocs$`)
	inits := map[string]int{}
	for _, m := range line.FindAllStringSubmatch(stderr.String(), -1) {
		n, _ := strconv.Atoi(m[2])
		inits[m[1]] = n
	}
	if _, ok := inits["main"]; !ok {
		t.Fatalf("GODEBUG=inittrace=1 printed no line of the form this test reads, or none for main:\n%s", stderr.String())
	}
	for _, pkg := range notLinked {
		if _, ok := inits[pkg]; ok {
			t.Errorf("%s is initialised at every start of hookctl: it should not be linked into a release build", pkg)
		}
	}
	for pkg, n := range inits {
		if (pkg == "main" || strings.HasPrefix(pkg, "github.com/hookctl/hookctl/")) && n > ownInitBytes {
			t.Errorf("%s allocates %d bytes at every start of hookctl (at most %d): build its tables on first use (sync.OnceValue, internal/lazyre)", pkg, n, ownInitBytes)
		}
	}
}

// TestNoRegexpAtPackageLevel: no package linked into hookctl compiles a
// regular expression in a package-level variable's initialiser; each is
// compiled on first use through internal/lazyre.
func TestNoRegexpAtPackageLevel(t *testing.T) {
	list := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Module.Path}} {{.Dir}} {{join .GoFiles \" \"}}{{end}}", ".")
	list.Env = append(os.Environ(), "GOFLAGS=")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	checked := 0
	for l := range strings.Lines(string(out)) {
		fields := strings.Fields(l)
		if len(fields) < 2 || fields[0] != "github.com/hookctl/hookctl" {
			continue
		}
		for _, name := range fields[2:] {
			file := filepath.Join(fields[1], name)
			f, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				ast.Inspect(g, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.FuncLit:
						return false // runs when called, not at initialisation
					case *ast.SelectorExpr:
						if id, ok := x.X.(*ast.Ident); ok && id.Name == "regexp" && (strings.HasPrefix(x.Sel.Name, "MustCompile") || strings.HasPrefix(x.Sel.Name, "Compile")) {
							t.Errorf("%s: a regular expression compiled at every start of hookctl: use internal/lazyre", fset.Position(x.Pos()))
						}
					}
					return true
				})
			}
		}
	}
	if checked < 50 {
		t.Fatalf("go list named %d of hookctl's files, expected many more:\n%s", checked, out)
	}
}

// releaseBinary builds hookctl into dir as .goreleaser.yaml builds a
// release.
func releaseBinary(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "hookctl")
	build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkStartup starts, in turn, a Go program that prints one line,
// hookctl --version, minwrap /bin/true and hookctl trace -- /bin/true, all
// built as releases are, and reports each one's mean wall time and the two
// ratios of docs/performance.md's start-up goals: x-hello (--version over
// the Go program, at most 1.5) and x-minwrap (trace over minwrap, at most
// 1.3).
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	bin, minwrap := releaseBinary(b, dir), minwrapBinary(b)
	hello := filepath.Join(dir, "hello")
	if err := os.MkdirAll(hello+"-src", 0o755); err != nil {
		b.Fatal(err)
	}
	for name, text := range map[string]string{
		"main.go": "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"hello\\n\") }\n",
		"go.mod":  "module hello\n\ngo 1.26\n",
	} {
		if err := os.WriteFile(filepath.Join(hello+"-src", name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", hello, ".")
	build.Dir, build.Env = hello+"-src", append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(os.Environ(), "HOOKCTL_LOG="+filepath.Join(dir, "runs.jsonl"), "TMPDIR="+dir)
	run := func(argv ...string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%q: %v", argv, err)
		}
		return time.Since(start)
	}
	var plain, version, wrapped, traced time.Duration
	for b.Loop() {
		plain += run(hello)
		version += run(bin, "--version")
		wrapped += run(minwrap, "/bin/true")
		traced += run(bin, "trace", "--", "/bin/true")
	}
	n := float64(b.N)
	b.ReportMetric(float64(plain)/n/1e6, "hello-ms")
	b.ReportMetric(float64(version)/n/1e6, "version-ms")
	b.ReportMetric(float64(wrapped)/n/1e6, "minwrap-ms")
	b.ReportMetric(float64(traced)/n/1e6, "trace-ms")
	b.ReportMetric(float64(version)/float64(plain), "x-hello")
	b.ReportMetric(float64(traced)/float64(wrapped), "x-minwrap")
}
