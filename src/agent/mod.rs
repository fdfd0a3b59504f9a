//! Agents: who decides at a pending decision. An agent sees the engine's state and the named legal
//! options (never a variant's name) and returns the index of one option; a new agent needs no change
//! to the engine or to any rules file.
//!
//! Rooms: `random` (uniform over the options).

mod random;

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
pub const AGENT_SPECS: &str = "random";

/// Reads an agent spec: `random`.
pub fn parse_agent(spec: &str) -> Result<Box<dyn Agent>, String> {
    match spec.trim() {
        "random" => Ok(Box::new(Random)),
        other => Err(format!("unknown agent `{other}` (known: {AGENT_SPECS})")),
    }
}
