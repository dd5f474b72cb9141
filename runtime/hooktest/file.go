package hooktest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// DefaultFile is the test file of a workspace, relative to its root.
const DefaultFile = shellcmd.TestFile

// Suite is a hooks.test.json as loaded: its cases, in file order.
type Suite struct {
	// Path is the file as named; Src its content.
	Path string
	Src  []byte
	// Cases are the test cases, in file order.
	Cases []*Case
}

// Case is one test case: an event, the payload sent with it, and what the
// merged answer must hold.
type Case struct {
	// Name is the case's name, unique in its file.
	Name string
	// Event is the event dispatched.
	Event schema.Event
	// Payload is the partial payload as compact JSON, with the tool and args
	// shorthands folded into toolCall; nil when the case gives none. The
	// common fields are filled in when the case runs.
	Payload []byte
	// Expect is the expected subset of the merged answer, nil when the case
	// expects nothing in particular.
	Expect *schema.Node
	// ExpectReason is text the merged answer's reason must contain; it
	// applies when HasExpectReason is set.
	ExpectReason    string
	HasExpectReason bool
	// ExpectFailures names the hooks whose handlers must fail.
	ExpectFailures []string
	// Pos is where the case starts in the file; ReasonPos is where its
	// expectReason stands.
	Pos       schema.Pos
	ReasonPos schema.Pos

	suite *Suite
}

// Where formats a position of the case's file as FILE:LINE:COL.
func (c *Case) Where(p schema.Pos) string {
	return fmt.Sprintf("%s:%d:%d", c.suite.Path, p.Line, p.Col)
}

// File returns the path of the case's test file, as named.
func (c *Case) File() string { return c.suite.Path }

// Problem is a mistake in a test file that keeps it from running.
type Problem struct {
	// Path is the file as named; Pos where the mistake is (the zero Pos for
	// a file that cannot be read).
	Path string
	Pos  schema.Pos
	Msg  string
}

func (p Problem) Error() string {
	if !p.Pos.IsValid() {
		return p.Path + ": " + p.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.Path, p.Pos.Line, p.Pos.Col, p.Msg)
}

// Problems are the mistakes of a test file, in file order.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// ErrNotFound is returned, wrapped, for a test file that does not exist.
var ErrNotFound = errors.New("no such file")

// Load reads and checks the test file at path. Its error is a Problems
// naming every mistake with its line and column, or a Problem for a file
// that cannot be read (wrapping ErrNotFound when it does not exist).
func Load(path string) (*Suite, error) {
	src, err := schema.ReadFile(path, schema.MaxFileSize)
	if ol := (*schema.OutsideLinkError)(nil); errors.As(err, &ol) {
		return nil, Problem{Path: path, Msg: ol.Reason()}
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrNotFound)
		}
		return nil, Problem{Path: path, Msg: "cannot be read: " + err.Error()}
	}
	s, ps := Parse(path, src)
	if len(ps) > 0 {
		return nil, ps
	}
	return s, nil
}

// caseKeys are the keys a case may hold, in documentation order.
var caseKeys = []string{"name", "event", "tool", "args", "payload", "expect", "expectReason", "expectFailures"}

// Parse checks src as the test file at path and returns its cases, or
// every mistake that keeps it from running: not JSON, a key repeated, an
// unknown key or event (with the nearest right one), a name given twice, a
// tool on an event that has none, an expectation that no answer of the
// event can meet.
func Parse(path string, src []byte) (*Suite, Problems) {
	s := &Suite{Path: path, Src: src}
	var ps Problems
	add := func(p schema.Pos, format string, args ...any) {
		ps = append(ps, Problem{Path: path, Pos: p, Msg: fmt.Sprintf(format, args...)})
	}
	root, dups, serr := schema.ParseJSONWithin(src, schema.MaxOtherValues)
	if serr != nil && serr.Bound {
		add(serr.Pos, "%s", serr.Msg)
		return nil, ps
	}
	if serr != nil {
		add(serr.Pos, "not valid JSON: %s", serr.Msg)
		return nil, ps
	}
	for _, d := range dups {
		add(d.Again.Start, "key %q repeated (first at %d:%d): keep one", d.Key, d.First.Start.Line, d.First.Start.Col)
	}
	if root.Kind != schema.Object {
		add(root.Span.Start, `the file must be an object, {"tests": [...]}, not %s`, root.Describe())
		return nil, ps
	}
	for _, m := range root.Members {
		switch m.Key {
		case "tests":
		case "$schema":
			if m.Value.Kind != schema.String {
				add(m.Value.Span.Start, `"$schema" must be a string, not %s`, m.Value.Describe())
			}
		default:
			add(m.KeySpan.Start, "unknown key %q%s: a test file holds \"tests\" (and \"$schema\")", m.Key, didYouMean(m.Key, []string{"tests", "$schema"}))
		}
	}
	tests := root.Get("tests")
	switch {
	case tests == nil:
		add(root.Span.Start, `no "tests": the file must hold {"tests": [...]}, an array of cases`)
	case tests.Value.Kind != schema.Array:
		add(tests.Value.Span.Start, `"tests" must be an array of cases, not %s`, tests.Value.Describe())
	default:
		names := map[string]schema.Pos{}
		for _, n := range tests.Value.Elems {
			c, ok := parseCase(s, n, add)
			if c == nil || c.Name == "" {
				continue
			}
			if first, dup := names[c.Name]; dup {
				add(n.Get("name").Value.Span.Start, "case %q is named twice (first at %d:%d): names must be unique", c.Name, first.Line, first.Col)
				continue
			}
			names[c.Name] = c.Pos
			if ok {
				s.Cases = append(s.Cases, c)
			}
		}
	}
	if len(ps) > 0 {
		slices.SortStableFunc(ps, func(a, b Problem) int { return a.Pos.Offset - b.Pos.Offset })
		return nil, ps
	}
	return s, nil
}

