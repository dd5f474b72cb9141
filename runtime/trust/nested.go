package trust

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// nested covers what a hookctl command of a handler runs
// (shellcmd.Nested), as trust covers the workspace's own hooks: the
// hooks.json files of "hookctl run --config F" and "hookctl test
// [--config F] [--workspace D] [FILE]", the test files hookctl test reads,
// and every file their handlers run, read as the workspace's commands
// are. The workspace's own hooks.json, which hookctl test runs from its
// folder, is read once. It returns what it names beside the gaps of the
// commands it reads, which it adds to cmd itself.
func (c *coverage) nested(cmd *Command, n shellcmd.Nested, depth int) []string {
	if depth >= maxFollow {
		return []string{fmt.Sprintf("runs hookctl %s from hooks that hookctl runs more than %d deep: what it runs is not followed", n.Verb, maxFollow)}
	}
	ws := c.root // what $HOOKCTL_WORKSPACE holds for the handlers it runs
	if n.Workspace != "" {
		ws = n.Workspace
	}
	var gaps []string
	for _, p := range n.Configs {
		gaps = append(gaps, c.hooksFile(cmd, p, "hooks.json whose handlers hookctl "+n.Verb+" --config runs, by "+cmd.Hook, ws, depth+1)...)
	}
	if n.Verb != "test" || n.User || len(n.Configs) > 0 && n.Contract {
		return gaps
	}
	if n.Contract {
		// --contract runs the handlers of the workspace's hooks.json.
		return append(gaps, c.hooksFile(cmd, filepath.Join(n.Workspace, filepath.FromSlash(HooksFile)), "hooks.json whose handlers hookctl test --contract runs, by "+cmd.Hook, n.Workspace, depth+1)...)
	}
	// Where hookctl test finds its workspace decides which files run: a
	// new .agents or .git on the way changes it.
	for _, p := range n.Looked {
		c.probe(p)
	}
	for _, t := range n.Tests {
		file := t
		c.probe(t)
		if info, err := os.Stat(t); err == nil && info.IsDir() {
			file = filepath.Join(t, filepath.FromSlash(shellcmd.TestFile))
		}
		// The cases choose which handlers run, with which payloads.
		c.coverPath(cmd, file, "test cases hookctl test runs, by "+cmd.Hook, false)
		if len(n.Configs) > 0 {
			continue
		}
		w := n.Workspace
		if w == "" {
			w = shellcmd.TestWorkspace(file, n.Here)
		}
		gaps = append(gaps, c.hooksFile(cmd, filepath.Join(w, filepath.FromSlash(HooksFile)), "hooks.json whose handlers hookctl test runs, trusted or not, by "+cmd.Hook, w, depth+1)...)
	}
	return gaps
}

// hooksFile covers the hooks.json at p (absolute) and reads the command
// of each of its handlers, run in p's folder with $HOOKCTL_WORKSPACE ws,
// for cmd. A file outside the workspace is read too: its handlers may run
// the workspace's files.
func (c *coverage) hooksFile(cmd *Command, p, why, ws string, depth int) []string {
	f, real := c.coverPath(cmd, p, why, false)
	if c.hooksRead[real] {
		return nil
	}
	c.hooksRead[real] = true
	shown := schema.Visible(real)
	if rel, ok := c.rel(real); ok {
		shown = schema.Visible(rel)
	}
	var src []byte
	switch {
	case f != nil && f.State == Present:
		src = c.content(f, real)
	case f != nil:
		return nil // missing (covered: creating it withdraws the trust), or refused
	case schema.ProcessFile(real) != "":
		return []string{fmt.Sprintf("runs the hooks of %s, which names something of the process that opens it: what they run is not known", shown)}
	default:
		b, err := schema.ReadFile(real, schema.MaxFileSize)
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return []string{fmt.Sprintf("runs the hooks of %s, which %s: what they run is not known", shown, schema.ReadReason(err))}
		}
		src = b
	}
	cfg := schema.Parse(real, src)
	dir := filepath.Dir(p)
	for h, hd := range cfg.File.AllHandlers() {
		at := fmt.Sprintf("%s:%d (%s): ", shown, hd.Pos.Line, schema.Visible(h.Hook.Name))
		c.readCommand(cmd, hd.Command, dir, ws, h.Hook.Name, at, depth)
	}
	return nil
}
