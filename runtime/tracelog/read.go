package tracelog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// Reading limits: the log is written by handlers, so a reader bounds what
// it takes in.
const (
	// readCap is how much of a file is read: its last 64 MiB. A log that
	// rotates is at most RotateSize plus one record.
	readCap = 64 << 20
	// lineCap is the longest line read as a record; a longer one was not
	// written by hookctl and is skipped.
	lineCap = 1 << 20
)

// ErrNotFound reports that no record has the ID asked for.
var ErrNotFound = errors.New("no record with that ID")

// Filter selects records. The zero Filter selects every record.
type Filter struct {
	// Hook selects records of that hook (for a run record, of a dispatch
	// that ran one of its handlers).
	Hook string
	// Event selects records of that event, including those whose payload
	// fit it and another ("PreToolUse or PostToolUse").
	Event string
	// Since selects records that started at that time or later.
	Since time.Time
}

// Match reports whether the filter selects r.
func (f Filter) Match(r *Record) bool {
	if !f.Since.IsZero() && r.Time.Before(f.Since) {
		return false
	}
	if f.Event != "" {
		found := false
		for _, e := range r.Events() {
			if e == f.Event {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	if f.Hook != "" && r.Hook != f.Hook {
		found := false
		for _, h := range r.Handlers {
			if h.Hook == f.Hook {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// mayMatch reports whether a line could hold a record the filter selects,
// without decoding it: the hook's and the event's names must be in it.
func (f Filter) mayMatch(line []byte) bool {
	for _, name := range []string{f.Hook, f.Event} {
		if q := schema.AppendJSONString(nil, name); name != "" && !bytes.Contains(line, q[1:len(q)-1]) {
			return false
		}
	}
	return true
}

// Position is where a read of the log stopped: a file and an offset in it.
// Follow goes on from it.
type Position struct {
	dev, ino uint64
	off      int64
}

// Batch is what a read of the log found.
type Batch struct {
	// Records are the records selected, oldest first.
	Records []*Record
	// Skipped counts the lines read that are not records.
	Skipped int
	// End is where the read stopped in the current file.
	End Position
}

// ParseLine decodes one line of the log. It fails for a line that is not
// a record: not JSON, not an object, or without an id.
func ParseLine(line []byte) (*Record, error) {
	if len(line) > lineCap {
		return nil, fmt.Errorf("a line of %d bytes is longer than any record", len(line))
	}
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, err
	}
	if r.ID == "" {
		return nil, errors.New("the line has no id")
	}
	return &r, nil
}

// Tail returns the last n records the filter selects (every one when n is
// 0 or less), oldest first, reading the current file from its end and the
// rotated one when the current one holds too few. An absent log is empty.
func (l *Log) Tail(n int, f Filter) (*Batch, error) {
	b := &Batch{}
	if l.Path == os.DevNull {
		return b, nil
	}
	var found []*Record // newest first
	for i, path := range []string{l.Path, l.Rotated()} {
		data, pos, err := readFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if i == 0 {
			b.End = pos
		}
		done := eachLineBackward(data, func(line []byte) bool {
			if !f.mayMatch(line) {
				// Not decoded: it cannot be selected. Still counted when it
				// is not a record.
				if !json.Valid(line) || !bytes.Contains(line, []byte(`"id":`)) {
					b.Skipped++
				}
				return true
			}
			r, err := ParseLine(line)
			if err != nil {
				b.Skipped++
				return true
			}
			if f.Match(r) {
				found = append(found, r)
			}
			return n <= 0 || len(found) < n
		})
		if !done {
			break
		}
	}
	for i, j := 0, len(found)-1; i < j; i, j = i+1, j-1 {
		found[i], found[j] = found[j], found[i]
	}
	b.Records = found
	return b, nil
}

// Find returns the record with the ID, or with an ID that starts with id
// when only one does (at least 4 characters: hookctl log shows 8). It
// reads the current file, then the rotated one.
func (l *Log) Find(id string) (*Record, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if l.Path == os.DevNull || id == "" {
		return nil, ErrNotFound
	}
	var matches []*Record
	for _, path := range []string{l.Path, l.Rotated()} {
		data, _, err := readFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var exact *Record
		eachLineBackward(data, func(line []byte) bool {
			if !bytes.Contains(line, []byte(id)) {
				return true
			}
			r, err := ParseLine(line)
			if err != nil {
				return true
			}
			switch {
			case r.ID == id:
				exact = r
				return false
			case strings.HasPrefix(r.ID, id):
				matches = append(matches, r)
			}
			return true
		})
		if exact != nil {
			return exact, nil
		}
	}
	switch len(matches) {
	case 0:
		return nil, ErrNotFound
	case 1:
		return matches[0], nil
	}
	return nil, &AmbiguousError{ID: id, Matches: matches}
}

// AmbiguousError reports that more than one record has an ID that starts
// with what was given.
type AmbiguousError struct {
	ID string
	// Matches are the records, newest first.
	Matches []*Record
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d records have an ID that starts with %q; give more of it:", len(e.Matches), e.ID)
	for i, r := range e.Matches {
		if i == 5 {
			fmt.Fprintf(&b, "\n  and %d more", len(e.Matches)-i)
			break
		}
		// The shortest start that tells this one from the others.
		n := len(e.ID) + 1
		for n < len(r.ID) && e.sharedPrefix(r, n) {
			n++
		}
		hook, event := r.Hook, r.Event
		if hook == "" {
			hook = "?"
		}
		if event == "" {
			event = "-"
		}
		fmt.Fprintf(&b, "\n  %s  %s  %s  %s", r.ID[:min(n, len(r.ID))], r.Time.UTC().Format(time.RFC3339), event, hook)
	}
	return b.String()
}

// sharedPrefix reports whether another match starts with r.ID's first n
// characters.
func (e *AmbiguousError) sharedPrefix(r *Record, n int) bool {
	for _, o := range e.Matches {
		if o != r && len(o.ID) >= n && o.ID[:n] == r.ID[:n] {
			return true
		}
	}
	return false
}

// Follow calls emit with each record the filter selects that is appended
// to the log after from (the End of a Tail), as it is written, checking
// the file every poll (0 means 250 ms), and skipped with the number of
// lines that are not records. It follows the log through rotations: what
// was appended to the old file before the rename is read first. It
// returns when ctx is done, or with emit's error.
func (l *Log) Follow(ctx context.Context, from Position, f Filter, poll time.Duration, emit func(*Record) error, skipped func(int)) error {
	if poll <= 0 {
		poll = 250 * time.Millisecond
	}
	if l.Path == os.DevNull {
		<-ctx.Done()
		return nil
	}
	fw := &follower{log: l, filter: f, emit: emit, skipped: skipped, seen: map[string]bool{}}
	defer fw.close()
	if f, pos, err := openRead(l.Rotated()); err == nil {
		// What the rotated file holds came before from, but for a rotation
		// between the Tail and now: then finish the old file first.
		fw.seen[head(f)] = true
		if from.ino != 0 && pos.dev == from.dev && pos.ino == from.ino {
			fw.file, fw.pos = f, from
			if err := fw.drain(); err != nil {
				return err
			}
			fw.close()
		} else {
			f.Close()
		}
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		if err := fw.step(from); err != nil {
			return err
		}
		from = Position{}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// follower holds the file Follow reads.
type follower struct {
	log     *Log
	filter  Filter
	emit    func(*Record) error
	skipped func(int)
	file    *os.File
	pos     Position
	partial []byte
	// seen are the files read, or known to hold only what came before,
	// by their first bytes (a record's ID and time): a rotated file not
	// among them was written while Follow looked away. Not by inode: a
	// rotation frees one and the new log takes it at once.
	seen map[string]bool
}

// headSize is how much of a file's start tells it from another: the
// first record's ID and time, whatever else it holds.
const headSize = 256

// head returns the first bytes of f.
func head(f *os.File) string {
	b := make([]byte, headSize)
	n, _ := f.ReadAt(b, 0)
	return string(b[:n])
}

func (fw *follower) close() {
	if fw.file != nil {
		fw.seen[head(fw.file)] = true
		fw.file.Close()
		fw.file = nil
	}
	fw.partial = nil
}

// step reads what was appended since the last step, and moves to a new
// file when the log was rotated or replaced.
func (fw *follower) step(from Position) error {
	if fw.file != nil {
		if err := fw.drain(); err != nil {
			return err
		}
	}
	now, err := statLog(fw.log.Path)
	if err != nil {
		return nil // not there (yet): wait for it
	}
	switch {
	case fw.file == nil, now.dev != fw.pos.dev || now.ino != fw.pos.ino:
		// A new file: what the old one received since the drain above was
		// written before the rename.
		if fw.file != nil {
			if err := fw.drain(); err != nil {
				return err
			}
			fw.close()
			// Two rotations or more since the last step: the rotated file
			// is not the one just read but one written and rotated in
			// between, whole. (With more, the ones before it are gone.)
			if err := fw.missed(); err != nil {
				return err
			}
		}
		f, pos, err := openRead(fw.log.Path)
		if err != nil {
			return nil
		}
		fw.file, fw.pos = f, Position{dev: pos.dev, ino: pos.ino}
		if from.ino == pos.ino && from.dev == pos.dev {
			fw.pos.off = from.off
		}
		return fw.drain()
	case now.off < fw.pos.off:
		// Truncated: start again from its beginning.
		fw.pos.off, fw.partial = 0, nil
		return fw.drain()
	}
	return nil
}

// missed reads the rotated file whole when Follow never read it: it was
// the log between two steps, and was rotated before the second.
func (fw *follower) missed() error {
	f, pos, err := openRead(fw.log.Rotated())
	if err != nil {
		return nil
	}
	if fw.seen[head(f)] {
		f.Close()
		return nil
	}
	fw.file, fw.pos = f, Position{dev: pos.dev, ino: pos.ino}
	err = fw.drain()
	fw.close()
	return err
}

// drain reads the file from the position to its end and emits the
// complete lines.
func (fw *follower) drain() error {
	buf := make([]byte, 64<<10)
	bad := 0
	defer func() {
		if bad > 0 && fw.skipped != nil {
			fw.skipped(bad)
		}
	}()
	for {
		n, err := fw.file.ReadAt(buf, fw.pos.off)
		if n > 0 {
			fw.pos.off += int64(n)
			data := append(fw.partial, buf[:n]...)
			for {
				i := bytes.IndexByte(data, '\n')
				if i < 0 {
					break
				}
				line := data[:i]
				data = data[i+1:]
				if len(bytes.TrimSpace(line)) == 0 {
					continue
				}
				r, perr := ParseLine(line)
				if perr != nil {
					bad++
					continue
				}
				if fw.filter.Match(r) {
					if eerr := fw.emit(r); eerr != nil {
						return eerr
					}
				}
			}
			if len(data) > lineCap {
				bad++
				data = nil
			}
			fw.partial = append([]byte(nil), data...)
		}
		if err == io.EOF || n == 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readFile reads a log file whole, or its last readCap bytes from the
// start of a line, and returns its bytes up to the end of the last
// complete line, with the position after that line.
func readFile(path string) ([]byte, Position, error) {
	f, pos, err := openRead(path)
	if err != nil {
		return nil, pos, err
	}
	defer f.Close()
	size := pos.off
	from := int64(0)
	if size > readCap {
		from = size - readCap
	}
	data := make([]byte, size-from)
	n, err := f.ReadAt(data, from)
	if err != nil && err != io.EOF {
		return nil, pos, fmt.Errorf("cannot read the log %s: %v", path, unwrapPath(err))
	}
	data = data[:n]
	if from > 0 {
		// The first line is cut: skip it.
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
			from += int64(i + 1)
		} else {
			data = nil
		}
	}
	// A line still being written is left for a later read.
	end := bytes.LastIndexByte(data, '\n') + 1
	pos.off = from + int64(end)
	return data[:end], pos, nil
}

// eachLineBackward calls fn with each non-empty line of data, last first,
// until fn returns false; it reports whether it reached the first line.
func eachLineBackward(data []byte, fn func([]byte) bool) bool {
	end := len(data)
	for end > 0 {
		start := bytes.LastIndexByte(data[:end-1], '\n') + 1
		line := bytes.TrimRight(data[start:end], "\r\n")
		if len(bytes.TrimSpace(line)) > 0 && !fn(line) {
			return false
		}
		end = start
	}
	return true
}
