package shellcmd

import "strings"

// GNU sed runs programs from its script: the e command runs a command,
// and the e flag of s runs the pattern space as one (GNU sed 4.9, "Extended
// Commands" and "The s Command"), each by /bin/sh -c. A sed call whose
// script may do so, whose script is not literal, or which reads its
// script from a file (-f) is named: what it runs is not read. --sandbox
// refuses e, r and w.

// sedRuns adds the gap of a sed call, given its args, whose script may
// run a program.
func sedRuns(args []Word, gaps *[]Gap) {
	const fromFile = "sed runs the script of a file, whose e command may run programs, which hookctl does not read: what it runs is not known"
	var scripts []Word
	given := false // -e or -f gave the script
	for j := 0; j < len(args); j++ {
		a := args[j]
		if !a.Lit {
			if given {
				continue // a file to edit, as other programs' arguments
			}
			*gaps = append(*gaps, Gap{Word: a, Why: "sed is given an option or script built only when the command runs, whose e command may run programs", Code: true})
			return
		}
		t := a.Text
		switch {
		case t == "--sandbox":
			return
		case t == "--":
			if !given && j+1 < len(args) {
				scripts = append(scripts, args[j+1])
			}
			j = len(args)
		case strings.HasPrefix(t, "--expression="):
			w := a
			w.Text = strings.TrimPrefix(t, "--expression=")
			scripts, given = append(scripts, w), true
		case t == "--expression":
			if j+1 < len(args) {
				scripts, given = append(scripts, args[j+1]), true
			}
			j++
		case t == "--file" || strings.HasPrefix(t, "--file="):
			*gaps = append(*gaps, Gap{Word: a, Why: fromFile, Code: true})
			return
		case t == "--line-length":
			j++
		case strings.HasPrefix(t, "--"):
		case len(t) > 1 && t[0] == '-':
			// a cluster of short options: -n, -E, -i[SUFFIX], -l N,
			// -e SCRIPT, -f FILE
			for k := 1; k < len(t); k++ {
				switch t[k] {
				case 'i':
					k = len(t) // the rest is the suffix
				case 'l':
					if k == len(t)-1 {
						j++
					}
					k = len(t)
				case 'e':
					w := a
					if k < len(t)-1 {
						w.Text = t[k+1:]
					} else if j+1 < len(args) {
						j++
						w = args[j]
					}
					scripts, given = append(scripts, w), true
					k = len(t)
				case 'f':
					*gaps = append(*gaps, Gap{Word: a, Why: fromFile, Code: true})
					return
				}
			}
		case !given:
			scripts, given = append(scripts, a), true
		}
	}
	for _, w := range scripts {
		switch {
		case !w.Lit:
			*gaps = append(*gaps, Gap{Word: w, Why: "sed is given a script built only when the command runs, whose e command may run programs", Code: true})
			return
		case sedScriptRuns(w.Text):
			*gaps = append(*gaps, Gap{Word: w, Why: "sed runs a program from its script (the e command or flag), which hookctl does not read: what it runs is not known", Code: true})
			return
		}
	}
}

// sedScriptRuns reports whether a sed script may run a program: it holds
// an e command or an s command with the e flag, or it does not read as a
// script (then it may).
func sedScriptRuns(s string) bool {
	i, n := 0, len(s)
	blanks := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	toEnd := func(stops string) {
		for i < n && s[i] != '\n' && strings.IndexByte(stops, s[i]) < 0 {
			i++
		}
	}
	// delimited skips past the next d that no backslash escapes.
	delimited := func(d byte) bool {
		for ; i < n; i++ {
			switch {
			case s[i] == '\\':
				i++
			case s[i] == d:
				i++
				return true
			}
		}
		return false
	}
	digits := func() {
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	for i < n {
		for i < n && strings.IndexByte(" \t\n;", s[i]) >= 0 {
			i++
		}
		if i >= n {
			break
		}
		if s[i] == '#' {
			toEnd("")
			continue
		}
		// Up to two addresses, then any !.
		for k := 0; k < 2 && i < n; k++ {
			switch c := s[i]; {
			case c >= '0' && c <= '9':
				digits()
				if i < n && s[i] == '~' {
					i++
					digits()
				}
			case c == '$':
				i++
			case c == '/' || c == '\\':
				d := byte('/')
				if c == '\\' {
					if i+1 >= n {
						return true
					}
					i++
					d = s[i]
				}
				i++
				if !delimited(d) {
					return true
				}
				for i < n && (s[i] == 'I' || s[i] == 'M') {
					i++
				}
			case k == 1 && (c == '+' || c == '~'):
				i++
				digits()
			}
			blanks()
			if k == 1 || i >= n || s[i] != ',' {
				break
			}
			i++
			blanks()
		}
		for i < n && (s[i] == '!' || s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= n {
			return true
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'x', 'n', 'N', 'p', 'P', 'z', 'F':
		case 'e':
			return true
		case 's', 'y':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return true
			}
			d := s[i]
			i++
			// The pattern, then the replacement (s) or the other set (y).
			for range 2 {
				if !delimited(d) {
					return true
				}
			}
			for c == 's' && i < n && strings.IndexByte("gpiImMew0123456789", s[i]) >= 0 {
				switch s[i] {
				case 'e':
					return true
				case 'w':
					toEnd("") // the file's name runs to the line's end
				default:
					i++
				}
			}
		case 'a', 'i', 'c':
			// text to the line's end, on over lines a backslash ends
			for i < n {
				toEnd("")
				if i < n && i > 0 && s[i-1] == '\\' {
					i++
					continue
				}
				break
			}
		case 'r', 'R', 'w', 'W':
			toEnd("")
		case 'b', 't', 'T', ':', 'v':
			toEnd(";}")
		case 'q', 'Q', 'l', 'L':
			blanks()
			digits()
		default:
			return true
		}
	}
	return false
}
