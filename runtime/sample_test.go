package runtime

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestSampleArgsFitEveryTool builds the sample call of every tool of the
// known tools' table and decodes its arguments into the tool's documented
// arguments strictly: no argument the tool does not take, each of the
// right JSON type, and every required one present. A tool added to the
// table gets a sample without an entry of its own.
func TestSampleArgsFitEveryTool(t *testing.T) {
	ws := "/home/dev/project"
	for _, tool := range schema.Tools {
		t.Run(tool.Name, func(t *testing.T) {
			raw := SampleArgs(tool.Name, ws)
			typ := reflect.TypeOf(tool.Args)
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(reflect.New(typ).Interface()); err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			var got map[string]any
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < typ.NumField(); i++ {
				name, optional := jsonName(typ.Field(i))
				if _, ok := got[name]; name != "" && !optional && !ok {
					t.Errorf("%s: the required argument %s is missing", raw, name)
				}
			}
			// Every path is inside the workspace.
			for _, p := range tool.PathArgs {
				v, ok := got[p].(string)
				if ok && !strings.HasPrefix(v, ws) {
					t.Errorf("%s = %q, want a path inside %s", p, v, ws)
				}
			}
		})
	}
}

func TestSampleArgsOfTheCommonTools(t *testing.T) {
	ws := "/home/dev/my project"
	for _, c := range []struct{ tool, want string }{
		{"run_command", `{"CommandLine":"npm test","Cwd":"/home/dev/my project","WaitMsBeforeAsync":5000}`},
		{"view_file", `{"AbsolutePath":"/home/dev/my project/README.md"}`},
		{"list_dir", `{"DirectoryPath":"/home/dev/my project"}`},
		{"read_url_content", `{"Url":"https://example.com/"}`},
		{"list_permissions", `{}`},
		// A browser tool outside the table still gets a URL; an unknown
		// tool (an MCP server's) gets no arguments.
		{"browser_navigate_somewhere", `{"Url":"https://example.com/"}`},
		{"mcp_github_create_issue", `{}`},
	} {
		if got := string(SampleArgs(c.tool, ws)); got != c.want {
			t.Errorf("SampleArgs(%s) = %s, want %s", c.tool, got, c.want)
		}
	}
	got := string(SampleArgs("write_to_file", ws))
	want := `{"TargetFile":"` + filepath.Join(ws, SampleFile) + `","Overwrite":false,"CodeContent":"Notes\n\n- Run the tests before committing.\n","Description":"Create a notes file"}`
	if got != want {
		t.Errorf("write_to_file:\n got %s\nwant %s", got, want)
	}
}

func TestGuessValueByNameAndType(t *testing.T) {
	ws := "/w"
	str := reflect.TypeOf("")
	for _, c := range []struct {
		name string
		typ  reflect.Type
		want any
	}{
		{"PageUrl", str, "https://example.com/"},
		{"OutputDirectory", str, "/w"},
		{"LogFile", str, "/w/" + SampleFile},
		{"ShellCommand", str, "npm test"},
		{"PageID", str, "1"},
		{"Text", str, "example"},
		{"Force", reflect.TypeOf(true), false},
		{"Count", reflect.TypeOf(0), 1},
		{"FilePaths", reflect.TypeOf([]string{}), []string{"/w/" + SampleFile}},
		{"Items", reflect.TypeOf([]any{}), []any{}},
		{"Options", reflect.TypeOf(map[string]any{}), map[string]any{}},
	} {
		if got := guessValue(c.name, c.typ, ws); !reflect.DeepEqual(got, c.want) {
			t.Errorf("guessValue(%s) = %#v, want %#v", c.name, got, c.want)
		}
	}
}

