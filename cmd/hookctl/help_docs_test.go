package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestHelpNamesNoDocsFile checks that no command's help sends the reader to
// a file of the source tree: an installed binary has no docs folder, so
// the help prints what is needed, or names the command that does
// (lint --rules, lsp --setup, schema test).
func TestHelpNamesNoDocsFile(t *testing.T) {
	docsFile := regexp.MustCompile(`docs/[\w./-]+|\b[\w-]+\.md\b`)
	var names [][]string
	for _, c := range commands(newFactory(streams{})) {
		names = append(names, []string{c.Name})
		for _, sub := range c.Subcommands {
			names = append(names, []string{c.Name, sub.Name})
		}
	}
	for _, n := range names {
		var out, errb bytes.Buffer
		args := append(append([]string{"hookctl"}, n...), "--help")
		if code := run(args, streams{in: &bytes.Buffer{}, out: &out, err: &errb}); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
			continue
		}
		if m := docsFile.FindString(out.String()); m != "" {
			t.Errorf("hookctl %v --help names %s, a file an installed binary does not have", n, m)
		}
	}
}

// TestLSPSetup checks that lsp --setup prints the editors' files as the
// repository holds them, and refuses an editor it has no set-up for.
func TestLSPSetup(t *testing.T) {
	for editor, file := range map[string]string{"neovim": "../../editors/neovim/hookctl.lua", "helix": "../../editors/helix/languages.toml"} {
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := run([]string{"hookctl", "lsp", "--setup", editor}, streams{in: &bytes.Buffer{}, out: &out, err: &errb}); code != 0 || out.String() != string(want) {
			t.Errorf("lsp --setup %s: exit %d, %q, printed:\n%s", editor, code, errb.String(), out.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"hookctl", "lsp", "--setup", "vscode"}, streams{in: &bytes.Buffer{}, out: &out, err: &errb}); code != 2 || !strings.Contains(errb.String(), "--setup takes neovim or helix") {
		t.Errorf("lsp --setup vscode: exit %d, %q", code, errb.String())
	}
}
