package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/shell"
)

// TestDocumentedImports keeps every documented import session true: the
// transcripts of docs/import.md's worked example and of the README's import
// section are replayed, command by command, through hookctl in a project
// made of the example's files, and each command's output must be what the
// page shows (stdout, then stderr unless the command sends it to
// /dev/null).
func TestDocumentedImports(t *testing.T) {
	guide, err := os.ReadFile("../../docs/import.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(guide))
	if len(blocks) < 3 {
		t.Fatal("docs/import.md has no worked example")
	}
	settings, script := blocks[1], blocks[2]
	_, section, ok := strings.Cut(string(readme), "## Coming from another agent\n")
	if !ok {
		t.Fatal("the README has no import section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for name, doc := range map[string]string{"docs/import.md": string(guide), "README.md": section} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			for path, content := range map[string]string{".claude/settings.json": settings, ".claude/hooks/block-rm.sh": script} {
				p := filepath.Join(root, path)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// The imported handlers run through hookctl adapt.
			t.Setenv("PATH", filepath.Dir(hookctlBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
			t.Setenv("HOME", filepath.Join(root, "home"))
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "home", ".config"))
			t.Chdir(root)
			n := 0
			for _, b := range fencedBlocks(doc) {
				for _, step := range transcript(b) {
					n++
					args, err := shell.Fields(step.command, nil)
					if err != nil || len(args) == 0 || args[0] != "hookctl" {
						t.Fatalf("%s: cannot read the command %q: %v", name, step.command, err)
					}
					var out, errOut bytes.Buffer
					run(append([]string{"hookctl", "--color", "never"}, args[1:]...), streams{strings.NewReader(""), &out, &errOut})
					got := out.String()
					if !step.quiet {
						got += errOut.String()
					}
					if got != step.output {
						t.Errorf("%s: the output of $ %s is out of date; hookctl prints:\n%s", name, step.line, got)
					}
				}
			}
			if n == 0 {
				t.Errorf("%s shows no import session", name)
			}
		})
	}
}

// fencedBlocks returns the fenced code blocks of a Markdown text.
func fencedBlocks(doc string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?s)```[a-z]*\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		out = append(out, m[1])
	}
	return out
}

type step struct {
	line, command, output string
	quiet                 bool
}

// transcript reads the "$ hookctl ..." commands of a code block and the
// output shown under each.
func transcript(block string) []step {
	var steps []step
	for _, line := range strings.SplitAfter(block, "\n") {
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			cmd = strings.TrimSuffix(cmd, "\n")
			s := step{line: cmd}
			if i := strings.Index(cmd, "  #"); i >= 0 {
				cmd = cmd[:i]
			}
			cmd = strings.TrimSpace(cmd)
			if c, ok := strings.CutSuffix(cmd, " 2>/dev/null"); ok {
				cmd, s.quiet = c, true
			}
			s.command = cmd
			steps = append(steps, s)
			continue
		}
		if len(steps) > 0 {
			steps[len(steps)-1].output += line
		}
	}
	return steps
}
