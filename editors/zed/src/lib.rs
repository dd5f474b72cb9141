//! The Zed extension of hookctl: it registers hookctl lsp as a language
//! server for JSON files. The server answers for hooks.json and
//! hooks.test.json; settings.json in this folder limits it to them.

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result};

struct Hookctl;

impl zed::Extension for Hookctl {
    fn new() -> Self {
        Hookctl
    }

    fn language_server_command(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        // lsp.hookctl.binary in Zed's settings wins over hookctl on PATH.
        let binary = LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.binary);
        let args = binary
            .as_ref()
            .and_then(|b| b.arguments.clone())
            .unwrap_or_else(|| vec!["lsp".to_string()]);
        let path = match binary.and_then(|b| b.path) {
            Some(path) => path,
            None => worktree.which("hookctl").ok_or_else(|| {
                "hookctl is not on PATH: install it, or set lsp.hookctl.binary.path in Zed's settings"
                    .to_string()
            })?,
        };
        Ok(zed::Command {
            command: path,
            args,
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Hookctl);
