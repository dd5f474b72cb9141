package runtime

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// realisticPayloads are payloads as the agent sends them, one per event,
// with the fields of its documentation.
var realisticPayloads = []struct {
	event schema.Event
	raw   string
}{
	{schema.PreToolUse, `{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test","Cwd":"/workspace/project","WaitMsBeforeAsync":5000}},"stepIdx":19,"conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/workspace/project"],"transcriptPath":"~/.gemini/antigravity/brain/ec33ebf9-0cba-4100-8142-c61503f6c587/.system_generated/logs/transcript.jsonl","artifactDirectoryPath":"~/.gemini/antigravity/brain/ec33ebf9-0cba-4100-8142-c61503f6c587","modelName":"gemini-3.6-flash-medium"}`},
	{schema.PreToolUse, `{"toolCall":{"name":"write_to_file","args":{"TargetFile":"/workspace/project/src/main.go","Overwrite":true,"CodeContent":"package main\n\nfunc main() {}\n","Description":"create main"}},"stepIdx":3}`},
	{schema.PreToolUse, `{"toolCall":{"name":"multi_replace_file_content","args":{"TargetFile":"/w/a.py","ReplacementChunks":[{"TargetContent":"a","ReplacementContent":"b","StartLine":1,"EndLine":1}]}},"stepIdx":0,"workspacePaths":["/w","/x"]}`},
	{schema.PreToolUse, `{"toolCall":{"name":"browser_click","args":{}},"stepIdx":7}`},
	{schema.PostToolUse, `{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test","Cwd":"/workspace/project","WaitMsBeforeAsync":5000}},"stepIdx":5,"error":"exit status 1","conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/workspace/project"],"modelName":"gemini-3.6-flash-medium"}`},
	{schema.PostToolUse, `{"toolCall":{"name":"view_file","args":{"AbsolutePath":"/w/README.md","StartLine":1,"EndLine":40}},"stepIdx":2,"error":""}`},
	{schema.PreInvocation, `{"invocationNum":3,"initialNumSteps":10,"conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/workspace/project"],"modelName":"gemini-3.6-flash-medium"}`},
	{schema.PostInvocation, `{"invocationNum":0,"initialNumSteps":0}`},
	{schema.Stop, `{"executionNum":1,"terminationReason":"model_stop","error":"","fullyIdle":true,"conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/workspace/project"],"transcriptPath":"/t.jsonl","artifactDirectoryPath":"/a","modelName":"gemini-3.6-flash-medium"}`},
	{schema.Stop, `{"executionNum":9,"terminationReason":"max_steps_exceeded","fullyIdle":false}`},
	// Hostile shapes: wrong types, NUL escapes, invalid UTF-8, deep nesting,
	// duplicate keys, whitespace around everything.
	{schema.PreToolUse, `{"toolCall":{"name":"run_command","args":{"CommandLine":"$(touch pwned); rm -rf / | sh && ` + "`id`" + `\n../../etc/passwd\u0000"}}}`},
	{schema.PreToolUse, "{\"toolCall\":{\"name\":\"\xff\xfe\"}}"},
	{schema.Stop, `{"executionNum":"9","workspacePaths":"/w","fullyIdle":"yes"}`},
	{schema.Stop, `{"executionNum":1e400}`},
	{schema.PreInvocation, `{"workspacePaths":[null,1,{"a":[]}]}`},
	{schema.PreToolUse, `{"toolCall":{"name":"a"},"toolCall":{"name":"b"}}`},
	{schema.PostInvocation, " \r\n\t{ } \n"},
	{schema.PreInvocation, `{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`},
	{schema.Stop, `{"conversationId":"../../../etc","workspacePaths":["/w/../../x"]}`},
}

// realisticAnswers are what handlers print, right and wrong.
var realisticAnswers = []string{
	`{"decision":"ask","reason":"Requires confirmation for test execution.","permissionOverrides":["command(npm test)"]}`,
	`{"decision":"deny","reason":"rm -rf is blocked by the safety gate"}`,
	`{"decision":"allow"}` + "\n",
	`{"decision":"deny_unless_prior_grant","reason":"writes outside the workspace"}`,
	`{"decision":"force_ask","overwrite":{"CommandLine":"npm test -- --ci"}}`,
	`{}`,
	`{"injectSteps":[{"ephemeralMessage":"Remember to lint"}]}`,
	`{"injectSteps":[],"terminationBehavior":""}`,
	`{"injectSteps":[{"userMessage":"run the tests"},{"toolCall":{"name":"run_command","args":{"CommandLine":"go test ./..."}}}],"terminationBehavior":"force_continue"}`,
	`{"decision":"continue","reason":"Not done yet"}`,
	`{"decision":"Allow"}`,
	`{"decision":"allow"} {"decision":"deny"}`,
	`{"decision":"allow","decision":"deny"}`,
	"\xef\xbb\xbf{\"decision\":\"allow\"}",
	`{"decision":"allow","reason":"\u0000\ud800"}`,
	`Looks good to me!`,
	`{"permissionOverrides":"command(ls)"}`,
	`{"injectSteps":[{"userMessage":1}]}`,
}

