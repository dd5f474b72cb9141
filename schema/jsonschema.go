package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"
)

// The sources of the types the schemas are generated from, read for their
// doc comments: the schema's descriptions are the comments themselves, so
// they cannot drift apart.
var (
	//go:embed model.go
	modelSource string
	//go:embed events.go
	eventsSource string
	//go:embed tools.go
	toolsSource string
	//go:embed testfile.go
	testfileSource string
	//go:embed config.go
	configSource string
)

// SchemaID is the $id of the hooks.json schema.
const SchemaID = "https://hookctl.dev/schema/hooks.schema.json"

var comments = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	fset := token.NewFileSet()
	for _, src := range []string{modelSource, eventsSource, toolsSource, testfileSource, configSource} {
		f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
		if err != nil {
			panic("schema: embedded source does not parse: " + err.Error()) // a build defect, not input
		}
		ast.Inspect(f, func(n ast.Node) bool {
			gd, ok := n.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				return true
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				m[ts.Name.Name] = typeDoc(ts.Name.Name, docText(doc))
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fld := range st.Fields.List {
					for _, name := range fld.Names {
						m[ts.Name.Name+"."+name.Name] = docText(fld.Doc)
					}
				}
			}
			return false
		})
	}
	return m
})

// docText turns a doc comment into a description: lines joined into
// paragraphs, paragraphs separated by a blank line.
func docText(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	var paras []string
	for _, p := range strings.Split(strings.TrimSpace(g.Text()), "\n\n") {
		paras = append(paras, strings.Join(strings.Fields(p), " "))
	}
	return strings.Join(paras, "\n\n")
}

// typeDoc drops the Go convention of starting a type's comment with its
// name: "Handler is a shell command ..." describes a value as "A shell
// command ...".
func typeDoc(name, doc string) string {
	for _, verb := range []string{" is ", " are "} {
		if rest, ok := strings.CutPrefix(doc, name+verb); ok && rest != "" {
			return strings.ToUpper(rest[:1]) + rest[1:]
		}
	}
	return doc
}

func newReflector(strict bool) *jsonschema.Reflector {
	return &jsonschema.Reflector{
		Anonymous:                 true,
		AllowAdditionalProperties: !strict,
		LookupComment: func(t reflect.Type, field string) string {
			if t.PkgPath() != reflect.TypeOf(File{}).PkgPath() {
				return ""
			}
			if field == "" {
				return comments()[t.Name()]
			}
			return comments()[t.Name()+"."+field]
		},
	}
}

// JSONSchemaExtend offers the documented tool names as suggestions for a
// matcher while keeping every string valid: the matcher is a regular
// expression, and tools outside the list (MCP servers, new tools) exist.
func (MatcherGroup) JSONSchemaExtend(s *jsonschema.Schema) {
	if m, ok := s.Properties.Get("matcher"); ok {
		for _, name := range ToolNames() {
			m.Examples = append(m.Examples, name)
		}
		m.Examples = append(m.Examples, BrowserPrefix+".*", "*")
	}
}

// JSONSchemaExtend lists the keys a hook definition may hold, so that a
// misspelt event is reported with the valid names.
func (HookDefinition) JSONSchemaExtend(s *jsonschema.Schema) {
	names := &jsonschema.Schema{}
	for _, k := range HookKeys {
		names.Enum = append(names.Enum, k)
	}
	s.PropertyNames = names
	if e, ok := s.Properties.Get("enabled"); ok {
		e.Default = true
	}
}

// JSONSchemaExtend states the default timeout.
func (Handler) JSONSchemaExtend(s *jsonschema.Schema) {
	if t, ok := s.Properties.Get("timeout"); ok {
		t.Default = DefaultTimeout
	}
	if t, ok := s.Properties.Get("type"); ok {
		t.Default = "command"
	}
}

// JSONSchemaExtend requires exactly one of a step's fields.
func (Step) JSONSchemaExtend(s *jsonschema.Schema) {
	for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
		s.OneOf = append(s.OneOf, &jsonschema.Schema{Required: []string{pair.Key}})
	}
}

// JSONSchema describes an event name.
func (Event) JSONSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: comments()["Event"]}
	for _, e := range Events {
		s.Enum = append(s.Enum, string(e))
	}
	return s
}

// HooksSchema returns the JSON Schema (draft 2020-12) of a hooks.json file.
func HooksSchema() *jsonschema.Schema {
	r := newReflector(true)
	root := r.Reflect(&File{})
	defs := r.Reflect(&HookDefinition{}).Definitions
	for name, def := range root.Definitions {
		defs[name] = def
	}
	file := defs["File"]
	delete(defs, "File")
	file.Version = jsonschema.Version
	file.ID = SchemaID
	file.Title = "hooks.json"
	file.AdditionalProperties = &jsonschema.Schema{Ref: "#/$defs/HookDefinition"}
	file.Definitions = defs
	return file
}

// InputSchema returns the JSON Schema of what an event's handler reads on
// stdin. Tool arguments are described per documented tool.
func InputSchema(e Event) *jsonschema.Schema {
	r := newReflector(false)
	s := r.Reflect(InputType(e))
	s = expand(s)
	s.Title = fmt.Sprintf("%s input", e)
	if tc, ok := s.Definitions["ToolCall"]; ok {
		if name, ok := tc.Properties.Get("name"); ok {
			for _, n := range ToolNames() {
				name.Examples = append(name.Examples, n)
			}
		}
		for _, t := range Tools {
			args := r.Reflect(t.Args)
			typeName := reflect.TypeOf(t.Args).Name()
			for n, d := range args.Definitions {
				s.Definitions[n] = d
			}
			tc.AllOf = append(tc.AllOf, &jsonschema.Schema{
				If:   withRequired(props("name", &jsonschema.Schema{Const: t.Name}), "name"),
				Then: props("args", &jsonschema.Schema{Ref: "#/$defs/" + typeName}),
			})
		}
	}
	return s
}

// OutputSchema returns the JSON Schema of what an event's handler prints on
// stdout.
func OutputSchema(e Event) *jsonschema.Schema {
	s := expand(newReflector(true).Reflect(OutputType(e)))
	s.Title = fmt.Sprintf("%s output", e)
	return s
}

// expand makes the schema's root the definition its $ref names, so the
// document describes the value directly.
func expand(s *jsonschema.Schema) *jsonschema.Schema {
	name := strings.TrimPrefix(s.Ref, "#/$defs/")
	def, ok := s.Definitions[name]
	if !ok {
		return s
	}
	delete(s.Definitions, name)
	def.Version = s.Version
	if len(s.Definitions) > 0 {
		def.Definitions = s.Definitions
	}
	return def
}

func props(key string, v *jsonschema.Schema) *jsonschema.Schema {
	s := &jsonschema.Schema{Properties: jsonschema.NewProperties()}
	s.Properties.Set(key, v)
	return s
}

func withRequired(s *jsonschema.Schema, keys ...string) *jsonschema.Schema {
	s.Required = keys
	return s
}

// Marshal encodes a schema as indented JSON with a final newline, the same
// bytes on every run.
func Marshal(s *jsonschema.Schema) ([]byte, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	// json.Marshal escapes <, > and & for HTML; a schema is not HTML.
	b := bytes.ReplaceAll(out.Bytes(), []byte(`\u003c`), []byte("<"))
	b = bytes.ReplaceAll(b, []byte(`\u003e`), []byte(">"))
	b = bytes.ReplaceAll(b, []byte(`\u0026`), []byte("&"))
	return b, nil
}
