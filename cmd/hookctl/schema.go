package main

import (
	"fmt"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/schema"
)

// schemaOptions are the answers of the schema command's flags.
type schemaOptions struct {
	kind  string // "", "input", "output" or "test"
	event string
	out   string
}

func init() { register(90, schemaCommand) }

func schemaCommand(s streams) *cli.Command {
	outFlag := &cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write the schema to `FILE` instead of stdout"}
	eventCommand := func(kind, usage string) *cli.Command {
		return &cli.Command{
			Name:      kind,
			Usage:     usage,
			ArgsUsage: "EVENT",
			Flags:     []cli.Flag{outFlag},
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return usageErrorf("hookctl schema %s takes one event: %s", kind, strings.Join(schema.EventNames(), ", "))
				}
				return schemaRun(s, schemaOptions{kind: kind, event: c.Args().First(), out: c.String("out")})
			},
		}
	}
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema of hooks.json, or of an event's input and output",
		Description: "Editors use the schema to complete and check hooks.json. Associate it in the\n" +
			"editor's settings (json.schemas in VS Code) rather than with a \"$schema\" key,\n" +
			"which the agent may read as a hook. hookctl schema test describes\n" +
			"hooks.test.json, the test cases that hookctl test runs.",
		Flags: []cli.Flag{outFlag},
		Subcommands: []*cli.Command{
			eventCommand("input", "print the JSON Schema of what an EVENT's handler reads on stdin"),
			eventCommand("output", "print the JSON Schema of what an EVENT's handler prints on stdout"),
			{
				Name:  "test",
				Usage: "print the JSON Schema of hooks.test.json, the test cases of hookctl test",
				Flags: []cli.Flag{outFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() > 0 {
						return usageErrorf("hookctl schema test takes no arguments")
					}
					return schemaRun(s, schemaOptions{kind: "test", out: c.String("out")})
				},
			},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("unknown argument %q: use hookctl schema, hookctl schema input EVENT, hookctl schema output EVENT or hookctl schema test", c.Args().First())
			}
			return schemaRun(s, schemaOptions{out: c.String("out")})
		},
	}
}

func schemaRun(s streams, opts schemaOptions) error {
	var doc *jsonschema.Schema
	switch opts.kind {
	case "":
		doc = schema.HooksSchema()
	case "test":
		doc = schema.TestSchema()
	default:
		e, err := parseEvent(opts.event)
		if err != nil {
			return err
		}
		if opts.kind == "input" {
			doc = schema.InputSchema(e)
		} else {
			doc = schema.OutputSchema(e)
		}
	}
	b, err := schema.Marshal(doc)
	if err != nil {
		return usageErrorf("encoding the schema: %v", err)
	}
	if opts.out == "" {
		_, err := s.out.Write(b)
		return err
	}
	if err := schema.WriteFileAtomic(opts.out, b, 0o644); err != nil {
		return usageErrorf("%v", err)
	}
	return nil
}

// parseEvent accepts one of the six event names, and suggests the nearest
// for anything else.
func parseEvent(name string) (schema.Event, error) {
	e := schema.Event(name)
	if e.Valid() {
		return e, nil
	}
	msg := fmt.Sprintf("unknown event %q", name)
	if near := schema.Nearest(name, schema.EventNames()); near != "" {
		msg += fmt.Sprintf(": did you mean %q?", near)
	}
	return "", usageErrorf("%s (the events are %s)", msg, strings.Join(schema.EventNames(), ", "))
}
