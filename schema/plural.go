package schema

import "strconv"

// Plural counts n of a thing for a message: "1 file", "3 files". The
// plural is word with an s unless many gives it: Plural(2, "entry",
// "entries") is "2 entries", and the words may run on, as in
// Plural(n, "handler is", "handlers are").
func Plural(n int, word string, many ...string) string {
	if n != 1 {
		if len(many) > 0 {
			word = many[0]
		} else {
			word += "s"
		}
	}
	return strconv.Itoa(n) + " " + word
}
