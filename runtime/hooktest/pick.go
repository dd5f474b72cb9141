package hooktest

import (
	"errors"
	"fmt"
	"os"

	"github.com/hookctl/hookctl/schema/scope"
)

// LoadAll loads every test file before any case runs, so that a mistake in
// one is reported before the others spend time. Its mistakes are one error
// each, in the files' order: a Problem of a file, or a file that cannot be
// read (ErrNotFound when it does not exist).
func LoadAll(files []string) ([]*Suite, []error) {
	var suites []*Suite
	var mistakes []error
	for _, f := range files {
		suite, err := Load(Resolve(f))
		var ps Problems
		switch {
		case err == nil:
			suites = append(suites, suite)
		case errors.As(err, &ps):
			for _, p := range ps {
				mistakes = append(mistakes, p)
			}
		default:
			mistakes = append(mistakes, err)
		}
	}
	return suites, mistakes
}

// Batch is the cases of one test file that a run selects, with the
// workspace their payloads name.
type Batch struct {
	Suite     *Suite
	Cases     []*Case
	Workspace string
}

// Batches selects the cases of suites whose names match accepts (nil
// accepts every case). Each file's cases run in workspace, or when it is
// "", in the workspace the file belongs to (WorkspaceOf, root for a file
// kept elsewhere).
func Batches(suites []*Suite, match func(string) bool, workspace, root string) []Batch {
	batches := make([]Batch, 0, len(suites))
	for _, s := range suites {
		ws := workspace
		if ws == "" {
			ws = WorkspaceOf(s.Path, root)
		}
		batches = append(batches, Batch{Suite: s, Cases: s.Select(match), Workspace: ws})
	}
	return batches
}

// CheckFiles says which of paths is not a file, nil when every one is.
func CheckFiles(paths []string) error {
	for _, p := range paths {
		if !isFile(p) {
			return fmt.Errorf("%s: no such file", p)
		}
	}
	return nil
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// Target names what a contract check reads, as hookctl test --contract's
// flags do.
type Target struct {
	// Configs are the hooks.json files named (--config).
	Configs []string
	// Workspace is the workspace named (--workspace), "" for Root.
	Workspace string
	// User asks for the user's hooks.json (--user).
	User bool
	// Root is the workspace found from the current folder; Home the
	// user's home folder.
	Root, Home string
}

// Files picks the hooks.json files of a contract check and the workspace
// their payloads name: the files of Configs; the user's with User; else
// the workspace's, and outside a workspace the user's, which note then
// says.
func (t Target) Files() (configs []string, workspace, note string, err error) {
	ws := t.Workspace
	if len(t.Configs) > 0 {
		if err := CheckFiles(t.Configs); err != nil {
			return nil, "", "", fmt.Errorf("--config %w", err)
		}
		return t.Configs, ws, "", nil
	}
	user := scope.UserFile(t.Home)
	if ws == "" {
		ws = t.Root
	}
	if t.User {
		if !isFile(user) {
			return nil, "", "", fmt.Errorf("%s: no such file: the user has no hooks.json", user)
		}
		return []string{user}, ws, "", nil
	}
	file := scope.WorkspaceFile(ws)
	switch {
	case isFile(file):
		return []string{file}, ws, "", nil
	case t.Workspace != "":
		return nil, "", "", fmt.Errorf("%s: no such file: the workspace %s has no hooks", file, t.Workspace)
	case isFile(user):
		return []string{user}, ws, fmt.Sprintf("no .agents/hooks.json here: checking the user's %s", user), nil
	}
	return nil, "", "", fmt.Errorf("no hooks.json to check: neither .agents/hooks.json here nor %s exists; run it in a workspace, or name a file with --config", user)
}
