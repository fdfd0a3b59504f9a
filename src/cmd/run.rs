//! `carto run`: a scripted game, its transcript and optionally its log.

use super::Failure;
use carto::variant::InputError;

#[derive(clap::Args)]
pub struct Args {
    script: String,
    /// Writes the JSON Lines game log to this file.
    #[arg(long)]
    log: Option<String>,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let text = carto::variant::read_text(&a.script)?;
    let src = carto::diag::Source::new(a.script.as_str(), text);
    let r = carto::script::run_script(&src)?;
    if let Some(path) = &a.log {
        let text = carto::output::json_log(&r.game, &r.variant.params());
        std::fs::write(path, text)
            .map_err(|e| InputError(format!("error: cannot write the log to `{path}`: {e}")))?;
    }
    emit!("{}", carto::output::transcript(&r.game));
    Ok(())
}
