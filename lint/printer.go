package lint

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Printer writes a run's findings in one output format.
type Printer interface {
	Print(w io.Writer, r *Result) error
}

// Formats lists the output formats by name.
var Formats = map[string]func() Printer{
	"text":   func() Printer { return &TextPrinter{} },
	"json":   func() Printer { return JSONPrinter{} },
	"sarif":  func() Printer { return SARIFPrinter{} },
	"github": func() Printer { return GitHubPrinter{} },
}

// FormatNames returns the format names, sorted.
func FormatNames() []string {
	names := make([]string, 0, len(Formats))
	for n := range Formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewPrinter returns the printer of the named format.
func NewPrinter(format string) (Printer, error) {
	p, ok := Formats[format]
	if !ok {
		return nil, fmt.Errorf("unknown format %q: use %s", format, strings.Join([]string{"text", "json", "sarif", "github"}, ", "))
	}
	return p(), nil
}
