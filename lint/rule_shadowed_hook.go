package lint

type shadowedHook struct{ RuleBase }

func newShadowedHook() Rule {
	return &shadowedHook{newBase("shadowed-hook", Info,
		"a workspace hook with the same name as a user hook (both run)")}
}

func (r *shadowedHook) CheckRun(run *Run) {
	users := map[string]string{}
	for _, f := range append(append([]*File{}, run.Files...), run.Context...) {
		if f.Scope != User {
			continue
		}
		for _, h := range f.hooks() {
			if _, ok := users[h.Name]; !ok {
				users[h.Name] = f.Name + ":" + h.Member.KeySpan.Start.String()
			}
		}
	}
	if len(users) == 0 {
		return
	}
	for _, f := range run.Files {
		if f.Scope != Workspace {
			continue
		}
		for _, h := range f.hooks() {
			if at, ok := users[h.Name]; ok {
				r.report(f, h.Member.KeySpan, "",
					"the user's hooks.json also has a hook named %q (%s): both run, since a workspace hook never replaces a user hook; rename this one if they differ, or remove it if it repeats the user's",
					h.Name, at)
			}
		}
	}
}
