// Package scope says where each hooks.json lives: the user's file in the
// home folder, a workspace's in its .agents folder, or a file the caller
// names; and it finds the workspace a command works on when it is given
// none, as git finds its repository (Find).
package scope

import (
	"fmt"
	"path/filepath"
)

// Scope says which hooks.json a file is, which decides where its handlers
// run, whether trust guards it, and which lint rules apply.
type Scope uint8

// The scopes. The zero Scope is Workspace: a file is taken as a
// workspace's, shared and untrusted, unless it is known to be another's.
const (
	// Workspace is a workspace's file, <root>/.agents/hooks.json, shared
	// with whoever clones the workspace. A file linted by its path that is
	// not the user's counts as a workspace's.
	Workspace Scope = iota
	// User is the user's file, ~/.gemini/config/hooks.json: one person's
	// hooks, for every workspace. It is read before the workspace's.
	User
	// Named is a file the caller names (run --config), which replaces the
	// other two and is trusted: the caller chose it.
	Named
)

// String is the scope's name as hookctl prints it: "user", "workspace",
// or "config" for a named file.
func (s Scope) String() string {
	switch s {
	case User:
		return "user"
	case Workspace:
		return "workspace"
	}
	return "config"
}

// Choices are the scopes a person picks a hooks.json by (init --scope,
// import --scope), the default first.
var Choices = []string{Workspace.String(), User.String()}

// Parse reads the name of a scope a person picks: workspace or user.
func Parse(name string) (Scope, error) {
	switch name {
	case "workspace":
		return Workspace, nil
	case "user":
		return User, nil
	}
	return 0, fmt.Errorf("the scope must be workspace or user, not %q", name)
}

// UserFile returns the user's hooks.json under the home folder.
func UserFile(home string) string {
	return filepath.Join(UserDir(home), "hooks.json")
}

// UserDir returns the folder of the user's hooks.json, where its handlers
// run.
func UserDir(home string) string {
	return filepath.Join(home, ".gemini", "config")
}

// AgentsDir is the name of the workspace's folder that holds its
// hooks.json, where the workspace's handlers run.
const AgentsDir = ".agents"

// WorkspaceFile returns the hooks.json of the workspace whose root folder
// is root.
func WorkspaceFile(root string) string {
	return filepath.Join(root, AgentsDir, "hooks.json")
}

// TestFile is a workspace's test cases (hookctl test), relative to its
// root.
const TestFile = AgentsDir + "/hooks.test.json"

// Of names the scope of the hooks.json at path and, for a workspace file in
// a .agents folder, the workspace's root ("" otherwise). The user's file
// is the one in home's .gemini/config; every other file is a workspace's.
func Of(path, home string) (Scope, string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	dir := filepath.Dir(abs)
	if home != "" {
		if h, err := filepath.Abs(home); err == nil && dir == UserDir(h) {
			return User, ""
		}
	}
	if filepath.Base(dir) == AgentsDir {
		return Workspace, filepath.Dir(dir)
	}
	return Workspace, ""
}
