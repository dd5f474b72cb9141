package runtime

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// answered is the outcome of a handler of hook that printed out.
func answered(t *testing.T, e schema.Event, hook, out string) *Outcome {
	t.Helper()
	a, notes, err := parseAnswer(e, []byte(out))
	if err != nil || a == nil {
		t.Fatalf("parseAnswer(%s, %s) = %v, %v", e, out, a, err)
	}
	return &Outcome{Hook: hook, Kind: Answered, ans: a, Answer: encodeAnswer(e, a), Notes: notes}
}

func blocked(hook, reason string) *Outcome {
	return &Outcome{Hook: hook, Kind: Blocked, Reason: reason, ExitCode: 2}
}

func failed(hook, cause string) *Outcome {
	return &Outcome{Hook: hook, Kind: Failed, Cause: cause, ExitCode: 1}
}

func silent(hook string) *Outcome { return &Outcome{Hook: hook, Kind: NoAnswer} }

func TestMergePreToolUse(t *testing.T) {
	pre := schema.PreToolUse
	tests := []struct {
		name  string
		outs  func(t *testing.T) []*Outcome
		on    OnError
		want  string
		notes []string
	}{
		{"nobody answers: ask keeps the user's own settings", func(t *testing.T) []*Outcome {
			return []*Outcome{silent("a"), silent("b")}
		}, OnErrorDeny, `{"decision":"ask"}`, nil},
		{"no handlers at all", func(t *testing.T) []*Outcome { return nil }, OnErrorDeny, `{"decision":"ask"}`, nil},
		{"deny beats deny_unless_prior_grant", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"deny_unless_prior_grant","reason":"grant"}`),
				answered(t, pre, "b", `{"decision":"deny","reason":"no"}`),
			}
		}, OnErrorDeny, `{"decision":"deny","reason":"no"}`, nil},
		{"deny_unless_prior_grant beats force_ask", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"force_ask","reason":"fa"}`),
				answered(t, pre, "b", `{"decision":"deny_unless_prior_grant","reason":"g"}`),
			}
		}, OnErrorDeny, `{"decision":"deny_unless_prior_grant","reason":"g"}`, nil},
		{"force_ask beats ask", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"ask","reason":"q"}`),
				answered(t, pre, "b", `{"decision":"force_ask","reason":"fa"}`),
			}
		}, OnErrorDeny, `{"decision":"force_ask","reason":"fa"}`, nil},
		{"ask beats allow", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"allow","reason":"fine"}`),
				answered(t, pre, "b", `{"decision":"ask","reason":"q"}`),
			}
		}, OnErrorDeny, `{"decision":"ask","reason":"q"}`, nil},
		{"reasons of the winners join in config order", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"deny","reason":"first"}`),
				answered(t, pre, "b", `{"decision":"allow","reason":"loser"}`),
				answered(t, pre, "c", `{"decision":"deny"}`),
				answered(t, pre, "d", `{"decision":"deny","reason":"third"}`),
			}
		}, OnErrorDeny, `{"decision":"deny","reason":"first\nthird"}`, nil},
		{"permission overrides: union of the winners in config order", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"allow","permissionOverrides":["command(npm test)","read_file(/x)"]}`),
				answered(t, pre, "b", `{"decision":"ask","permissionOverrides":["command(ls)"]}`),
				answered(t, pre, "c", `{"decision":"allow","permissionOverrides":["read_file(/x)","read_file(/y)"]}`),
			}
		}, OnErrorDeny, `{"decision":"ask","permissionOverrides":["command(ls)"]}`, nil},
		{"permission overrides of equal winners", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"allow","permissionOverrides":["command(npm test)","read_file(/x)"]}`),
				answered(t, pre, "c", `{"decision":"allow","permissionOverrides":["read_file(/x)","read_file(/y)"]}`),
			}
		}, OnErrorDeny, `{"decision":"allow","permissionOverrides":["command(npm test)","read_file(/x)","read_file(/y)"]}`, nil},
		{"overrides and overwrite dropped on deny", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"deny","reason":"r","permissionOverrides":["x"],"overwrite":{"Cwd":"/"}}`),
			}
		}, OnErrorDeny, `{"decision":"deny","reason":"r"}`, nil},
		{"overwrite merged in config order, the later key replacing with a note", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"allow","overwrite":{"CommandLine":"npm test -- --ci","Cwd":"/a"}}`),
				answered(t, pre, "b", `{"decision":"allow","overwrite":{"WaitMsBeforeAsync":1, "CommandLine":"npm run test"}}`),
				answered(t, pre, "c", `{"decision":"ask","overwrite":{"Cwd":"/ignored"}}`),
			}
		}, OnErrorDeny, `{"decision":"ask","overwrite":{"Cwd":"/ignored"}}`, nil},
		{"overwrite of equal winners", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"decision":"allow","overwrite":{"CommandLine":"npm test -- --ci","Cwd":"/a"}}`),
				answered(t, pre, "b", `{"decision":"allow","overwrite":{"WaitMsBeforeAsync":1, "CommandLine":"npm run test"}}`),
			}
		}, OnErrorDeny, `{"decision":"allow","overwrite":{"CommandLine":"npm run test","Cwd":"/a","WaitMsBeforeAsync":1}}`,
			[]string{`hook b: its overwrite of "CommandLine" replaces the one from hook a`}},
		{"exit 2 is a deny with its stderr as reason", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, pre, "a", `{"decision":"allow"}`), blocked("b", "rm -rf is not allowed")}
		}, OnErrorDeny, `{"decision":"deny","reason":"rm -rf is not allowed"}`, nil},
		{"a failure denies by default, naming the hook and the cause", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, pre, "a", `{"decision":"allow"}`), failed("b", "exit status 1")}
		}, OnErrorDeny, `{"decision":"deny","reason":"hook b failed: exit status 1"}`, nil},
		{"--on-error ask turns a failure into force_ask", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, pre, "a", `{"decision":"allow"}`), failed("b", "timed out after 1s")}
		}, OnErrorAsk, `{"decision":"force_ask","reason":"hook b failed: timed out after 1s"}`, nil},
		{"--on-error ask does not loosen a deny", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, pre, "a", `{"decision":"deny"}`), failed("b", "x")}
		}, OnErrorAsk, `{"decision":"deny"}`, nil},
		{"--on-error ignore adds nothing", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, pre, "a", `{"decision":"allow"}`), failed("b", "x")}
		}, OnErrorIgnore, `{"decision":"allow"}`, nil},
		{"--on-error ignore with only failures: nobody answered", func(t *testing.T) []*Outcome {
			return []*Outcome{failed("b", "x")}
		}, OnErrorIgnore, `{"decision":"ask"}`, nil},
		{"not run under sequential dispatch adds nothing", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, pre, "a", `{"decision":"allow"}`), {Hook: "b", Kind: Skipped}}
		}, OnErrorDeny, `{"decision":"allow"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes := Merge(pre, tt.outs(t), MergeOptions{OnError: tt.on})
			if string(got) != tt.want {
				t.Errorf("answer\n got %s\nwant %s", got, tt.want)
			}
			if strings.Join(notes, "\n") != strings.Join(tt.notes, "\n") {
				t.Errorf("notes\n got %q\nwant %q", notes, tt.notes)
			}
		})
	}
}

func TestMergeOrderIsConfigOrderNotFinishOrder(t *testing.T) {
	// Outcomes come in config order whatever order the handlers finished
	// in; the merge must not depend on anything else.
	pre := schema.PreToolUse
	a := answered(t, pre, "a", `{"decision":"deny","reason":"a"}`)
	b := answered(t, pre, "b", `{"decision":"deny","reason":"b"}`)
	a.Duration, b.Duration = 5, 1
	got, _ := Merge(pre, []*Outcome{a, b}, MergeOptions{})
	if want := `{"decision":"deny","reason":"a\nb"}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestMergePostToolUse(t *testing.T) {
	e := schema.PostToolUse
	got, notes := Merge(e, []*Outcome{answered(t, e, "a", `{}`), failed("b", "x"), blocked("c", "r")}, MergeOptions{})
	if string(got) != `{}` || notes != nil {
		t.Errorf("got %s %q, want {}", got, notes)
	}
}

