package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hookctl/hookctl/schema"
)

// ErrRulesFormat is PrintRules's answer to a format other than text and
// json.
var ErrRulesFormat = errors.New("the rules print as text or json")

// PrintRules prints the rule catalogue as a choice sets it
// (Choice.Describe): as "text", a table for people, or as "json", an
// array of objects.
func PrintRules(w io.Writer, format string, rules []ChosenRule) error {
	switch format {
	case "text":
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tSEVERITY\tCATCHES")
		for _, r := range rules {
			level := r.Level
			if r.From != "" {
				level += " (" + schema.Visible(r.From) + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, level, r.Summary)
		}
		return tw.Flush()
	case "json":
		type rule struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Default  string `json:"default"`
			From     string `json:"from,omitempty"`
			Summary  string `json:"summary"`
		}
		out := make([]rule, len(rules))
		for i, r := range rules {
			out[i] = rule{r.ID, r.Level, r.SeverityText(), r.From, r.Summary}
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return ErrRulesFormat
}
