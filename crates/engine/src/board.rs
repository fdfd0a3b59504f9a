//! The board: a grid of cells (the endless table, or a map with a one-cell frame of off-map squares),
//! tile placement with its legality rules, the frontier of squares where a tile may go, and the
//! features of the placed tiles.
//!
//! The hot path (listing legal placements) reads only flat arrays: for every empty candidate cell the
//! edges its placed neighbours require, packed two bits per side, so one rotation is one mask test.

use crate::compiled::{CompiledTile, Rotated, NO_SEG};
use crate::features::{Features, NONE};
use crate::geometry::{facing_half, opposite, FeatureKind, SIDE_NAMES};
use crate::map::{MapBoard, SquareKind};

/// What kind of square a cell is, as far as placement cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CellKind {
    /// A tile may go here (islands included: they are reached by ferry or adjacency).
    Land = 0,
    /// Sea, wave or off-map (the frame around a map is off-map): closes sides; may fill a monastery.
    Water = 1,
    /// Large city: closes sides; once discovered, adjacent land becomes placeable.
    LargeCity = 2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub ty: u16,
    pub rot: u8,
    pub cell: u32,
    /// Node id of segment 0; segment `i` is node `first_node + i`.
    pub first_node: u32,
    /// Segment on each side (roads, cities) and half-edge (fields), as rotated.
    pub side_seg: [u8; 4],
    pub half_seg: [u8; 8],
    /// The monastery segment, or `NO_SEG`.
    pub monastery: u8,
}

