package runtime

import (
	"encoding/json"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

// The fuzz targets run their seeds in every go test; run them for real with
// go test -fuzz FuzzParseAnswer ./runtime.

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `{"decision":"allow"}`, `{"decision":"deny","reason":"x","permissionOverrides":["a"],"overwrite":{"a":[1,{"b":null}]}}`,
		`{"injectSteps":[{"toolCall":{"name":"view_file","args":{}}},{"userMessage":"u"}],"terminationBehavior":"terminate"}`,
		`{"decision":"continue","reason":"r"}`, `[]`, `{"decision":`, `{"a":1}{"b":2}`, "{\"decision\":\"allow\"}\n\n",
		`{"decision":null,"reason":null}`, `{"injectSteps":[{"userMessage":null,"ephemeralMessage":"e"}]}`,
	} {
		for i := range schema.Events {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, ev uint8, out string) {
		e := schema.Events[int(ev)%len(schema.Events)]
		answer, _, err := ParseAnswer(e, []byte(out))
		if err != nil || answer == nil {
			return
		}
		if !json.Valid(answer) {
			t.Fatalf("ParseAnswer(%s, %q) = %s, not valid JSON", e, out, answer)
		}
		// An answer read back is itself, and merges into valid JSON.
		again, _, err := ParseAnswer(e, answer)
		if err != nil || string(again) != string(answer) {
			t.Fatalf("%s: %s read back as %s, %v", e, answer, again, err)
		}
		merged, _ := Merge(e, []*Outcome{{Hook: "h", Kind: Answered, Answer: answer}}, MergeOptions{MaxContinues: 8})
		if !json.Valid(merged) {
			t.Fatalf("%s: merged %s is not valid JSON", e, merged)
		}
	})
}

func FuzzWithOverwrite(f *testing.F) {
	f.Add(`{"toolCall":{"name":"x","args":{"a":1}}}`, `{"a":2,"b":"c"}`)
	f.Add(`{"toolCall":{"name":"x"}}`, `{"a":2}`)
	f.Add(`{"toolCall":{}}`, `{"a":2}`)
	f.Add(` { "toolCall" : { "args" : [] , "name":"x" } } `, `{"k":{"n":[1,2]}}`)
	f.Fuzz(func(t *testing.T, payload, overwrite string) {
		if !json.Valid([]byte(payload)) {
			return
		}
		root, _, serr := schema.ParseJSON([]byte(overwrite))
		if serr != nil || root.Kind != schema.Object {
			return
		}
		kvs, err := object("overwrite", root, []byte(overwrite))
		if err != nil {
			return
		}
		got, err := withOverwrite([]byte(payload), kvs)
		if err != nil {
			return
		}
		if !json.Valid(got) {
			t.Fatalf("withOverwrite(%s, %s) = %s, not valid JSON", payload, overwrite, got)
		}
	})
}

func FuzzParsePayload(f *testing.F) {
	f.Add(`{"toolCall":{"name":"run_command"},"workspacePaths":["/w"],"executionNum":3}`)
	f.Add(`[]`)
	f.Add(`{"executionNum":1e400}`)
	f.Add(`{"executionNum":-5,"workspacePaths":[1]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		for _, e := range schema.Events {
			p, err := ParsePayload(e, []byte(raw))
			if err != nil {
				continue
			}
			// Both readers agree on whatever both accept.
			if slow, err := parsePayloadLeniently(e, []byte(raw)); err != nil {
				t.Fatalf("%s payload %q: encoding/json refuses what the parser accepts: %v", e, raw, err)
			} else if slow.Tool != p.Tool || slow.ExecutionNum != p.ExecutionNum || !slices.Equal(slow.WorkspacePaths, p.WorkspacePaths) {
				t.Fatalf("%s payload %q: read as %+v and, by encoding/json, as %+v", e, raw, p, slow)
			}
			if e.IsTool() && p.Tool == "" {
				t.Fatalf("%s payload %q accepted without a tool", e, raw)
			}
			if p.ExecutionNum < 0 {
				t.Fatalf("negative executionNum from %q", raw)
			}
			// encoding/json lets invalid UTF-8 through; the loader does not.
			if !utf8.ValidString(raw) {
				continue
			}
			if _, err := CompletePayload(e, []byte(raw), "/w", "/h"); err != nil {
				t.Fatalf("CompletePayload refused a payload ParsePayload accepted: %q: %v", raw, err)
			}
		}
	})
}
