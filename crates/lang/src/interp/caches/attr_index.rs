//! `squares_with` results: per attribute (its name as a string index) and value, the squares that
//! have it, built on first use. Depends on the map only: never stale.

use crate::ir::Value;

#[derive(Clone, Default)]
pub(in crate::interp) struct AttrIndex {
    entries: Vec<(u32, Value, Vec<Value>)>,
}

impl AttrIndex {
    /// The place of attribute `name`'s squares with `value`, if they were indexed.
    pub(in crate::interp) fn find(&self, name: u32, value: Value) -> Option<usize> {
        self.entries
            .iter()
            .position(|(n, v, _)| *n == name && *v == value)
    }

    /// Keeps attribute `name`'s squares with `value`; their place.
    pub(in crate::interp) fn add(&mut self, name: u32, value: Value, squares: Vec<Value>) -> usize {
        self.entries.push((name, value, squares));
        self.entries.len() - 1
    }

    /// The squares kept at place `i`.
    pub(in crate::interp) fn squares(&self, i: usize) -> &[Value] {
        &self.entries[i].2
    }
}
