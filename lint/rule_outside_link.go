package lint

import "github.com/hookctl/hookctl/schema"

type outsideLink struct{ RuleBase }

func newOutsideLink() Rule {
	return &outsideLink{newBase("outside-link", Error,
		"a hooks.json, or a script a hook runs, reached through a symbolic link that leads out of the repository: hookctl does not read it")}
}

// Check names the scripts the file's hooks run through a link out of the
// repository (schema.LeadsOut), which no rule reads.
func (r *outsideLink) Check(f *File) {
	for _, s := range f.scripts() {
		if s.outside != "" {
			r.reportScript(f, s, "links out", nil, "", "%s %s", s.text(), s.outside)
		}
	}
}

// CheckRun names the hooks.json files of the run that were not read, as
// the link they are reached through leads out of the repository.
func (r *outsideLink) CheckRun(run *Run) {
	for _, u := range run.unread {
		r.report(&File{Name: u.name, choice: u.choice}, fileStart, "", "%s %s", schema.Visible(u.name), u.reason)
	}
}
