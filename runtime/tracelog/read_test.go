package tracelog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeLog writes lines to a file as they are.
func writeLog(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
}

func line(t *testing.T, r *Record) string {
	t.Helper()
	b, err := r.Line()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func ids(rs []*Record) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.ID)
	}
	return strings.Join(s, " ")
}

func TestTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rec := func(id, hook, event string, minute int) *Record {
		return &Record{ID: id, Time: base.Add(time.Duration(minute) * time.Minute), Kind: KindTrace, Hook: hook, Event: event}
	}
	writeLog(t, path+".1",
		line(t, rec("a1", "gate", "PreToolUse", 1)),
		"not json at all\n",
		line(t, rec("a2", "fmt", "PostToolUse", 2)),
	)
	run := rec("b1", "", "Stop", 3)
	run.Kind = KindRun
	run.Handlers = []Handler{{Hook: "keep-going", Outcome: "answered"}, {Hook: "notify", Outcome: "no answer"}}
	writeLog(t, path,
		line(t, run),
		`{"no":"id"}`+"\n",
		line(t, rec("b2", "gate", "PreToolUse or PostToolUse", 4)),
		line(t, rec("b3", "gate", "PreToolUse", 5)),
		`{"id":"half","time":"2026-03-01T12:06:00Z"`, // being written: no newline yet
	)
	l := &Log{Path: path}
	for _, c := range []struct {
		n       int
		f       Filter
		want    string
		skipped int
	}{
		{2, Filter{}, "b2 b3", 0},
		{0, Filter{}, "a1 a2 b1 b2 b3", 2},
		{4, Filter{}, "a2 b1 b2 b3", 1},
		{3, Filter{}, "b1 b2 b3", 1},
		{10, Filter{Hook: "gate"}, "a1 b2 b3", 2},
		{10, Filter{Hook: "notify"}, "b1", 2},
		{10, Filter{Event: "PreToolUse"}, "a1 b2 b3", 2},
		{10, Filter{Event: "PostToolUse"}, "a2 b2", 2},
		{1, Filter{Event: "PostToolUse"}, "b2", 0},
		{10, Filter{Since: base.Add(3 * time.Minute)}, "b1 b2 b3", 2},
	} {
		b, err := l.Tail(c.n, c.f)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(b.Records); got != c.want || b.Skipped != c.skipped {
			t.Errorf("Tail(%d, %+v) = %q skipping %d, want %q skipping %d", c.n, c.f, got, b.Skipped, c.want, c.skipped)
		}
	}
	// A log that does not exist yet is empty.
	b, err := (&Log{Path: filepath.Join(t.TempDir(), "none.jsonl")}).Tail(5, Filter{})
	if err != nil || len(b.Records) != 0 {
		t.Errorf("missing log: %v, %v", b, err)
	}
}

func TestFind(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	writeLog(t, path+".1", line(t, &Record{ID: "abcd1111zzzzzzzz", Hook: "old"}))
	writeLog(t, path,
		line(t, &Record{ID: "abcd2222zzzzzzzz", Hook: "new"}),
		line(t, &Record{ID: "efgh3333zzzzzzzz", Hook: "newer"}),
		"garbage mentioning efgh\n",
	)
	l := &Log{Path: path}
	for id, want := range map[string]string{
		"abcd1111zzzzzzzz": "old", "abcd1111": "old", "ABCD2222": "new", " efgh ": "newer",
	} {
		r, err := l.Find(id)
		if err != nil || r.Hook != want {
			t.Errorf("Find(%q) = %v, %v; want hook %s", id, r, err, want)
		}
	}
	// The shortest start that is unique will do.
	if r, err := l.Find("e"); err != nil || r.Hook != "newer" {
		t.Errorf("Find(\"e\") = %v, %v", r, err)
	}
	_, err := l.Find("ab")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || len(amb.Matches) != 2 {
		t.Fatalf("ambiguous prefix: %v", err)
	}
	want := "2 records have an ID that starts with \"ab\"; give more of it:\n" +
		"  abcd2  0001-01-01T00:00:00Z  -  new\n" +
		"  abcd1  0001-01-01T00:00:00Z  -  old"
	if err.Error() != want {
		t.Errorf("ambiguous prefix:\n%s\nwant\n%s", err, want)
	}
	for _, id := range []string{"zzzz", "", "nothing", "abcd3"} {
		if _, err := l.Find(id); err != ErrNotFound {
			t.Errorf("Find(%q): %v, want ErrNotFound", id, err)
		}
	}
}

func TestFollowThroughRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	l := &Log{Path: path, RotateAt: 2000}
	for i := range 3 {
		if err := l.Append(&Record{ID: fmt.Sprintf("old%d", i), Kind: KindTrace}); err != nil {
			t.Fatal(err)
		}
	}
	start, err := l.Tail(10, Filter{})
	if err != nil || len(start.Records) != 3 {
		t.Fatalf("%v %v", start, err)
	}
	// Appended between the Tail and the Follow: still followed.
	if err := l.Append(&Record{ID: "between", Kind: KindTrace, Hook: "w"}); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var got []string
	skipped := 0
	done := make(chan error, 1)
	go func() {
		done <- l.Follow(ctx, start.End, Filter{Hook: "w"}, 5*time.Millisecond, func(r *Record) error {
			mu.Lock()
			got = append(got, r.ID)
			mu.Unlock()
			return nil
		}, func(n int) {
			mu.Lock()
			skipped += n
			mu.Unlock()
		})
	}()

	// The writer: records of about 300 bytes, a rotation every six or
	// seven, some of another hook (filtered out), and a stray line.
	const n = 40
	for i := range n {
		hook := "w"
		if i%5 == 4 {
			hook = "other"
		}
		if err := l.Append(&Record{ID: fmt.Sprintf("new%02d", i), Kind: KindTrace, Hook: hook, Stderr: strings.Repeat("e", 200)}); err != nil {
			t.Fatal(err)
		}
		if i == 10 {
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("stray line\n")
			f.Close()
		}
		time.Sleep(3 * time.Millisecond)
	}
	want := []string{"between"}
	for i := range n {
		if i%5 != 4 {
			want = append(want, fmt.Sprintf("new%02d", i))
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		g := strings.Join(got, " ")
		s := skipped
		mu.Unlock()
		if g == strings.Join(want, " ") && s == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("followed %q (skipped %d)\nwant     %q (skipped 1)", g, s, strings.Join(want, " "))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := os.Stat(path + ".1"); err != nil {
		t.Fatal("the log never rotated: the test tests nothing")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A follower that looks away while the log rotates twice still reads the
// file written and rotated in between, whole, and no record twice; a
// rotated file older than the follow is not read again.
func TestFollowTwoRotationsBetweenSteps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	l := &Log{Path: path, RotateAt: 1000}
	appendIDs := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			if err := l.Append(&Record{ID: fmt.Sprintf("r%02d", i), Kind: KindTrace, Stderr: strings.Repeat("e", 200)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A rotated file from before: its records came before the follow.
	appendIDs(0, 6)
	start, err := l.Tail(1, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.Rotated()); err != nil {
		t.Fatal("no rotated file before the follow: the test tests nothing")
	}
	var got []string
	fw := &follower{log: l, seen: map[string]bool{},
		emit: func(r *Record) error { got = append(got, r.ID); return nil }}
	defer fw.close()
	if f, _, err := openRead(l.Rotated()); err == nil {
		fw.seen[head(f)] = true
		f.Close()
	}
	if err := fw.step(start.End); err != nil {
		t.Fatal(err)
	}
	inode := func(p string) uint64 {
		pos, err := statLog(p)
		if err != nil {
			t.Fatal(err)
		}
		return pos.ino
	}
	// Two rotations before the next step: the second one's record is the
	// first of the new file.
	next, rotations, last := 6, 0, inode(path)
	for rotations < 2 {
		appendIDs(next, next+1)
		next++
		if now := inode(path); now != last {
			rotations, last = rotations+1, now
		}
	}
	if err := fw.step(Position{}); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := 6; i < next; i++ {
		want = append(want, fmt.Sprintf("r%02d", i))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("followed %v\nwant     %v", got, want)
	}
	// The log removed, not rotated: the rotated file is not read again.
	got = nil
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	appendIDs(next, next+1)
	if err := fw.step(Position{}); err != nil {
		t.Fatal(err)
	}
	if w := fmt.Sprintf("r%02d", next); strings.Join(got, " ") != w {
		t.Errorf("after the log was removed, followed %v, want [%s]", got, w)
	}
}
