package export

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/hookctl/hookctl/schema"
)

// WorkspaceEvents reads the workspace's hooks.json, file, and returns the
// events its enabled hooks use, each once, as the hooks first use them:
// those export wires. shown names the file in errors, which say what to
// do.
func WorkspaceEvents(file, shown string) ([]schema.Event, error) {
	c, err := schema.Load(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist: there are no hooks to export (create them with hookctl init, or bring them over with hookctl import)", shown)
	}
	if ol := (*schema.OutsideLinkError)(nil); errors.As(err, &ol) {
		return nil, fmt.Errorf("%s %s", shown, ol.Reason())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", shown, err)
	}
	if c.Syntax != nil {
		return nil, fmt.Errorf("%s:%d:%d: %s: fix it first (hookctl lint %s)", shown, c.Syntax.Pos.Line, c.Syntax.Pos.Col, c.Syntax.Msg, shown)
	}
	var events []schema.Event
	seen := map[schema.Event]bool{}
	if c.File != nil {
		for _, h := range c.File.Hooks {
			if h.Enabled != nil && !*h.Enabled {
				continue
			}
			for _, e := range schema.Events {
				if h.HasEvent(e) && !seen[e] {
					seen[e] = true
					events = append(events, e)
				}
			}
		}
	}
	return events, nil
}
