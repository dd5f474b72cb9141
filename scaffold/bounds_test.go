package scaffold

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree records every file, folder and link under dir, with the content of
// files and the target of links, to show that nothing changed.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel] = "dir " + info.Mode().Perm().String()
		default:
			b, _ := os.ReadFile(p)
			out[rel] = info.Mode().Perm().String() + " " + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: %s was %q, is %q", what, k, v, after[k])
		}
	}
	for k, v := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s: %s appeared (%q)", what, k, v)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestWritesStayInTheWorkspace makes each file init writes, and each
// folder on its way, a symbolic link that leads out of the workspace: the
// plan is refused, naming the link, and nothing is written in the
// workspace or where the link leads.
func TestWritesStayInTheWorkspace(t *testing.T) {
	for _, tc := range []struct {
		name string
		// setup makes the links; ws is the workspace, out a folder outside
		// it, home the user's home.
		setup func(ws, out, home string)
		// link is the link the error must name, relative to ws.
		link string
		user bool
	}{
		{"hooks.json to the user's file", func(ws, out, home string) {
			symlink(t, filepath.Join(home, ".gemini", "config", "hooks.json"), filepath.Join(ws, ".agents", "hooks.json"))
		}, "", true},
		{"hooks.json to a file outside", func(ws, out, home string) {
			write(t, filepath.Join(out, "hooks.json"), "{}\n", 0o644)
			symlink(t, filepath.Join(out, "hooks.json"), filepath.Join(ws, ".agents", "hooks.json"))
		}, ".agents/hooks.json", false},
		{"hooks.json relative, to a file outside", func(ws, out, home string) {
			write(t, filepath.Join(out, "hooks.json"), "{}\n", 0o644)
			rel, _ := filepath.Rel(filepath.Join(ws, ".agents"), filepath.Join(out, "hooks.json"))
			symlink(t, rel, filepath.Join(ws, ".agents", "hooks.json"))
		}, ".agents/hooks.json", false},
		{"hooks.json dangling, to a file outside", func(ws, out, home string) {
			symlink(t, filepath.Join(out, "new.json"), filepath.Join(ws, ".agents", "hooks.json"))
		}, ".agents/hooks.json", false},
		{".agents to the user's folder", func(ws, out, home string) {
			symlink(t, filepath.Join(home, ".gemini", "config"), filepath.Join(ws, ".agents"))
		}, "", true},
		{".agents to a folder outside", func(ws, out, home string) {
			symlink(t, out, filepath.Join(ws, ".agents"))
		}, ".agents", false},
		{"a link inside that leads to a link out", func(ws, out, home string) {
			symlink(t, out, filepath.Join(ws, "elsewhere"))
			symlink(t, "../elsewhere", filepath.Join(ws, ".agents", "hooks"))
		}, "elsewhere", false},
		{"hooks/ to a folder outside", func(ws, out, home string) {
			symlink(t, out, filepath.Join(ws, ".agents", "hooks"))
		}, ".agents/hooks", false},
		{"the script to a file outside", func(ws, out, home string) {
			write(t, filepath.Join(out, "notify.sh"), "#!/bin/sh\n", 0o755)
			symlink(t, filepath.Join(out, "notify.sh"), filepath.Join(ws, ".agents", "hooks", "notify.sh"))
		}, ".agents/hooks/notify.sh", false},
		{"hooks.test.json to a file outside", func(ws, out, home string) {
			write(t, filepath.Join(out, "tests.json"), "{}\n", 0o644)
			symlink(t, filepath.Join(out, "tests.json"), filepath.Join(ws, ".agents", "hooks.test.json"))
		}, ".agents/hooks.test.json", false},
		{".vscode to a folder outside", func(ws, out, home string) {
			symlink(t, out, filepath.Join(ws, ".vscode"))
		}, ".vscode", false},
		{"settings.json to a file outside", func(ws, out, home string) {
			write(t, filepath.Join(out, "settings.json"), "{}\n", 0o644)
			symlink(t, filepath.Join(out, "settings.json"), filepath.Join(ws, ".vscode", "settings.json"))
		}, ".vscode/settings.json", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, out, home := t.TempDir(), t.TempDir(), t.TempDir()
			write(t, filepath.Join(home, ".gemini", "config", "hooks.json"), "{}\n", 0o644)
			tc.setup(ws, out, home)
			before := map[string]map[string]string{"workspace": tree(t, ws), "outside": tree(t, out), "home": tree(t, home)}

			opts := Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: ws, Home: home, VSCode: true, Force: true}
			_, err := planFor(t, opts)
			var oe *OutsideError
			if !errors.As(err, &oe) {
				t.Fatalf("the plan gives %v, want a refusal", err)
			}
			if tc.user != oe.User {
				t.Errorf("User is %v: %v", oe.User, err)
			}
			if tc.link != "" && oe.Link != filepath.Join(realPath(t, ws), tc.link) {
				t.Errorf("the error names the link %q, want %s: %v", oe.Link, tc.link, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "refusing to write "+ws) || !strings.Contains(msg, "--scope user") {
				t.Errorf("the message does not say what was refused and what to do: %s", msg)
			}
			// Begin, as init runs it, refuses too before it locks anything.
			if tx, err := Begin(context.Background(), opts); err == nil {
				x, err := tx.Load(ConfigPath(Workspace, ws, home))
				if err == nil {
					opts.Fill(x)
					_, err = NewPlan(opts, x)
				}
				tx.Close()
				if !errors.As(err, &oe) {
					t.Errorf("under the lock the plan gives %v", err)
				}
			} else if !errors.As(err, &oe) {
				t.Errorf("Begin gives %v", err)
			}
			sameTree(t, "workspace", before["workspace"], tree(t, ws))
			sameTree(t, "outside", before["outside"], tree(t, out))
			sameTree(t, "home", before["home"], tree(t, home))
		})
	}
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLinksInsideTheWorkspace are followed: the writes land where the links
// lead, and the links survive. The user's scope follows its links wherever
// they lead.
func TestLinksInsideTheWorkspace(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	// .agents is a link to a folder inside, and hooks.json an absolute
	// link to a file inside.
	write(t, filepath.Join(ws, "config", "real.json"), "{}\n", 0o644)
	symlink(t, "config", filepath.Join(ws, ".agents"))
	symlink(t, filepath.Join(ws, "config", "real.json"), filepath.Join(ws, "config", "hooks.json"))
	opts := Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: ws, Home: home}
	p, err := planFor(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t, opts, p); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "config", "real.json")); !strings.Contains(string(b), `"notify"`) {
		t.Errorf("the link's target holds %s", b)
	}
	for _, l := range []string{".agents", "config/hooks.json"} {
		if fi, err := os.Lstat(filepath.Join(ws, l)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link", l)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "config", "hooks", "notify.sh")); err != nil {
		t.Error(err)
	}

	// The user's own configuration kept in a folder of dotfiles.
	dotfiles := t.TempDir()
	symlink(t, dotfiles, filepath.Join(home, ".gemini", "config"))
	opts = Options{Answers: Answers{Scope: User, Template: "notify"}, Dir: ws, Home: home}
	if p, err = planFor(t, opts); err != nil {
		t.Fatal(err)
	}
	if err := apply(t, opts, p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dotfiles, "hooks.json")); err != nil {
		t.Errorf("the user's hooks.json: %v", err)
	}
}

