package oracle

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Syscalls are the system calls the oracle asks strace to trace: the ones
// that start programs, open, read and map files, move descriptors (a shell's
// redirections), change the current folder and start processes.
var Syscalls = []string{
	"execve", "execveat",
	"open", "openat", "openat2", "creat",
	"read", "pread64", "readv", "preadv", "preadv2",
	"mmap",
	"dup", "dup2", "dup3", "fcntl",
	"chdir", "fchdir",
	"clone", "clone3", "fork", "vfork",
}

// StraceArgs are strace's options for a trace written to log: follow every
// child, decode each descriptor to its path (-y: the kernel's answer, after
// every link, /dev/stdin and /dev/fd included), print strings up to 1 KiB
// (the code a shell reads from a pipe comes a line at a time, and an
// interpreter's start reads hundreds of files), print only the calls that
// succeeded (each on one line, once it returned), and stop the tracees
// only at the traced calls (--seccomp-bpf), which keeps an interpreter's
// start fast.
func StraceArgs(log string) []string {
	return []string{"-f", "-qq", "-y", "-s", "1024", "--seccomp-bpf", "-e", "signal=none", "-e", "status=successful",
		"-e", "trace=" + strings.Join(Syscalls, ","), "-o", log}
}

// Call is one system call as strace -f -y printed it, its unfinished and
// resumed halves joined, in the order the calls were entered.
type Call struct {
	Pid  int
	Name string
	// Args are the call's arguments at the top level, as printed.
	Args []string
	// Ret is the return value as printed ("3</tmp/x>", "-1 ENOENT (...)",
	// "?" for a call that never returned); Val is its number, Path the path
	// decoded for a descriptor it returns.
	Ret  string
	Val  int64
	Path string
	// Line is the line of the log where the call was entered.
	Line int
}

// OK tells that the call returned without an error.
func (c *Call) OK() bool { return c.Ret != "" && c.Ret != "?" && c.Val >= 0 }

// ParseLog reads a log that strace -f -y wrote into calls, in the order the
// calls were entered, with each unfinished call joined to its resumption.
// A traced call it cannot read is returned as a call named "?" whose Ret
// holds the line.
func ParseLog(r io.Reader) ([]*Call, error) {
	type pending struct {
		text string
		slot int
		line int
	}
	var calls []*Call
	open := map[int]*pending{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		sp := strings.IndexByte(line, ' ')
		if sp < 0 {
			continue
		}
		pid, err := strconv.Atoi(line[:sp])
		if err != nil {
			return nil, fmt.Errorf("line %d: no pid: %q", n, clip(line))
		}
		rest := strings.TrimLeft(line[sp+1:], " ")
		switch {
		case strings.HasPrefix(rest, "+++") || strings.HasPrefix(rest, "---"):
			continue
		case strings.HasPrefix(rest, "<... "):
			p := open[pid]
			end := strings.Index(rest, " resumed>")
			if p == nil || end < 0 {
				return nil, fmt.Errorf("line %d: a resumption with no call: %q", n, clip(line))
			}
			delete(open, pid)
			c, err := parseCall(pid, p.text+rest[end+len(" resumed>"):], p.line)
			if err != nil {
				c = &Call{Pid: pid, Name: "?", Ret: err.Error(), Line: n, Val: -1}
			}
			calls[p.slot] = c
		case strings.HasSuffix(rest, " <unfinished ...>"):
			open[pid] = &pending{text: strings.TrimSuffix(rest, " <unfinished ...>"), slot: len(calls), line: n}
			calls = append(calls, nil)
		default:
			c, err := parseCall(pid, rest, n)
			if err != nil {
				if !traced(rest) {
					// strace names a call it could not decode by its number
					// (syscall_0x...), at times cut short: none it was asked
					// to trace.
					continue
				}
				c = &Call{Pid: pid, Name: "?", Ret: err.Error(), Line: n, Val: -1}
			}
			calls = append(calls, c)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	// A call still unfinished when the log ends (its process was killed)
	// never returned.
	for pid, p := range open {
		c, err := parseCall(pid, p.text+") = ?", p.line)
		if err == nil {
			calls[p.slot] = c
		}
	}
	out := calls[:0]
	for _, c := range calls {
		if c != nil {
			out = append(out, c)
		}
	}
	return out, nil
}

// traced tells that a line is about one of Syscalls.
func traced(text string) bool {
	name, _, _ := strings.Cut(text, "(")
	for _, s := range Syscalls {
		if name == s {
			return true
		}
	}
	return false
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:150] + " ... " + s[len(s)-150:]
	}
	return s
}

