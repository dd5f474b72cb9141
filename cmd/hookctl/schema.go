package main

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// schemaOptions are the answers of the schema command's flags.
type schemaOptions struct {
	kind  string // "", "input", "output", "example", "test" or "config"
	event string
	out   string
}

// newSchemaCommand is hookctl schema and its subcommands. runF, when
// given, is called in place of schemaRun.
func newSchemaCommand(f *factory, runF func(*schemaOptions) error) *cli.Command {
	run := func(opts *schemaOptions) error {
		if runF != nil {
			return runF(opts)
		}
		return schemaRun(f, opts)
	}
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
				return run(&schemaOptions{kind: kind, event: c.Args().First(), out: c.String("out")})
			},
		}
	}
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema of hooks.json, or of an event's input and output",
		Description: "Editors use the schema to complete and check hooks.json. Associate it in the\n" +
			"editor's settings (json.schemas in VS Code) rather than with a \"$schema\" key,\n" +
			"which the agent may read as a hook. hookctl schema test describes\n" +
			"hooks.test.json, the test cases that hookctl test runs; hookctl schema config\n" +
			"describes .hookctl.json, a repository's choice of lint rules.",
		Flags: []cli.Flag{outFlag},
		Subcommands: []*cli.Command{
			eventCommand("input", "print the JSON Schema of what an EVENT's handler reads on stdin"),
			eventCommand("output", "print the JSON Schema of what an EVENT's handler prints on stdout"),
			{
				Name:      "example",
				Usage:     "print a realistic payload of an EVENT, as its handler reads it on stdin",
				ArgsUsage: "EVENT",
				Description: "The payload the agent sends at the start of a conversation in the current\n" +
					"folder; for PreToolUse and PostToolUse, a run_command call. It is valid\n" +
					"against hookctl schema input EVENT. Feed it to a handler, or to hookctl run:\n" +
					"  hookctl schema example Stop | hookctl run Stop\n" +
					"For a call to another tool: hookctl run PreToolUse --tool NAME --args JSON --print-payload",
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usageErrorf("hookctl schema example takes one event: %s", strings.Join(schema.EventNames(), ", "))
					}
					return run(&schemaOptions{kind: "example", event: c.Args().First()})
				},
			},
			{
				Name:  "config",
				Usage: "print the JSON Schema of .hookctl.json, a repository's choice of lint rules",
				Flags: []cli.Flag{outFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() > 0 {
						return usageErrorf("hookctl schema config takes no arguments")
					}
					return run(&schemaOptions{kind: "config", out: c.String("out")})
				},
			},
			{
				Name:  "test",
				Usage: "print the JSON Schema of hooks.test.json, the test cases of hookctl test",
				Flags: []cli.Flag{outFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() > 0 {
						return usageErrorf("hookctl schema test takes no arguments")
					}
					return run(&schemaOptions{kind: "test", out: c.String("out")})
				},
			},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("unknown argument %q: use hookctl schema, hookctl schema input EVENT, hookctl schema output EVENT, hookctl schema example EVENT, hookctl schema test or hookctl schema config", c.Args().First())
			}
			return run(&schemaOptions{out: c.String("out")})
		},
	}
}

// schemaRun prints, or writes to opts.out, the schema opts asks for, or
// the example payload of an event.
func schemaRun(f *factory, opts *schemaOptions) error {
	var b []byte
	switch opts.kind {
	case "example":
		return schemaExample(f, opts.event)
	case "":
		b = schema.HooksSchema()
	case "test":
		b = schema.TestSchema()
	case "config":
		b = schema.ConfigSchema(lint.RuleIDs())
	default:
		e, err := parseEvent(opts.event)
		if err != nil {
			return err
		}
		if opts.kind == "input" {
			b = schema.InputSchema(e)
		} else {
			b = schema.OutputSchema(e)
		}
	}
	if opts.out == "" {
		_, err := f.out.Write(b)
		return err
	}
	if err := schema.WriteFileAtomic(opts.out, b, 0o644); err != nil {
		return usageErrorf("%v", err)
	}
	return nil
}

// schemaExample prints a realistic payload of the event
// (runtime.ExamplePayload), built by the same code as hookctl run --tool.
func schemaExample(f *factory, event string) error {
	e, err := parseEvent(event)
	if err != nil {
		return err
	}
	cwd, _ := f.getwd()
	home, _ := f.homeDir()
	var root string
	if found, err := scope.Choose(""); err == nil {
		root = found.Root
	}
	b, err := runtime.ExamplePayload(e, cwd, root, home)
	if err != nil {
		return usageErrorf("%v", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return usageErrorf("%v", err)
	}
	out.WriteByte('\n')
	_, err = f.out.Write(out.Bytes())
	return err
}

// parseEvent is schema.ParseEvent, its mistake a usage error.
func parseEvent(name string) (schema.Event, error) {
	e, err := schema.ParseEvent(name)
	if err != nil {
		return "", usageErrorf("%v", err)
	}
	return e, nil
}
