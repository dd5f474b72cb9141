package schema

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestImportsPointOneWay holds the layers of the module: schema, runtime
// and templates are read by lint, scaffold and the command, never the other
// way round, even through another package (go list's Deps is every package
// a package needs, at any depth).
func TestImportsPointOneWay(t *testing.T) {
	goTool := testenv.Need(t, "go")
	cmd := exec.Command(goTool, "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`,
		"./runtime/...", "./schema/...", "./templates/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/hookctl/hookctl/"
	above := []string{"lint", "scaffold", "cmd"}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		seen++
		for _, dep := range strings.Fields(deps) {
			rel, ok := strings.CutPrefix(dep, module)
			if !ok {
				continue
			}
			for _, a := range above {
				if rel == a || strings.HasPrefix(rel, a+"/") {
					t.Errorf("%s imports %s: schema, runtime and templates must not import lint, scaffold or cmd", pkg, dep)
				}
			}
		}
	}
	if seen < 5 {
		t.Fatalf("go list named %d packages, want every package under runtime, schema and templates:\n%s", seen, out)
	}
}
