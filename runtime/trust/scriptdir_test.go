package trust

import (
	"slices"
	"strings"
	"testing"
)

// A script's own folder, as it computes it from $0, is followed: the file
// it sources by it is covered, and the file the shell would not source is
// not; what it cannot pin down stays a gap at its line.
func TestScriptsOwnFolderIsFollowed(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		files         map[string]string
		links         map[string]string
		covered       []string // must be covered
		notCovered    []string // must not be
		gap           string   // a substring of a gap, "" for none of the script's
	}{
		{"dirname $0", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": `. "$(dirname "$0")/lib.sh"` + "\n",
			"scripts/lib.sh":  "true\n",
		}, nil, []string{"scripts/lib.sh"}, nil, ""},
		{"cd && pwd, then a script it runs", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh":     `DIR="$(cd "$(dirname "$0")" && pwd)"` + "\n" + `bash "$DIR/run/y.sh"` + "\n",
			"scripts/run/y.sh":    `. "$(dirname "$0")/ylib.sh"` + "\n",
			"scripts/run/ylib.sh": "true\n",
		}, nil, []string{"scripts/run/y.sh", "scripts/run/ylib.sh"}, nil, ""},
		{"BASH_SOURCE under bash", `"$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": "#!/usr/bin/env bash\n" + `SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"` + "\nsource \"$SCRIPT_DIR/lib.sh\"\n",
			"scripts/lib.sh":  "true\n",
		}, nil, []string{"scripts/lib.sh"}, nil, ""},
		{"BASH_SOURCE under sh", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": `. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"` + "\n",
			"scripts/lib.sh":  "true\n",
		}, nil, nil, []string{"scripts/lib.sh"}, "scripts/gate.sh:1 sources a file named only when the script runs"},
		// In a sourced file, $0 is still the script's: its sibling is not
		// the file the shell sources.
		{"$0 in a sourced file", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh":      `. "$(dirname "$0")/sub/inner.sh"` + "\n",
			"scripts/sub/inner.sh": `. "$(dirname "$0")/lib.sh"` + "\n",
			"scripts/lib.sh":       "true\n",
			"scripts/sub/lib.sh":   "decoy\n",
		}, nil, []string{"scripts/sub/inner.sh", "scripts/lib.sh"}, []string{"scripts/sub/lib.sh"}, ""},
		{"$0 set before a file is sourced", `bash "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh":      "BASH_ARGV0=/tmp/x\n. \"$HOOKCTL_WORKSPACE/scripts/sub/inner.sh\"\n",
			"scripts/sub/inner.sh": `. "$(dirname "$0")/lib.sh"` + "\n",
			"scripts/lib.sh":       "true\n",
		}, nil, []string{"scripts/sub/inner.sh"}, []string{"scripts/lib.sh"}, "scripts/sub/inner.sh:1 sources a file"},
		// A script reached by a link has the link as $0: its folder is
		// the link's.
		{"a linked script", `sh "$HOOKCTL_WORKSPACE/bin/gate.sh"`, map[string]string{
			"scripts/gate.sh": `. "$(dirname "$0")/lib.sh"` + "\n",
			"scripts/lib.sh":  "decoy\n",
			"bin/lib.sh":      "true\n",
		}, map[string]string{"bin/gate.sh": "../scripts/gate.sh"}, []string{"scripts/gate.sh", "bin/lib.sh"}, []string{"scripts/lib.sh"}, ""},
		// What the script's text does not show: a dirname PATH finds in
		// the workspace, a function a sourced file defines, a name set
		// by a setter built at run time.
		{"PATH set for the script", `PATH="$HOOKCTL_WORKSPACE/bin:$PATH" sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": `. "$(dirname "$0")/lib.sh"` + "\n",
			"scripts/lib.sh":  "decoy\n",
			"bin/dirname":     "#!/bin/sh\necho other\n",
		}, nil, nil, []string{"scripts/lib.sh"}, "scripts/gate.sh:1 sources a file"},
		{"a sourced file that defines cd", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": "cd \"$HOOKCTL_WORKSPACE\"\n. ./defs.sh\ncd scripts\n. ./lib.sh\n",
			"defs.sh":         "cd() { :; }\n",
			"scripts/lib.sh":  "decoy\n",
			"lib.sh":          "true\n",
		}, nil, []string{"defs.sh"}, []string{"scripts/lib.sh"}, "scripts/gate.sh:4 runs ./lib.sh after a cd"},
		{"printf -v by a name built at run time", `bash "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": "N=D\nD=\"$(dirname \"$0\")\"\nprintf -v \"$N\" %s other\n. \"$D/lib.sh\"\n",
			"scripts/lib.sh":  "decoy\n",
		}, nil, nil, []string{"scripts/lib.sh"}, "scripts/gate.sh:4 sources a file"},
		{"a reassignment in an if", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": "D=\"$(dirname \"$0\")\"\nif [ -n \"$X\" ]; then D=/tmp; fi\n. \"$D/lib.sh\"\n",
			"scripts/lib.sh":  "true\n",
		}, nil, nil, []string{"scripts/lib.sh"}, "scripts/gate.sh:3 sources a file named only when the script runs"},
		{"a function that reassigns", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": "f() { D=/tmp; }\nD=\"$(dirname \"$0\")\"\nf\n. \"$D/lib.sh\"\n",
			"scripts/lib.sh":  "true\n",
		}, nil, nil, []string{"scripts/lib.sh"}, "scripts/gate.sh:4 sources a file"},
		{"a file sourced in between", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": "D=\"$(dirname \"$0\")\"\n. \"$D/env.sh\"\n. \"$D/lib.sh\"\n",
			"scripts/env.sh":  "D=/tmp\n",
			"scripts/lib.sh":  "true\n",
		}, nil, []string{"scripts/env.sh"}, []string{"scripts/lib.sh"}, "scripts/gate.sh:3 sources a file"},
		{"two siblings", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": ". \"$(dirname \"$0\")/a.sh\"\n. \"$(dirname \"$0\")/b.sh\"\n",
			"scripts/a.sh":    "X=1\n",
			"scripts/b.sh":    "true\n",
		}, nil, []string{"scripts/a.sh", "scripts/b.sh"}, nil, ""},
		{"a sibling that defines a function", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": ". \"$(dirname \"$0\")/a.sh\"\n. \"$(dirname \"$0\")/b.sh\"\n",
			"scripts/a.sh":    "dirname() { echo /tmp; }\n",
			"scripts/b.sh":    "true\n",
		}, nil, []string{"scripts/a.sh"}, []string{"scripts/b.sh"}, "scripts/gate.sh:2 sources a file"},
		// A file sourced after a cd trust cannot follow is named, not
		// dropped.
		{"a cd to a folder known only then", `sh "$HOOKCTL_WORKSPACE/scripts/gate.sh"`, map[string]string{
			"scripts/gate.sh": "cd \"$X\"\n. ./lib.sh\n",
		}, nil, nil, nil, "scripts/gate.sh:2 runs ./lib.sh after a cd to a folder known only when the script runs"},
		// In hooks.json, $0 is sh.
		{"$0 in a command", `. "$(dirname "$0")/scripts/lib.sh"`, map[string]string{
			"scripts/lib.sh": "true\n",
		}, nil, nil, []string{"scripts/lib.sh"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, snap := oneHook(t, tc.command, tc.files, tc.links)
			cmd := snap.Commands[0]
			for _, f := range tc.covered {
				if !slices.Contains(cmd.Files, f) {
					t.Errorf("%s not covered: %q", f, cmd.Files)
				}
			}
			for _, f := range tc.notCovered {
				if slices.Contains(cmd.Files, f) {
					t.Errorf("%s covered, but the shell does not source it: %q", f, cmd.Files)
				}
			}
			gaps := strings.Join(cmd.Gaps, "\n")
			if tc.gap != "" && !strings.Contains(gaps, tc.gap) || tc.gap == "" && strings.Contains(gaps, "scripts/") {
				t.Errorf("gaps %q, want %q", gaps, tc.gap)
			}
		})
	}
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
