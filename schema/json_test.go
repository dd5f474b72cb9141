package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// positions recomputes the position of every byte offset of src,
// independently of the parser: lines end at \n, \r\n or a lone \r; columns
// count characters (each byte of invalid UTF-8 counting as one).
func positions(src []byte) []Pos {
	table := make([]Pos, len(src)+1)
	line, col := 1, 1
	for i := 0; i < len(src); {
		table[i] = Pos{Offset: i, Line: line, Col: col}
		switch c := src[i]; {
		case c == '\n':
			line, col = line+1, 1
			i++
		case c == '\r' && i+1 < len(src) && src[i+1] == '\n':
			table[i+1] = Pos{Offset: i + 1, Line: line, Col: col + 1}
			line, col = line+1, 1
			i += 2
		case c == '\r':
			line, col = line+1, 1
			i++
		default:
			_, size := utf8.DecodeRune(src[i:])
			for j := 1; j < size; j++ {
				table[i+j] = Pos{Offset: i + j, Line: line, Col: col}
			}
			i += size
			col++
		}
	}
	table[len(src)] = Pos{Offset: len(src), Line: line, Col: col}
	return table
}

func posOf(src []byte, off int) Pos { return positions(src)[off] }

func TestParsePositions(t *testing.T) {
	src := "{\r\n\t\"héllo→\": [1, \"✓\",\n  {\"k\": null}],\n  \"b\":true }"
	root, dups, err := ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(dups) != 0 {
		t.Fatalf("duplicates: %v", dups)
	}
	m := root.Members[0]
	if m.Key != "héllo→" || m.KeySpan.Start != (Pos{4, 2, 2}) {
		t.Errorf("key %q at %+v, want héllo→ at line 2 col 2", m.Key, m.KeySpan.Start)
	}
	// The key has 6 characters plus quotes: the colon is at column 10.
	if m.KeySpan.End.Col != 10 {
		t.Errorf("key ends at column %d, want 10", m.KeySpan.End.Col)
	}
	arr := m.Value
	if arr.Span.Start.Col != 12 || arr.Span.Start.Line != 2 {
		t.Errorf("array at %v, want 2:12", arr.Span.Start)
	}
	if s := arr.Elems[1]; s.Str != "✓" || s.Span.Start.Col != 16 || s.Span.End.Col != 19 {
		t.Errorf("string %q spans %v-%v, want ✓ at 2:16-2:19", s.Str, s.Span.Start, s.Span.End)
	}
	obj := arr.Elems[2]
	if obj.Span.Start != (Pos{Offset: strings.Index(src, "{\"k\""), Line: 3, Col: 3}) {
		t.Errorf("object at %+v", obj.Span.Start)
	}
	b := root.Members[1]
	if b.Key != "b" || b.KeySpan.Start.Line != 4 || b.KeySpan.Start.Col != 3 || b.Value.Span.Start.Col != 7 || !b.Value.Bool {
		t.Errorf("b at %v, value at %v", b.KeySpan.Start, b.Value.Span.Start)
	}
	checkSpans(t, []byte(src), root)
}

// checkSpans verifies every span against the bytes: its line and column
// agree with its offset, and a key's span holds its quoted text.
func checkSpans(t *testing.T, src []byte, n *Node) {
	t.Helper()
	checkSpansIn(t, src, positions(src), n)
}

// checkSpan checks that a span's lines and columns agree with its offsets
// in the table of positions, and that it does not end before it starts.
func checkSpan(t *testing.T, table []Pos, sp Span, what string) {
	t.Helper()
	for _, p := range []Pos{sp.Start, sp.End} {
		if want := table[p.Offset]; want != p {
			t.Fatalf("%s: position %+v, recomputed %+v", what, p, want)
		}
	}
	if sp.End.Offset < sp.Start.Offset {
		t.Fatalf("%s: span ends before it starts: %+v", what, sp)
	}
}

func checkSpansIn(t *testing.T, src []byte, table []Pos, n *Node) {
	t.Helper()
	checkSpan(t, table, n.Span, n.Kind.String())
	for _, m := range n.Members {
		checkSpan(t, table, m.KeySpan, "key "+m.Key)
		var key string
		if err := json.Unmarshal(src[m.KeySpan.Start.Offset:m.KeySpan.End.Offset], &key); err != nil || key != m.Key {
			t.Fatalf("key span of %q holds %q", m.Key, src[m.KeySpan.Start.Offset:m.KeySpan.End.Offset])
		}
		checkSpansIn(t, src, table, m.Value)
	}
	for _, e := range n.Elems {
		checkSpansIn(t, src, table, e)
	}
}

