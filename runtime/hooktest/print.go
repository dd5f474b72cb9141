package hooktest

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/fatih/color"

	"github.com/hookctl/hookctl/internal/paint"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// maxStderrLines is how much of a failed handler's stderr a report shows:
// the end, where scripts and interpreters put the error.
const maxStderrLines = 20

// Colours of the text report, made when used: color.NoColor (set from
// hookctl's --color) decides. A colour made by color.New when NO_COLOR is
// set stays colourless for good, which would defeat --color always.
func okColor() *color.Color   { return paint.New(color.FgGreen) }
func failColor() *color.Color { return paint.New(color.FgRed, color.Bold) }
func wantColor() *color.Color { return paint.New(color.FgGreen) }
func gotColor() *color.Color  { return paint.New(color.FgRed) }
func dimColor() *color.Color  { return paint.New(color.Faint) }

// TextPrinter writes reports for people: one line per case, and for a
// failed case what differs, the merged answer, the failed handlers with
// their stderr, and the dispatch's notes.
type TextPrinter struct {
	W io.Writer
	// Dir, when set, is the folder that paths of hooks.json files are shown
	// relative to.
	Dir string
}

// Case writes one case's report.
func (p *TextPrinter) Case(r *Report) error {
	w := &errWriter{w: p.W}
	// Names, stderr and notes come from files and handlers: their control
	// characters are shown as escapes, never sent to the terminal.
	name := schema.Visible(r.Case.Name)
	if r.Passed() {
		w.printf("%s %s %s\n", okColor().Sprint("ok  "), name, dimColor().Sprintf("(%s)", FormatDuration(r.Duration)))
		return w.err
	}
	w.printf("%s %s %s\n", failColor().Sprint("FAIL"), name, dimColor().Sprintf("(%s)", FormatDuration(r.Duration)))
	if r.Err != nil {
		w.printf("    %s: cannot dispatch the case: %s\n", r.Case.Where(r.Case.Pos), schema.Visible(r.Err.Error()))
		return w.err
	}
	for _, m := range r.Mismatches {
		w.printf("    %s: %s\n", r.Case.Where(m.Pos), m.Path)
		want := jsonText(m.Want)
		if m.Contains {
			want = "text containing " + want
		}
		got := jsonText(m.Got)
		if m.Missing {
			got = fmt.Sprintf("nothing (the answer has no %s)", m.Path)
		}
		w.printf("        want: %s\n", wantColor().Sprint(want))
		w.printf("        got:  %s\n", gotColor().Sprint(got))
	}
	for _, m := range r.Missing {
		w.printf("    %s\n", m)
	}
	w.printf("    answer: %s\n", r.Answer)
	expected := map[*runtime.Outcome]bool{}
	for _, f := range r.Failures {
		expected[f.Outcome] = f.Expected
	}
	for _, o := range r.Result.Outcomes {
		what := p.outcome(o, expected[o])
		if o.Hook == "" {
			w.printf("    %s: %s\n", schema.Visible(p.where(o.Step)), what)
		} else {
			w.printf("    hook %q %s (%s)\n", o.Hook, what, schema.Visible(p.where(o.Step)))
		}
		if o.Kind == runtime.Blocked {
			continue // its stderr is the reason, shown above
		}
		lines := stderrLines(o.Stderr)
		if len(lines) > 0 {
			w.printf("        stderr:\n")
		}
		for _, l := range lines {
			w.printf("        | %s\n", schema.VisibleLine(l))
		}
	}
	for _, n := range r.Notes() {
		w.printf("    note: %s\n", schema.Visible(n))
	}
	return w.err
}

// outcome says how a handler ended.
func (p *TextPrinter) outcome(o *runtime.Outcome, expected bool) string {
	switch o.Kind {
	case runtime.Failed:
		if expected {
			return "failed, as expected: " + schema.Visible(o.Cause)
		}
		return gotColor().Sprint("failed: ") + schema.Visible(o.Cause)
	case runtime.Answered:
		return "answered " + string(o.Answer)
	case runtime.Blocked:
		return fmt.Sprintf("blocked (exit status 2): %s", jsonText(o.Reason))
	case runtime.NoAnswer:
		return "gave no answer"
	}
	return "did not run: an earlier handler denied the call"
}

// Summary writes the closing line.
func (p *TextPrinter) Summary(passed, failed int) error {
	_, err := fmt.Fprintf(p.W, "%d passed, %d failed\n", passed, failed)
	return err
}

