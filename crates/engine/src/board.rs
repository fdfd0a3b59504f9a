//! The board: a grid of cells (the endless table, or a map with a one-cell frame of off-map squares),
//! tile placement with its legality rules, the frontier of squares where a tile may go, and the
//! features of the placed tiles.
//!
//! The hot path (listing legal placements) reads only flat arrays: for every empty candidate cell its
//! need (the edges its placed neighbours require, two bits a side), and for the tile the rotations
//! that fit each need (`CompiledTile::fits`), so a cell is one table lookup.

use crate::compiled::{need_fits, CompiledTile, Rotated, NO_SEG};
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

/// A frontier cell and what it needs of a tile (see `Board::need`).
#[derive(Clone, Copy, Debug)]
struct Front {
    cell: u32,
    need: u8,
}

#[derive(Clone, Debug)]
pub struct Board {
    /// Grid size including the frame.
    pub gw: i32,
    pub gh: i32,
    /// Grid position of display coordinate (0, 0).
    pub origin: (i32, i32),
    /// The step to the neighbouring cell across each side (N, E, S, W).
    deltas: [i32; 4],
    pub kind: Vec<CellKind>,
    /// Index of the map square under each cell (`NONE` in the frame or on the endless table).
    pub square: Vec<u32>,
    /// Large city id of each large-city cell.
    pub(crate) large: Vec<u16>,
    /// Ferry landings reached from each cell (`NONE` when none).
    pub(crate) ferry_to: Vec<u32>,
    /// What a placement may need: whether sea and off-map count as filled around a monastery.
    pub border_fills_monastery: bool,
    // --- dynamic ---
    pub tile: Vec<u32>,
    /// What each empty cell needs of a tile: two bits a side, 0 where no placed tile faces the side,
    /// else 1 + the [`crate::geometry::EdgeKind`] it shows (the index of `CompiledTile::fits`).
    need: Vec<u8>,
    cand: Vec<bool>,
    /// The frontier: the empty cells where a tile may go, each with its `need`.
    front: Vec<Front>,
    frontier_pos: Vec<u32>,
    /// For each cell holding a monastery: 1 + how many of the 8 squares around it are filled (a
    /// tile, or sea and off-map when they fill); 0 elsewhere. A placement adds one to each around
    /// it, so finding the monasteries it surrounds reads 9 bytes.
    monastery_fill: Vec<u8>,
    large_found: Vec<bool>,
    large_cells: Vec<Vec<u32>>,
    pub placed: Vec<Placed>,
    pub features: Features,
    /// Which construction the cell layout (`kind`, `square`, `large`, `ferry_to`, the grid) came
    /// from: boards with the same layout copy only their dynamic parts (see [`Board::copy_from`]).
    layout: u64,
    /// This board, among all boards (a clone is another board).
    id: BoardId,
    /// Counts the changes of this board (placements, resets, copies).
    edits: u64,
    /// The board this one was last made a copy of, as it was then, when only placements followed
    /// (see [`Board::copy_from`]).
    copied: Option<Copied>,
    /// Counts the times this board was emptied or made a copy: in between, only placements change
    /// it (see [`Board::mark`]).
    era: u64,
}

/// A board as it was at some point: which board, since its last emptying or copy, with how many
/// tiles. While [`Board::only_placed_since`] holds, every feature of the board then is a feature
/// now, or part of a greater one: a feature whose root has as many members as then is the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    id: u64,
    era: u64,
    placed: usize,
}

/// A board's identity: a clone gets a new one.
#[derive(Debug)]
struct BoardId(u64);

