package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// mistakeList writes a reading's mistakes as LINE:COL: MESSAGE lines.
func mistakeList(errs []*SyntaxError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%s\n", e)
	}
	return b.String()
}

// TestParseRecoveringMistakes: a recovering reading reports every mistake
// it can read past, each at its line and column, and the tree of what
// was meant when none stopped it.
func TestParseRecoveringMistakes(t *testing.T) {
	tests := []struct {
		name, src string
		// want are the mistakes, each "LINE:COL: start of the message".
		want []string
		// read: the reading got to the end (a tree).
		read bool
		// value is the tree's value as JSON, when read.
		value string
	}{
		{"comment and trailing comma", "{\n  // format on save\n  \"a\": [1, 2,],\n}",
			[]string{"2:3: comments are not allowed", "3:13: trailing comma before ']'", "3:15: trailing comma before '}'"}, true, `{"a":[1,2]}`},
		{"every kind of comment", "# first\n{/* a */\"a\": 1, // b\n\"b\": 2 # c\n}",
			[]string{"1:1: comments are not allowed in JSON: remove the line starting with #", "2:2: comments are not allowed", "2:17: comments are not allowed", "3:8: comments are not allowed"}, true, `{"a":1,"b":2}`},
		{"missing commas", "{\"a\": 1\n \"b\": [1 2 {}]\n}",
			[]string{"2:2: missing ',' before this key", "2:10: missing ',' before this element", "2:12: missing ',' before this element"}, true, `{"a":1,"b":[1,2,{}]}`},
		{"quotes and keys", "{'a': 'x\"y', b_c: 1, $schema: \"s\", 'd\\'e': 2}",
			[]string{"1:2: object keys must be in double quotes, not single quotes", "1:7: strings must be in double quotes", "1:14: object keys must be strings in double quotes: write \"b_c\"", "1:22: object keys must be strings in double quotes: write \"$schema\"", "1:36: object keys must be in double quotes"}, true, `{"$schema":"s","a":"x\"y","b_c":1,"d'e":2}`},
		{"another language's literals", "[True, FALSE, None, nil, undefined, Null]",
			[]string{"1:2: True is not a JSON value: write true", "1:8: FALSE is not a JSON value: write false", "1:15: None is not a JSON value: write null", "1:21: nil is", "1:26: undefined is", "1:37: Null is not a JSON value: write null"}, true, `[true,false,null,null,null,null]`},
		{"windows path", `{"c": "C:\Users\me\hook.ps1", "t": "a	b"}`,
			[]string{`1:10: invalid escape \U`, `1:16: invalid escape \m`, `1:19: invalid escape \h`, "1:38: control character U+0009"}, true, `{"c":"C:\\Users\\me\\hook.ps1","t":"a\tb"}`},
		{"byte order mark", "\xEF\xBB\xBF{}",
			[]string{"1:1: the file starts with a byte order mark"}, true, `{}`},
		{"a mistake that stops it", "{\n  // c\n  \"a\": 1,,\n  \"b\": 2,\n}",
			[]string{"2:3: comments are not allowed", "3:10: unexpected ',' where an object key should start"}, false, ""},
		{"truncated", "{\n  \"a\": [1,],\n  \"b\": {",
			[]string{"2:10: trailing comma before ']'", "3:9: the file ends before the object opened at 3:8 is closed"}, false, ""},
		{"only comments", "// nothing yet\n",
			[]string{"1:1: comments are not allowed", "2:1: the file holds no JSON value: write {}"}, false, ""},
		{"unclosed block comment", "{\"a\": 1 /* x }",
			[]string{"1:9: comments are not allowed in JSON, and this one is never closed"}, false, ""},
		{"a key without quotes and without colon", "{\"a\": 1 b}",
			[]string{"1:9: missing ',' before this key", "1:9: object keys must be strings in double quotes: write \"b\"", "1:10: expected ':' after the key \"b\", found '}'"}, false, ""},
		{"a line break in a string", "{\"a\": 'x\ny'}",
			[]string{"1:7: strings must be in double quotes", "1:9: a string cannot span lines: close it with ' before the line ends"}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			c := ParseRecovering("hooks.json", src)
			got := mistakeList(c.SyntaxErrors)
			lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("mistakes:\n%swant %d:\n%s", got, len(tt.want), strings.Join(tt.want, "\n"))
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("mistake %d is %q, want it to start %q", i+1, lines[i], w)
				}
			}
			table := positions(src)
			for _, e := range c.SyntaxErrors {
				if table[e.Pos.Offset] != e.Pos {
					t.Errorf("%s: position disagrees with its offset (%+v)", e, table[e.Pos.Offset])
				}
			}
			// The first is what a strict reading reports, word for word.
			strict := Parse("hooks.json", src)
			if strict.Syntax == nil || strict.Syntax.Pos != c.Syntax.Pos || strict.Syntax.Msg != c.Syntax.Msg {
				t.Errorf("first mistake %+v, a strict reading's %+v", c.Syntax, strict.Syntax)
			}
			if strict.Root != nil || strict.SyntaxErrors != nil {
				t.Errorf("a strict reading gave a tree or a list of mistakes")
			}
			if (c.Root != nil) != tt.read {
				t.Fatalf("tree %v, want one: %v", c.Root != nil, tt.read)
			}
			if !tt.read {
				return
			}
			checkRecoveredSpans(t, src, table, c.Root)
			if got := asJSON(t, c.Root); got != tt.value {
				t.Errorf("read %s, want %s", got, tt.value)
			}
		})
	}
}