func TestParseValues(t *testing.T) {
	root, _, err := ParseJSON([]byte(`{"s":"a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x","n":-1.5e+3,"z":0,"t":true,"f":false,"nil":null,"e":[],"o":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := root.Get("s").Value.Str, "a\"\\/\b\f\n\r\té😀\uFFFDx"; got != want {
		t.Errorf("string %q, want %q", got, want)
	}
	if n := root.Get("n").Value; n.Kind != Number || n.Str != "-1.5e+3" {
		t.Errorf("number %v %q", n.Kind, n.Str)
	}
	if root.Get("f").Value.Kind != Bool || root.Get("f").Value.Bool || root.Get("nil").Value.Kind != Null {
		t.Error("literals")
	}
	if e := root.Get("e").Value; e.Kind != Array || len(e.Elems) != 0 {
		t.Error("empty array")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"empty", "", 1, 1, "the file is empty"},
		{"blank", "\n  \n", 3, 1, "only white space"},
		{"bom", "\xEF\xBB\xBF{}", 1, 1, "byte order mark"},
		{"trailing comma object", "{\n  \"a\": 1,\n}", 2, 9, "trailing comma before '}'"},
		{"trailing comma array", "[1, 2,\n]", 1, 6, "trailing comma before ']'"},
		{"line comment", "{\n  // hooks\n  \"a\": 1\n}", 2, 3, "comments are not allowed"},
		{"block comment after value", "{\"a\": 1 /* x */}", 1, 9, "comments are not allowed"},
		{"hash comment", "# hooks\n{}", 1, 1, "comments are not allowed"},
		{"truncated object", "{\n  \"a\": {\n    \"b\": [1", 3, 12, "the file ends before the array opened at 3:10 is closed"},
		{"truncated string", "{\"a\": \"abc", 1, 7, "never closed"},
		{"truncated after key", "{\"a\"", 1, 5, "the file ends before the object opened at 1:1"},
		{"single quotes", "{'a': 1}", 1, 2, "double quotes, not single quotes"},
		{"unquoted key", "{ enabled: true }", 1, 3, `write "enabled"`},
		{"missing colon", "{\"a\" 1}", 1, 6, "expected ':' after the key \"a\""},
		{"missing comma", "{\"a\": 1\n \"b\": 2}", 2, 2, "missing ',' before this key"},
		{"missing comma array", "[{}\n{}]", 2, 1, "missing ',' before this element"},
		{"missing value", "{\"a\": }", 1, 7, "a value is missing"},
		{"python literal", "{\"a\": True}", 1, 7, "write true in lower case"},
		{"none", "{\"a\": None}", 1, 7, "write null"},
		{"leading zero", "{\"a\": 010}", 1, 7, "leading zeros"},
		{"plus", "[+1]", 1, 2, "not a JSON number"},
		{"dot", "[.5]", 1, 2, "not a JSON number"},
		{"newline in string", "{\"a\": \"x\ny\"}", 1, 9, "cannot span lines"},
		{"tab in string", "[\"a\tb\"]", 1, 4, "control character U+0009"},
		{"bad escape", `{"c": "C:\Users\x"}`, 1, 10, `invalid escape \U`},
		{"bad unicode escape", `["\u12G4"]`, 1, 3, "four hexadecimal digits"},
		{"binary", "\x00\x01\x02", 1, 1, "control character U+0000"},
		{"extra value", "{} {}", 1, 4, "after the end of the top-level value"},
		{"bare path", "/home/user/.gemini/config/hooks.json\n", 1, 1, "holds a path"},
		{"relative path", "../shared/hooks.json\n", 1, 1, "the file holds a path (../shared/hooks.json), not JSON: a symbolic link"},
		{"file name", "hooks.shared.json", 1, 1, "the file holds a path (hooks.shared.json), not JSON"},
		{"word without a path", "hooks", 1, 1, `unexpected word "hooks"`},
		{"path inside a value", "[../x.json]", 1, 2, "not a JSON number"},
		{"slash", "[1, /]", 1, 5, "unexpected '/' where a value should start"},
		{"mismatched bracket", "{\"a\": [1}", 1, 9, "expected ',' or ']'"},
		{"column counts characters", "{\"é→✓\": 1,}", 1, 10, "trailing comma"},
		{"deep", strings.Repeat("[", MaxDepth+1), 1, MaxDepth + 1, "nest more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, _, err := ParseJSON([]byte(tt.src))
			if err == nil {
				t.Fatalf("parsed %q without error: %v", tt.src, root)
			}
			if err.Pos.Line != tt.line || err.Pos.Col != tt.col {
				t.Errorf("error at %d:%d, want %d:%d: %s", err.Pos.Line, err.Pos.Col, tt.line, tt.col, err.Msg)
			}
			if !strings.Contains(err.Msg, tt.msg) {
				t.Errorf("message %q does not say %q", err.Msg, tt.msg)
			}
			if want := posOf([]byte(tt.src), err.Pos.Offset); want != err.Pos {
				t.Errorf("error position %+v disagrees with its offset (%+v)", err.Pos, want)
			}
		})
	}
}

func TestParseDuplicates(t *testing.T) {
	src := "{\n  \"gate\": {\"PreToolUse\": [], \"PreToolUse\": []},\n  \"gate\": {}\n}"
	root, dups, err := ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(dups) != 2 {
		t.Fatalf("got %d duplicates, want 2: %+v", len(dups), dups)
	}
	if d := dups[0]; d.Key != "PreToolUse" || d.First.Start.Line != 2 || d.First.Start.Col != 12 || d.Again.Start.Col != 30 {
		t.Errorf("first duplicate %+v", d)
	}
	if d := dups[1]; d.Key != "gate" || d.First.Start.Line != 2 || d.Again.Start.Line != 3 || d.Again.Start.Col != 3 {
		t.Errorf("second duplicate %+v", d)
	}
	if got := root.Get("gate").KeySpan.Start.Line; got != 3 {
		t.Errorf("Get returns the occurrence on line %d, want the last (3)", got)
	}
}

func TestParseHostile(t *testing.T) {
	inputs := map[string][]byte{
		"deep arrays":        bytes.Repeat([]byte("["), 100000),
		"deep objects":       []byte(strings.Repeat(`{"a":`, 100000)),
		"deep closed arrays": []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)),
		"huge string":        []byte(`{"a":"` + strings.Repeat("x", 8<<20) + `"}`),
		"many keys":          []byte("{" + strings.Repeat(`"k":1,`, 200000) + `"k":1}`),
		"invalid utf8 keys":  []byte("{\"\xc3\x28\": 1}"),
		"lone surrogate":     []byte(`["\udc00"]`),
		"nul bytes":          make([]byte, 4096),
		"all bytes":          allBytes(),
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) {
			root, dups, err := ParseJSON(src)
			if err != nil {
				if want := posOf(src, err.Pos.Offset); want != err.Pos {
					t.Errorf("error position %+v disagrees with its offset (%+v)", err.Pos, want)
				}
				return
			}
			if root == nil {
				t.Fatal("no tree and no error")
			}
			if name == "many keys" && len(dups) != 200000 {
				t.Errorf("%d duplicates, want 200000", len(dups))
			}
		})
	}
}

func allBytes() []byte {
	b := make([]byte, 0, 256*4)
	for i := range 256 {
		b = append(b, byte(i), '"', '{', '[')
	}
	return b
}

func TestLoadRealWorld(t *testing.T) {
	files, err := filepath.Glob("../testdata/realworld/*.json")
	if err != nil || len(files) != 110 {
		t.Fatalf("want the 110 real files, got %d (%v)", len(files), err)
	}
	notJSON := map[string]bool{"045.json": true, "052.json": true}
	for _, path := range files {
		name := filepath.Base(path)
		c, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if notJSON[name] {
			if c.Syntax == nil || c.Syntax.Pos != (Pos{0, 1, 1}) {
				t.Errorf("%s: want a syntax error at 1:1, got %v", name, c.Syntax)
			}
			continue
		}
		if c.Syntax != nil {
			t.Errorf("%s: %v", name, c.Syntax)
			continue
		}
		checkSpans(t, c.Src, c.Root)
		for _, h := range c.File.Hooks {
			if !bytes.HasPrefix(c.Src[h.Pos.Offset:], []byte(`"`+h.Name+`"`)) && !bytes.HasPrefix(c.Src[h.Pos.Offset:], []byte(`"`)) {
				t.Errorf("%s: hook %q position %v does not point at its key", name, h.Name, h.Pos)
			}
		}
	}
}

func TestLoadUnreadable(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

func TestNodeInterface(t *testing.T) {
	src := `{"a": [1, 2.50, "x", true, null, {"b": {}}], "a2": "dup", "a2": "last"}`
	root, _, perr := ParseJSON([]byte(src))
	if perr != nil {
		t.Fatal(perr)
	}
	got, err := json.Marshal(root.Interface())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":[1,2.50,"x",true,null,{"b":{}}],"a2":"last"}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
