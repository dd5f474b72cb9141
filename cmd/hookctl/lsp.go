package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/lint/lsp"
	"github.com/hookctl/hookctl/runtime/hooktest"
)

func init() { register(92, lspCommand) }

func lspCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "lsp",
		Usage: "serve lint, fixes, completion and hover to an editor (Language Server Protocol on stdin and stdout)",
		Description: "An editor starts hookctl lsp and speaks the Language Server Protocol 3.17 with it\n" +
			"on stdin and stdout; the log goes to stderr. It serves .agents/hooks.json, the\n" +
			"user's ~/.gemini/config/hooks.json, any hooks.json and hooks.test.json: lint's\n" +
			"findings as you type, its fixes as quick fixes, completion, hover, and go to\n" +
			"definition from a command to its script. Set-up for Neovim, Helix, Zed and\n" +
			"VS Code: docs/editors.md.",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("hookctl lsp takes no arguments: an editor starts it and speaks on stdin and stdout")
			}
			home, _ := os.UserHomeDir()
			return lspRun(s, lsp.Options{Home: home, Log: s.err, Version: buildVersion(), CheckTestFile: checkTestFile})
		},
	}
}

func lspRun(s streams, opts lsp.Options) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := lsp.Serve(ctx, s.in, s.out, opts)
	if errors.Is(err, lsp.ErrExitWithoutShutdown) {
		// The protocol asks for status 1 then.
		return &exitError{code: 1, msg: err.Error()}
	}
	return err
}

// checkTestFile checks a hooks.test.json as hookctl test reads it.
func checkTestFile(path string, src []byte) []lsp.Problem {
	_, problems := hooktest.Parse(path, src)
	out := make([]lsp.Problem, 0, len(problems))
	for _, p := range problems {
		out = append(out, lsp.Problem{Pos: p.Pos, Message: p.Msg})
	}
	return out
}
