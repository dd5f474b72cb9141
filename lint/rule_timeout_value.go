package lint

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hookctl/hookctl/schema"
)

type timeoutValue struct{ RuleBase }

func newTimeoutValue() Rule {
	return &timeoutValue{newBase(schema.RuleTimeoutValue, Error,
		"error: a timeout that is not a whole number of seconds >= 1; warning: one that reads as milliseconds (5000, 30000)")}
}

func (r *timeoutValue) Check(f *File) {
	for _, p := range f.problems(r.id) {
		sugg, msg := "", p.Msg
		var fix *Fix
		if n := nodeAt(f.Config.Root, p.Span); n != nil {
			switch n.Kind {
			case schema.String:
				if i, err := strconv.Atoi(n.Str); err == nil && i >= 1 && i <= schema.MaxTimeout {
					sugg = strconv.Itoa(i)
					fix = replaceFix("write "+sugg+" without quotes", n.Span, sugg)
				}
			case schema.Number:
				v, err := strconv.ParseFloat(n.Str, 64)
				switch {
				case (err == nil || math.IsInf(v, 1)) && v > schema.MaxTimeout:
					sugg, msg = tooLong(n.Str)
				case err == nil && v >= 1:
					sugg = strconv.Itoa(int(v + 0.999999))
					if v == math.Trunc(v) {
						// 10.0 and 1e1 are ten, written as the agent
						// cannot read them.
						fix = replaceFix("write "+sugg, n.Span, sugg)
					}
				}
			}
		}
		r.reportProblem(f, &p, p.Span, fix, sugg, "%s", msg)
	}
	for _, h := range f.allHandlers() {
		t := h.Node.Get("timeout")
		if t == nil || t.Value.Kind != schema.Number {
			continue
		}
		secs, err := strconv.ParseInt(t.Value.Str, 10, 32)
		if err != nil || !schema.ReadsAsMilliseconds(float64(secs)) {
			continue
		}
		s := max(1, (secs+999)/1000)
		var fix *Fix
		if secs%1000 == 0 {
			// Whole seconds in milliseconds: nothing else reads so.
			fix = replaceFix(fmt.Sprintf("write %d (seconds)", s), t.Value.Span, strconv.FormatInt(s, 10))
		}
		r.reportSeverityFix(f, Warning, t.Value.Span, fix, strconv.FormatInt(s, 10),
			"\"timeout\" is in seconds: %d is %s; if you meant milliseconds, write %d", secs, humanSeconds(secs), s)
	}
}

// tooLong explains a timeout longer than the longest there is and
// suggests the longest: read as milliseconds it would still be weeks,
// not a usual timeout.
func tooLong(text string) (suggestion, msg string) {
	return strconv.Itoa(schema.MaxTimeout), fmt.Sprintf("\"timeout\" must be a whole number of seconds from 1 to %d (about 68 years), not %s: write at most %d",
		schema.MaxTimeout, text, schema.MaxTimeout)
}

func humanSeconds(s int64) string {
	switch {
	case s >= 2*24*3600:
		return fmt.Sprintf("%.1f days", float64(s)/(24*3600))
	case s >= 3600:
		return fmt.Sprintf("%.1f hours", float64(s)/3600)
	default:
		return fmt.Sprintf("%.0f minutes", float64(s)/60)
	}
}

// Severities are those of the rule's findings, most serious first.
func (r *timeoutValue) Severities() []Severity { return []Severity{Error, Warning} }
