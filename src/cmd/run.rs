//! `carto run`: a scripted game, its transcript and optionally its log.

use super::Failure;
use carto::render::text::{transcript_with, TranscriptOptions};
use carto::variant::InputError;

const FORMAT: &str = "\
Script format (one statement a line; `#` starts a comment; docs/format-script.md has the details):
  variant france              a bundled variant or a rules file (path relative to the script)
  players ann, bob            default: ann, bob
  seed 7                      default: 1
  set sale_abroad = 6         a parameter (repeatable)
  starts Nancy, Limoges       the start squares, in order (the first gets the start tile)
  tiles B, U, U               the exact draw stack (tile ids), first drawn first; setup draws from it
                              too (here B, for Limoges); the game ends when it runs out
  chip 7 at hand:ann face up  move a chip there after setup (default: face down)
  place U at 18,4 r0          then every decision by its option name, as `carto play` shows them
  follower road E+W
  place U at 18,5 r0          bob collects the chip on 18,5: +1
  pass
  expect score bob 1          score NAME N | chip ID at PLACE | options N | follower ID at PLACE
  rest random                 play the rest of the game with random choices

Examples:
  carto run tests/scripts/base/tie.script           prints the transcript
  carto run my.script --log game.log                also writes the game log
  carto run my.script --verbose                     every chip moved at setup on a line of its own";

#[derive(clap::Args)]
#[command(after_help = FORMAT)]
pub struct Args {
    /// The script to play (format below).
    script: String,
    /// Writes the JSON Lines game log to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// Lists every chip moved at setup on a line of its own (the transcript otherwise sums them up
    /// by colour and value).
    #[arg(long)]
    verbose: bool,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let text = carto::variant::read_text(&a.script)?;
    let src = carto::diag::Source::new(a.script.as_str(), text);
    let opts = options(a.verbose);
    let r = match carto::script::run_script_keeping(&src) {
        Ok(r) => r,
        Err(f) => {
            // The transcript up to the failing line shows what led there; the error follows on stderr.
            if let Some(game) = f.game {
                let stopped = TranscriptOptions {
                    stopped: true,
                    ..opts
                };
                emit!("{}", transcript_with(&game, stopped));
            }
            return Err(f.error.into());
        }
    };
    if let Some(path) = &a.log {
        let text = carto::output::json_log_to_file(&r.game, &r.variant.params(), path.as_ref());
        std::fs::write(path, text)
            .map_err(|e| InputError(format!("error: cannot write the log to `{path}`: {e}")))?;
    }
    emit!("{}", transcript_with(&r.game, opts));
    Ok(())
}

/// The transcript's options for `--verbose`.
pub fn options(verbose: bool) -> carto::output::TranscriptOptions {
    carto::output::TranscriptOptions {
        verbose,
        ..Default::default()
    }
}
