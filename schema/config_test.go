package schema

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/fifo"
)

// TestConfigSchemaAgreesWithLoader holds the schema that editors use and
// the loader that hookctl lint uses to the same verdict on each file.
func TestConfigSchemaAgreesWithLoader(t *testing.T) {
	sch := compile(t, ConfigSchema([]string{"platform-specific", "dangerous-command"}))
	for src, ok := range map[string]bool{
		`{}`:           true,
		`{"lint": {}}`: true,
		`{"$schema": "https://hookctl.dev/schema/hookctl.schema.json", "lint": {"disable": ["platform-specific"]}}`: true,
		`{"lint": {"severity": {"dangerous-command": "error", "platform-specific": "off"}}}`:                        true,
		`{"lint": {"disable": ["platform-specific"], "severity": {"dangerous-command": "info"}}}`:                   true,
		`[]`:                         false,
		`{"lint": []}`:               false,
		`{"lnit": {}}`:               false,
		`{"lint": {"disabled": []}}`: false,
		`{"lint": {"disable": "platform-specific"}}`:             false,
		`{"lint": {"disable": [1]}}`:                             false,
		`{"lint": {"severity": {"dangerous-command": "fatal"}}}`: false,
		`{"lint": {"severity": {"dangerous-command": 2}}}`:       false,
		`{"$schema": 1}`: false,
	} {
		err := validate(t, sch, src)
		_, lerr := ParseConfig(".hookctl.json", []byte(src))
		if (err == nil) != ok || (lerr == nil) != ok {
			t.Errorf("%s: schema valid=%v, loader valid=%v, want %v (%v; %v)", src, err == nil, lerr == nil, ok, err, lerr)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for src, want := range map[string]string{
		"{\"lint\": {\"disable\": [\"x\",]}}":                      `.hookctl.json:1:26: trailing comma`,
		`{"lint": {"severity": {"dangerous-command": "Error"}}}`:   `.hookctl.json:1:45: the level of "dangerous-command" must be "error", "warning", "info" or "off", not "Error" (did you mean "error"?)`,
		"{\n  \"lnit\": {}\n}":                                     `.hookctl.json:2:3: "lnit" is not a setting (did you mean "lint"?)`,
		`{"lint": {"severity": {"dangerous-command": "warn"}}}`:    `.hookctl.json:1:45: the level of "dangerous-command" must be "error", "warning", "info" or "off", not "warn"`,
		`{"lint": {"disable": ["a"], "severity": {"a": "error"}}}`: `.hookctl.json:1:42: "a" is in "disable" (1:23) and given the level "error" here: remove one of the two`,
		`{"lint": {}, "lint": {}}`:                                 `.hookctl.json:1:14: the key "lint" is repeated (first at 1:2): write it once`,
		`"lint"`:                                                   `.hookctl.json:1:1: the file must be an object`,
		"":                                                         `.hookctl.json:1:1: the file is empty`,
	} {
		_, err := ParseConfig(".hookctl.json", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %q...", src, err, want)
		}
	}
	c, err := ParseConfig("x", []byte(`{"lint": {"severity": {"b": "info"}, "disable": ["a"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rules) != 2 || c.Rules[0].Rule != "a" || c.Rules[0].Level != LevelOff || c.Rules[1].Rule != "b" || c.Rules[1].Level != LevelInfo ||
		c.Rules[1].Span.Start.Col != 24 {
		t.Errorf("rules %+v", c.Rules)
	}
}

func TestFindAndLoadConfig(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "ws", ".agents", "hooks")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := FindConfig(deep); got != "" && strings.HasPrefix(got, root) {
		t.Fatalf("found %s in an empty tree", got)
	}
	cfg := filepath.Join(root, "ws", ConfigFileName)
	if err := os.WriteFile(cfg, []byte(`{"lint": {"disable": ["x"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := FindConfig(deep); got != cfg {
		t.Errorf("FindConfig = %q, want %q", got, cfg)
	}
	// Hostile files: a FIFO, a folder, a link to nothing, one too large.
	for name, create := range map[string]func(p string) error{
		"is a named pipe (FIFO), not a regular file": func(p string) error { return fifo.Make(p, 0o644) },
		"is a folder, not a regular file":            func(p string) error { return os.Mkdir(p, 0o755) },
		"is a link to a file that does not exist":    func(p string) error { return os.Symlink(filepath.Join(root, "nothing"), p) },
		"is larger than 1 MiB":                       func(p string) error { return os.WriteFile(p, make([]byte, 2<<20), 0o644) },
	} {
		p := filepath.Join(t.TempDir(), ConfigFileName)
		if err := create(p); errors.Is(err, fifo.ErrUnsupported) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// FuzzParseConfig reads any .hookctl.json without failing: an error names
// a place in the file, and a file read names its rules where they stand.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{`{"lint": {"disable": ["a"], "severity": {"b": "off"}}}`, `{"lint": []}`, `{"$schema": "x"}`, "", `{"lint": {"severity": {"a": "warn"}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := ParseConfig(".hookctl.json", src)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Pos.Offset > len(src) || ce.Pos.Line < 1 {
				t.Fatalf("ParseConfig(%q): %v", src, err)
			}
			return
		}
		for _, r := range c.Rules {
			if r.Span.End.Offset > len(src) || r.Span.Start.Offset > r.Span.End.Offset {
				t.Fatalf("ParseConfig(%q): %+v", src, r)
			}
		}
	})
}