// parseCase checks one case, reporting its mistakes with add. It returns
// the case, with ok false when it cannot run (its name still counts, so
// that a name given twice is reported too), or nil for a case that is not
// an object.
func parseCase(s *Suite, n *schema.Node, add func(schema.Pos, string, ...any)) (c *Case, ok bool) {
	if n.Kind != schema.Object {
		add(n.Span.Start, `a case must be an object such as {"name": ..., "event": ..., "expect": ...}, not %s`, n.Describe())
		return nil, false
	}
	c = &Case{Pos: n.Span.Start, suite: s}
	bad := false
	fail := func(p schema.Pos, format string, args ...any) {
		add(p, format, args...)
		bad = true
	}
	for _, m := range n.Members {
		if !slices.Contains(caseKeys, m.Key) {
			fail(m.KeySpan.Start, "unknown key %q in a case%s (a case holds %s)", m.Key, didYouMean(m.Key, caseKeys), strings.Join(caseKeys, ", "))
		}
	}
	str := func(key string) (*schema.Member, bool) {
		m := n.Get(key)
		if m == nil {
			return nil, true
		}
		if m.Value.Kind != schema.String {
			fail(m.Value.Span.Start, "%q must be a string, not %s", key, m.Value.Describe())
			return nil, false
		}
		return m, true
	}
	obj := func(key string) *schema.Member {
		m := n.Get(key)
		if m != nil && m.Value.Kind != schema.Object {
			fail(m.Value.Span.Start, "%q must be an object, not %s", key, m.Value.Describe())
			return nil
		}
		return m
	}

	name, ok := str("name")
	switch {
	case !ok:
	case name == nil:
		fail(n.Span.Start, `a case without a "name": give each case a name, shown in the output`)
	case strings.TrimSpace(name.Value.Str) == "":
		fail(name.Value.Span.Start, `"name" is empty: give the case a name, shown in the output`)
	default:
		c.Name = name.Value.Str
	}

	tool, _ := str("tool")
	args := obj("args")
	payload := obj("payload")
	expect := obj("expect")

	event, ok := str("event")
	switch {
	case !ok:
	case event != nil:
		c.Event = schema.Event(event.Value.Str)
		if !c.Event.Valid() {
			fail(event.Value.Span.Start, "unknown event %q%s (the events are %s)", event.Value.Str,
				didYouMean(event.Value.Str, schema.EventNames()), strings.Join(schema.EventNames(), ", "))
		}
	case tool != nil:
		c.Event = schema.PreToolUse
	default:
		fail(n.Span.Start, `a case without an "event": name one of %s (or give "tool" for a PreToolUse case)`, strings.Join(schema.EventNames(), ", "))
	}

	if tool != nil && tool.Value.Str == "" {
		fail(tool.Value.Span.Start, `"tool" is empty: name the tool of the call, such as "run_command"`)
	}
	if c.Event.Valid() && !c.Event.IsTool() {
		if tool != nil {
			fail(tool.KeySpan.Start, "%q is for PreToolUse and PostToolUse cases: a %s payload names no tool", "tool", c.Event)
		}
		if args != nil {
			fail(args.KeySpan.Start, "%q is for PreToolUse and PostToolUse cases: a %s payload names no tool", "args", c.Event)
		}
	}
	if args != nil && tool == nil && (!c.Event.Valid() || c.Event.IsTool()) {
		fail(args.KeySpan.Start, `"args" goes with "tool": name the tool these are the arguments of`)
	}
	var tc *schema.Member
	if payload != nil {
		tc = payload.Value.Get("toolCall")
	}
	if tool != nil && tc != nil {
		fail(tc.KeySpan.Start, `the tool call is given twice: use either "tool" and "args", or "payload.toolCall"`)
	}
	if c.Event.IsTool() && tool == nil && !bad {
		var nm *schema.Member
		if tc != nil {
			nm = tc.Value.Get("name")
		}
		if nm == nil || nm.Value.Kind != schema.String || nm.Value.Str == "" {
			at := n.Span.Start
			if tc != nil {
				at = tc.Value.Span.Start
			}
			fail(at, `a %s case names its tool: add "tool": "run_command" (and "args"), or payload.toolCall.name`, c.Event)
		}
	}

	if expect != nil && c.Event.Valid() {
		checkExpect(c.Event, expect.Value, fail)
		c.Expect = expect.Value
	}
	if r, ok := str("expectReason"); ok && r != nil {
		c.ExpectReason, c.HasExpectReason, c.ReasonPos = r.Value.Str, true, r.KeySpan.Start
		if c.Event.Valid() && c.Event != schema.PreToolUse && c.Event != schema.Stop {
			fail(r.KeySpan.Start, `"expectReason" is for PreToolUse and Stop: a %s answer has no reason`, c.Event)
		}
	}
	if m := n.Get("expectFailures"); m != nil {
		if m.Value.Kind != schema.Array {
			fail(m.Value.Span.Start, `"expectFailures" must be an array of hook names, not %s`, m.Value.Describe())
		}
		for _, e := range m.Value.Elems {
			if e.Kind != schema.String || e.Str == "" {
				fail(e.Span.Start, `"expectFailures" holds hook names, not %s`, e.Describe())
				continue
			}
			c.ExpectFailures = append(c.ExpectFailures, e.Str)
		}
	}
	if bad {
		return c, false
	}
	c.Payload = buildPayload(s.Src, tool, args, payload)
	return c, true
}

