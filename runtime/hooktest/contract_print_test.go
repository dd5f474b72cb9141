package hooktest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// printedReport is a report as Contract makes it, with fixed durations.
func printedReport() *ContractReport {
	src := &runtime.Source{Path: "/w/.agents/hooks.json", Dir: "/w/.agents"}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	noDecision := Failed{CheckNoDecision, "answered {} without a decision"}
	gate := &HandlerReport{Hook: "gate", Source: src, Pos: schema.Pos{Line: 4, Col: 48}, Event: schema.PreToolUse, Matcher: "view_file|list_dir|grep_search",
		Handler: &schema.Handler{Command: "./gate.sh", Timeout: 5},
		Calls: []*CallReport{
			{Event: schema.PreToolUse, Tool: "view_file", Args: json.RawMessage(`{"AbsolutePath":"/w/README.md"}`), Duration: ms(12), Stdout: []byte("{}\n"), Failures: []Failed{noDecision}},
			{Event: schema.PreToolUse, Tool: "list_dir", Args: json.RawMessage(`{"DirectoryPath":"/w"}`), Duration: ms(640), Stdout: []byte("{}\n"),
				Failures: []Failed{noDecision, {CheckBudget, "took 640ms, over the budget of 500ms per call"}}},
			{Event: schema.PreToolUse, Tool: "grep_search", Args: json.RawMessage(`{"SearchPath":"/w","Query":"TODO"}`), Duration: ms(700), Stdout: []byte("{}\n"),
				Failures: []Failed{noDecision, {CheckBudget, "took 700ms, over the budget of 500ms per call"}}},
		}}
	hang := &HandlerReport{Hook: "hang\x1b[2J", Source: src, Pos: schema.Pos{Line: 9, Col: 20}, Event: schema.PostToolUse,
		Handler: &schema.Handler{Command: "sleep 99", Timeout: 1},
		Calls: []*CallReport{
			{Event: schema.PostToolUse, Tool: "run_command", Args: json.RawMessage(`{"CommandLine":"npm test"}`), Duration: ms(1204), Ending: runtime.TimedOut, ExitCode: -1,
				Failures: []Failed{{CheckTimeout, "still running at its timeout of 1s"}}},
			{Event: schema.PostToolUse, Tool: "view_file", Skipped: "not sent: an earlier call timed out"},
		}}
	remind := &HandlerReport{Hook: "remind", Source: src, Pos: schema.Pos{Line: 12, Col: 24}, Event: schema.PreInvocation,
		Handler: &schema.Handler{Command: "./remind.sh"},
		Calls:   []*CallReport{{Event: schema.PreInvocation, Duration: ms(3), Answer: json.RawMessage(`{"injectSteps":[{"ephemeralMessage":"lint"}]}`)}}}
	off := &HandlerReport{Hook: "off", Source: src, Pos: schema.Pos{Line: 15, Col: 14}, Event: schema.Stop,
		Handler: &schema.Handler{Command: "true"}, Skipped: `disabled ("enabled": false)`, Calls: []*CallReport{{Event: schema.Stop}}}
	return &ContractReport{Workspace: "/w", Budget: 500 * time.Millisecond, Handlers: []*HandlerReport{gate, hang, remind, off}}
}

