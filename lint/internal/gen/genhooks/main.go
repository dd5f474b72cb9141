// Command genhooks writes a workspace whose .agents/hooks.json holds N
// hooks, for timing hookctl lint:
//
//	go run ./lint/internal/gen/genhooks [-clean] -n 10000 /tmp/big
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
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: genhooks [-clean] [-n N] DIR")
		os.Exit(2)
	}
	if err := gen.Workspace(flag.Arg(0), *n, *clean); err != nil {
		fmt.Fprintln(os.Stderr, "genhooks:", err)
		os.Exit(1)
	}
}