/// Why a placement is refused: the rule that refused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    OffBoard,
    Occupied,
    NotLand(&'static str),
    NotAdjacent,
    EdgeMismatch { side: char },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::OffBoard => write!(f, "placement: the square is outside the board"),
            Refusal::Occupied => write!(f, "placement: the square already holds a tile"),
            Refusal::NotLand(k) => write!(f, "placement: no tile may go on a {k} square"),
            Refusal::NotAdjacent => write!(
                f,
                "placement: the square is not next to a placed tile, a discovered large city or a ferry landing"
            ),
            Refusal::EdgeMismatch { side } => write!(
                f,
                "placement: the tile's {side} edge does not match its neighbour"
            ),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Board {
    /// Grid size including the frame.
    pub gw: i32,
    pub gh: i32,
    /// Grid position of display coordinate (0, 0).
    pub origin: (i32, i32),
    pub kind: Vec<CellKind>,
    /// Index of the map square under each cell (`NONE` in the frame or on the endless table).
    pub square: Vec<u32>,
    /// Large city id of each large-city cell.
    pub large: Vec<u16>,
    /// Ferry landings reached from each cell (`NONE` when none).
    pub ferry_to: Vec<u32>,
    /// What a placement may need: whether sea and off-map count as filled around a monastery.
    pub border_fills_monastery: bool,
    // --- dynamic ---
    pub tile: Vec<u32>,
    req: Vec<u8>,
    mask: Vec<u8>,
    cand: Vec<bool>,
    pub frontier: Vec<u32>,
    /// For each frontier entry, its required edges (low byte) and constrained sides (high byte).
    front_rm: Vec<u16>,
    frontier_pos: Vec<u32>,
    large_found: Vec<bool>,
    large_cells: Vec<Vec<u32>>,
    pub placed: Vec<Placed>,
    pub features: Features,
    /// Which construction the cell layout (`kind`, `square`, `large`, `ferry_to`, the grid) came
    /// from: boards with the same layout copy only their dynamic parts (see [`Board::copy_from`]).
    layout: u64,
}

/// Numbers board layouts as they are built.
static LAYOUTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Board {
    /// The endless table, big enough for `tiles` tiles in any direction.
    pub fn unbounded(tiles: usize) -> Board {
        let half = tiles as i32 + 2;
        let side = 2 * half + 1;
        let n = (side * side) as usize;
        let mut kind = vec![CellKind::Land; n];
        for y in 0..side {
            for x in 0..side {
                if x == 0 || y == 0 || x == side - 1 || y == side - 1 {
                    kind[(y * side + x) as usize] = CellKind::Water;
                }
            }
        }
        Board::with_cells(side, side, (half, half), kind, vec![NONE; n], vec![0; n], 0)
    }

    /// A map board, with a one-cell frame of off-map cells.
    pub fn from_map(map: &MapBoard) -> Board {
        let (gw, gh) = (map.width + 2, map.height + 2);
        let n = (gw * gh) as usize;
        let mut kind = vec![CellKind::Water; n];
        let mut square = vec![NONE; n];
        let mut large = vec![0u16; n];
        for y in 0..map.height {
            for x in 0..map.width {
                let c = ((y + 1) * gw + x + 1) as usize;
                let i = (y * map.width + x) as usize;
                if let Some(sq) = map.squares.get(i) {
                    square[c] = i as u32;
                    kind[c] = match sq.kind {
                        SquareKind::Land | SquareKind::Island => CellKind::Land,
                        SquareKind::LargeCity => CellKind::LargeCity,
                        SquareKind::Sea | SquareKind::Wave | SquareKind::OffMap => CellKind::Water,
                    };
                    large[c] = sq.large_city.unwrap_or(0);
                }
            }
        }
        let mut b = Board::with_cells(gw, gh, (1, 1), kind, square, large, map.large_cities.len());
        for f in &map.ferries {
            if let (Some(a), Some(t)) = (b.cell_at(f.from.0, f.from.1), b.cell_at(f.to.0, f.to.1)) {
                b.ferry_to[a as usize] = t;
            }
        }
        b
    }

    fn with_cells(
        gw: i32,
        gh: i32,
        origin: (i32, i32),
        kind: Vec<CellKind>,
        square: Vec<u32>,
        large: Vec<u16>,
        n_large: usize,
    ) -> Board {
        let n = kind.len();
        let mut large_cells = vec![Vec::new(); n_large];
        for (c, k) in kind.iter().enumerate() {
            if *k == CellKind::LargeCity {
                if let Some(v) = large_cells.get_mut(large[c] as usize) {
                    v.push(c as u32);
                }
            }
        }
        Board {
            gw,
            gh,
            origin,
            kind,
            square,
            large,
            ferry_to: vec![NONE; n],
            border_fills_monastery: true,
            tile: vec![NONE; n],
            req: vec![0; n],
            mask: vec![0; n],
            cand: vec![false; n],
            frontier: Vec::new(),
            front_rm: Vec::new(),
            frontier_pos: vec![NONE; n],
            large_found: vec![false; n_large],
            large_cells,
            placed: Vec::new(),
            features: Features::default(),
            layout: LAYOUTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// Makes this board a copy of `src`, keeping every buffer. When both share a layout (one was
    /// cloned from the other, or from the same board), only the cells a game touched are copied:
    /// those holding a tile or on the frontier (the same cells [`Board::reset`] clears), so the
    /// cost follows the tiles placed, not the size of the table.
    pub fn copy_from(&mut self, src: &Board) {
        if self.layout != src.layout {
            *self = src.clone();
            return;
        }
        self.reset();
        let touched = src
            .frontier
            .iter()
            .copied()
            .chain(src.placed.iter().map(|p| p.cell));
        for c in touched {
            let c = c as usize;
            self.tile[c] = src.tile[c];
            self.req[c] = src.req[c];
            self.mask[c] = src.mask[c];
            self.cand[c] = src.cand[c];
            self.frontier_pos[c] = src.frontier_pos[c];
        }
        self.border_fills_monastery = src.border_fills_monastery;
        self.frontier.clone_from(&src.frontier);
        self.front_rm.clone_from(&src.front_rm);
        self.large_found.clone_from(&src.large_found);
        self.placed.clone_from(&src.placed);
        self.features.copy_from(&src.features);
    }

    /// Empties the board for a new game, keeping every buffer.
    pub fn reset(&mut self) {
        // Only cells that were candidates were touched: they are in the frontier or hold a tile.
        for i in 0..self.frontier.len() {
            let c = self.frontier[i] as usize;
            self.frontier_pos[c] = NONE;
            self.req[c] = 0;
            self.mask[c] = 0;
            self.cand[c] = false;
        }
        for p in &self.placed {
            let c = p.cell as usize;
            self.tile[c] = NONE;
            self.req[c] = 0;
            self.mask[c] = 0;
            self.cand[c] = false;
        }
        self.frontier.clear();
        self.front_rm.clear();
        self.large_found.iter_mut().for_each(|f| *f = false);
        self.placed.clear();
        self.features.clear();
    }

    #[inline]
    pub fn delta(&self, side: usize) -> i32 {
        match side {
            0 => -self.gw,
            1 => 1,
            2 => self.gw,
            _ => -1,
        }
    }

    #[inline]
    pub fn neighbour(&self, cell: u32, side: usize) -> u32 {
        (cell as i32 + self.delta(side)) as u32
    }

    /// Cell at display coordinates, if inside the board (frame excluded).
    pub fn cell_at(&self, x: i32, y: i32) -> Option<u32> {
        let (gx, gy) = (x + self.origin.0, y + self.origin.1);
        if gx < 1 || gy < 1 || gx >= self.gw - 1 || gy >= self.gh - 1 {
            return None;
        }
        Some((gy * self.gw + gx) as u32)
    }

    pub fn xy(&self, cell: u32) -> (i32, i32) {
        let c = cell as i32;
        (c % self.gw - self.origin.0, c / self.gw - self.origin.1)
    }

    pub fn is_candidate(&self, cell: u32) -> bool {
        self.frontier_pos[cell as usize] != NONE
    }

    fn make_candidate(&mut self, c: u32) {
        let cu = c as usize;
        if self.kind[cu] != CellKind::Land || self.tile[cu] != NONE || self.cand[cu] {
            return;
        }
        self.cand[cu] = true;
        self.frontier_pos[cu] = self.frontier.len() as u32;
        self.frontier.push(c);
        self.front_rm
            .push(self.req[cu] as u16 | (self.mask[cu] as u16) << 8);
    }

    fn remove_candidate(&mut self, c: u32) {
        let pos = self.frontier_pos[c as usize];
        if pos == NONE {
            return;
        }
        let last = self.frontier.pop().unwrap_or(c);
        let last_rm = self.front_rm.pop().unwrap_or(0);
        if last != c {
            self.frontier[pos as usize] = last;
            self.front_rm[pos as usize] = last_rm;
            self.frontier_pos[last as usize] = pos;
        }
        self.frontier_pos[c as usize] = NONE;
    }

    /// Appends every legal `(cell, rotation)` for `tile` to `out`: frontier order, then rotation
    /// order. One word test per cell finds its fitting rotations.
    pub fn legal_placements(&self, tile: &CompiledTile, out: &mut Vec<(u32, u8)>) {
        let distinct = u32::from(tile.distinct_mask);
        out.reserve(self.frontier.len() * 4);
        for (&c, &rm) in self.frontier.iter().zip(&self.front_rm) {
            let mut fits = fitting_rotations(tile.edges4, rm) & distinct;
            while fits != 0 {
                out.push((c, fits.trailing_zeros() as u8));
                fits &= fits - 1;
            }
        }
    }

    /// Whether `tile` has any legal placement.
    pub fn has_placement(&self, tile: &CompiledTile) -> bool {
        self.front_rm
            .iter()
            .any(|&rm| fitting_rotations(tile.edges4, rm) != 0)
    }

    /// Checks a placement, saying which rule refuses it.
    pub fn check(&self, cell: u32, tile: &CompiledTile, rot: usize) -> Result<(), Refusal> {
        let c = cell as usize;
        if c >= self.kind.len() {
            return Err(Refusal::OffBoard);
        }
        match self.kind[c] {
            CellKind::Water => return Err(Refusal::NotLand("sea, wave or off-map")),
            CellKind::LargeCity => return Err(Refusal::NotLand("large city")),
            CellKind::Land => {}
        }
        if self.tile[c] != NONE {
            return Err(Refusal::Occupied);
        }
        if !self.placed.is_empty() && !self.is_candidate(cell) {
            return Err(Refusal::NotAdjacent);
        }
        for (s, &side) in SIDE_NAMES.iter().enumerate() {
            let m = 3u8 << (2 * s);
            if self.mask[c] & m != 0 && (tile.rot[rot].edges ^ self.req[c]) & m != 0 {
                return Err(Refusal::EdgeMismatch { side });
            }
        }
        Ok(())
    }

    /// Places a tile (legality already checked), merges its features, and appends the roots of
    /// features this placement completed to `completed` (roads, cities, monasteries).
    pub fn place(
        &mut self,
        cell: u32,
        ty: u16,
        tile: &CompiledTile,
        rot: usize,
        completed: &mut Vec<u32>,
    ) -> u32 {
        let idx = self.record_tile(cell, ty, tile, rot);
        let first_node = self.placed[idx as usize].first_node;
        let r = &tile.rot[rot];
        for s in 0..4 {
            let n = self.neighbour(cell, s);
            let nt = self.tile[n as usize];
            if nt != NONE {
                self.join_across(first_node, r, s, nt);
            } else {
                self.face_empty(first_node, r, s, n);
            }
        }
        let ferry = self.ferry_to[cell as usize];
        if ferry != NONE {
            self.make_candidate(ferry);
        }
        self.completed_roads_and_cities(first_node, tile, completed);
        self.surrounded_monasteries(cell, completed);
        idx
    }

    /// Adds the tile's segments as feature nodes and the tile to `placed`, takes its cell off the
    /// frontier, and returns its index in `placed`.
    #[inline]
    fn record_tile(&mut self, cell: u32, ty: u16, tile: &CompiledTile, rot: usize) -> u32 {
        let idx = self.placed.len() as u32;
        let first_node = self.features.len() as u32;
        let r = &tile.rot[rot];
        for (i, &k) in tile.kinds.iter().enumerate() {
            let open = match k {
                FeatureKind::Road | FeatureKind::City => tile.seg_sides[i][rot].count_ones() as i32,
                _ => 0,
            };
            self.features.add(k, idx, open, tile.shields[i] as u16);
        }
        self.placed.push(Placed {
            ty,
            rot: rot as u8,
            cell,
            first_node,
            side_seg: r.side_seg,
            half_seg: r.half_seg,
            monastery: tile.monastery.unwrap_or(NO_SEG),
        });
        self.tile[cell as usize] = idx;
        self.remove_candidate(cell);
        idx
    }

    /// Joins the new tile (nodes from `first_node`, rotated as `r`) to the placed tile `other`
    /// across its side `s`: roads and cities side to side (edges match, so both have a segment),
    /// fields half to half.
    #[inline]
    fn join_across(&mut self, first_node: u32, r: &Rotated, s: usize, other: u32) {
        let other = self.placed[other as usize];
        let seg = r.side_seg[s];
        let oseg = other.side_seg[opposite(s)];
        if seg != NO_SEG && oseg != NO_SEG {
            let root = self
                .features
                .union(first_node + seg as u32, other.first_node + oseg as u32);
            self.features.close_sides(root, 2);
        }
        for h in [2 * s, 2 * s + 1] {
            let fseg = r.half_seg[h];
            let of = other.half_seg[facing_half(h)];
            if fseg != NO_SEG && of != NO_SEG {
                self.features
                    .union(first_node + fseg as u32, other.first_node + of as u32);
            }
        }
    }

    /// What the new tile does to the empty cell `n` across its side `s`: land learns the edge it
    /// must match and joins the frontier; sea and off-map close the side; a large city closes it
    /// and is discovered.
    #[inline]
    fn face_empty(&mut self, first_node: u32, r: &Rotated, s: usize, n: u32) {
        let seg = r.side_seg[s];
        match self.kind[n as usize] {
            CellKind::Land => self.require_edge(n, s, (r.edges >> (2 * s)) & 3),
            CellKind::Water => {
                if seg != NO_SEG {
                    self.features.close_sides(first_node + seg as u32, 1);
                }
            }
            CellKind::LargeCity => {
                if seg != NO_SEG {
                    self.features.close_sides(first_node + seg as u32, 1);
                }
                self.discover_large_city(self.large[n as usize] as usize);
            }
        }
    }

    /// Makes the land cell `n` require `edge` on the side facing the new tile (whose side `s` it
    /// is across), and puts `n` on the frontier with its new requirement.
    #[inline]
    fn require_edge(&mut self, n: u32, s: usize, edge: u8) {
        let nu = n as usize;
        let o = opposite(s);
        self.req[nu] = (self.req[nu] & !(3 << (2 * o))) | (edge << (2 * o));
        self.mask[nu] |= 3 << (2 * o);
        self.make_candidate(n);
        let pos = self.frontier_pos[nu];
        if pos != NONE {
            self.front_rm[pos as usize] = self.req[nu] as u16 | (self.mask[nu] as u16) << 8;
        }
    }

    /// The first time a tile touches large city `id`, every land cell next to it becomes a
    /// candidate.
    fn discover_large_city(&mut self, id: usize) {
        if self.large_found.get(id).copied().unwrap_or(true) {
            return;
        }
        self.large_found[id] = true;
        let cells = std::mem::take(&mut self.large_cells[id]);
        for &lc in &cells {
            for ls in 0..4 {
                let ln = self.neighbour(lc, ls);
                self.make_candidate(ln);
            }
        }
        self.large_cells[id] = cells;
    }

    /// Appends the roots of the new tile's roads and cities that have no open side left.
    #[inline]
    fn completed_roads_and_cities(
        &mut self,
        first_node: u32,
        tile: &CompiledTile,
        completed: &mut Vec<u32>,
    ) {
        for (i, &k) in tile.kinds.iter().enumerate() {
            if matches!(k, FeatureKind::Road | FeatureKind::City) {
                let root = self.features.find(first_node + i as u32);
                if self.features.open(root) == 0 && !completed.contains(&root) {
                    completed.push(root);
                }
            }
        }
    }

    /// Appends the monasteries in the 3x3 block around `cell` that are now surrounded.
    #[inline]
    fn surrounded_monasteries(&self, cell: u32, completed: &mut Vec<u32>) {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let c = (cell as i32 + dy * self.gw + dx) as u32;
                let t = self.tile[c as usize];
                if t == NONE {
                    continue;
                }
                let p = self.placed[t as usize];
                if p.monastery != NO_SEG && self.monastery_count(c) == 9 {
                    completed.push(p.first_node + p.monastery as u32);
                }
            }
        }
    }

    /// Filled squares in the 3x3 block around `cell` (the cell itself included).
    pub fn monastery_count(&self, cell: u32) -> u32 {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let c = (cell as i32 + dy * self.gw + dx) as usize;
                if self.tile[c] != NONE
                    || (self.border_fills_monastery && self.kind[c] == CellKind::Water)
                {
                    n += 1;
                }
            }
        }
        n
    }
}

