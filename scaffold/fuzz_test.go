package scaffold

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// FuzzAddHooks checks that whatever AddHooks accepts comes out valid, with
// every value it had and the new hook; plain go test runs the seeds only.
func FuzzAddHooks(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/edit/*.json")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{"", " \n", "{}", "[]", `{"a":1,}`, "{\"a\"\t:\r\n{}}", `{"x": {"y": [1, {"z": "\u00e9\"}"}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := AddHooks(src, gateHook("fuzz-hook"))
		if err != nil {
			return
		}
		root, dups, serr := schema.ParseJSON(out)
		if serr != nil {
			t.Fatalf("the result does not parse: %v\n%q\n%q", serr, src, out)
		}
		if root.Get("fuzz-hook") == nil {
			t.Fatalf("the hook is missing:\n%q", out)
		}
		if len(dups) > 0 {
			if _, d, _ := schema.ParseJSON(src); len(d) != len(dups) {
				t.Fatalf("the edit made a duplicate key:\n%q", out)
			}
			return
		}
		var before, after map[string]any
		if json.Unmarshal(src, &before) != nil {
			before = map[string]any{}
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatal(err)
		}
		delete(after, "fuzz-hook")
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("the other values changed:\n%q\n%q", src, out)
		}
	})
}
