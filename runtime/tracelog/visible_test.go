package tracelog

import (
	"encoding/json"
	"testing"
)

func TestSafeJSON(t *testing.T) {
	in := []byte("{\"a\":\"x\u009by\u202ez\x7f\U000e0041\",\"b\":\"\xff\",\"c\":\"ok ✓\"}")
	out := SafeJSON(in)
	want := `{"a":"x\u009by\u202ez\u007f\udb40\udc41","b":"\ufffd","c":"ok ✓"}`
	if string(out) != want {
		t.Errorf("SafeJSON:\n got %s\nwant %s", out, want)
	}
	var a, b map[string]string
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(in, &b); err != nil {
		t.Fatal(err)
	}
	if a["a"] != b["a"] || a["c"] != b["c"] {
		t.Errorf("the value changed: %q, %q", a, b)
	}
}
