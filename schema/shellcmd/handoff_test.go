package shellcmd

import (
	"strings"
	"testing"
)

// A program handed a command as a string, code of its own language, or
// commands to run later, is named; one that runs its arguments as a
// program is read as a wrapper.
func TestHandsCommand(t *testing.T) {
	for _, tc := range []struct{ src, gap string }{
		{`script -qc "sh ./x.sh" /dev/null`, "script hands a shell the command it is given (-c)"},
		{`flock /tmp/l -c "sh ./x.sh"`, "flock hands a shell the command it is given (-c)"},
		{`flock /tmp/l sh ./x.sh`, ""},
		{`su root -c "sh ./x.sh"`, "su hands a shell the command it is given (-c)"},
		{`sg grp "$ARGS"`, "sg is given an option or command built only when the command runs"},
		{`watch -n1 "sh ./x.sh"`, "watch hands sh -c the command it is given"},
		{`watch -x sh ./x.sh`, ""},
		{`tmux new -d "sh ./x.sh"`, "tmux starts shells and programs"},
		{`expect ./x.exp`, "expect runs Tcl code"},
		{`at now < ./x.sh`, "at runs later the commands it reads"},
		{`parallel sh ::: ./x.sh`, "parallel builds the commands it runs"},
	} {
		_, gaps := Parse(tc.src, "/w/.agents", "/w").Refs()
		var whys []string
		for _, g := range gaps {
			whys = append(whys, g.Why)
		}
		got := strings.Join(whys, "; ")
		if tc.gap == "" && got != "" || !strings.Contains(got, tc.gap) {
			t.Errorf("%s: gaps %q, want %q", tc.src, got, tc.gap)
		}
	}
}
