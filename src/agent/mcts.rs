//! `mcts[:N]`: Monte Carlo tree search with UCT (UCB1) over the pending decision's named options:
//! N playouts per decision, each in a sample of the game (a scratch copy, buffers kept, in which
//! what the player may not see is dealt afresh: `View::sample`), one option chosen by UCB1, then a rollout of
//! uniformly random choices to the end of the turn, where the game is ended (no tile left) so the
//! rules' own final scoring values the position. (Rollouts to the end of the game lose to `greedy`:
//! random play leaves nearly every feature open, so their outcome says little about the option.)
//! A playout's reward for the deciding player is a logistic function of its score margin over the
//! best other player. The most visited option is taken.

use super::lookahead::{finish_randomly, margin, Scratch, MAX_LOOKAHEAD_DECISIONS};
use super::{Agent, View};
use crate::game::GameError;
use crate::rng::Rng;

/// Playouts per decision when the spec gives none (`mcts`).
pub const DEFAULT_PLAYOUTS: u32 = 200;
/// Most playouts a spec may ask for per decision.
pub const MAX_PLAYOUTS: u32 = 1_000_000;
/// The UCB1 exploration constant (rewards lie in 0..=1).
const EXPLORATION: f64 = 0.7;
/// The reward is a logistic function of the score margin: this many points of margin make the
/// difference between a reward of 1/2 and about 3/4.
const MARGIN_SCALE: f64 = 15.0;
/// Turns a rollout plays with random choices (the rest of the decision's turn, and the turns after
/// it up to this many) before the game is ended there and scored by the rules.
const ROLLOUT_TURNS: u32 = 1;

pub struct Mcts {
    spec: String,
    playouts: u32,
    scratch: Scratch,
    visits: Vec<u32>,
    reward: Vec<f64>,
}

impl Mcts {
    pub fn new(playouts: u32) -> Mcts {
        Mcts {
            spec: format!("mcts:{playouts}"),
            playouts,
            scratch: Scratch::default(),
            visits: Vec::new(),
            reward: Vec::new(),
        }
    }

    /// The option UCB1 tries next: every option once, in order, then the best upper bound.
    fn select(&self, total: u32) -> usize {
        if let Some(i) = self.visits.iter().position(|&v| v == 0) {
            return i;
        }
        let ln = f64::from(total).ln();
        let mut best = (0, f64::NEG_INFINITY);
        for (i, (&v, &r)) in self.visits.iter().zip(&self.reward).enumerate() {
            let v = f64::from(v);
            let ucb = r / v + EXPLORATION * (ln / v).sqrt();
            if ucb > best.1 {
                best = (i, ucb);
            }
        }
        best.0
    }

    /// One playout after option `i`: its reward for player `me`.
    fn playout(&mut self, view: &View, i: usize, rng: &mut Rng) -> Result<f64, GameError> {
        let me = view.me();
        let g = view.sample(&mut self.scratch, rng);
        g.choose(i)?;
        let stop = g.st.turn + ROLLOUT_TURNS;
        let mut n = 0;
        while n < MAX_LOOKAHEAD_DECISIONS && g.st.turn < stop && g.advance()? {
            let k = rng.below(g.options.len() as u32) as usize;
            g.choose(k)?;
            n += 1;
        }
        // The rollout ends here: no tile left, so the rules' final scoring values the position.
        g.st.stack.clear();
        finish_randomly(g, rng)?;
        let m = margin(g, me) as f64;
        Ok(1.0 / (1.0 + (-m / MARGIN_SCALE).exp()))
    }
}

impl Agent for Mcts {
    fn name(&self) -> &str {
        &self.spec
    }

    fn choose(&mut self, view: &View, rng: &mut Rng) -> Result<usize, GameError> {
        let n = view.options().len();
        if n <= 1 {
            return Ok(0);
        }
        self.visits.clear();
        self.visits.resize(n, 0);
        self.reward.clear();
        self.reward.resize(n, 0.0);
        for t in 0..self.playouts {
            let i = self.select(t);
            let r = self.playout(view, i, rng)?;
            self.visits[i] += 1;
            self.reward[i] += r;
        }
        // The most visited option; ties go to the better mean, then to the first.
        let mut best = 0;
        for i in 1..n {
            let (vi, vb) = (self.visits[i], self.visits[best]);
            let better_mean = self.reward[i] * f64::from(vb) > self.reward[best] * f64::from(vi);
            if vi > vb || (vi == vb && better_mean) {
                best = i;
            }
        }
        Ok(best)
    }
}
