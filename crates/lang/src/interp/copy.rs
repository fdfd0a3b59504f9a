//! Copying an interpreter, for agents that look ahead in a copy of the game. `clone_from` between
//! interpreters of the same program and map copies only what a game changes (the [`RunState`],
//! the caches that follow the game, the arena) into buffers it keeps, and shares the pending
//! decision's offers (see [`RunState::decision`]); the program's
//! [`Prepared`](super::prepared::Prepared) facts and the [`MapMemo`](super::memo::MapMemo) are
//! shared, and the map-only memos of [`Caches`] stay as they are.

use super::caches::Caches;
use super::run::RunState;
use super::Interp;
use std::sync::Arc;

impl Clone for Interp {
    fn clone(&self) -> Interp {
        Interp {
            prog: self.prog.clone(),
            code: self.code.clone(),
            prep: self.prep.clone(),
            memo: self.memo.clone(),
            run: self.run.clone(),
            caches: self.caches.clone(),
            frame: self.frame.clone(),
            lists: self.lists.clone(),
            budget: self.budget,
            current: self.current,
            depth: self.depth,
            subsets: self.subsets.clone(),
            chosen: self.chosen.clone(),
            scratch: Vec::new(),
        }
    }

    fn clone_from(&mut self, src: &Interp) {
        if !Arc::ptr_eq(&self.prog, &src.prog) || !Arc::ptr_eq(&self.memo, &src.memo) {
            *self = src.clone();
            return;
        }
        // Every field named, so that a new one cannot be forgotten here. Those that follow from the
        // program and the map alone are left as they are.
        let Interp {
            prog: _,
            code: _,
            prep: _,
            memo: _,
            run,
            caches,
            frame,
            lists,
            budget,
            current,
            depth,
            // Work lists only: nothing in them outlives an enumeration.
            subsets: _,
            chosen: _,
            scratch: _,
        } = src;
        copy_run(&mut self.run, run);
        copy_caches(&mut self.caches, caches);
        self.frame.clone_from(frame);
        // Only the lists in use. Between runs (a copy is made at a decision) every run starts a
        // fresh arena, and only an offer's value can still name a list: without one, no list is
        // copied.
        let live = *depth > 0 || run.decision.names_lists() || frame.names_lists();
        self.lists.copy_from(lists, live);
        self.budget = *budget;
        self.current = *current;
        self.depth = *depth;
    }
}

/// Copies a game's run state into buffers `to` keeps; the pending decision and the strings are
/// shared, not copied.
fn copy_run(to: &mut RunState, from: &RunState) {
    let RunState {
        strings,
        actions_this_turn,
        decision,
        spare: _,
        asks,
        ask_vals,
        ask_next,
        used_turn,
        used_round,
        groups_used,
        seen_turn,
        seen_round,
    } = from;
    if !Arc::ptr_eq(&to.strings, strings) {
        to.strings = strings.clone();
    }
    if !Arc::ptr_eq(&to.decision, decision) {
        // The copy's own list, if no one else holds it, becomes its spare buffers.
        let own = std::mem::replace(&mut to.decision, decision.clone());
        if let Ok(d) = Arc::try_unwrap(own) {
            to.spare = d;
        }
    }
    to.actions_this_turn = *actions_this_turn;
    to.asks.clone_from(asks);
    to.ask_vals.clone_from(ask_vals);
    to.ask_next = *ask_next;
    to.used_turn.clone_from(used_turn);
    to.used_round.clone_from(used_round);
    to.groups_used.clone_from(groups_used);
    to.seen_turn = *seen_turn;
    to.seen_round = *seen_round;
}

/// Copies the caches that follow the game; the map-only memos `to` has stay (they hold for any game
/// on this map).
fn copy_caches(to: &mut Caches, from: &Caches) {
    let Caches {
        feature,
        attr_index: _,
        static_vals: _,
        static_memo: _,
        forced_quiet,
        #[cfg(any(test, feature = "check-caches"))]
        check,
        #[cfg(test)]
        plant_stale_feature,
    } = from;
    to.feature = *feature;
    to.forced_quiet = *forced_quiet;
    #[cfg(any(test, feature = "check-caches"))]
    {
        to.check = *check;
    }
    #[cfg(test)]
    {
        to.plant_stale_feature = *plant_stale_feature;
    }
}
