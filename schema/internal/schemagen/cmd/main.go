// Command schemagen writes the JSON Schemas that package schema embeds,
// generated from its Go types. go generate ./schema runs it in the
// package's folder.
package main

import (
	"fmt"
	"os"

	"github.com/hookctl/hookctl/schema/internal/schemagen"
)

func main() {
	if err := schemagen.Write("."); err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
}
