//! Tile types compiled for play: for each rotation, packed edges and which segment lies on each side
//! and half-edge, so placement and merging never look anything up by name.

use crate::geometry::{rotate_half, rotate_side, EdgeKind, FeatureKind};
use crate::tiles::TileType;

pub const NO_SEG: u8 = u8::MAX;

/// One rotation of a tile type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rotated {
    /// Two bits per side (side `s` at bits `2s..2s+2`), values of [`EdgeKind`].
    pub edges: u8,
    /// Segment index of the road or city on each side, or [`NO_SEG`] for a field side.
    pub side_seg: [u8; 4],
    /// Segment index of the field on each half-edge, or [`NO_SEG`] for a city side.
    pub half_seg: [u8; 8],
}

/// A tile type ready for play.
#[derive(Clone, Debug)]
pub struct CompiledTile {
    pub id: String,
    pub kinds: Vec<FeatureKind>,
    pub shields: Vec<u8>,
    /// For each segment, the sides it covers when it is a road or a city (its open sides when
    /// placed alone), else 0.
    pub(crate) open_sides: Vec<i32>,
    /// For each segment, the city segments it touches (fields only).
    pub adjacent_cities: Vec<Vec<u8>>,
    /// For each segment: rotated sides (bit mask) per rotation, for naming follower options.
    pub seg_sides: Vec<[u8; 4]>,
    /// For each segment: rotated halves (bit mask) per rotation.
    pub seg_halves: Vec<[u8; 4]>,
    pub rot: [Rotated; 4],
    /// Rotations that give different placements (a crossroads has one, a straight road two).
    pub distinct_rots: Vec<u8>,
    /// For each need of a square (see [`need_fits`]), the distinct rotations (bit `r` for rotation
    /// `r`) that fit it: the placement loop's one lookup per square.
    pub(crate) fits: [u8; 256],
    pub monastery: Option<u8>,
    pub total_shields: u8,
}

impl CompiledTile {
    pub fn new(t: &TileType) -> CompiledTile {
        let n = t.segments.len();
        let mut seg_sides = vec![[0u8; 4]; n];
        let mut seg_halves = vec![[0u8; 4]; n];
        let mut rots: Vec<Rotated> = Vec::with_capacity(4);
        for r in 0..4 {
            let mut edges = 0u8;
            for s in 0..4 {
                edges |= (t.edges[s] as u8) << (2 * rotate_side(s, r));
            }
            let mut side_seg = [NO_SEG; 4];
            let mut half_seg = [NO_SEG; 8];
            for (i, seg) in t.segments.iter().enumerate() {
                for s in 0..4 {
                    if seg.sides & (1 << s) != 0 {
                        let rs = rotate_side(s, r);
                        side_seg[rs] = i as u8;
                        seg_sides[i][r] |= 1 << rs;
                    }
                }
                for h in 0..8 {
                    if seg.halves & (1 << h) != 0 {
                        let rh = rotate_half(h, r);
                        half_seg[rh] = i as u8;
                        seg_halves[i][r] |= 1 << rh;
                    }
                }
            }
            rots.push(Rotated {
                edges,
                side_seg,
                half_seg,
            });
        }
        // Two rotations are the same placement when every segment maps onto one of the same kind
        // covering the same sides and halves.
        let signature = |r: usize| {
            let mut sig: Vec<(FeatureKind, u8, u8, u8)> = t
                .segments
                .iter()
                .enumerate()
                .map(|(i, s)| (s.kind, seg_sides[i][r], seg_halves[i][r], s.shields))
                .collect();
            sig.sort();
            sig
        };
        let mut distinct_rots: Vec<u8> = Vec::new();
        for r in 0..4 {
            let sig = signature(r);
            if !distinct_rots.iter().any(|&d| signature(d as usize) == sig) {
                distinct_rots.push(r as u8);
            }
        }
        let rot: [Rotated; 4] = [
            rots[0].clone(),
            rots[1].clone(),
            rots[2].clone(),
            rots[3].clone(),
        ];
        let rot_edges = [rot[0].edges, rot[1].edges, rot[2].edges, rot[3].edges];
        let distinct_mask = distinct_rots.iter().fold(0, |m, &r| m | 1 << r);
        CompiledTile {
            fits: fits_table(rot_edges, distinct_mask),
            id: t.id.clone(),
            kinds: t.segments.iter().map(|s| s.kind).collect(),
            shields: t.segments.iter().map(|s| s.shields).collect(),
            open_sides: t
                .segments
                .iter()
                .map(|s| match s.kind {
                    FeatureKind::Road | FeatureKind::City => (s.sides & 0xf).count_ones() as i32,
                    _ => 0,
                })
                .collect(),
            adjacent_cities: t
                .segments
                .iter()
                .map(|s| s.adjacent_cities.clone())
                .collect(),
            seg_sides,
            seg_halves,
            rot,
            distinct_rots,
            monastery: t
                .segments
                .iter()
                .position(|s| s.kind == FeatureKind::Monastery)
                .map(|i| i as u8),
            total_shields: t.segments.iter().map(|s| s.shields).sum(),
        }
    }

    #[inline]
    pub fn edge(&self, rot: usize, side: usize) -> EdgeKind {
        EdgeKind::on_side(self.rot[rot].edges, side)
    }
}

/// Whether edges `edges` (two bits a side, values of [`EdgeKind`]) fit a square's `need`: two bits a
/// side (side `s` at bits `2s..2s+2`), 0 where no placed tile faces the side yet, else 1 + the
/// [`EdgeKind`] the facing tile shows.
pub fn need_fits(edges: u8, need: u8) -> bool {
    (0..4).all(|s| {
        let n = (need >> (2 * s)) & 3;
        n == 0 || n - 1 == (edges >> (2 * s)) & 3
    })
}

/// For every need (0..=255), the rotations among `distinct` whose edges fit it.
fn fits_table(rot_edges: [u8; 4], distinct: u8) -> [u8; 256] {
    let mut t = [0u8; 256];
    for (need, fits) in t.iter_mut().enumerate() {
        for (r, &e) in rot_edges.iter().enumerate() {
            if distinct & (1 << r) != 0 && need_fits(e, need as u8) {
                *fits |= 1 << r;
            }
        }
    }
    t
}
