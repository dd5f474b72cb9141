package scaffold

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tailscale/hujson"

	"github.com/hookctl/hookctl/schema"
)

// HooksFileMatch is the pattern VS Code matches workspace hooks.json files
// with.
const HooksFileMatch = "**/.agents/hooks.json"

// SchemaURL is where the workspace's settings find the schema: a copy in
// .vscode, so the association works offline and matches this version.
const SchemaURL = "./.vscode/hooks.schema.json"

func planVSCode(root string, bounds Bounds) (*VSCodePlan, error) {
	v := &VSCodePlan{
		Settings: filepath.Join(root, ".vscode", "settings.json"),
		Schema:   filepath.Join(root, ".vscode", "hooks.schema.json"),
	}
	for _, p := range []string{v.Settings, v.Schema} {
		if _, err := bounds.Check(p); err != nil {
			return nil, err
		}
	}
	v.SchemaOut = schema.HooksSchema()
	var err error
	if v.SchemaIn, err = readFile(v.Schema); err != nil {
		return nil, err
	}
	if v.SettingsIn, err = readFile(v.Settings); err != nil {
		return nil, err
	}
	src := v.SettingsIn
	if src == nil {
		src = []byte("{}\n")
	}
	out, changed, err := AssociateSchema(src)
	if err != nil {
		return nil, fmt.Errorf("%s; fix it and run init again", located(v.Settings, err))
	}
	if changed {
		v.SettingsOut = out
	}
	return v, nil
}

// AssociateSchema returns VS Code settings (JSON with comments) with an
// entry in json.schemas that gives the workspace's hooks.json files the
// schema at SchemaURL. Every other byte, comments included, is kept. It
// returns src unchanged and false when an entry already names
// HooksFileMatch.
func AssociateSchema(src []byte) ([]byte, bool, error) {
	if err := schema.BoundJSONC(src, schema.MaxOtherValues); err != nil {
		return nil, false, err
	}
	root, err := hujson.Parse(src)
	if err != nil {
		return nil, false, err
	}
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return nil, false, errors.New("the settings are not a JSON object")
	}
	entry := map[string]any{"fileMatch": []string{HooksFileMatch}, "url": SchemaURL}
	value, err := schema.Marshal(entry)
	if err != nil {
		return nil, false, err
	}
	// marshal sorts map keys; fileMatch before url is also VS Code's order.
	for i := range obj.Members {
		m := &obj.Members[i]
		if literalString(m.Name) != "json.schemas" {
			continue
		}
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			return nil, false, errors.New(`"json.schemas" is not an array`)
		}
		for _, el := range arr.Elements {
			if associates(el) {
				return src, false, nil
			}
		}
		return insert(src, hujsonContainer(src, &m.Value), []item{{value: value}}), true, nil
	}
	return insert(src, hujsonContainer(src, &root), []item{{key: "json.schemas", value: append(append([]byte("["), value...), ']')}}), true, nil
}

func literalString(v hujson.Value) string {
	lit, ok := v.Value.(hujson.Literal)
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return ""
	}
	return s
}

// associates reports whether a json.schemas entry already covers the
// workspace's hooks.json.
func associates(el hujson.Value) bool {
	v := el.Clone()
	v.Standardize()
	var e struct {
		FileMatch []string `json:"fileMatch"`
	}
	if json.Unmarshal(v.Pack(), &e) != nil {
		return false
	}
	for _, f := range e.FileMatch {
		if f == HooksFileMatch || f == ".agents/hooks.json" || f == "/.agents/hooks.json" {
			return true
		}
	}
	return false
}

// hujsonContainer describes a parsed JSONC object or array for insert.
func hujsonContainer(src []byte, v *hujson.Value) container {
	c := container{open: v.StartOffset, close: v.EndOffset - 1}
	switch t := v.Value.(type) {
	case *hujson.Object:
		c.object = true
		for _, m := range t.Members {
			c.entries = append(c.entries, entry{start: m.Name.StartOffset, end: m.Value.EndOffset,
				keyEnd: m.Name.EndOffset, valueStart: m.Value.StartOffset})
		}
	case *hujson.Array:
		for _, e := range t.Elements {
			c.entries = append(c.entries, entry{start: e.StartOffset, end: e.EndOffset})
		}
	}
	return c
}
