package editors

import _ "embed"

// The set-up files that hookctl lsp --setup prints, so that an installed
// binary gives them without the source tree.
var (
	//go:embed neovim/hookctl.lua
	Neovim string
	//go:embed helix/languages.toml
	Helix string
)
