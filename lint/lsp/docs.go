package lsp

import (
	"fmt"
	"reflect"
	"strconv"
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
		for _, p := range members(schemaField(schemaField(hooks, "$defs"), def), "properties") {
			d.fields[kind][p.Key] = text(p.Value, "description")
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
		writeFields(&b, in, schemaField(in, "$defs"), "")
		out := decodeSchema(schema.OutputSchema(e))
		fmt.Fprintf(&b, "\n**Answer** (the handler may print it on stdout; `hookctl schema output %s`):\n\n", e)
		if len(members(out, "properties")) == 0 {
			b.WriteString("- nothing: an empty object or no output\n")
		} else {
			writeFields(&b, out, schemaField(out, "$defs"), "")
		}
		d.events[e] = b.String()
	}
	in := decodeSchema(schema.InputSchema(schema.PreToolUse))
	for _, t := range schema.Tools {
		var b strings.Builder
		fmt.Fprintf(&b, "**%s** (%s): %s\n\n", t.Name, t.Category, t.Summary)
		args := schemaField(schemaField(in, "$defs"), reflect.TypeOf(t.Args).Name())
		if _, unpublished := t.Args.(schema.UnpublishedArgs); unpublished {
			b.WriteString("Arguments (`toolCall.args`): not published.\n")
		} else if len(members(args, "properties")) == 0 {
			b.WriteString("Arguments (`toolCall.args`): none.\n")
		} else {
			b.WriteString("Arguments (`toolCall.args`):\n\n")
			writeFields(&b, args, schemaField(in, "$defs"), "")
		}
		d.tools[t.Name] = b.String()
	}
	d.tools[schema.BrowserPrefix] = "**browser_** tools: the browser tools, a family whose members the format's documentation does not list one by one; `browser_.*` matches them all.\n"
	return d
}

// decodeSchema reads one of the schemas that package schema embeds.
func decodeSchema(b []byte) *schema.Node {
	n, _, err := schema.ParseJSON(b)
	if err != nil {
		panic("lsp: an embedded schema does not parse: " + err.Error()) // a build defect, not input
	}
	return n
}

// schemaField is the value of an object's key, nil when there is none.
func schemaField(n *schema.Node, key string) *schema.Node {
	if m := n.Get(key); m != nil {
		return m.Value
	}
	return nil
}

// text is the string at an object's key, "" when there is none.
func text(n *schema.Node, key string) string {
	if v := schemaField(n, key); v != nil && v.Kind == schema.String {
		return v.Str
	}
	return ""
}

// members are the members of the object at an object's key, in the order
// they are written.
func members(n *schema.Node, key string) []schema.Member {
	if v := schemaField(n, key); v != nil && v.Kind == schema.Object {
		return v.Members
	}
	return nil
}

// mdEscape keeps a description's <placeholders> from being read as HTML
// tags, which Markdown renderers drop.
var mdEscape = strings.NewReplacer("<", "\\<", ">", "\\>").Replace

// writeFields lists a schema's properties, one line each, with the fields
// of an object property one level down.
func writeFields(b *strings.Builder, s, defs *schema.Node, prefix string) {
	required := map[string]bool{}
	if r := schemaField(s, "required"); r != nil {
		for _, e := range r.Elems {
			required[e.Str] = true
		}
	}
	for _, p := range members(s, "properties") {
		k, v := p.Key, p.Value
		def := v
		ref := text(v, "$ref")
		if ref != "" {
			if d := schemaField(defs, strings.TrimPrefix(ref, "#/$defs/")); d != nil {
				def = d
			}
		}
		desc := text(v, "description")
		if desc == "" {
			desc = text(def, "description")
		}
		typ := text(def, "type")
		if typ == "" {
			typ = "object"
		}
		if e := schemaField(def, "enum"); e != nil && len(e.Elems) > 0 {
			var vals []string
			for _, x := range e.Elems {
				vals = append(vals, strconv.Quote(x.Str))
			}
			typ = strings.Join(vals, " | ")
		}
		opt := ""
		if !required[k] {
			opt = ", optional"
		}
		fmt.Fprintf(b, "%s- `%s%s` (%s%s): %s\n", strings.Repeat("  ", strings.Count(prefix, ".")), prefix, k, typ, opt, mdEscape(desc))
		if prefix == "" && ref != "" && len(members(def, "properties")) > 0 {
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
