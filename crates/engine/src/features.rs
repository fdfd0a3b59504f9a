//! Features merged incrementally: every segment of every placed tile is a node of a union-find
//! forest; each root carries the feature's running totals. Members of a feature form a circular list
//! (spliced in O(1) on union) so scoring can walk them without searching the board.

use crate::geometry::FeatureKind;

pub const NONE: u32 = u32::MAX;

#[derive(Default, Clone, Debug)]
pub struct Features {
    parent: Vec<u32>,
    size: Vec<u32>,
    next: Vec<u32>,
    pub kind: Vec<FeatureKind>,
    /// Placed-tile index each node belongs to.
    pub tile: Vec<u32>,
    /// Roads and cities: sides still open (root only).
    open: Vec<i32>,
    /// Coats of arms (root only).
    shields: Vec<u16>,
    /// Followers standing on the feature (root only).
    followers: Vec<u16>,
}

impl Features {
    /// Makes this forest a copy of `src`, keeping the buffers.
    pub fn copy_from(&mut self, src: &Features) {
        self.parent.clone_from(&src.parent);
        self.size.clone_from(&src.size);
        self.next.clone_from(&src.next);
        self.kind.clone_from(&src.kind);
        self.tile.clone_from(&src.tile);
        self.open.clone_from(&src.open);
        self.shields.clone_from(&src.shields);
        self.followers.clone_from(&src.followers);
    }

    pub fn clear(&mut self) {
        self.parent.clear();
        self.size.clear();
        self.next.clear();
        self.kind.clear();
        self.tile.clear();
        self.open.clear();
        self.shields.clear();
        self.followers.clear();
    }

    pub fn len(&self) -> usize {
        self.parent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// Adds a node; returns its id.
    pub fn add(&mut self, kind: FeatureKind, tile: u32, open: i32, shields: u16) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.size.push(1);
        self.next.push(id);
        self.kind.push(kind);
        self.tile.push(tile);
        self.open.push(open);
        self.shields.push(shields);
        self.followers.push(0);
        id
    }

    #[inline]
    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            let gp = self.parent[p as usize];
            self.parent[x as usize] = gp;
            x = gp;
        }
        x
    }

    /// Root without path compression (for read-only callers).
    #[inline]
    pub fn root(&self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            x = self.parent[x as usize];
        }
        x
    }

    /// Sides still open of the feature whose root is `root` (read-only callers: find the root
    /// with [`Features::root`]).
    #[inline]
    pub fn open_at_root(&self, root: u32) -> i32 {
        self.open[root as usize]
    }

    /// Coats of arms of the feature whose root is `root`.
    #[inline]
    pub fn shields_at_root(&self, root: u32) -> u16 {
        self.shields[root as usize]
    }

    /// Merges two nodes' features; returns the new root.
    pub fn union(&mut self, a: u32, b: u32) -> u32 {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        if self.size[ra as usize] < self.size[rb as usize] {
            std::mem::swap(&mut ra, &mut rb);
        }
        let (a_, b_) = (ra as usize, rb as usize);
        self.parent[b_] = ra;
        self.size[a_] += self.size[b_];
        self.open[a_] += self.open[b_];
        self.shields[a_] += self.shields[b_];
        self.followers[a_] += self.followers[b_];
        self.next.swap(a_, b_);
        ra
    }

    #[inline]
    pub fn close_sides(&mut self, node: u32, n: i32) {
        let r = self.find(node) as usize;
        self.open[r] -= n;
    }

    #[inline]
    pub fn open(&mut self, node: u32) -> i32 {
        let r = self.find(node) as usize;
        self.open[r]
    }

    #[inline]
    pub fn shields(&mut self, node: u32) -> u16 {
        let r = self.find(node) as usize;
        self.shields[r]
    }

    #[inline]
    pub fn follower_count(&mut self, node: u32) -> u16 {
        let r = self.find(node) as usize;
        self.followers[r]
    }

    #[inline]
    pub fn add_follower(&mut self, node: u32, delta: i32) {
        let r = self.find(node) as usize;
        self.followers[r] = (self.followers[r] as i32 + delta).max(0) as u16;
    }

    /// Calls `f` for every node of the feature containing `node`.
    pub fn for_each_member(&self, node: u32, mut f: impl FnMut(u32)) {
        let start = node;
        let mut x = start;
        loop {
            f(x);
            x = self.next[x as usize];
            if x == start {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_adds_totals_and_joins_member_lists() {
        let mut f = Features::default();
        let a = f.add(FeatureKind::City, 0, 2, 1);
        let b = f.add(FeatureKind::City, 1, 1, 0);
        let c = f.add(FeatureKind::City, 2, 1, 1);
        f.union(a, b);
        f.close_sides(a, 2);
        f.union(b, c);
        f.close_sides(c, 2);
        assert_eq!(f.open(a), 0);
        assert_eq!(f.shields(c), 2);
        let mut members = vec![];
        f.for_each_member(b, |x| members.push(x));
        members.sort();
        assert_eq!(members, vec![a, b, c]);
        // A union inside one feature changes nothing.
        assert_eq!(f.union(a, c), f.find(b));
        let mut n = 0;
        f.for_each_member(a, |_| n += 1);
        assert_eq!(n, 3);
    }
}
