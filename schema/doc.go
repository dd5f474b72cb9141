// Package schema holds the Go types of a hooks.json file and of the JSON each
// event's handler reads on stdin and prints on stdout, the position-aware
// loader that reads a hooks.json into those types, the matching rule for
// matchers, and the JSON Schema generated from the types.
//
// The doc comments on the exported types and fields of model.go, events.go
// and tools.go are written for hook authors: they become the descriptions in
// the generated JSON Schema that editors show on hover.
package schema

//go:generate go run ../cmd/hookctl schema --out hooks.schema.json
//go:generate go run ../cmd/hookctl schema test --out hooks.test.schema.json
//go:generate go run ../cmd/hookctl schema config --out hookctl.schema.json
