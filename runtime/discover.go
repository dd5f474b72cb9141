package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// Source is one hooks.json a dispatch reads.
type Source struct {
	// Path is the file's absolute path; Dir is the folder that holds it,
	// where its handlers run.
	Path string
	Dir  string
	// Scope says how the file was found: scope.User, scope.Workspace, or
	// scope.Named for a file named with --config.
	Scope scope.Scope
	// Exists is false for a discovered file that is not there, which is
	// normal: neither file is required.
	Exists bool
	// Err is why an existing file could not be read, in words that follow
	// its path ("cannot read it: permission denied").
	Err error
	// Config is the loaded file, nil when it does not exist or could not be
	// read. It may still hold a syntax error or invalid parts.
	Config *schema.Config
	// Trusted is false for a workspace file that Options.Trusted refused;
	// TrustNote says why.
	Trusted   bool
	TrustNote string

	// unfound marks the user file when there is no home folder to find it
	// in: Path is then "~/.gemini/config/hooks.json" and Err says why.
	unfound bool
	// unread marks a workspace file left unread because its workspace was
	// never trusted (Options.NeverTrusted).
	unread bool
	// verdict is what the agent makes of the file, once decided.
	verdict *schema.Verdict
}

// homelessUserFile stands for the user file when no home folder says where
// it is: it exists as far as the dispatch knows, and cannot be read.
func homelessUserFile(why string) *Source {
	return &Source{Path: "~/.gemini/config/hooks.json", Scope: scope.User, Exists: true, Trusted: true, unfound: true,
		Err: errors.New(why + "; the user's hooks ~/.gemini/config/hooks.json were not read (set HOME to the absolute path of your home folder)")}
}

// Discover returns the hooks.json files of a dispatch, in the order their
// hooks run: the files named in configs when there are any (each must
// exist), else the user file under home (skipped when home is "") and the
// workspace file under workspace. Each file is loaded; a file that cannot
// be read is kept with its error, to be reported as a failure.
func Discover(configs []string, home, workspace string) ([]*Source, error) {
	return discover(configs, home, workspace, nil)
}

// discover is Discover, leaving unread the workspace file of a workspace
// that neverTrusted (nil for none) says was never trusted.
func discover(configs []string, home, workspace string, neverTrusted func(string) bool) ([]*Source, error) {
	var srcs []*Source
	if len(configs) > 0 {
		for _, c := range configs {
			src := load(c, scope.Named)
			if !src.Exists {
				return nil, fmt.Errorf("--config %s: no such file", c)
			}
			srcs = append(srcs, src)
		}
		return srcs, nil
	}
	if home != "" {
		srcs = append(srcs, load(scope.UserFile(home), scope.User))
	}
	wf := scope.WorkspaceFile(workspace)
	if neverTrusted != nil {
		if fi, err := os.Stat(wf); err == nil && fi.Size() > UnreadSize && neverTrusted(wf) {
			return append(srcs, unreadWorkspaceFile(wf)), nil
		}
	}
	return append(srcs, load(wf, scope.Workspace)), nil
}

// UnreadSize is the size past which the workspace file of a workspace
// never trusted is not read at all (Options.NeverTrusted). A smaller one
// is read, at the cost of a millisecond or two, so that the dispatch still
// knows which events it has hooks for and says nothing for the others.
const UnreadSize = 256 << 10

// unreadWorkspaceFile stands for the workspace file of a workspace never
// trusted: when it exists, it is untrusted and not read.
func unreadWorkspaceFile(path string) *Source {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	src := &Source{Path: abs, Dir: filepath.Dir(abs), Scope: scope.Workspace}
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		return src
	}
	src.Exists, src.unread, src.TrustNote = true, true, "never trusted"
	return src
}

func load(path string, sc scope.Scope) *Source {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	src := &Source{Path: abs, Dir: filepath.Dir(abs), Scope: sc, Exists: true, Trusted: true}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		src.Exists = false
		return src
	case err == nil && info.IsDir():
		src.Err = errors.New("it is a folder, not a hooks.json file")
		return src
	case err == nil && !info.Mode().IsRegular():
		// A FIFO would block the read forever, a device never end.
		src.Err = fmt.Errorf("it is %s, not a regular file, so it is not read", schema.FileKind(info.Mode()))
		return src
	case err == nil:
		if err := UnsafeFile(abs, info); err != nil {
			src.Err = fmt.Errorf("refusing to read it: %v", err)
			return src
		}
	}
	cfg, err := schema.Load(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			src.Exists = false
			return src
		}
		src.Err = &readError{"it " + schema.ReadReason(err), err}
		return src
	}
	src.Config = cfg
	return src
}

// unwrapPath drops the path from an *fs.PathError, which the message
// already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// resolveWorkspace picks the workspace folder: the caller's choice, else the
// payload's first workspace, else the workspace found from dir, as every
// command finds it (scope.Find). A workspace found there that another user
// owns is not taken: dir is, and refused says why, to be reported.
func resolveWorkspace(flag string, p *Payload, dir string) (ws, refused string, err error) {
	ws = flag
	from := "--workspace"
	if ws == "" && p != nil && len(p.WorkspacePaths) > 0 && p.WorkspacePaths[0] != "" {
		ws, from = p.WorkspacePaths[0], "the payload's workspacePaths[0]"
	}
	if ws == "" {
		ws = dir
		f, ferr := scope.Find(dir)
		var other *scope.OtherOwnerError
		switch {
		case ferr == nil:
			ws = f.Root
		case errors.As(ferr, &other):
			refused = fmt.Sprintf("%v; this run takes the current folder %s as the workspace instead", ferr, strconv.Quote(dir))
		}
	}
	if strings.ContainsRune(ws, 0) {
		return "", "", fmt.Errorf("%s is not a usable folder path: it holds a NUL character", from)
	}
	if !filepath.IsAbs(ws) {
		ws = filepath.Join(dir, ws)
	}
	return filepath.Clean(ws), refused, nil
}

// Verdict is what the agent itself (agy) makes of the file (see
// schema.Verdict), nil when the file was not read.
func (s *Source) Verdict() *schema.Verdict {
	if s.Config == nil {
		return nil
	}
	if s.verdict == nil {
		s.verdict = schema.VerdictOf(s.Config, schema.AgentOptions{})
	}
	return s.verdict
}

// AgentDrops says whether the agent itself (agy) would load none of the
// file's hooks, and why, as "LINE:COL: what its decoder meets": it decodes
// the whole file at once, and one value of the wrong JSON type drops every
// hook (the Verdict's Drop). hookctl runs the valid parts all the same,
// and says so where it shows the file.
func (s *Source) AgentDrops() (string, bool) {
	v := s.Verdict()
	if v == nil || !v.Known || v.Drop == nil {
		return "", false // not read, or read no further than hookctl's bound: not known
	}
	return fmt.Sprintf("%d:%d: %s", v.Drop.Pos.Line, v.Drop.Pos.Col, v.Drop.Why), true
}

// TrustHint is what an untrusted workspace file's user can do about it:
// "run 'hookctl trust ROOT' to let its hooks run", or "" when trusting
// cannot help, as hookctl never reads a file linked out of its repository.
func (s *Source) TrustHint(root string) string {
	var out *schema.OutsideLinkError
	if errors.As(s.Err, &out) {
		return ""
	}
	return "run 'hookctl trust " + root + "' to let its hooks run"
}

// readError is why a file could not be read, in words that follow its
// path, over the error that says it.
type readError struct {
	words string
	err   error
}

func (e *readError) Error() string { return e.words }
func (e *readError) Unwrap() error { return e.err }
