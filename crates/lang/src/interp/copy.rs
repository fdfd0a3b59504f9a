//! Copying an interpreter, for agents that look ahead in a copy of the game. `clone_from` between
//! interpreters of the same program and map copies only what a game changes (limits used, offers
//! pending, the arena) into buffers it keeps; what follows from the program and the map alone (the
//! attribute tables and the memoized map-only aggregates) stays as it is.

use super::Interp;
use std::sync::Arc;

impl Clone for Interp {
    fn clone(&self) -> Interp {
        Interp {
            prog: self.prog.clone(),
            map: self.map.clone(),
            attr_vals: self.attr_vals.clone(),
            slot_counts: self.slot_counts.clone(),
            all_squares: self.all_squares.clone(),
            slot_squares: self.slot_squares.clone(),
            strings: self.strings.clone(),
            attr_index: self.attr_index.clone(),
            frame: self.frame.clone(),
            base: self.base,
            lists: self.lists.clone(),
            n_lists: self.n_lists,
            ops: self.ops,
            budget_turn: self.budget_turn,
            actions_this_turn: self.actions_this_turn,
            current: self.current,
            names: self.names.clone(),
            feature_cache: self.feature_cache,
            offers: self.offers.clone(),
            offer_vals: self.offer_vals.clone(),
            offer_chips: self.offer_chips.clone(),
            asks: self.asks.clone(),
            ask_vals: self.ask_vals.clone(),
            ask_next: self.ask_next,
            used_turn: self.used_turn.clone(),
            used_round: self.used_round.clone(),
            groups_used: self.groups_used.clone(),
            seen_turn: self.seen_turn,
            seen_round: self.seen_round,
            listens: self.listens,
            depth: self.depth,
            static_aggs: self.static_aggs.clone(),
            static_free: self.static_free.clone(),
            static_vals: self.static_vals.clone(),
            guards: self.guards.clone(),
            static_parts: self.static_parts.clone(),
            static_memo: self.static_memo.clone(),
            code: self.code.clone(),
            subsets: self.subsets.clone(),
            chosen: self.chosen.clone(),
            scratch: Vec::new(),
            forced_reads: self.forced_reads,
            forced_quiet: self.forced_quiet,
        }
    }

    fn clone_from(&mut self, src: &Interp) {
        let same_map = match (&self.map, &src.map) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !Arc::ptr_eq(&self.prog, &src.prog) || !same_map {
            *self = src.clone();
            return;
        }
        // Every field named, so that a new one cannot be forgotten here. Those that follow from the
        // program and the map alone are left as they are.
        let Interp {
            prog: _,
            map: _,
            attr_vals: _,
            slot_counts: _,
            all_squares: _,
            slot_squares: _,
            strings,
            attr_index: _,
            frame,
            base,
            lists,
            n_lists,
            ops,
            budget_turn,
            actions_this_turn,
            current,
            names: _,
            feature_cache,
            offers,
            offer_vals,
            offer_chips,
            asks,
            ask_vals,
            ask_next,
            used_turn,
            used_round,
            groups_used,
            seen_turn,
            seen_round,
            listens: _,
            depth,
            static_aggs: _,
            static_free: _,
            static_vals: _,
            guards: _,
            static_parts: _,
            static_memo: _,
            code: _,
            // Work lists only: nothing in them outlives an enumeration.
            subsets: _,
            chosen: _,
            scratch: _,
            forced_reads: _,
            forced_quiet,
        } = src;
        // Player names live among the strings.
        self.strings.clone_from(strings);
        self.frame.clone_from(frame);
        self.base = *base;
        // Only the lists in use: those past `n_lists` are free, and cleared before reuse.
        if self.lists.len() < *n_lists {
            self.lists.resize_with(*n_lists, Vec::new);
        }
        for (mine, theirs) in self.lists.iter_mut().zip(&lists[..*n_lists]) {
            mine.clone_from(theirs);
        }
        self.n_lists = *n_lists;
        self.ops = *ops;
        self.budget_turn = *budget_turn;
        self.actions_this_turn = *actions_this_turn;
        self.current = *current;
        self.feature_cache = *feature_cache;
        self.offers.clone_from(offers);
        self.offer_vals.clone_from(offer_vals);
        self.offer_chips.clone_from(offer_chips);
        self.asks.clone_from(asks);
        self.ask_vals.clone_from(ask_vals);
        self.ask_next = *ask_next;
        self.used_turn.clone_from(used_turn);
        self.used_round.clone_from(used_round);
        self.groups_used.clone_from(groups_used);
        self.seen_turn = *seen_turn;
        self.seen_round = *seen_round;
        self.depth = *depth;
        self.forced_quiet = *forced_quiet;
    }
}
