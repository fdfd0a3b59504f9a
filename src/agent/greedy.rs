//! `greedy`: the option with the best immediate gain for itself. Each option is taken in a scratch
//! copy of the game, the turn is finished quietly (no further follower or action) and the game is
//! ended there, so the variant's own rules score what the option completed and what the features
//! its followers stand on are worth now. The follower heuristic: a follower still in the supply is
//! worth more the more tiles are left, so none is spent on a feature worth less than that. Ties are
//! broken by the seeded generator.

use super::lookahead::{finish_quietly, margin, Scratch};
use super::Agent;
use crate::game::{Game, GameError};
use crate::lang::interp::Interp;
use crate::rng::Rng;

/// What a follower kept in the supply is worth, in points, at the start of the game (falling to 0
/// as the tiles run out).
const FOLLOWER_WORTH: f64 = 3.0;

#[derive(Default)]
pub struct Greedy {
    scratch: Scratch,
    best: Vec<usize>,
}

impl Greedy {
    /// The value of option `i` for the deciding player `me`.
    fn value(&mut self, game: &Game<Interp>, i: usize, me: u8) -> Result<f64, GameError> {
        let tiles_total: u32 = game.cfg.counts.iter().sum();
        let left = game.st.stack.len() as f64 / f64::from(tiles_total.max(1));
        let g = self.scratch.load(game);
        g.choose(i)?;
        // End the game after this turn: no tile to draw, so the final scoring runs next.
        g.st.stack.clear();
        // Followers in the supply are counted before the final scoring returns any.
        let turn = g.st.turn;
        while g.st.turn == turn && g.advance()? {
            let q = super::lookahead::quiet_option(&g.options);
            g.choose(q)?;
        }
        let spare = f64::from(g.st.followers_in_supply(me));
        finish_quietly(g)?;
        Ok(margin(g, me) as f64 + FOLLOWER_WORTH * left * spare)
    }
}

impl Agent for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, game: &Game<Interp>, rng: &mut Rng) -> Result<usize, GameError> {
        let n = game.options.len();
        if n <= 1 {
            return Ok(0);
        }
        let me = game.decider();
        let mut best = f64::NEG_INFINITY;
        self.best.clear();
        for i in 0..n {
            let v = self.value(game, i, me)?;
            if v > best {
                best = v;
                self.best.clear();
            }
            if v == best {
                self.best.push(i);
            }
        }
        Ok(self.best[rng.below(self.best.len() as u32) as usize])
    }
}
