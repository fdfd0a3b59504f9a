//! `carto completions`: the shell completion script for bash, zsh, fish or PowerShell.

use super::Failure;
use clap::CommandFactory as _;
use clap_complete::Shell;

const EXAMPLES: &str = "\
Examples:
  mkdir -p ~/.local/share/bash-completion/completions        (the folder is missing on a fresh machine)
  carto completions bash > ~/.local/share/bash-completion/completions/carto
  mkdir -p ~/.zfunc && carto completions zsh > ~/.zfunc/_carto
                                                    (with `fpath+=~/.zfunc` before compinit)
  mkdir -p ~/.config/fish/completions && carto completions fish > ~/.config/fish/completions/carto.fish";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// The shell to write completions for (PowerShell: `carto completions powershell >> $PROFILE`).
    shell: Shell,
}

pub(crate) fn run(a: Args) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut crate::Cli::command(), "carto", &mut script);
    emit!("{}", String::from_utf8_lossy(&script));
    // clap's fish script completes no positional argument's values: the bundled variant names of
    // the commands that take a VARIANT (files still complete beside them).
    if a.shell == Shell::Fish {
        let names = carto::variant::bundled_variants()
            .map(|(n, _)| n)
            .collect::<Vec<_>>()
            .join(" ");
        for cmd in ["play", "sim", "doc", "bench"] {
            emitln!(
                "complete -c carto -n \"__fish_carto_using_subcommand {cmd}\" -a \"{names}\" -d 'bundled variant'"
            );
        }
    }
    Ok(())
}
