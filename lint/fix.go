package lint

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// fixPasses bounds how many times --fix lints and fixes one file: a fix
// that uncovers another (a string "5000" becomes the number 5000, which
// reads as milliseconds) takes one more pass, and overlapping fixes wait for
// the next.
const fixPasses = 10

// replaceFix is a fix of one edit: the span's text becomes text.
func replaceFix(description string, span schema.Span, text string) *Fix {
	return &Fix{Description: description, Edits: []Edit{{Span: span, Text: text}}}
}

// quoted is s as a JSON string, quotes included.
func quoted(s string) string { return string(schema.AppendJSONString(nil, s)) }

// jsonInner is s as it stands inside a JSON string, without the quotes.
func jsonInner(s string) string {
	q := quoted(s)
	return q[1 : len(q)-1]
}

// renameFix renames the key of m to key, when no other member of obj fills
// the same field of the agent's (which would then override it, or be
// overridden); nil when it would.
func renameFix(obj *schema.Node, m *schema.Member, context, key string) *Fix {
	if obj == nil || obj.Kind != schema.Object {
		return nil
	}
	for i := range obj.Members {
		o := &obj.Members[i]
		if o != m && (o.Key == key || schema.AgentField(context, o.Key, schema.AgentOptions{}) == key) {
			return nil
		}
	}
	return replaceFix("rename "+quoted(m.Key)+" to "+quoted(key), m.KeySpan, quoted(key))
}

// memberAt returns the member whose key stands at span, and the object
// that holds it.
func memberAt(root *schema.Node, span schema.Span) (*schema.Node, *schema.Member) {
	off := span.Start.Offset
	n := root
	for n != nil && off >= n.Span.Start.Offset && off < n.Span.End.Offset {
		switch n.Kind {
		case schema.Object:
			i := sort.Search(len(n.Members), func(i int) bool { return n.Members[i].Value.Span.End.Offset > off })
			if i == len(n.Members) {
				return nil, nil
			}
			if m := &n.Members[i]; m.KeySpan.Start.Offset == off {
				return n, m
			}
			n = n.Members[i].Value
		case schema.Array:
			i := sort.Search(len(n.Elems), func(i int) bool { return n.Elems[i].Span.End.Offset > off })
			if i == len(n.Elems) {
				return nil, nil
			}
			n = n.Elems[i]
		default:
			return nil, nil
		}
	}
	return nil, nil
}

// byteSpan is an edit's bytes.
type byteSpan struct{ from, to int }

func editSpan(e Edit) byteSpan {
	from := e.Span.Start.Offset
	return byteSpan{from, max(from, e.End().Offset)}
}

// clashes reports whether two edits cannot both be applied: they share a
// byte, or insert at the same place, or one inserts inside the other.
func (a byteSpan) clashes(b byteSpan) bool {
	return a.from < b.to && b.from < a.to || a.from == b.from || a.from == a.to && b.from < a.from && a.from < b.to ||
		b.from == b.to && a.from < b.from && b.from < a.to
}

// NonOverlapping returns the findings whose fixes can be applied together,
// in order: each fix whose edits clash with none taken before it and fall
// inside src. The others wait for a next pass, once these are applied and
// the file linted again. src nil skips the check of offsets.
func NonOverlapping(src []byte, findings []Finding) []Finding {
	var taken []byteSpan
	var out []Finding
	for _, f := range findings {
		if f.Fix == nil || len(f.Fix.Edits) == 0 {
			continue
		}
		var spans []byteSpan
		ok := true
		for _, e := range f.Fix.Edits {
			s := editSpan(e)
			if s.from < 0 || src != nil && s.to > len(src) {
				ok = false
				break
			}
			for _, t := range append(slices.Clip(taken), spans...) {
				if s.clashes(t) {
					ok = false
				}
			}
			spans = append(spans, s)
		}
		if ok {
			taken = append(taken, spans...)
			out = append(out, f)
		}
	}
	return out
}

