package tracelog

import (
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
	out, err := Redact([]byte(in))
	if err != nil {
		t.Fatal(err)
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
	if out, err := Redact([]byte(`{"token": "s3cr3t", "a":`)); err == nil || out != nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("a broken payload: %s, %v", out, err)
	} else if want := "not JSON: 1:25: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
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
		out, err := Redact([]byte(in))
		if err != nil {
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

// TestRedactByWords: a key with "key" as one of its words, an object
// that names a secret in "name", and settings written inside strings.
func TestRedactByWords(t *testing.T) {
	for _, k := range []string{"keyId", "key_file", "SSH_KEY_PATH", "signingKeys", "KEYS", "x-api-key-header"} {
		if !IsSecretKey(k) {
			t.Errorf("%q should look secret", k)
		}
	}
	for _, k := range []string{"keyboard", "keyword", "hotkeyboard", "turkeyLeg"} {
		if IsSecretKey(k) {
			t.Errorf("%q should not look secret", k)
		}
	}
	in := `{"headers":[{"name":"Authorization","value":"Bearer abc"},{"name":"Accept","value":"json"}],` +
		`"env":[{"key":"GITHUB_TOKEN","value":{"v":1}}],` +
		`"CommandLine":"GITHUB_TOKEN=ghp_1 ./deploy --api-key=k2 --password 'p 3' && curl -H \"Authorization: Bearer t4\" https://x --token=\"t 5\""}`
	out, err := Redact([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"headers":[{"name":"Authorization","value":"[redacted]"},{"name":"Accept","value":"json"}],` +
		`"env":[{"key":"[redacted]","value":"[redacted]"}],` +
		`"CommandLine":"GITHUB_TOKEN=[redacted] ./deploy --api-key=[redacted] --password '[redacted]' && curl -H \"Authorization: [redacted]\" https://x --token=\"[redacted]\""}`
	if string(out) != want {
		t.Errorf("redacted:\n got %s\nwant %s", out, want)
	}
}

func TestRedactText(t *testing.T) {
	for in, want := range map[string]string{
		"":                                   "",
		"ls -la":                             "ls -la",
		"https://key.example/x":              "https://key.example/x",
		"author=me keyboard=qwerty":          "author=me keyboard=qwerty",
		"SECRET=x; echo ok":                  "SECRET=[redacted]; echo ok",
		"Authorization: Basic Zm9v\nnext":    "Authorization: [redacted]\nnext",
		"--secret":                           "--secret",
		"token=":                             "token=",
		"token=[redacted] token=again":       "token=[redacted] token=[redacted]",
		`TOKEN="unclosed`:                    `TOKEN=[redacted]`,
		"x API_KEY=1 PASSWORD=2|TOKEN=3&k=4": "x API_KEY=[redacted] PASSWORD=[redacted]|TOKEN=[redacted]&k=4",
	} {
		if got := RedactText(in); got != want {
			t.Errorf("RedactText(%q) = %q, want %q", in, got, want)
		}
	}
}
