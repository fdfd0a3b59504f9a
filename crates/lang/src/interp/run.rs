//! The interpreter's state of one game: what the rules have offered, asked and used so far.
//!
//! Owner: each interpreter has its own [`RunState`]; a copy for look-ahead copies it. Lifetime: one
//! game (the limits used are counted per turn and per round, see `actions`). It is state, not a
//! cache: nothing invalidates it, the game's flow writes it.

use super::{AskRequest, Chosen, Offer};
use crate::ir::Value;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

#[derive(Clone)]
pub(super) struct RunState {
    /// Every string a value can index: the program's, then those only the map spells (attribute
    /// values such as city names) and player names, so strings from maps are first-class values.
    /// Shared with copies (strings are added only when a player's name is first read).
    pub(super) strings: Arc<Vec<String>>,
    /// Actions taken in `seen_turn`.
    pub(super) actions_this_turn: u32,
    /// The decision offered last, shared with the copies made while it is pending (an agent copies
    /// the game once per option: copying the list each time made that quadratic). Listing a new
    /// decision starts a list of its own ([`RunState::clear_decision`]).
    pub(super) decision: Arc<Decision>,
    /// Buffers of a decision no longer shared, kept for the next listing.
    pub(super) spare: Decision,
    /// Asked decisions in the order they were asked; `asks[ask_next..]` are still to be offered.
    pub(super) asks: Vec<AskRequest>,
    pub(super) ask_vals: Vec<Value>,
    pub(super) ask_next: usize,
    /// Per action, times taken this turn and this round.
    pub(super) used_turn: Vec<u32>,
    pub(super) used_round: Vec<u32>,
    /// Actions of each group taken this turn.
    pub(super) groups_used: Vec<u32>,
    /// The turn and round the limits above count.
    pub(super) seen_turn: u32,
    pub(super) seen_round: (u32, u8),
}

impl RunState {
    pub(super) fn new(strings: Vec<String>, n_actions: usize, n_groups: usize) -> RunState {
        RunState {
            strings: Arc::new(strings),
            actions_this_turn: 0,
            decision: Arc::default(),
            spare: Decision::default(),
            asks: Vec::new(),
            ask_vals: Vec::new(),
            ask_next: 0,
            used_turn: vec![0; n_actions],
            used_round: Vec::new(),
            groups_used: vec![0; n_groups],
            seen_turn: u32::MAX,
            seen_round: (u32::MAX, 0),
        }
    }

    /// No offers pending: the decision's list is emptied, or, while copies share it, replaced by
    /// the spare buffers.
    #[inline(always)]
    pub(super) fn clear_decision(&mut self) {
        match Arc::get_mut(&mut self.decision) {
            Some(d) => d.clear(),
            None => {
                let mut d = std::mem::take(&mut self.spare);
                d.clear();
                self.decision = Arc::new(d);
            }
        }
    }

    /// Adds an offer to the decision being listed (see [`Decision::push`]); its handle.
    #[inline(always)]
    pub(super) fn push_offer(
        &mut self,
        action: u32,
        player: u8,
        chosen: &[Chosen],
        last: Option<Chosen>,
    ) -> u32 {
        // A decision is listed after `clear_decision`: its own, not shared.
        if let Some(d) = Arc::get_mut(&mut self.decision) {
            return d.push(action, player, chosen, last);
        }
        Arc::make_mut(&mut self.decision).push(action, player, chosen, last)
    }

    /// Adds the chip ids of a chosen subset to the decision being listed; where they start.
    #[inline(always)]
    pub(super) fn push_chips(&mut self, ids: &[u16]) -> u32 {
        let d = match Arc::get_mut(&mut self.decision) {
            Some(d) => d,
            None => Arc::make_mut(&mut self.decision),
        };
        let start = d.offer_chips.len() as u32;
        d.offer_chips.extend_from_slice(ids);
        start
    }
}

/// The options of a decision.
pub(super) struct Decision {
    pub(super) offers: Vec<Offer>,
    /// Per offer, a range: an asked action's parameters, then the choices.
    pub(super) offer_vals: Vec<Chosen>,
    /// Chip subsets chosen, as ranges of chip ids.
    pub(super) offer_chips: Vec<u16>,
    /// Whether some offer's value is a list: `UNKNOWN`, 0 or 1 (see [`Decision::names_lists`]).
    lists: AtomicU8,
}

const UNKNOWN: u8 = 2;

impl Default for Decision {
    fn default() -> Decision {
        Decision {
            offers: Vec::new(),
            offer_vals: Vec::new(),
            offer_chips: Vec::new(),
            lists: AtomicU8::new(UNKNOWN),
        }
    }
}

impl Clone for Decision {
    fn clone(&self) -> Decision {
        Decision {
            offers: self.offers.clone(),
            offer_vals: self.offer_vals.clone(),
            offer_chips: self.offer_chips.clone(),
            lists: AtomicU8::new(UNKNOWN),
        }
    }
}

impl Decision {
    fn clear(&mut self) {
        self.offers.clear();
        self.offer_vals.clear();
        self.offer_chips.clear();
        *self.lists.get_mut() = UNKNOWN;
    }

    /// Adds an offer of the values `chosen`, then `last` if any; its handle.
    #[inline(always)]
    pub(super) fn push(
        &mut self,
        action: u32,
        player: u8,
        chosen: &[Chosen],
        last: Option<Chosen>,
    ) -> u32 {
        let start = self.offer_vals.len() as u32;
        self.offer_vals.extend_from_slice(chosen);
        if let Some(c) = last {
            self.offer_vals.push(c);
        }
        self.offers.push(Offer {
            action,
            player,
            start,
            len: self.offer_vals.len() as u32 - start,
        });
        (self.offers.len() - 1) as u32
    }

    /// Whether some offer's value is a list (a handle into the interpreter's arena, which a copy
    /// then needs): worked out on the first copy of the decision, then remembered.
    pub(super) fn names_lists(&self) -> bool {
        match self.lists.load(Ordering::Relaxed) {
            UNKNOWN => {
                let any = self
                    .offer_vals
                    .iter()
                    .any(|c| matches!(c, Chosen::Value(Value::List(_))));
                self.lists.store(any as u8, Ordering::Relaxed);
                any
            }
            known => known != 0,
        }
    }
}
