package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/shell"
)

// TestREADMELintExample keeps the README's lint example true: its output is
// what hookctl lint prints for examples/mistakes today.
func TestREADMELintExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const prompt = "$ hookctl lint examples/mistakes\n"
	_, rest, ok := strings.Cut(string(readme), prompt)
	if !ok {
		t.Fatal("the README has no lint example for examples/mistakes")
	}
	want, _, _ := strings.Cut(rest, "```")
	t.Chdir("../..")
	var out, errOut bytes.Buffer
	code := run([]string{"hookctl", "--color", "never", "lint", "examples/mistakes"}, streams{strings.NewReader(""), &out, &errOut})
	if code != exitFindings {
		t.Errorf("exit status %d, want 1 (stderr %q)", code, errOut.String())
	}
	if out.String() != want {
		t.Errorf("the README's lint example is out of date; hookctl prints:\n%s", out.String())
	}
}

// TestTemplatesDocMatcherExample keeps docs/templates.md's example of a
// refused matcher true: its output is what hookctl init prints today.
func TestTemplatesDocMatcherExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	const prompt = "$ hookctl init --yes --matcher "
	_, rest, ok := strings.Cut(string(doc), prompt)
	if !ok {
		t.Fatal("docs/templates.md has no example of a refused matcher")
	}
	line, rest, _ := strings.Cut(rest, "\n")
	want, _, _ := strings.Cut(rest, "```")
	args, err := shell.Fields(line, nil)
	if err != nil || len(args) != 1 {
		t.Fatalf("the example's matcher %q: %v", line, err)
	}
	t.Chdir(t.TempDir())
	var out, errOut bytes.Buffer
	code := run([]string{"hookctl", "init", "--yes", "--matcher", args[0]}, streams{strings.NewReader(""), &out, &errOut})
	if code != 2 || out.Len() != 0 {
		t.Errorf("exit status %d, stdout %q", code, out.String())
	}
	if errOut.String() != want {
		t.Errorf("the example is out of date; hookctl prints:\n%s", errOut.String())
	}
}
