package scaffold

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// TestAnEditSavedMeanwhileIsKept: a file that another program saves
// between init's read and its rename is left as that program wrote it, and
// init is refused, for hooks.json and for hooks.test.json.
func TestAnEditSavedMeanwhileIsKept(t *testing.T) {
	for _, tc := range []struct {
		name string
		file func(p *Plan) string
	}{
		{"hooks.json", func(p *Plan) string { return p.Config }},
		{"hooks.test.json", func(p *Plan) string { return p.Tests }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			write(t, filepath.Join(ws, ".agents", "hooks.json"), "{}\n", 0o644)
			write(t, filepath.Join(ws, ".agents", "hooks.test.json"), "{\"tests\": []}\n", 0o644)
			opts := Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: ws, Home: t.TempDir()}
			tx, err := Begin(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Close()
			x, err := tx.Load(ConfigPath(Workspace, ws, ""))
			if err != nil {
				t.Fatal(err)
			}
			opts.Fill(x)
			p, err := NewPlan(opts, x)
			if err != nil {
				t.Fatal(err)
			}
			target := tc.file(p)
			saved := "{\"saved\": \"by the user's editor\"}\n"
			tx.fault = func(path string) error {
				if path == target {
					return os.WriteFile(path, []byte(saved), 0o644)
				}
				return nil
			}
			err = p.Apply(tx)
			var ce *ChangedError
			if !errors.As(err, &ce) || ce.Path != target {
				t.Fatalf("Apply gives %v, want the file named as changed", err)
			}
			if !strings.Contains(err.Error(), "changed on disk while hookctl was editing it") {
				t.Errorf("the message: %v", err)
			}
			if b, _ := os.ReadFile(target); string(b) != saved {
				t.Errorf("%s holds %q, want the saved edit kept", target, b)
			}
			if _, err := os.Stat(p.Script); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the script written before the refusal is still there: %v", err)
			}
			if tc.name == "hooks.test.json" {
				if b, _ := os.ReadFile(p.Config); string(b) != "{}\n" {
					t.Errorf("hooks.json was written after the refusal: %s", b)
				}
			}
		})
	}
}

// TestTxLocksTheFolder: a second Begin on the same folder waits until the
// first is closed, and the one that waited finds the folder again when the
// first removed it in its rollback.
func TestTxLocksTheFolder(t *testing.T) {
	ws := t.TempDir()
	opts := Options{Answers: Answers{Scope: Workspace}, Dir: ws}
	first, err := Begin(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws, ".agents")); err != nil {
		t.Fatalf("Begin did not make the folder it locks: %v", err)
	}
	var released atomic.Bool
	done := make(chan error)
	go func() {
		second, err := Begin(context.Background(), opts)
		if err == nil {
			if !released.Load() {
				err = errors.New("the second Begin took the lock while the first held it")
			} else {
				err = second.Write(Edit{Path: filepath.Join(ws, ".agents", "hooks.json"), New: []byte("{}\n"), Perm: 0o644})
				second.Commit()
				second.Close()
			}
		}
		done <- err
	}()
	// The first ends without writing: its folder goes, and the second
	// makes it again.
	released.Store(true)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(ws, ".agents", "hooks.json")); err != nil || string(b) != "{}\n" {
		t.Errorf("the second write: %q, %v", b, err)
	}
}

// TestApplyIsAllOrNothing fails each of init's writes in turn, as a full
// disk would: every file is then as it was (a script created is removed,
// an overwritten one and hooks.test.json come back whole, with their mode;
// the folders made for them are removed), and the same init run again
// succeeds.
// writeExisting gives the workspace ws a file of its own at each place
// init --template notify --vscode writes, each of a mode of its own.
func writeExisting(t *testing.T, ws string) {
	write(t, filepath.Join(ws, ".agents", "hooks.json"), "{\"other\": {}}\n", 0o600)
	write(t, filepath.Join(ws, ".agents", "hooks.test.json"), "{\"tests\": []}\n", 0o640)
	write(t, filepath.Join(ws, ".agents", "hooks", "notify.sh"), "#!/bin/sh\necho mine\n", 0o700)
	write(t, filepath.Join(ws, ".vscode", "settings.json"), "{\n  // mine\n}\n", 0o600)
}

func TestApplyIsAllOrNothing(t *testing.T) {
	for _, existing := range []bool{false, true} {
		for _, step := range []string{"notify.sh", "hooks.test.json", "hooks.schema.json", "settings.json", "hooks.json"} {
			name := step
			if existing {
				name += " in a workspace with files"
			}
			t.Run(name, func(t *testing.T) {
				ws := t.TempDir()
				if existing {
					writeExisting(t, ws)
				}
				before := tree(t, ws)
				opts := Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: ws, Home: t.TempDir(), VSCode: true, Force: true}
				var written []string
				run := func(fail string) error {
					tx, err := Begin(context.Background(), opts)
					if err != nil {
						return err
					}
					defer tx.Close()
					x, err := tx.Load(ConfigPath(Workspace, ws, ""))
					if err != nil {
						return err
					}
					a := opts
					a.Fill(x)
					p, err := NewPlan(a, x)
					if err != nil {
						return err
					}
					tx.fault = func(path string) error {
						if filepath.Base(path) == fail {
							return &os.PathError{Op: "write", Path: path, Err: syscall.ENOSPC}
						}
						written = append(written, filepath.Base(path))
						return nil
					}
					if err := p.Apply(tx); err != nil {
						return err
					}
					tx.Commit()
					return nil
				}
				err := run(step)
				if err == nil || !strings.Contains(err.Error(), "no space left on device; every file was left as it was") {
					t.Fatalf("Apply gives %v", err)
				}
				if len(written) == 0 && step != "notify.sh" {
					t.Fatal("nothing was written before the failing step")
				}
				sameTree(t, "workspace", before, tree(t, ws))
				if err := run(""); err != nil {
					t.Fatalf("init again: %v", err)
				}
				if b, _ := os.ReadFile(filepath.Join(ws, ".agents", "hooks.json")); !strings.Contains(string(b), `"notify"`) {
					t.Errorf("hooks.json after init again:\n%s", b)
				}
				// No second name of a replaced file is left behind.
				for k := range tree(t, ws) {
					if strings.Contains(k, ".undo") || strings.Contains(k, ".tmp") {
						t.Errorf("%s was left behind", k)
					}
				}
			})
		}
	}
}

