package lint

import (
	"github.com/hookctl/hookctl/schema"
)

type confusableName struct{ RuleBase }

func newConfusableName() Rule {
	return &confusableName{newBase("confusable-name", Warning,
		"a hook name, or a path a command runs, that looks like another: letters of two scripts in one word (a Cyrillic а in gаte.sh), characters that look like ASCII ones, or that show nothing")}
}

func (r *confusableName) Check(f *File) {
	for _, h := range f.hooks() {
		if why := schema.LookAlike(h.Name); why != "" {
			r.report(f, h.Member.KeySpan, "", "the hook name %s %s: it reads as %s, and a review sees another hook's name; write it in one script, with no look-alike characters", schema.Visible(h.Name), why, schema.Visible(schema.LookAlikeAs(h.Name)))
		}
	}
	seen := map[schema.Span]bool{}
	for _, h := range f.allHandlers() {
		c := f.command(h)
		if c == nil {
			continue
		}
		for _, ref := range c.fileRefs() {
			why := schema.LookAlike(ref.Word.Text)
			if why == "" {
				continue
			}
			span := f.strSpan(h.Command, ref.Word.From, ref.Word.To)
			if seen[span] {
				continue
			}
			seen[span] = true
			r.report(f, span, "", "the path %s %s: it reads as %s, so a review (hookctl trust, list) sees another file than the one that runs; rename the file with one script, with no look-alike characters", schema.Visible(ref.Word.Text), why, schema.Visible(schema.LookAlikeAs(ref.Word.Text)))
		}
	}
}
