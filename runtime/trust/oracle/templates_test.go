package oracle

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/templates"
)

// templateWorkspace is what a project that runs a template holds besides
// it: a git repository, a Makefile with a test target (what
// tests-must-pass runs), the notes project-context reads.
var templateWorkspace = map[string]string{
	"Makefile":                   "test:\n\t@echo tests ran >&2\n",
	"main.go":                    "package main\n\nfunc main() {}\n",
	"notes.txt":                  "notes\n",
	".agents/project-context.md": "Run make test before you stop.\n",
}

// templateData are the files the templates read as data: project-context
// reads its notes; tests-must-pass reads the Makefile to find its test
// target, in Python and JavaScript (make then reads it as code).
var templateData = []string{".agents/project-context.md", "python:Makefile", "node:Makefile"}

// TestTemplates runs every template of hookctl init, in every language, on
// each of its cases, and one more for tests-must-pass that runs the
// project's tests.
func TestTemplates(t *testing.T) {
	needStrace(t)
	need(t, "sh", "jq", "git", "python3", "node", "make")
	for _, tpl := range templates.All() {
		for _, lang := range templates.Languages {
			if !long && lang.ID != "sh" && !(tpl.ID == "tests-must-pass" && lang.ID == "py") && !(tpl.ID == "project-context" && lang.ID == "node") {
				// The short run takes the shell version of each, and one
				// Python and one JavaScript template.
				continue
			}
			t.Run(tpl.ID+"/"+lang.ID, func(t *testing.T) {
				t.Parallel()
				root, home := workspaceDir(t)
				writeFiles(t, root, templateWorkspace)
				git := exec.Command("git", "init", "-q")
				git.Dir = root
				git.Env = caseEnv(t, home)
				if out, err := git.CombinedOutput(); err != nil {
					t.Fatalf("git init: %v: %s", err, out)
				}
				init := exec.Command(filepath.Join(hookctlDir(t), "hookctl"), "init", "--template", tpl.ID, "--lang", lang.ID, "--yes")
				init.Dir = root
				init.Env = caseEnv(t, home)
				if out, err := init.CombinedOutput(); err != nil {
					t.Fatalf("hookctl init: %v: %s", err, out)
				}
				command := initCommand(t, root)
				cases := tpl.Cases
				if tpl.ID == "tests-must-pass" {
					cases = append(cases, templates.Case{Name: "runs the tests",
						Payload: map[string]any{"executionNum": 1, "terminationReason": "model_stop", "fullyIdle": true}})
				}
				// The findings of every case, reported once for the
				// template in this language.
				name := "template " + tpl.ID + "/" + lang.ID
				c := oracleCase{name: name, form: "template " + tpl.ID + " (" + lang.ID + ")", command: command, data: templateData, noGaps: true, runs: tpl.Runs}
				var all result
				seen := map[string]bool{}
				for i, tc := range cases {
					if !long && i > 0 && tc.Name != "runs the tests" {
						continue
					}
					c.tool, c.partial = tc.Tool, tc.EventPayload()
					r := check(t, c, root, home, tpl.Event)
					all.cmd = r.cmd
					for _, f := range r.findings {
						if k := f.File + "\x00" + string(f.Way); !seen[k] {
							seen[k] = true
							all.findings = append(all.findings, f)
						}
					}
				}
				report(t, c, all, knownFailures)
			})
		}
	}
}

// initCommand returns the one command of the hooks.json init wrote.
func initCommand(t *testing.T, root string) string {
	t.Helper()
	snap, err := trust.Take(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Commands) != 1 {
		t.Fatalf("init wrote %d commands: %+v", len(snap.Commands), snap.Commands)
	}
	return snap.Commands[0].Command
}