// where names a step's place, relative to Dir when it lies below it.
func (p *TextPrinter) where(s *runtime.Step) string {
	if s == nil {
		return ""
	}
	where := s.Where()
	if p.Dir != "" {
		if rel, err := filepath.Rel(p.Dir, s.Source.Path); err == nil && !strings.HasPrefix(rel, "..") {
			where = rel + strings.TrimPrefix(where, s.Source.Path)
		}
	}
	return where
}

// stderrLines returns the last lines of a handler's stderr.
func stderrLines(b []byte) []string {
	s := strings.TrimRight(string(b), "\n\r\t ")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if len(lines) > maxStderrLines {
		skipped := len(lines) - maxStderrLines
		lines = append([]string{fmt.Sprintf("(%d earlier lines)", skipped)}, lines[skipped:]...)
	}
	return lines
}

// FormatDuration writes a case's duration as people read it: 12ms, 1.5s.
func FormatDuration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.2gs", d.Seconds())
}

// errWriter keeps the first write error, so that a report is written
// without checking each line.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// JSONReport is the machine-readable form of a run: every case, and the
// counts.
type JSONReport struct {
	Cases  []JSONCase `json:"cases"`
	Passed int        `json:"passed"`
	Failed int        `json:"failed"`
}

// Add counts the case r reports, passed or failed, and adds its report.
func (j *JSONReport) Add(r *Report) {
	if r.Passed() {
		j.Passed++
	} else {
		j.Failed++
	}
	j.Cases = append(j.Cases, r.JSON())
}

// WriteJSON writes the report as hookctl test --format json prints it:
// one object, indented, with every case in the order they ran.
func (j *JSONReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}

// JSONCase is one case's report.
type JSONCase struct {
	Name       string `json:"name"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	Event      string `json:"event"`
	Passed     bool   `json:"passed"`
	DurationMs int64  `json:"durationMs"`
	// Answer is the merged answer, null when the case could not be
	// dispatched (see Error).
	Answer     json.RawMessage `json:"answer"`
	Mismatches []JSONMismatch  `json:"mismatches"`
	Failures   []JSONFailure   `json:"failures"`
	// MissingFailures are the hooks expected to fail that did not.
	MissingFailures []string `json:"missingFailures"`
	Notes           []string `json:"notes"`
	Error           string   `json:"error,omitempty"`
}

// JSONMismatch is a place where the answer differs from the expectation.
type JSONMismatch struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Want     any    `json:"want"`
	Got      any    `json:"got"`
	Missing  bool   `json:"missing"`
	Contains bool   `json:"contains"`
}

// JSONFailure is a failed handler.
type JSONFailure struct {
	Hook     string `json:"hook"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Cause    string `json:"cause"`
	ExitCode int    `json:"exitCode"`
	Stderr   string `json:"stderr"`
	Expected bool   `json:"expected"`
}

// JSON returns the case's report in its machine-readable form.
func (r *Report) JSON() JSONCase {
	c := r.Case
	j := JSONCase{
		Name: c.Name, File: c.File(), Line: c.Pos.Line, Column: c.Pos.Col, Event: string(c.Event),
		Passed: r.Passed(), DurationMs: r.Duration.Milliseconds(), Answer: r.Answer,
		Mismatches: []JSONMismatch{}, Failures: []JSONFailure{}, MissingFailures: []string{}, Notes: []string{},
	}
	if r.Err != nil {
		j.Error = r.Err.Error()
	}
	if j.Answer == nil {
		j.Answer = json.RawMessage("null")
	}
	for _, m := range r.Mismatches {
		j.Mismatches = append(j.Mismatches, JSONMismatch{Path: m.Path, Line: m.Pos.Line, Column: m.Pos.Col,
			Want: m.Want, Got: m.Got, Missing: m.Missing, Contains: m.Contains})
	}
	for _, f := range r.Failures {
		o := f.Outcome
		jf := JSONFailure{Hook: o.Hook, Cause: o.Cause, ExitCode: o.ExitCode, Stderr: string(o.Stderr), Expected: f.Expected}
		if o.Step != nil {
			jf.File, jf.Line, jf.Column = o.Step.Source.Path, o.Step.Pos.Line, o.Step.Pos.Col
		}
		j.Failures = append(j.Failures, jf)
	}
	j.MissingFailures = append(j.MissingFailures, r.Missing...)
	j.Notes = append(j.Notes, r.Notes()...)
	return j
}
