package scaffold

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

func TestRemoveEntry(t *testing.T) {
	for _, tc := range []struct {
		src  string
		i    int
		want string
	}{
		{"[\n  1,\n  2,\n  3\n]\n", 1, "[\n  1,\n  3\n]\n"},
		{"[\n  1,\n  2,\n  3\n]\n", 0, "[\n  2,\n  3\n]\n"},
		{"[\n  1,\n  2,\n  3\n]\n", 2, "[\n  1,\n  2\n]\n"},
		{"[\n  1\n]\n", 0, "[]\n"},
		{"[1, 2]", 1, "[1]"},
		// A comment after the previous entry stays with it.
		{"{\n  \"a\": 1, // mine\n  \"b\": 2\n}", 1, "{\n  \"a\": 1 // mine\n}"},
		// A trailing comma goes with the last entry.
		{"{\n  \"a\": 1,\n  \"b\": 2,\n}", 1, "{\n  \"a\": 1,\n}"},
		// Comments inside keep the brackets open.
		{"{\n  // keep me\n  \"b\": 2\n}", 0, "{\n  // keep me\n}"},
		// Windows line endings: the line goes whole, "\r" with it.
		{"[\r\n  1,\r\n  2\r\n]\r\n", 1, "[\r\n  1\r\n]\r\n"},
		{"{\r\n  \"a\": 1,\r\n  \"b\": 2,\r\n}", 1, "{\r\n  \"a\": 1,\r\n}"},
		{"{\r\n  // keep me\r\n  \"b\": 2\r\n}", 0, "{\r\n  // keep me\r\n}"},
	} {
		v, err := hujson.Parse([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		got := string(RemoveEntry([]byte(tc.src), &v, tc.i))
		if got != tc.want {
			t.Errorf("remove %d of %q:\n got %q\nwant %q", tc.i, tc.src, got, tc.want)
		}
		if _, err := hujson.Parse([]byte(got)); err != nil {
			t.Errorf("%q: not valid: %v", got, err)
		}
	}
}

// TestInsertThenRemove: removing what was inserted gives the file back,
// byte for byte.
func TestInsertThenRemove(t *testing.T) {
	for _, src := range []string{
		"{\n  \"permissions\": {\"allow\": []}\n}\n",
		"{\n\t\"a\": 1 // a comment\n}",
		"{\"a\": 1}",
		"{}\n",
		"{\n  // only a comment\n}\n",
	} {
		v, err := hujson.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		added := InsertMember([]byte(src), &v, "hooks", []byte(`{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}`))
		v2, err := hujson.Parse(added)
		if err != nil {
			t.Fatalf("%q: %v", added, err)
		}
		obj := v2.Value.(*hujson.Object)
		got := string(RemoveEntry(added, &v2, len(obj.Members)-1))
		if got != src {
			t.Errorf("insert then remove:\n got %q\nwant %q\n(added %q)", got, src, added)
		}
	}
}

// TestCRLF: every edit of a file with Windows line endings (init's and
// import's AddHooks, the VS Code settings, export's splices) writes
// "\r\n" on each line it adds, and a removal leaves no "\r" behind.
func TestCRLF(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	check := func(what string, out []byte) {
		t.Helper()
		if bytes.Contains(out, []byte("\r\r")) || bytes.Count(out, []byte("\n")) != bytes.Count(out, []byte("\r\n")) {
			t.Errorf("%s: line endings mixed:\n%q", what, out)
		}
	}
	for _, src := range []string{
		"{\n  \"a\": 1\n}\n",
		"{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n",
		"{\n}\n",
		"{\n  // mine\n  \"a\": 1 // mine too\n}\n",
	} {
		src := crlf(src)
		out, err := AddHooks([]byte(strings.ReplaceAll(src, "// mine too", "")), gateHook("gate"))
		if err != nil && !strings.Contains(src, "//") {
			t.Fatal(err)
		}
		if err == nil {
			check("AddHooks", out)
		}
		out, _, err = AssociateSchema([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		check("AssociateSchema", out)
		v, _ := hujson.Parse([]byte(src))
		added := InsertMember([]byte(src), &v, "hooks", []byte(`{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}`))
		check("InsertMember", added)
		v2, _ := hujson.Parse(added)
		back := RemoveEntry(added, &v2, len(v2.Value.(*hujson.Object).Members)-1)
		check("RemoveEntry", back)
		// An empty object across lines closes up to {}: export's record
		// gives its whitespace back.
		if string(back) != src && len(v.Value.(*hujson.Object).Members) > 0 {
			t.Errorf("insert then remove:\n got %q\nwant %q", back, src)
		}
		for i := range v.Value.(*hujson.Object).Members {
			check("RemoveEntry", RemoveEntry([]byte(src), &v, i))
		}
	}
}
