package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// initContract runs the contract check on the hook init wrote, as
// hookctl test --contract --hook NAME runs it, and prints its result in
// a few lines. A failure is reported, never undone: the hook is written,
// and the command that shows every call is named. Every check holds but
// the budget: a script's first runs are cold (an interpreter loaded from
// disk, Python compiling it) and a busy machine slows them, so that speed
// measured here says little of the hook; the check it names measures it.
func initContract(w io.Writer, opts initOptions, p *scaffold.Plan) error {
	if err := runtime.CannotRunHandlers(); err != nil {
		_, err := fmt.Fprintf(w, "Contract check: not run: %v\n", err)
		return err
	}
	ctx, stop := stopOnSignal()
	defer stop()
	// A user's hook is sent payloads that name the folder of the user's
	// hooks.json, not the current folder: that may be a clone nobody
	// trusted, whose git configuration a hook running git would run.
	ws := filepath.Dir(p.Config)
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
		_, err = fmt.Fprintf(w, "Contract check: passed (%s)\n", schema.Plural(calls, "call"))
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

// contractWithheld says why init does not run the contract check on the
// hook it wrote, ending where the command that runs it goes, "" when it
// may. The check runs the hook, and the hook runs
// in the workspace: a module committed beside it (.agents/hooks/json.py
// for the json a Python handler imports) or the repository's own settings
// (git's core.fsmonitor, which git status runs) would run with it. So init
// runs it only for the user's own hooks (tr is nil) and in a workspace the
// user had trusted before init and that is still trusted: not in one init
// trusted itself because it had no hooks yet, since nobody looked at the
// rest of it.
func contractWithheld(tr *initTrust) string {
	switch {
	case tr == nil:
		return ""
	case !tr.renew:
		return "the workspace is not trusted, and the check runs its code; trust it (see the next steps), then run"
	case !tr.before:
		return "the check runs code of the workspace, which you had not trusted before init; once you are sure of it, run"
	}
	return ""
}

// contractCommand is the hookctl test command line that checks the hook
// init wrote, from the current folder.
func contractCommand(opts initOptions, p *scaffold.Plan) string {
	cmd := "hookctl test --contract --hook " + shellcmd.Quote(p.Name)
	switch {
	case opts.Scope == scaffold.User:
		cmd += " --user"
	case opts.Dir != opts.here.Root:
		cmd += " --workspace " + shellcmd.Quote(opts.Dir)
	}
	return cmd
}
