package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInventory lists a file as list shows it: each handler, a hook with
// none, each invalid part with what the agent makes of it, in file
// order; and, on every entry of a file the agent drops, why.
func TestInventory(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"loaded": {`{
  "gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./gate.sh", "timeout": 5}]}]},
  "empty": {},
  "late": {"Stop": [{"command": "./stop.sh"}], "Sometime": []}
}`, `2:64 gate PreToolUse run_command ./gate.sh 5s   
3:3 empty    0s   no handlers
4:21 late Stop  ./stop.sh 30s   
4:48 late    0s unknown-event ignored 
`},
		"dropped": {`{
  "gate": {"Stop": [{"command": "./stop.sh"}]},
  "b": ["x"]
}`, `2:21 gate Stop  ./stop.sh 30s   3:8: the agent's decoder cannot read an array as a hook definition, which must be an object of events
3:8 b    0s root-shape file-dropped 3:8: the agent's decoder cannot read an array as a hook definition, which must be an object of events
`},
	} {
		path := filepath.Join(t.TempDir(), "hooks.json")
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		srcs, err := Discover([]string{path}, "", "")
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, e := range Inventory(srcs[0]) {
			m := ""
			if e.Matcher != nil {
				m = *e.Matcher
			}
			if e.Source != srcs[0] {
				t.Errorf("%s: an entry of another file", name)
			}
			fmt.Fprintf(&b, "%d:%d %s %s %s %s %ds %s %s %s%s\n", e.Line, e.Column, e.Hook, e.Event, m, e.Command, e.Timeout, e.Rule, e.Agent, e.Dropped, e.Why)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", name, b.String(), tc.want)
		}
	}
}
