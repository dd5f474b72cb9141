package oracle

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/schema"
)

// The realworld corpus is testdata/realworld at the top of the module:
// hooks.json files projects committed.
const realworldDir = "../../../testdata/realworld"

// shellBuiltins are the names a command runs that are no program on PATH.
var shellBuiltins = map[string]bool{
	"echo": true, "printf": true, "cd": true, "[": true, "test": true, "true": true, "false": true,
	"exit": true, "read": true, "export": true, "set": true, "unset": true, "eval": true, "exec": true,
	"command": true, ".": true, "source": true, ":": true, "return": true, "shift": true, "local": true,
	"type": true, "wait": true, "trap": true, "umask": true, "ulimit": true, "pwd": true,
}

// plan is what a realworld command needs to run: the scripts it names,
// made up where the project's own are not there, and the programs it
// starts by name.
type plan struct {
	files    map[string]string
	programs []string
}

// scriptFor writes a plausible script for a path a command names, in the
// language of its extension, which loads a helper beside it as such
// scripts do (so that what trust follows is exercised too); "" for a
// file that cannot be made to run here (TypeScript, PowerShell, Windows).
func scriptFor(rel string) map[string]string {
	dir := path.Dir(rel)
	switch path.Ext(rel) {
	case ".py":
		return map[string]string{
			rel:                      "#!/usr/bin/env python3\nimport json\nimport sys\n\nimport hook_helpers\n\npayload = json.load(sys.stdin)\nprint(json.dumps(hook_helpers.answer(payload)))\n",
			dir + "/hook_helpers.py": "def answer(payload):\n    return {}\n",
		}
	case ".js", ".cjs":
		return map[string]string{
			rel:                    "#!/usr/bin/env node\nconst { answer } = require(\"./lib/answer\");\nlet input = \"\";\nprocess.stdin.on(\"data\", (d) => (input += d));\nprocess.stdin.on(\"end\", () => console.log(JSON.stringify(answer(JSON.parse(input || \"{}\")))));\n",
			dir + "/lib/answer.js": "exports.answer = () => ({});\n",
		}
	case ".mjs":
		return map[string]string{
			rel:                     "#!/usr/bin/env node\nimport { readFileSync } from \"node:fs\";\nimport { answer } from \"./lib/answer.mjs\";\nconsole.log(JSON.stringify(answer(JSON.parse(readFileSync(0, \"utf8\") || \"{}\"))));\n",
			dir + "/lib/answer.mjs": "export const answer = () => ({});\n",
		}
	case ".sh", ".bash", "":
		return map[string]string{
			rel:                    "#!/bin/sh\n. \"$(dirname \"$0\")/lib/common.sh\"\ncat >/dev/null\nanswer\n",
			dir + "/lib/common.sh": "answer() { echo '{}'; }\n",
		}
	}
	return nil
}

// planFor reads a command with the shell's parser (mvdan.cc/sh, which the
// readers use too; this only finds what to create) for the programs it
// starts by name and the files it names by a relative path, or by a path
// after a variable or a substitution that stands for the workspace
// ($HOOKCTL_WORKSPACE/scripts/x.sh, "$ws/scripts/x.sh").
func planFor(command string, root string) (*plan, string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, "does not parse"
	}
	p := &plan{files: map[string]string{}}
	var skip string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		for i, w := range call.Args {
			lit, tail := literal(w)
			if i == 0 && lit != "" && !strings.Contains(lit, "/") {
				if !shellBuiltins[lit] {
					p.programs = append(p.programs, lit)
				}
				continue
			}
			name := lit
			if name == "" {
				name = tail
			}
			if name == "" || strings.ContainsAny(name, `\:*?`) || !strings.Contains(name, "/") && path.Ext(name) == "" {
				continue
			}
			var rel string
			switch {
			case lit != "" && !path.IsAbs(lit):
				rel = path.Clean(".agents/" + lit)
			case lit == "" && strings.HasPrefix(tail, "/"):
				// A path after $HOOKCTL_WORKSPACE or the payload's
				// workspace: from the root.
				rel = path.Clean(strings.TrimPrefix(tail, "/"))
			default:
				continue
			}
			if strings.HasPrefix(rel, "..") {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, rel)); err == nil {
				continue
			}
			s := scriptFor(rel)
			if s == nil {
				if i <= 1 {
					skip = "names " + name + ", which cannot run here"
				}
				continue
			}
			for k, v := range s {
				if _, ok := p.files[k]; !ok {
					p.files[k] = v
				}
			}
		}
		return true
	})
	if skip != "" {
		return nil, skip
	}
	return p, ""
}

