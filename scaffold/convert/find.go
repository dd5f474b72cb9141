package convert

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Places are where each agent keeps a workspace's hooks, in the order
// Find looks for them.
var Places = []string{
	".claude/settings.json",
	".claude/settings.local.json",
	".gemini/settings.json",
	".cursor/hooks.json",
	".codex/hooks.json",
	// A hooks.json that holds another agent's configuration (or mixes
	// its events in) is converted in place.
	".agents/hooks.json",
}

// Find looks for the one hook configuration of another agent in the
// workspace dir, and returns its path under shownDir, the name the user
// gave dir. None, or more than one, is an error that says what to do.
func Find(shownDir, dir string) (string, error) {
	var found []string
	var unread *FormatError
	for _, p := range Places {
		full := filepath.Join(dir, p)
		if _, err := os.Stat(full); err == nil {
			src, err := Read(dir, full, "")
			var fe *FormatError
			switch {
			case err == nil && src != nil:
				found = append(found, filepath.Join(shownDir, p))
			case errors.As(err, &fe) && fe.Syntax && unread == nil && p != ".agents/hooks.json":
				// Another agent's file that is not JSON is named with
				// what is wrong, not passed over in silence as one
				// without hooks is.
				unread = &FormatError{Path: filepath.Join(shownDir, p), Pos: fe.Pos, Msg: fe.Msg}
			}
		}
	}
	switch {
	case len(found) == 0 && unread != nil:
		return "", fmt.Errorf("%v: fix it and run hookctl import again, or name the FILE to import", unread)
	case len(found) == 0:
		return "", fmt.Errorf("no hook configuration of another agent in %s (looked for %s): name the FILE to import", shownDir, strings.Join(Places, ", "))
	case len(found) == 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s hold hooks: name the FILE to import, one at a time", strings.Join(found, " and "))
}