// TestParseRecoveringValid: a valid file reads as Parse reads it, with no
// mistakes.
func TestParseRecoveringValid(t *testing.T) {
	src := []byte("{\"gate\": {\"Stop\": [{\"command\": \"./x.sh // not a comment, # nor this\"}]}}")
	c, strict := ParseRecovering("hooks.json", src), Parse("hooks.json", src)
	if c.Syntax != nil || c.SyntaxErrors != nil {
		t.Fatalf("mistakes in a valid file: %s", mistakeList(c.SyntaxErrors))
	}
	if !reflect.DeepEqual(c.Root, strict.Root) || !reflect.DeepEqual(c.File, strict.File) {
		t.Error("a valid file reads otherwise when recovering")
	}
}

// TestParseRecoveringRemove: the comments, trailing commas and byte order
// mark a reading goes past carry the bytes whose deletion corrects them,
// and deleting them all leaves valid JSON that means what the tree holds.
func TestParseRecoveringRemove(t *testing.T) {
	src := []byte("\xEF\xBB\xBF// hooks\n{\n  \"a\": [1, /* one */ 2,], # end\n  \"b\": {\"c\": true,},\n}\n")
	c := ParseRecovering("hooks.json", src)
	if c.Root == nil {
		t.Fatalf("not read: %s", mistakeList(c.SyntaxErrors))
	}
	var removed []string
	for _, e := range c.SyntaxErrors {
		removed = append(removed, string(src[e.Remove.Start.Offset:e.Remove.End.Offset]))
	}
	want := []string{"\xEF\xBB\xBF", "// hooks", "/* one */", ",", "# end", ",", ","}
	if !slices.Equal(removed, want) {
		t.Errorf("removes %q, want %q", removed, want)
	}
	fixed := withoutRemoved(src, c.SyntaxErrors)
	if !json.Valid(fixed) {
		t.Fatalf("not valid once corrected: %s", fixed)
	}
	var v any
	if err := json.Unmarshal(fixed, &v); err != nil {
		t.Fatal(err)
	}
	if got, want := asJSON(t, c.Root), mustJSON(t, v); got != want {
		t.Errorf("the tree holds %s, the corrected file %s", got, want)
	}
}

// TestParseRecoveringBound: a reading stops at the mistake past
// MaxSyntaxErrors, and at the bound on values, which it finds without the
// tree's memory, as a strict reading does.
func TestParseRecoveringBound(t *testing.T) {
	src := []byte("{\n" + strings.Repeat("// c\n", MaxSyntaxErrors+500) + "}")
	c := ParseRecovering("hooks.json", src)
	if len(c.SyntaxErrors) != MaxSyntaxErrors+1 || c.Root != nil {
		t.Fatalf("%d mistakes (tree %v), want %d and no tree", len(c.SyntaxErrors), c.Root != nil, MaxSyntaxErrors+1)
	}
	if last := c.SyntaxErrors[MaxSyntaxErrors]; last.Pos.Line != MaxSyntaxErrors+2 {
		t.Errorf("stops at %s, want line %d", last, MaxSyntaxErrors+2)
	}
	big := []byte("[[1,]," + strings.Repeat("1,", MaxValues+10) + "1]")
	if n := testing.AllocsPerRun(2, func() { ParseRecovering("hooks.json", big) }); n > 50 {
		t.Errorf("%v allocations refusing %d values, want a handful", n, MaxValues+10)
	}
	c = ParseRecovering("hooks.json", big)
	if len(c.SyntaxErrors) != 2 || c.SyntaxErrors[0].Remove.End.Offset != 4 || !c.SyntaxErrors[1].Bound || c.Root != nil {
		t.Errorf("mistakes %s, want the trailing comma and the bound", mistakeList(c.SyntaxErrors))
	}
}

