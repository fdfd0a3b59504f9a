//! The facts of the last feature read (its root, kind, size, followers ...). Stale as soon as a
//! tile is placed or a follower moves: every event but `PointsScored` forgets them, and
//! `FeatureScored` sets them.

use crate::state::{FeatureInfo, State};

#[derive(Clone, Copy, Default)]
pub(in crate::interp) struct FeatureFacts {
    info: FeatureInfo,
}

impl FeatureFacts {
    /// The facts kept, if they are of the feature whose root is now `root`.
    pub(in crate::interp) fn of(&self, st: &mut State, root: u32) -> Option<FeatureInfo> {
        (self.info.kind.is_some() && st.board.features.find(self.info.root) == root)
            .then_some(self.info)
    }

    /// Keeps `info` as the facts of its feature.
    pub(in crate::interp) fn set(&mut self, info: FeatureInfo) {
        self.info = info;
    }

    /// Forgets the facts kept.
    pub(in crate::interp) fn forget(&mut self) {
        self.info = FeatureInfo::default();
    }
}
