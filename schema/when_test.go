package schema

import (
	"testing"
	"time"
)

// TestFormatTime: a time is shown in UTC, to the second.
func TestFormatTime(t *testing.T) {
	at := time.Date(2026, 12, 1, 11, 12, 3, 500, time.FixedZone("CET", 3600))
	if got, want := FormatTime(at), "2026-12-01T10:12:03Z"; got != want {
		t.Errorf("FormatTime = %q, want %q", got, want)
	}
}
