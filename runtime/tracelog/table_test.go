package tracelog

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestTableFollowShowsWholeEvents: --follow sets its columns before any
// record comes; the EVENT column holds every event's name whole, and the
// one cell of a dispatch of both tool events.
func TestTableFollowShowsWholeEvents(t *testing.T) {
	table := NewTable(nil, true)
	for _, event := range []string{"PreToolUse or PostToolUse", "PostInvocation", "SessionStart"} {
		var b bytes.Buffer
		if err := table.WriteRow(&b, &Record{ID: "abcdef0123456789", Time: time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC),
			Kind: KindTrace, Hook: "gate", Event: event, Exit: Int(0)}); err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll(event, "PreToolUse or PostToolUse", "Pre|PostToolUse")
		if f := strings.Fields(b.String()); len(f) < 2 || f[1] != want {
			t.Errorf("row %q: want the event %q whole", b.String(), want)
		}
	}
}

// TestTable: the columns fit the records, a long or hostile name is cut
// at its column's bound with …, and what a hook wrote is shown escaped.
func TestTable(t *testing.T) {
	at := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	rs := []*Record{
		{ID: "abcdef0123456789", Time: at, Kind: KindTrace, Hook: "gate", Event: "PreToolUse", Tool: "run_command", Exit: Int(0), Duration: 2.4},
		{ID: "0123456789abcdef", Time: at, Kind: KindTrace, Hook: "\x1b[2J" + strings.Repeat("h", 40), Event: "Stop", Exit: Int(2), Duration: 0.08},
	}
	var b bytes.Buffer
	tb := NewTable(rs, false)
	if err := tb.WriteHeader(&b); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if err := tb.WriteRow(&b, r); err != nil {
			t.Fatal(err)
		}
	}
	want := "" +
		"TIME                  EVENT       TOOL         HOOK                              EXIT  DECISION  DURATION  ID\n" +
		"2026-12-04T10:00:00Z  PreToolUse  run_command  gate                              0     -         2.4ms     abcdef01\n" +
		"2026-12-04T10:00:00Z  Stop        -            \\x1b[2Jhhhhhhhhhhhhhhhhhhhhhhhh…  2     continue  80µs      01234567\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestFormatDuration writes a duration as people read it.
func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		80 * time.Microsecond:   "80µs",
		2400 * time.Microsecond: "2.4ms",
		3 * time.Millisecond:    "3ms",
		12 * time.Millisecond:   "12ms",
		1500 * time.Millisecond: "1.5s",
		2 * time.Second:         "2s",
		90 * time.Second:        "1m30s",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestSkipped counts the lines that are not records, in words, and shows
// the log's path escaped.
func TestSkipped(t *testing.T) {
	if got, want := Skipped(1, "/tmp/runs.jsonl"), "skipped 1 line of /tmp/runs.jsonl that is not a record"; got != want {
		t.Errorf("Skipped(1) = %q, want %q", got, want)
	}
	if got, want := Skipped(3, "/tmp/\x1b[2J.jsonl"), `skipped 3 lines of /tmp/\x1b[2J.jsonl that are not records`; got != want {
		t.Errorf("Skipped(3) = %q, want %q", got, want)
	}
}

// TestIndented prints a record whole, indented, with what a terminal
// would act on escaped.
func TestIndented(t *testing.T) {
	b, err := (&Record{ID: "abc", Kind: KindTrace, Hook: "g\u009bate"}).Indented()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\n  \"id\": \"abc\",\n") || !strings.Contains(string(b), `"hook": "g\u009bate"`) {
		t.Errorf("indented:\n%s", b)
	}
}
