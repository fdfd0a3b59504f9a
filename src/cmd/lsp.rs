//! `carto lsp`: the language server on standard input and output (`carto::lsp`, docs/editors.md).

use super::Failure;
use carto::diag::Code;
use carto::variant::InputError;

const EXAMPLES: &str = "\
Examples:
  carto lsp                         the editor starts it and speaks JSON-RPC on its standard input and output (docs/editors.md)";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// Accepted for editors that pass it: the server always speaks on standard input and output.
    #[arg(long)]
    stdio: bool,
}

pub(crate) fn run(_a: Args) -> Result<(), Failure> {
    carto::lsp::server::serve()
        .map_err(|e| Failure::Input(InputError::new(Code::CannotWrite, format!("error: {e}"))))
}
