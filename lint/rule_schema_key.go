package lint

type schemaKey struct{ RuleBase }

func newSchemaKey() Rule {
	return &schemaKey{newBase("schema-key", Warning,
		"a top-level \"$schema\" key, which the agent may read as a hook")}
}

func (r *schemaKey) Check(f *File) {
	root := f.Config.Root
	if root == nil {
		return
	}
	if m := root.Get("$schema"); m != nil {
		r.report(f, m.KeySpan, "",
			"the agent may read \"$schema\" as a hook and reject the file: remove it and associate the schema in your editor's settings instead (json.schemas in VS Code; hookctl init --vscode does it)")
	}
}
