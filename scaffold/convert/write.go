package convert

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// Renamed is a converted hook whose name the target file already used.
type Renamed struct {
	From, To string
	// Pos is where the hook of that name stands in the target file.
	Pos schema.Pos
}

// Merged is the content to write to the target hooks.json.
type Merged struct {
	// Path is the target file; Src its new content, Old what it held when
	// read (nil when it did not exist): the write is refused when the file
	// holds anything else by then.
	Path string
	Src  []byte
	Old  []byte
	// Created is set when the file did not exist; Replaced when the target
	// is the source itself, another agent's file the agent ignores, whose
	// content the converted hooks replace.
	Created, Replaced bool
	// Original is the replaced file's content, which Write keeps beside it
	// (in Backup) so that nothing the user wrote is lost: what the
	// conversion could not carry over is still there to port by hand.
	Original []byte
	Backup   string
	// Renamed lists the hooks renamed for names the file already used.
	Renamed []Renamed
	// Unchanged lists the hooks the file already has, word for word (under
	// their name, or the free name an earlier import gave them): an import
	// run twice adds nothing the second time.
	Unchanged []Renamed
	// Added counts the hooks added.
	Added int
}

// Merge computes the target hooks.json with the converted hooks added at
// its end, every byte of the existing file kept. A hook whose name the
// file already uses gets a free name (gate-2): an existing hook is never
// replaced. A target that cannot be read or parsed is refused.
func (r *Result) Merge(target string) (*Merged, error) {
	return r.merge(target, scaffold.LoadExisting)
}

// MergeUnder is Merge with the target read under tx's lock of its folder
// and through its bounds, as init and export read the file they edit: what
// is merged is what the write will replace.
func (r *Result) MergeUnder(tx *scaffold.Tx, target string) (*Merged, error) {
	return r.merge(target, tx.Load)
}

func (r *Result) merge(target string, load func(string) (*scaffold.Existing, error)) (*Merged, error) {
	m := &Merged{Path: target}
	if sameFile(target, r.Source.Abs) {
		m.Src, m.Replaced, m.Added = r.JSON(), true, len(r.Hooks)
		m.Original, m.Old = r.Source.Src, r.Source.Src
		return m, nil
	}
	x, err := load(target)
	if err != nil {
		return nil, err
	}
	m.Old = x.Src
	if x.Src == nil {
		m.Src, m.Created, m.Added = r.JSON(), true, len(r.Hooks)
		return m, nil
	}
	if x.Config != nil {
		if f, foreign := schema.DetectForeign(x.Config.Root); foreign {
			return nil, fmt.Errorf("%s:%d:%d: %s: import it first, or move it aside", target, f.Span.Start.Line, f.Span.Start.Col, f.Message(target))
		}
	}
	hooks := make([]scaffold.NamedHook, 0, len(r.Hooks))
	used := map[string]bool{}
	for _, h := range r.Hooks {
		used[h.Name] = true
	}
	for _, h := range r.Hooks {
		name := h.Name
		if pos, same := sameHook(x, h); same {
			m.Unchanged = append(m.Unchanged, Renamed{From: name, To: name, Pos: pos})
			continue
		}
		if pos, taken := x.Taken(name); taken {
			name = freeName(x, h.Name, used)
			m.Renamed = append(m.Renamed, Renamed{From: h.Name, To: name, Pos: pos})
		}
		used[name] = true
		hooks = append(hooks, scaffold.NamedHook{Name: name, Def: *h.Def})
	}
	m.Added = len(hooks)
	if len(hooks) == 0 {
		m.Src = x.Src
		return m, nil
	}
	src, err := scaffold.AddHooks(x.Src, hooks...)
	if err != nil {
		var se *schema.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s:%d:%d: %s: fix it first, as import never edits a file it cannot read", target, se.Pos.Line, se.Pos.Col, se.Msg)
		}
		return nil, fmt.Errorf("%s: %w", target, err)
	}
	m.Src = src
	return m, nil
}

// sameHook reports whether the file has the hook under its name with the
// same definition.
func sameHook(x *scaffold.Existing, h Hook) (schema.Pos, bool) {
	if x.Config == nil || x.Config.File == nil {
		return schema.Pos{}, false
	}
	want, err := MarshalHook(h.Def, "")
	if err != nil {
		return schema.Pos{}, false
	}
	for _, e := range x.Config.File.Hooks {
		// An earlier import may have given the hook a free name (stop-2).
		if e.Name != h.Name && !isFreeName(e.Name, h.Name) {
			continue
		}
		if have, err := MarshalHook(withTypes(e), ""); err == nil && string(have) == string(want) {
			return e.Pos, true
		}
	}
	return schema.Pos{}, false
}

// isFreeName reports whether name is base-N, as freeName makes them.
func isFreeName(name, base string) bool {
	n, ok := strings.CutPrefix(name, base+"-")
	if !ok || n == "" {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// withTypes returns a copy of a hook definition whose handlers all name
// their type, as converted handlers do.
func withTypes(d *schema.HookDefinition) *schema.HookDefinition {
	c := *d
	fix := func(hs []schema.Handler) []schema.Handler {
		out := append([]schema.Handler(nil), hs...)
		for i := range out {
			if out[i].Type == "" {
				out[i].Type = "command"
			}
		}
		return out
	}
	for _, e := range schema.Events {
		if !e.IsTool() {
			c.SetHandlers(e, fix(d.Handlers(e)))
			continue
		}
		groups := append([]schema.MatcherGroup(nil), d.Groups(e)...)
		for i := range groups {
			groups[i].Hooks = fix(groups[i].Hooks)
		}
		c.SetGroups(e, groups)
	}
	return &c
}

// freeName finds a name neither the file nor the other converted hooks use.
func freeName(x *scaffold.Existing, base string, used map[string]bool) string {
	for i := 2; ; i++ {
		name := fmt.Sprintf("%s-%d", base, i)
		if _, taken := x.Taken(name); !taken && !used[name] {
			return name
		}
	}
}

// Write writes the merged file atomically through tx, whose bounds it
// stays in and whose lock of the target's folder the caller holds since
// MergeUnder read the file. A file it replaces is first kept as PATH.orig
// (PATH.orig2, ... when that is taken). A failed step undoes the ones
// before it.
func (m *Merged) Write(tx *scaffold.Tx) error {
	if m.Original != nil {
		backup := m.Path + ".orig"
		for i := 2; ; i++ {
			if _, err := os.Lstat(backup); errors.Is(err, fs.ErrNotExist) {
				break
			}
			backup = fmt.Sprintf("%s.orig%d", m.Path, i)
		}
		if err := tx.Write(scaffold.Edit{Path: backup, New: m.Original, Perm: 0o644}); err != nil {
			return scaffold.Rollback(tx, err)
		}
		m.Backup = backup
	}
	if err := tx.Write(scaffold.Edit{Path: m.Path, Old: m.Old, New: m.Src, Perm: 0o644}); err != nil {
		m.Backup = ""
		return scaffold.Rollback(tx, err)
	}
	return nil
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// Held returns, for each converted hook that the target hooks.json holds
// as converted (an earlier import wrote it), where it is there, by its
// index in r.Hooks. A target that does not exist holds none.
func (r *Result) Held(target string) (map[int]schema.Pos, error) {
	x, err := scaffold.LoadExisting(target)
	if err != nil {
		return nil, err
	}
	held := map[int]schema.Pos{}
	for i, h := range r.Hooks {
		if pos, same := sameHook(x, h); same {
			held[i] = pos
		}
	}
	return held, nil
}
