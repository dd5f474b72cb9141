package tracelog

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestIsSecretKey(t *testing.T) {
	secret := []string{"token", "Token", "GITHUB_TOKEN", "accessToken", "refresh-token", "key", "apiKey", "api_key",
		"APIKEY", "private_keys", "password", "Password", "db-password", "passwd", "secret", "clientSecret",
		"AWS_SECRET_ACCESS_KEY", "authorization", "Authorization", "proxy-authorization", "credentials"}
	plain := []string{"toolCall", "name", "args", "CommandLine", "TargetFile", "keyboard", "keyword", "author", "auth_mode",
		"conversationId", "workspacePaths", "Url", "Query", "decision", ""}
	for _, k := range secret {
		if !IsSecretKey(k) {
			t.Errorf("%q should look secret", k)
		}
	}
	for _, k := range plain {
		if IsSecretKey(k) {
			t.Errorf("%q should not look secret", k)
		}
	}
}

func TestRedactAtEveryDepth(t *testing.T) {
	in := `{"toolCall": {"name": "run_command", "args": {"CommandLine": "deploy", "Env": {"API_KEY": "k1",
	  "nested": [{"password": {"deep": "p1"}}, {"token": ["t1", "t2"]}]}}},
	  "secret": 42, "secret": "dup", "Authorization": null, "list": ["token", "key"], "n": 1.50, "ok": true,
	  "html": "<a>&"}`
	out, ok := Redact([]byte(in))
	if !ok {
		t.Fatal("not JSON?")
	}
	want := `{"toolCall":{"name":"run_command","args":{"CommandLine":"deploy","Env":{"API_KEY":"[redacted]",` +
		`"nested":[{"password":"[redacted]"},{"token":"[redacted]"}]}}},` +
		`"secret":"[redacted]","secret":"[redacted]","Authorization":"[redacted]","list":["token","key"],"n":1.50,"ok":true,` +
		`"html":"<a>&"}`
	if string(out) != want {
		t.Errorf("redacted:\n got %s\nwant %s", out, want)
	}
	for _, v := range []string{"k1", "p1", "t1", "t2", "dup", "42"} {
		if strings.Contains(string(out), `"`+v+`"`) || strings.Contains(string(out), ":"+v) {
			t.Errorf("secret value %s left in %s", v, out)
		}
	}
	if _, ok := Redact([]byte(`{"a":`)); ok {
		t.Error("a broken payload was redacted")
	}
}

func TestShorten(t *testing.T) {
	in := `{"a":"` + strings.Repeat("é", 100) + `","b":["short",{"c":"` + strings.Repeat("z", 50) + `"}],"n":3}`
	out, cut := Shorten([]byte(in), 40)
	if !cut {
		t.Fatal("nothing cut")
	}
	var v struct {
		A string
		B []any
		N int
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if len(v.A) > 40 || !strings.HasSuffix(v.A, Cut) || v.N != 3 || v.B[0] != "short" {
		t.Errorf("shortened: %s", out)
	}
	if _, cut := Shorten([]byte(`{"a":"b"}`), 40); cut {
		t.Error("a short value was cut")
	}
}

func FuzzRedact(f *testing.F) {
	f.Add(`{"token":"x","a":{"Key":[1,2]},"b":"c"}`)
	f.Add(`[{"password":"p"}]`)
	f.Add(`"plain"`)
	f.Fuzz(func(t *testing.T, in string) {
		out, ok := Redact([]byte(in))
		if !ok {
			return
		}
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("Redact(%q) = %q, not JSON: %v", in, out, err)
		}
		checkRedacted(t, v)
	})
}

func checkRedacted(t *testing.T, v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if IsSecretKey(k) && e != Redacted {
				t.Fatalf("key %q kept %v", k, e)
			}
			checkRedacted(t, e)
		}
	case []any:
		for _, e := range v {
			checkRedacted(t, e)
		}
	}
}

func TestQuoteAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "tab\tnl\ncr\r\x00\x1f\x7f", "<a>&", "é€😀", "\xff\xfe", "\u2028\u2029", "a\u009bb"} {
		want, _ := json.Marshal(s)
		want = bytes.ReplaceAll(want, []byte(`\u003c`), []byte("<"))
		want = bytes.ReplaceAll(want, []byte(`\u003e`), []byte(">"))
		want = bytes.ReplaceAll(want, []byte(`\u0026`), []byte("&"))
		if got := quote(s); !bytes.Equal(got, want) {
			t.Errorf("quote(%q) = %s, want %s", s, got, want)
		}
	}
}
