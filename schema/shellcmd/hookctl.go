package shellcmd

import (
	"path"
	"path/filepath"
	"strings"
	"sync"

	scopes "github.com/hookctl/hookctl/schema/scope"
)

// A handler's command may run hookctl, which runs hooks of its own:
// "hookctl run Stop --config ../tools/inner.json" runs inner.json's
// handlers (a file named with --config is always trusted), "hookctl test
// --workspace ../sub" runs the hooks of another workspace whether it was
// trusted or not. A reader sees through them as through "hookctl trace
// --" (skipWrappers): Nested says which hooks.json files such a call runs
// the handlers of, and what cannot be known is a gap. "hookctl adapt ...
// -- CMD" runs CMD directly, as trace does.

// hookctlFlags are, for each command of hookctl whose flags the reader
// reads, its flags and whether each takes a value (as "--flag VALUE"; any
// flag may also be written "--flag=VALUE", and with one dash). A test of
// cmd/hookctl checks them against the commands' own.
var hookctlFlags = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"run": {"config": true, "workspace": true, "on-error": true, "max-continues": true, "tool": true, "args": true,
			"log": true, "from": true, "sequential": false, "explain": false, "print-payload": false, "log-payload": false, "help": false, "h": false},
		"test": {"config": true, "workspace": true, "run": true, "json": false, "format": true, "on-error": true,
			"add-from-log": true, "contract": false, "budget": true, "hook": true, "user": false, "help": false, "h": false},
		"adapt": {"from": true, "event": true, "help": false, "h": false},
	}
})

// HookctlFlags returns the flags hookctlFlags reads for a command of
// hookctl, for the test that checks them against the command's own.
func HookctlFlags(verb string) map[string]bool { return hookctlFlags()[verb] }

// hookctlReadOnly are the commands of hookctl that run no hook and write
// nothing a hook runs.
var hookctlReadOnly = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"lint": true, "list": true, "doctor": true, "schema": true, "log": true, "help": true, "version": true,
		"completion": true, "lsp": true, "__complete": true,
	}
})

// hookctlWrites are the commands of hookctl that write what an agent or
// hookctl then runs, with why it matters.
var hookctlWrites = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"init":   "writes a new hook and runs it",
		"import": "writes hooks.json files, which the agent then runs",
		"export": "writes other agents' settings, which those agents then run",
		"trust":  "may trust the hooks of a workspace, which then run",
	}
})

// Nested is a call of hookctl that runs hooks: hookctl run --config, or
// hookctl test.
type Nested struct {
	// Word is the word that names hookctl; Call is its call.
	Word Word
	Call *Call
	// Verb is "run" or "test".
	Verb string
	// Configs are the hooks.json files whose handlers it runs, each as
	// hookctl makes it absolute (filepath.Abs: cleaned as text). Their
	// handlers run in the file's folder.
	Configs []string
	// Workspace is the folder --workspace names, absolute and cleaned,
	// "" when it names none; for hookctl test --contract without it, the
	// workspace hookctl finds (Here).
	Workspace string
	// Here is, for hookctl test, the workspace hookctl finds from the
	// call's folder upward (scope.Find), whose test file it runs by
	// default and whose hooks run for a test file kept outside a .agents
	// folder; Looked are the paths that decided it, whose change changes
	// what runs.
	Here   string
	Looked []string
	// Tests are, for hookctl test without --contract, the test files (or
	// folders whose .agents/hooks.test.json it reads) it runs, absolute and
	// cleaned: each runs the hooks of the workspace it belongs to
	// (TestWorkspace, from Here) unless Configs name others.
	Tests []string
	// Contract is set for hookctl test --contract, which runs the
	// handlers of Workspace, else of the call's folder; User for --user,
	// which runs the user's own.
	Contract, User bool
}

// Nested returns the calls of hookctl that run hooks, whose files are
// known; what is not known is a gap of Refs.
func (c *Command) Nested() []Nested {
	var out []Nested
	for _, call := range c.Calls {
		if n, ok, _ := nestedOf(call); ok {
			out = append(out, n)
		}
	}
	return out
}

// hookctlVerb returns, for the words of a call of hookctl from args[i],
// the index of its command's word, past hookctl's global flags, -1 when it
// names none (hookctl --version).
func hookctlVerb(args []Word, i int) int {
	j := i + 1
	for j < len(args) && args[j].Lit && strings.HasPrefix(args[j].Text, "-") {
		name, _, eq := strings.Cut(strings.TrimLeft(args[j].Text, "-"), "=")
		if name != "color" {
			return -1 // --help, --version, or a flag hookctl refuses
		}
		if !eq {
			j++
		}
		j++
	}
	if j >= len(args) {
		return -1
	}
	return j
}

