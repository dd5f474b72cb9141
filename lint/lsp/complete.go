package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// place is what the cursor's containers mean in a hooks.json or a test
// file.
type place int

const (
	placeNone    place = iota
	placeHook          // in a hook definition
	placeGroup         // in a matcher group
	placeHandler       // in a handler
	placeCase          // in a test case
)

// where tells what the innermost object that holds the cursor is, and for
// a group or handler the event it belongs to.
func where(c *cursor, kind fileKind) (place, schema.Event) {
	p := c.path()
	n := len(p)
	if n == 0 || c.stack[n-1].array {
		return placeNone, ""
	}
	if kind == testFile {
		if n == 3 && p[1] == "tests" {
			return placeCase, ""
		}
		return placeNone, ""
	}
	switch n {
	case 2:
		return placeHook, ""
	case 4:
		e := eventNamed(p[2])
		if e == "" {
			return placeNone, ""
		}
		if e.IsTool() {
			return placeGroup, e
		}
		return placeHandler, e
	case 6:
		if e := eventNamed(p[2]); e.IsTool() && p[4] == "hooks" {
			return placeHandler, e
		}
	}
	return placeNone, ""
}

// eventNamed returns the event a key names, seeing through a near miss
// ("PretoolUse") as lint does, or "".
func eventNamed(key string) schema.Event {
	if e := schema.Event(key); e.Valid() {
		return e
	}
	if n := schema.Nearest(key, schema.EventNames()); n != "" {
		return schema.Event(n)
	}
	return ""
}

// testCaseKeys are the keys of a hooks.test.json case, in documentation
// order.
var testCaseKeys = []string{"name", "event", "tool", "args", "payload", "expect", "expectReason", "expectFailures"}

func (s *server) completion(p textDocumentPositionParams) *completionList {
	doc, _, kind := s.snapshot(p.TextDocument.URI)
	list := &completionList{Items: []completionItem{}}
	if doc == nil {
		return list
	}
	list.Items = complete(doc, kind, doc.Offset(p.Position))
	s.mu.Lock()
	plain := !s.markdownItems
	s.mu.Unlock()
	if plain {
		for i := range list.Items {
			if d := list.Items[i].Documentation; d != nil {
				list.Items[i].Documentation = &markupContent{Kind: "plaintext", Value: plainText(d.Value)}
			}
		}
	}
	return list
}

// complete returns the completion items at a byte offset.
func complete(doc *Document, kind fileKind, off int) []completionItem {
	c := scan(doc.Text, off)
	pl, _ := where(&c, kind)
	if c.isKey {
		var keys []string
		var docKind string
		switch pl {
		case placeHook:
			keys, docKind = schema.HookKeys, "hook"
		case placeGroup:
			keys, docKind = schema.GroupKeys, "group"
		case placeHandler:
			keys, docKind = schema.HandlerKeys, "handler"
		case placeCase:
			keys = testCaseKeys
		}
		items := make([]completionItem, 0, len(keys))
		for i, k := range keys {
			it := completionItem{Label: k, Kind: itemKindProperty, SortText: sortKey(i)}
			if e := schema.Event(k); e.Valid() {
				it.Kind = itemKindEvent
				it.Detail = e.Summary()
				it.Documentation = markdown(eventDoc(e))
			} else if docKind != "" {
				it.Documentation = markdown(fieldDoc(docKind, k))
			}
			it.TextEdit = stringEdit(doc, &c, off, k)
			items = append(items, it)
		}
		return items
	}
	switch {
	case pl == placeHook && c.key == "enabled" && !c.inString:
		return literals(doc, off, "true", "false")
	case pl == placeHandler && c.key == "type":
		return []completionItem{{Label: "command", Kind: itemKindEnum, Detail: "the only kind of handler", TextEdit: stringEdit(doc, &c, off, "command")}}
	case pl == placeGroup && c.key == "matcher" && c.inString:
		return toolItems(doc, &c, off, true)
	case pl == placeCase && c.key == "tool" && c.inString:
		return toolItems(doc, &c, off, false)
	case pl == placeCase && c.key == "event":
		items := []completionItem{}
		for i, e := range schema.Events {
			items = append(items, completionItem{Label: string(e), Kind: itemKindEvent, Detail: e.Summary(), Documentation: markdown(eventDoc(e)), SortText: sortKey(i), TextEdit: stringEdit(doc, &c, off, string(e))})
		}
		return items
	case pl == placeHandler && c.key == "command" && c.inString:
		return scriptItems(doc, &c, off)
	}
	return []completionItem{}
}

func sortKey(i int) string { return string(rune('a'+i/26)) + string(rune('a'+i%26)) }

func markdown(s string) *markupContent {
	if s == "" {
		return nil
	}
	return &markupContent{Kind: "markdown", Value: s}
}

// stringEdit is the edit that writes a key or string value: inside a
// string it replaces the string's content, elsewhere it writes the
// quoted text over the word typed so far.
func stringEdit(doc *Document, c *cursor, off int, text string) *TextEdit {
	if c.inString {
		return &TextEdit{Range: doc.Range(c.from+1, max(off, c.to)), NewText: text}
	}
	start := wordStart(doc.Text, off)
	return &TextEdit{Range: doc.Range(start, off), NewText: `"` + text + `"`}
}

