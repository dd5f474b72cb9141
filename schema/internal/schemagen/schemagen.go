// Package schemagen generates the JSON Schemas of package schema from its Go
// types and their doc comments. It runs at build time (go generate
// ./schema); package schema embeds the files it writes, so that hookctl
// itself carries neither the reflection library nor a Go parser.
package schemagen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/hookctl/hookctl/schema"
)

// sources are the files of package schema whose doc comments become the
// schemas' descriptions: the descriptions are the comments themselves, so
// they cannot drift apart.
var sources = []string{"model.go", "events.go", "tools.go", "testfile.go", "config.go"}

// Files returns the generated schema files, by their path relative to dir,
// the folder of package schema.
func Files(dir string) (map[string][]byte, error) {
	docs, err := comments(dir)
	if err != nil {
		return nil, err
	}
	g := &generator{docs: docs}
	files := map[string]*jsonschema.Schema{
		"hooks.schema.json":       g.hooks(),
		"hooks.test.schema.json":  g.test(),
		schema.ConfigTemplateFile: g.config([]string{schema.RulesPlaceholder}),
	}
	for _, e := range schema.Events {
		files[schema.InputSchemaFile(e)] = g.input(e)
		files[schema.OutputSchemaFile(e)] = g.output(e)
	}
	out := map[string][]byte{}
	for name, s := range files {
		b, err := Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = b
	}
	return out, nil
}

