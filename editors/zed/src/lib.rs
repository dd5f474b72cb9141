//! The Zed extension of hookctl: it registers hookctl lsp as a language
//! server for JSON files. The server answers for hooks.json and
//! hooks.test.json; settings.json in this folder limits it to them.

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result};

struct Hookctl;

/// Whether a path from the settings may be started: a program called
/// hookctl, named by an absolute path without "..", outside the worktree.
/// Zed before its worktree trust (0.218) applies a project's
/// .zed/settings.json as it is, so a repository could otherwise name a
/// program of its own for the editor to start on open.
fn outside_worktree_hookctl(path: &str, root: &str) -> bool {
    let path = path.replace('\\', "/").to_lowercase();
    let root = root.replace('\\', "/").to_lowercase();
    let root = root.trim_end_matches('/');
    let bytes = path.as_bytes();
    let absolute = path.starts_with('/') || (bytes.len() > 2 && bytes[1] == b':' && bytes[2] == b'/');
    let name = path.rsplit('/').next().unwrap_or("");
    absolute
        && (name == "hookctl" || name == "hookctl.exe")
        && !path.split('/').any(|part| part == "..")
        && path != root
        && !path.starts_with(&format!("{root}/"))
}

impl zed::Extension for Hookctl {
    fn new() -> Self {
        Hookctl
    }

    fn language_server_command(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        // lsp.hookctl.binary.path in Zed's settings wins over hookctl on
        // PATH when it names a hookctl outside the worktree; the server is
        // always started as hookctl lsp.
        let root = worktree.root_path();
        let chosen = LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.binary)
            .and_then(|binary| binary.path)
            .filter(|path| outside_worktree_hookctl(path, &root));
        let path = match chosen {
            Some(path) => path,
            None => worktree.which("hookctl").ok_or_else(|| {
                "hookctl is not on PATH: install it, or set lsp.hookctl.binary.path in Zed's user settings"
                    .to_string()
            })?,
        };
        Ok(zed::Command {
            command: path,
            args: vec!["lsp".to_string()],
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Hookctl);
