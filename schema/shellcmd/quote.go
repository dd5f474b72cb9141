package shellcmd

import "strings"

// Quote returns word as one word of a POSIX shell command line: bare when
// every byte of it is a letter, a digit or one of _ - . / (bytes that no
// shell reads specially, in any position of any word), else in single
// quotes, where every byte but NUL stands for itself and a single quote is
// closed, escaped with a backslash and reopened. Everything hookctl prints
// or writes for a shell to run quotes with it: a byte such as ~ (tilde
// expansion), = (an assignment as the first word, zsh's =cmd), % (job
// names) or : after = (tilde expansion in assignments) is quoted even where
// a given shell would leave it alone.
func Quote(word string) string {
	if word != "" && strings.Trim(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") == "" {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}

// QuoteHome is Quote for a path that may be written from the home folder,
// "~/" and the rest, as hookctl shows paths under it: the "~/" stays bare,
// so that the shell expands it to the home folder, and the rest is quoted
// as Quote does. Any other path is quoted whole.
func QuoteHome(path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		return "~/" + Quote(rest)
	}
	return Quote(path)
}
