package lint

import (
	"crypto/sha256"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type duplicateHandler struct{ RuleBase }

func newDuplicateHandler() Rule {
	return &duplicateHandler{newBase("duplicate-handler", Warning,
		"the same command twice on one event with overlapping matchers")}
}

func (r *duplicateHandler) Check(f *File) {
	type seen struct {
		h       handlerRef
		matcher string
	}
	byKey := map[[sha256.Size]byte][]seen{}
	for _, h := range f.allHandlers() {
		if h.Command == nil || h.Unknown {
			continue // an unknown event's handlers never run
		}
		matcher := ""
		if h.Group != nil && h.Group.Matcher != nil && h.Group.Matcher.Kind == schema.String {
			matcher = h.Group.Matcher.Str
		}
		key := commandKey(h.Event, h.Command.Str)
		for _, s := range byKey[key] {
			if !h.Event.IsTool() || s.matcher == matcher || f.fs.matcher(s.matcher).overlaps(f.fs.matcher(matcher)) {
				where := ""
				if s.h.Hook != h.Hook {
					where = " in the hook \"" + s.h.Hook + "\""
				}
				r.report(f, h.Command.Span, "",
					"the same command already runs on %s at %s%s for overlapping tools: remove one, or merge their matchers into one group",
					h.Event, s.h.Command.Span.Start, where)
				break
			}
		}
		byKey[key] = append(byKey[key], seen{h, matcher})
	}
}

// commandKey names a handler's event and command, its words separated by
// single spaces, by a digest: the command may be megabytes, and a copy of it
// per handler would stay until the file is checked.
func commandKey(e schema.Event, cmd string) [sha256.Size]byte {
	h := sha256.New()
	var buf [4 << 10]byte
	write := func(s string) {
		for len(s) > 0 {
			n := copy(buf[:], s)
			h.Write(buf[:n])
			s = s[n:]
		}
	}
	write(string(e))
	write("\x00")
	sep := ""
	for w := range strings.FieldsSeq(cmd) {
		write(sep)
		write(w)
		sep = " "
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}
