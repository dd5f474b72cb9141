package lint

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/hookctl/hookctl/schema"
)

type eventShape struct{ RuleBase }

func newEventShape() Rule {
	return &eventShape{newBase(schema.RuleEventShape, Error,
		"an event or its entries not in the shape the event takes: matcher groups for tool events, handlers for the others")}
}

func (r *eventShape) Check(f *File) {
	for _, p := range f.problems(r.id) {
		r.reportProblem(f, &p, p.Span, nil, r.suggest(f, p), "%s", p.Msg)
	}
}

// suggest writes the right nesting for the entry at fault, from what the
// entry holds.
func (r *eventShape) suggest(f *File, p schema.Problem) string {
	n := nodeAt(f.Config.Root, p.Span)
	if n == nil || len(p.Events) != 1 {
		return ""
	}
	e := p.Events[0]
	cmd := "./scripts/check.sh"
	switch n.Kind {
	case schema.String:
		return fmt.Sprintf("{\"command\": %s}", strconv.Quote(n.Str))
	case schema.Object:
		if c := n.Get("command"); c != nil && c.Value.Kind == schema.String {
			cmd = c.Value.Str
		}
		if hs := n.Get("hooks"); hs != nil && hs.Value.Kind == schema.Array && len(hs.Value.Elems) > 0 {
			if c := hs.Value.Elems[0].Get("command"); c != nil && c.Value.Kind == schema.String {
				cmd = c.Value.Str
			}
		}
	}
	if e.IsTool() {
		matcher := ""
		if m := n.Get("matcher"); m != nil && m.Value.Kind == schema.String {
			matcher = m.Value.Str
		}
		if p.Key == "hooks" || p.Key == string(e) {
			return ""
		}
		return fmt.Sprintf("{\"matcher\": %s, \"hooks\": [{\"command\": %s}]}", strconv.Quote(matcher), strconv.Quote(cmd))
	}
	if p.Key == string(e) {
		return ""
	}
	return fmt.Sprintf("{\"command\": %s}", strconv.Quote(cmd))
}

// nodeAt finds the value that starts where span starts, descending by
// binary search so that a large file stays fast.
func nodeAt(n *schema.Node, span schema.Span) *schema.Node {
	off := span.Start.Offset
	for n != nil {
		if off < n.Span.Start.Offset || off >= n.Span.End.Offset {
			return nil
		}
		if n.Span.Start.Offset == off {
			return n
		}
		switch n.Kind {
		case schema.Object:
			i := sort.Search(len(n.Members), func(i int) bool { return n.Members[i].Value.Span.End.Offset > off })
			if i == len(n.Members) {
				return nil
			}
			n = n.Members[i].Value
		case schema.Array:
			i := sort.Search(len(n.Elems), func(i int) bool { return n.Elems[i].Span.End.Offset > off })
			if i == len(n.Elems) {
				return nil
			}
			n = n.Elems[i]
		default:
			return nil
		}
	}
	return nil
}
