package main

import (
	"bytes"
	"regexp"
	"testing"
)

// TestHelpNamesNoDocsFile checks that no command's help sends the reader to
// a file of the source tree: an installed binary has no docs folder, so
// the help prints what is needed, or names the command that does
// (lint --rules, lsp --setup, schema test).
func TestHelpNamesNoDocsFile(t *testing.T) {
	docsFile := regexp.MustCompile(`docs/[\w./-]+|\b[\w-]+\.md\b`)
	var names [][]string
	for _, c := range commands(streams{}) {
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