// TestNewPayload checks the payload hookctl run --tool and hookctl test
// --contract send: the call, the common fields naming the workspace, and
// the event's own fields.
func TestNewPayload(t *testing.T) {
	b, err := NewPayload(schema.PreToolUse, "run_command", string(SampleArgs("run_command", "/w")), "/w", "/h")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		ToolCall struct {
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"toolCall"`
		StepIdx        *int     `json:"stepIdx"`
		WorkspacePaths []string `json:"workspacePaths"`
		TranscriptPath string   `json:"transcriptPath"`
		ModelName      string   `json:"modelName"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.ToolCall.Name != "run_command" || got.ToolCall.Args["CommandLine"] != "npm test" || got.ToolCall.Args["Cwd"] != "/w" {
		t.Errorf("toolCall = %+v", got.ToolCall)
	}
	if got.StepIdx == nil || *got.StepIdx != 0 || len(got.WorkspacePaths) != 1 || got.WorkspacePaths[0] != "/w" ||
		!strings.HasPrefix(got.TranscriptPath, "/h/.gemini/antigravity/brain/") || got.ModelName != DefaultModel {
		t.Errorf("payload = %s", b)
	}
	if p, err := ParsePayload(schema.PreToolUse, b); err != nil || p.Tool != "run_command" {
		t.Errorf("ParsePayload: %v, %+v", err, p)
	}

	stop, err := NewPayload(schema.Stop, "", "", "/w", "/h")
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"executionNum":1`, `"terminationReason":"model_stop"`, `"fullyIdle":true`} {
		if !bytes.Contains(stop, []byte(field)) {
			t.Errorf("Stop payload %s lacks %s", stop, field)
		}
	}

	if _, err := NewPayload(schema.PreToolUse, "", "", "/w", "/h"); err == nil || !strings.Contains(err.Error(), "tool name is empty") {
		t.Errorf("a tool event without a tool: %v", err)
	}
	if _, err := NewPayload(schema.Stop, "run_command", "", "/w", "/h"); err == nil || err.Error() != "a Stop payload names no tool" {
		t.Errorf("a Stop payload with a tool: %v", err)
	}
	if _, err := NewPayload(schema.PostToolUse, "run_command", "[1]", "/w", "/h"); err == nil || !strings.Contains(err.Error(), "must be a JSON object") {
		t.Errorf("arguments that are not an object: %v", err)
	}
}

// TestSampleTools checks which tools a group's sample calls go to: the
// table's tools its matcher selects, then the browser tools it names, or
// one that stands for the browser family.
func TestSampleTools(t *testing.T) {
	all := strings.Join(schema.ToolNames(), " ")
	for _, c := range []struct{ matcher, want string }{
		{"run_command", "run_command"},
		{"browser_.*", "browser_subagent browser_navigate"},
		{"browser_click|view_file", "view_file browser_click"},
		{"browser_click|browser_type", "browser_click browser_type"},
		{"browser_(click|type)", "browser_click"},
		{"browser_scroll", "browser_scroll"},
		{"*", all + " browser_navigate"},
		{"", all + " browser_navigate"},
		{"mcp_github_.*", ""},
		{"browser_x.*", "browser_x"},
		// A browser tool it selects, but neither names nor samples.
		{"browser_x.+", ""},
	} {
		m, err := schema.CompileMatcher(c.matcher)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(SampleTools(c.matcher, m), " "); got != c.want {
			t.Errorf("SampleTools(%q) = %s, want %s", c.matcher, got, c.want)
		}
	}
}

// TestSampleArgsAreListed requires every argument that a sample call of a
// tool of the table holds to have a value chosen for it in sampleArgs,
// not one guessed from its name and type: guesses ("example", "1") are
// for tools added to the table later, and a test of a hook deserves the
// arguments the agent sends.
func TestSampleArgsAreListed(t *testing.T) {
	for _, tool := range schema.Tools {
		typ := reflect.TypeOf(tool.Args)
		for i := 0; i < typ.NumField(); i++ {
			name, optional := jsonName(typ.Field(i))
			_, byTool := sampleArgs()[tool.Name+"."+name]
			_, byName := sampleArgs()[name]
			if name != "" && !optional && !byTool && !byName {
				t.Errorf("%s: the argument %s has no sample value of its own; add one to sampleArgs", tool.Name, name)
			}
		}
	}
	for _, b := range BrowserSamples {
		if got := string(SampleArgs(b, "/w")); got != `{"Url":"https://example.com/"}` {
			t.Errorf("SampleArgs(%s) = %s", b, got)
		}
	}
}

// TestExamplePayload checks hookctl schema example's payload: a
// run_command call of ExampleCommand in the current folder for the tool
// events, none for the others, and the workspace named.
func TestExamplePayload(t *testing.T) {
	for _, e := range schema.Events {
		b, err := ExamplePayload(e, "/w/sub", "/w", "/h")
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			ToolCall *struct {
				Name string         `json:"name"`
				Args map[string]any `json:"args"`
			} `json:"toolCall"`
			WorkspacePaths []string `json:"workspacePaths"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.WorkspacePaths) != 1 || got.WorkspacePaths[0] != "/w" {
			t.Errorf("%s: workspacePaths %v", e, got.WorkspacePaths)
		}
		if !e.IsTool() {
			if got.ToolCall != nil {
				t.Errorf("%s names a tool: %s", e, b)
			}
			continue
		}
		if c := got.ToolCall; c == nil || c.Name != "run_command" || c.Args["CommandLine"] != ExampleCommand || c.Args["Cwd"] != "/w/sub" || c.Args["WaitMsBeforeAsync"] != 5000.0 {
			t.Errorf("%s: %s", e, b)
		}
		if _, err := ParsePayload(e, b); err != nil {
			t.Errorf("%s: %v", e, err)
		}
	}
}
