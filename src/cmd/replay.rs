//! `carto replay`: replays a game log and checks the replay gives the same log; says when the files
//! of its rules changed since the game was played.

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
    if !r.changed.is_empty() {
        eprintln!(
            "warning: {}: the rules have changed since the game was played:",
            a.log
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
    emitln!("{}: {} lines, {} turns: {same}", a.log, r.lines, r.turns);
    if r.spacing_differs {
        emitln!("  (the log's JSON is spaced or ordered otherwise than carto writes it; its content is the same)");
    }
    Ok(())
}
