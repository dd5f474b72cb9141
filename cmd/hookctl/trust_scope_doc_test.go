package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestTrustSaysWhatItProtects: the README's first screen, hookctl trust
// --help and docs/trust.md each say that hookctl's trust guards hookctl
// run and run --from, and that the agent's own loading of
// .agents/hooks.json follows the agent's folder trust instead.
func TestTrustSaysWhatItProtects(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// A first screen: the lines a terminal or a repository page shows
	// before any scrolling.
	lines := strings.SplitN(string(readme), "\n", 25)
	firstScreen := strings.Join(lines[:min(len(lines), 24)], "\n")
	doc, err := os.ReadFile("../../docs/trust.md")
	if err != nil {
		t.Fatal(err)
	}
	docTop, _, _ := strings.Cut(string(doc), "\n## ")
	var help, errOut bytes.Buffer
	if code := run([]string{"hookctl", "trust", "--help"}, streams{strings.NewReader(""), &help, &errOut}); code != 0 {
		t.Fatalf("trust --help: exit %d: %s", code, errOut.String())
	}
	for name, text := range map[string]string{"the README's first screen": firstScreen, "docs/trust.md's opening": docTop, "hookctl trust --help": help.String()} {
		flat := strings.Join(strings.Fields(text), " ")
		for _, want := range []string{"hookctl run", "run --from", "hookctl export", "~/.gemini/trustedFolders.json", "without hookctl"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%s does not say %q: what hookctl's trust guards, and that the agent's own loading is its folder trust's", name, want)
			}
		}
	}
	if strings.Contains(string(readme), "the moment the agent\ncalls `run`") {
		t.Error("the README still says a cloned repository's hooks run the moment the agent calls run")
	}
}
