//! `carto run`: a scripted game, its transcript and optionally its log.

use super::Failure;
use carto::variant::InputError;

#[derive(clap::Args)]
pub struct Args {
    script: String,
    /// Writes the JSON Lines game log to this file.
    #[arg(long)]
    log: Option<String>,
    /// Lists every chip moved at setup on a line of its own (the transcript otherwise sums them up
    /// by colour and value).
    #[arg(long)]
    verbose: bool,
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
    emit!(
        "{}",
        carto::output::transcript_with(&r.game, options(a.verbose))
    );
    Ok(())
}

/// The transcript's options for `--verbose`.
pub fn options(verbose: bool) -> carto::output::TranscriptOptions {
    carto::output::TranscriptOptions { verbose }
}
