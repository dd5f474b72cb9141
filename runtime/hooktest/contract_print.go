package hooktest

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

// argsWidth is how much of a call's arguments a text report shows.
const argsWidth = 120

// ContractPrinter writes a contract check's report for people: one line
// per handler, in config order, each followed by what failed and the call
// that made it fail, then the closing count.
type ContractPrinter struct {
	W io.Writer
	// Dir, when set, is the folder that paths of hooks.json files are shown
	// relative to.
	Dir string

	widths [4]int
}

// Handler writes one handler's lines. Its columns line up with those of
// every handler of the report.
func (p *ContractPrinter) Handler(r *ContractReport, h *HandlerReport) error {
	if p.widths == [4]int{} {
		for _, o := range r.Handlers {
			for i, col := range p.columns(o) {
				p.widths[i] = max(p.widths[i], utf8.RuneCountInString(col))
			}
		}
	}
	w := &errWriter{w: p.W}
	mark := okColor().Sprint("ok  ")
	switch h.Status() {
	case StatusFail:
		mark = failColor().Sprint("FAIL")
	case StatusSkip:
		mark = dimColor().Sprint("skip")
	}
	cols := p.columns(h)
	var b strings.Builder
	for i, col := range cols {
		if i == len(cols)-1 && h.Broken != "" {
			b.WriteString(gotColor().Sprint(schema.Visible(h.Broken)))
			break
		}
		if i == len(cols)-1 && h.Skipped != "" {
			b.WriteString(dimColor().Sprint(h.Skipped))
			break
		}
		b.WriteString(col)
		b.WriteString(strings.Repeat(" ", p.widths[i]-utf8.RuneCountInString(col)+2))
	}
	if h.Skipped == "" && h.Broken == "" && len(h.Ran()) > 0 {
		b.WriteString(dimColor().Sprintf("slowest %s, p50 %s", formatDuration(h.Max()), formatDuration(h.P50())))
	}
	line := strings.TrimRight(b.String(), " ")
	w.printf("%s %s\n", mark, line)
	if w.err != nil {
		return w.err
	}
	return p.Details(h)
}

// Details writes the lines under a handler's: its note, each failure with
// the call that made it fail, the calls not sent.
func (p *ContractPrinter) Details(h *HandlerReport) error {
	w := &errWriter{w: p.W}
	if h.Note != "" {
		w.printf("    note: %s\n", schema.Visible(h.Note))
	}
	for _, g := range groupFailures(h) {
		w.printf("    %s %s\n", gotColor().Sprint(schema.Visible(g.failed.Message)), dimColor().Sprintf("[%s]", g.failed.Check))
		on := "on " + g.first.Summary(argsWidth)
		if g.others > 0 {
			on += " and " + schema.Plural(g.others, "other call")
		}
		w.printf("      %s\n", on)
	}
	if n := len(h.Calls) - len(h.Ran()); n > 0 && h.Skipped == "" && h.Broken == "" {
		w.printf("    %s not sent after the timeout\n", schema.Plural(n, "other call"))
	}
	return w.err
}

// columns are the aligned parts of a handler's line: name, place, event
// and number of calls.
func (p *ContractPrinter) columns(h *HandlerReport) [4]string {
	calls := ""
	if h.Skipped == "" && h.Broken == "" {
		calls = schema.Plural(len(h.Calls), "call")
	}
	return [4]string{printable(h.Hook), p.where(h), string(h.Event), calls}
}

// Summary writes one line for each file the agent drops whole, then the
// closing line: N passed, N failed, and N not checked when some part of
// the files was not (see ContractReport.NotChecked).
func (p *ContractPrinter) Summary(r *ContractReport) error {
	for _, d := range r.Dropped {
		if _, err := fmt.Fprintf(p.W, "%s %s\n", failColor().Sprint("FAIL"), p.dropLine(d)); err != nil {
			return err
		}
	}
	passed, failed := r.Counts()
	line := fmt.Sprintf("%d passed, %d failed", passed, failed)
	if n := r.NotChecked(); n > 0 {
		line += fmt.Sprintf(", %d not checked", n)
	}
	_, err := fmt.Fprintln(p.W, line)
	return err
}

// where names a handler's place, relative to Dir when it lies below it.
func (p *ContractPrinter) where(h *HandlerReport) string {
	return p.place(h.Source.Path, h.Pos)
}

// dropLine says that the agent drops a file whole, and why.
func (p *ContractPrinter) dropLine(d DroppedFile) string {
	return p.place(d.Path, d.Pos) + ": " + schema.Visible(d.Why)
}