// Write writes the generated files under dir.
func Write(dir string) error {
	files, err := Files(dir)
	if err != nil {
		return err
	}
	for name, b := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := schema.WriteFileAtomic(path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// comments maps a type's name, and "Type.Field", to its doc comment.
func comments(dir string) (map[string]string, error) {
	m := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range sources {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
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
	return m, nil
}

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

type generator struct {
	docs map[string]string
}

// reflector reflects the types of package schema with their comments.
// named holds the definitions of the types with a schema of their own
// (see custom), which reflect adds to the result.
type reflector struct {
	*jsonschema.Reflector
	named map[string]*jsonschema.Schema
}

func (g *generator) newReflector(strict bool) *reflector {
	r := &reflector{named: map[string]*jsonschema.Schema{}}
	pkg := reflect.TypeOf(schema.File{}).PkgPath()
	r.Reflector = &jsonschema.Reflector{
		Anonymous:                 true,
		AllowAdditionalProperties: !strict,
		LookupComment: func(t reflect.Type, field string) string {
			if t.PkgPath() != pkg {
				return ""
			}
			if field == "" {
				return g.docs[t.Name()]
			}
			return g.docs[t.Name()+"."+field]
		},
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			if t.PkgPath() != pkg {
				return nil
			}
			s := g.custom(t.Name())
			if s == nil {
				return nil
			}
			r.named[t.Name()] = s
			return &jsonschema.Schema{Ref: "#/$defs/" + t.Name()}
		},
	}
	return r
}

// reflect is Reflect with the definitions of the custom types, and the
// additions of extend made to the definitions of the structs.
func (r *reflector) reflect(v any) *jsonschema.Schema {
	s := r.Reflect(v)
	for name, def := range r.named {
		s.Definitions[name] = def
	}
	for name, def := range s.Definitions {
		extend(name, def)
	}
	return s
}

// custom is the schema of a named type that is not reflected from its Go
// type: an event name, a rule level.
func (g *generator) custom(name string) *jsonschema.Schema {
	switch name {
	case "Event":
		s := &jsonschema.Schema{Type: "string", Description: g.docs["Event"]}
		for _, e := range schema.Events {
			s.Enum = append(s.Enum, string(e))
		}
		return s
	case "RuleLevel":
		s := &jsonschema.Schema{Type: "string", Description: g.docs["RuleLevel"]}
		for _, l := range schema.RuleLevels {
			s.Enum = append(s.Enum, string(l))
		}
		return s
	}
	return nil
}

// extend adds to the reflected schema of a struct what its Go type cannot
// say.
func extend(name string, s *jsonschema.Schema) {
	switch name {
	case "MatcherGroup":
		// The documented tool names are suggestions for a matcher, while
		// every string stays valid: the matcher is a regular expression,
		// and tools outside the list (MCP servers, new tools) exist.
		if m, ok := s.Properties.Get("matcher"); ok {
			for _, name := range schema.ToolNames() {
				m.Examples = append(m.Examples, name)
			}
			m.Examples = append(m.Examples, schema.BrowserPrefix+".*", "*")
		}
	case "HookDefinition":
		// The keys a hook definition may hold, so that a misspelt event
		// is reported with the valid names.
		names := &jsonschema.Schema{}
		for _, k := range schema.HookKeys {
			names.Enum = append(names.Enum, k)
		}
		s.PropertyNames = names
		if e, ok := s.Properties.Get("enabled"); ok {
			e.Default = true
		}
	case "Handler":
		if t, ok := s.Properties.Get("timeout"); ok {
			t.Default = schema.DefaultTimeout
		}
		if t, ok := s.Properties.Get("type"); ok {
			t.Default = "command"
		}
	case "Step":
		// Exactly one of a step's fields.
		for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
			s.OneOf = append(s.OneOf, &jsonschema.Schema{Required: []string{pair.Key}})
		}
	}
}

// hooks is the JSON Schema (draft 2020-12) of a hooks.json file.
func (g *generator) hooks() *jsonschema.Schema {
	r := g.newReflector(true)
	root := r.reflect(&schema.File{})
	defs := r.reflect(&schema.HookDefinition{}).Definitions
	for name, def := range root.Definitions {
		defs[name] = def
	}
	file := defs["File"]
	delete(defs, "File")
	file.Version = jsonschema.Version
	file.ID = schema.SchemaID
	file.Title = "hooks.json"
	file.AdditionalProperties = &jsonschema.Schema{Ref: "#/$defs/HookDefinition"}
	file.Definitions = defs
	return file
}

// test is the JSON Schema of a hooks.test.json.
func (g *generator) test() *jsonschema.Schema {
	s := expand(g.newReflector(true).reflect(&schema.TestFile{}))
	s.ID = schema.TestSchemaID
	s.Title = "hooks.test.json"
	return s
}

// config is the JSON Schema of .hookctl.json, whose rule names are rules.
func (g *generator) config(rules []string) *jsonschema.Schema {
	s := expand(g.newReflector(true).reflect(&schema.ProjectConfig{}))
	s.ID = schema.ConfigSchemaID
	s.Title = schema.ConfigFileName
	if lc, ok := s.Definitions["LintConfig"]; ok && len(rules) > 0 {
		names := &jsonschema.Schema{}
		for _, r := range rules {
			names.Enum = append(names.Enum, r)
		}
		if d, ok := lc.Properties.Get("disable"); ok && d.Items != nil {
			d.Items.Enum = names.Enum
		}
		if sv, ok := lc.Properties.Get("severity"); ok {
			sv.PropertyNames = names
		}
	}
	return s
}

// input is the JSON Schema of what an event's handler reads on stdin. Tool
// arguments are described per documented tool.
func (g *generator) input(e schema.Event) *jsonschema.Schema {
	r := g.newReflector(false)
	s := r.reflect(schema.InputType(e))
	s = expand(s)
	s.Title = fmt.Sprintf("%s input", e)
	if tc, ok := s.Definitions["ToolCall"]; ok {
		if name, ok := tc.Properties.Get("name"); ok {
			for _, n := range schema.ToolNames() {
				name.Examples = append(name.Examples, n)
			}
		}
		for _, t := range schema.Tools {
			args := r.reflect(t.Args)
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

// output is the JSON Schema of what an event's handler prints on stdout.
func (g *generator) output(e schema.Event) *jsonschema.Schema {
	s := expand(g.newReflector(true).reflect(schema.OutputType(e)))
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
