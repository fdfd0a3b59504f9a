//! The list arena: every list a run makes (`Value::List` is a handle into it), kept between runs so
//! that its buffers are reused. A top-level run (a trigger, an action, the setup) starts it afresh;
//! lists past the ones in use are free, and cleared when handed out again.

use crate::ir::Value;

/// The lists of the runs, the first `used` of them in use.
#[derive(Clone, Debug, Default)]
pub(super) struct Arena {
    lists: Vec<Vec<Value>>,
    used: usize,
}

impl Arena {
    /// A new empty list: its handle.
    pub(super) fn new_list(&mut self) -> u32 {
        if self.used == self.lists.len() {
            self.lists.push(Vec::new());
        }
        let i = self.used;
        self.lists[i].clear();
        self.used += 1;
        i as u32
    }

    /// Every list free again (a new top-level run).
    pub(super) fn reset(&mut self) {
        self.used = 0;
    }

    /// How many lists are in use (to give back those made after, with [`Arena::release_to`]).
    #[cfg(any(test, feature = "oracle"))]
    pub(super) fn in_use(&self) -> usize {
        self.used
    }

    /// The lists made after `in_use` lists were in use are free again.
    #[cfg(any(test, feature = "oracle"))]
    pub(super) fn release_to(&mut self, in_use: usize) {
        self.used = in_use;
    }

    pub(super) fn get(&self, l: usize) -> Option<&Vec<Value>> {
        self.lists.get(l)
    }

    pub(super) fn get_mut(&mut self, l: usize) -> Option<&mut Vec<Value>> {
        self.lists.get_mut(l)
    }

    /// Makes this arena a copy of `src`: the lists in use, their contents only when `live` (a list
    /// value may still name them: between runs, only a pending offer's values can).
    pub(super) fn copy_from(&mut self, src: &Arena, live: bool) {
        if self.lists.len() < src.used {
            self.lists.resize_with(src.used, Vec::new);
        }
        if live {
            for (mine, theirs) in self.lists.iter_mut().zip(&src.lists[..src.used]) {
                mine.clone_from(theirs);
            }
        }
        self.used = src.used;
    }
}

impl std::ops::Index<usize> for Arena {
    type Output = Vec<Value>;
    #[inline]
    fn index(&self, l: usize) -> &Vec<Value> {
        &self.lists[l]
    }
}

impl std::ops::IndexMut<usize> for Arena {
    #[inline]
    fn index_mut(&mut self, l: usize) -> &mut Vec<Value> {
        &mut self.lists[l]
    }
}
