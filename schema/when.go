package schema

import "time"

// FormatTime is how hookctl shows a time to a person: RFC 3339, in UTC.
func FormatTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}
