package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

var userHome = os.UserHomeDir

// JSON returns the converted hooks as a hooks.json file: two-space
// indented, hooks in the order of the source, events in the order of the
// format's documentation.
func (r *Result) JSON() []byte {
	if len(r.Hooks) == 0 {
		return []byte("{}\n")
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, h := range r.Hooks {
		def, err := MarshalHook(h.Def, "  ")
		if err != nil {
			// The definition holds only strings, numbers and booleans.
			panic(fmt.Sprintf("encoding hook %q: %v", h.Name, err))
		}
		fmt.Fprintf(&b, "  %s: %s", schema.AppendJSONString(nil, h.Name), def)
		if i < len(r.Hooks)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// MarshalHook encodes a hook definition as JSON indented by two spaces,
// every line after the first starting with prefix.
func MarshalHook(def *schema.HookDefinition, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(def); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Summary is the closing line of the report: what was converted from what,
// and how many items the report has.
func (r *Result) Summary() string {
	s := r.Source
	var b strings.Builder
	fmt.Fprintf(&b, "converted %s from %s (%s", schema.Plural(len(r.Hooks), "hook", "hooks"), s.Agent.Title(), s.Path)
	if s.DetectedBy != "--from" {
		fmt.Fprintf(&b, ", recognised by %s", s.DetectedBy)
	}
	b.WriteString(")")
	w, n := r.Report.Count(Warning), r.Report.Count(Note)
	switch {
	case w == 0 && n == 0:
		b.WriteString(": everything was carried over")
	default:
		fmt.Fprintf(&b, ": %s not carried over or needing work, %s", schema.Plural(w, "thing", "things"), schema.Plural(n, "note", "notes"))
	}
	return b.String()
}
