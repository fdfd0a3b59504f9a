//! `random`: every legal option equally likely.

use super::Agent;
use crate::game::{Game, GameError};
use crate::lang::interp::Interp;
use crate::rng::Rng;

/// Uniform over the legal options: the same choices `carto play` makes from the same generator.
pub struct Random;

impl Agent for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, game: &Game<Interp>, rng: &mut Rng) -> Result<usize, GameError> {
        Ok(rng.below(game.options.len() as u32) as usize)
    }
}