// withoutRemoved deletes the bytes every mistake's Remove names.
func withoutRemoved(src []byte, errs []*SyntaxError) []byte {
	var spans []Span
	for _, e := range errs {
		if e.Remove.End.Offset > e.Remove.Start.Offset {
			spans = append(spans, e.Remove)
		}
	}
	slices.SortFunc(spans, func(a, b Span) int { return b.Start.Offset - a.Start.Offset })
	out := bytes.Clone(src)
	for _, s := range spans {
		out = slices.Delete(out, s.Start.Offset, s.End.Offset)
	}
	return out
}

// checkRecoveredSpans checks that every span of a recovered tree agrees
// with its offsets, and that a key's span covers the key as written
// (quoted or not).
func checkRecoveredSpans(t *testing.T, src []byte, table []Pos, n *Node) {
	t.Helper()
	check := func(sp Span, what string) {
		checkSpan(t, table, sp, what)
		if sp.End.Offset == sp.Start.Offset {
			t.Fatalf("%s: empty span %+v", what, sp)
		}
	}
	check(n.Span, n.Kind.String())
	for _, m := range n.Members {
		check(m.KeySpan, "key "+m.Key)
		written := string(src[m.KeySpan.Start.Offset:m.KeySpan.End.Offset])
		quoted := len(written) >= 2 && (written[0] == '"' || written[0] == '\'') && written[len(written)-1] == written[0]
		if written != m.Key && !quoted {
			t.Fatalf("key span of %q holds %q", m.Key, written)
		}
		checkRecoveredSpans(t, src, table, m.Value)
	}
	for _, e := range n.Elems {
		checkRecoveredSpans(t, src, table, e)
	}
}

func asJSON(t *testing.T, n *Node) string {
	t.Helper()
	return mustJSON(t, n.Interface())
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}

// FuzzParseRecovering: a recovering reading agrees with a strict one on
// valid files and on the first mistake, places every mistake and value at
// its own bytes, and where it only went past text to delete, its tree is
// what the file holds once that text is deleted.
func FuzzParseRecovering(f *testing.F) {
	for _, s := range []string{"", "{", "{}", "{\n// c\n}", `{"a":1,}`, "[1 2,]", "{'a': True, b: \"C:\\x\"}", "\xEF\xBB\xBF{/**/}", "# c\n[1,/*\n*/2,]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c, strict := ParseRecovering("hooks.json", src), Parse("hooks.json", src)
		if strict.Syntax == nil {
			if c.Syntax != nil || !reflect.DeepEqual(c.Root, strict.Root) {
				t.Fatalf("a valid file reads otherwise: %v", c.Syntax)
			}
			return
		}
		if c.Syntax == nil || c.Syntax.Pos != strict.Syntax.Pos || c.Syntax.Msg != strict.Syntax.Msg || c.SyntaxErrors[0] != c.Syntax {
			t.Fatalf("first mistake %v, a strict reading's %v", c.Syntax, strict.Syntax)
		}
		table := positions(src)
		for _, e := range c.SyntaxErrors {
			if table[e.Pos.Offset] != e.Pos {
				t.Fatalf("%s: position disagrees with its offset (%+v)", e, table[e.Pos.Offset])
			}
		}
		if c.Root == nil {
			return
		}
		checkRecoveredSpans(t, src, table, c.Root)
		for _, e := range c.SyntaxErrors {
			if e.Remove.End.Offset <= e.Remove.Start.Offset {
				return
			}
		}
		fixed := withoutRemoved(src, c.SyntaxErrors)
		dec := json.NewDecoder(bytes.NewReader(fixed))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil || !json.Valid(fixed) {
			t.Fatalf("%q without what its mistakes remove is %q, not JSON: %v", src, fixed, err)
		}
		if got, want := asJSON(t, c.Root), mustJSON(t, v); got != want {
			t.Fatalf("the tree holds %s, the corrected file %s", got, want)
		}
	})
}
