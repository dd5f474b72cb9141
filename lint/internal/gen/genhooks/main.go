// Command genhooks writes a workspace whose .agents/hooks.json holds N
// hooks, for timing hookctl lint:
//
//	go run ./lint/internal/gen/genhooks [-clean | -inline] -n 10000 /tmp/big
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hookctl/hookctl/lint/internal/gen"
)

func main() {
	n := flag.Int("n", 10000, "how many hooks to write")
	clean := flag.Bool("clean", false, "write hooks without mistakes")
	inline := flag.Bool("inline", false, "write hooks whose handlers are inline shell")
	flag.Parse()
	if flag.NArg() != 1 || *clean && *inline {
		fmt.Fprintln(os.Stderr, "usage: genhooks [-clean | -inline] [-n N] DIR")
		os.Exit(2)
	}
	write := func(dir string) error { return gen.Workspace(dir, *n, *clean) }
	if *inline {
		write = func(dir string) error { return gen.InlineWorkspace(dir, *n) }
	}
	if err := write(flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "genhooks:", err)
		os.Exit(1)
	}
}
