package lint

import (
	"fmt"
	"io"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// GitHubPrinter writes GitHub Actions workflow commands, which GitHub shows
// as annotations on the lines at fault.
type GitHubPrinter struct{}

var (
	// GitHub's escaping for a command's message and for its properties.
	ghData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// Print writes the findings.
func (GitHubPrinter) Print(w io.Writer, r *Result) error {
	for _, f := range r.Findings {
		level := "error"
		switch f.Severity {
		case Warning:
			level = "warning"
		case Info:
			level = "notice"
		}
		if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			level, ghProperty.Replace(f.File), f.Span.Start.Line, f.Span.Start.Col, f.Span.End.Line, f.Span.End.Col,
			ghProperty.Replace(f.Rule), ghData.Replace(schema.VisibleText(f.Message))); err != nil {
			return err
		}
	}
	return nil
}
