package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/shell"
)

// TestREADMELintExample keeps the README's lint examples true: their
// output is what hookctl lint, and lint --fix --diff, print for
// examples/mistakes today.
func TestREADMELintExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	for _, args := range [][]string{{"lint", "examples/mistakes"}, {"lint", "--fix", "--diff", "examples/mistakes"}} {
		prompt := "$ hookctl " + strings.Join(args, " ") + "\n"
		_, rest, ok := strings.Cut(string(readme), prompt)
		if !ok {
			t.Fatalf("the README has no example of %s", prompt)
		}
		want, _, _ := strings.Cut(rest, "```")
		var out, errOut bytes.Buffer
		code := run(append([]string{"hookctl", "--color", "never"}, args...), streams{strings.NewReader(""), &out, &errOut})
		if code != exitFindings {
			t.Errorf("%s: exit status %d, want 1 (stderr %q)", prompt, code, errOut.String())
		}
		if out.String() != want {
			t.Errorf("the README's example of %s is out of date; hookctl prints:\n%s", prompt, out.String())
		}
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

// TestREADMESaysHowLongTestsTake: the README's first steps say how long
// the whole test run took, measured, and give the short run for the edit
// loop, before the list of commands.
func TestREADMESaysHowLongTestsTake(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(readme), "| command | what it does |")
	if !regexp.MustCompile("`go test -count=1 \\./\\.\\.\\.` took (\\d+ min )?\\d+( to \\d+)? s").MatchString(first) ||
		!regexp.MustCompile("`go test -short \\./\\.\\.\\.` \\((\\d+ min )?\\d+( to \\d+)? s").MatchString(first) {
		t.Errorf("the README's first steps do not say how long go test ./... and go test -short ./... take:\n%s", first)
	}
}
