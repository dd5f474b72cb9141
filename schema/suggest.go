package schema

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Nearest returns the candidate that word most likely meant, or "" when none
// is close. It sees through case and separators first ("pre_tool_use",
// "pretooluse" and "PretoolUse" all mean "PreToolUse"), then through the
// order of the words ("file_write" means "write_to_file", "ToolUsePre"
// "PreToolUse"), then allows a few typing mistakes, in proportion to the
// word's length.
func Nearest(word string, candidates []string) string {
	if word == "" {
		return ""
	}
	norm := normalize(word)
	for _, c := range candidates {
		if normalize(c) == norm {
			return c
		}
	}
	if bag := wordBag(word); strings.Contains(bag, " ") {
		for _, c := range candidates {
			if wordBag(c) == bag {
				return c
			}
		}
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		d := distance(norm, normalize(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(1, min(3, len([]rune(norm))/3))
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

// normalize folds case and drops the separators people put between words.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r == '-' || r == ' ' || r == '.' {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// fillers are the words a name may hold or leave out without meaning
// otherwise: "write_to_file" is "file_write".
var fillers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"a": true, "an": true, "the": true, "to": true, "of": true, "by": true, "in": true, "on": true, "for": true}
})

// wordBag returns the words of a name, split at separators and where a
// lower-case letter meets a capital, folded to lower case, without
// fillers, sorted and joined by blanks: the same for the same words in
// any order.
func wordBag(s string) string {
	var words []string
	var cur strings.Builder
	flush := func() {
		if w := cur.String(); w != "" && !fillers()[w] {
			words = append(words, w)
		}
		cur.Reset()
	}
	prev := rune(0)
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur.WriteRune(unicode.ToLower(r))
		default:
			cur.WriteRune(unicode.ToLower(r))
		}
		prev = r
	}
	flush()
	slices.Sort(words)
	return strings.Join(words, " ")
}

// distance is the Damerau-Levenshtein distance (with adjacent
// transpositions) between a and b, in characters.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
