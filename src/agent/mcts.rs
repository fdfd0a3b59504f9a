//! `mcts[:N]`: Monte Carlo search over the options `greedy` values best. The decision's options are
//! valued as greedy values them (cheap: read from the board), and the best few (`CANDIDATES`) are
//! tried in N playouts in all, the same number each: a playout takes the candidate in a sample of
//! the game (a copy in which what the player may not see, such as the tiles to come, is dealt
//! afresh: `View::sample`), then every player, the searching one included, plays greedy until each
//! other player has had one turn (`ROUNDS`), and the position there is valued as greedy values a
//! position: the game ended there (the rules' own final scoring), the searching player's lead over
//! the best other player, plus the followers it keeps in the supply. The candidate with the best
//! mean is taken. In the playouts, a decision of actions only (no tile, no follower) takes the quiet
//! choice unvalued (`Greedy::rollout`), and such a decision of the searching player is not searched.
//! Every candidate is played in the same samples (the k-th playout of each deals the
//! hidden alike), so the comparison between candidates is not blurred by the luck of the draw.
//!
//! Why: greedy looks one move deep and ends the game at once, so it cannot see what the others will
//! make of an option (a city it leaves open for a stronger player, a farm it sets up for them), nor
//! the tiles it may draw; random rollouts (this agent's first form, plain UCT) see that only through
//! heavy noise and lost to greedy on the chip variants. Greedy rollouts are cheap now that greedy
//! reads most options from the board.

use super::greedy::{worth, Greedy};
use super::lookahead::{finish_quietly, margin, Scratch, MAX_LOOKAHEAD_DECISIONS};
use super::{Agent, View};
use crate::game::{GameError, Opt};
use crate::rng::Rng;

/// Playouts per decision when the spec gives none (`mcts`).
pub(crate) const DEFAULT_PLAYOUTS: u32 = 16;
/// Most playouts a spec may ask for per decision.
pub(crate) const MAX_PLAYOUTS: u32 = 1_000_000;
/// How many of greedy's best options are searched.
const CANDIDATES: usize = 4;
/// Rounds a playout plays: after the searching player's turn, each other player plays this many
/// turns (and the searching player one turn fewer) before the position is valued.
const ROUNDS: u32 = 1;

pub(crate) struct Mcts {
    spec: String,
    playouts: u32,
    /// Values the decision's options.
    greedy: Greedy,
    /// Plays every seat in the playouts.
    policy: Greedy,
    scratch: Scratch,
    order: Vec<usize>,
    total: Vec<f64>,
}

impl Mcts {
    pub(crate) fn new(playouts: u32) -> Mcts {
        Mcts {
            spec: format!("mcts:{playouts}"),
            playouts,
            greedy: Greedy::default(),
            policy: Greedy::rollout(),
            scratch: Scratch::default(),
            order: Vec::new(),
            total: Vec::new(),
        }
    }

    /// One playout after option `i`, in the sample dealt from `rng`: the value of the position
    /// after one round of greedy play, for the deciding player.
    fn playout(&mut self, view: &View, i: usize, rng: &mut Rng) -> Result<f64, GameError> {
        let me = view.me();
        let g = view.sample(&mut self.scratch, rng);
        // Every player passes the phases' actions in a playout (`Greedy::rollout`): the rules are
        // not asked to list them (an upgrade paid with chips worth exactly so much: every such
        // set of chips, times every follower, times the chip kept, at every follower phase).
        g.pass_actions();
        g.choose(i)?;
        let stop = g.st.turn + ROUNDS * g.st.players.len().max(1) as u32;
        let mut n = 0;
        while n < MAX_LOOKAHEAD_DECISIONS && g.st.turn < stop && g.advance()? {
            let k = self.policy.choose(&View::of(g), rng)?;
            g.choose(k)?;
            n += 1;
        }
        // The playout ends here: no tile left, so the rules' final scoring values the position.
        let tiles_total: u32 = g.cfg.counts.iter().sum();
        let left = g.st.stack.len() as f64 / f64::from(tiles_total.max(1));
        g.st.stack.clear();
        let spare = u32::from(g.st.followers_in_supply(me));
        finish_quietly(g)?;
        Ok(worth(margin(g, me), left, spare))
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
        // Greedy's best first; equal values in the order of the options.
        let values = self.greedy.values(view)?;
        self.order.clear();
        self.order.extend(0..n);
        self.order
            .sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
        // A decision of actions only (no tile, no follower: paying for an upgrade, laying a chip
        // back) is not searched: the playouts take the quiet choice there, so they could not
        // tell its options apart beyond what greedy's values already say.
        let actions_only = view
            .options()
            .iter()
            .all(|o| matches!(o, Opt::Pass | Opt::Draw | Opt::Action(_)));
        if actions_only {
            return Ok(self.order[0]);
        }
        let k = CANDIDATES.min(n);
        self.order.truncate(k);
        self.total.clear();
        self.total.resize(k, 0.0);
        let per = (self.playouts as usize).div_ceil(k).max(1);
        for _ in 0..per {
            let seed = rng.next_u64();
            for c in 0..k {
                let mut world = Rng::new(seed);
                let v = self.playout(view, self.order[c], &mut world)?;
                self.total[c] += v;
            }
        }
        // The best mean; ties go to greedy's order.
        let mut best = 0;
        for c in 1..k {
            if self.total[c] > self.total[best] {
                best = c;
            }
        }
        Ok(self.order[best])
    }
}