// flagsOf reads the words of a hookctl command after its verb at v, as
// hookctl does (flags anywhere before "--", in either form): each flag's
// values, and the other words. ok is false for a word not literal or a
// flag the command does not take.
func flagsOf(args []Word, v int, known map[string]bool) (flags map[string][]Word, pos []Word, bad *Word) {
	flags = map[string][]Word{}
	for j := v + 1; j < len(args); j++ {
		a := args[j]
		if !a.Lit {
			return flags, pos, &args[j]
		}
		if a.Text == "--" {
			pos = append(pos, args[j+1:]...)
			break
		}
		if !strings.HasPrefix(a.Text, "-") || a.Text == "-" {
			pos = append(pos, a)
			continue
		}
		name, value, eq := strings.Cut(strings.TrimLeft(a.Text, "-"), "=")
		takes, ok := known[name]
		if !ok {
			return flags, pos, &args[j]
		}
		switch {
		case eq:
			w := a
			w.Text = value
			flags[name] = append(flags[name], w)
		case takes && j+1 < len(args):
			j++
			flags[name] = append(flags[name], args[j])
		default:
			flags[name] = append(flags[name], Word{Text: "true", Lit: true, From: a.From, To: a.To})
		}
	}
	return flags, pos, nil
}

// nestedOf reads a call of hookctl: the hooks it runs, or the gaps that
// say what cannot be known. ok is false for a call that runs no hook.
func nestedOf(call *Call) (n Nested, ok bool, gaps []Gap) {
	args := call.Args
	i, implied := skipWrappers(args)
	if i >= len(args) || implied != "" || !args[i].Lit || path.Base(args[i].Text) != "hookctl" {
		return Nested{}, false, nil
	}
	gap := func(at Word, why string) (Nested, bool, []Gap) {
		return Nested{}, false, []Gap{{Word: at, Why: "runs hookctl " + why, Code: true}}
	}
	v := hookctlVerb(args, i)
	if v < 0 {
		return Nested{}, false, nil
	}
	if !args[v].Lit {
		return gap(args[v], "with a command known only when the command runs")
	}
	verb := args[v].Text
	switch {
	case hookctlReadOnly()[verb]:
		return Nested{}, false, nil
	case hookctlWrites()[verb] != "":
		return gap(args[i], verb+", which "+hookctlWrites()[verb]+": what it runs is not fingerprinted")
	case verb == "trace" || verb == "adapt":
		// Seen through by skipWrappers; one it could not read runs
		// nothing but hookctl (trace refuses it) or is named.
		if verb == "adapt" {
			if _, ok := adaptStart(args[i:]); !ok {
				return gap(args[i], "adapt with options the reader does not know, so what it runs is not known")
			}
		}
		return Nested{}, false, nil
	case verb != "run" && verb != "test":
		return gap(args[v], verb+", a command the reader does not know: what it runs is not known")
	}
	flags, pos, bad := flagsOf(args, v, hookctlFlags()[verb])
	if bad != nil {
		if !bad.Lit {
			return gap(*bad, verb+" with an option known only when the command runs")
		}
		return Nested{}, false, nil // hookctl refuses the flag and runs nothing
	}
	if len(flags["help"]) > 0 || len(flags["h"]) > 0 || len(flags["explain"]) > 0 || len(flags["print-payload"]) > 0 || len(flags["add-from-log"]) > 0 {
		return Nested{}, false, nil // runs no handler
	}
	n = Nested{Word: args[i], Call: call, Verb: verb, Contract: len(flags["contract"]) > 0, User: len(flags["user"]) > 0}
	abs := func(w Word) (string, bool) {
		switch {
		case !w.Lit:
			return "", false
		case filepath.IsAbs(w.Text):
			return filepath.Clean(w.Text), true
		case call.Dir == "" || !filepath.IsAbs(call.Dir):
			return "", false
		}
		return filepath.Join(call.Dir, w.Text), true
	}
	for _, c := range flags["config"] {
		p, ok := abs(c)
		if !ok {
			return gap(c, verb+" on a hooks.json named only when the command runs")
		}
		n.Configs = append(n.Configs, p)
	}
	if ws := flags["workspace"]; len(ws) > 0 {
		p, ok := abs(ws[len(ws)-1])
		if !ok {
			return gap(ws[len(ws)-1], verb+" in a workspace named only when the command runs")
		}
		n.Workspace = p
	}
	if verb == "run" {
		if len(n.Configs) == 0 {
			// The user's hooks and the workspace's, which run only
			// when the workspace is trusted.
			return Nested{}, false, nil
		}
		return n, true, nil
	}
	// hookctl test finds its workspace from the folder it runs in, as
	// every hookctl command does.
	if call.Dir == "" || !filepath.IsAbs(call.Dir) {
		if n.Contract && (len(n.Configs) > 0 || n.User || n.Workspace != "") {
			return n, true, nil
		}
		return gap(args[v], "test in a folder known only when the command runs")
	}
	here, err := scopes.Find(Resolve(call.Dir))
	if err != nil {
		return gap(args[v], "test in a folder known only when the command runs")
	}
	n.Here, n.Looked = here.Root, here.Looked
	if n.Contract {
		if len(n.Configs) == 0 && !n.User && n.Workspace == "" {
			n.Workspace = here.Root
		}
		return n, true, nil
	}
	if len(pos) == 0 {
		pos = []Word{{Text: filepath.Join(here.Root, filepath.FromSlash(TestFile)), Lit: true, From: args[v].From, To: args[v].To}}
	}
	for _, f := range pos {
		p, ok := abs(f)
		if !ok {
			return gap(f, "test on a test file named only when the command runs")
		}
		n.Tests = append(n.Tests, p)
	}
	return n, true, nil
}