/// Numbers boards as they are made.
static BOARDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl BoardId {
    fn new() -> BoardId {
        BoardId(BOARDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for BoardId {
    fn clone(&self) -> BoardId {
        BoardId::new()
    }
}

/// What a board was made a copy of: which board, at which of its edits, with how many tiles; and
/// that board as it was then ([`Board::mark`]) and what it was itself a copy of (see
/// [`Board::descends_from`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Copied {
    id: u64,
    edits: u64,
    placed: usize,
    from: Mark,
    origin: Option<Mark>,
}

/// Numbers board layouts as they are built.
static LAYOUTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Board {
    /// This board as it is now, to ask later whether only placements followed.
    pub fn mark(&self) -> Mark {
        Mark {
            id: self.id.0,
            era: self.era,
            placed: self.placed.len(),
        }
    }

    /// Whether this board is the one `mark` was taken of, with only tiles placed since (none
    /// taken off, no copy made into it, not emptied).
    pub fn only_placed_since(&self, mark: Mark) -> bool {
        self.id.0 == mark.id && self.era == mark.era && self.placed.len() >= mark.placed
    }

    /// Whether this board is the board of `mark` with only tiles placed since, as
    /// [`Board::only_placed_since`], or a copy of it, or a copy of a copy of it, made when it had
    /// only tiles placed since `mark`, with only tiles placed in each copy since it was made (a
    /// look-ahead's copy of a decision's board, with the option played in it). Every feature of
    /// the board then is a feature of this one, or part of a greater one, under the same nodes.
    pub fn descends_from(&self, mark: Mark) -> bool {
        let after = |m: Mark| m.id == mark.id && m.era == mark.era && m.placed >= mark.placed;
        self.only_placed_since(mark)
            || self
                .copied
                .is_some_and(|c| after(c.from) || c.origin.is_some_and(after))
    }

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
            deltas: [-gw, 1, gw, -1],
            kind,
            square,
            large,
            ferry_to: vec![NONE; n],
            border_fills_monastery: true,
            tile: vec![NONE; n],
            need: vec![0; n],
            cand: vec![false; n],
            front: Vec::new(),
            frontier_pos: vec![NONE; n],
            monastery_fill: vec![0; n],
            large_found: vec![false; n_large],
            large_cells,
            placed: Vec::new(),
            features: Features::default(),
            layout: LAYOUTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            id: BoardId::new(),
            edits: 0,
            copied: None,
            era: 0,
        }
    }

    /// Makes this board a copy of `src`, keeping every buffer. When both share a layout (one was
    /// cloned from the other, or from the same board), only the cells a game touched are copied:
    /// those holding a tile or on the frontier (the same cells [`Board::reset`] clears), so the
    /// cost follows the tiles placed, not the size of the table. When this board was made a copy
    /// of `src` before, and since then only tiles were placed in either (a look-ahead's scratch
    /// board, copied again from the same position or from the position a turn later), only the
    /// cells those placements touched are copied.
    pub(crate) fn copy_from(&mut self, src: &Board) {
        if self.layout != src.layout {
            *self = src.clone();
            return;
        }
        // A board's `copied` is cleared or replaced by every change but a placement, so `src` is
        // what it copied with only tiles placed since.
        let here = Copied {
            id: src.id.0,
            edits: src.edits,
            placed: src.placed.len(),
            from: src.mark(),
            origin: src.copied.map(|c| c.from),
        };
        // The tiles both had when this board was last made a copy of `src`, if only tiles were
        // placed in either since (`src`'s era is the same while only tiles are placed in it).
        let common = self
            .copied
            .filter(|c| c.id == src.id.0 && c.from.era == src.era)
            .map(|c| c.placed)
            .filter(|&n| self.placed.len() >= n && src.placed.len() >= n);
        match common {
            Some(n) => self.copy_placements_since(src, n),
            None => self.copy_touched(src),
        }
        self.border_fills_monastery = src.border_fills_monastery;
        self.large_found.clone_from(&src.large_found);
        self.features.copy_from(&src.features);
        self.edits += 1;
        self.era += 1;
        self.copied = Some(here);
    }

    /// The first part of the position in which this board differs from `other`, a board of the
    /// same layout (the tiles placed, the frontier in its order, and per square: the tile, what it
    /// needs, whether it is a candidate, its place in the frontier, its monastery count; the large
    /// cities found), or `None` when they hold the same position: for tests of copies.
    pub fn differs_from(&self, other: &Board) -> Option<&'static str> {
        let front = |b: &Board| b.front.iter().map(|f| (f.cell, f.need)).collect::<Vec<_>>();
        [
            (self.placed != other.placed, "tiles placed"),
            (front(self) != front(other), "frontier"),
            (self.tile != other.tile, "tiles on squares"),
            (self.need != other.need, "needs"),
            (self.cand != other.cand, "candidates"),
            (
                self.frontier_pos != other.frontier_pos,
                "frontier positions",
            ),
            (
                self.monastery_fill != other.monastery_fill,
                "monastery counts",
            ),
            (self.large_found != other.large_found, "large cities found"),
        ]
        .into_iter()
        .find_map(|(differs, what)| differs.then_some(what))
    }

    /// `copy_from` in general: clears the cells this board touched, copies those `src` touched.
    fn copy_touched(&mut self, src: &Board) {
        self.reset();
        let touched = src
            .front
            .iter()
            .map(|f| f.cell as usize)
            .chain(src.placed.iter().map(|p| p.cell as usize));
        self.copy_cells(src, touched);
        self.front.clone_from(&src.front);
        self.placed.clone_from(&src.placed);
    }

    /// `copy_from` when this board and `src` were one position with `n` tiles, and since then
    /// only tiles were placed in each: the cells each of those placements may have changed (its
    /// 3x3 block, its ferry landing, the land around a large city found) take `src`'s values,
    /// and the frontier (whose order a placement changes) and the tiles placed are `src`'s.
    fn copy_placements_since(&mut self, src: &Board, n: usize) {
        for i in n..self.placed.len() {
            self.copy_placement_cells(src, self.placed[i].cell);
        }
        for i in n..src.placed.len() {
            self.copy_placement_cells(src, src.placed[i].cell);
        }
        // A large city found on either side since: its land around. (One found by both has made
        // the same cells candidates on both, but for those a tile of either now holds, which
        // its block copies.)
        for id in 0..self.large_found.len() {
            if self.large_found[id] != src.large_found[id] {
                for k in 0..self.large_cells[id].len() {
                    let lc = self.large_cells[id][k];
                    for s in 0..4 {
                        let c = self.neighbour(lc, s) as usize;
                        self.copy_cell(src, c);
                    }
                }
            }
        }
        // Removing a cell from the frontier moved its last entry: every frontier position is
        // written again from `src`'s frontier.
        for f in &self.front {
            self.frontier_pos[f.cell as usize] = NONE;
        }
        self.front.clone_from(&src.front);
        for (i, f) in self.front.iter().enumerate() {
            self.frontier_pos[f.cell as usize] = i as u32;
        }
        self.placed.truncate(n);
        self.placed.extend_from_slice(&src.placed[n..]);
    }

    /// The cells a placement on `cell` may have changed (its 3x3 block and its ferry landing)
    /// take `src`'s values.
    fn copy_placement_cells(&mut self, src: &Board, cell: u32) {
        let block = self.block(cell);
        self.copy_cells(src, block.into_iter());
        let ferry = self.ferry_to[cell as usize];
        if ferry != NONE {
            self.copy_cell(src, ferry as usize);
        }
    }

    /// Gives each of `cells` `src`'s values (a board of the same layout): every array taken as a
    /// slice of the same length first, so that one test a cell checks every index.
    #[inline]
    fn copy_cells(&mut self, src: &Board, cells: impl Iterator<Item = usize>) {
        let n = self.tile.len();
        let (tile, need, cand) = (
            &mut self.tile[..n],
            &mut self.need[..n],
            &mut self.cand[..n],
        );
        let (pos, fill) = (&mut self.frontier_pos[..n], &mut self.monastery_fill[..n]);
        let (s_tile, s_need, s_cand) = (&src.tile[..n], &src.need[..n], &src.cand[..n]);
        let (s_pos, s_fill) = (&src.frontier_pos[..n], &src.monastery_fill[..n]);
        for c in cells {
            if c < n {
                tile[c] = s_tile[c];
                need[c] = s_need[c];
                cand[c] = s_cand[c];
                pos[c] = s_pos[c];
                fill[c] = s_fill[c];
            }
        }
    }

    /// Gives cell `c` `src`'s values.
    #[inline]
    fn copy_cell(&mut self, src: &Board, c: usize) {
        self.tile[c] = src.tile[c];
        self.need[c] = src.need[c];
        self.cand[c] = src.cand[c];
        self.frontier_pos[c] = src.frontier_pos[c];
        self.monastery_fill[c] = src.monastery_fill[c];
    }

    /// Empties the board for a new game, keeping every buffer.
    pub(crate) fn reset(&mut self) {
        self.edits += 1;
        self.era += 1;
        self.copied = None;
        // Only cells that were candidates were touched: they are in the frontier or hold a tile.
        for i in 0..self.front.len() {
            let c = self.front[i].cell as usize;
            self.frontier_pos[c] = NONE;
            self.need[c] = 0;
            self.cand[c] = false;
        }
        for p in &self.placed {
            let c = p.cell as usize;
            self.tile[c] = NONE;
            self.need[c] = 0;
            self.cand[c] = false;
            self.monastery_fill[c] = 0;
        }
        self.front.clear();
        self.large_found.iter_mut().for_each(|f| *f = false);
        self.placed.clear();
        self.features.clear();
    }

    #[inline]
    pub(crate) fn delta(&self, side: usize) -> i32 {
        self.deltas[side & 3]
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

    pub(crate) fn is_candidate(&self, cell: u32) -> bool {
        self.frontier_pos[cell as usize] != NONE
    }

    #[inline(always)]
    fn make_candidate(&mut self, c: u32) {
        let cu = c as usize;
        if self.kind[cu] != CellKind::Land || self.tile[cu] != NONE || self.cand[cu] {
            return;
        }
        self.cand[cu] = true;
        self.frontier_pos[cu] = self.front.len() as u32;
        self.front.push(Front {
            cell: c,
            need: self.need[cu],
        });
    }

    fn remove_candidate(&mut self, c: u32) {
        let pos = self.frontier_pos[c as usize];
        if pos == NONE {
            return;
        }
        let last = self.front.pop().unwrap_or(Front { cell: c, need: 0 });
        if last.cell != c {
            self.front[pos as usize] = last;
            let last = last.cell;
            self.frontier_pos[last as usize] = pos;
        }
        self.frontier_pos[c as usize] = NONE;
    }

    /// The frontier's cells, in the order placements are listed.
    pub fn frontier(&self) -> impl Iterator<Item = u32> + '_ {
        self.front.iter().map(|f| f.cell)
    }

    /// Appends every legal `(cell, rotation)` for `tile` to `out`: frontier order, then rotation
    /// order (distinct rotations only).
    pub fn legal_placements(&self, tile: &CompiledTile, out: &mut Vec<(u32, u8)>) {
        let mut room = Vec::new();
        let n = self.legal_placements_into(tile, &mut room, |c, r| (c, r));
        out.extend_from_slice(&room[..n]);
    }

    /// [`Board::legal_placements`] written at the start of `room` as `make(cell, rotation)`;
    /// returns how many. `room` is grown to four entries per frontier cell when shorter and never
    /// shrunk, so a buffer kept between calls is written with no capacity check per placement and
    /// nothing to fill first. One table lookup per frontier cell finds its fitting rotations.
    #[inline]
    pub(crate) fn legal_placements_into<T: Copy>(
        &self,
        tile: &CompiledTile,
        room: &mut Vec<T>,
        make: impl Fn(u32, u8) -> T,
    ) -> usize {
        let most = 4 * self.front.len();
        if room.len() < most {
            room.resize(most, make(NONE, 0));
        }
        // A slice, so that its start and length stay in registers while the loop writes.
        let room = &mut room[..most];
        let mut k = 0;
        for f in &self.front {
            let mut fits = u32::from(tile.fits[f.need as usize]);
            while fits != 0 {
                room[k] = make(f.cell, fits.trailing_zeros() as u8);
                k += 1;
                fits &= fits - 1;
            }
        }
        k
    }

    /// Whether `tile` has any legal placement.
    pub fn has_placement(&self, tile: &CompiledTile) -> bool {
        self.front.iter().any(|f| tile.fits[f.need as usize] != 0)
    }

    /// What cell `cell` needs of a tile, worked out afresh from its neighbours (the reference
    /// for the need the board keeps up to date as tiles are placed): two bits a side, as `need`.
    pub fn need_from_neighbours(&self, cell: u32, tiles: &[CompiledTile]) -> u8 {
        let mut need = 0;
        for s in 0..4 {
            let t = self.tile[self.neighbour(cell, s) as usize];
            if t != NONE {
                let p = self.placed[t as usize];
                let edges = tiles[p.ty as usize].rot[p.rot as usize].edges;
                let shows = (edges >> (2 * opposite(s))) & 3;
                need |= (1 + shows) << (2 * s);
            }
        }
        need
    }

    /// The need the board keeps for `cell` (see [`Board::need_from_neighbours`]), and the one its
    /// frontier entry holds (`None` off the frontier).
    pub fn need_kept(&self, cell: u32) -> (u8, Option<u8>) {
        let pos = self.frontier_pos[cell as usize];
        let front = (pos != NONE).then(|| self.front[pos as usize].need);
        (self.need[cell as usize], front)
    }

    /// The filled squares around the monastery on `cell`, as the board keeps them (see
    /// [`Board::monastery_count`], the reference); 0 when no monastery lies there.
    pub fn monastery_fill_kept(&self, cell: u32) -> u32 {
        u32::from(self.monastery_fill[cell as usize])
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
            if !need_fits(tile.rot[rot].edges & m, self.need[c] & m) {
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
        self.edits += 1;
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
        if tile.monastery.is_some() {
            self.monastery_fill[cell as usize] = self.monastery_count(cell) as u8;
        }
        self.surrounded_monasteries(cell, completed);
        idx
    }

    /// Adds the tile's segments as feature nodes and the tile to `placed`, takes its cell off the
    /// frontier, and returns its index in `placed`.
    #[inline]
    fn record_tile(&mut self, cell: u32, ty: u16, tile: &CompiledTile, rot: usize) -> u32 {
        let idx = self.placed.len() as u32;
        let r = &tile.rot[rot];
        let first_node = self
            .features
            .add_tile(&tile.kinds, idx, &tile.open_sides, &tile.shields);
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

    /// Makes the land cell `n` need `edge` on the side facing the new tile (whose side `s` it is
    /// across), and puts `n` on the frontier with its new need.
    #[inline]
    fn require_edge(&mut self, n: u32, s: usize, edge: u8) {
        let nu = n as usize;
        let o = opposite(s);
        let need = (self.need[nu] & !(3 << (2 * o))) | ((1 + edge) << (2 * o));
        self.need[nu] = need;
        // An empty land cell is a candidate exactly when it is on the frontier.
        let pos = self.frontier_pos[nu];
        if pos != NONE {
            self.front[pos as usize].need = need;
        } else {
            self.cand[nu] = true;
            self.frontier_pos[nu] = self.front.len() as u32;
            self.front.push(Front { cell: n, need });
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

    /// The cells of the 3x3 block around `cell` (itself included), row by row.
    #[inline]
    fn block(&self, cell: u32) -> [usize; 9] {
        let (c, g) = (cell as i32, self.gw);
        [
            c - g - 1,
            c - g,
            c - g + 1,
            c - 1,
            c,
            c + 1,
            c + g - 1,
            c + g,
            c + g + 1,
        ]
        .map(|c| c as usize)
    }

    /// Appends the monasteries in the 3x3 block around `cell` that are now surrounded (the tile on
    /// `cell` just placed, its own count already set), in the block's order.
    #[inline]
    fn surrounded_monasteries(&mut self, cell: u32, completed: &mut Vec<u32>) {
        for c in self.block(cell) {
            let fill = self.monastery_fill[c];
            if fill == 0 {
                continue;
            }
            let fill = if c == cell as usize {
                fill
            } else {
                self.monastery_fill[c] = fill + 1;
                fill + 1
            };
            if fill == 9 {
                let p = &self.placed[self.tile[c] as usize];
                completed.push(p.first_node + p.monastery as u32);
            }
        }
    }

    /// Filled squares in the 3x3 block around `cell` (the cell itself included).
    pub fn monastery_count(&self, cell: u32) -> u32 {
        let mut n = 0;
        for c in self.block(cell) {
            if self.tile[c] != NONE
                || (self.border_fills_monastery && self.kind[c] == CellKind::Water)
            {
                n += 1;
            }
        }
        n
    }
}
