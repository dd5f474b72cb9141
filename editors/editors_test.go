// Package editors holds the set-up of hookctl lsp for each editor: the
// files of this folder, which docs/editors.md shows. Its tests keep them
// valid; the Neovim configuration is run in a real Neovim by
// cmd/hookctl's TestNeovim.
package editors

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestHelix checks that the Helix snippet is TOML with the keys Helix
// reads (an unknown key would be ignored by Helix without a word), that it
// starts hookctl lsp, and that its language takes hooks.json and
// hooks.test.json.
func TestHelix(t *testing.T) {
	var cfg struct {
		LanguageServer map[string]struct {
			Command string
			Args    []string
		} `toml:"language-server"`
		Language []struct {
			Name       string
			Scope      string
			Grammar    string
			LanguageID string              `toml:"language-id"`
			FileTypes  []map[string]string `toml:"file-types"`
			Indent     struct {
				TabWidth int `toml:"tab-width"`
				Unit     string
			}
			LanguageServers []string `toml:"language-servers"`
		}
	}
	md, err := toml.DecodeFile("helix/languages.toml", &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		t.Errorf("keys this test does not know: %v", u)
	}
	ls := cfg.LanguageServer["hookctl"]
	if ls.Command != "hookctl" || !slices.Equal(ls.Args, []string{"lsp"}) {
		t.Errorf("language server %+v, want hookctl lsp", ls)
	}
	if len(cfg.Language) != 1 {
		t.Fatalf("%d languages, want 1", len(cfg.Language))
	}
	l := cfg.Language[0]
	var globs []string
	for _, ft := range l.FileTypes {
		globs = append(globs, ft["glob"])
	}
	if !slices.Equal(globs, []string{"hooks.json", "hooks.test.json"}) || l.Grammar != "json" || !slices.Equal(l.LanguageServers, []string{"hookctl"}) {
		t.Errorf("language %+v", l)
	}
}

// TestZed checks the Zed extension's manifest and Cargo.toml as TOML,
// that its code registers the server the manifest names and starts it as
// hookctl lsp, and that the settings snippet is valid JSON with comments,
// as Zed reads it. (Zed builds the Rust code itself when the extension is
// installed; it is not compiled here.)
func TestZed(t *testing.T) {
	var ext struct {
		ID              string `toml:"id"`
		Name            string
		Description     string
		Version         string
		SchemaVersion   int `toml:"schema_version"`
		Authors         []string
		Repository      string
		LanguageServers map[string]struct {
			Name      string
			Languages []string
		} `toml:"language_servers"`
	}
	md, err := toml.DecodeFile("zed/extension.toml", &ext)
	if err != nil {
		t.Fatal(err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		t.Errorf("keys this test does not know: %v", u)
	}
	if ext.ID != "hookctl" || ext.SchemaVersion != 1 || !slices.Equal(ext.LanguageServers["hookctl"].Languages, []string{"JSON"}) {
		t.Errorf("extension.toml: %+v", ext)
	}
	var cargo struct {
		Lib struct {
			CrateType []string `toml:"crate-type"`
		}
		Dependencies map[string]string
	}
	if _, err := toml.DecodeFile("zed/Cargo.toml", &cargo); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cargo.Lib.CrateType, []string{"cdylib"}) || cargo.Dependencies["zed_extension_api"] == "" {
		t.Errorf("Cargo.toml: %+v", cargo)
	}
	lib, err := os.ReadFile("zed/src/lib.rs")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`worktree.which("hookctl")`, `args: vec!["lsp".to_string()]`, "zed::register_extension!(Hookctl);", "fn language_server_command(",
		// A path from the settings, which a project's .zed/settings.json
		// may give, is started only when it is a hookctl outside the
		// worktree, and never with the settings' arguments.
		".filter(|path| outside_worktree_hookctl(path, &root))", "fn outside_worktree_hookctl(", `!path.split('/').any(|part| part == "..")`} {
		if !bytes.Contains(lib, []byte(want)) {
			t.Errorf("src/lib.rs lacks %s", want)
		}
	}
	if bytes.Contains(lib, []byte("arguments")) {
		t.Error("src/lib.rs starts hookctl with the arguments the settings give, which a project's settings may choose")
	}
	settings, err := os.ReadFile("zed/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	std, err := hujson.Standardize(settings)
	if err != nil {
		t.Fatalf("settings.json: %v", err)
	}
	var s struct {
		LSP map[string]struct {
			Binary struct {
				Path      string
				Arguments []string
			}
		}
	}
	if err := json.Unmarshal(std, &s); err != nil {
		t.Fatal(err)
	}
	if b := s.LSP["hookctl"].Binary; !strings.HasPrefix(b.Path, "/") || path.Base(b.Path) != "hookctl" || b.Arguments != nil {
		t.Errorf("settings.json: %+v", s)
	}
}