// buildPayload returns the partial payload as compact JSON: the payload as
// written, with the tool shorthand put first as toolCall.
func buildPayload(src []byte, tool, args, payload *schema.Member) []byte {
	if tool == nil && payload == nil {
		return nil
	}
	raw := func(n *schema.Node) []byte { return src[n.Span.Start.Offset:n.Span.End.Offset] }
	var b bytes.Buffer
	b.WriteByte('{')
	if tool != nil {
		name, _ := json.Marshal(tool.Value.Str)
		b.WriteString(`"toolCall":{"name":`)
		b.Write(name)
		b.WriteString(`,"args":`)
		if args != nil {
			b.Write(raw(args.Value))
		} else {
			b.WriteString("{}")
		}
		b.WriteByte('}')
	}
	if payload != nil {
		for i, m := range payload.Value.Members {
			if i > 0 || tool != nil {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(m.Key)
			b.Write(k)
			b.WriteByte(':')
			b.Write(raw(m.Value))
		}
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Compact(&out, b.Bytes()); err != nil {
		// The parts are valid JSON already; keep them as written.
		return b.Bytes()
	}
	return out.Bytes()
}

// checkExpect reports the keys of expect that no answer of the event can
// hold, and decisions that do not exist: such a case could never pass.
func checkExpect(e schema.Event, expect *schema.Node, fail func(schema.Pos, string, ...any)) {
	keys := schema.AnswerKeys(e)
	for _, m := range expect.Members {
		if !slices.Contains(keys, m.Key) {
			if len(keys) == 0 {
				fail(m.KeySpan.Start, "unknown key %q in expect: a %s answer is always {}", m.Key, e)
				continue
			}
			fail(m.KeySpan.Start, "unknown key %q in expect%s: a %s answer holds %s", m.Key, didYouMean(m.Key, keys), e, strings.Join(keys, ", "))
			continue
		}
		if m.Key != "decision" || m.Value.Kind != schema.String {
			continue
		}
		var valid []string
		switch e {
		case schema.PreToolUse:
			for _, d := range schema.Decisions {
				valid = append(valid, string(d))
			}
		case schema.Stop:
			valid = []string{schema.Continue, string(schema.Allow)}
		}
		if !slices.Contains(valid, m.Value.Str) {
			fail(m.Value.Span.Start, "%s is not a decision of a merged %s answer%s (the decisions are %s)",
				strconv.Quote(m.Value.Str), e, didYouMean(m.Value.Str, valid), strings.Join(valid, ", "))
		}
	}
}

func didYouMean(word string, candidates []string) string {
	if s := schema.Nearest(word, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// Resolve turns a command-line argument into the test file it names: a
// folder means its .agents/hooks.test.json.
func Resolve(arg string) string {
	if info, err := os.Stat(arg); err == nil && info.IsDir() {
		return filepath.Join(arg, filepath.FromSlash(DefaultFile))
	}
	return arg
}

// WorkspaceOf returns the workspace a test file belongs to: the folder above
// the .agents folder that holds it, or dir for a file kept elsewhere.
func WorkspaceOf(file, dir string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return dir
	}
	return shellcmd.TestWorkspace(abs, dir)
}
