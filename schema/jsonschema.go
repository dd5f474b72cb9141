package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"strings"
)

// The JSON Schemas are generated from the Go types and their doc comments
// at build time (go generate ./schema, by schema/internal/schemagen) and
// embedded: hookctl prints them without reflecting or parsing anything.
var (
	//go:embed hooks.schema.json
	hooksSchema []byte
	//go:embed hooks.test.schema.json
	testSchema []byte
	//go:embed generated
	generated embed.FS
)

// SchemaID is the $id of the hooks.json schema.
const SchemaID = "https://hookctl.dev/schema/hooks.schema.json"

// ConfigTemplateFile is the generated schema of .hookctl.json whose rule
// names are RulesPlaceholder, which ConfigSchema replaces with the rules.
const ConfigTemplateFile = "generated/hookctl.schema.json"

// RulesPlaceholder stands for the list of rule IDs in ConfigTemplateFile.
const RulesPlaceholder = "@rules@"

// InputSchemaFile is the generated file of InputSchema(e).
func InputSchemaFile(e Event) string { return "generated/" + string(e) + ".input.schema.json" }

// OutputSchemaFile is the generated file of OutputSchema(e).
func OutputSchemaFile(e Event) string { return "generated/" + string(e) + ".output.schema.json" }

// HooksSchema returns the JSON Schema (draft 2020-12) of a hooks.json file,
// indented, with a final newline.
func HooksSchema() []byte { return bytes.Clone(hooksSchema) }

// TestSchema returns the JSON Schema (draft 2020-12) of a hooks.test.json.
func TestSchema() []byte { return bytes.Clone(testSchema) }

// InputSchema returns the JSON Schema of what an event's handler reads on
// stdin. Tool arguments are described per documented tool.
func InputSchema(e Event) []byte { return generatedFile(InputSchemaFile(e)) }

// OutputSchema returns the JSON Schema of what an event's handler prints on
// stdout.
func OutputSchema(e Event) []byte { return generatedFile(OutputSchemaFile(e)) }

func generatedFile(name string) []byte {
	b, err := generated.ReadFile(name)
	if err != nil {
		panic("schema: " + name + " is not embedded: run go generate ./schema") // a build defect, not input
	}
	return b
}

// ConfigSchema returns the JSON Schema (draft 2020-12) of .hookctl.json.
// rules are the rule IDs that the file may name, offered to editors as
// the only valid names.
func ConfigSchema(rules []string) []byte {
	tmpl := generatedFile(ConfigTemplateFile)
	quoted, _ := json.Marshal(RulesPlaceholder)
	var out bytes.Buffer
	for line := range bytes.Lines(tmpl) {
		trimmed := bytes.TrimLeft(line, " ")
		if !bytes.Equal(bytes.TrimSpace(trimmed), quoted) {
			out.Write(line)
			continue
		}
		indent := line[:len(line)-len(trimmed)]
		for i, r := range rules {
			q, _ := json.Marshal(r)
			out.Write(indent)
			out.Write(unescapeHTML(q))
			if i < len(rules)-1 {
				out.WriteByte(',')
			}
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// unescapeHTML undoes json.Marshal's escapes of <, > and &: a schema is not
// HTML.
func unescapeHTML(b []byte) []byte {
	return []byte(strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(b)))
}
