package scaffold

import (
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
