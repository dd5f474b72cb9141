// Command gen writes the handler scripts of the example workspace from the
// templates: go generate ./templates runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hookctl/hookctl/internal/examples"
)

func main() {
	dir := flag.String("dir", "examples/.agents/hooks", "the folder to write the handler scripts in")
	flag.Parse()
	if err := examples.Write(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
