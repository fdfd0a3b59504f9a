//! The subcommands, one room each (its clap `Args` and its `run`), and what they share: how a command
//! fails, how it writes to stdout, and the checks on player names.

/// Writes to stdout; a closed pipe (`carto play base | head`) is not an error worth a panic.
macro_rules! emit {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
}
macro_rules! emitln {
    () => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock());
    }};
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

pub mod bench;
pub mod check;
pub mod doc;
pub mod list;
pub mod play;
pub mod render;
pub mod replay;
pub mod run;
pub mod sim;
pub mod view;

use carto::game::{Game, GameError};
use carto::lang::interp::Interp;
use carto::variant::{InputError, Variant};

pub const MAX_PLAYERS: usize = 6;
/// The most games `bench` and `sim` will play in one run.
pub const MAX_GAMES: u64 = 100_000_000;

/// Why a command failed: a problem in the input (exit 1) or bad usage (exit 2).
pub enum Failure {
    Input(InputError),
    Usage(String),
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::Input(e)
    }
}

impl From<GameError> for Failure {
    fn from(e: GameError) -> Self {
        Failure::Input(InputError(format!("error: {e}")))
    }
}

pub fn check_players(v: &Variant, players: &[String]) -> Result<(), Failure> {
    if players.len() > MAX_PLAYERS {
        return Err(Failure::Usage(format!(
            "at most {MAX_PLAYERS} players, not {}",
            players.len()
        )));
    }
    let (lo, hi) = v.players;
    if players.len() < lo || players.len() > hi {
        return Err(Failure::Usage(format!(
            "{} is for {lo} to {hi} players, not {}",
            v.name,
            players.len()
        )));
    }
    for (i, p) in players.iter().enumerate() {
        if p.trim().is_empty() {
            return Err(Failure::Usage("a player name is empty".into()));
        }
        if players[..i].contains(p) {
            return Err(Failure::Usage(format!("player name `{p}` given twice")));
        }
    }
    Ok(())
}

pub fn new_game(
    v: &Variant,
    players: &[String],
    seed: u64,
    record: bool,
) -> Result<Game<Interp>, Failure> {
    Ok(v.new_game(v.config.clone(), players, seed, record)?)
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
