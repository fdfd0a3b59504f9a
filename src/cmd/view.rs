//! `carto view`: the HTML replay page of a logged (or scripted) game, one self-contained file.

use super::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// A game log (JSON Lines, from `--log`) or a script.
    pub game: String,
    /// Writes the page to this file (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let loaded = carto::render::load::load_game(&args.game)?;
    let html = carto::render::html::view_html(&loaded);
    super::render::write_out(args.output.as_deref(), &html)
}
