package trust

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNestedHookctlIsCovered: the hooks.json files a handler's hookctl
// run --config and hookctl test run, the test files hookctl test reads,
// and what their handlers run, are covered; a hooks.json outside the
// workspace is read for the workspace's files its handlers run.
func TestNestedHookctlIsCovered(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.json")
	if err := os.WriteFile(outside, []byte(`{"o": {"Stop": [{"command": "\"$HOOKCTL_WORKSPACE/tools/o.sh\""}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		command string
		covers  []string
		gap     string
	}{
		{"hookctl test ../sub/.agents/hooks.test.json", []string{"sub/.agents/hooks.test.json", "sub/.agents/hooks.json", "sub/.agents/gate.sh"}, ""},
		{"hookctl test ../sub", []string{"sub/.agents/hooks.test.json", "sub/.agents/hooks.json", "sub/.agents/gate.sh"}, ""},
		{"cd ../sub && hookctl test", []string{"sub/.agents/hooks.test.json", "sub/.agents/hooks.json", "sub/.agents/gate.sh"}, ""},
		// hookctl test finds its workspace upward, as every command does:
		// from .agents and from a folder without one, the workspace's.
		{"hookctl test", []string{".agents/hooks.test.json"}, ""},
		{"cd ../tools && hookctl test", []string{".agents/hooks.test.json"}, ""},
		{"cd ../sub/deep && hookctl test --contract", []string{"sub/.agents/hooks.json", "sub/.agents/gate.sh"}, ""},
		{"hookctl test --workspace ../sub ../t.json", []string{"t.json", "sub/.agents/hooks.json", "sub/.agents/gate.sh"}, ""},
		{"hookctl run Stop --config " + outside, []string{"tools/o.sh"}, ""},
		// A hooks.json whose handlers run hookctl again, past the depth
		// trust follows.
		{"hookctl run Stop --config ../loop.json", []string{"loop.json", "loop2.json"}, ""},
		{"hookctl run Stop --config ../deep1.json", []string{"deep1.json", "deep2.json", "deep3.json", "deep4.json"}, "more than 4 deep"},
	} {
		root, _ := trusted(t, c.command, map[string]string{
			"sub/.agents/hooks.json":      `{"g": {"Stop": [{"command": "./gate.sh"}]}}`,
			"sub/.agents/gate.sh":         "#!/bin/sh\n",
			"sub/.agents/hooks.test.json": `{"tests": []}`,
			".agents/hooks.test.json":     `{"tests": []}`,
			"t.json":                      `{"tests": []}`,
			"tools/o.sh":                  "#!/bin/sh\n",
			"loop.json":                   `{"l": {"Stop": [{"command": "hookctl run Stop --config loop2.json"}]}}`,
			"loop2.json":                  `{"l": {"Stop": [{"command": "hookctl run Stop --config loop.json"}]}}`,
			"deep1.json":                  `{"l": {"Stop": [{"command": "hookctl run Stop --config deep2.json"}]}}`,
			"deep2.json":                  `{"l": {"Stop": [{"command": "hookctl run Stop --config deep3.json"}]}}`,
			"deep3.json":                  `{"l": {"Stop": [{"command": "hookctl run Stop --config deep4.json"}]}}`,
			"deep4.json":                  `{"l": {"Stop": [{"command": "hookctl run Stop --config deep5.json"}]}}`,
			"deep5.json":                  `{"l": {"Stop": [{"command": "./x.sh"}]}}`,
		})
		cmd := take(t, root).Commands[0]
		for _, f := range c.covers {
			if !slices.Contains(cmd.Files, f) {
				t.Errorf("%s: covered %q, want %s", c.command, cmd.Files, f)
			}
		}
		if got := strings.Join(cmd.Gaps, "; "); c.gap == "" && got != "" || !strings.Contains(got, c.gap) {
			t.Errorf("%s: named %q, want %q", c.command, got, c.gap)
		}
	}
}

// TestProbedNestedAndGit: what a nested hooks.json (outside the workspace
// too) names, and where git looks for a repository, are among the paths a
// record's probes answer for: after a change there, the quick check says
// what a fresh snapshot says, and the workspace is not trusted.
func TestProbedNestedAndGit(t *testing.T) {
	for name, attack := range map[string]func(t *testing.T, root, outside string){
		"the outside hooks.json runs another file": func(t *testing.T, root, outside string) {
			if err := os.WriteFile(outside, []byte(`{"o": {"Stop": [{"command": "\"$HOOKCTL_WORKSPACE/tools/p.sh\""}]}}`), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"a repository is planted": func(t *testing.T, root, _ string) {
			write(t, root, ".agents/HEAD", "ref: refs/heads/main\n")
		},
		"the nested hooks.json's script changes": func(t *testing.T, root, _ string) {
			write(t, root, "tools/x.sh", "#!/bin/sh\nevil\n")
		},
		"a workspace appears where hookctl test finds one": func(t *testing.T, root, _ string) {
			write(t, root, "tools/.agents/hooks.json", `{"e": {"Stop": [{"command": "./evil.sh"}]}}`)
			write(t, root, "tools/.agents/hooks.test.json", `{"tests": [{"name": "x", "event": "Stop"}]}`)
			write(t, root, "tools/.agents/evil.sh", "#!/bin/sh\nevil\n")
		},
	} {
		t.Run(name, func(t *testing.T) {
			outside := filepath.Join(t.TempDir(), "outside.json")
			if err := os.WriteFile(outside, []byte(`{"o": {"Stop": [{"command": "\"$HOOKCTL_WORKSPACE/tools/o.sh\""}]}}`), 0o644); err != nil {
				t.Fatal(err)
			}
			root, err := Key(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			write(t, root, HooksFile, `{"h": {"Stop": [{"command": "hookctl run Stop --config `+outside+`; hookctl run Stop --config ../inner.json; git status; cd ../tools && hookctl test"}]}}`)
			write(t, root, "inner.json", `{"i": {"Stop": [{"command": "./tools/x.sh"}]}}`)
			write(t, root, "tools/x.sh", "#!/bin/sh\n")
			write(t, root, "tools/o.sh", "#!/bin/sh\n")
			write(t, root, "tools/p.sh", "#!/bin/sh\n")
			cfg := loadConfig(t, root)
			snap := FromConfig(root, cfg)
			rec := NewRecord(snap, time.Now())
			rec.Probed = ProbedOf(snap, rec)
			st := &Store{Workspaces: map[string]*Record{root: rec}}
			if !rec.Unchanged(cfg) {
				t.Fatal("an unchanged workspace is not taken as unchanged")
			}
			attack(t, root, outside)
			ok, why := st.Verify(root, cfg)
			fok, fwhy := st.Check(FromConfig(root, cfg))
			if ok || ok != fok || why != fwhy {
				t.Errorf("after the change: checked %v %q, fresh %v %q", ok, why, fok, fwhy)
			}
		})
	}
}