// literal returns a word's text when it is all literal, else the literal
// text after its last expansion.
func literal(w *syntax.Word) (string, string) {
	var b strings.Builder
	all := true
	tail := ""
	for _, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
			tail += x.Value
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
			tail += x.Value
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
					tail += l.Value
				} else {
					all = false
					tail = ""
				}
			}
		default:
			all = false
			tail = ""
		}
	}
	if all {
		return b.String(), ""
	}
	return "", tail
}

// realworldCase is one command of a realworld hooks.json.
type realworldCase struct {
	file    string
	command trust.Command
}

func realworldCases(t *testing.T) []realworldCase {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(realworldDir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no realworld corpus in %s: %v", realworldDir, err)
	}
	sort.Strings(names)
	var out []realworldCase
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, ".agents"), 0o755); err != nil {
			t.Fatal(err)
		}
		snap := trust.FromConfig(root, schema.Parse(filepath.Join(root, ".agents", "hooks.json"), src))
		seen := map[string]bool{}
		for _, c := range snap.Commands {
			if !seen[c.Command] {
				seen[c.Command] = true
				out = append(out, realworldCase{file: filepath.Base(n), command: c})
			}
		}
	}
	return out
}

// realworldStats counts what the realworld run did; skipped is written
// before the subtests start.
var realworldStats struct {
	sync.Mutex
	ran     int
	skipped map[string]int
}

// TestRealworld runs the commands of testdata/realworld, each in a
// workspace of its own holding its hooks.json and a plausible script for
// every file it names that the project's repository would hold; a command
// whose program is not installed here is left out, and counted. The short
// run takes one command in 32.
func TestRealworld(t *testing.T) {
	needStrace(t)
	need(t, "sh")
	cases := realworldCases(t)
	realworldStats.skipped = map[string]int{}
	t.Cleanup(func() {
		var why []string
		total := 0
		for k, n := range realworldStats.skipped {
			why = append(why, fmt.Sprintf("%d %s", n, k))
			total += n
		}
		sort.Strings(why)
		t.Logf("realworld: %d commands ran, %d left out (%s)", realworldStats.ran, total, strings.Join(why, "; "))
	})
	for i, rc := range cases {
		if !long && i%32 != 0 {
			continue
		}
		name := fmt.Sprintf("%s#%d", rc.file, rc.command.Pos.Line)
		// What the command needs, decided before it runs: a command whose
		// program is not installed is left out (and counted), not skipped,
		// so that a run under HOOKCTL_CI=1 skips nothing.
		p, why := planFor(rc.command.Command, "/nonexistent")
		if p != nil {
			for _, prog := range p.programs {
				if _, err := exec.LookPath(prog); err != nil && prog != "hookctl" {
					p, why = nil, "runs "+prog+", not installed here"
					break
				}
			}
		}
		if p == nil {
			realworldStats.skipped[skipKind(why)]++
			t.Logf("left out %s: %s", name, why)
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root, home := workspaceDir(t)
			src, err := os.ReadFile(filepath.Join(realworldDir, rc.file))
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{trust.HooksFile: string(src)}
			for k, v := range p.files {
				files[k] = v
			}
			writeFiles(t, root, files)
			c := oracleCase{name: "realworld " + name, form: "realworld " + rc.file, command: rc.command.Command,
				tool: sampleTool(rc.command), hooks: string(src)}
			r := check(t, c, root, home, rc.command.Event)
			realworldStats.Lock()
			realworldStats.ran++
			realworldStats.Unlock()
			report(t, c, r, knownFailures)
		})
	}
}

func skipKind(why string) string {
	if strings.HasPrefix(why, "runs ") {
		return "whose program is not installed"
	}
	return "that cannot run here (" + why + ")"
}

// sampleTool is the first tool the command's matcher selects, as hookctl
// test --contract chooses.
func sampleTool(c trust.Command) string {
	if !c.Event.IsTool() {
		return ""
	}
	m, err := schema.CompileMatcher(c.Matcher)
	if err != nil {
		return "run_command"
	}
	if tools := runtime.SampleTools(c.Matcher, m); len(tools) > 0 {
		return tools[0]
	}
	return "run_command"
}
