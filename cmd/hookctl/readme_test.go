package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
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