// TestFile is the test file hookctl test reads by default, from the root
// of the workspace it finds.
const TestFile = scopes.TestFile

// TestWorkspace returns the workspace a test file belongs to: the folder
// above the .agents folder that holds it, or dir (the workspace hookctl
// test finds from the folder it runs in) for a file kept elsewhere.
func TestWorkspace(file, dir string) string {
	parent := filepath.Dir(file)
	if filepath.Base(parent) == ".agents" {
		return filepath.Dir(parent)
	}
	return dir
}

// adaptStart returns, for the words of "hookctl adapt ..." (words[0] is
// hookctl), the index of the word that starts COMMAND: after "--", or the
// first word that is not one of adapt's flags and their values; false
// when it names none, or a flag the reader does not know stands before
// it.
func adaptStart(words []Word) (int, bool) {
	if len(words) < 3 || !words[1].Lit || words[1].Text != "adapt" {
		return 0, false
	}
	known := hookctlFlags()["adapt"]
	for j := 2; j < len(words); j++ {
		a := words[j]
		if !a.Lit {
			return j, true // known when it runs; not a flag that changes what runs
		}
		if a.Text == "--" {
			if j+1 < len(words) {
				return j + 1, true
			}
			return 0, false
		}
		if !strings.HasPrefix(a.Text, "-") || a.Text == "-" {
			return j, true
		}
		name, _, eq := strings.Cut(strings.TrimLeft(a.Text, "-"), "=")
		takes, ok := known[name]
		if !ok {
			// Past "--" COMMAND is still known.
			for k := j + 1; k < len(words); k++ {
				if words[k].Lit && words[k].Text == "--" && k+1 < len(words) {
					return k + 1, true
				}
			}
			return 0, false
		}
		if takes && !eq {
			j++
		}
	}
	return 0, false
}

// Logs returns the logs the command's calls of hookctl are told to write
// (trace --log FILE, run --log FILE), each as a Ref of role Arg whose Path
// is the file as the call names it: hookctl writes them only through
// folders that stay inside the workspace, and a reader of the command
// names them.
func (c *Command) Logs() []Ref {
	var out []Ref
	for _, call := range c.Calls {
		for _, w := range callLogs(call) {
			out = append(out, Ref{Path: join(call.Dir, w.Text), Word: w, Role: Arg, Call: call})
		}
	}
	return out
}

// callLogs returns the words that name a log the call's hookctl writes:
// the values of trace --log and run --log. They are data hookctl writes,
// not files the call runs or reads.
func callLogs(call *Call) []Word {
	var logs []Word
	args := call.Args
	for k := range args {
		if !args[k].Lit || path.Base(args[k].Text) != "hookctl" {
			continue
		}
		v := hookctlVerb(args, k)
		if v < 0 || !args[v].Lit {
			continue
		}
		switch args[v].Text {
		case "trace":
			view := append([]Word{args[k]}, args[v:]...)
			end, ok := traceStart(len(view), func(j int) (string, bool) { return view[j].Text, view[j].Lit })
			if !ok {
				continue
			}
			flags, _, _ := flagsOf(args[:v+end-1], v, map[string]bool{"log": true, "hook": true, "event": true, "payload": false})
			logs = append(logs, flags["log"]...)
		case "run":
			flags, _, _ := flagsOf(args, v, hookctlFlags()["run"])
			logs = append(logs, flags["log"]...)
		}
	}
	return logs
}
