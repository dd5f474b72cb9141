package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/editors"
	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/lint/lsp"
	"github.com/hookctl/hookctl/runtime/hooktest"
)

// lspOptions are the answers of the lsp command's flags.
type lspOptions struct {
	// setup is the editor whose set-up --setup prints, when setupSet;
	// otherwise lsp serves.
	setup    string
	setupSet bool
	// home is the user's home folder, "" when unknown.
	home string
}

// newLspCommand is hookctl lsp. runF, when given, is called in place of
// lspRun.
func newLspCommand(f *factory, runF func(*lspOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "lsp",
		Usage: "serve lint, fixes, completion and hover to an editor (Language Server Protocol on stdin and stdout)",
		Description: "An editor starts hookctl lsp and speaks the Language Server Protocol 3.17 with it\n" +
			"on stdin and stdout; the log goes to stderr. It serves .agents/hooks.json, the\n" +
			"user's ~/.gemini/config/hooks.json, any hooks.json and hooks.test.json: lint's\n" +
			"findings as you type, its fixes as quick fixes, completion, hover, and go to\n" +
			"definition from a command to its script. ShellCheck (when shellcheck is on PATH,\n" +
			"or named by HOOKCTL_SHELLCHECK) checks inline commands when a file is opened and\n" +
			"saved.\n\n" +
			"hookctl lsp --setup neovim (or helix) prints that editor's set-up and where it goes.\n" +
			"Zed and VS Code start a language server only from an extension: theirs are built\n" +
			"from the source repository's editors/zed and editors/vscode folders.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "setup", Usage: "print the set-up of `EDITOR` (neovim or helix) and serve nothing"},
		},
		Action: func(c *cli.Context) error {
			opts := &lspOptions{setup: c.String("setup"), setupSet: c.IsSet("setup")}
			if !opts.setupSet {
				if c.NArg() > 0 {
					return usageErrorf("hookctl lsp takes no arguments: an editor starts it and speaks on stdin and stdout")
				}
				opts.home, _ = f.homeDir()
			}
			if runF != nil {
				return runF(opts)
			}
			return lspRun(f, opts)
		},
	}
}

// lspSetup prints an editor's set-up of hookctl lsp: the files of the
// repository's editors folder, which an installed binary carries.
func lspSetup(s streams, editor string) error {
	text, ok := editors.Setup(editor)
	if !ok {
		return usageErrorf("--setup takes neovim or helix, not %q: Zed and VS Code need the extensions in the source repository's editors folder", editor)
	}
	_, err := io.WriteString(s.out, text)
	return err
}

// lspRun prints an editor's set-up, or serves the editor on the
// factory's stdin and stdout until it asks to stop.
func lspRun(f *factory, opts *lspOptions) error {
	if opts.setupSet {
		return lspSetup(f.streams, opts.setup)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := lsp.Serve(ctx, f.in, f.out, lsp.Options{Home: opts.home, Log: f.err, Version: buildVersion(), CheckTestFile: checkTestFile, ShellCheck: lint.FindShellCheck()})
	if errors.Is(err, lsp.ErrExitWithoutShutdown) {
		// The protocol asks for status 1 then.
		return &exitError{code: 1, msg: err.Error()}
	}
	if errors.Is(err, lsp.ErrProtocol) {
		// A failure the editor must see: the connection is gone.
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
