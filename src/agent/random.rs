//! `random`: every legal option equally likely.

use super::Agent;
use super::View;
use crate::game::GameError;
use crate::rng::Rng;

/// Uniform over the legal options: the same choices `carto play` makes from the same generator.
pub struct Random;

impl Agent for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, view: &View, rng: &mut Rng) -> Result<usize, GameError> {
        Ok(rng.below(view.options().len() as u32) as usize)
    }
}
