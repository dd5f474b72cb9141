package lint

type keyCase struct{ RuleBase }

func newKeyCase() Rule {
	return &keyCase{newBase("key-case", Warning,
		"a key that the agent reads only because its decoder ignores case (\"pretooluse\", \"Command\"), or that another key of the same field overrides")}
}

func (r *keyCase) Check(f *File) {
	for _, p := range f.problems(r.id) {
		r.report(f, p.Span, "", "%s", p.Msg)
	}
}
