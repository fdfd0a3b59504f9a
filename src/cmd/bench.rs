//! `carto bench`: random games on one core, games per second.

use super::{check_players, emit_json, new_game, Failure, Format, MAX_GAMES};
use carto::diag::Code;
use carto::game::play_random;
use carto::rng::Rng;
use carto::variant::InputError;
use std::sync::atomic::{AtomicBool, Ordering};

const EXAMPLES: &str = "\
Examples:
  cargo build --release && ./target/release/carto bench base my.rules --games 3000
  carto bench my.rules --players ann,bob,cyd --set sale=8
  valgrind --tool=callgrind carto bench my.rules --games 40   instructions, stable on a busy machine";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// Variants to measure: bundled names or paths of rules files (default: base).
    #[arg(value_parser = super::VARIANT_NAMES, hide_possible_values = true)]
    variants: Vec<std::path::PathBuf>,
    /// Games to play for each variant (1 to 100,000,000).
    #[arg(long, default_value_t = 20_000, allow_hyphen_values = true, value_parser = super::parse_count)]
    games: u64,
    /// Player names, comma-separated, in seat order: the number of players of every game.
    #[arg(long, value_delimiter = ',', default_value = "ann,bob", value_parser = super::player_name)]
    players: Vec<String>,
    /// Sets a parameter of the rules of every variant: `--set name=value` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = super::PARAM_NAMES, hide_possible_values = true)]
    sets: Vec<String>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// `text` (a table) or `json` (an array: variant, games, seconds, games_per_second).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

impl Args {
    /// Asks for JSON: a failure is written as JSON too (with its code).
    pub(crate) fn json(&self) -> bool {
        self.format == Format::Json
    }
}

pub(crate) fn run(a: Args) -> Result<(), Failure> {
    if a.games == 0 || a.games > MAX_GAMES {
        return Err(Failure::Usage(format!("--games must be 1 to {MAX_GAMES}")));
    }
    let names: Vec<std::path::PathBuf> = if a.variants.is_empty() {
        vec!["base".into()]
    } else {
        a.variants.clone()
    };
    // Every variant is loaded and checked before the first game, so bad input stops the bench at once.
    let mut loaded = Vec::new();
    for name in &names {
        let sets = &a.sets;
        let v = carto::variant::load_variant_at(name, sets, &|i, e| {
            InputError::new(Code::BadSet, format!("error: `--set {}`: {e}", sets[i]))
        })?;
        check_players(&v, &a.players)?;
        loaded.push((name.to_string_lossy().into_owned(), v));
    }
    let text = a.format == Format::Text;
    if text {
        emitln!(
            "{:<14} {:>9} {:>9} {:>11}",
            "variant",
            "games",
            "seconds",
            "games/s"
        );
    }
    let mut rows = Vec::new();
    // Ctrl-C ends the measure after the game under way: the rows measured so far are printed (the
    // interrupted variant's with the games it played), then carto exits 130. A second Ctrl-C
    // stops at once.
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    for (name, v) in &loaded {
        if STOP.load(Ordering::Relaxed) {
            break;
        }
        let mut game = new_game(v, &a.players, 0, false)?;
        let bar = carto::sim::progress::bar(a.games, a.quiet);
        let t = std::time::Instant::now();
        let mut played = 0;
        for seed in 0..a.games {
            if STOP.load(Ordering::Relaxed) {
                break;
            }
            played += 1;
            game.reset(&a.players, seed, false)?;
            let mut rng = Rng::new(seed ^ 0x5eed);
            play_random(&mut game, &mut rng)?;
            if seed % 64 == 63 {
                if let Some(b) = &bar {
                    b.set_position(seed + 1);
                }
            }
        }
        let s = t.elapsed().as_secs_f64();
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        if played == 0 {
            break;
        }
        if text {
            emitln!(
                "{:<14} {:>9} {:>9.2} {:>11.0}",
                name,
                played,
                s,
                played as f64 / s
            );
        }
        rows.push(serde_json::json!({
            "variant": name,
            "games": played,
            "seconds": s,
            "games_per_second": played as f64 / s,
        }));
    }
    if !text {
        emit_json(&serde_json::Value::Array(rows));
    }
    if STOP.load(Ordering::Relaxed) {
        let _ = super::finish_stdout();
        eprintln!("interrupted: the rows above are the games played before Ctrl-C");
        std::process::exit(130);
    }
    Ok(())
}
