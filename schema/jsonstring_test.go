package schema

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendJSONString: any string is written as encoding/json writes it,
// <, > and & left as they are.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "tab\tnl\ncr\r\x00\x1f\x7f\b\f", "<a>&", "é€😀", "\xff\xfe", "\xe2\x82", "\u2028\u2029", "a\u009bb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString(nil, s); !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("%q: got %s, want %s", s, got, want.Bytes())
		}
	})
}

// Marshal is encoding/json's compact encoding, with <, > and & left as
// they are and no line end.
func TestMarshal(t *testing.T) {
	v := map[string]any{"command": "a && b > c < d", "n": 1.5, "list": []string{"x"}}
	got, err := Marshal(v)
	if err != nil || string(got) != `{"command":"a && b > c < d","list":["x"],"n":1.5}` {
		t.Errorf("Marshal: %s %v", got, err)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("Marshal of a func: no error")
	}
}
