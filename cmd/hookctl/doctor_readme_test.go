package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEDoctorExample keeps the README's doctor example true: a
// workspace whose hooks.json holds a string timeout, which the agent's log
// reports, with a fake agy answering as agy 1.1.27 would.
func TestREADMEDoctorExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```console\n$ hookctl doctor\n")
	if !ok {
		t.Fatal("the README has no hookctl doctor example")
	}
	want, _, _ := strings.Cut(rest, "```")

	e := newDoctorEnv(t, "none-loaded")
	// The agent lives in the home folder, as an install puts it.
	agy, err := os.ReadFile(filepath.Join("testdata", "doctor", "agy"))
	if err != nil {
		t.Fatal(err)
	}
	e.write(filepath.Join(e.home, ".local", "bin", "agy"), string(agy), 0o755)
	t.Setenv("PATH", filepath.Join(e.home, ".local", "bin")+":/usr/bin:/bin")
	t.Setenv("HOOKCTL_LOG", filepath.Join(e.home, "runs.jsonl"))
	e.workspace(`{
  "block-rm": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./hooks/gate.sh", "timeout": "5"}]}]
  },
  "remind": {
    "PreInvocation": [{"command": "./hooks/remind.sh"}]
  }
}`)
	e.write(filepath.Join(e.ws, ".agents", "hooks", "remind.sh"), "#!/bin/sh\necho '{}'\n", 0o755)
	t.Chdir(e.ws)
	var out, errOut bytes.Buffer
	run([]string{"hookctl", "trust", "--yes"}, streams{strings.NewReader(""), &out, &errOut})
	out.Reset()
	code := run([]string{"hookctl", "--color", "never", "doctor"}, streams{strings.NewReader(""), &out, &errOut})
	if code != exitFindings {
		t.Errorf("exit status %d, want 1 (stderr %q)", code, errOut.String())
	}
	if out.String() != want {
		t.Errorf("the README's doctor example is out of date; hookctl prints:\n%s", out.String())
	}
}