// parseCall reads "name(arg, arg...) = ret".
func parseCall(pid int, text string, line int) (*Call, error) {
	open := strings.IndexByte(text, '(')
	if open < 0 {
		return nil, fmt.Errorf("not a call: %q", clip(text))
	}
	c := &Call{Pid: pid, Name: text[:open], Line: line, Val: -1}
	args, end, err := splitArgs(text, open+1, ')')
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %q", c.Name, err, clip(text))
	}
	c.Args = args
	rest := strings.TrimLeft(text[end+1:], " ")
	if !strings.HasPrefix(rest, "=") {
		return nil, fmt.Errorf("%s: no return value: %q", c.Name, clip(text))
	}
	c.Ret = strings.TrimSpace(rest[1:])
	num := c.Ret
	if i := strings.IndexAny(num, " <"); i >= 0 {
		num = num[:i]
	}
	if v, err := strconv.ParseInt(num, 0, 64); err == nil {
		c.Val = v
	}
	if _, p, ok := FD(c.Ret); ok {
		c.Path = p
	}
	return c, nil
}

// splitArgs splits the text from i up to the closing byte at depth 0 into
// its top-level arguments, skipping strings, brackets and the <...> a
// descriptor's path is printed in. It returns the arguments and the index
// of the closing byte.
func splitArgs(s string, i int, close byte) ([]string, int, error) {
	var args []string
	start := i
	depth := 0
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			j, err := skipString(s, i)
			if err != nil {
				return nil, 0, err
			}
			i = j
		case '<':
			j, err := skipAngle(s, i)
			if err != nil {
				return nil, 0, err
			}
			i = j
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if c != close {
					return nil, 0, fmt.Errorf("unbalanced %q", c)
				}
				if a := strings.TrimSpace(s[start:i]); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args, i, nil
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, 0, fmt.Errorf("no closing %q", close)
}

// skipString returns the index of the quote that closes the string opened
// at i.
func skipString(s string, i int) (int, error) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j, nil
		}
	}
	return 0, fmt.Errorf("an unclosed string")
}

// skipAngle returns the index of the > that closes the < at i, nested
// ones included (-yy prints <path<char 1:3>>); a > inside a path is
// printed escaped.
func skipAngle(s string, i int) (int, error) {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				return j, nil
			}
		}
	}
	return 0, fmt.Errorf("an unclosed <")
}

// FD reads a descriptor as -y prints it, "3</tmp/x>" or "AT_FDCWD</tmp>":
// its number (-100 for AT_FDCWD) and its path.
func FD(s string) (int, string, bool) {
	lt := strings.IndexByte(s, '<')
	if lt < 0 || !strings.HasSuffix(s, ">") {
		return 0, "", false
	}
	num := s[:lt]
	n := -100
	if num != "AT_FDCWD" {
		v, err := strconv.Atoi(num)
		if err != nil {
			return 0, "", false
		}
		n = v
	}
	inner := s[lt+1 : len(s)-1]
	// -yy adds what a device or a socket is: <path<char 1:3>>.
	if k := strings.IndexByte(inner, '<'); k >= 0 && strings.HasSuffix(inner, ">") {
		inner = inner[:k]
	}
	p, err := unescape(inner)
	if err != nil {
		return 0, "", false
	}
	return n, p, true
}

// Str reads a string argument as strace prints it, "..." and C escapes,
// with the "..." strace adds after a string it cut.
func Str(s string) (string, bool) {
	s = strings.TrimSuffix(s, "...")
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	v, err := unescape(s[1 : len(s)-1])
	return v, err == nil
}

// StrArray reads an array of strings, as execve's argv is printed.
func StrArray(s string) ([]string, bool) {
	if len(s) < 2 || s[0] != '[' {
		return nil, false
	}
	items, _, err := splitArgs(s, 1, ']')
	if err != nil {
		return nil, false
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		if it == "..." {
			break
		}
		v, ok := Str(it)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// unescape undoes strace's C escapes: \n \t \r \v \f \\ \" \xHH and
// octal \O to \OOO.
func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", fmt.Errorf("a trailing backslash")
		}
		switch c = s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'x':
			if i+3 > len(s) {
				return "", fmt.Errorf("a short \\x")
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", err
			}
			b.WriteByte(byte(v))
			i += 2
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := 0
			j := i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				v = v*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
