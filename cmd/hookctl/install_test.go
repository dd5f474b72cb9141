package main

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// snapshot is a release built by .ci/run (goreleaser release --snapshot)
// into dist/, served the way GitHub serves a release.
type snapshot struct {
	dir, version, archive string
	// files are the release's files, by name, as served.
	files map[string][]byte
	srv   *httptest.Server
}

// serveSnapshot serves dist/ at /hookctl/hookctl/releases/download/vVERSION/
// on loopback, with the release's page, and /hookctl/hookctl/releases/latest
// as a redirect to that page. Without dist/ the test is skipped, but under HOOKCTL_CI=1, where
// .ci/run builds it before the tests, it fails.
func serveSnapshot(t *testing.T) *snapshot {
	t.Helper()
	dir := filepath.Join("..", "..", "dist")
	sums, err := os.ReadFile(filepath.Join(dir, "checksums.txt"))
	if err != nil {
		if testenv.CI() {
			t.Fatalf("no release snapshot: .ci/run builds dist/ before the tests: %v", err)
		}
		t.Skipf("no release snapshot in dist/ (go tool -modfile=tools/go.mod goreleaser release --snapshot --clean): %v", err)
	}
	ext := ".tar.gz"
	if goruntime.GOOS == "windows" {
		ext = ".zip"
	}
	s := &snapshot{dir: dir, files: map[string][]byte{"checksums.txt": sums}}
	name := regexp.MustCompile(`^hookctl_(.+)_` + goruntime.GOOS + `_` + goruntime.GOARCH + regexp.QuoteMeta(ext) + `$`)
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			t.Fatalf("checksums.txt: %q", sc.Text())
		}
		if m := name.FindStringSubmatch(f[1]); m != nil {
			s.archive, s.version = f[1], m[1]
		}
		b, err := os.ReadFile(filepath.Join(dir, f[1]))
		if err != nil {
			t.Fatal(err)
		}
		s.files[f[1]] = b
	}
	if s.archive == "" {
		t.Fatalf("checksums.txt names no archive for %s/%s", goruntime.GOOS, goruntime.GOARCH)
	}
	prefix := "/hookctl/hookctl/releases/download/v" + s.version + "/"
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hookctl/hookctl/releases/latest":
			http.Redirect(w, r, "/hookctl/hookctl/releases/tag/v"+s.version, http.StatusFound)
			return
		case "/hookctl/hookctl/releases/tag/v" + s.version:
			w.Write([]byte("<html>the release's page</html>"))
			return
		}
		if b, ok := s.files[strings.TrimPrefix(r.URL.Path, prefix)]; ok && strings.HasPrefix(r.URL.Path, prefix) {
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// tamper changes one byte of the archive as served.
func (s *snapshot) tamper() {
	b := bytes.Clone(s.files[s.archive])
	b[len(b)/2] ^= 1
	s.files[s.archive] = b
}

// readmeInstall is the README's shell block of installing a release.
func readmeInstall(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n## Install\n.*?```sh\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README's Install section has no sh block")
	}
	return string(m[1])
}

// versionOf is what hookctl --version of a release build says.
var versionOf = regexp.MustCompile(`^hookctl v(\S+) \(commit ([0-9a-f]{12}), (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)(, modified)?\) go1\.\d+\S*$`)

