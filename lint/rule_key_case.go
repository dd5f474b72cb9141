package lint

import "github.com/hookctl/hookctl/schema"

type keyCase struct{ RuleBase }

func newKeyCase() Rule {
	return &keyCase{newBase("key-case", Warning,
		"a key that the agent reads only because its decoder ignores case (\"pretooluse\", \"Command\"), or that another key of the same field overrides")}
}

func (r *keyCase) Check(f *File) {
	for _, p := range f.problems(r.id) {
		var fix *Fix
		if obj, m := memberAt(f.Config.Root, p.Span); m != nil {
			if field := schema.AgentField(p.Context, m.Key, schema.AgentOptions{}); field != "" && field != m.Key {
				fix = renameFix(obj, m, p.Context, field)
			}
		}
		r.reportFix(f, p.Span, fix, "", "%s", p.Msg)
	}
}
