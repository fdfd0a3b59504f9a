//! The interpreter's state of one game: what the rules have offered, asked and used so far.
//!
//! Owner: each interpreter has its own [`RunState`]; a copy for look-ahead copies it. Lifetime: one
//! game (the limits used are counted per turn and per round, see `actions`). It is state, not a
//! cache: nothing invalidates it, the game's flow writes it.

use super::{AskRequest, Chosen, Offer};

#[derive(Clone)]
pub(super) struct RunState {
    /// Every string a value can index: the program's, then those only the map spells (attribute
    /// values such as city names) and player names, so strings from maps are first-class values.
    pub(super) strings: Vec<String>,
    /// Actions taken in `seen_turn`.
    pub(super) actions_this_turn: u32,
    /// The decision offered last: its options, their chosen values and chip subsets.
    pub(super) offers: Vec<Offer>,
    pub(super) offer_vals: Vec<Chosen>,
    pub(super) offer_chips: Vec<u16>,
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

use crate::ir::Value;

impl RunState {
    pub(super) fn new(strings: Vec<String>, n_actions: usize, n_groups: usize) -> RunState {
        RunState {
            strings,
            actions_this_turn: 0,
            offers: Vec::new(),
            offer_vals: Vec::new(),
            offer_chips: Vec::new(),
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
}
