//! Every value the interpreter derives from the game and keeps for later reads.
//!
//! Owner: each interpreter has its own [`Caches`] (a copy for look-ahead gets its own). Lifetime:
//! the interpreter's; what invalidates each cache is said at its field, and done in one place:
//! [`Caches::invalidate`], given an [`Event`] of the game by the code where the interpreter learns
//! of it (the engine's entries in `mod.rs`, an action taken, an effect the rules ran).
//!
//! A checking mode (the `check-caches` feature, and the interpreter's unit tests; switched on per
//! interpreter by [`Interp::check_caches`](super::Interp::check_caches)) recomputes every cached
//! value on every read and panics, naming the cache and both values, when they differ.

use crate::state::FeatureInfo;

mod attr_index;
mod feature;
mod forced_quiet;
mod static_memo;
mod static_vals;

pub(super) use attr_index::AttrIndex;
pub(super) use feature::FeatureFacts;
pub(super) use forced_quiet::ForcedQuiet;
pub(super) use static_memo::StaticMemo;
pub(super) use static_vals::StaticVals;

/// What happened to the game, as far as the caches care.
#[derive(Clone, Copy, Debug)]
pub(super) enum Event {
    /// A game begins (the setup runs): nothing the last game left holds.
    GameBegun,
    /// The engine enters the interpreter (to fire a trigger, list, explain or take an action, ask):
    /// since the rules last ran it may have placed a tile, moved followers or scored a feature.
    EngineStep,
    /// The engine scores a feature, and gives its facts as they stand (before its followers
    /// return): they hold until the board changes.
    FeatureScored(FeatureInfo),
    /// The rules scored points (`score`): no fact of the board changes.
    PointsScored,
    /// The rules ran any other effect: it may have moved chips or followers, or changed strengths.
    BoardChanged,
    /// An action is taken: the limits it uses change, and it may change anything a forced check read.
    ActionTaken,
}

/// The caches, each a type of its own (in `caches/`) whose contents change only through its
/// methods; what invalidates each is said in its file.
#[derive(Clone, Default)]
pub(super) struct Caches {
    /// The facts of the last feature read (`caches/feature.rs`).
    pub(super) feature: FeatureFacts,
    /// `squares_with` results (`caches/attr_index.rs`).
    pub(super) attr_index: AttrIndex,
    /// Per static aggregate, its values so far (`caches/static_vals.rs`).
    pub(super) static_vals: StaticVals,
    /// Per rule, per square, what its static parts gave (`caches/static_memo.rs`).
    pub(super) static_memo: StaticMemo,
    /// The last forced check that found nothing, per current player (`caches/forced_quiet.rs`).
    pub(super) forced_quiet: ForcedQuiet,
    /// The checking mode is on.
    #[cfg(any(test, feature = "check-caches"))]
    pub(super) check: bool,
    /// A planted bug, for the test that shows the checking mode catches a stale cache: the engine's
    /// steps do not drop the feature facts.
    #[cfg(test)]
    pub(super) plant_stale_feature: bool,
}

impl Caches {
    pub(super) fn new(static_aggs: usize) -> Caches {
        Caches {
            static_vals: StaticVals::new(static_aggs),
            ..Caches::default()
        }
    }

    /// Drops (or sets) what `event` makes stale. The only place a cache of the game is invalidated.
    pub(super) fn invalidate(&mut self, event: Event) {
        match event {
            Event::GameBegun | Event::ActionTaken => {
                self.feature.forget();
                self.forced_quiet.forget();
            }
            Event::EngineStep => {
                #[cfg(test)]
                if self.plant_stale_feature {
                    return;
                }
                self.feature.forget();
            }
            Event::BoardChanged => self.feature.forget(),
            Event::FeatureScored(info) => self.feature.set(info),
            Event::PointsScored => {}
        }
    }
}

/// The checking mode found a cached value that differs from the value computed afresh.
#[cold]
#[inline(never)]
pub(super) fn stale(
    cache: &str,
    rule: &str,
    cached: &dyn std::fmt::Debug,
    fresh: &dyn std::fmt::Debug,
) -> ! {
    panic!("stale cache `{cache}` (read by `{rule}`): cached {cached:?}, computed afresh {fresh:?}")
}

impl super::Interp {
    /// Whether the checking mode is on (never, without the `check-caches` feature or tests).
    #[inline(always)]
    pub(super) fn checking(&self) -> bool {
        #[cfg(any(test, feature = "check-caches"))]
        {
            self.caches.check
        }
        #[cfg(not(any(test, feature = "check-caches")))]
        {
            false
        }
    }

    /// Switches the checking mode on or off: every cached read also recomputes its value and
    /// panics on a difference. A copy (`clone`, `clone_from`) inherits the switch.
    #[cfg(any(test, feature = "check-caches"))]
    pub fn check_caches(&mut self, on: bool) {
        self.caches.check = on;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{probe, Interp};
    use super::Event;
    use crate::game::Game;

    /// What an entry from the engine does first (drop what the engine's step made stale), then a
    /// read of the facts of the start tile's first feature, as a rule could make.
    fn entry_reads_start_feature(g: &mut Game<Interp>) {
        g.hooks.caches.invalidate(Event::EngineStep);
        let root = g.st.board.features.find(0);
        g.hooks.feature(&mut g.st, root);
    }

    /// Random games on the endless table in which, before and after every decision, an entry reads
    /// the facts of the start tile's first feature.
    fn play(plant: bool) {
        let v = probe::variant(
            "red 1 x 2",
            "rule road on scored when feature.kind == road { score(feature.winners, feature.tiles) }",
        );
        let players = ["ann".to_string(), "bob".to_string()];
        for seed in 0..4 {
            let mut g = v
                .new_game(v.config.clone(), &players, seed, false)
                .expect("a game starts");
            g.hooks.check_caches(true);
            g.hooks.caches.plant_stale_feature = plant;
            let mut rng = carto_engine::rng::Rng::new(seed);
            while g.advance().expect("the game runs") {
                entry_reads_start_feature(&mut g);
                let i = rng.below(g.options.len() as u32) as usize;
                g.choose(i).expect("the option is taken");
                entry_reads_start_feature(&mut g);
            }
        }
    }

    #[test]
    fn the_checking_mode_passes_caches_invalidated_by_their_events() {
        play(false);
    }

    /// With the engine's steps planted not to drop the feature facts, the first read after the
    /// feature grows is stale, and the checking mode says so.
    #[test]
    #[should_panic(expected = "stale cache `feature facts`")]
    fn the_checking_mode_catches_a_planted_stale_cache() {
        play(true);
    }
}
