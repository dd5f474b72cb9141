package shellcmd

import (
	"strings"
	"testing"
)

func TestOutput(t *testing.T) {
	for _, tt := range []struct {
		cmd string
		// want lists the texts printed, "|" between them; alt is bash's
		// text of the first when it differs.
		want  string
		whole bool
		exact bool
		alt   string
	}{
		{cmd: `echo '{}'`, want: "{}\n", whole: true, exact: true},
		{cmd: `echo ok`, want: "ok\n", whole: true, exact: true},
		{cmd: `echo -n '{"decision":"allow"}'`, want: `{"decision":"allow"}`, whole: true},
		{cmd: `printf '{"decision":"maybe"}'`, want: `{"decision":"maybe"}`, whole: true, exact: true},
		{cmd: `printf '%s\n' '{"a":1}'`, want: "{\"a\":1}\n", whole: true},
		{cmd: `printf '{"reason":"%s"}\n' ok`, want: "{\"reason\":\"ok\"}\n", whole: true},
		{cmd: `printf '%d-%d|' 1 2 3`, want: "1-2|3-0|", whole: true},
		{cmd: `printf '\101\t%b' 'x\ny'`, want: "A\tx\ny", whole: true},
		{cmd: `printf '%5s' x`},
		{cmd: `printf '{}' extra`},
		{cmd: `echo "{\"decision\": \"deny\"}"`, want: "{\"decision\": \"deny\"}\n", whole: true},
		{cmd: `echo {"decision":"allow"}`, want: "{decision:allow}\n", whole: true},
		{cmd: `echo '{"reason":"a\nb"}'`, want: "{\"reason\":\"a\nb\"}\n", whole: true, alt: "{\"reason\":\"a\\nb\"}\n"},
		{cmd: `echo -e 'a\tb'`, want: "-e a\tb\n", whole: true, alt: "a\tb\n"},
		{cmd: `echo 'a\cb' c`, want: "a", whole: true, alt: "a\\cb c\n"},
		{cmd: "cat <<'EOF'\n{\"decision\": \"ask\"}\nEOF", want: "{\"decision\": \"ask\"}\n", whole: true, exact: true},
		{cmd: "cat <<EOF\n{\"a\": \"\\$x\"}\nEOF", want: "{\"a\": \"$x\"}\n", whole: true},
		{cmd: "cat <<EOF\n{\"a\": \"$x\"}\nEOF"},
		{cmd: "cat <<-EOF\n\t{}\n\tEOF", want: "{}\n", whole: true},
		{cmd: `cat <<< '{}'`, want: "{}\n", whole: true},
		{cmd: `cat file.json`},
		{cmd: `echo '{}' >&2`, whole: true},
		{cmd: `echo 'checking' >&2; echo '{"decision":"allow"}'`, want: `{"decision":"allow"}` + "\n", whole: true, exact: true},
		{cmd: `echo '{}' | jq .`},
		{cmd: `./check.sh || echo '{"decision":"deny"}'`, want: `{"decision":"deny"}` + "\n", exact: true},
		{cmd: `if [ -f x ]; then echo '{}'; else printf '{"decision":"ask"}'; fi`, want: "{}\n|" + `{"decision":"ask"}`, exact: true},
		{cmd: `echo "$(date)"`},
		{cmd: `echo '{}'; exit 0`, want: "{}\n", whole: true, exact: true},
		{cmd: `echo 'no' >&2; exit 2`},
		{cmd: `true`, whole: true},
		{cmd: `echo "$HOME"`},
	} {
		c := Parse(tt.cmd, "/w/.agents", "")
		o := c.Output()
		var texts []string
		for _, p := range o.Prints {
			texts = append(texts, p.Text)
		}
		if got := strings.Join(texts, "|"); got != tt.want || o.Whole != tt.whole {
			t.Errorf("%s: printed %q whole=%v, want %q whole=%v", tt.cmd, got, o.Whole, tt.want, tt.whole)
			continue
		}
		if len(o.Prints) == 0 {
			continue
		}
		p := o.Prints[0]
		if p.Exact != tt.exact {
			t.Errorf("%s: exact=%v, want %v", tt.cmd, p.Exact, tt.exact)
		}
		if p.Exact && !strings.HasPrefix(p.Text, tt.cmd[p.Base:min(len(tt.cmd), p.Base+len(strings.TrimSuffix(p.Text, "\n")))]) {
			t.Errorf("%s: exact text %q does not stand at %d", tt.cmd, p.Text, p.Base)
		}
		if p.From > p.Base || p.To > len(tt.cmd) || p.From >= p.To {
			t.Errorf("%s: printed words [%d,%d), text from %d", tt.cmd, p.From, p.To, p.Base)
		}
		if p.Differs != (tt.alt != "") || p.Differs && p.Alt != tt.alt {
			t.Errorf("%s: differs=%v alt=%q, want %q", tt.cmd, p.Differs, p.Alt, tt.alt)
		}
	}
}

// FuzzOutput reads what any command prints without failing: the printed
// words stand inside the command, and exact text stands in it as written.
func FuzzOutput(f *testing.F) {
	for _, s := range []string{
		`echo '{}'`, `printf '%s\n' x y`, "cat <<'EOF'\n{}\nEOF", `echo -n -e 'a\0101\c'`, `printf '\1234%b%' 'x\cy'`,
		`a && echo x || printf y; exit 0`, "cat <<-EOF\n\t\\$x\n\tEOF", `if a; then echo b; fi >&2`, `echo "$(x)"`, `cat <<< "$HOOKCTL_WORKSPACE"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		o := Parse(command, "/w/.agents", "/w").Output()
		for _, p := range o.Prints {
			if p.From < 0 || p.From > p.To || p.To > len(command) || p.Base < p.From || p.Base > len(command) {
				t.Fatalf("Output(%q) gave %+v", command, p)
			}
			if p.Exact && !strings.HasPrefix(command[p.Base:], strings.TrimSuffix(p.Text, "\n")) {
				t.Fatalf("Output(%q): exact text %q is not at %d", command, p.Text, p.Base)
			}
		}
	})
}
