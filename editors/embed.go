package editors

import (
	_ "embed"
	"strings"
)

// The set-up files that hookctl lsp --setup prints, so that an installed
// binary gives them without the source tree.
var (
	//go:embed neovim/hookctl.lua
	Neovim string
	//go:embed helix/languages.toml
	Helix string
)

// Setup is the set-up of the editor named (neovim or helix, in any case)
// that hookctl lsp --setup prints; false for another editor, whose
// set-up is an extension (editors/zed, editors/vscode).
func Setup(editor string) (string, bool) {
	switch strings.ToLower(editor) {
	case "neovim":
		return Neovim, true
	case "helix":
		return Helix, true
	}
	return "", false
}
