package lint

import "fmt"

type scriptNotExecutable struct{ RuleBase }

func newScriptNotExecutable() Rule {
	return &scriptNotExecutable{newBase("script-not-executable", Error,
		"a script run directly that exists but cannot be executed as written (no execute bit, a folder)")}
}

func (r *scriptNotExecutable) Check(f *File) {
	for _, s := range f.scripts() {
		info, err := f.statScript(s)
		if err != nil || s.unread() {
			continue
		}
		p := s.text()
		if info.IsDir() {
			r.reportScript(f, s, "a folder", nil, "", "%s is a folder, not a script", p)
			continue
		}
		if s.viaInterpreter() || info.Mode().Perm()&0o111 != 0 {
			continue
		}
		msg := fmt.Sprintf("%s is not executable (mode %04o), so the shell cannot run it: run chmod +x %s", p, info.Mode().Perm(), p)
		sugg := ""
		var head []byte
		if !s.away {
			head = f.fs.head(s.path)
		}
		if interp := interpreterFor(p, head); interp != "" {
			sugg = interp + " " + p
			msg += fmt.Sprintf(" (and commit the mode), or run it through its interpreter: %q", sugg)
		}
		r.reportScript(f, s, "not executable", nil, sugg, "%s", msg)
	}
}
