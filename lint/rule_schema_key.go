package lint

import "github.com/hookctl/hookctl/schema"

type schemaKey struct{ RuleBase }

func newSchemaKey() Rule {
	return &schemaKey{newBase("schema-key", Warning,
		"a top-level \"$schema\" key, which the agent reads as a hook and, being a string, drops the whole file for")}
}

func (r *schemaKey) Check(f *File) {
	root := f.Config.Root
	if root == nil {
		return
	}
	if m := root.Get("$schema"); m != nil {
		what := "reads \"$schema\" as a hook, cannot read a string as one, and so loads none of this file's hooks"
		if m.Value.Kind == schema.Null || m.Value.Kind == schema.Object {
			what = "reads \"$schema\" as a hook"
		}
		r.report(f, m.KeySpan, "",
			"the agent %s: remove it and associate the schema in your editor's settings instead (json.schemas in VS Code; hookctl init --vscode does it)", what)
	}
}
