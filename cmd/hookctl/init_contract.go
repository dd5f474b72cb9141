package main

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"syscall"
	"time"

	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// initContract runs the contract check on the hook init wrote, as
// hookctl test --contract --hook NAME runs it, and prints its result in
// a few lines. A failure is reported, never undone: the hook is written,
// and the command that shows every call is named. Every check holds but
// the budget: a script's first runs are cold (an interpreter loaded from
// disk, Python compiling it) and a busy machine slows them, so that speed
// measured here says little of the hook; the check it names measures it.
func initContract(w io.Writer, opts initOptions, p *scaffold.Plan) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	ws := opts.cwd
	if opts.Scope == scaffold.Workspace {
		ws = opts.Dir
	}
	details := contractCommand(opts, p)
	r, err := hooktest.Contract(ctx, hooktest.ContractOptions{Configs: []string{p.Config}, Workspace: ws, Home: opts.Home, Hooks: []string{p.Name},
		// No budget: the handler's timeout is the limit.
		Budget: schema.MaxTimeout * time.Second})
	switch {
	case ctx.Err() != nil:
		_, err := fmt.Fprintf(w, "Contract check: interrupted; run it with %s\n", details)
		return err
	case err != nil:
		_, err := fmt.Fprintf(w, "Contract check: could not run: %s\n", schema.VisibleText(err.Error()))
		return err
	}
	calls := 0
	for _, h := range r.Handlers {
		calls += len(h.Calls)
	}
	passed, failed := r.Counts()
	cp := &hooktest.ContractPrinter{W: w}
	switch {
	case failed > 0:
		fmt.Fprintf(w, "Contract check: FAILED: the agent punishes what the hook does (the hook is written all the same)\n")
		for _, h := range r.Handlers {
			if err := cp.Details(h); err != nil {
				return err
			}
		}
		_, err = fmt.Fprintf(w, "  Fix the script, then see every call with: %s\n", details)
	case passed > 0 && r.NotChecked() == 0:
		_, err = fmt.Fprintf(w, "Contract check: passed (%s)\n", plural(calls, "call"))
	default:
		for _, h := range r.Handlers {
			if h.Skipped != "" {
				if _, err := fmt.Fprintf(w, "Contract check: %s\n", h.Skipped); err != nil {
					return err
				}
			}
		}
		for _, n := range r.Notes {
			if _, err := fmt.Fprintf(w, "Contract check: %s\n", n); err != nil {
				return err
			}
		}
	}
	return err
}

// contractCommand is the hookctl test command line that checks the hook
// init wrote, from the current folder.
func contractCommand(opts initOptions, p *scaffold.Plan) string {
	cmd := "hookctl test --contract --hook " + shellQuote(p.Name)
	switch {
	case opts.Scope == scaffold.User:
		cmd += " --user"
	case opts.Dir != opts.cwd:
		cmd += " --workspace " + shellQuote(opts.Dir)
	}
	return cmd
}
