package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// TestOneTimeFormat keeps every time shown to a person in one format, RFC
// 3339 in UTC ("2026-12-02T10:00:00Z"): each place in the code that
// formats a time does it so.
func TestOneTimeFormat(t *testing.T) {
	if got := schema.FormatTime(time.Date(2026, 12, 2, 11, 0, 0, 0, time.FixedZone("CET", 3600))); got != "2026-12-02T10:00:00Z" {
		t.Errorf("schema.FormatTime = %q", got)
	}
	format := regexp.MustCompile(`\.(Format|AppendFormat)\(`)
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if format.MatchString(line) && !strings.Contains(line, ".UTC().Format(time.RFC3339)") {
				t.Errorf("%s:%d: show times as RFC 3339 in UTC, t.UTC().Format(time.RFC3339) (schema.FormatTime): %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
