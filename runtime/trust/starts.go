package trust

import (
	"fmt"
	"regexp"

	"github.com/hookctl/hookctl/internal/lazyre"
)

// What a Perl, Ruby, PHP or awk script starts itself (system, exec,
// backticks, a pipe to or from a command) is not read: each line that may
// start a program is named at its line, in the words of its language, so
// that a script of the workspace it runs that way is never passed over
// in silence. The line is found in the script's text as written: a word
// of that kind in a string names its line too.
var (
	perlStarts = lazyre.New("(?:^|[^\\w$@%&:>-])(?:system|exec|qx|readpipe)\\b|`|\\bIPC::|\\bopen\\b[^;]*?['\"](?:-\\||\\|-|\\|[^'\"]*|[^'\"]*\\|)['\"]")
	rubyStarts = lazyre.New("(?:^|[^\\w.:@$]|\\bKernel\\.|\\bProcess\\.)(?:system|exec|spawn)\\b|`|%x[^\\w\\s]|\\bIO\\.popen\\b|\\bOpen3\\b|\\bPTY\\.spawn\\b|\\bopen\\s*\\(?\\s*['\"]\\||\\bIO\\.(?:read|readlines|write|foreach|binread)\\s*\\(?\\s*['\"]\\|")
	phpStarts  = lazyre.New("(?i)\\b(?:exec|shell_exec|system|passthru|proc_open|popen|pcntl_exec|expect_popen)\\s*\\(|`")
	// awk's are found in its text with its strings blanked (awkCode).
	awkStarts = lazyre.New(`\bsystem\s*\(|\|\s*getline\b|\|&|\bprintf?\b[^;\n}]*[^|]\|(?:[^|]|$)`)
)

// Words that say what starts a program, in each language.
const (
	perlStartWords = "system, exec, backticks, qx, a piped open, IPC::"
	rubyStartWords = "system, exec, spawn, backticks, %x, IO.popen, Open3, a piped open"
	phpStartWords  = "exec, shell_exec, system, passthru, proc_open, popen, backticks"
	awkStartWords  = "system, a pipe to or from a command"
)

// startGap is the gap of a line that may start a program.
func startGap(name string, line int, words string) string {
	return fmt.Sprintf("%s:%d starts a program (%s), which hookctl does not read: what it runs is not known", name, line, words)
}

// textStarting names, once a line, where the expression finds a program
// started in code (content's text, or the same with its strings
// blanked).
func textStarting(cmd *Command, code []byte, re func() *regexp.Regexp, name, words string) {
	lines := lineCounter{b: code}
	var gaps []string
	last := 0
	for _, m := range re().FindAllIndex(code, -1) {
		if n := lines.at(keywordAt(code, m)); n != last {
			last = n
			gaps = append(gaps, startGap(name, n, words))
		}
	}
	addGaps(cmd, gaps)
}

// awkCode returns awk program text with the text of its strings blanked
// (a "|" in one is no pipe), and its comments.
func awkCode(src []byte) []byte {
	out := []byte(string(src))
	for i := 0; i < len(out); i++ {
		switch out[i] {
		case '#':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case '"':
			for i++; i < len(out) && out[i] != '"' && out[i] != '\n'; i++ {
				if out[i] == '\\' && i+1 < len(out) && out[i+1] != '\n' {
					out[i] = ' '
					i++
				}
				out[i] = ' '
			}
		}
	}
	return out
}