// TestREADMEInstall follows the README's install of a release, word for
// word, on the snapshot .ci/run built: download, checksum, unpack,
// hookctl --version, lint the example workspace the archive carries,
// install. An archive that does not match checksums.txt stops it before
// anything is unpacked.
func TestREADMEInstall(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("the README's steps are Linux's (sha256sum, tar.gz)")
	}
	s := serveSnapshot(t)
	script := readmeInstall(t)
	first, rest, _ := strings.Cut(script, "\n")
	if !strings.HasPrefix(first, "VERSION=") || !strings.Contains(rest, "https://github.com/hookctl/hookctl/releases/download/v$VERSION") {
		t.Fatalf("the README's install block starts %q", first)
	}
	script = "VERSION=" + s.version + " OS=" + goruntime.GOOS + " ARCH=" + goruntime.GOARCH + "\n" +
		strings.ReplaceAll(rest, "https://github.com", s.srv.URL)

	follow := func() (string, string, error) {
		dir := t.TempDir()
		home := filepath.Join(dir, "home")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.CombinedOutput()
		return dir, string(out), err
	}
	dir, out, err := follow()
	if err != nil {
		t.Fatalf("the README's install: %v\n%s", err, out)
	}
	if !strings.Contains(out, s.archive+": OK") {
		t.Errorf("the checksum was not checked:\n%s", out)
	}
	var line []string
	for _, l := range strings.Split(out, "\n") {
		if m := versionOf.FindStringSubmatch(l); m != nil {
			line = m
		}
	}
	if line == nil || line[1] != s.version {
		t.Errorf("hookctl --version of the release does not name version %s, a commit and a date:\n%s", s.version, out)
	}
	if info, err := os.Stat(filepath.Join(dir, "home", ".local", "bin", "hookctl")); err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("not installed: %v %v", info, err)
	}

	s.tamper()
	dir, out, err = follow()
	if err == nil || !strings.Contains(out, "FAILED") {
		t.Errorf("a tampered archive: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "hookctl")); err == nil {
		t.Error("a tampered archive was unpacked")
	}
}

// TestActionRelease runs the action's download step against the
// snapshot: it installs the archive for this runner once its checksum
// matches, finds the latest release through GitHub's redirect, refuses a
// tampered archive, and fails on a version that has no release rather
// than build something else.
func TestActionRelease(t *testing.T) {
	s := serveSnapshot(t)
	_, a := readAction(t)
	repo := t.TempDir()
	for _, version := range []string{"v" + s.version, "latest"} {
		r := newStepRunner(t, a, map[string]string{"version": version})
		r.server = s.srv.URL
		out, code := r.run("release", repo)
		got := r.outputs["release"]
		if code != 0 || got["installed"] != "true" {
			t.Fatalf("version %q: exit %d, outputs %q:\n%s", version, code, r.output(), out)
		}
		if m := versionOf.FindStringSubmatch(got["version"]); m == nil || m[1] != s.version {
			t.Errorf("version %q: hookctl --version said %q", version, got["version"])
		}
		if out, err := exec.Command(got["path"], "lint", filepath.Join(repo, "missing")).CombinedOutput(); !strings.Contains(string(out), "no such file or folder") {
			t.Errorf("the installed hookctl: %v\n%s", err, out)
		}
	}

	// By default, the release the action's ref names (v0.0.0-action-test
	// here), which does not exist: hookctl is built instead.
	r := newStepRunner(t, a, nil)
	r.server = s.srv.URL
	if out, code := r.run("release", repo); code != 0 || r.outputs["release"]["installed"] != "false" || !strings.Contains(out, "building hookctl") {
		t.Errorf("the action's ref: exit %d, outputs %q:\n%s", code, r.output(), out)
	}

	r = newStepRunner(t, a, map[string]string{"version": "v9.9.9"})
	r.server = s.srv.URL
	if out, code := r.run("release", repo); code == 0 || r.outputs["release"]["installed"] != "" || !strings.Contains(out, "no hookctl_9.9.9_") {
		t.Errorf("a version without a release: exit %d, outputs %q:\n%s", code, r.output(), out)
	}

	s.tamper()
	r = newStepRunner(t, a, map[string]string{"version": "latest"})
	r.server = s.srv.URL
	out, code := r.run("release", repo)
	if code == 0 || r.outputs["release"]["installed"] != "" || !strings.Contains(out, "does not match the release's checksums.txt") {
		t.Errorf("a tampered archive: exit %d, outputs %q:\n%s", code, r.output(), out)
	}
	if b, _ := os.ReadFile(r.path); len(b) != 0 {
		t.Errorf("a tampered archive was put on the PATH: %q", b)
	}
}
