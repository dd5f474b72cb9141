package tracelog

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func benchRecord() *Record {
	return &Record{ID: NewID(time.Now()), Time: time.Now(), Duration: 12.5, Kind: KindTrace, Hook: "gate", HookFrom: FromEnvironment,
		Event: "PreToolUse", EventFrom: FromEnvironment, Tool: "run_command", Command: []string{"./hooks/gate.sh"},
		Dir: "/w/.agents", PID: 4242, Exit: Int(0), Answer: json.RawMessage(`{"decision":"allow"}`), StdoutBytes: 21}
}

// BenchmarkAppend measures one record appended to the log: encoding, open,
// fstat, write, close.
func BenchmarkAppend(b *testing.B) {
	l := &Log{Path: filepath.Join(b.TempDir(), "runs.jsonl")}
	r := benchRecord()
	for b.Loop() {
		if err := l.Append(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRedact measures redacting a typical PreToolUse payload.
func BenchmarkRedact(b *testing.B) {
	p := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"curl -H x https://example.com","Cwd":"/w","token":"t"}},` +
		`"stepIdx":19,"conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/workspace/project"],` +
		`"transcriptPath":"/h/.gemini/antigravity/brain/ec33ebf9/.system_generated/logs/transcript.jsonl",` +
		`"artifactDirectoryPath":"/h/.gemini/antigravity/brain/ec33ebf9","modelName":"gemini-3.6-flash-medium"}`)
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if _, err := Redact(p); err != nil {
			b.Fatal("not JSON")
		}
	}
}

// BenchmarkTail measures hookctl log's read of the last 20 records of a
// full log (10 MiB, about 30,000 records), and of the records of one hook
// among them.
func BenchmarkTail(b *testing.B) {
	l := &Log{Path: filepath.Join(b.TempDir(), "runs.jsonl")}
	r := benchRecord()
	r.Stderr = strings.Repeat("e", 100)
	var lines []byte
	for i := 0; len(lines) < RotateSize-MaxRecord; i++ {
		r.ID = fmt.Sprintf("id%014d", i)
		r.Hook = fmt.Sprintf("hook-%d", i%50)
		line, _ := r.Line()
		lines = append(lines, line...)
	}
	if err := l.AppendLine(lines); err != nil {
		b.Fatal(err)
	}
	for _, f := range []Filter{{}, {Hook: "hook-7"}, {Hook: "nobody"}} {
		b.Run(fmt.Sprintf("hook=%q", f.Hook), func(b *testing.B) {
			for b.Loop() {
				if _, err := l.Tail(20, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
