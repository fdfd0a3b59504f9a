//! `carto run`: a scripted game, its transcript and optionally its log.

use super::Failure;
use carto::render::text::{transcript_with, TranscriptOptions};

const FORMAT: &str = "\
Script format (one statement a line; `#` starts a comment; docs/format-script.md has the details):
  variant base                a bundled variant or a rules file (in the script's folder or below)
  players ann, bob            default: ann, bob
  seed 7                      default: 1
  set city_tile = 3           a parameter of the rules (repeatable)
  tiles U, U, E, E, R         the exact draw stack (tile ids), first drawn first (on a map, setup
                              draws the start tiles from it too); the game ends when it runs out
  place U at -1,0 r0          then every decision by its option name, as `carto play` shows them
  pass
  place U at 1,0 r0
  pass
  place E at -1,-1 r90
  follower city E
  place E at 1,-1 r270
  follower city W
  place R at 0,-1 r180        joins both followers' city: 4 tiles x 3 for each
  pass
  expect score ann 12         score NAME N | chip ID at PLACE | options N | follower ID at PLACE

On a map: `starts NAME, NAME` names the start squares in order (the first gets the start tile);
`chip ID at PLACE [face up]` moves a chip there after setup (PLACE: supply, aside, box, map:X,Y,
hand:NAME or slot:X,Y:I). `rest random` plays the rest of the game with random choices.

Examples:
  carto run tests/scripts/base/tie.script           prints the transcript
  carto run my.script --log game.log                also writes the game log
  carto run my.script --verbose                     every chip moved at setup on a line of its own";

#[derive(clap::Args)]
#[command(after_help = FORMAT)]
pub(crate) struct Args {
    /// The script to play (format below); `-` reads it from standard input.
    script: std::path::PathBuf,
    /// Writes the JSON Lines game log to this file (`-`: to standard output, instead of the
    /// transcript).
    #[arg(long, value_name = "FILE")]
    log: Option<std::path::PathBuf>,
    /// Lists every chip moved at setup on a line of its own (the transcript otherwise sums them up
    /// by colour and value).
    #[arg(long)]
    verbose: bool,
}

pub(crate) fn run(a: Args) -> Result<(), Failure> {
    let src = carto::render::load::read_input(&a.script)?;
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
    // Warnings about the script (a stack that does not match the tile sets) go to stderr.
    eprint!("{}", r.warnings_text());
    if let Some(path) = &a.log {
        super::write_log(&r.game, &r.variant.params(), path)?;
        if super::is_stdio(path) {
            // The log is the whole of standard output.
            return Ok(());
        }
    }
    emit!("{}", transcript_with(&r.game, opts));
    Ok(())
}

/// The transcript's options for `--verbose`.
pub(crate) fn options(verbose: bool) -> carto::output::TranscriptOptions {
    carto::output::TranscriptOptions {
        verbose,
        ..Default::default()
    }
}
