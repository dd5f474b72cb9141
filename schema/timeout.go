package schema

import "math"

// ReadsAsMilliseconds reports whether a timeout of secs seconds was most
// likely written in milliseconds, as other agents count them: it is 1000
// or more (over a quarter of an hour for one handler), a whole or half
// number of seconds when read as milliseconds (1500, 5000, 30000), and a
// usual timeout then (at most an hour). A whole number of hours up to a
// day (3600, 18000, 36000) reads as hours in seconds, a real timeout, and
// so does anything that is not a multiple of 500 (10800, 28800, or the
// MaxTimeout that hookctl import writes for "as long as there is").
func ReadsAsMilliseconds(secs float64) bool {
	const hour, day = 3600, 24 * 3600
	if secs < 1000 || secs > hour*1000 || math.Mod(secs, 500) != 0 {
		return false
	}
	return math.Mod(secs, hour) != 0 || secs > day
}