// TestAKilledTxIsUndoneByTheNext kills init's transaction (its locks
// dropped, nothing undone, as SIGKILL leaves it) just before each of its
// writes is put in place, and once every write is in place but before the
// commit: it leaves no executable that was not there (its temporary files
// are not executable), and the next transaction on the folder, before
// anything else, puts every file back as it was, with its mode, and
// removes what the killed one left.
func TestAKilledTxIsUndoneByTheNext(t *testing.T) {
	for _, existing := range []bool{false, true} {
		for _, step := range []string{"notify.sh", "hooks.test.json", "hooks.schema.json", "settings.json", "hooks.json", "commit"} {
			name := "before " + step
			if existing {
				name += " in a workspace with files"
			}
			t.Run(name, func(t *testing.T) {
				t.Setenv("XDG_STATE_HOME", t.TempDir())
				ws := t.TempDir()
				if existing {
					writeExisting(t, ws)
				}
				before := tree(t, ws)
				opts := Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: ws, Home: t.TempDir(), VSCode: true, Force: true}
				killed := make(chan error, 1)
				// kill stops the transaction as SIGKILL would: its locks go
				// with its file descriptors, and nothing else happens.
				kill := func(tx *Tx) {
					for _, f := range tx.locks {
						f.Close()
					}
					killed <- nil
					select {}
				}
				go func() {
					tx, err := Begin(context.Background(), opts)
					if err != nil {
						killed <- err
						return
					}
					x, err := tx.Load(ConfigPath(Workspace, ws, ""))
					if err != nil {
						killed <- err
						return
					}
					a := opts
					a.Fill(x)
					p, err := NewPlan(a, x)
					if err != nil {
						killed <- err
						return
					}
					tx.fault = func(path string) error {
						if filepath.Base(path) == step {
							kill(tx)
						}
						return nil
					}
					if err := p.Apply(tx); err != nil {
						killed <- err
						return
					}
					kill(tx)
				}()
				if err := <-killed; err != nil {
					t.Fatal(err)
				}
				// Its temporary files and second names are not executable.
				for k, v := range tree(t, ws) {
					base := filepath.Base(k)
					if strings.HasPrefix(base, ".") && (strings.Contains(base, ".tmp") || strings.Contains(base, ".undo")) && strings.Contains(v[:10], "x") {
						t.Errorf("the kill left an executable %s (%s)", k, v[:10])
					}
				}
				tx, err := Begin(context.Background(), opts)
				if err != nil {
					t.Fatal(err)
				}
				if step != "notify.sh" && len(tx.Recovered) == 0 {
					t.Errorf("nothing was recovered")
				}
				tx.Close()
				after := tree(t, ws)
				if !existing && after[".agents"] != "" && len(after) == 2 {
					delete(after, ".agents") // the folder the next one locked
				}
				sameTree(t, "workspace", before, after)
				if entries, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "hookctl", "edits")); len(entries) != 0 {
					t.Errorf("journals left: %v", entries)
				}
			})
		}
	}
}

// TestACommittedTxKilledIsFinished: a transaction killed once committed,
// before it removed the second names of the files it replaced, is
// finished by the next: its writes stay, the second names go.
func TestACommittedTxKilledIsFinished(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ws := t.TempDir()
	write(t, filepath.Join(ws, ".agents", "hooks.json"), "{}\n", 0o644)
	b, err := NewBounds(Workspace, ws, "")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := b.Begin(context.Background(), filepath.Join(ws, ".agents"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Write(Edit{Path: filepath.Join(ws, ".agents", "hooks.json"), Old: []byte("{}\n"), New: []byte("{\"a\": {}}\n")}); err != nil {
		t.Fatal(err)
	}
	if len(tx.kept) != 1 {
		t.Fatalf("kept %v", tx.kept)
	}
	tx.journal.commit(false) // and killed there
	for _, f := range tx.locks {
		f.Close()
	}
	next, err := b.Begin(context.Background(), filepath.Join(ws, ".agents"))
	if err != nil {
		t.Fatal(err)
	}
	next.Close()
	got := tree(t, ws)
	if got[".agents/hooks.json"] != "-rw-r--r-- {\"a\": {}}\n" || len(got) != 3 {
		t.Errorf("after the next transaction: %q", got)
	}
}
