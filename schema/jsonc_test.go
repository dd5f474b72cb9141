package schema

import (
	"strings"
	"testing"
)

func TestBoundJSONC(t *testing.T) {
	deep := strings.Repeat("[", 1_000_000)
	for _, tc := range []struct {
		name, src string
		max       int
		// want is the error's place, "" for none.
		want, msg string
	}{
		{"a settings file", "// VS Code\n{\"json.schemas\": [/* none */], \"a\": {\"b\": [1, true, null, \"x]\",],},}\n", 100, "", ""},
		{"a million levels", deep, 0, "1:10001", "arrays and objects nest more than 10000 levels deep here, more than any settings file needs, so it is not read further"},
		{"objects and arrays, after a line", "\n  " + strings.Repeat(`{"a":[`, 5001), 0, "2:30003", "nest more than 10000 levels"},
		{"exactly the bound", strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), 0, "", ""},
		{"closed before the bound, many times", strings.Repeat("[[[]]]", 100000), 0, "", ""},
		{"brackets in strings and comments", `["` + strings.Repeat("[", 20000) + `", // ` + strings.Repeat("{", 20000) + "\n/* " + strings.Repeat("[", 20000) + " */ 1]", 0, "", ""},
		{"an escaped quote", `["\"` + strings.Repeat("[", 20000) + `"]`, 0, "", ""},
		{"values past the bound", "[1, 2, \"é\", 4]", 3, "1:8", "the file holds more than 3 JSON values and keys"},
		{"keys count", `{"a": 1, "b": 2}`, 3, "1:10", "more than 3"},
		{"a slash that starts no comment", `{"a": /x}`, 0, "", ""},
		{"an unclosed string", `["abc`, 0, "", ""},
		{"an unclosed comment", `[1 /* [[[`, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := BoundJSONC([]byte(tc.src), tc.max)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%v, want none", err)
			case tc.want != "" && err == nil:
				t.Errorf("no error, want one at %s", tc.want)
			case tc.want != "" && (err.Pos.String() != tc.want || !strings.Contains(err.Msg, tc.msg) || !err.Bound):
				t.Errorf("%v (bound %v), want %s: ...%s...", err, err.Bound, tc.want, tc.msg)
			}
		})
	}
}

func TestPosAt(t *testing.T) {
	src := []byte("ab\né\xffx\r\nz")
	for off, want := range map[int]string{0: "1:1", 2: "1:3", 3: "2:1", 5: "2:2", 6: "2:3", 9: "3:1", 100: "3:2", -1: "1:1"} {
		if got := PosAt(src, off).String(); got != want {
			t.Errorf("PosAt(%d) = %s, want %s", off, got, want)
		}
	}
}
