package lint

import "github.com/hookctl/hookctl/schema"

type duplicateKey struct{ RuleBase }

func newDuplicateKey() Rule {
	return &duplicateKey{newBase(schema.RuleDuplicateKey, Error,
		"a key repeated in one object (JSON decoders silently keep the last)")}
}

func (r *duplicateKey) Check(f *File) {
	for _, d := range f.Config.Duplicates {
		r.reportImpact(f, f.verdict().DuplicateImpact(&d), d.Again, "",
			"the key %q is repeated (first at %s): only this last one counts and the first is silently dropped; merge the two or rename one",
			d.Key, d.First.Start)
	}
}
