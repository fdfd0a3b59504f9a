//! Per static aggregate (`Prepared::static_aggs`), its values so far keyed by what it reads of
//! outside variables (at most [`StaticVals::MAX`] each). Depends on the map, parameters and
//! constants only: never stale.

use crate::interp::aggregate::StaticVal;
use crate::ir::Value;

#[derive(Clone, Default)]
pub(in crate::interp) struct StaticVals {
    per_agg: Vec<Vec<(Vec<Value>, StaticVal)>>,
}

impl StaticVals {
    /// The most keys kept per aggregate: past them, values are computed afresh.
    pub(in crate::interp) const MAX: usize = 64;

    /// A memo for `aggs` static aggregates, empty.
    pub(in crate::interp) fn new(aggs: usize) -> StaticVals {
        StaticVals {
            per_agg: vec![Vec::new(); aggs],
        }
    }

    /// Aggregate `i`'s keys and values kept.
    pub(in crate::interp) fn of(&self, i: usize) -> &[(Vec<Value>, StaticVal)] {
        &self.per_agg[i]
    }

    /// Whether aggregate `i` keeps no more keys.
    pub(in crate::interp) fn full(&self, i: usize) -> bool {
        self.per_agg[i].len() >= Self::MAX
    }

    /// Keeps aggregate `i`'s value `v` for `key`, unless it is full.
    pub(in crate::interp) fn store(&mut self, i: usize, key: Vec<Value>, v: StaticVal) {
        if !self.full(i) {
            self.per_agg[i].push((key, v));
        }
    }
}
