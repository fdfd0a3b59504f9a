//! carto's Zed extension: rules files and scripts are served by `carto lsp`, the `carto` found on
//! the worktree's PATH (as the shell of the project sees it).

use zed_extension_api::{self as zed, LanguageServerId, Result};

struct Carto;

impl zed::Extension for Carto {
    fn new() -> Self {
        Carto
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let command = worktree.which("carto").ok_or_else(|| {
            "carto is not on the PATH: install it (`cargo install --path .` in carto's checkout)"
                .to_string()
        })?;
        Ok(zed::Command {
            command,
            args: vec!["lsp".to_string()],
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Carto);
