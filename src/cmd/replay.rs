//! `carto replay`: replays a game log and checks the replay gives the same log; says when the files
//! of its rules changed since the game was played.

use super::Failure;

const EXAMPLES: &str = "\
Examples:
  carto play base --seed 3 --log game.log && carto replay game.log
  carto replay saved/game.log        a rules file the log names by path is found next to the log";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// A game log (JSON Lines) written by `carto play --log` or `carto run --log`; `-` reads it
    /// from standard input.
    log: std::path::PathBuf,
    /// The rules the game was played with, when they are not where the log says (a log names its
    /// rules relative to its own folder, and carto reads nothing outside it).
    #[arg(long, value_name = "FILE")]
    rules: Option<std::path::PathBuf>,
}

pub(crate) fn run(a: Args) -> Result<(), Failure> {
    let src = carto::render::load::read_input(&a.log)?;
    let r = carto::replay::replay_with(&src, a.rules.as_deref())?;
    if !r.changed.is_empty() {
        eprintln!(
            "warning: {}: the rules have changed since the game was played:",
            src.name
        );
        for c in &r.changed {
            eprintln!("  {c}");
        }
    }
    let same = if r.changed.is_empty() {
        "the replay is identical"
    } else {
        "the replay is identical all the same"
    };
    emitln!("{}: {} lines, {} turns: {same}", src.name, r.lines, r.turns);
    if r.spacing_differs {
        emitln!("  (the log's JSON is spaced or ordered otherwise than carto writes it; its content is the same)");
    }
    Ok(())
}
