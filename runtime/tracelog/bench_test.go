package tracelog

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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
// the writers' lock, fstat, write, close.
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

// BenchmarkRedactCommand measures redacting a payload whose command is 4
// KB of shell with URLs, options and words of every kind, and no secret:
// every byte is looked at for a token's shape.
func BenchmarkRedactCommand(b *testing.B) {
	line := `cd /w && git -c http.extraHeader="X: y" fetch https://github.com/o/r.git --depth=1 -q; mysql -h db -u app -e 'select 1' | awk -F: '{print $2}' >&2; `
	cmd := strings.Repeat(line, 4096/len(line)+1)
	p, _ := json.Marshal(map[string]any{"toolCall": map[string]any{"name": "run_command", "args": map[string]any{"CommandLine": cmd, "Cwd": "/w"}}})
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

// BenchmarkFirstEncode measures what hookctl trace pays for its record:
// the first encoding of a record in a fresh process. Each iteration starts
// this test binary again, which times its first encodeLine (or, for
// comparison, encoding/json's Encoder) and prints the figure; the metric
// is their median.
func BenchmarkFirstEncode(b *testing.B) {
	for _, enc := range []string{"hand", "encoding-json"} {
		b.Run(enc, func(b *testing.B) {
			var firsts []float64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestFirstEncodeChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), "TRACELOG_FIRST_ENCODE="+enc)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				_, rest, ok := strings.Cut(string(out), "first encode: ")
				ns, err := strconv.ParseFloat(strings.Fields(rest + " x")[0], 64)
				if !ok || err != nil {
					b.Fatalf("no figure in %q", out)
				}
				firsts = append(firsts, ns)
			}
			slices.Sort(firsts)
			b.ReportMetric(firsts[len(firsts)/2], "first-ns")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// TestFirstEncodeChild is BenchmarkFirstEncode's fresh process.
func TestFirstEncodeChild(t *testing.T) {
	enc := os.Getenv("TRACELOG_FIRST_ENCODE")
	if enc == "" {
		t.Skip("run by BenchmarkFirstEncode")
	}
	r := benchRecord()
	// In UTC, as hookctl trace records it.
	r.Time = r.Time.UTC()
	start := time.Now()
	var err error
	if enc == "hand" {
		_, err = encodeLine(r)
	} else {
		_, err = encodeLineReflect(r)
	}
	d := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("first encode: %d\n", d.Nanoseconds())
}
