//! Features merged incrementally: every segment of every placed tile is a node of a union-find
//! forest; each root carries the feature's running totals. Members of a feature form a circular list
//! (spliced in O(1) on union) so scoring can walk them without searching the board.

use crate::geometry::FeatureKind;

pub const NONE: u32 = u32::MAX;

/// One node's union-find record; the totals are kept at the root.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    size: u32,
    /// The next member of the node's feature (a circular list).
    next: u32,
    /// Roads and cities: sides still open (root only).
    open: i32,
    /// Coats of arms (root only).
    shields: u16,
    /// Followers standing on the feature (root only).
    followers: u16,
}

#[derive(Default, Clone, Debug)]
pub struct Features {
    node: Vec<Node>,
    pub kind: Vec<FeatureKind>,
    /// Placed-tile index each node belongs to.
    pub tile: Vec<u32>,
}

impl Features {
    /// Makes this forest a copy of `src`, keeping the buffers.
    pub(crate) fn copy_from(&mut self, src: &Features) {
        self.node.clone_from(&src.node);
        self.kind.clone_from(&src.kind);
        self.tile.clone_from(&src.tile);
    }

    pub(crate) fn clear(&mut self) {
        self.node.clear();
        self.kind.clear();
        self.tile.clear();
    }

    pub fn len(&self) -> usize {
        self.node.len()
    }

    pub fn is_empty(&self) -> bool {
        self.node.is_empty()
    }

    /// Adds a node; returns its id.
    pub fn add(&mut self, kind: FeatureKind, tile: u32, open: i32, shields: u16) -> u32 {
        let id = self.node.len() as u32;
        self.node.push(Node {
            parent: id,
            size: 1,
            next: id,
            open,
            shields,
            followers: 0,
        });
        self.kind.push(kind);
        self.tile.push(tile);
        id
    }

    /// Adds the segments of one placed tile as nodes, ids from [`Features::len`] on (returned):
    /// their kinds, the tile's index, and each segment's open sides and coats of arms.
    pub(crate) fn add_tile(
        &mut self,
        kinds: &[FeatureKind],
        tile: u32,
        open: &[i32],
        shields: &[u8],
    ) -> u32 {
        let first = self.node.len() as u32;
        let n = kinds.len();
        self.node.extend(
            open.iter()
                .zip(shields)
                .zip(first..)
                .map(|((&open, &shields), id)| Node {
                    parent: id,
                    size: 1,
                    next: id,
                    open,
                    shields: u16::from(shields),
                    followers: 0,
                }),
        );
        self.kind.extend(kinds.iter().copied());
        self.tile.extend(std::iter::repeat_n(tile, n));
        first
    }

    #[inline]
    pub fn find(&mut self, mut x: u32) -> u32 {
        loop {
            let p = self.node[x as usize].parent;
            if p == x {
                return x;
            }
            let gp = self.node[p as usize].parent;
            self.node[x as usize].parent = gp;
            x = gp;
        }
    }

    /// Root without path compression (for read-only callers).
    #[inline]
    pub fn root(&self, mut x: u32) -> u32 {
        loop {
            let p = self.node[x as usize].parent;
            if p == x {
                return x;
            }
            x = p;
        }
    }

    /// Sides still open of the feature whose root is `root` (read-only callers: find the root
    /// with [`Features::root`]).
    #[inline]
    pub fn open_at_root(&self, root: u32) -> i32 {
        self.node[root as usize].open
    }

    /// Coats of arms of the feature whose root is `root`.
    #[inline]
    pub fn shields_at_root(&self, root: u32) -> u16 {
        self.node[root as usize].shields
    }

    /// Segments (nodes) of the feature whose root is `root`: a feature only grows, so while a
    /// board has only tiles placed, a root with as many members as before has the same members.
    #[inline]
    pub fn size_at_root(&self, root: u32) -> u32 {
        self.node[root as usize].size
    }

    /// Followers standing on the feature whose root is `root`.
    #[inline]
    pub fn followers_at_root(&self, root: u32) -> u16 {
        self.node[root as usize].followers
    }

    /// Merges two nodes' features; returns the new root.
    pub(crate) fn union(&mut self, a: u32, b: u32) -> u32 {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        if self.node[ra as usize].size < self.node[rb as usize].size {
            std::mem::swap(&mut ra, &mut rb);
        }
        let b_ = self.node[rb as usize];
        let a_ = &mut self.node[ra as usize];
        a_.size += b_.size;
        a_.open += b_.open;
        a_.shields += b_.shields;
        a_.followers += b_.followers;
        // Splice the member lists: swap the two nodes' successors.
        let a_next = a_.next;
        a_.next = b_.next;
        let b_mut = &mut self.node[rb as usize];
        b_mut.parent = ra;
        b_mut.next = a_next;
        ra
    }

    #[inline]
    pub(crate) fn close_sides(&mut self, node: u32, n: i32) {
        let r = self.find(node) as usize;
        self.node[r].open -= n;
    }

    #[inline]
    pub fn open(&mut self, node: u32) -> i32 {
        let r = self.find(node) as usize;
        self.node[r].open
    }

    #[inline]
    pub fn shields(&mut self, node: u32) -> u16 {
        let r = self.find(node) as usize;
        self.node[r].shields
    }

    #[inline]
    pub fn follower_count(&mut self, node: u32) -> u16 {
        let r = self.find(node) as usize;
        self.node[r].followers
    }

    #[inline]
    pub(crate) fn add_follower(&mut self, node: u32, delta: i32) {
        let r = self.find(node) as usize;
        let f = &mut self.node[r].followers;
        *f = (*f as i32 + delta).max(0) as u16;
    }

    /// Calls `f` for every node of the feature containing `node`.
    pub fn for_each_member(&self, node: u32, mut f: impl FnMut(u32)) {
        let start = node;
        let mut x = start;
        loop {
            f(x);
            x = self.node[x as usize].next;
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