/// The rotations (bit `r` for rotation `r`) of a tile whose edges are `edges4` (rotation `r` in byte
/// `r`, two bits a side) that fit a square needing the edges in the low byte of `rm` on the sides its
/// high byte marks. The four rotations are tested at once, one byte each.
#[inline]
fn fitting_rotations(edges4: u32, rm: u16) -> u32 {
    let (req, mask) = (u32::from(rm as u8), u32::from((rm >> 8) as u8));
    let wrong = (edges4 ^ (req * 0x0101_0101)) & (mask * 0x0101_0101);
    // The high bit of each byte, set where the byte is not zero (no carry crosses a byte).
    let nonzero = (((wrong & 0x7f7f_7f7f) + 0x7f7f_7f7f) | wrong) & 0x8080_8080;
    let fit = (!nonzero & 0x8080_8080) >> 7;
    // Bit 0 of byte r moves to bit 24 + r (the other products fall below bit 24 or above bit 31).
    fit.wrapping_mul(0x0102_0408) >> 24
}

#[cfg(test)]
mod tests {
    use super::fitting_rotations;

    #[test]
    fn fitting_rotations_tests_each_rotation_like_one_at_a_time() {
        // Every edge layout of four sides (three kinds: 0, 1, 2), rotated, against every
        // requirement on every set of constrained sides.
        let rotate = |e: u8, r: u32| e.rotate_left(2 * r);
        for e in 0..=255u8 {
            if (0..4).any(|s| (e >> (2 * s)) & 3 == 3) {
                continue;
            }
            let edges = [rotate(e, 0), rotate(e, 1), rotate(e, 2), rotate(e, 3)];
            let edges4 = u32::from_le_bytes(edges);
            for sides in 0..16u8 {
                let mask = (0..4).fold(0u8, |m, s| {
                    if sides & (1 << s) != 0 {
                        m | 3 << (2 * s)
                    } else {
                        m
                    }
                });
                for req in (0..=255u8).filter(|r| r & !mask == 0) {
                    let one_at_a_time = (0..4).fold(0, |m, r| {
                        if (edges[r] ^ req) & mask == 0 {
                            m | 1 << r
                        } else {
                            m
                        }
                    });
                    let rm = u16::from(req) | u16::from(mask) << 8;
                    assert_eq!(
                        fitting_rotations(edges4, rm),
                        one_at_a_time,
                        "e {e:08b} rm {rm:016b}"
                    );
                }
            }
        }
    }
}
