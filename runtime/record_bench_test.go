//go:build unix

package runtime

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
)

// BenchmarkDispatchLog measures a whole dispatch to one handler without
// logging (off: what hookctl run does when neither --log nor HOOKCTL_LOG
// is set), and with its record appended to a log, without and with the
// payload.
func BenchmarkDispatchLog(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "hooks.json")
	cfg := `{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "echo '{\"decision\":\"allow\"}'"}]}]}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test","Cwd":"/w","token":"x"}},"stepIdx":3,` +
		`"conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/w"],"modelName":"m"}`)
	opts := Options{Configs: []string{path}}
	for _, mode := range []string{"off", "on", "payload"} {
		b.Run(mode, func(b *testing.B) {
			log := &tracelog.Log{Path: filepath.Join(dir, mode+".jsonl")}
			for b.Loop() {
				start := time.Now()
				res, err := Dispatch(context.Background(), schema.PreToolUse, payload, opts)
				if err != nil || string(res.Answer) != `{"decision":"allow"}` {
					b.Fatalf("%v %s", err, res.Answer)
				}
				if mode != "off" {
					if err := log.Append(res.Record(start, time.Since(start), mode == "payload")); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkRecordAppend measures what logging adds to a dispatch alone:
// building the record of a finished dispatch and appending it.
func BenchmarkRecordAppend(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "hooks.json")
	cfg := `{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "echo '{\"decision\":\"allow\"}'"}]}]},
	  "audit": {"PreToolUse": [{"hooks": [{"command": "cat >/dev/null"}]}]}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test","Cwd":"/w","token":"x"}},"stepIdx":3}`)
	res, err := Dispatch(context.Background(), schema.PreToolUse, payload, Options{Configs: []string{path}})
	if err != nil {
		b.Fatal(err)
	}
	for _, withPayload := range []bool{false, true} {
		name := "record"
		if withPayload {
			name = "record+payload"
		}
		b.Run(name, func(b *testing.B) {
			log := &tracelog.Log{Path: filepath.Join(dir, name+".jsonl")}
			start := time.Now()
			for b.Loop() {
				if err := log.Append(res.Record(start, time.Millisecond, withPayload)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
