package scaffold

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata from the real output")

func gateHook(name string) NamedHook {
	m := "run_command"
	return NamedHook{Name: name, Def: schema.HookDefinition{
		PreToolUse: []schema.MatcherGroup{{Matcher: &m, Hooks: []schema.Handler{{Type: "command", Command: "./hooks/" + name + ".sh", Timeout: 10}}}},
	}}
}

// TestAddHooksGolden adds a hook to awkwardly written files; each
// testdata/edit/X.json has its expected result in X.golden.
func TestAddHooksGolden(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/edit/*.json")
	if len(inputs) == 0 {
		t.Fatal("no inputs")
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := AddHooks(src, gateHook("block-dangerous"))
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(in, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
			checkOnlyAdded(t, src, got, "block-dangerous")
		})
	}
}

// checkOnlyAdded checks that out is src with the named hooks added: the
// same values for every other key, src's bytes all there in order, and the
// file still valid.
func checkOnlyAdded(t *testing.T, src, out []byte, names ...string) {
	t.Helper()
	c := schema.Parse("hooks.json", out)
	if !c.Usable() {
		t.Fatalf("the result does not parse: %v\n%s", c.Syntax, out)
	}
	var before, after map[string]any
	if err := json.Unmarshal(src, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &after); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, ok := after[n]; !ok {
			t.Errorf("the result lacks %q", n)
		}
		delete(after, n)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the other hooks changed:\nbefore %v\nafter  %v", before, after)
	}
	i := 0
	for _, b := range out {
		if i < len(src) && b == src[i] {
			i++
		}
	}
	if i != len(src) {
		t.Errorf("byte %d of the original (%q) is lost", i, src[i:min(i+20, len(src))])
	}
	// The original's first lines come through untouched.
	if n := bytes.IndexByte(src, '\n'); n > 0 && n < len(bytes.TrimRight(src, "\r\n")) && !bytes.HasPrefix(out, src[:n]) {
		t.Errorf("the first line changed")
	}
}

// TestAddHooksRealWorld adds a hook to every real hooks.json that parses.
func TestAddHooksRealWorld(t *testing.T) {
	files, _ := filepath.Glob("../testdata/realworld/*.json")
	if len(files) == 0 {
		t.Fatal("no real-world files")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		root, dups, serr := schema.ParseJSON(src)
		if serr != nil || root.Kind != schema.Object || len(dups) > 0 || root.Get("hookctl-new") != nil {
			if _, err := AddHooks(src, gateHook("hookctl-new")); err == nil {
				if serr != nil || root.Kind != schema.Object {
					t.Errorf("%s: an unusable file was edited", f)
				}
			}
			continue
		}
		out, err := AddHooks(src, gateHook("hookctl-new"), gateHook("hookctl-new-2"))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checkOnlyAdded(t, src, out, "hookctl-new", "hookctl-new-2")
		// The new hook's lines are indented like the file's own.
		if st := detectStyle(src); bytes.Contains(src, []byte("\n")) && len(root.Members) > 0 {
			if !bytes.Contains(out, []byte(st.nl+lineIndent(src, root.Members[0].KeySpan.Start.Offset)+`"hookctl-new"`)) {
				t.Errorf("%s: the new hook is not indented like the others:\n%s", f, out)
			}
		}
	}
}

func TestAddHooksRefuses(t *testing.T) {
	_, err := AddHooks([]byte("{\n  \"a\": {},\n}\n"), gateHook("x"))
	var se *schema.SyntaxError
	if !errors.As(err, &se) || se.Pos.Line != 2 || se.Pos.Col != 10 {
		t.Errorf("a trailing comma gives %v, want a syntax error at 2:10", err)
	}
	if _, err := AddHooks([]byte("[]"), gateHook("x")); !errors.Is(err, ErrNotObject) {
		t.Errorf("an array gives %v", err)
	}
	_, err = AddHooks([]byte("{\n  \"gate\": {}\n}"), gateHook("gate"))
	var taken *NameTakenError
	if !errors.As(err, &taken) || taken.Pos.Line != 2 || taken.Pos.Col != 3 {
		t.Errorf("a taken name gives %v, want its position 2:3", err)
	}
}

func TestAddHooksKeepsCommandsReadable(t *testing.T) {
	h := NamedHook{Name: "x", Def: schema.HookDefinition{Stop: []schema.Handler{{Command: "make test >/dev/null 2>&1 && echo ok"}}}}
	out, err := AddHooks([]byte("{}\n"), h)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"make test >/dev/null 2>&1 && echo ok"`)) {
		t.Errorf("the command is escaped:\n%s", out)
	}
}
