package trust

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWriteReview shows each handler's command at its line, each covered
// file with its size and hash or what is missing, what is not covered,
// and a disabled hook as disabled.
func TestWriteReview(t *testing.T) {
	root := workspace(t)
	write(t, root, HooksFile, `{"gate":{"PreToolUse":[{"hooks":[{"command":"./hooks/gate.sh"},{"command":"python3 hooks/later.py"}]}]},
"stop":{"enabled":false,"Stop":[{"command":"/usr/bin/true ../../outside.sh"}]}}`)
	var b bytes.Buffer
	if err := take(t, root).WriteReview(&b); err != nil {
		t.Fatal(err)
	}
	want := `Workspace ROOT
Its hooks run these commands, in ROOT/.agents:
  gate  .agents/hooks.json:1  PreToolUse *  ./hooks/gate.sh
  gate  .agents/hooks.json:1  PreToolUse *  python3 hooks/later.py
  stop  .agents/hooks.json:2  Stop          /usr/bin/true ../../outside.sh (disabled)
Files covered:
  .agents/hooks.json      184 bytes  sha256 69f361e8a12683c8
  .agents/hooks/gate.sh   38 bytes   sha256 2c808d8ce91e65f6
  .agents/hooks/later.py  not there  creating it withdraws the trust
Not covered:
  named outside the workspace, which a clone cannot change: PARENT/outside.sh, /usr/bin/true
`
	got := strings.ReplaceAll(b.String(), root, "ROOT")
	got = strings.ReplaceAll(got, filepath.Dir(root), "PARENT")
	if got != want {
		t.Errorf("review:\n%s\nwant:\n%s", got, want)
	}
}

// TestWriteReviewLookAlikes names a hook and a covered file whose names
// read as others, once each.
func TestWriteReviewLookAlikes(t *testing.T) {
	root := workspace(t)
	write(t, root, HooksFile, `{"gаte":{"PreToolUse":[{"hooks":[{"command":"./hooks/gаte.sh"},{"command":"./hooks/gаte.sh x"}]}]}}`)
	write(t, root, ".agents/hooks/gаte.sh", "#!/bin/sh\n")
	var b bytes.Buffer
	if err := take(t, root).WriteReview(&b); err != nil {
		t.Fatal(err)
	}
	want := `Names that look like others (compare them with the files you expect):
  the hook gаte (.agents/hooks.json:1) mixes the Latin and Cyrillic scripts in one word: U+0430 CYRILLIC SMALL LETTER A (looks like "a"); it reads as gate
  .agents/hooks/gаte.sh mixes the Latin and Cyrillic scripts in one word: U+0430 CYRILLIC SMALL LETTER A (looks like "a"); it reads as .agents/hooks/gate.sh
`
	if _, got, _ := strings.Cut(b.String(), "sha256 a8076d3d28d21e02\n"); got != want {
		t.Errorf("review ends:\n%s\nwant:\n%s", got, want)
	}
}

// TestRefuseUnsafe names the file others can write and the chmod that
// fixes it, and refuses nothing in a safe workspace.
func TestRefuseUnsafe(t *testing.T) {
	root := workspace(t)
	if err := RefuseUnsafe(take(t, root)); err != nil {
		t.Fatalf("safe workspace: %v", err)
	}
	gate := filepath.Join(root, ".agents/hooks/gate.sh")
	os.Chmod(gate, 0o777)
	err := RefuseUnsafe(take(t, root))
	want := "refusing to trust " + root + ": anyone on this machine could change these files after you looked, since group or others can write them (or the folder they are in):\n" +
		"  .agents/hooks/gate.sh (mode 0777)\n" +
		"Run: chmod go-w " + gate
	if err == nil || err.Error() != want {
		t.Errorf("refusal = %v\nwant %s", err, want)
	}
}

// TestWriteList lists the trusted workspaces by path, with when each was
// trusted and whether it still matches, and says when none is.
func TestWriteList(t *testing.T) {
	var b bytes.Buffer
	if err := (&Store{}).WriteList(&b); err != nil || b.String() != "No workspace is trusted.\n" {
		t.Fatalf("empty store: %q, %v", b.String(), err)
	}
	root := workspace(t)
	at := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	gone := filepath.Join(filepath.Dir(root), "000")
	st := &Store{Workspaces: map[string]*Record{root: NewRecord(take(t, root), at), gone: NewRecord(take(t, root), at)}}
	b.Reset()
	if err := st.WriteList(&b); err != nil {
		t.Fatal(err)
	}
	rows := []string{"WORKSPACE", "TRUSTED", "NOW"}
	want := ""
	for _, r := range [][]string{rows, {gone, "2026-12-04T10:00:00Z", "gone: no .agents/hooks.json"}, {root, "2026-12-04T10:00:00Z", "matches"}} {
		want += fmt.Sprintf("%-*s  %-20s  %s\n", len(root), r[0], r[1], r[2])
	}
	if gone > root {
		t.Fatalf("the test expects %s before %s", gone, root)
	}
	if b.String() != want {
		t.Errorf("list:\n%s\nwant:\n%s", b.String(), want)
	}
}
