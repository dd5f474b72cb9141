package main

import (
	"bytes"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/runtime/tracelog"
)

// TestObserveDocLogExample keeps the table in docs/observe.md true: it is
// what hookctl log prints for testdata/observe-log.jsonl.
func TestObserveDocLogExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/observe.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```console\n$ hookctl log\n")
	if !ok {
		t.Fatal("docs/observe.md has no hookctl log example")
	}
	want, _, _ := strings.Cut(rest, "```")
	cmd := exec.Command("hookctl", "log", "--log", "testdata/observe-log.jsonl")
	cmd.Env = append(os.Environ(), "TZ=UTC")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if string(got) != want {
		t.Errorf("docs/observe.md's hookctl log example is out of date; hookctl prints:\n%s", got)
	}
}

// TestObserveDocRecordFields keeps the record's table in docs/observe.md
// whole: every field a record or a handler can have is named there.
func TestObserveDocRecordFields(t *testing.T) {
	doc, err := os.ReadFile("../../docs/observe.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(doc), "## The record\n")
	table, _, _ = strings.Cut(table, "**Bounds.**")
	for _, v := range []any{tracelog.Record{}, tracelog.Handler{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if !strings.Contains(table, "`"+name+"`") {
				t.Errorf("docs/observe.md does not describe the field %q of %s", name, rt.Name())
			}
		}
	}
}
