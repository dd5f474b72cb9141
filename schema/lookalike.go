package schema

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.mau.fi/util/confusable"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

// LookAlike says what makes a name (a hook's name, a path a command runs)
// look like another, "" when nothing does: "./hooks/gаte.sh" with a
// Cyrillic а beside the real gate.sh reads the same on every screen. It
// names each character at fault by its code point and Unicode name:
//   - letters of more than one script in one word (Latin and Cyrillic in
//     "gаte"; Han with Hiragana, Katakana, Hangul or Bopomofo is one
//     writing, as UTS #39's "highly restrictive" level has it), where a
//     word is a run of letters and marks;
//   - a word of another script whose every letter looks like an ASCII one
//     (Cyrillic "асе"), UTS #39's whole-script confusables;
//   - any other character that looks like an ASCII one (a fullwidth ｇ, a
//     mathematical 𝐠, the division slash ∕ that passes for /), by UTS
//     #39's confusables.txt (Unicode 17.0.0, as go.mau.fi/util/confusable
//     carries it), or by its compatibility form (NFKC);
//   - a character that shows nothing (a zero-width space or joiner, a
//     format character).
func LookAlike(name string) string {
	if isPlainASCII(name) {
		return ""
	}
	var notes []string
	seen := map[rune]bool{}
	note := func(r rune, what string) {
		if !seen[r] {
			seen[r] = true
			notes = append(notes, strings.TrimSpace(fmt.Sprintf("%U %s", r, runenames.Name(r)))+what)
		}
	}
	var mixed []string
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		if !isWordRune(r) {
			switch {
			case r >= utf8.RuneSelf && unicode.Is(unicode.Cf, r):
				note(r, " (shows nothing)")
			case r >= utf8.RuneSelf:
				if like := asciiLike(r); like != "" {
					note(r, fmt.Sprintf(" (looks like %q)", like))
				}
			}
			i += size
			continue
		}
		j := i
		for j < len(name) {
			r, size := utf8.DecodeRuneInString(name[j:])
			if !isWordRune(r) {
				break
			}
			j += size
		}
		if scripts := wordScripts(name[i:j]); len(scripts) > 1 {
			mixed = appendNew(mixed, scripts...)
			main := scripts[0]
			if containsStr(scripts, "Latin") {
				main = "Latin"
			}
			for _, r := range name[i:j] {
				if s := wordScripts(string(r)); len(s) == 1 && s[0] != main {
					note(r, likeNote(r))
				}
			}
		} else {
			whole := len(scripts) == 1 && scripts[0] != "Latin"
			for _, r := range name[i:j] {
				whole = whole && (asciiLike(r) != "" || unicode.Is(unicode.Mn, r))
			}
			for _, r := range name[i:j] {
				if r < utf8.RuneSelf {
					continue
				}
				if like := asciiLike(r); like != "" && (whole || len(scripts) == 0 || scripts[0] == "Latin") {
					note(r, fmt.Sprintf(" (looks like %q)", like))
				}
			}
		}
		i = j
	}
	if len(notes) == 0 {
		return ""
	}
	if len(mixed) > 1 {
		return fmt.Sprintf("mixes the %s scripts in one word: %s", strings.Join(mixed, " and "), strings.Join(notes, ", "))
	}
	return "holds characters that look like others: " + strings.Join(notes, ", ")
}

func likeNote(r rune) string {
	if like := asciiLike(r); like != "" {
		return fmt.Sprintf(" (looks like %q)", like)
	}
	return ""
}

// asciiLike returns the ASCII text a non-ASCII character looks like by
// UTS #39's confusables, "" when it looks like none.
func asciiLike(r rune) string {
	if r < utf8.RuneSelf {
		return ""
	}
	like := confusable.GetReplacement(r)
	if like == "" || like == string(r) {
		// Compatibility forms (fullwidth ｆ, ligatures) are not in
		// confusables.txt: UTS #39 folds them with NFKC first.
		like = norm.NFKC.String(string(r))
		if like == string(r) {
			return ""
		}
	}
	for i := 0; i < len(like); i++ {
		if like[i] >= utf8.RuneSelf || like[i] < ' ' {
			return ""
		}
	}
	return like
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// scriptOf returns the script of a letter, "" for the common and
// inherited ones (marks, digits, punctuation).
func scriptOf(r rune) string {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return "Latin"
		}
		return ""
	}
	for name, table := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

// wordScripts returns the scripts of a word's letters in the order they
// come, Han, Hiragana, Katakana, Hangul and Bopomofo as one.
func wordScripts(word string) []string {
	var out []string
	for _, r := range word {
		s := scriptOf(r)
		switch s {
		case "":
			continue
		case "Hiragana", "Katakana", "Hangul", "Bopomofo":
			s = "Han"
		}
		out = appendNew(out, s)
	}
	return out
}

func appendNew(list []string, items ...string) []string {
	for _, s := range items {
		if !containsStr(list, s) {
			list = append(list, s)
		}
	}
	return list
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// LookAlikeAs returns name as it reads: each character that looks like an
// ASCII one replaced by it, those that show nothing dropped.
func LookAlikeAs(name string) string {
	if isPlainASCII(name) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		switch like := asciiLike(r); {
		case like != "":
			b.WriteString(like)
		case r >= utf8.RuneSelf && unicode.Is(unicode.Cf, r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// LookAlikeHook says that the hook name, defined in file at line, reads as
// another (LookAlike), in the words a review shows beside its list of
// hooks; "" when it does not.
func LookAlikeHook(name, file string, line int) string {
	why := LookAlike(name)
	if why == "" {
		return ""
	}
	return fmt.Sprintf("the hook %s (%s:%d) %s; it reads as %s", Visible(name), Visible(file), line, why, Visible(LookAlikeAs(name)))
}
