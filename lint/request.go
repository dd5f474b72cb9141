package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// NewRequest says what to lint for the paths of a command line, as
// hookctl lint reads them: a hooks.json; a folder, meaning its
// .agents/hooks.json (compared with the user's file, and searched for
// misplaced configurations); or, with no path, the .agents/hooks.json of
// the workspace found from the current folder upward (scope.Here), named
// from the current folder, and the user's file, whichever exist. Each file's rules are chosen by the
// .hookctl.json found upward from it (Target.Config). home is the user's home folder, "" when
// unknown. The error names a path that is missing or cannot be read, or
// says what was looked for when there is nothing to lint.
func NewRequest(paths []string, home string) (Request, error) {
	req, err := newRequest(paths, home)
	if err != nil {
		return req, err
	}
	// Each file's rules are chosen by the .hookctl.json found upward from
	// it; a file that cannot be used stops the run.
	cache := map[string]*schema.LoadedConfig{}
	for _, list := range [][]Target{req.Files, req.Context} {
		for i := range list {
			if list[i].Config, err = loadConfigFor(filepath.Dir(list[i].Path), cache); err != nil {
				return req, err
			}
		}
	}
	for i := range req.Workspaces {
		if req.Workspaces[i].Config, err = loadConfigFor(req.Workspaces[i].Dir, cache); err != nil {
			return req, err
		}
	}
	if req.Home != nil && req.Home.Dir != "" {
		if req.Home.Config, err = loadConfigFor(req.Home.Dir, cache); err != nil {
			return req, err
		}
	}
	return req, nil
}

func newRequest(paths []string, home string) (Request, error) {
	var req Request
	target := func(path string) Target { return TargetOf(path, home) }
	if len(paths) == 0 {
		// The workspace of the current folder, found upward as every
		// command finds it, named from the current folder.
		found, err := scope.Here()
		if err != nil {
			return req, err
		}
		dir, name := found.Shown(), found.Shown()
		if dir == "." {
			name = ""
		}
		ws := filepath.Join(dir, scope.AgentsDir, "hooks.json")
		looked := []string{ws}
		if isFile(ws) {
			req.Files = append(req.Files, target(ws))
		}
		if home != "" {
			looked = append(looked, scope.UserFile(home))
			if isFile(scope.UserFile(home)) {
				req.Files = append(req.Files, target(scope.UserFile(home)))
			}
		}
		// A hooks.json where the agent does not look, alone, is what
		// misplaced-config reports: lint says so rather than finding nothing.
		if len(req.Files) == 0 && !hasMisplaced(dir, misplacedWorkspace) && (home == "" || !hasMisplaced(home, misplacedHome)) {
			return req, fmt.Errorf("no hooks.json to lint: looked for %s; name a file or folder to lint", strings.Join(looked, " and "))
		}
		req.Workspaces = []Place{{Dir: dir, Name: name}}
		if home != "" {
			req.Home = &Place{Dir: home, Name: home}
		}
		return req, nil
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return req, fmt.Errorf("%s: no such file or folder", p)
		case err != nil:
			return req, fmt.Errorf("%s: %v", p, pathError(err))
		case info.IsDir():
			f := filepath.Join(p, ".agents", "hooks.json")
			if !isFile(f) {
				if !hasMisplaced(p, misplacedWorkspace) {
					return req, fmt.Errorf("%s: no .agents/hooks.json in this folder (workspace hooks live in FOLDER/.agents/hooks.json)", p)
				}
				// Only a misplaced file: misplaced-config reports it.
				req.Workspaces = append(req.Workspaces, Place{Dir: p, Name: p})
				continue
			}
			req.Files = append(req.Files, target(f))
			req.Workspaces = append(req.Workspaces, Place{Dir: p, Name: p})
			if len(req.Context) == 0 && home != "" && isFile(scope.UserFile(home)) {
				req.Context = append(req.Context, target(scope.UserFile(home)))
			}
		case !info.Mode().IsRegular():
			// Opening a FIFO would wait for a writer for ever.
			return req, fmt.Errorf("%s: not a regular file (a pipe, device or socket): name the hooks.json file itself", p)
		default:
			fh, _, err := schema.OpenRegular(p)
			var ol *schema.OutsideLinkError
			switch {
			case errors.As(err, &ol):
				// Not read: outside-link names it.
			case err != nil:
				return req, fmt.Errorf("%s: %v", p, pathError(err))
			default:
				fh.Close()
			}
			t := target(p)
			req.Files = append(req.Files, t)
			if t.Scope == User && req.Home == nil {
				req.Home = &Place{Dir: home, Name: home}
			}
		}
	}
	return req, nil
}

// hasMisplaced reports whether dir holds a hooks.json at one of the
// places (relative to dir) where the agent does not read it.
func hasMisplaced(dir string, places []string) bool {
	for _, p := range places {
		if isFile(filepath.Join(dir, p)) {
			return true
		}
	}
	return false
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// pathError drops the path from an error that the message already names.
func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
