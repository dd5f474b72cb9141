package lint

import (
	"fmt"
	"strconv"

	"github.com/hookctl/hookctl/schema"
)

type timeoutValue struct{ RuleBase }

func newTimeoutValue() Rule {
	return &timeoutValue{newBase("timeout-value", Error,
		"error: a timeout that is not a whole number of seconds >= 1; warning: 1000 or more (probably milliseconds)")}
}

// msLike is where a timeout in seconds starts to look like milliseconds:
// 1000 seconds is over a quarter of an hour for one handler.
const msLike = 1000

func (r *timeoutValue) Check(f *File) {
	for _, p := range f.problems(r.id) {
		sugg := ""
		if n := nodeAt(f.Config.Root, p.Span); n != nil {
			switch n.Kind {
			case schema.String:
				if i, err := strconv.Atoi(n.Str); err == nil && i >= 1 {
					sugg = n.Str
				}
			case schema.Number:
				if v, err := strconv.ParseFloat(n.Str, 64); err == nil && v >= 1 && v < 1<<31 {
					sugg = strconv.Itoa(int(v + 0.999999))
				}
			}
		}
		r.report(f, p.Span, sugg, "%s", p.Msg)
	}
	for _, h := range f.allHandlers() {
		t := h.Node.Get("timeout")
		if t == nil || t.Value.Kind != schema.Number {
			continue
		}
		secs, err := strconv.ParseInt(t.Value.Str, 10, 32)
		if err != nil || secs < msLike {
			continue
		}
		s := max(1, (secs+999)/1000)
		r.reportSeverity(f, Warning, t.Value.Span, strconv.FormatInt(s, 10),
			"\"timeout\" is in seconds: %d is %s; if you meant milliseconds, write %d", secs, humanSeconds(secs), s)
	}
}

func humanSeconds(s int64) string {
	switch {
	case s >= 3600:
		return fmt.Sprintf("%.1f hours", float64(s)/3600)
	default:
		return fmt.Sprintf("%.0f minutes", float64(s)/60)
	}
}
