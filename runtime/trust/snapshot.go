package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// HooksFile is the workspace's hooks.json, relative to the workspace root.
const HooksFile = ".agents/hooks.json"

// State says what a named file was when a snapshot was taken.
type State string

// The states of a file.
const (
	// Present: a regular file (or a link to one), hashed.
	Present State = "file"
	// Missing: nothing there yet. Creating it later withdraws the trust.
	Missing State = "missing"
	// NotFile: a folder or a device, which nothing runs.
	NotFile State = "not-a-file"
	// Unreadable: it exists but could not be read.
	Unreadable State = "unreadable"
)

// File is one file a snapshot covers.
type File struct {
	// Path is the file relative to the workspace root, with forward
	// slashes: ".agents/hooks.json", ".agents/hooks/guard.sh".
	Path string
	// State says whether it was there.
	State State
	// SHA256 is the hex SHA-256 of its content, for a Present file.
	SHA256 string
	// Size is its size in bytes, for a Present file.
	Size int64
	// Content is the file's bytes, for a Present file no larger than
	// MaxKeptFile; nil for larger ones, which are hashed as a stream.
	Content []byte
}

// Command is one handler's command as a snapshot shows it.
type Command struct {
	Hook    string
	Event   schema.Event
	Matcher string
	Command string
	// Pos is where the handler stands in hooks.json.
	Pos schema.Pos
	// Files are the paths (as in File.Path) the command names inside the
	// workspace; Outside are the ones it names outside, which a clone
	// cannot bring and the fingerprint does not cover.
	Files   []string
	Outside []string
}

// Snapshot is a workspace's hooks as they stand: hooks.json, the files its
// commands name, and the fingerprint over all of them.
type Snapshot struct {
	// Root is the workspace folder, an absolute real path.
	Root string
	// Files are hooks.json first, then the named files by path.
	Files []File
	// Commands are every handler of the valid parts of hooks.json, in file
	// order.
	Commands []Command
	// Config is hooks.json as parsed.
	Config *schema.Config
	// Fingerprint is "sha256:" and the hex SHA-256 over every file's path,
	// state and hash.
	Fingerprint string
}

// MaxKeptFile is the largest file whose content a snapshot keeps for
// later diffs.
const MaxKeptFile = 64 << 10

// ErrNoHooks is returned by Take for a workspace without .agents/hooks.json.
var ErrNoHooks = errors.New("no .agents/hooks.json")

// Key returns the store's key for a workspace folder: its absolute path
// with every symbolic link resolved, so that one workspace reached by two
// paths is one entry, and a link swapped to another folder is not trusted
// by the old one's entry.
func Key(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Take reads the workspace rooted at root (an absolute real path, see
// Key) from disk.
func Take(root string) (*Snapshot, error) {
	p := filepath.Join(root, filepath.FromSlash(HooksFile))
	info, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoHooks
	}
	if err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	src, err := readBounded(p, maxHooksJSON)
	if err != nil {
		return nil, err
	}
	return FromConfig(root, schema.Parse(p, src)), nil
}

// maxHooksJSON bounds the hooks.json Take reads; the loader reads files
// of any size, but a trust decision over hundreds of megabytes helps
// nobody.
const maxHooksJSON = 64 << 20

func readBounded(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d MiB", p, limit>>20)
	}
	return b, nil
}

// FromConfig takes the snapshot of a workspace whose hooks.json is already
// loaded, so that the bytes judged are the bytes that run. The named files
// are read from disk.
func FromConfig(root string, cfg *schema.Config) *Snapshot {
	s := &Snapshot{Root: root, Config: cfg}
	s.Files = append(s.Files, hashBytes(HooksFile, cfg.Src))
	dir := filepath.Join(root, ".agents")
	named := map[string]bool{}
	if cfg.File != nil {
		for _, h := range cfg.File.Hooks {
			for _, e := range schema.Events {
				add := func(matcher string, hd *schema.Handler) {
					c := Command{Hook: h.Name, Event: e, Matcher: matcher, Command: hd.Command, Pos: hd.Pos}
					for _, p := range Named(hd.Command, dir, root) {
						if rel, ok := inside(root, p); ok {
							c.Files = append(c.Files, rel)
							named[rel] = true
						} else {
							c.Outside = append(c.Outside, p)
						}
					}
					s.Commands = append(s.Commands, c)
				}
				if e.IsTool() {
					for _, g := range h.Groups(e) {
						for i := range g.Hooks {
							add(g.MatcherText(), &g.Hooks[i])
						}
					}
					continue
				}
				hs := h.Handlers(e)
				for i := range hs {
					add("", &hs[i])
				}
			}
		}
	}
	slices.SortStableFunc(s.Commands, func(a, b Command) int { return a.Pos.Offset - b.Pos.Offset })
	paths := make([]string, 0, len(named))
	for p := range named {
		if p != HooksFile {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		s.Files = append(s.Files, hashFile(root, p))
	}
	s.Fingerprint = fingerprint(s.Files)
	return s
}

// inside returns p relative to root, with forward slashes, when p lies
// inside root.
func inside(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func hashBytes(rel string, b []byte) File {
	sum := sha256.Sum256(b)
	f := File{Path: rel, State: Present, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))}
	if len(b) <= MaxKeptFile {
		f.Content = b
	}
	return f
}

// hashFile hashes the file at root/rel, following links as the handler's
// exec would.
func hashFile(root, rel string) File {
	p := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid):
		return File{Path: rel, State: Missing}
	case err != nil:
		return File{Path: rel, State: Unreadable}
	case !info.Mode().IsRegular():
		return File{Path: rel, State: NotFile}
	}
	if info.Size() <= MaxKeptFile {
		b, err := os.ReadFile(p)
		if err != nil {
			return File{Path: rel, State: Unreadable}
		}
		if len(b) <= MaxKeptFile {
			return hashBytes(rel, b)
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return File{Path: rel, State: Unreadable}
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return File{Path: rel, State: Unreadable}
	}
	return File{Path: rel, State: Present, SHA256: hex.EncodeToString(h.Sum(nil)), Size: n}
}

// fingerprint hashes the files' paths, states and hashes, one line each.
func fingerprint(files []File) string {
	h := sha256.New()
	io.WriteString(h, "hookctl trust v1\n")
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", f.Path, f.State, f.SHA256)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