// FuzzCompletePayload fills in partial payloads of every event, as
// hookctl run does for a payload built by hand. Whatever the partial holds,
// the result is refused with an error or is a JSON object that keeps the
// partial's members byte for byte, holds every common field, and is
// complete already.
func FuzzCompletePayload(f *testing.F) {
	for _, p := range realisticPayloads {
		f.Add(uint8(eventIndex(p.event)), p.raw, "/workspace/project")
	}
	f.Add(uint8(0), `{"toolCall":{"name":"run_command"}}`, "/w/\"quoted\"\n")
	f.Add(uint8(4), ``, "")
	f.Add(uint8(2), `[]`, "/w")
	f.Fuzz(func(t *testing.T, ev uint8, partial, workspace string) {
		e := schema.Events[int(ev)%len(schema.Events)]
		out, err := CompletePayload(e, []byte(partial), workspace, "/home/u")
		if err != nil {
			return
		}
		root, _, serr := schema.ParseJSON(out)
		if serr != nil {
			t.Fatalf("CompletePayload(%s, %q) = %q, not valid JSON: %v", e, partial, out, serr)
		}
		if root.Kind != schema.Object {
			t.Fatalf("CompletePayload(%s, %q) = %q, not an object", e, partial, out)
		}
		if in, _, serr := schema.ParseJSON([]byte(partial)); serr == nil && len(in.Members) > 0 {
			last := in.Members[len(in.Members)-1].Value.Span.End.Offset
			if !bytes.HasPrefix(out, []byte(partial)[:last]) {
				t.Fatalf("CompletePayload(%s, %q) = %q: the partial's members lost their bytes", e, partial, out)
			}
		}
		for _, k := range []string{"conversationId", "workspacePaths", "transcriptPath", "artifactDirectoryPath", "modelName"} {
			if root.Get(k) == nil {
				t.Fatalf("CompletePayload(%s, %q) = %q: no %s", e, partial, out, k)
			}
		}
		again, err := CompletePayload(e, out, workspace, "/home/u")
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("completing %q again gave %q, %v", out, again, err)
		}
		if !e.IsTool() {
			if _, err := ParsePayload(e, out); err != nil {
				t.Fatalf("ParsePayload refused the completed %s payload %q: %v", e, out, err)
			}
		}
	})
}

// FuzzDispatchAnswer merges what handlers print for every event, as one
// dispatch with several handlers would: the merged answer is always valid
// JSON, whatever they printed.
func FuzzDispatchAnswer(f *testing.F) {
	for i, a := range realisticAnswers {
		for ev := range schema.Events {
			f.Add(uint8(ev), a, realisticAnswers[(i+1)%len(realisticAnswers)], uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, ev uint8, first, second string, onError uint8) {
		e := schema.Events[int(ev)%len(schema.Events)]
		var outs []*Outcome
		for i, out := range []string{first, second} {
			o := &Outcome{Hook: []string{"first", "second"}[i]}
			answer, _, err := ParseAnswer(e, []byte(out))
			switch {
			case err != nil:
				o.Kind = Failed
			case answer == nil:
				o.Kind = NoAnswer
			default:
				o.Kind, o.Answer = Answered, answer
				if !json.Valid(answer) {
					t.Fatalf("ParseAnswer(%s, %q) = %q, not valid JSON", e, out, answer)
				}
			}
			outs = append(outs, o)
		}
		merged, _ := Merge(e, outs, MergeOptions{OnError: OnError(onError % 3), MaxContinues: 8, ExecutionNum: int(onError)})
		var v map[string]any
		if err := json.Unmarshal(merged, &v); err != nil {
			t.Fatalf("%s: merging %q and %q gave %q, not a JSON object: %v", e, first, second, merged, err)
		}
		if e == schema.PreToolUse {
			if _, ok := v["decision"].(string); !ok {
				t.Fatalf("PreToolUse: merging %q and %q gave %q, with no decision", first, second, merged)
			}
		}
	})
}

func eventIndex(e schema.Event) int {
	for i, x := range schema.Events {
		if x == e {
			return i
		}
	}
	return 0
}