func TestMergeInvocation(t *testing.T) {
	pre, post := schema.PreInvocation, schema.PostInvocation
	tests := []struct {
		name string
		e    schema.Event
		outs func(t *testing.T) []*Outcome
		want string
	}{
		{"nothing", pre, func(t *testing.T) []*Outcome { return []*Outcome{silent("a")} }, `{}`},
		{"steps concatenated in config order", pre, func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, pre, "a", `{"injectSteps":[{"ephemeralMessage":"lint"},{"userMessage":"u"}]}`),
				failed("x", "boom"),
				answered(t, pre, "b", `{"injectSteps":[{"toolCall":{"name":"view_file","args":{"AbsolutePath":"/a"}}}]}`),
			}
		}, `{"injectSteps":[{"ephemeralMessage":"lint"},{"userMessage":"u"},{"toolCall":{"name":"view_file","args":{"AbsolutePath":"/a"}}}]}`},
		{"empty fields left out", post, func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, post, "a", `{"injectSteps":[],"terminationBehavior":""}`)}
		}, `{}`},
		{"terminate beats force_continue", post, func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, post, "a", `{"terminationBehavior":"force_continue"}`),
				answered(t, post, "b", `{"terminationBehavior":"terminate"}`),
				answered(t, post, "c", `{"terminationBehavior":""}`),
			}
		}, `{"terminationBehavior":"terminate"}`},
		{"force_continue beats the default", post, func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, post, "a", `{"injectSteps":[{"ephemeralMessage":"m"}]}`),
				answered(t, post, "b", `{"terminationBehavior":"force_continue"}`),
			}
		}, `{"injectSteps":[{"ephemeralMessage":"m"}],"terminationBehavior":"force_continue"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := Merge(tt.e, tt.outs(t), MergeOptions{})
			if string(got) != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestMergeStop(t *testing.T) {
	stop := schema.Stop
	tests := []struct {
		name  string
		outs  func(t *testing.T) []*Outcome
		exec  int
		max   int
		want  string
		notes int
	}{
		{"nobody continues", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, stop, "a", `{"decision":"allow","reason":"done"}`), silent("b"), failed("c", "x")}
		}, 1, 8, `{"decision":"allow"}`, 0},
		{"any value but continue allows", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, stop, "a", `{"decision":"stop"}`)}
		}, 1, 8, `{"decision":"allow"}`, 0},
		{"one continue wins, reasons joined", func(t *testing.T) []*Outcome {
			return []*Outcome{
				answered(t, stop, "a", `{"decision":"continue","reason":"tests fail"}`),
				answered(t, stop, "b", `{"decision":"allow","reason":"no"}`),
				blocked("c", "lint fails"),
			}
		}, 1, 8, `{"decision":"continue","reason":"tests fail\nlint fails"}`, 0},
		{"continue without a reason", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, stop, "a", `{"decision":"continue"}`)}
		}, 1, 8, `{"decision":"continue"}`, 0},
		{"at the guard still continues", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, stop, "a", `{"decision":"continue","reason":"r"}`)}
		}, 8, 8, `{"decision":"continue","reason":"r"}`, 0},
		{"past the guard the continue is refused", func(t *testing.T) []*Outcome {
			return []*Outcome{answered(t, stop, "a", `{"decision":"continue","reason":"r"}`)}
		}, 9, 8, `{"decision":"allow"}`, 1},
		{"a guard of 0 refuses every continue", func(t *testing.T) []*Outcome {
			return []*Outcome{blocked("a", "r")}
		}, 1, 0, `{"decision":"allow"}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes := Merge(stop, tt.outs(t), MergeOptions{ExecutionNum: tt.exec, MaxContinues: tt.max})
			if string(got) != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
			if len(notes) != tt.notes {
				t.Errorf("notes %q, want %d", notes, tt.notes)
			}
			if tt.notes > 0 && !strings.Contains(notes[0], "loop guard") {
				t.Errorf("note %q does not name the loop guard", notes[0])
			}
		})
	}
}

func TestMergeAcceptsOutcomesBuiltOutside(t *testing.T) {
	// A caller that builds outcomes from JSON alone (no parsed answer).
	o := &Outcome{Hook: "a", Kind: Answered, Answer: []byte(`{"decision":"force_ask","reason":"r"}`)}
	got, _ := Merge(schema.PreToolUse, []*Outcome{o}, MergeOptions{})
	if string(got) != `{"decision":"force_ask","reason":"r"}` {
		t.Errorf("got %s", got)
	}
}
