package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/schema"
)

// The texts of completion and hover come from the JSON Schemas that
// hookctl schema prints, which are generated from the doc comments of the
// Go types: one source for the schema, the editor and the docs.

type docTexts struct {
	// fields maps "hook", "group" and "handler" to their keys' texts.
	fields map[string]map[string]string
	events map[schema.Event]string
	tools  map[string]string
}

var docs = sync.OnceValue(buildDocs)

func buildDocs() *docTexts {
	d := &docTexts{
		fields: map[string]map[string]string{},
		events: map[schema.Event]string{},
		tools:  map[string]string{},
	}
	hooks := decodeSchema(schema.HooksSchema())
	for kind, def := range map[string]string{"hook": "HookDefinition", "group": "MatcherGroup", "handler": "Handler"} {
		d.fields[kind] = map[string]string{}
		if s := hooks.Definitions[def]; s != nil && s.Properties != nil {
			for _, p := range s.Properties {
				d.fields[kind][p.Key] = p.Value.Description
			}
		}
	}
	for _, e := range schema.Events {
		var b strings.Builder
		fmt.Fprintf(&b, "**%s**: %s\n\n", e, e.Summary())
		if desc := d.fields["hook"][string(e)]; desc != "" {
			fmt.Fprintf(&b, "%s\n\n", mdEscape(desc))
		}
		in := decodeSchema(schema.InputSchema(e))
		fmt.Fprintf(&b, "**Payload** (the handler reads it on stdin; `hookctl schema input %s`):\n\n", e)
		writeFields(&b, in, in.Definitions, "")
		out := decodeSchema(schema.OutputSchema(e))
		fmt.Fprintf(&b, "\n**Answer** (the handler may print it on stdout; `hookctl schema output %s`):\n\n", e)
		if len(out.Properties) == 0 {
			b.WriteString("- nothing: an empty object or no output\n")
		} else {
			writeFields(&b, out, out.Definitions, "")
		}
		d.events[e] = b.String()
	}
	in := decodeSchema(schema.InputSchema(schema.PreToolUse))
	for _, t := range schema.Tools {
		var b strings.Builder
		fmt.Fprintf(&b, "**%s** (%s): %s\n\n", t.Name, t.Category, t.Summary)
		args := in.Definitions[reflect.TypeOf(t.Args).Name()]
		if _, unpublished := t.Args.(schema.UnpublishedArgs); unpublished {
			b.WriteString("Arguments (`toolCall.args`): not published.\n")
		} else if args == nil || len(args.Properties) == 0 {
			b.WriteString("Arguments (`toolCall.args`): none.\n")
		} else {
			b.WriteString("Arguments (`toolCall.args`):\n\n")
			writeFields(&b, args, in.Definitions, "")
		}
		d.tools[t.Name] = b.String()
	}
	d.tools[schema.BrowserPrefix] = "**browser_** tools: the browser tools, a family whose members the format's documentation does not list one by one; `browser_.*` matches them all.\n"
	return d
}

// jsonSchema is the part of a JSON Schema that the texts show, with the
// properties in the order the schema lists them.
type jsonSchema struct {
	Type        string                 `json:"type"`
	Description string                 `json:"description"`
	Ref         string                 `json:"$ref"`
	Enum        []any                  `json:"enum"`
	Required    []string               `json:"required"`
	Properties  properties             `json:"properties"`
	Definitions map[string]*jsonSchema `json:"$defs"`
}

type property struct {
	Key   string
	Value *jsonSchema
}

// properties are an object's properties in the order they are written.
type properties []property

func (ps *properties) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		v := &jsonSchema{}
		if err := dec.Decode(v); err != nil {
			return err
		}
		*ps = append(*ps, property{key, v})
	}
	return nil
}

// decodeSchema reads one of the schemas that package schema embeds.
func decodeSchema(b []byte) *jsonSchema {
	s := &jsonSchema{}
	if err := json.Unmarshal(b, s); err != nil {
		panic("lsp: an embedded schema does not decode: " + err.Error()) // a build defect, not input
	}
	return s
}

// mdEscape keeps a description's <placeholders> from being read as HTML
// tags, which Markdown renderers drop.
var mdEscape = strings.NewReplacer("<", "\\<", ">", "\\>").Replace

// writeFields lists a schema's properties, one line each, with the fields
// of an object property one level down.
func writeFields(b *strings.Builder, s *jsonSchema, defs map[string]*jsonSchema, prefix string) {
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	for _, p := range s.Properties {
		k, v := p.Key, p.Value
		def := v
		if v.Ref != "" {
			if d := defs[strings.TrimPrefix(v.Ref, "#/$defs/")]; d != nil {
				def = d
			}
		}
		desc := v.Description
		if desc == "" {
			desc = def.Description
		}
		typ := def.Type
		if typ == "" {
			typ = "object"
		}
		if len(def.Enum) > 0 {
			var vals []string
			for _, e := range def.Enum {
				vals = append(vals, fmt.Sprintf("%q", e))
			}
			typ = strings.Join(vals, " | ")
		}
		opt := ""
		if !required[k] {
			opt = ", optional"
		}
		fmt.Fprintf(b, "%s- `%s%s` (%s%s): %s\n", strings.Repeat("  ", strings.Count(prefix, ".")), prefix, k, typ, opt, mdEscape(desc))
		if prefix == "" && v.Ref != "" && len(def.Properties) > 0 {
			writeFields(b, def, defs, prefix+k+".")
		}
	}
}

// fieldDoc is the text of a key in a hook, group or handler.
func fieldDoc(kind, key string) string {
	return mdEscape(docs().fields[kind][key])
}

// eventDoc is the text of an event: what fires it, its payload and its
// answer.
func eventDoc(e schema.Event) string { return docs().events[e] }

// toolDoc is the text of a tool: what it does and its arguments; "" for a
// name that is not a documented tool.
func toolDoc(name string) string {
	if t, ok := docs().tools[name]; ok {
		return t
	}
	if strings.HasPrefix(name, schema.BrowserPrefix) {
		return docs().tools[schema.BrowserPrefix]
	}
	return ""
}

// plainText is the Markdown of the texts above for a client that shows
// text as it comes: without the marks of bold and code, and with the
// escaped placeholders as written.
var plainText = strings.NewReplacer("**", "", "`", "", "\\<", "<", "\\>", ">").Replace
