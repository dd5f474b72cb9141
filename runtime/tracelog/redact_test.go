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

// TestRedactShapes: the keys, settings, passwords and token shapes of
// gitleaks' rules (config/gitleaks.toml, v8.30.1) are redacted wherever a
// payload's strings hold them; look-alikes are not. The tokens are built
// here, not written whole, so that no scanner takes them for real ones.
func TestRedactShapes(t *testing.T) {
	for _, k := range []string{"passphrase", "SSH_PASSPHRASE", "pwd", "DB_PWD", "auth", "basicAuth", "proxy-auth", "cookie", "Set-Cookie", "cookies", "session", "SESSION", "userSession"} {
		if !IsSecretKey(k) {
			t.Errorf("%q should look secret", k)
		}
	}
	for _, k := range []string{"author", "auth_mode", "authMode", "sessionId", "session_id", "pwdir"} {
		if IsSecretKey(k) {
			t.Errorf("%q should not look secret", k)
		}
	}
	a := func(n int) string { return strings.Repeat("a1B2", n/4+1)[:n] }
	jwtTok := "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	for in, want := range map[string]string{
		`SECRET_KEY = "s3cr3t" in settings.py`:          `SECRET_KEY = "[redacted]" in settings.py`,
		`config: {"password": "hunter2", "user": "me"}`: `config: {"password": "[redacted]", "user": "me"}`,
		"passphrase=open sesame":                        "passphrase=[redacted] sesame",
		"git clone https://me:tok3n@github.com/o/r.git": "git clone https://me:[redacted]@github.com/o/r.git",
		"curl -u admin:pa55 https://x":                  "curl -u admin:[redacted] https://x",
		"mysql -uroot -pS3cret app":                     "mysql -uroot -p[redacted] app",
		"mysqldump -p'S3 cret' app":                     "mysqldump -p'[redacted]' app",
		"push with ghp_" + a(36) + " now":               "push with [redacted] now",
		"github_pat_" + a(82):                           "[redacted]",
		"OPENAI=x sk-proj-" + a(40):                     "OPENAI=x [redacted]",
		"glpat-" + a(20):                                "[redacted]",
		"slack xoxb-1234567890-" + a(24):                "slack [redacted]",
		"aws AKIA" + strings.Repeat("Q2", 8) + ".":      "aws [redacted].",
		"AIza" + a(35):                                  "[redacted]",
		"Bearer " + jwtTok + " sent":                    "Bearer [redacted] sent",
		"npm_" + a(36):                                  "[redacted]",
		"-----BEGIN OPENSSH PRIVATE KEY-----\n" + a(70) + "\n-----END OPENSSH PRIVATE KEY-----\nafter": "[redacted]\nafter",
		// Look-alikes stay.
		"pip install scikit-learn sk-learn":          "pip install scikit-learn sk-learn",
		"ghp_short AKIAxyz eyes.eyes xoxb-1":         "ghp_short AKIAxyz eyes.eyes xoxb-1",
		"ssh://git@github.com/o/r https://me@h/x":    "ssh://git@github.com/o/r https://me@h/x",
		"at 10:30 see http://host:8080/x":            "at 10:30 see http://host:8080/x",
		`[ "$token" == x ] && mysqladmin -h db ping`: `[ "$token" == x ] && mysqladmin -h db ping`,
		"tar -pcf x.tar . -u me:x":                   "tar -pcf x.tar . -u me:x",
	} {
		if got := RedactText(in); got != want {
			t.Errorf("RedactText(%q)\n = %q\nwant %q", in, got, want)
		}
	}
	out, err := Redact([]byte(`{"auth":"a","cookie":"c","session":"s","sessionId":"id1","pwd":"p","passphrase":"q","args":{"Url":"https://u:p4ss@h"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"auth":"[redacted]","cookie":"[redacted]","session":"[redacted]","sessionId":"id1","pwd":"[redacted]","passphrase":"[redacted]","args":{"Url":"https://u:[redacted]@h"}}`; string(out) != want {
		t.Errorf("Redact:\n got %s\nwant %s", out, want)
	}
}
