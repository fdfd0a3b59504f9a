//! `carto view`: the HTML replay page of a logged (or scripted) game, one self-contained file.

use super::Failure;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// A game log (JSON Lines, from `--log`) or a script; `-` reads it from standard input.
    pub(crate) game: std::path::PathBuf,
    /// Writes the page to this file (`-`: standard output). Default: standard output, or a file
    /// named after the input (`game.log` gives `game.html`) when standard output is a terminal.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) log: super::render::LogArgs,
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    let loaded = args.log.load(&args.game)?;
    let html = carto::render::html::view_html(&loaded);
    super::render::write_out(args.output.as_deref(), Some(&args.game), "html", &html)
}
