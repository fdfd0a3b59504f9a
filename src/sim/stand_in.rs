//! A stand-in for the agents of `src/agent/` until they land: the agreed trait and a uniformly
//! random agent (the same choices `carto play` makes from the same generator).

use crate::game::{Game, GameError};
use crate::lang::interp::Interp;
use crate::rng::Rng;

pub trait Agent: Send {
    fn name(&self) -> &str;
    /// Picks one of `game.options` (the pending decision).
    fn choose(&mut self, game: &Game<Interp>, rng: &mut Rng) -> Result<usize, GameError>;
}

struct Random;

impl Agent for Random {
    fn name(&self) -> &str {
        "random"
    }
    fn choose(&mut self, game: &Game<Interp>, rng: &mut Rng) -> Result<usize, GameError> {
        Ok(rng.below(game.options.len() as u32) as usize)
    }
}

pub fn parse_agent(spec: &str) -> Result<Box<dyn Agent>, String> {
    match spec {
        "random" => Ok(Box::new(Random)),
        _ => Err(format!("unknown agent `{spec}` (known: random)")),
    }
}
