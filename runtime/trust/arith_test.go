package trust

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestArithmeticAndReplacedBuiltins: bash evaluates a variable's text in
// arithmetic and runs the command substitutions an array subscript in it
// holds, so in a script bash runs, arithmetic on a variable that may hold
// more than a number is named at its line (dash does not, and is not); a
// function named like a builtin the reader reads (source, ., cd) runs in
// its place, and is named where it is defined. Each case runs the real
// shells and checks that what ran is covered or named.
func TestArithmeticAndReplacedBuiltins(t *testing.T) {
	needTools(t, "dash", "bash")
	files := map[string]string{
		"data.txt":                "a[$(../evil.sh)]\n",
		"evil.sh":                 "#!/bin/sh\necho MARK:evil.sh >&2\n",
		".agents/gate.sh":         "#!/bin/sh\necho MARK:.agents/gate.sh\n",
		".agents/hooks/gate.sh":   "#!/bin/sh\necho MARK:.agents/hooks/gate.sh\n",
		".agents/lib.sh":          "echo MARK:.agents/lib.sh\n",
		".agents/hooks/.keep.txt": "",
	}
	for _, c := range []struct {
		name, shebang, code string
		named               string // "" when nothing may be named
		ran                 string // what the shell runs
	}{
		{"(( x ))", "bash", "x=$(cat ../data.txt)\n(( x > 1 ))", ".agents/main.sh:3 evaluates the text of x as arithmetic", "evil.sh"},
		{"$(( $x ))", "bash", "x=$(cat ../data.txt)\n: $(( $x + 1 ))", ".agents/main.sh:3 evaluates the text of $x as arithmetic", "evil.sh"},
		{"let", "bash", "read -r x < ../data.txt\nlet y=x", ".agents/main.sh:3 evaluates the text of x as arithmetic", "evil.sh"},
		{"[[ -eq ]]", "bash", "x=$(cat ../data.txt)\n[[ $x -eq 1 ]]", ".agents/main.sh:3 evaluates the text of $x as arithmetic", "evil.sh"},
		{"output", "bash", ": $(( $(cat ../data.txt) ))", ".agents/main.sh:2 evaluates the output of a command as arithmetic", "evil.sh"},
		{"counter", "bash", "i=0\nn=$((i + 1))\n(( i++ ))\nfor (( j = 0; j < n; j++ )); do :; done\n[[ $n -eq 1 ]]\necho $(( $# + RANDOM % 2 ))", "", ""},
		{"dash", "sh", "x=$(cat ../data.txt)\n: $(( x + 1 ))", "", ""},
		{"test -eq", "bash", "x=$(cat ../data.txt)\n[ \"$x\" -eq 1 ] 2>/dev/null", "", ""},
		// A string bash evaluates as code: an array element's subscript
		// named by printf -v, [[ -v ]] or unset, a prompt expansion,
		// mapfile's callback.
		{"printf -v", "bash", "declare -a a\nprintf -v 'a[$(../evil.sh)]' x", ".agents/main.sh:3 names an array element whose subscript holds a command substitution, which bash runs (a[$(../evil.sh)])", "evil.sh"},
		{"[[ -v ]]", "bash", "declare -a a\n[[ -v 'a[$(../evil.sh)]' ]]", ".agents/main.sh:3 names an array element whose subscript holds a command substitution", "evil.sh"},
		{"unset", "bash", "declare -a a\nunset 'a[$(../evil.sh)]'", ".agents/main.sh:3 names an array element whose subscript holds a command substitution", "evil.sh"},
		{"@P", "bash", "x='$(../evil.sh)'\n: \"${x@P}\"", ".agents/main.sh:3 expands a text as a prompt (${x@P})", "evil.sh"},
		{"mapfile -C", "bash", "mapfile -t -C '../evil.sh;:' -c 1 a < ../data.txt", ".agents/main.sh:2 evaluates the callback mapfile -C gives as code", "evil.sh"},
		{"printf -v plain", "bash", "printf -v out '%s' x\nunset out\n[[ -v out ]]\nmapfile -t a < ../data.txt", "", ""},
		{"source function", "bash", "source() { builtin source ../evil.sh; }\nsource ./lib.sh", ".agents/main.sh:2 defines a function named source", "evil.sh"},
		{"cd function", "bash", "cd() { :; }\ncd hooks && ./gate.sh", ".agents/main.sh:2 defines a function named cd", ".agents/gate.sh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := maps.Clone(files)
			fs[".agents/main.sh"] = "#!/bin/" + c.shebang + "\n" + c.code + "\n"
			root, _ := trusted(t, "./main.sh", fs)
			var ran []string
			for _, sh := range []string{"dash", "bash"} {
				if c.shebang == "bash" && sh == "dash" {
					continue
				}
				ran = append(ran, codeRan(t, sh, root, c.shebang+" ./main.sh")...)
			}
			if c.ran != "" && !slices.Contains(ran, c.ran) || c.ran == "" && len(ran) > 0 {
				t.Fatalf("the shells ran %q, want %q", ran, c.ran)
			}
			cmd := take(t, root).Commands[0]
			named := strings.Join(cmd.Gaps, "\n")
			switch {
			case c.named == "" && named != "":
				t.Errorf("named %q, want nothing", cmd.Gaps)
			case c.named != "" && !strings.Contains(named, c.named):
				t.Errorf("named %q, want %q", cmd.Gaps, c.named)
			}
		})
	}
}

// TestProgramWithAnInterpreterLine: a script run as a program is read in
// the language of its #! line, not as shell: a Python script's imports
// are followed, and its docstring is not read as shell code.
func TestProgramWithAnInterpreterLine(t *testing.T) {
	root, _ := trusted(t, "../tools/gate.py", map[string]string{
		"tools/gate.py":   "#!/usr/bin/env python3\n\"\"\"gate: a hook (see ../x).\n\nIt imports helper.\n\"\"\"\nimport helper\n",
		"tools/helper.py": "X = 1\n",
	})
	cmd := take(t, root).Commands[0]
	if !slices.Contains(cmd.Files, "tools/helper.py") || len(cmd.Gaps) != 0 {
		t.Errorf("covered %q, named %q; want tools/helper.py covered and nothing named", cmd.Files, cmd.Gaps)
	}
}
