package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fatih/color"

	"github.com/hookctl/hookctl/internal/testenv"
)

// docsFile is the rule catalogue: every rule with a bad example and the
// exact output hookctl lint gives for it.
var docsFile = filepath.Join("..", "docs", "rules.md")

// docExample is one rule's example in docs/rules.md.
type docExample struct {
	rule  string
	files map[string]caseFile
	// args are the arguments of the "$ hookctl lint" line.
	args []string
	// output is what the console block says hookctl prints; outStart and
	// outEnd are the lines of the document it spans.
	output           string
	outStart, outEnd int
}

var (
	ruleHeading = regexp.MustCompile("^## `([a-z-]+)`$")
	fenceInfo   = regexp.MustCompile("^```([a-z]*)(.*)$")
)

// parseDocs reads the examples of docs/rules.md: in each rule's section, a
// json block is .agents/hooks.json, a block whose info says file=PATH
// (mode=NNNN, or link=TARGET for a symbolic link) is another file, and the console block is the command and
// its output.
func parseDocs(t *testing.T, lines []string) []*docExample {
	t.Helper()
	var out []*docExample
	var cur *docExample
	for i := 0; i < len(lines); i++ {
		if m := ruleHeading.FindStringSubmatch(lines[i]); m != nil {
			cur = &docExample{rule: m[1], files: map[string]caseFile{}}
			out = append(out, cur)
			continue
		}
		if strings.HasPrefix(lines[i], "## ") {
			cur = nil
			continue
		}
		m := fenceInfo.FindStringSubmatch(lines[i])
		if cur == nil || m == nil || lines[i] == "```" {
			continue
		}
		lang, info := m[1], strings.Fields(m[2])
		start := i + 1
		for i++; i < len(lines) && lines[i] != "```"; i++ {
		}
		body := strings.Join(lines[start:i], "\n") + "\n"
		if lang == "console" {
			if !strings.HasPrefix(lines[start], "$ hookctl lint") {
				t.Fatalf("rules.md:%d: a console block starts with $ hookctl lint", start+1)
			}
			cur.args = strings.Fields(lines[start])[3:]
			cur.output = strings.Join(lines[start+1:i], "\n") + "\n"
			cur.outStart, cur.outEnd = start+1, i
			continue
		}
		f := caseFile{body: body, mode: 0o644}
		name := ".agents/hooks.json"
		for _, kv := range info {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "file":
				name = v
			case "link":
				f.link = v
			case "mode":
				mode, err := strconv.ParseUint(v, 8, 32)
				if err != nil {
					t.Fatalf("rules.md:%d: %v", start, err)
				}
				f.mode = os.FileMode(mode)
			}
		}
		cur.files[name] = f
	}
	return out
}

// run lints the example in a fresh workspace and home, as hookctl lint
// would, and returns the text output with its folders written as
// shownFolders writes them.
// ShellCheck's findings are its own: the example of its rule runs it, as
// CI has it installed, and the other examples never see it.
func (ex *docExample) run(t *testing.T, shellcheck string) string {
	t.Helper()
	if ex.rule != "shellcheck" {
		shellcheck = ""
	}
	res, home := lintFiles(t, ex.files, ex.args, shellcheck)
	var b bytes.Buffer
	if err := (&TextPrinter{}).Print(&b, res); err != nil {
		t.Fatal(err)
	}
	return shownFolders(b.String(), home)
}

// TestDocs lints every example of docs/rules.md and checks that the output
// shown there is the real output, and that every rule has an example.
func TestDocs(t *testing.T) {
	defer func(c bool) { color.NoColor = c }(color.NoColor)
	color.NoColor = true
	docs, err := filepath.Abs(docsFile) // the examples change the working folder
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(docs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	examples := parseDocs(t, lines)
	documented := map[string]bool{}
	// Replace from the end so that earlier line numbers stay right.
	for i := len(examples) - 1; i >= 0; i-- {
		ex := examples[i]
		documented[ex.rule] = true
		if ex.outStart == 0 {
			t.Errorf("rules.md: %s has no console block", ex.rule)
			continue
		}
		var shellcheck string
		if ex.rule == "shellcheck" {
			if shellcheck = testenv.Want(t, "shellcheck", "the example of the shellcheck rule"); shellcheck == "" {
				continue
			}
		}
		got := ex.run(t, shellcheck)
		if !strings.Contains(got, "["+ex.rule+"]") {
			t.Errorf("rules.md: the example of %s does not show it:\n%s", ex.rule, got)
		}
		if *update {
			repl := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			lines = append(lines[:ex.outStart], append(repl, lines[ex.outEnd:]...)...)
			continue
		}
		if got != ex.output {
			t.Errorf("rules.md: the output of the %s example differs\n--- real\n%s--- documented\n%s", ex.rule, got, ex.output)
		}
	}
	if *update {
		if err := os.WriteFile(docs, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range Catalogue() {
		if !documented[r.ID] {
			t.Errorf("rules.md documents no %s", r.ID)
		}
	}
}
