package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fatih/color"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/hookctl/hookctl/schema"
)

// printerInput is the one input every printer's golden test shares: the
// findings in testdata/printer/hooks.json, plus an info finding.
func printerInput(t *testing.T) *Result {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "printer", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	name := ".agents/hooks.json"
	run := &Run{fs: newFSCache()}
	run.Files = []*File{run.newFile(Target{Path: name, Name: name}, schema.Parse(name, src))}
	run.check([]string{"schema-key", "unknown-event", "foreign-tool", "timeout-value"})
	run.out = append(run.out, Finding{File: name, Span: schema.Span{Start: schema.Pos{Line: 3, Col: 3}, End: schema.Pos{Line: 3, Col: 9}},
		Severity: Info, Rule: "shadowed-hook", Message: "the user's hooks.json also has a hook named \"gate\" (~/.gemini/config/hooks.json:2:3): both run"})
	Sort(run.out)
	return &Result{Findings: run.out, Files: run.Files}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "printer", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./lint -run TestPrinters -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func TestPrinters(t *testing.T) {
	defer func(c bool) { color.NoColor = c }(color.NoColor)
	color.NoColor = true
	res := printerInput(t)
	for _, format := range FormatNames() {
		t.Run(format, func(t *testing.T) {
			p, err := NewPrinter(format)
			if err != nil {
				t.Fatal(err)
			}
			if sp, ok := p.(SARIFPrinter); ok {
				sp.Version = "v1.0.0"
				p = sp
			}
			var b bytes.Buffer
			if err := p.Print(&b, res); err != nil {
				t.Fatal(err)
			}
			golden(t, "out."+format, b.Bytes())
		})
	}
}

func TestTextPrinterColour(t *testing.T) {
	defer func(c bool) { color.NoColor = c }(color.NoColor)
	color.NoColor = false
	var b bytes.Buffer
	if err := (&TextPrinter{}).Print(&b, printerInput(t)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\x1b[31;1merror:") {
		t.Errorf("no red error: with colour on:\n%q", b.String())
	}
}

func TestTextPrinterClean(t *testing.T) {
	var b bytes.Buffer
	if err := (&TextPrinter{}).Print(&b, &Result{Files: []*File{{}, {}}}); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "no problems in 2 files\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSARIFSchema validates the SARIF output against the official SARIF
// 2.1.0 schema, kept in testdata.
func TestSARIFSchema(t *testing.T) {
	var b bytes.Buffer
	if err := (SARIFPrinter{Version: "v1.0.0"}).Print(&b, printerInput(t)); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("the SARIF output is not valid SARIF 2.1.0: %v", err)
	}
	// The fixes are validated with the rest.
	if !bytes.Contains(b.Bytes(), []byte(`"artifactChanges"`)) || !bytes.Contains(b.Bytes(), []byte(`"deletedRegion"`)) {
		t.Error("the SARIF output carries no fix")
	}
	// The schema does reject what is not SARIF.
	bad := bytes.Replace(b.Bytes(), []byte(`"level": "warning"`), []byte(`"level": "fatal"`), 1)
	if badDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(bad)); err != nil || sch.Validate(badDoc) == nil {
		t.Errorf("the schema accepts a result of level \"fatal\" (%v)", err)
	}
	// Every rule is described, whether or not it found anything.
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
			}
		}
	}
	b.Reset()
	if err := (SARIFPrinter{}).Print(&b, printerInput(t)); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) != len(Catalogue()) {
		t.Errorf("%d rules described, want %d", len(rules), len(Catalogue()))
	}
	for _, r := range log.Runs[0].Results {
		if rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result of %s points at rule %d, %s", r.RuleID, r.RuleIndex, rules[r.RuleIndex].ID)
		}
	}
}

func TestGitHubEscaping(t *testing.T) {
	res := &Result{Findings: []Finding{{
		File: "a,b:c%.json", Span: schema.Span{Start: schema.Pos{Line: 2, Col: 3}, End: schema.Pos{Line: 2, Col: 5}},
		Severity: Warning, Rule: "r", Message: "100% sure,\r\nreally: yes",
	}}}
	var b bytes.Buffer
	if err := (GitHubPrinter{}).Print(&b, res); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=a%2Cb%3Ac%25.json,line=2,col=3,endLine=2,endColumn=5,title=r::100%25 sure,%0D%0Areally: yes\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// TestTextPrinterCountsTheFilesLinted: the closing count says how many of
// the files linted have findings.
func TestTextPrinterCountsTheFilesLinted(t *testing.T) {
	finding := func(file string) Finding {
		return Finding{File: file, Severity: Warning, Rule: "empty-hook", Message: "m"}
	}
	for _, c := range []struct {
		files    []string
		findings []Finding
		want     string
	}{
		{[]string{"a.json", "b.json"}, []Finding{finding("a.json")}, "1 problem (1 warning) in 1 of 2 files\n"},
		{[]string{"a.json", "b.json"}, []Finding{finding("a.json"), finding("b.json")}, "2 problems (2 warnings) in 2 files\n"},
		{[]string{"a.json"}, []Finding{finding("a.json")}, "1 problem (1 warning) in 1 file\n"},
		// A misplaced file is reported though it is not among the files linted.
		{[]string{"a.json"}, []Finding{finding(".agent/hooks.json")}, "1 problem (1 warning) in 1 of 2 files\n"},
	} {
		r := &Result{Findings: c.findings}
		for _, name := range c.files {
			r.Files = append(r.Files, &File{Name: name})
		}
		var b bytes.Buffer
		if err := (&TextPrinter{NoSource: true}).Print(&b, r); err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(b.String(), "\n")
		if got := lines[len(lines)-2]; got != c.want {
			t.Errorf("files %v: closing count %q, want %q", c.files, got, c.want)
		}
	}
}
