package tracelog

import (
	"encoding/json"
	"testing"
)

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"gate":                      "gate",
		"naïve ✓":                   "naïve ✓",
		"\x1b[31mred\x1b[0m":        `\x1b[31mred\x1b[0m`,
		"a\nb\r\tc":                 `a\nb\r\tc`,
		"bell\a del\x7f":            `bell\x07 del\x7f`,
		"\xff\xfe bytes":            `\xff\xfe bytes`,
		"csi \u009b2J":              `csi \u009b2J`,
		"rtl \u202eevil\u202c":      `rtl \u202eevil\u202c`,
		"iso \u2066x\u2069 \u2028.": `iso \u2066x\u2069 \u2028.`,
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

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
