//! Sides, half-edges, rotations and edge kinds: the geometry every tile shares.
//!
//! Sides are numbered clockwise from north: N=0, E=1, S=2, W=3. A rotation is a number of
//! quarter turns clockwise (0..4); rotating by `r` moves whatever was on side `s` to side `(s+r)%4`.
//!
//! Each side has two halves (for fields). Half-edges are numbered clockwise from the north-west
//! corner: Nw=0, Ne=1, En=2, Es=3, Se=4, Sw=5, Ws=6, Wn=7. Rotating by `r` moves half `h` to
//! `(h + 2r) % 8`. Half `h` of one tile touches half [`facing_half`]`(h)` of its neighbour.

/// What runs across one side of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum EdgeKind {
    Field = 0,
    Road = 1,
    City = 2,
}

impl EdgeKind {
    pub(crate) fn from_char(c: char) -> Option<EdgeKind> {
        match c {
            'F' => Some(EdgeKind::Field),
            'R' => Some(EdgeKind::Road),
            'C' => Some(EdgeKind::City),
            _ => None,
        }
    }
    /// The edge on `side` of packed edges (two bits a side, as in [`crate::compiled::Rotated`]).
    #[inline]
    pub fn on_side(edges: u8, side: usize) -> EdgeKind {
        match (edges >> (2 * side)) & 3 {
            0 => EdgeKind::Field,
            1 => EdgeKind::Road,
            _ => EdgeKind::City,
        }
    }
    pub(crate) fn letter(self) -> char {
        match self {
            EdgeKind::Field => 'F',
            EdgeKind::Road => 'R',
            EdgeKind::City => 'C',
        }
    }
    pub fn feature(self) -> FeatureKind {
        match self {
            EdgeKind::Field => FeatureKind::Field,
            EdgeKind::Road => FeatureKind::Road,
            EdgeKind::City => FeatureKind::City,
        }
    }
}

/// The kinds of features a follower can stand on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum FeatureKind {
    Road = 0,
    City = 1,
    Field = 2,
    Monastery = 3,
}

impl FeatureKind {
    pub(crate) const ALL: [FeatureKind; 4] = [
        FeatureKind::Road,
        FeatureKind::City,
        FeatureKind::Field,
        FeatureKind::Monastery,
    ];
    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::Road => "road",
            FeatureKind::City => "city",
            FeatureKind::Field => "field",
            FeatureKind::Monastery => "monastery",
        }
    }
    pub fn from_name(s: &str) -> Option<FeatureKind> {
        FeatureKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

pub(crate) const SIDE_NAMES: [char; 4] = ['N', 'E', 'S', 'W'];
pub(crate) const HALF_NAMES: [&str; 8] = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"];

/// Unit steps for each side, with y growing downwards (row 0 is the top of a map).
pub(crate) const SIDE_DELTA: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

#[inline]
pub fn opposite(side: usize) -> usize {
    (side + 2) & 3
}

#[inline]
pub(crate) fn rotate_side(side: usize, rot: usize) -> usize {
    (side + rot) & 3
}

#[inline]
pub(crate) fn rotate_half(half: usize, rot: usize) -> usize {
    (half + 2 * rot) & 7
}

/// The half-edge of the neighbouring tile that touches half `h`.
#[inline]
pub fn facing_half(h: usize) -> usize {
    let side = h / 2;
    opposite(side) * 2 + 1 - (h & 1)
}

pub(crate) fn side_from_char(c: char) -> Option<usize> {
    SIDE_NAMES.iter().position(|&s| s == c)
}

pub fn half_from_name(s: &str) -> Option<usize> {
    HALF_NAMES.iter().position(|&h| h == s)
}

/// Rotations as written in option names and logs.
pub(crate) fn rotation_degrees(rot: usize) -> u32 {
    (rot as u32 & 3) * 90
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_halves_pair_up() {
        assert_eq!(facing_half(0), 5); // Nw touches Sw of the tile above
        assert_eq!(facing_half(1), 4); // Ne touches Se
        assert_eq!(facing_half(2), 7); // En touches Wn
        assert_eq!(facing_half(3), 6); // Es touches Ws
        for h in 0..8 {
            assert_eq!(facing_half(facing_half(h)), h);
            assert_eq!(facing_half(h) / 2, opposite(h / 2));
        }
    }

    #[test]
    fn rotation_moves_halves_with_their_side() {
        for h in 0..8 {
            for r in 0..4 {
                assert_eq!(rotate_half(h, r) / 2, rotate_side(h / 2, r));
            }
        }
        assert_eq!(rotate_half(0, 1), 2); // Nw -> En after a quarter turn clockwise
    }
}
