package lint

import "fmt"

type foreignFormat struct{ RuleBase }

func newForeignFormat() Rule {
	return &foreignFormat{newBase("foreign-format", Error,
		"the file is another agent's hook configuration (a top-level \"hooks\" wrapper, a \"version\" key); says which agent and how to convert it")}
}

func (r *foreignFormat) Check(f *File) {
	if f.foreign == nil {
		return
	}
	ff := f.foreign.finding
	sugg := ""
	if ff.Agent != "" {
		sugg = fmt.Sprintf("hookctl import --from %s %s", ff.Agent, f.Name)
	}
	r.report(f, ff.Span, sugg, "%s", ff.Message(f.Name))
}
