package trust

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// WriteReview writes what trusting the workspace lets run, as hookctl
// trust shows it before asking: each handler's command, each file the
// trust covers, the names that look like others, what it cannot cover, the
// logs hookctl writes, and what the agent makes of hooks.json. Every string
// from the workspace is shown with its control characters made visible: a
// command must not hide behind escape sequences.
func (snap *Snapshot) WriteReview(w io.Writer) error {
	var b bytes.Buffer
	cfg := snap.Config
	fmt.Fprintf(&b, "Workspace %s\n", schema.Visible(snap.Root))
	if len(snap.Commands) == 0 {
		fmt.Fprintf(&b, "%s defines no handlers.\n", HooksFile)
	} else {
		fmt.Fprintf(&b, "Its hooks run these commands, in %s:\n", schema.Visible(filepath.Join(snap.Root, ".agents")))
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, c := range snap.Commands {
			on := string(c.Event)
			if c.Event.IsTool() {
				m := c.Matcher
				if m == "" {
					m = "*"
				}
				on += " " + schema.Visible(m)
			}
			state := ""
			if h := hookByName(cfg, c.Hook); h != nil && !h.IsEnabled() {
				state = " (disabled)"
			}
			fmt.Fprintf(tw, "  %s\t%s:%d\t%s\t%s%s\n", schema.Visible(c.Hook), HooksFile, c.Pos.Line, on, schema.Visible(c.Command), state)
		}
		tw.Flush()
	}
	fmt.Fprintf(&b, "Files covered:\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	hidden := 0
	for _, f := range snap.Files {
		name := schema.Visible(f.Path)
		switch {
		case f.Alternative && f.State == Missing:
			hidden++
		case f.State == Present:
			fmt.Fprintf(tw, "  %s\t%d bytes\tsha256 %s\n", name, f.Size, f.SHA256[:16])
		case f.State == Missing:
			fmt.Fprintf(tw, "  %s\tnot there\tcreating it withdraws the trust\n", name)
		case f.State == Unreadable && f.Special != "":
			fmt.Fprintf(tw, "  %s\t%s\tnot read: a symbolic link on its way leads out of the repository\n", name, f.State)
		case f.Special != "":
			fmt.Fprintf(tw, "  %s\t%s\t%s: no hook may run it\n", name, f.State, schema.Visible(f.Special))
		default:
			fmt.Fprintf(tw, "  %s\t%s\t\n", name, f.State)
		}
	}
	tw.Flush()
	if hidden > 0 {
		fmt.Fprintf(&b, "  and %d file(s) an interpreter would run instead if they existed (node's .js/.mjs, Python packages): creating one withdraws the trust\n", hidden)
	}
	snap.writeLookAlikes(&b)
	if lines := snap.NotCovered(""); len(lines) > 0 {
		fmt.Fprintf(&b, "Not covered:\n")
		for _, l := range lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	var logs []string
	for _, c := range snap.Commands {
		for _, l := range c.Logs {
			logs = append(logs, fmt.Sprintf("  %s:%d (%s): %s\n", HooksFile, c.Pos.Line, schema.Visible(c.Hook), l))
		}
	}
	if len(logs) > 0 {
		fmt.Fprintf(&b, "Logs hookctl writes (never through a link that leads out of the workspace):\n")
		for _, l := range logs {
			b.WriteString(l)
		}
	}
	// What the agent makes of the file is the one verdict list, lint,
	// run --explain and doctor show: a file it drops is said so, and a
	// part it reads as meant (a key in another case) is no problem.
	src := &runtime.Source{Path: filepath.Join(snap.Root, HooksFile), Exists: true, Config: cfg}
	if why, ok := src.AgentDrops(); ok {
		fmt.Fprintf(&b, "The agent (agy) loads none of %s's hooks (%s:%s); hookctl runs its valid parts. 'hookctl lint %s' says why.\n", HooksFile, HooksFile, schema.Visible(why), schema.Visible(snap.Root))
	}
	n := 0
	if v := src.Verdict(); v != nil {
		for i := range cfg.Problems {
			if p := &cfg.Problems[i]; p.Dropped != "" || v.ImpactOf(p) != schema.NoImpact {
				n++
			}
		}
	}
	if n > 0 {
		fmt.Fprintf(&b, "hooks.json has %d part(s) that cannot run; 'hookctl lint %s' shows them.\n", n, schema.Visible(snap.Root))
	}
	_, err := w.Write(b.Bytes())
	return err
}

func hookByName(cfg *schema.Config, name string) *schema.HookDefinition {
	if cfg.File == nil {
		return nil
	}
	for _, h := range cfg.File.Hooks {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// writeLookAlikes names the hook names and covered files that read as
// others (schema.LookAlike): a Cyrillic а in hooks/gаte.sh beside the real
// gate.sh shows the same in the lists above.
func (snap *Snapshot) writeLookAlikes(b *bytes.Buffer) {
	var lines []string
	seen := map[string]bool{}
	for _, c := range snap.Commands {
		if note := schema.LookAlikeHook(c.Hook, HooksFile, c.Pos.Line); note != "" && !seen["\x00"+c.Hook] {
			seen["\x00"+c.Hook] = true
			lines = append(lines, "  "+note+"\n")
		}
	}
	for _, f := range snap.Files {
		rel, err := filepath.Rel(snap.Root, f.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = f.Path
		}
		if why := schema.LookAlike(rel); why != "" && !seen[f.Path] {
			seen[f.Path] = true
			lines = append(lines, fmt.Sprintf("  %s %s; it reads as %s\n", schema.Visible(f.Path), why, schema.Visible(schema.LookAlikeAs(f.Path))))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "Names that look like others (compare them with the files you expect):\n")
	for _, l := range lines {
		b.WriteString(l)
	}
}

// NotCovered returns what the trust cannot cover of the handlers of hook
// (of every hook when hook is ""), one line each, as the review lists it:
// the files named outside the workspace, then what each command runs that
// no reading can know before it runs, at its line of hooks.json. Strings
// from the workspace are made visible.
func (snap *Snapshot) NotCovered(hook string) []string {
	var lines, outside []string
	seen := map[string]bool{}
	for _, c := range snap.Commands {
		if hook != "" && c.Hook != hook {
			continue
		}
		for _, o := range c.Outside {
			if !seen[o] {
				seen[o] = true
				outside = append(outside, schema.Visible(o))
			}
		}
	}
	if len(outside) > 0 {
		sort.Strings(outside)
		lines = append(lines, "named outside the workspace, which a clone cannot change: "+strings.Join(outside, ", "))
	}
	for _, c := range snap.Commands {
		if hook != "" && c.Hook != hook {
			continue
		}
		for _, g := range c.Gaps {
			lines = append(lines, fmt.Sprintf("%s:%d (%s): %s", HooksFile, c.Pos.Line, schema.Visible(c.Hook), schema.Visible(g)))
		}
	}
	return lines
}
