//! `carto replay`: replays a game log and checks the replay gives the same log.

use super::Failure;

#[derive(clap::Args)]
pub struct Args {
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
