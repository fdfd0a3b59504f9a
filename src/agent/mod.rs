//! Agents: who decides at a pending decision. An agent sees the engine's state and the named legal
//! options (never a variant's name) and returns the index of one option; a new agent needs no change
//! to the engine or to any rules file.
//!
//! Rooms: `random` (uniform over the options), `greedy` (the best immediate gain), `mcts` (UCT
//! search with random playouts), `human` (a person at a terminal or a pipe), `lookahead` (the
//! scratch copies of the game the searching agents play in), `value` (what an option would gain,
//! read from the board without a copy) and `points` (the rules' points for a feature, remembered).

mod greedy;
mod human;
mod lookahead;
mod mcts;
mod points;
mod random;
mod value;

pub use greedy::Greedy;
pub use human::{situation, Human};
pub use mcts::{Mcts, DEFAULT_PLAYOUTS, MAX_PLAYOUTS};
pub use random::Random;

use crate::game::{Game, GameError};
use crate::lang::interp::Interp;
use crate::rng::Rng;

/// A player at the table.
pub trait Agent: Send {
    /// The agent's spec, as `parse_agent` reads it (`random`, `mcts:200`, …).
    fn name(&self) -> &str;
    /// Picks one of `game.options` (the pending decision, after `game.advance()` returned
    /// `Ok(true)`), for the seat `game.decider()`. Randomness comes only from `rng`.
    fn choose(&mut self, game: &Game<Interp>, rng: &mut Rng) -> Result<usize, GameError>;
}

/// The agents `parse_agent` knows, for help texts and messages.
pub const AGENT_SPECS: &str = "random, greedy, mcts, mcts:N, human";

/// Reads an agent spec: `random`, `greedy`, `mcts` (200 playouts per decision), `mcts:N`, or
/// `human` (a person at standard input and output).
pub fn parse_agent(spec: &str) -> Result<Box<dyn Agent>, String> {
    let spec = spec.trim();
    if let Some(n) = spec.strip_prefix("mcts:") {
        let playouts = n
            .parse::<u32>()
            .ok()
            .filter(|p| (1..=MAX_PLAYOUTS).contains(p))
            .ok_or_else(|| {
                format!(
                    "`{spec}`: the playouts per decision must be a number from 1 to {MAX_PLAYOUTS}"
                )
            })?;
        return Ok(Box::new(Mcts::new(playouts)));
    }
    match spec {
        "random" => Ok(Box::new(Random)),
        "greedy" => Ok(Box::new(Greedy::default())),
        "mcts" => Ok(Box::new(Mcts::new(DEFAULT_PLAYOUTS))),
        "human" => Ok(Box::new(Human::stdio())),
        other => Err(format!("unknown agent `{other}` (known: {AGENT_SPECS})")),
    }
}
