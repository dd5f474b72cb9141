package lint

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/schema/shellcmd"
)

type scriptShebang struct{ RuleBase }

func newScriptShebang() Rule {
	return &scriptShebang{newBase("script-shebang", Warning,
		"an executable script without a #! line, or with a #! line that cannot work (Windows line ending)")}
}

func (r *scriptShebang) Check(f *File) {
	for _, s := range f.scripts() {
		if s.viaInterpreter() || s.unreadText() {
			continue
		}
		info, err := f.statScript(s)
		if err != nil || info.IsDir() || info.Mode().Perm()&0o111 == 0 {
			continue
		}
		head := f.fs.head(s.path)
		p := s.text()
		line, ok := shebang(head)
		switch {
		case !ok && !shellcmd.IsBinary(head) && len(head) > 0:
			interp := interpreterFor(p, nil)
			if interp == "" || interp == "npx tsx" {
				interp = "sh"
			}
			sugg := "#!/usr/bin/env " + interp
			if interp == "sh" {
				sugg = "#!/bin/sh"
			}
			r.report(f, s.span, sugg, "%s has no #! line, so the system does not know which interpreter runs it; make %q its first line", p, sugg)
		case ok && strings.HasSuffix(firstLine(head), "\r"):
			r.report(f, s.span, "", "%s has Windows line endings: its #! line asks for %s, which does not exist; save it with Unix (LF) line endings", p, fmt.Sprintf("%q", strings.TrimSpace(line)+"\r"))
		}
	}
}

func firstLine(head []byte) string {
	s := string(head)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