// TestVSCodeExtension installs the extension's packages, as pinned by
// package-lock.json, into a copy of the extension (npm ci, which also fails
// when package.json and the lock disagree), and type-checks extension.js
// against VS Code's and vscode-languageclient's types, so that the
// extension cannot drift from the APIs it calls nor its lock from its
// package.json. It needs npm (see testenv.Need).
func TestVSCodeExtension(t *testing.T) {
	if testing.Short() {
		t.Skip("drives npm: skipped with -short")
	}
	testenv.Need(t, "npm")
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json", "tsconfig.json", "extension.js"} {
		b, err := os.ReadFile(filepath.Join("vscode", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	npm := exec.Command("npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
	npm.Dir = dir
	if out, err := npm.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	check := exec.Command("node", filepath.Join("node_modules", "typescript", "bin", "tsc"), "-p", ".")
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("type check of extension.js: %v\n%s", err, out)
	}
	var pkg struct {
		Main         string
		Dependencies map[string]string
	}
	b, err := os.ReadFile(filepath.Join("vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Main != "./extension.js" || pkg.Dependencies["vscode-languageclient"] == "" {
		t.Errorf("package.json: %+v", pkg)
	}
	js, err := os.ReadFile(filepath.Join("vscode", "extension.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`args: ["lsp"]`)) || !bytes.Contains(js, []byte(`pattern: "**/hooks.json"`)) {
		t.Error("extension.js does not start hookctl lsp for hooks.json")
	}
}

// TestVSCodeProgramSetting checks that the program the VS Code extension
// starts comes from the user's settings only: hookctl.path is a machine
// setting, which VS Code never reads from a workspace's
// .vscode/settings.json, and the extension takes the user's value or the
// default from inspect(), never the workspace's.
func TestVSCodeProgramSetting(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Scope string
				}
			}
		}
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	props := pkg.Contributes.Configuration.Properties
	if len(props) == 0 {
		t.Fatal("package.json declares no settings")
	}
	for name, p := range props {
		if p.Scope != "machine" && p.Scope != "application" {
			t.Errorf("%s has scope %q: a workspace's .vscode/settings.json may set it; want machine", name, p.Scope)
		}
	}
	js, err := os.ReadFile(filepath.Join("vscode", "extension.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`.inspect("path")`)) || !bytes.Contains(js, []byte("setting?.globalValue ?? setting?.defaultValue")) {
		t.Error("extension.js does not take hookctl.path from the user's settings alone")
	}
	if regexp.MustCompile(`\.get\(\s*"path"`).Match(js) || bytes.Contains(js, []byte("workspaceValue")) || bytes.Contains(js, []byte("workspaceFolderValue")) {
		t.Error("extension.js reads hookctl.path in a way that lets a workspace's settings choose the program")
	}
}

// TestDocs checks that docs/editors.md shows each editor's files as they
// are here, byte for byte, so that what a user copies is what is tested.
func TestDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/editors.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]bool{}
	for _, m := range regexp.MustCompile("(?s)```[a-z]*\n(.*?)```").FindAllSubmatch(doc, -1) {
		blocks[string(m[1])] = true
	}
	for _, f := range []string{"neovim/hookctl.lua", "helix/languages.toml", "zed/extension.toml", "zed/src/lib.rs", "zed/settings.json"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !blocks[string(b)] {
			t.Errorf("docs/editors.md does not show %s as it is", f)
		}
	}
	if !strings.Contains(string(doc), "editors/vscode") {
		t.Error("docs/editors.md does not point to editors/vscode")
	}
}

// TestSetup gives the set-up of Neovim and Helix whatever the case of
// their names, and none for an editor that needs an extension.
func TestSetup(t *testing.T) {
	for name, want := range map[string]string{"neovim": Neovim, "Helix": Helix, "NEOVIM": Neovim} {
		if got, ok := Setup(name); !ok || got != want || got == "" {
			t.Errorf("%s: %v, %.40q", name, ok, got)
		}
	}
	for _, name := range []string{"zed", "vscode", ""} {
		if got, ok := Setup(name); ok || got != "" {
			t.Errorf("%s: %v, %.40q", name, ok, got)
		}
	}
}
