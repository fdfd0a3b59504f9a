//! A forced check that found nothing, remembered with the facts it saw (see
//! `crate::analysis::reads` for what a check reads, worked out before play): it holds while nothing
//! of the kinds it read has changed.

use super::Interp;
use crate::analysis::reads::Reads;
use crate::state::State;

/// The changing facts of a game a check may read, as they stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Facts {
    current: u8,
    chips: u32,
    tiles: usize,
    turn: (u32, u32, bool, bool),
}

impl Facts {
    pub(crate) fn now(st: &State) -> Facts {
        Facts {
            current: st.current,
            chips: st.chip_changes,
            tiles: st.board.placed.len(),
            turn: (st.turn, st.round, st.follower_placed_now, st.in_extra_turn),
        }
    }

    /// Whether every fact of the kinds `reads` is as in `then`.
    fn same(&self, then: &Facts, reads: Reads) -> bool {
        self.current == then.current
            && (!reads.has(Reads::CHIPS) || self.chips == then.chips)
            && (!reads.has(Reads::TILES) || self.tiles == then.tiles)
            && (!reads.has(Reads::TURN) || self.turn == then.turn)
    }
}

/// A forced check that found nothing: the facts it saw and the kinds of facts it read.
#[derive(Clone, Copy, Debug)]
pub(super) struct Quiet {
    pub(crate) facts: Facts,
    pub(crate) reads: Reads,
}

impl Interp {
    /// Whether the last forced check with this current player found nothing and nothing it read
    /// has changed since.
    pub(super) fn forced_still_quiet(&self, st: &State) -> bool {
        self.caches
            .forced_quiet
            .get(st.current)
            .is_some_and(|q| Facts::now(st).same(&q.facts, q.reads))
    }

    /// Forgets the quiet check of the current player (a check runs again).
    pub(super) fn forget_forced_quiet(&mut self, st: &State) {
        self.caches.forced_quiet.set(st.current, None);
    }

    /// Remembers a forced check that found nothing (`when_only`: every forced `when` was false), if
    /// what it read is known.
    pub(super) fn note_forced_quiet(&mut self, st: &State, when_only: bool) {
        let reads = if when_only {
            self.prep.forced_reads.0
        } else {
            self.prep.forced_reads.1
        };
        let quiet = (!reads.has(Reads::UNKNOWN)).then(|| Quiet {
            facts: Facts::now(st),
            reads,
        });
        self.caches.forced_quiet.set(st.current, quiet);
    }
}

#[cfg(test)]
mod tests {
    use crate::interp::probe::{forced as probe, LAY};

    #[test]
    fn a_check_is_quiet_only_while_what_it_read_stays() {
        let v = probe(LAY);
        let mut g = v
            .new_game(v.config.clone(), &["ann".into(), "bob".into()], 1, false)
            .expect("a game starts");
        g.hooks.note_forced_quiet(&g.st, true);
        assert!(g.hooks.forced_still_quiet(&g.st));
        // Tiles are not read while the `when` alone decided.
        let first = g.st.board.placed[0];
        g.st.board.placed.push(first);
        assert!(g.hooks.forced_still_quiet(&g.st));
        g.st.chips_changed();
        assert!(!g.hooks.forced_still_quiet(&g.st));
        // Once the choices were listed, a tile placed counts.
        g.hooks.note_forced_quiet(&g.st, false);
        g.st.board.placed.push(first);
        assert!(!g.hooks.forced_still_quiet(&g.st));
        // The current player always counts: each player's quiet check is their own, and holds
        // on their next turn while what it read stays.
        g.hooks.note_forced_quiet(&g.st, true);
        g.st.current ^= 1;
        assert!(!g.hooks.forced_still_quiet(&g.st));
        g.hooks.note_forced_quiet(&g.st, true);
        g.st.current ^= 1;
        assert!(g.hooks.forced_still_quiet(&g.st));
        g.st.chips_changed();
        g.st.current ^= 1;
        assert!(!g.hooks.forced_still_quiet(&g.st));
    }
}