// wordStart returns where the word that ends at off starts.
func wordStart(text []byte, off int) int {
	i := off
	for i > 0 && isWordByte(text[i-1]) {
		i--
	}
	return i
}

func literals(doc *Document, off int, words ...string) []completionItem {
	start := wordStart(doc.Text, off)
	var items []completionItem
	for _, w := range words {
		items = append(items, completionItem{Label: w, Kind: itemKindValue, TextEdit: &TextEdit{Range: doc.Range(start, off), NewText: w}})
	}
	return items
}

// toolItems completes a tool name: in a matcher, the alternative under the
// cursor (between | and parentheses); in a test case, the whole value.
func toolItems(doc *Document, c *cursor, off int, matcher bool) []completionItem {
	from, to := c.from+1, max(off, c.to)
	if matcher {
		for i := off - 1; i >= c.from+1; i-- {
			if b := doc.Text[i]; b == '|' || b == '(' {
				from = i + 1
				break
			}
		}
		for i := off; i < c.to; i++ {
			if b := doc.Text[i]; b == '|' || b == ')' {
				to = i
				break
			}
		}
	}
	rng := doc.Range(from, to)
	items := make([]completionItem, 0, len(schema.Tools)+1)
	for i, t := range schema.Tools {
		items = append(items, completionItem{
			Label: t.Name, Kind: itemKindValue, Detail: t.Category + ": " + t.Summary,
			Documentation: markdown(toolDoc(t.Name)), SortText: sortKey(i),
			TextEdit: &TextEdit{Range: rng, NewText: t.Name},
		})
	}
	if matcher {
		items = append(items, completionItem{
			Label: "browser_.*", Kind: itemKindValue, Detail: "every browser tool",
			Documentation: markdown(toolDoc(schema.BrowserPrefix)), SortText: sortKey(len(schema.Tools)),
			TextEdit: &TextEdit{Range: rng, NewText: "browser_.*"},
		})
	}
	return items
}

// Limits of the walk for script paths: a workspace folder can be huge, and
// completion must answer at once.
const (
	maxScriptDepth   = 4
	maxScriptEntries = 2000
	maxScriptItems   = 200
)

// scriptItems completes the word of a command under the cursor with the
// files under the folder that holds the hooks.json, where handlers run,
// written as the command would name them.
func scriptItems(doc *Document, c *cursor, off int) []completionItem {
	items := []completionItem{}
	if doc.Path == "" {
		return items
	}
	from := c.from + 1
	for i := off - 1; i > c.from; i-- {
		if b := doc.Text[i]; b == ' ' || b == '\t' {
			from = i + 1
			break
		}
	}
	to := max(off, c.to)
	for i := off; i < c.to; i++ {
		if b := doc.Text[i]; b == ' ' || b == '\t' {
			to = i
			break
		}
	}
	typed := string(doc.Text[from:off])
	first := strings.TrimSpace(string(doc.Text[c.from+1:from])) == ""
	dot := strings.HasPrefix(typed, "./") || (first && !strings.Contains(typed, "/") && typed == "")
	rng := doc.Range(from, to)
	dir := folder(doc)
	for _, f := range listScripts(dir, doc.Path) {
		name := f.rel
		if dot {
			name = "./" + name
		}
		quoted, ok := shellWord(name)
		if !ok {
			continue
		}
		detail := "not executable: run it through its interpreter"
		if f.exec {
			detail = "executable"
		}
		items = append(items, completionItem{Label: name, Kind: itemKindFile, Detail: detail, TextEdit: &TextEdit{Range: rng, NewText: quoted}})
	}
	return items
}

type scriptFile struct {
	rel  string
	exec bool
}

// listScripts lists the regular files under dir, nearest first, without
// following links into other folders and skipping hidden folders and
// dependency folders.
func listScripts(dir, self string) []scriptFile {
	var out []scriptFile
	seen := 0
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		seen++
		if err != nil || seen > maxScriptEntries || len(out) >= maxScriptItems {
			if e != nil && e.IsDir() && err == nil {
				return fs.SkipDir
			}
			return nil
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil || rel == "." {
			return nil
		}
		if e.IsDir() {
			name := e.Name()
			if strings.HasPrefix(name, ".") || name == "node_modules" || name == "__pycache__" || strings.Count(rel, string(filepath.Separator)) >= maxScriptDepth {
				return fs.SkipDir
			}
			return nil
		}
		if p == self || !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		out = append(out, scriptFile{rel: filepath.ToSlash(rel), exec: info.Mode()&0o111 != 0})
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		return strings.Count(out[i].rel, "/") < strings.Count(out[j].rel, "/")
	})
	return out
}

// shellWord writes a path as one word of a shell command inside a JSON
// string: as it is when it holds no special character, else in single
// quotes. A name that JSON or the shell cannot carry plainly is refused.
func shellWord(s string) (string, bool) {
	if strings.ContainsAny(s, "'\"\\\n\r\t") {
		return "", false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return "", false
		}
	}
	if strings.ContainsAny(s, " $`&|;<>()*?[]{}~#!=%") {
		return "'" + s + "'", true
	}
	return s, true
}