// TestContractPrinter checks the text report: aligned columns, one group
// per failure shared by several calls (the budget by its slowest call),
// hostile names escaped, and the count.
func TestContractPrinter(t *testing.T) {
	r := printedReport()
	var b bytes.Buffer
	p := &ContractPrinter{W: &b, Dir: "/w"}
	for _, h := range r.Handlers {
		if err := p.Handler(r, h); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Summary(r); err != nil {
		t.Fatal(err)
	}
	want := `FAIL gate           .agents/hooks.json:4:48   PreToolUse     3 calls  slowest 700ms, p50 640ms
    answered {} without a decision [no-decision]
      on view_file {"AbsolutePath":"/w/README.md"} and 2 other calls
    took 700ms, over the budget of 500ms per call [budget]
      on grep_search {"SearchPath":"/w", ...} and 1 other call
FAIL "hang\x1b[2J"  .agents/hooks.json:9:20   PostToolUse    2 calls  slowest 1.2s, p50 1.2s
    still running at its timeout of 1s [timeout]
      on run_command {"CommandLine":"npm test"}
    1 other call not sent after the timeout
ok   remind         .agents/hooks.json:12:24  PreInvocation  1 call   slowest 3ms, p50 3ms
skip off            .agents/hooks.json:15:14  Stop           disabled ("enabled": false)
1 passed, 2 failed, 1 not checked
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestContractJSON checks the machine-readable form of each handler.
func TestContractJSON(t *testing.T) {
	r := printedReport()
	var out []ContractJSON
	for _, h := range r.Handlers {
		out = append(out, h.JSON())
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	gate := got[0]
	if gate["hook"] != "gate" || gate["file"] != "/w/.agents/hooks.json" || gate["line"] != 4.0 || gate["column"] != 48.0 ||
		gate["event"] != "PreToolUse" || gate["matcher"] != "view_file|list_dir|grep_search" || gate["command"] != "./gate.sh" ||
		gate["timeout"] != 5.0 || gate["status"] != "fail" || gate["p50Ms"] != 640.0 || gate["maxMs"] != 700.0 {
		t.Errorf("gate: %v", gate)
	}
	calls := gate["calls"].([]any)
	first := calls[0].(map[string]any)
	if first["tool"] != "view_file" || first["status"] != "fail" || first["durationMs"] != 12.0 || first["stdout"] != "{}\n" ||
		first["answer"] != nil || first["args"].(map[string]any)["AbsolutePath"] != "/w/README.md" {
		t.Errorf("first call: %v", first)
	}
	fs := first["failures"].([]any)
	if len(fs) != 1 || fs[0].(map[string]any)["check"] != "no-decision" {
		t.Errorf("failures: %v", fs)
	}
	skipped := got[1]["calls"].([]any)[1].(map[string]any)
	if skipped["status"] != "skip" || skipped["skipped"] != "not sent: an earlier call timed out" || skipped["exitCode"] != -1.0 {
		t.Errorf("skipped call: %v", skipped)
	}
	remind := got[2]
	if _, ok := remind["matcher"]; ok {
		t.Errorf("a PreInvocation handler has a matcher: %v", remind)
	}
	call := remind["calls"].([]any)[0].(map[string]any)
	if _, ok := call["tool"]; ok || call["status"] != "pass" || call["stdout"] != nil || len(call["failures"].([]any)) != 0 {
		t.Errorf("remind's call: %v", call)
	}
	if steps := call["answer"].(map[string]any)["injectSteps"].([]any); len(steps) != 1 {
		t.Errorf("remind's answer: %v", call["answer"])
	}
	if off := got[3]; off["status"] != "skip" || off["skipped"] != `disabled ("enabled": false)` || len(off["calls"].([]any)) != 0 {
		t.Errorf("off: %v", off)
	}
}

// TestCheckAnswer holds the answers of an exit 0 to the contract.
func TestCheckAnswer(t *testing.T) {
	for _, c := range []struct {
		event  schema.Event
		stdout string
		check  Check
		msg    string
	}{
		{schema.PreToolUse, "", "", ""},
		{schema.PreToolUse, " \n\t", "", ""},
		{schema.PreToolUse, `{"decision":"allow","overwrite":{"CommandLine":"npm test -- --ci"}}`, "", ""},
		{schema.PostToolUse, "{}", "", ""},
		{schema.PostToolUse, `{"status":"ok"}`, CheckUnknownKey, `answered with the unknown key "status": a PostToolUse answer holds no key (it is {}), and the agent aborts the invocation on any other`},
		{schema.PreInvocation, `{"injectSteps":[{"toolCall":{"name":"view_file","args":{"AbsolutePath":"/w/a"},"id":1}}],"Extra":1}`, CheckUnknownKey,
			`answered with the unknown keys "injectSteps[0].toolCall.id", "Extra": a PreInvocation answer holds only "injectSteps", and the agent aborts the invocation on any other`},
		// A key in another case is the key to the agent's Go decoder
		// (encoding/json folds case, Unicode's simple folding included),
		// and unknown to every exact reader: its own check, not an abort
		// and not a missing decision.
		{schema.Stop, `{"Decision":"allow"}`, CheckKeyCase, `answered with "Decision" for "decision": the agent takes a key written in another case for the key (its Go decoder matches keys ignoring case), but hookctl run, test cases and decoders that read keys exactly take it for an unknown one: write the key as documented`},
		{schema.PreToolUse, "{\"DECISION\":\"deny\",\"reaſon\":\"no\"}", CheckKeyCase, `answered with "DECISION" for "decision", "reaſon" for "reason": the agent takes a key written in another case for the key (its Go decoder matches keys ignoring case), but hookctl run, test cases and decoders that read keys exactly take it for an unknown one: write the key as documented`},
		{schema.PreInvocation, `{"injectSteps":[{"EphemeralMessage":"lint"}]}`, CheckKeyCase, `answered with "injectSteps[0].EphemeralMessage" for "injectSteps[0].ephemeralMessage": the agent takes a key written in another case for the key (its Go decoder matches keys ignoring case), but hookctl run, test cases and decoders that read keys exactly take it for an unknown one: write the key as documented`},
		// A key that folds onto none is unknown to the agent too.
		{schema.PreToolUse, `{"decision":"allow","de_cision":"deny"}`, CheckUnknownKey, `answered with the unknown key "de_cision": a PreToolUse answer holds "decision", "reason", "permissionOverrides" and "overwrite", and the agent aborts the invocation on any other`},
		{schema.PreToolUse, "\x1b[31mdeny\x1b[0m", CheckNotJSON, `printed text, not a JSON answer: "\x1b[31mdeny\x1b[0m" (print logs on stderr, and nothing or one JSON object on stdout)`},
		{schema.PreToolUse, `{"decision":"allow"} trailing`, CheckTextAroundJSON, `printed text around its JSON answer, "trailing" after it: the agent reads all of stdout as the answer and rejects it (print logs on stderr)`},
		{schema.Stop, `"allow"`, CheckNotObject, `printed the string "allow", not a JSON object: an answer is one object, or nothing`},
		{schema.PostInvocation, `{"terminationBehavior":"stop"}`, CheckInvalidAnswer, `printed an answer that is not valid for PostInvocation: "terminationBehavior" must be "force_continue", "terminate" or "", not "stop"`},
	} {
		o := classifyForTest(c.event, c.stdout)
		fs := checkAnswer(c.event, o)
		switch {
		case c.check == "" && len(fs) > 0:
			t.Errorf("%s %q: %+v, want none", c.event, c.stdout, fs)
		case c.check != "" && (len(fs) != 1 || fs[0].Check != c.check || fs[0].Message != c.msg):
			t.Errorf("%s %q:\n got %+v\nwant %s: %s", c.event, c.stdout, fs, c.check, c.msg)
		}
	}
}

// classifyForTest reads stdout as the runtime reads a handler's output
// after exit 0.
func classifyForTest(e schema.Event, stdout string) *runtime.Outcome {
	o := &runtime.Outcome{Stdout: []byte(stdout), Kind: runtime.NoAnswer}
	ans, _, err := runtime.ParseAnswer(e, []byte(stdout))
	switch {
	case err != nil:
		o.Kind, o.Cause = runtime.Failed, err.Error()
	case ans != nil:
		o.Kind, o.Answer = runtime.Answered, ans
	}
	return o
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"gate":           "gate",
		"café gate":      "café gate",
		"a\x1b[2Jb":      `"a\x1b[2Jb"`,
		"rtl\u202egate":  `"rtl\u202egate"`,
		"bad\xffutf8":    `"bad\xffutf8"`,
		"tab\tin a name": `"tab\tin a name"`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %s, want %s", in, got, want)
		}
	}
	if got := excerpt(strings.Repeat("x", 100)); got != `"`+strings.Repeat("x", 57)+`..."` {
		t.Errorf("excerpt of 100 x: %s", got)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                       "0ms",
		12 * time.Millisecond:   "12ms",
		999 * time.Millisecond:  "999ms",
		time.Second:             "1s",
		1540 * time.Millisecond: "1.5s",
		59 * time.Second:        "59s",
		150 * time.Second:       "2m30s",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%s) = %s, want %s", d, got, want)
		}
	}
}

// TestKeyCaseFollowsEncodingJSON holds the split between unknown-key and
// key-case to what the agent's decoder does: encoding/json, strict about
// unknown fields, decodes each key-case answer into the event's answer
// type, the key set; it refuses each unknown-key answer.
func TestKeyCaseFollowsEncodingJSON(t *testing.T) {
	for _, c := range []struct {
		event  schema.Event
		stdout string
		check  Check
	}{
		{schema.PreToolUse, `{"Decision":"deny"}`, CheckKeyCase},
		{schema.PreToolUse, `{"decision":"allow","DECISION":"deny","Reason":"no"}`, CheckKeyCase},
		{schema.PreToolUse, "{\"deci\u017fion\":\"deny\"}", CheckKeyCase},
		{schema.Stop, `{"decision":"continue","REASON":"the tests fail"}`, CheckKeyCase},
		{schema.PreInvocation, `{"InjectSteps":[{"ephemeralmessage":"lint"}]}`, CheckKeyCase},
		{schema.PreToolUse, `{"decision":"deny","approve":true}`, CheckUnknownKey},
		{schema.PreToolUse, `{"decision ":"deny"}`, CheckUnknownKey},
		{schema.PreToolUse, `{"de-cision":"deny"}`, CheckUnknownKey},
		{schema.PostToolUse, `{"Status":"ok"}`, CheckUnknownKey},
	} {
		v := schema.OutputType(c.event)
		dec := json.NewDecoder(strings.NewReader(c.stdout))
		dec.DisallowUnknownFields()
		err := dec.Decode(v)
		if agentTakes := err == nil; agentTakes != (c.check == CheckKeyCase) {
			t.Errorf("%s %s: encoding/json says %v, but the check is %s", c.event, c.stdout, err, c.check)
		}
		if fs := checkAnswer(c.event, classifyForTest(c.event, c.stdout)); len(fs) == 0 || fs[0].Check != c.check {
			t.Errorf("%s %s: %+v, want %s", c.event, c.stdout, fs, c.check)
		}
	}
	// The last of two keys that fold together wins, as the agent reads it.
	var out schema.PreToolUseOutput
	if err := json.Unmarshal([]byte(`{"decision":"allow","Decision":"deny"}`), &out); err != nil || out.Decision != "deny" {
		t.Errorf("encoding/json read %+v (%v), want the last key's deny", out, err)
	}
}

// TestContractJSONShape holds the whole of hookctl test --contract
// --format json for a report, byte for byte, to a golden file: the keys,
// their order, what a skipped handler and a skipped call carry. Run with
// -update to rewrite the file on purpose.
func TestContractJSONShape(t *testing.T) {
	var b bytes.Buffer
	if err := printedReport().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "contract", "report.json")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("the JSON report differs from %s (go test -run TestContractJSONShape -update rewrites it):\n%s", golden, b.String())
	}
}
