package schema

import "testing"

func TestReadsAsMilliseconds(t *testing.T) {
	for secs, want := range map[float64]bool{
		999: false, 1000: true, 1500: true, 2500: true, 5000: true, 30000: true, 60000: true,
		90000: true, 600000: true, 3600000: true, 3600500: false,
		1200: false, 1800: false, 2700: false, 3600: false, 7200: false, 10800: false,
		18000: false, 28800: false, 36000: false, 86400: false, 108000: true,
		MaxTimeout: false, 1e30: false,
	} {
		if got := ReadsAsMilliseconds(secs); got != want {
			t.Errorf("ReadsAsMilliseconds(%.0f) = %v, want %v", secs, got, want)
		}
	}
}
