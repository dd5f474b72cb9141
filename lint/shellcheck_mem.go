package lint

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// ShellCheck's memory is bounded: each ShellCheck process may take 160 MB
// and four times the bytes lint read (the hooks.json files and the
// scripts it hands over). ShellCheck takes memory out of all proportion
// to a text on many shapes: 3 KB of 300 assignments (a1=$b1, ...) cost
// ShellCheck 0.9.0 402 MB and 9 s, 10 KB of nested subshells 4.5 GB, a
// .shellcheckrc with external-sources=true and a script sourcing
// /dev/zero over 3 GB. But ordinary scripts need more than lint's own
// goal (30 MB and four times the bytes read) too: Debian's 8 KB zgrep
// takes 29 MB, a 2 KB script of 100 variables set and used 39 MB, the
// 42 KB ucf 100 MB and gettextize 134 MB. A bound of 30 MB would take
// ShellCheck away from everyday hook scripts; 160 MB checks them and still
// stops what took gigabytes. A ShellCheck past the bound is stopped, and
// the texts it checked are checked again in halves, so that only the one
// that needs more is named as not checked.

const (
	// scMemoryBase is what one ShellCheck may take besides four bytes a
	// byte read: enough for the largest ordinary scripts measured above.
	scMemoryBase = 160_000_000
	// scMemoryEnv raises the bound, in megabytes, for a user who trusts
	// what lint reads.
	scMemoryEnv = "HOOKCTL_SHELLCHECK_MEMORY"
	// scMaxNesting bounds how deep a text may nest (scNesting) to be
	// handed to ShellCheck, which at 100 levels of if or $( ) took 30 MB
	// and 0.8 s, at 1,000 levels of subshells 210 MB and 12 s.
	scMaxNesting = 50
)

// scMemory is the most memory one ShellCheck may take when lint read
// read bytes.
func scMemory(read int64) int64 {
	limit := scMemoryBase + 4*read
	if mb, err := strconv.ParseInt(os.Getenv(scMemoryEnv), 10, 64); err == nil && mb > 0 && mb<<20 > limit {
		limit = mb << 20
	}
	return limit
}

// scMemoryError is a ShellCheck run stopped for the memory it took.
type scMemoryError struct{ limit int64 }

func (e *scMemoryError) Error() string {
	return fmt.Sprintf("it needs more than %d MB, the most hookctl lets one ShellCheck take (160 MB and four times the bytes lint read; %s=MB raises it), so it was not checked: run shellcheck on it yourself if you trust it", e.limit/1_000_000, scMemoryEnv)
}

func isMemoryError(err error) bool {
	var me *scMemoryError
	return errors.As(err, &me)
}

var errTooDeepForShellCheck = fmt.Errorf("it nests more than %d levels (subshells, blocks, substitutions, if, case, loops), where ShellCheck takes seconds and hundreds of megabytes, so it was not checked", scMaxNesting)

// scNesting estimates how deep src nests: brackets, and the shell's
// compound commands where a command starts, outside comments and single
// quotes. It errs upward, on unbalanced brackets in text, which costs a
// text ShellCheck's check, never memory.
func scNesting(src []byte) int {
	depth, deepest := 0, 0
	cmdStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\'':
			if j := bytes.IndexByte(src[i+1:], '\''); j >= 0 {
				i += j + 1
			} else {
				i = len(src)
			}
			cmdStart = false
		case c == '#' && (i == 0 || isBlank(src[i-1])):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			cmdStart = true
		case c == '(' || c == '{' || c == '[':
			depth++
			cmdStart = true
		case c == ')' || c == '}' || c == ']':
			depth = max(depth-1, 0)
			cmdStart = false
		case c == ';' || c == '&' || c == '|' || c == '\n':
			cmdStart = true
		case c == '\\':
			i++
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			word := string(src[i:j])
			i = j - 1
			if cmdStart {
				switch word {
				case "if", "case", "while", "until", "for", "select":
					depth++
				case "fi", "esac", "done":
					depth = max(depth-1, 0)
				}
			}
			switch word {
			case "then", "do", "else", "elif", "if", "while", "until", "time":
				// A command starts after these, where they are words
				// of the shell.
			default:
				cmdStart = false
			}
		}
		deepest = max(deepest, depth)
	}
	return deepest
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == ';' }

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
