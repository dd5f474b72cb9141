package scaffold

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
)

// TestTestFileAddRecord adds the case of a recorded run to a test file,
// keeping the file's other bytes, adds nothing the second time, and names
// the record it cannot make a case of.
func TestTestFileAddRecord(t *testing.T) {
	ws := t.TempDir()
	file := filepath.Join(ws, ".agents", "hooks.test.json")
	const before = "{\n\t\"$comment\": \"mine\",\n\t\"tests\": []\n}\n"
	write(t, file, before, 0o644)
	r := &tracelog.Record{Kind: tracelog.KindTrace, ID: "0123456789abcdef", Time: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC),
		Event: "Stop", Hook: "done", Payload: json.RawMessage(`{"executionNum":1}`), Exit: tracelog.Int(0)}
	tf, err := OpenTestFile(file)
	if err != nil || tf.Root != ws || tf.Path != file {
		t.Fatalf("%+v, %v", tf, err)
	}
	add := func(r *tracelog.Record) (string, bool, error) {
		t.Helper()
		tx, err := tf.Begin(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Close()
		c, added, _, err := tf.AddRecord(tx, r)
		return c.Name, added, err
	}
	name, added, err := add(r)
	const want = "done: Stop, as recorded 2026-12-02T10:00:00Z (01234567)"
	if err != nil || !added || name != want {
		t.Fatalf("added %v, name %q, %v", added, name, err)
	}
	b, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(b), "{\n\t\"$comment\": \"mine\",\n\t\"tests\": [") || !strings.Contains(string(b), `"name": "`+want+`"`) {
		t.Errorf("the file holds:\n%s", b)
	}
	if _, added, err := add(r); err != nil || added {
		t.Errorf("a second time: added %v, %v", added, err)
	}
	if again, _ := os.ReadFile(file); string(again) != string(b) {
		t.Errorf("a second time changed the file:\n%s", again)
	}
	r.Payload = nil
	if _, _, err := add(r); err == nil || !strings.HasPrefix(err.Error(), "record 0123456789abcdef: no payload was recorded") {
		t.Errorf("a record without its payload: %v", err)
	}
}

// TestTestFileOutOfTheWorkspace: a test file whose folder is a link out
// of the workspace is not written through.
func TestTestFileOutOfTheWorkspace(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(ws, ".agents")); err != nil {
		t.Fatal(err)
	}
	tf, err := OpenTestFile(filepath.Join(ws, ".agents", "hooks.test.json"))
	if err != nil {
		t.Fatal(err)
	}
	if tx, err := tf.Begin(context.Background()); err == nil {
		tx.Close()
		t.Fatal("began an edit through a link out of the workspace")
	}
}
