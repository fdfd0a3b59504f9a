//! Every value the interpreter derives from the game and keeps for later reads.
//!
//! Owner: each interpreter has its own [`Caches`] (a copy for look-ahead gets its own). Lifetime:
//! the interpreter's; what invalidates each cache is said at its field.

use super::aggregate::StaticVal;
use super::reads;
use crate::ir::Value;
use crate::state::FeatureInfo;

#[derive(Clone, Default)]
pub(super) struct Caches {
    /// The facts of the last feature read (its root, kind, size, followers ...). Stale as soon as
    /// a tile is placed or a follower moves.
    pub(super) feature: FeatureInfo,
    /// `squares_with` results: (attribute name as a string index, value, squares), built on first
    /// use. Depends on the map only: never stale.
    pub(super) attr_index: Vec<(u32, Value, Vec<Value>)>,
    /// Per static aggregate (`Prepared::static_aggs`), its values so far keyed by what it reads of
    /// outside variables (at most 64 each). Depends on the map, parameters and constants only:
    /// never stale.
    pub(super) static_vals: Vec<Vec<(Vec<Value>, StaticVal)>>,
    /// Per rule, per cell, what its static parts gave (0: not known yet, 1: false, 2: true).
    /// Depends on the map only: never stale.
    pub(super) static_memo: Vec<Vec<u8>>,
    /// The last forced check, when it found nothing and what it read is known, per current player
    /// (the first 8 seats). It carries the facts it saw, and is checked against them on each read.
    pub(super) forced_quiet: [Option<reads::Quiet>; 8],
}

impl Caches {
    pub(super) fn new(static_aggs: usize) -> Caches {
        Caches {
            static_vals: vec![Vec::new(); static_aggs],
            ..Caches::default()
        }
    }
}
