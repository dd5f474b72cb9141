package scaffold

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/hookctl/hookctl/schema"
)

// journal is what a Tx has done so far and how to undo it, kept on disk
// while it writes: a hookctl killed between two writes (SIGKILL, a crash, a
// machine that lost power) undoes nothing itself, and a script left without
// its hook is new code in the workspace, which withdraws its trust. The
// next Tx that locks the same folder, before it does anything else, undoes
// what the journal lists (see recoverJournal), or finishes a Tx that had
// committed.
//
// It lives in hookctl's state folder, outside the workspace: a file in the
// workspace would be one more file in the user's repository, and a cloned
// repository could ship one that tells hookctl what to remove.
type journal struct {
	path string
	// Root is the folder the names are beneath; Folder the locked folder
	// the journal belongs to.
	Root   string `json:"root"`
	Folder string `json:"folder"`
	// Committed is set once every write is done and kept: what is left
	// is to remove the files replaced.
	Committed bool `json:"committed,omitempty"`
	// Follow is set when the Tx's caller has work to do once the writes
	// are committed (init's renewal of the workspace's trust): the journal
	// stays until Done.
	Follow bool          `json:"follow,omitempty"`
	Steps  []journalStep `json:"steps"`
}

// journalStep is one folder made or one file written.
type journalStep struct {
	// Name is the folder or file, beneath Root.
	Name string `json:"name"`
	// Dir is set for a folder the Tx made.
	Dir bool `json:"dir,omitempty"`
	// SHA256 is of what the Tx writes to the file: the file is undone
	// only when it holds that.
	SHA256 string `json:"sha256,omitempty"`
	// New is set for a file that did not exist.
	New bool `json:"new,omitempty"`
	// Kept is the second name under which the file replaced is kept;
	// else Old and Mode are its content and mode.
	Kept string      `json:"kept,omitempty"`
	Old  []byte      `json:"old,omitempty"`
	Mode fs.FileMode `json:"mode,omitempty"`
}

// journalPath is where the journal of the locked folder real is kept; ""
// when hookctl has no state folder (HOME unset), and then nothing is
// journaled.
func journalPath(real string) string {
	dir, err := schema.StateDir(os.Getenv)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(dir, "edits", hex.EncodeToString(sum[:16])+".json")
}

// add records a step, before it is taken. A journal that cannot be written
// is given up: the Tx goes on, as undoable in the process as before, and
// a kill then leaves what it leaves.
func (j *journal) add(s journalStep) {
	if j == nil || j.path == "" {
		return
	}
	j.Steps = append(j.Steps, s)
	j.save()
}

func (j *journal) save() {
	if err := os.MkdirAll(filepath.Dir(j.path), 0o700); err != nil {
		j.path = ""
		return
	}
	// Written under the folder's lock: what a killed write of it left
	// beside it can go.
	if root, err := os.OpenRoot(filepath.Dir(j.path)); err == nil {
		schema.RemoveLeftovers(root, filepath.Base(j.path))
		root.Close()
	}
	b, err := json.Marshal(j)
	if err == nil {
		err = schema.WriteFileAtomic(j.path, b, 0o600)
	}
	if err != nil {
		j.path = ""
	}
}

// commit marks the journal committed, before the files replaced are
// removed; follow says that the caller's work after the commit is yet to
// be done.
func (j *journal) commit(follow bool) {
	if j == nil || j.path == "" || len(j.Steps) == 0 {
		return
	}
	j.Committed, j.Follow = true, follow
	j.save()
}

// done removes the journal: its Tx is over, its writes kept or undone.
func (j *journal) done() {
	if j == nil || j.path == "" {
		return
	}
	if len(j.Steps) > 0 {
		_ = os.Remove(j.path)
	}
	j.Steps, j.Committed = nil, false
}

// sum is the SHA-256 of b, in hex.
func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Unfinished is what a Tx killed between its Commit and its Done wrote.
type Unfinished struct {
	// Root is the folder it wrote beneath: a workspace's root.
	Root string
	// Files are the real paths of the files it wrote, with the SHA-256
	// of what it wrote.
	Files map[string]string
}

// recoverJournal finishes the Tx that the journal of the locked folder
// real records, left by a hookctl that was killed: a Tx that had committed
// loses the files it replaced; any other is undone, each file put back as
// it was when it still holds what that Tx wrote (a file changed since is
// left as it is). It returns the files put back, beneath the journal's
// root, and for a Tx killed after its commit before its caller's work was
// done (Follow), the files it wrote with their SHA-256. A folder for which
// locked is true stays, even empty: a Tx holds its lock.
func recoverJournal(real string, locked func(real string) bool) (undone []string, unfinished *Unfinished) {
	path := journalPath(real)
	if path == "" {
		return nil, nil
	}
	b, err := schema.ReadFile(path, MaxEditSize*4)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var j journal
	if err != nil || json.Unmarshal(b, &j) != nil || j.Folder != real {
		_ = os.Remove(path)
		return nil, nil
	}
	root, err := os.OpenRoot(j.Root)
	if err != nil {
		_ = os.Remove(path)
		return nil, nil
	}
	defer root.Close()
	for i := len(j.Steps) - 1; i >= 0; i-- {
		s := j.Steps[i]
		if s.Dir {
			if !j.Committed && !locked(filepath.Join(j.Root, s.Name)) {
				// Only when empty: a folder another writer filled stays.
				_ = root.Remove(s.Name)
			}
			continue
		}
		schema.RemoveLeftovers(root, s.Name)
		if j.Committed {
			if s.Kept != "" {
				_ = root.Remove(s.Kept)
			}
			if j.Follow {
				if unfinished == nil {
					unfinished = &Unfinished{Root: j.Root, Files: map[string]string{}}
				}
				unfinished.Files[filepath.Join(j.Root, s.Name)] = s.SHA256
			}
			continue
		}
		cur, err := readEditable(s.Name, func() (*os.File, error) {
			return root.OpenFile(s.Name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		})
		ours := err == nil && sum(cur) == s.SHA256
		switch {
		case s.New && ours:
			if root.Remove(s.Name) == nil {
				undone = append(undone, s.Name)
			}
		case s.Kept != "":
			if _, kerr := root.Lstat(s.Kept); kerr != nil {
				break
			}
			if ours && root.Rename(s.Kept, s.Name) == nil {
				undone = append(undone, s.Name)
			} else {
				// The write never landed, or the file was changed
				// since: the second name goes.
				_ = root.Remove(s.Kept)
			}
		case s.Old != nil && ours:
			if schema.WriteFileAtomicIn(root, s.Name, s.Old, s.Mode, nil) == nil {
				undone = append(undone, s.Name)
			}
		}
	}
	if unfinished == nil {
		// Else the journal stays until the caller has done what was
		// left (Tx.Finished), so that a kill meanwhile loses nothing.
		_ = os.Remove(path)
	}
	return undone, unfinished
}
