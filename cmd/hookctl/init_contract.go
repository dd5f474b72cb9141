package main

import (
	"fmt"
	"io"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// initContract runs the contract check on the hook init wrote
// (scaffold.Guide.Contract), and prints its result in a few lines. A
// failure is reported, never undone: the hook is written, and the command
// that shows every call is named.
func initContract(w io.Writer, g scaffold.Guide, p *scaffold.Plan) error {
	if err := runtime.CannotRunHandlers(); err != nil {
		_, err := fmt.Fprintf(w, "Contract check: not run: %v\n", err)
		return err
	}
	ctx, stop := stopOnSignal()
	defer stop()
	details := g.ContractCommand(p)
	r, err := hooktest.Contract(ctx, g.Contract(p))
	switch {
	case ctx.Err() != nil:
		_, err := fmt.Fprintf(w, "Contract check: interrupted; run it with %s\n", details)
		return err
	case err != nil:
		_, err := fmt.Fprintf(w, "Contract check: could not run: %s\n", schema.VisibleText(err.Error()))
		return err
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
		_, err = fmt.Fprintf(w, "Contract check: passed (%s)\n", schema.Plural(r.Calls(), "call"))
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
