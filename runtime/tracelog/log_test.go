package tracelog

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/fifo"
)

// TestMain lets the test binary act as a writer process of the concurrency
// tests.
func TestMain(m *testing.M) {
	if n := os.Getenv("TRACELOG_FSIZE"); n != "" {
		// A writer that may not make a file larger than n bytes, as on a
		// disk that is full at n.
		limit, _ := strconv.ParseUint(n, 10, 64)
		if err := limitFileSize(limit); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
	if os.Getenv("TRACELOG_WRITER") != "" {
		os.Exit(writerMain())
	}
	os.Exit(m.Run())
}

// writerMain appends TRACELOG_COUNT records named after TRACELOG_WRITER
// to TRACELOG_PATH, rotating at TRACELOG_ROTATE bytes.
func writerMain() int {
	n, _ := strconv.Atoi(os.Getenv("TRACELOG_COUNT"))
	at, _ := strconv.ParseInt(os.Getenv("TRACELOG_ROTATE"), 10, 64)
	l := &Log{Path: os.Getenv("TRACELOG_PATH"), RotateAt: at}
	who := os.Getenv("TRACELOG_WRITER")
	pad := strings.Repeat("p", 150)
	for i := range n {
		r := &Record{ID: fmt.Sprintf("%s-%d", who, i), Time: time.Now(), Kind: KindTrace, Hook: who, Stderr: pad}
		if err := l.Append(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// readIDs returns the ids of every line of the files, failing on a line
// that does not parse.
func readIDs(t *testing.T, paths ...string) map[string]int {
	t.Helper()
	ids := map[string]int{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			r, err := ParseLine(sc.Bytes())
			if err != nil {
				t.Fatalf("%s: a line does not parse (%v): %q", p, err, sc.Text())
			}
			ids[r.ID]++
		}
		f.Close()
	}
	return ids
}

func TestAppendConcurrentProcessesRotateOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "runs.jsonl")
	const writers, each = 8, 150
	// About 300 bytes a line: 360 KB in all, one rotation at 256 KB.
	const rotate = 256 << 10
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "TRACELOG_WRITER=w"+strconv.Itoa(w), "TRACELOG_COUNT="+strconv.Itoa(each),
				"TRACELOG_PATH="+path, "TRACELOG_ROTATE="+strconv.Itoa(rotate))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("writer %d: %v: %s", w, err, out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	ids := readIDs(t, path, path+".1")
	for w := range writers {
		for i := range each {
			id := fmt.Sprintf("w%d-%d", w, i)
			if ids[id] != 1 {
				t.Errorf("record %s appears %d times", id, ids[id])
			}
		}
	}
	if len(ids) != writers*each {
		t.Errorf("%d records, want %d", len(ids), writers*each)
	}
	cur, _ := os.Stat(path)
	old, _ := os.Stat(path + ".1")
	if old.Size() < rotate-MaxRecord || cur.Size() >= rotate {
		t.Errorf("sizes after one rotation: %d and %d (rotate at %d)", old.Size(), cur.Size(), rotate)
	}
	for _, p := range []string{path, filepath.Dir(path)} {
		info, _ := os.Stat(p)
		want := os.FileMode(0o600)
		if info.IsDir() {
			want = 0o700
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, info.Mode().Perm(), want)
		}
	}
}

func TestAppendRotatesKeepingOneOlderFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	l := &Log{Path: path, RotateAt: 1000}
	for i := range 20 {
		if err := l.Append(&Record{ID: fmt.Sprintf("r%02d", i), Kind: KindTrace, Stderr: strings.Repeat("s", 150)}); err != nil {
			t.Fatal(err)
		}
	}
	ids := readIDs(t, path+".1", path)
	// 20 lines of about 230 bytes, four to a file: the newest in the
	// current file, the four before in .1, the older ones gone.
	for i := 12; i < 20; i++ {
		if ids[fmt.Sprintf("r%02d", i)] != 1 {
			t.Errorf("r%02d missing from the two newest files: %v", i, ids)
		}
	}
	if _, err := os.Stat(path + ".2"); err == nil {
		t.Error("a second older file was kept")
	}
	if info, _ := os.Stat(path); info.Size() > 1000 {
		t.Errorf("the current file is %d bytes", info.Size())
	}
}

func TestAppendRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "fifo")
	if err := fifo.Make(pipe, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	// With a reader waiting, the open itself would succeed: the check is
	// on what was opened.
	go func() {
		f, err := os.OpenFile(pipe, os.O_RDONLY, 0)
		if err == nil {
			time.Sleep(2 * time.Second)
			f.Close()
		}
	}()
	for _, p := range []string{pipe, dir} {
		done := make(chan error, 1)
		go func() { done <- (&Log{Path: p}).Append(&Record{ID: "x"}) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), p) {
				t.Errorf("%s: error %v, want one naming the path", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("appending to %s blocked", p)
		}
	}
	if _, err := (&Log{Path: pipe}).Tail(10, Filter{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("reading a FIFO: %v", err)
	}
}

// TestLogFolderErrorsNameThePath: a log whose folder cannot be made or
// read says which folder, and why.
func TestLogFolderErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l := &Log{Path: filepath.Join(file, "state", "runs.jsonl")}
	want := "cannot open the log " + l.Path + ": " + file + " is not a folder"
	if err := l.Append(&Record{ID: "x"}); err == nil || err.Error() != want {
		t.Errorf("append: %v\nwant %s", err, want)
	}
	l = &Log{Path: filepath.Join(file, "runs.jsonl")}
	want = "cannot read the log " + l.Path + ": " + file + " is not a folder"
	if _, err := l.Tail(1, Filter{}); err == nil || err.Error() != want {
		t.Errorf("tail: %v\nwant %s", err, want)
	}
	if _, err := l.Find("abcd"); err == nil || err.Error() != want {
		t.Errorf("find: %v\nwant %s", err, want)
	}
	// A folder that cannot be made.
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o500); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() != 0 {
		l = &Log{Path: filepath.Join(ro, "state", "runs.jsonl")}
		want = "cannot create the log's folder " + filepath.Join(ro, "state") + ": permission denied"
		if err := l.Append(&Record{ID: "x"}); err == nil || err.Error() != want {
			t.Errorf("append: %v\nwant %s", err, want)
		}
	}
}

func TestAppendToDevNullWritesNothing(t *testing.T) {
	l := &Log{Path: os.DevNull}
	if err := l.Append(&Record{ID: "x"}); err != nil {
		t.Fatal(err)
	}
	b, err := l.Tail(5, Filter{})
	if err != nil || len(b.Records) != 0 {
		t.Fatalf("%v %v", b, err)
	}
}

func TestDefaultPath(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOOKCTL_LOG": "/x/l.jsonl", "XDG_STATE_HOME": "/s", "HOME": "/h"}, "/x/l.jsonl"},
		{map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"}, "/s/hookctl/runs.jsonl"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"}, "/h/.local/state/hookctl/runs.jsonl"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/hookctl/runs.jsonl"},
	} {
		got, err := DefaultPath(func(k string) string { return c.env[k] })
		if err != nil || got != c.want {
			t.Errorf("%v: %q, %v; want %q", c.env, got, err, c.want)
		}
	}
	if _, err := DefaultPath(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "HOOKCTL_LOG") {
		t.Errorf("no HOME: %v", err)
	}
}

// TestAppendOnAFullDisk appends, in a process that may not make the log
// larger than its size plus 40 bytes (RLIMIT_FSIZE, as a disk full at that
// point), a record of some 300 bytes: the write stops after 40 of them.
// Those are taken back, so that the next record, written once there is
// room, is not glued to them; before, both were one line that no reader
// could parse, and hookctl log skipped both.
func TestAppendOnAFullDisk(t *testing.T) {
	if !canLimitFileSize {
		t.Skip("no limit on the size of a process's files here (RLIMIT_FSIZE is Unix's)")
	}
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	l := &Log{Path: path}
	for _, id := range []string{"before-1", "before-2"} {
		if err := l.Append(&Record{ID: id, Kind: KindTrace}); err != nil {
			t.Fatal(err)
		}
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "TRACELOG_WRITER=full", "TRACELOG_COUNT=1", "TRACELOG_PATH="+path,
		"TRACELOG_FSIZE="+strconv.Itoa(len(before)+40))
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("the writer on a full disk: %v, want exit 1 (the record not written): %s", err, out)
	}
	if want := "only 40 of "; !strings.Contains(string(out), want) || !strings.Contains(string(out), "the record was not written") {
		t.Errorf("the writer said %q", out)
	}
	if now, _ := os.ReadFile(path); string(now) != string(before) {
		t.Errorf("the log after the short write:\n%q\nwant it as it was:\n%q", now, before)
	}
	if err := l.Append(&Record{ID: "after", Kind: KindTrace}); err != nil {
		t.Fatal(err)
	}
	ids := readIDs(t, path)
	if len(ids) != 3 || ids["before-1"] != 1 || ids["before-2"] != 1 || ids["after"] != 1 {
		t.Errorf("records %v, want before-1, before-2 and after", ids)
	}
}

// TestAppendAfterACutRecord: a log whose last record was cut before its
// newline (a crash, or a hookctl that did not take a short write back)
// gets the next record on a line of its own, which reads.
func TestAppendAfterACutRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"cut","time":"2026-`), 0o600); err != nil {
		t.Fatal(err)
	}
	l := &Log{Path: path}
	if err := l.Append(&Record{ID: "next", Kind: KindTrace}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 2 || lines[0] != `{"id":"cut","time":"2026-` {
		t.Fatalf("the log: %q", b)
	}
	if r, err := ParseLine([]byte(lines[1])); err != nil || r.ID != "next" {
		t.Errorf("the record after the cut one: %v, %v", r, err)
	}
}
