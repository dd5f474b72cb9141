// Package schema holds the Go types of a hooks.json file and of the JSON each
// event's handler reads on stdin and prints on stdout, the position-aware
// loader that reads a hooks.json into those types, the matching rule for
// matchers, and the JSON Schema generated from the types.
//
// The doc comments on the exported types and fields of model.go, events.go
// and tools.go are written for hook authors: they become the descriptions in
// the generated JSON Schema that editors show on hover. The schemas are
// generated at build time (go generate ./schema) and embedded.
package schema

//go:generate go run ./internal/schemagen/cmd
//go:generate go run ../cmd/hookctl schema config --out hookctl.schema.json