// place formats FILE:LINE:COL, the file relative to Dir when it lies
// below it.
func (p *ContractPrinter) place(path string, pos schema.Pos) string {
	if p.Dir != "" {
		if rel, err := filepath.Rel(p.Dir, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	return fmt.Sprintf("%s:%d:%d", printable(path), pos.Line, pos.Col)
}

// failureGroup is one failure shared by several calls of a handler.
type failureGroup struct {
	failed Failed
	first  *CallReport
	others int
}

// groupFailures gathers a handler's failures: calls that failed alike are
// reported once, with the first of them. Budget overruns differ only by
// their durations, so they are one group, shown by the slowest call.
func groupFailures(h *HandlerReport) []*failureGroup {
	var out []*failureGroup
	byKey := map[string]*failureGroup{}
	for _, c := range h.Calls {
		for _, f := range c.Failures {
			key := string(f.Check) + "\x00" + f.Message
			if f.Check == CheckBudget {
				key = string(f.Check)
			}
			g, ok := byKey[key]
			if !ok {
				g = &failureGroup{failed: f, first: c}
				byKey[key] = g
				out = append(out, g)
				continue
			}
			g.others++
			if f.Check == CheckBudget && c.Duration > g.first.Duration {
				g.failed, g.first = f, c
			}
		}
	}
	return out
}

// ContractJSON is a handler's report in its machine-readable form.
type ContractJSON struct {
	Hook   string `json:"hook"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Event  string `json:"event"`
	// Matcher is the group's matcher as written, for the tool events.
	Matcher *string `json:"matcher,omitempty"`
	Command string  `json:"command"`
	// Timeout is the handler's timeout in seconds.
	Timeout int    `json:"timeout"`
	Status  Status `json:"status"`
	// Skipped says why the handler was not run.
	Skipped string `json:"skipped,omitempty"`
	// Broken says why the part cannot run at all (it is invalid).
	Broken string `json:"broken,omitempty"`
	Note   string `json:"note,omitempty"`
	// P50Ms and MaxMs are the median and the longest call, in milliseconds.
	P50Ms int64              `json:"p50Ms"`
	MaxMs int64              `json:"maxMs"`
	Calls []ContractCallJSON `json:"calls"`
	// Dropped marks the entry of a file the agent loads none of, for a
	// cause no handler's entry holds: it names no hook, and Broken says
	// why.
	Dropped bool `json:"dropped,omitempty"`
}

// ContractCallJSON is one call's result.
type ContractCallJSON struct {
	Tool       string          `json:"tool,omitempty"`
	Args       json.RawMessage `json:"args,omitempty"`
	Status     Status          `json:"status"`
	Skipped    string          `json:"skipped,omitempty"`
	DurationMs int64           `json:"durationMs"`
	ExitCode   int             `json:"exitCode"`
	// Answer is the answer as the runtime reads it, null for none.
	Answer json.RawMessage `json:"answer"`
	// Stdout and Stderr are given for a failed call, cut to 4 KiB.
	Stdout   string            `json:"stdout,omitempty"`
	Stderr   string            `json:"stderr,omitempty"`
	Failures []ContractFailure `json:"failures"`
}

// ContractFailure is a check a call failed.
type ContractFailure struct {
	Check   Check  `json:"check"`
	Message string `json:"message"`
}

// jsonOutputCap bounds the stdout and stderr a JSON report carries.
const jsonOutputCap = 4 << 10

// JSON returns the handler's report in its machine-readable form.
func (h *HandlerReport) JSON() ContractJSON {
	j := ContractJSON{
		Hook: h.Hook, File: h.Source.Path, Line: h.Pos.Line, Column: h.Pos.Col, Event: string(h.Event),
		Status: h.Status(), Skipped: h.Skipped, Broken: h.Broken, Note: h.Note,
		P50Ms: h.P50().Milliseconds(), MaxMs: h.Max().Milliseconds(), Calls: []ContractCallJSON{},
	}
	if h.Handler != nil {
		j.Command, j.Timeout = h.Handler.Command, h.Handler.TimeoutSeconds()
	}
	if h.Event.IsTool() {
		m := h.Matcher
		j.Matcher = &m
	}
	if h.Skipped != "" || h.Broken != "" {
		return j
	}
	for _, c := range h.Calls {
		cj := ContractCallJSON{Tool: c.Tool, Args: c.Args, Status: c.Status(), Skipped: c.Skipped,
			DurationMs: c.Duration.Milliseconds(), ExitCode: c.ExitCode, Answer: c.Answer, Failures: []ContractFailure{}}
		if cj.Answer == nil {
			cj.Answer = json.RawMessage("null")
		}
		if c.Skipped != "" {
			cj.ExitCode = -1
		}
		if len(c.Failures) > 0 {
			cj.Stdout, cj.Stderr = capText(c.Stdout), capText(c.Stderr)
		}
		for _, f := range c.Failures {
			cj.Failures = append(cj.Failures, ContractFailure(f))
		}
		j.Calls = append(j.Calls, cj)
	}
	return j
}

// WriteJSON writes the report as hookctl test --contract --format json
// prints it: an array of the handlers' reports (ContractJSON), in config
// order, indented, then one entry for each file the agent drops whole
// that no handler's entry fails for, so that the entries that fail are
// the failures counted.
func (r *ContractReport) WriteJSON(w io.Writer) error {
	out := make([]ContractJSON, 0, len(r.Handlers))
	for _, h := range r.Handlers {
		out = append(out, h.JSON())
	}
	for _, d := range r.Dropped {
		if d.Counted {
			out = append(out, ContractJSON{File: d.Path, Line: d.Pos.Line, Column: d.Pos.Col,
				Status: StatusFail, Broken: d.Why, Calls: []ContractCallJSON{}, Dropped: true})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// capText returns the start of a handler's output, valid UTF-8.
func capText(b []byte) string {
	cut := len(b) > jsonOutputCap
	if cut {
		b = b[:jsonOutputCap]
	}
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if cut {
		s += "..."
	}
	return s
}

// formatDuration writes a duration as people read it: 12ms, 1.5s, 2m30s.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64) + "s"
	}
	return d.Round(time.Second).String()
}
