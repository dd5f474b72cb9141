package trust

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// maxNesting bounds how deep Named follows "sh -c 'sh -c ...'".
const maxNesting = 4

// scriptExts are the extensions of files that an interpreter runs, so a
// word without a folder ("python3 guard.py") still names a file.
var scriptExts = map[string]bool{
	".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".mts": true, ".cts": true,
	".sh": true, ".bash": true, ".zsh": true, ".rb": true, ".pl": true, ".php": true,
	".lua": true, ".R": true, ".jsx": true, ".tsx": true, ".jar": true,
}

// shells run the code given with -c, which Named reads as well.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true}

// Named returns the files a handler's command names, as absolute paths
// resolved the way the handler runs: relative paths against dir, the folder
// that holds the hooks.json. It reads the command as the shell does (with
// mvdan.cc/sh, the parser behind shfmt), so every simple command of a
// pipeline or list counts, and so does the code of "sh -c '...'". A word
// names a file when it is a path ("./x.sh", "hooks/x.py", "/opt/x") or a
// script by its extension ("guard.py"); $HOOKCTL_WORKSPACE, which every
// handler receives, is expanded to workspace. Words the shell would expand
// otherwise (other variables, globs, ~) cannot be known before the handler
// runs and name nothing here. Redirections name the handler's output, not
// code it runs, and are left out. The result is sorted and holds no
// duplicates; a command that does not parse names nothing.
func Named(command, dir, workspace string) []string {
	seen := map[string]bool{}
	var out []string
	named(command, dir, workspace, 0, func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	})
	slices.Sort(out)
	return out
}

// plainSpecial are the characters that make a command more than words
// separated by blanks; without them the shell splits it at blanks, and the
// parser is not needed.
const plainSpecial = "\"'`$\\|&;<>(){}[]*?~#!=\n\r%"

// parsers are reused: making one costs more than parsing a command.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

func named(command, dir, workspace string, depth int, add func(string)) {
	if depth > maxNesting {
		return
	}
	if !strings.ContainsAny(command, plainSpecial) {
		for _, w := range strings.Fields(command) {
			addWord(w, dir, add)
		}
		return
	}
	parser := parsers.Get().(*syntax.Parser)
	f, err := parser.Parse(strings.NewReader(command), "")
	parsers.Put(parser)
	if err != nil {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		var words []string
		for _, w := range call.Args {
			s, ok := literal(w, workspace)
			if !ok {
				s = "" // keeps positions: "sh -c" is judged by word
			}
			words = append(words, s)
		}
		for i, w := range words {
			if w == "" || strings.HasPrefix(w, "-") || strings.ContainsRune(w, '=') && i > 0 && !strings.Contains(w, "/") {
				continue
			}
			if i > 0 && words[i-1] == "-c" && len(words) > 0 && shells[path.Base(words[0])] {
				named(w, dir, workspace, depth+1, add)
				continue
			}
			addWord(w, dir, add)
		}
		return true // command substitutions inside words are calls too
	})
}

// addWord adds the file a word names, if it names one.
func addWord(w, dir string, add func(string)) {
	if strings.HasPrefix(w, "-") || !strings.Contains(w, "/") && !scriptExts[path.Ext(w)] || strings.ContainsRune(w, 0) {
		return
	}
	if !filepath.IsAbs(w) {
		w = filepath.Join(dir, w)
	}
	add(filepath.Clean(w))
}

// literal returns the value of a word the shell leaves as written: plain
// text, quotes, and $HOOKCTL_WORKSPACE, which is known before the handler
// runs.
func literal(w *syntax.Word, workspace string) (string, bool) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if strings.ContainsAny(v, "*?[") || (i == 0 && strings.HasPrefix(v, "~")) {
				return "", false
			}
			if strings.Contains(v, `\`) {
				v = unescape(v)
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					if strings.Contains(q.Value, `\`) {
						return "", false
					}
					b.WriteString(q.Value)
				case *syntax.ParamExp:
					if !workspaceVar(q) || workspace == "" {
						return "", false
					}
					b.WriteString(workspace)
				default:
					return "", false
				}
			}
		case *syntax.ParamExp:
			if !workspaceVar(p) || workspace == "" {
				return "", false
			}
			b.WriteString(workspace)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// workspaceVar reports whether p is a plain $HOOKCTL_WORKSPACE or
// ${HOOKCTL_WORKSPACE}.
func workspaceVar(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Param.Value == "HOOKCTL_WORKSPACE" && !p.Excl && !p.Length && !p.Width &&
		p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil && p.Names == 0 && p.NestedParam == nil
}

// unescape drops the backslashes of an unquoted word, as the shell does.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
