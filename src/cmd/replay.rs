//! `carto replay`: replays a game log and checks the replay gives the same log.

use super::Failure;

const EXAMPLES: &str = "\
Examples:
  carto play base --seed 3 --log game.log && carto replay game.log
  carto replay saved/game.log        a rules file the log names by path is found next to the log";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// A game log (JSON Lines) written by `carto play --log` or `carto run --log`.
    log: String,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let text = carto::variant::read_text(&a.log)?;
    let r = carto::replay::replay(&carto::diag::Source::new(a.log.clone(), text))?;
    emitln!(
        "{}: {} lines, {} turns: the replay is identical",
        a.log,
        r.lines,
        r.turns
    );
    Ok(())
}
