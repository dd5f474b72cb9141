package trust

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// plantRepo writes, in the folder dir of root, the files of a bare
// repository as a clone can bring them (plain files, mode 0644), whose
// config makes git status run a program that prints MARK:fsmonitor.
func plantRepo(t *testing.T, root, dir string) {
	t.Helper()
	for rel, content := range map[string]string{
		"HEAD":          "ref: refs/heads/main\n",
		"objects/.keep": "",
		"refs/.keep":    "",
		"config":        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = echo MARK:fsmonitor >&2; false\n",
	} {
		p := filepath.Join(root, dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gitRan runs command as the handler would, with dash -c in the hooks'
// folder, with a git that reads no user or system configuration, and
// reports whether the planted repository's fsmonitor ran.
func gitRan(t *testing.T, root, command string) bool {
	t.Helper()
	cmd := exec.Command("dash", "-c", command)
	cmd.Dir = filepath.Join(root, ".agents")
	cmd.Env = append(os.Environ(), "HOOKCTL_WORKSPACE="+root, "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "XDG_CONFIG_HOME="+t.TempDir())
	out, _ := cmd.CombinedOutput()
	return strings.Contains(string(out), "MARK:fsmonitor")
}

// TestGitReadsTheRepositoryItFinds: git looks for its repository from the
// folder it starts in upward, and takes a folder holding HEAD, objects/
// and refs/ for a bare repository whose config runs programs. Trust names
// git run where such a repository lies in the workspace, whichever way
// git finds it, and covers where one could be planted: planting one after
// trust withdraws it. Each case runs the real git.
func TestGitReadsTheRepositoryItFinds(t *testing.T) {
	needTools(t, "git", "dash")
	for _, c := range []struct {
		name, command string
		files         map[string]string
		planted       string // the folder of the planted repository
		rootGit       bool   // the workspace root is a git repository
		named         string
	}{
		{name: "hooks' folder", command: "git status", planted: ".agents", rootGit: true, named: "git is run in .agents, and .agents holds a repository (HEAD, objects/, refs/)"},
		{name: "below it", command: "cd hooks && git status --short", files: map[string]string{".agents/hooks/x.sh": ""}, planted: ".agents", rootGit: true, named: "git is run in .agents/hooks, and .agents holds a repository"},
		{name: "git -C", command: "git -C hooks status", files: map[string]string{".agents/hooks/x.sh": ""}, planted: ".agents/hooks", rootGit: true, named: "git is run in .agents/hooks, and .agents/hooks holds a repository"},
		{name: "root", command: "git -C .. status", planted: ".", named: "git is run in ., and . holds a repository"},
		{name: "root from below", command: "timeout 5 git status", planted: ".", named: "git is run in .agents, and . holds a repository"},
		{name: "script", command: "./gate.sh", files: map[string]string{".agents/gate.sh": "#!/bin/sh\n: first\ngit status\n"}, planted: ".agents", rootGit: true, named: ".agents/gate.sh:3 git is run in .agents, and .agents holds a repository"},
		{name: "GIT_DIR", command: "GIT_DIR=../repo GIT_WORK_TREE=.. git status", planted: "repo", rootGit: true, named: "sets GIT_DIR for the call"},
		{name: "export GIT_DIR", command: "export GIT_DIR=../repo GIT_WORK_TREE=..; git status", planted: "repo", rootGit: true, named: "sets GIT_DIR, which changes what the commands after it run"},
		{name: "--git-dir", command: "git --git-dir=../repo --work-tree=.. status", planted: "repo", rootGit: true, named: "runs git on the repository --git-dir names"},
		{name: "folder by variable", command: `git -C "$HOME" status; git -C "$D" status`, planted: ".agents", rootGit: true, named: "runs git in a folder known only when the command runs"},
		{name: "gitdir file", command: "git status", files: map[string]string{".agents/.git": "gitdir: ../repo\n"}, planted: "repo", rootGit: true, named: "git is run in .agents, where .agents/.git names the repository repo (gitdir:)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, err := Key(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if c.rootGit {
				if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
					t.Fatalf("git init: %v: %s", err, out)
				}
			}
			for rel, content := range c.files {
				write(t, root, rel, content)
			}
			write(t, root, HooksFile, `{"h": {"Stop": [{"command": `+quote(c.command)+`}]}}`)
			// Trusted before the repository is planted: nothing named, and
			// planting it withdraws the trust, unless git's folder is
			// known only when it runs.
			snap := take(t, root)
			st := &Store{Workspaces: map[string]*Record{root: NewRecord(snap, time.Now())}}
			if gitRan(t, root, c.command) {
				t.Fatalf("%s: git ran a program before any repository was planted", c.command)
			}
			plantRepo(t, root, c.planted)
			if strings.HasSuffix(c.name, "file") {
				// The .git file is no clone's: it was there when trusted.
			} else if ok, _ := st.Check(take(t, root)); ok && !strings.Contains(c.named, "known only when") && !strings.Contains(c.named, "sets GIT_DIR") && !strings.Contains(c.named, "--git-dir") {
				t.Errorf("%s: planting a repository in %s keeps the workspace trusted", c.command, c.planted)
			}
			if !gitRan(t, root, c.command) {
				t.Fatalf("%s: the real git did not run the planted repository's fsmonitor", c.command)
			}
			snap = take(t, root)
			if gaps := snap.Commands[0].Gaps; !slices.ContainsFunc(gaps, func(g string) bool { return strings.Contains(g, c.named) }) {
				t.Errorf("%s: named %q, want %q", c.command, gaps, c.named)
			}
		})
	}
}

// TestGitWithoutPlantedRepository: git run where no repository can be
// planted is not named, and a workspace whose own .git git finds first
// covers nothing more than the hooks' folder's HEAD.
func TestGitWithoutPlantedRepository(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "git status && git -C /usr log -1 && command -v git"}]}}`)
	snap := take(t, root)
	cmd := snap.Commands[0]
	if len(cmd.Gaps) != 0 {
		t.Errorf("gaps %q, want none", cmd.Gaps)
	}
	var covered []string
	for _, f := range snap.Files {
		covered = append(covered, f.Path+" "+string(f.State))
	}
	if want := []string{HooksFile + " file", ".agents/HEAD missing"}; !slices.Equal(covered, want) {
		t.Errorf("covered %q, want %q", covered, want)
	}
}
