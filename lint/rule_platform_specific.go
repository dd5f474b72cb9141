package lint

import (
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
)

type platformSpecific struct{ RuleBase }

func newPlatformSpecific() Rule {
	return &platformSpecific{newBase("platform-specific", Warning,
		"a command in a workspace file that runs only on Windows (cmd /c, powershell, %VAR%, C:\\ paths, .exe) or only on one machine (an absolute path into a home folder)")}
}

var (
	winProgram = lazyre.New(`(?i)^\s*(cmd(\.exe)?\s+/[ck]\b|powershell(\.exe)?\b|pwsh(\.exe)?\b|py(\.exe)?\s+-[0-9])`)
	winPyBare  = lazyre.New(`^\s*py\s`)
	winVar     = lazyre.New(`%[A-Z_][A-Z0-9_]+%`)
	winDrive   = lazyre.New(`(^|[\s"'=(])([A-Za-z]:[\\/])`)
	winExe     = lazyre.New(`(?i)[A-Za-z0-9_\-]\.(exe|bat|cmd|ps1)\b`)
	winSep     = lazyre.New(`(^|[\s"'])(\.{1,2}\\[A-Za-z0-9_.\-]|[A-Za-z0-9_.\-]+\\[A-Za-z0-9_.\-]+\\[A-Za-z0-9_.\-])`)
	homePath   = lazyre.New(`(^|[\s"'=:(])(/home/[^/\s"']+|/Users/[^/\s"']+|/root|/workspaces/[^/\s"']+|/mnt/[a-z]/Users/[^/\s"']+)(/|[\s"']|$)`)
)

func (r *platformSpecific) Check(f *File) {
	if f.Scope != Workspace {
		return
	}
	for _, h := range f.allHandlers() {
		if h.Command == nil {
			continue
		}
		s := h.Command.Str
		if !maybePlatformSpecific(s) {
			continue
		}
		at := func(loc []int, group int) (int, int) { return loc[2*group], loc[2*group+1] }
		switch {
		case winProgram().MatchString(s):
			loc := winProgram().FindStringSubmatchIndex(s)
			from, to := at(loc, 1)
			word := strings.ToLower(strings.Fields(s[from:to])[0])
			r.report(f, f.strSpan(h.Command, from, to), "", "%s", windowsProgramMessage(word))
		case winPyBare().MatchString(s):
			loc := winPyBare().FindStringIndex(s)
			r.report(f, f.strSpan(h.Command, loc[0], loc[1]-1), "python3", "py is the Python launcher for Windows, missing on macOS and Linux: write python3")
		case winVar().MatchString(s):
			loc := winVar().FindStringIndex(s)
			v := s[loc[0]:loc[1]]
			sugg := "$" + strings.Trim(v, "%")
			if strings.EqualFold(v, "%USERPROFILE%") {
				sugg = "$HOME"
			}
			r.report(f, f.strSpan(h.Command, loc[0], loc[1]), sugg, "%s is a Windows variable, which /bin/sh leaves as it is: write %s", v, sugg)
		case winDrive().MatchString(s):
			loc := winDrive().FindStringSubmatchIndex(s)
			from, to := at(loc, 2)
			r.report(f, f.strSpan(h.Command, from, pathEnd(s, to)), "", "%s is a Windows drive path, which exists only on one Windows machine: write the path relative to %s, where handlers run", pathWord(s, from), f.dirName())
		case winExe().MatchString(s):
			loc := winExe().FindStringIndex(s)
			from := wordStart(s, loc[0])
			r.report(f, f.strSpan(h.Command, from, loc[1]), "", "%s runs only on Windows: this workspace file runs on every clone, on macOS and Linux too", s[from:loc[1]])
		case winSep().MatchString(leadingWords(s, 2)):
			loc := winSep().FindStringSubmatchIndex(leadingWords(s, 2))
			from, _ := at(loc, 2)
			w := pathWord(s, from)
			r.report(f, f.strSpan(h.Command, from, from+len(w)), strings.ReplaceAll(w, `\`, "/"), "%s uses Windows path separators, which /bin/sh reads as escapes: write %s", w, strings.ReplaceAll(w, `\`, "/"))
		case homePath().MatchString(s):
			loc := homePath().FindStringSubmatchIndex(s)
			from, to := at(loc, 2)
			w := pathWord(s, from)
			r.report(f, f.strSpan(h.Command, from, from+len(w)), "",
				"%s is an absolute path into %s, which exists only on one machine: this workspace file runs on every clone; write the path relative to %s, where handlers run", w, s[from:to], f.dirName())
		}
	}
}

func windowsProgramMessage(word string) string {
	switch {
	case strings.HasPrefix(word, "pwsh"):
		return "pwsh needs PowerShell, which macOS and Linux lack unless it is installed: write the hook as a POSIX shell or Python script so that every clone can run it"
	case strings.HasPrefix(word, "py"):
		return "py is the Python launcher for Windows, missing on macOS and Linux: write python3"
	case strings.HasPrefix(word, "cmd"):
		return "cmd runs only on Windows, and handlers run with /bin/sh: write the command for a POSIX shell"
	}
	return "powershell runs only on Windows, and handlers run with /bin/sh: write the hook as a POSIX shell or Python script so that every clone can run it"
}

// pathWord returns the path that starts at from: up to the closing quote
// when the path is quoted, else up to white space or a quote.
func pathWord(s string, from int) string {
	return s[from:pathEnd(s, from)]
}

func pathEnd(s string, from int) int {
	if from > 0 && (s[from-1] == '"' || s[from-1] == '\'') {
		if i := strings.IndexByte(s[from:], s[from-1]); i >= 0 {
			return from + i
		}
	}
	end := from
	for end < len(s) && !strings.ContainsRune(" \t\"';&|)", rune(s[end])) {
		end++
	}
	return end
}

func wordStart(s string, i int) int {
	for i > 0 && !strings.ContainsRune(" \t\"'=(", rune(s[i-1])) {
		i--
	}
	return i
}

// maybePlatformSpecific is a quick look for what the patterns above need,
// so that most commands skip the regular expressions.
func maybePlatformSpecific(s string) bool {
	if strings.ContainsAny(s, "%\\:") || strings.Contains(s, "/home/") || strings.Contains(s, "/Users/") ||
		strings.Contains(s, "/root") || strings.Contains(s, "/workspaces/") || strings.Contains(s, "/mnt/") {
		return true
	}
	l := strings.ToLower(strings.TrimSpace(s))
	for _, p := range []string{"cmd", "powershell", "pwsh", "py ", "py.exe"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return strings.Contains(l, ".exe") || strings.Contains(l, ".bat") || strings.Contains(l, ".cmd") || strings.Contains(l, ".ps1")
}

// leadingWords returns the start of s up to its first n words: the program
// and the script it runs, where a backslash can only be a path separator
// (further on, inline code holds escapes such as \n).
func leadingWords(s string, n int) string {
	i := 0
	for w := 0; w < n && i < len(s); w++ {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			i++
		}
	}
	return s[:i]
}
