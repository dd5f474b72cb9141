package lint

import "github.com/hookctl/hookctl/schema"

type agentDecode struct{ RuleBase }

func newAgentDecode() Rule {
	return &agentDecode{newBase("agent-decode", Error,
		"a value the agent's decoder cannot read (one the other rules do not name, such as the first of two repeated keys): the agent drops the whole file")}
}

// Check names the values the agent's decoder cannot read that no other
// rule names; it runs after them (see Run.check).
func (r *agentDecode) Check(f *File) {
	if f.foreign != nil {
		return // foreign-format stands for the whole file
	}
	errs := f.agentErrors()
	if len(errs) == 0 {
		return
	}
	var spans []schema.Span
	for _, fd := range *r.out {
		if fd.File == f.Name && fd.Rule != r.id {
			spans = append(spans, fd.Span)
		}
	}
	covered := schema.NewSpanSet(spans)
	for _, e := range errs {
		if !covered.Overlaps(e.Span) && !(e.Key.End.Offset > 0 && covered.Overlaps(e.Key)) {
			r.reportImpact(f, FileDropped, e.Span, "", "%s, so the agent loads none of this file's hooks", e.Message())
		}
	}
}
