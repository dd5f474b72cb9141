package lint

import "github.com/hookctl/hookctl/schema"

type keyCase struct{ RuleBase }

func newKeyCase() Rule {
	return &keyCase{newBase(schema.RuleKeyCase, Warning,
		"a key that the agent reads only because its decoder ignores case (\"pretooluse\", \"Command\"), or that another key of the same field overrides")}
}

// Check reports the decoder's key-case problems. A key the agent reads
// though written in another case runs as meant (impact none); a key whose
// value another key of the same field replaces, whichever is written
// correctly (encoding/json matches keys ignoring case and the last one
// wins), is a part the agent never uses (ignored). A value of the wrong
// type under either key is read all the same, and drops the file (see
// assess).
func (r *keyCase) Check(f *File) {
	for _, p := range f.problems(r.id) {
		if p.Overridden {
			r.reportProblem(f, &p, p.Span, nil, "", "%s", p.Msg)
			continue
		}
		var fix *Fix
		if obj, m := memberAt(f.Config.Root, p.Span); m != nil {
			if field := schema.AgentField(p.Context, m.Key, schema.AgentOptions{}); field != "" && field != m.Key {
				fix = renameFix(obj, m, p.Context, field)
			}
		}
		r.reportProblem(f, &p, p.Span, fix, "", "%s", p.Msg)
	}
}