// ApplyFixes applies the fixes of the findings to src, each edit to the
// bytes it names and no other: the non-overlapping set NonOverlapping
// picks, from the end of the file backwards so that earlier offsets stay
// valid. It returns the new text and how many fixes it applied.
func ApplyFixes(src []byte, findings []Finding) ([]byte, int) {
	picked := NonOverlapping(src, findings)
	var edits []Edit
	for _, f := range picked {
		edits = append(edits, f.Fix.Edits...)
	}
	slices.SortStableFunc(edits, func(a, b Edit) int { return editSpan(b).from - editSpan(a).from })
	out := bytes.Clone(src)
	for _, e := range edits {
		s := editSpan(e)
		out = slices.Concat(out[:s.from], []byte(e.Text), out[s.to:])
	}
	return out, len(picked)
}

// FixedFile is one file that --fix reads, as it was and as its fixes
// leave it.
type FixedFile struct {
	// Target is the file as the request names it.
	Target Target
	// Before is the text read, After the text with every fix applied
	// (equal to Before when nothing was fixed).
	Before, After []byte
	// Fixes is how many fixes were applied, over every pass.
	Fixes int
}

// Changed reports whether a fix changed the file.
func (f FixedFile) Changed() bool { return !bytes.Equal(f.Before, f.After) }

// FixFiles lints each file of the request and applies every certain fix of
// the rules the file's choice runs, in memory (see fixSource). It writes
// nothing. A file whose fixed text would be worse JSON than it was is an
// error, never a result.
func FixFiles(req Request) ([]FixedFile, error) {
	var out []FixedFile
	for _, t := range req.Files {
		c, err := schema.Load(t.Path)
		if err != nil {
			return nil, err
		}
		choice, err := NewChoice(t.Config, req.Enable, req.Disable)
		if err != nil {
			return nil, err
		}
		after, n, _, err := fixSource(t, choice, req.Rules, c.Src)
		if err != nil {
			return nil, err
		}
		out = append(out, FixedFile{Target: t, Before: c.Src, After: after, Fixes: n})
	}
	return out, nil
}

// fixSource applies the certain fixes of the findings of src, linted as
// the hooks.json t names with the rules chosen: lint, apply a
// non-overlapping set, lint the result again, until nothing is left to fix
// (at most fixPasses times). It returns the fixed text, how many fixes it
// applied, and whether the last pass found nothing more to fix.
func fixSource(t Target, choice *Choice, rules []string, src []byte) (out []byte, fixes int, done bool, err error) {
	out = src
	for range fixPasses {
		run := &Run{fs: newFSCache()}
		f := run.newFile(t, schema.Parse(t.Path, out))
		f.choice = choice
		run.Files = []*File{f}
		run.choices = []*Choice{choice}
		run.check(rules)
		mine := run.out[:0]
		for _, fd := range run.out {
			if fd.File == f.Name { // not a script's, which ShellCheck may name
				mine = append(mine, fd)
			}
		}
		next, n := ApplyFixes(out, mine)
		if n == 0 {
			return out, fixes, true, nil
		}
		if after := schema.ParseRecovering(t.Path, next); worseJSON(f.Config, after) {
			name := t.Name
			if name == "" {
				name = t.Path
			}
			return nil, 0, false, fmt.Errorf("%s: the fixes would leave it invalid JSON (%v): fix it by hand", name, after.Syntax)
		}
		out, fixes = next, fixes+n
	}
	return out, fixes, false, nil
}

// worseJSON reports whether after, the text that fixes made of before
// (both read by schema.ParseRecovering), is worse JSON: not valid where
// before was, no longer read to its end, or with more syntax mistakes.
func worseJSON(before, after *schema.Config) bool {
	switch {
	case after.Syntax == nil:
		return false
	case before.Syntax == nil, before.Root != nil && after.Root == nil:
		return true
	}
	return len(after.SyntaxErrors) > len(before.SyntaxErrors)
}

// topLevel reports whether s[from:to] is a whole alternative of the
// matcher s, so that an alternation can replace it without parentheses.
func topLevel(s string, from, to int) bool {
	for _, a := range alternatives(s) {
		if a.from == from && a.to == to {
			return true
		}
	}
	return false
}

// asAlternative writes a matcher to stand where one name stood: an
// alternation is grouped unless it replaces a whole alternative.
func asAlternative(matcher string, from, to int, repl string) string {
	if strings.Contains(repl, "|") && !topLevel(matcher, from, to) {
		return "(?:" + repl + ")"
	}
	return repl
}