// TestALinkSwappedInAfterThePlan: a folder or file replaced by a link that
// leads out after the plan was made is refused by the writes themselves,
// and what was written before is undone.
func TestALinkSwappedInAfterThePlan(t *testing.T) {
	for _, tc := range []struct {
		name string
		// swap replaces a path of the plan by a link to out, before the
		// writes (fault false) or as the named file is written.
		swap  func(p *Plan) string
		fault bool
	}{
		{"hooks folder, before the writes", func(p *Plan) string { return filepath.Dir(p.Script) }, false},
		{"hooks.test.json, while it is written", func(p *Plan) string { return p.Tests }, true},
		{"hooks.json, while it is written", func(p *Plan) string { return p.Config }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, out := t.TempDir(), t.TempDir()
			write(t, filepath.Join(ws, ".agents", "hooks.json"), "{}\n", 0o644)
			write(t, filepath.Join(ws, ".agents", "hooks.test.json"), `{"tests": []}`, 0o644)
			if err := os.Mkdir(filepath.Join(ws, ".agents", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			opts := Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: ws, Home: t.TempDir()}
			p, err := planFor(t, opts)
			if err != nil {
				t.Fatal(err)
			}
			tx, err := Begin(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Close()
			before := tree(t, ws)
			target := tc.swap(p)
			swap := func() error {
				if err := os.RemoveAll(target); err != nil {
					return err
				}
				return os.Symlink(out, target)
			}
			if tc.fault {
				tx.fault = func(path string) error {
					if path == target {
						return swap()
					}
					return nil
				}
			} else if err := swap(); err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(ws, target)
			delete(before, rel)
			err = p.Apply(tx)
			if err == nil {
				t.Fatal("the write through the swapped link succeeded")
			}
			t.Log(err)
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Errorf("%d files written outside", len(entries))
			}
			after := tree(t, ws)
			delete(after, rel)
			sameTree(t, "workspace", before, after)
		})
	}
}

func TestResolve(t *testing.T) {
	dir := realPath(t, t.TempDir())
	symlink(t, "a/b", filepath.Join(dir, "l"))
	symlink(t, "missing/../a", filepath.Join(dir, "m"))
	symlink(t, "loop2", filepath.Join(dir, "loop1"))
	symlink(t, "loop1", filepath.Join(dir, "loop2"))
	write(t, filepath.Join(dir, "file"), "", 0o644)
	write(t, filepath.Join(dir, "d", "f"), "", 0o644)
	for _, tc := range []struct{ in, want, err string }{
		{"l/c/d.json", "a/b/c/d.json", ""},
		{"d/../l", "a/b", ""},
		{"m/x", "", "no such file"},
		{"loop1/x", "", "too many levels"},
		{"file/x", "", "/file is not a folder"},
	} {
		got, err := Resolve(filepath.Join(dir, tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q, %v; want an error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != filepath.Join(dir, tc.want) {
			t.Errorf("%s: %q, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

// TestOutsideErrorShowsNoEscapes: a link's target is the workspace's to
// choose, escape sequences included; the message quotes it rather than
// let a terminal act on it.
func TestOutsideErrorShowsNoEscapes(t *testing.T) {
	ws := t.TempDir()
	symlink(t, "/tmp/\x1b[2Jgone\a", filepath.Join(ws, ".agents"))
	_, err := planFor(t, Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: ws, Home: t.TempDir()})
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\a") || !strings.Contains(err.Error(), `"/tmp/\x1b[2Jgone\a"`) {
		t.Errorf("the message: %q", err)
	}
}
