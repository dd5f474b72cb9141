package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestREADMETraceExample keeps the README's "Why didn't my hook run?" true:
// its hooks.json, run as the agent runs handlers (sh -c in .agents, the
// payload on stdin), gives the log it shows, but for the times, durations,
// IDs and folders, which differ on every run.
func TestREADMETraceExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Why didn't my hook run?\n")
	if !ok {
		t.Fatal("the README has no \"Why didn't my hook run?\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	block := func(after string) string {
		t.Helper()
		_, rest, ok := strings.Cut(section, after)
		if !ok {
			t.Fatalf("the section has no %q", after)
		}
		b, _, _ := strings.Cut(rest, "```")
		return b
	}

	dir := t.TempDir()
	ws := filepath.Join(dir, "project")
	agents := filepath.Join(ws, ".agents")
	os.MkdirAll(filepath.Join(agents, "hooks"), 0o755)
	write := func(name, text string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(agents, name), []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("hooks.json", block("```json\n"), 0o644)
	write("hooks/gate.sh", "#!/bin/sh\ncase \"$(cat)\" in\n  *'rm -rf'*) echo 'rm -rf deletes more than a task needs: delete the exact paths' >&2; exit 2 ;;\n"+
		"esac\necho '{\"decision\":\"allow\"}'\n", 0o644) // not executable, as the README's story starts
	write("hooks/format.sh", "#!/bin/sh\ncat >/dev/null\n", 0o755)

	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home"), "TZ=UTC"}
	var cfg map[string]map[string][]struct {
		Hooks []struct{ Command string }
	}
	b, _ := os.ReadFile(filepath.Join(agents, "hooks.json"))
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("the README's hooks.json: %v", err)
	}
	agent := func(hook, event, payload string) {
		t.Helper()
		cmd := exec.Command("/bin/sh", "-c", cfg[hook][event][0].Hooks[0].Command)
		cmd.Dir, cmd.Env, cmd.Stdin = agents, env, strings.NewReader(payload+"\n")
		cmd.Run()
	}
	hookctl := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("hookctl", args...)
		cmd.Dir, cmd.Env = ws, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hookctl %q: %v", args, err)
		}
		return string(out)
	}
	const common = `"conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/home/dev/project"],"modelName":"gemini-3.6-flash-medium"}`
	rmCall := `{"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf build"}},"stepIdx":4,` + common
	agent("gate", "PreToolUse", rmCall)
	agent("format", "PostToolUse", `{"toolCall":{"name":"write_to_file","args":{"TargetFile":"/home/dev/project/main.go"}},"stepIdx":5,"error":"",`+common)

	sameTable(t, "hookctl log", hookctl("log"), block("$ hookctl log\n"))

	showLine := regexp.MustCompile("\\$ hookctl log --show (\\w+)\n").FindStringSubmatch(section)
	if showLine == nil || !strings.Contains(block("$ hookctl log\n"), " "+showLine[1]) {
		t.Fatal("the section's --show does not take a prefix of an ID its table shows")
	}
	var rec struct{ ID string }
	if err := json.Unmarshal([]byte(strings.Split(hookctl("log", "--json", "-n", "2"), "\n")[0]), &rec); err != nil || len(rec.ID) < 4 {
		t.Fatalf("the gate's record: %v %q", err, rec.ID)
	}
	got := hookctl("log", "--show", rec.ID[:4])
	sameRecord(t, got, block(showLine[0]))

	os.Chmod(filepath.Join(agents, "hooks", "gate.sh"), 0o755)
	agent("gate", "PreToolUse", rmCall)
	sameTable(t, "hookctl log -n 1", hookctl("log", "-n", "1"), block("$ hookctl log -n 1\n"))
}

var (
	tableTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	tableDur  = regexp.MustCompile(`^\d+(\.\d+)?(µs|ms|s)$`)
)

// sameTable compares hookctl log's table with the README's, column by
// column, but for the time, the duration and the ID.
func sameTable(t *testing.T, what, got, want string) {
	t.Helper()
	norm := func(s string) [][]string {
		var rows [][]string
		for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
			line = tableTime.ReplaceAllString(line, "TIME")
			f := strings.Fields(line)
			if len(f) == 8 && f[0] == "TIME" && f[1] != "EVENT" {
				if !tableDur.MatchString(f[6]) || len(f[7]) != 8 {
					t.Errorf("%s: duration %q or ID %q not as hookctl writes them", what, f[6], f[7])
				}
				f[6], f[7] = "DURATION", "ID"
			}
			rows = append(rows, f)
		}
		return rows
	}
	if g, w := norm(got), norm(want); !reflect.DeepEqual(g, w) {
		t.Errorf("the README's %q is out of date; hookctl prints:\n%s", what, got)
	}
}

// sameRecord compares a record printed by --show with the README's, but
// for the fields that differ on every run.
func sameRecord(t *testing.T, got, want string) {
	t.Helper()
	var g, w map[string]any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("the README's record: %v", err)
	}
	for _, k := range []string{"id", "time", "durationMs", "dir"} {
		if _, ok := w[k]; !ok {
			t.Errorf("the README's record has no %q", k)
		}
		if _, ok := g[k]; !ok {
			t.Errorf("the record has no %q", k)
		}
		delete(g, k)
		delete(w, k)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("the README's --show is out of date; hookctl prints:\n%s", got)
	}
}
