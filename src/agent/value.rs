//! What an option would gain, read from the board without playing it: the features a placement
//! would join, complete or enlarge (and the farms next to a city it completes), or the feature a
//! follower would join, each described by the facts the rules score (kind, complete, tiles, coats
//! of arms, cities, winners) and valued by [`FeaturePoints`]. The result is the same position value
//! `greedy` gets by playing the option in a copy of the game and letting the final scoring run:
//! every player's score plus what the features with followers would score now, and the deciding
//! player's followers back in the supply at the end of the turn.
//!
//! Only for rules [`super::points::feature_scoring`] accepts, and decisions of placing a tile or a
//! follower; anything else is valued in a copy.

use super::points::{FeaturePoints, Points};
use crate::board::{Board, CellKind};
use crate::compiled::{CompiledTile, NO_SEG};
use crate::features::NONE;
use crate::game::{Game, GameError, Opt};
use crate::geometry::{facing_half, opposite, FeatureKind};
use crate::lang::interp::Interp;
use crate::state::{FeatureInfo, FollowerAt};

/// A follower on the board: the root of its feature, its owner and its strength.
#[derive(Clone, Copy)]
struct Held {
    root: u32,
    owner: u8,
    strength: u32,
}

/// A feature that has followers, as it stands: its facts and what it would score.
#[derive(Clone, Copy)]
struct Standing {
    root: u32,
    info: FeatureInfo,
    points: Points,
}

/// The final position an option leads to: every player's score and the decider's spare followers.
#[derive(Clone, Copy)]
pub struct Outcome {
    pub scores: Points,
    pub spare: u32,
}

/// Segments of the placed tile joined into one feature, with the features they join.
#[derive(Default, Clone)]
struct Group {
    segs: Vec<u8>,
    roots: Vec<u32>,
    kind: Option<FeatureKind>,
    /// Roads and cities: whether the feature is complete once the tile is down.
    complete: bool,
}

/// Buffers kept from decision to decision.
#[derive(Default)]
pub struct Preview {
    held: Vec<Held>,
    standing: Vec<Standing>,
    /// Scores plus what every standing feature would score, per player.
    base: Points,
    /// The decider's followers in the supply at the end of the turn, as things stand.
    base_spare: u32,
    tile_stamp: Vec<u32>,
    stamp: u32,
    groups: Vec<Group>,
    /// Group of each segment of the placed tile.
    seg_group: Vec<usize>,
    /// Open sides each segment of the placed tile adds (its sides, less those facing water).
    seg_open: Vec<i32>,
    /// Joins across a side (roads and cities) per segment: each closes two open sides.
    seg_side_joins: Vec<i32>,
    joins: Vec<(u8, u32)>,
    cities: Vec<u64>,
    gained: Vec<(u32, usize)>,
}

/// A city as identified after a placement: an untouched root, or a group of the placed tile.
fn city_id_root(root: u32) -> u64 {
    u64::from(root)
}
fn city_id_group(g: usize) -> u64 {
    (1 << 40) + g as u64
}

impl Preview {
    /// Reads the position of `game` for the decider `me`: the followers on the board and what the
    /// features they stand on would score.
    pub fn load(
        &mut self,
        game: &Game<Interp>,
        me: u8,
        points: &mut FeaturePoints,
    ) -> Result<(), GameError> {
        let st = &game.st;
        let f = &st.board.features;
        self.held.clear();
        for fo in &st.followers {
            if let FollowerAt::Board(node) = fo.at {
                self.held.push(Held {
                    root: f.root(node),
                    owner: fo.owner,
                    strength: u32::from(fo.strength),
                });
            }
        }
        self.base = [0; 8];
        for (i, p) in st.players.iter().enumerate().take(8) {
            self.base[i] = p.score;
        }
        self.base_spare = u32::from(st.followers_in_supply(me));
        self.standing.clear();
        for k in 0..self.held.len() {
            let root = self.held[k].root;
            if self.standing.iter().any(|s| s.root == root) {
                continue;
            }
            let info = self.info_of_root(game, root);
            let pts = points.of(game, &info)?;
            add(&mut self.base, &pts);
            if info.complete {
                self.base_spare += self.mine_on(&[root], me);
            }
            self.standing.push(Standing {
                root,
                info,
                points: pts,
            });
        }
        Ok(())
    }

    /// Where option `opt` leads, or `None` when this preview cannot tell (the option is valued in
    /// a copy then). `load` first, for the same game and decider.
    pub fn outcome(
        &mut self,
        game: &Game<Interp>,
        opt: Opt,
        me: u8,
        points: &mut FeaturePoints,
    ) -> Result<Option<Outcome>, GameError> {
        match opt {
            Opt::Pass => Ok(Some(Outcome {
                scores: self.base,
                spare: self.base_spare,
            })),
            Opt::Follower { seg } => self.follower(game, seg, me, points).map(Some),
            Opt::Place { cell, rot } => self.place(game, cell, rot as usize, me, points).map(Some),
            Opt::Draw | Opt::Action(_) => Ok(None),
        }
    }

    /// A follower of `me` on segment `seg` of the tile just placed.
    fn follower(
        &mut self,
        game: &Game<Interp>,
        seg: u8,
        me: u8,
        points: &mut FeaturePoints,
    ) -> Result<Outcome, GameError> {
        let st = &game.st;
        let Some(p) = st.board.placed.get(st.placed_now as usize) else {
            return Ok(Outcome {
                scores: self.base,
                spare: self.base_spare,
            });
        };
        let root = st.board.features.root(p.first_node + u32::from(seg));
        let strength = st
            .player_followers(me)
            .map(|f| st.followers[f as usize])
            .find(|f| f.at == FollowerAt::Supply)
            .map_or(1, |f| u32::from(f.strength));
        let mut info = self.info_of_root(game, root);
        info.winners = self.winners(&[root], Some((me, strength)));
        let mut scores = self.base;
        // A feature that already had followers would not be offered; be exact all the same.
        if let Some(s) = self.standing.iter().find(|s| s.root == root) {
            sub(&mut scores, &s.points);
        }
        add(&mut scores, &points.of(game, &info)?);
        let mut spare = self.base_spare.saturating_sub(1);
        if info.complete {
            spare += 1;
        }
        Ok(Outcome { scores, spare })
    }

    /// The current tile placed on `cell` with rotation `rot`, no follower on it.
    fn place(
        &mut self,
        game: &Game<Interp>,
        cell: u32,
        rot: usize,
        me: u8,
        points: &mut FeaturePoints,
    ) -> Result<Outcome, GameError> {
        let mut out = Outcome {
            scores: self.base,
            spare: self.base_spare,
        };
        let Some(ty) = game.st.current_tile else {
            return Ok(out);
        };
        let t = &game.cfg.tiles[ty as usize];
        self.group_segments(&game.st.board, t, cell, rot);
        // Features with followers the tile joins.
        for g in 0..self.groups.len() {
            let followed = self.groups[g]
                .roots
                .iter()
                .any(|r| self.standing.iter().any(|s| s.root == *r));
            if !followed {
                continue;
            }
            let info = self.group_info(game, t, g);
            for r in &self.groups[g].roots {
                if let Some(s) = self.standing.iter().find(|s| s.root == *r) {
                    sub(&mut out.scores, &s.points);
                }
            }
            add(&mut out.scores, &points.of(game, &info)?);
            if info.complete {
                let roots = std::mem::take(&mut self.groups[g].roots);
                out.spare += self.mine_on(&roots, me);
                self.groups[g].roots = roots;
            }
        }
        self.monasteries_around(game, cell, me, points, &mut out)?;
        self.farms_next_to_completed_cities(game, points, &mut out)?;
        Ok(out)
    }

    /// Sorts the tile's segments into features: each with the features of the board it joins,
    /// and, for roads and cities, whether it is complete once the tile is down.
    fn group_segments(&mut self, b: &Board, t: &CompiledTile, cell: u32, rot: usize) {
        let n = t.kinds.len();
        let r = &t.rot[rot];
        self.joins.clear();
        self.seg_open.clear();
        self.seg_side_joins.clear();
        for i in 0..n {
            let open = match t.kinds[i] {
                FeatureKind::Road | FeatureKind::City => t.seg_sides[i][rot].count_ones() as i32,
                _ => 0,
            };
            self.seg_open.push(open);
            self.seg_side_joins.push(0);
        }
        for s in 0..4 {
            let nb = b.neighbour(cell, s);
            let seg = r.side_seg[s];
            let nt = b.tile[nb as usize];
            if nt != NONE {
                let other = b.placed[nt as usize];
                let oseg = other.side_seg[opposite(s)];
                if seg != NO_SEG && oseg != NO_SEG {
                    let root = b.features.root(other.first_node + u32::from(oseg));
                    self.joins.push((seg, root));
                    self.seg_side_joins[seg as usize] += 1;
                }
                for h in [2 * s, 2 * s + 1] {
                    let fseg = r.half_seg[h];
                    let of = other.half_seg[facing_half(h)];
                    if fseg != NO_SEG && of != NO_SEG {
                        let root = b.features.root(other.first_node + u32::from(of));
                        self.joins.push((fseg, root));
                    }
                }
            } else if b.kind[nb as usize] != CellKind::Land && seg != NO_SEG {
                self.seg_open[seg as usize] -= 1;
            }
        }
        // Segments joining one feature of the board are one feature.
        self.seg_group.clear();
        self.seg_group.extend(0..n);
        for a in 0..self.joins.len() {
            for c in a + 1..self.joins.len() {
                let ((sa, ra), (sc, rc)) = (self.joins[a], self.joins[c]);
                if ra == rc {
                    let (ga, gc) = (self.seg_group[sa as usize], self.seg_group[sc as usize]);
                    if ga != gc {
                        for g in self.seg_group.iter_mut() {
                            if *g == gc {
                                *g = ga;
                            }
                        }
                    }
                }
            }
        }
        for g in &mut self.groups {
            g.segs.clear();
            g.roots.clear();
        }
        let mut count = 0;
        for i in 0..n {
            let rep = self.seg_group[i];
            if rep != i {
                continue;
            }
            if self.groups.len() <= count {
                self.groups.push(Group::default());
            }
            let g = &mut self.groups[count];
            g.kind = Some(t.kinds[i]);
            let mut open = 0;
            for j in 0..n {
                if self.seg_group[j] == rep {
                    g.segs.push(j as u8);
                    open += self.seg_open[j] - 2 * self.seg_side_joins[j];
                    self.seg_group[j] = usize::MAX - count;
                }
            }
            for &(s, root) in &self.joins {
                if self.seg_group[s as usize] == usize::MAX - count && !g.roots.contains(&root) {
                    g.roots.push(root);
                    open += b.features.open_at_root(root);
                }
            }
            g.complete = matches!(t.kinds[i], FeatureKind::Road | FeatureKind::City) && open == 0;
            count += 1;
        }
        self.groups.truncate(count);
        for g in self.seg_group.iter_mut() {
            *g = usize::MAX - *g;
        }
    }

    /// The facts of group `g` of the placed tile `t` once the tile is down.
    fn group_info(&mut self, game: &Game<Interp>, t: &CompiledTile, g: usize) -> FeatureInfo {
        let b = &game.st.board;
        let kind = self.groups[g].kind.unwrap_or(FeatureKind::Road);
        let roots = std::mem::take(&mut self.groups[g].roots);
        let mut info = FeatureInfo {
            root: roots.first().copied().unwrap_or(0),
            kind: Some(kind),
            complete: self.groups[g].complete,
            ..FeatureInfo::default()
        };
        let new_tile = b.placed.len() as u32;
        let stamp = self.next_stamp(b.placed.len() + 1);
        self.tile_stamp[new_tile as usize] = stamp;
        let mut tiles = 1;
        for &r in &roots {
            b.features.for_each_member(r, |m| {
                let tu = b.features.tile[m as usize] as usize;
                if self.tile_stamp[tu] != stamp {
                    self.tile_stamp[tu] = stamp;
                    tiles += 1;
                }
            });
        }
        info.tiles = tiles;
        for &s in &self.groups[g].segs {
            info.shields += u32::from(t.shields[s as usize]);
        }
        for &r in &roots {
            info.shields += u32::from(b.features.shields_at_root(r));
        }
        if kind == FeatureKind::Field {
            let segs = std::mem::take(&mut self.groups[g].segs);
            info.cities = self.farm_cities(game, t, &roots, &segs);
            self.groups[g].segs = segs;
        }
        info.winners = self.winners(&roots, None);
        self.groups[g].roots = roots;
        info
    }

    /// Completed cities next to a farm made of the board's farms `roots` and the placed tile's
    /// segments `segs`, once the tile is down.
    fn farm_cities(
        &mut self,
        game: &Game<Interp>,
        t: &CompiledTile,
        roots: &[u32],
        segs: &[u8],
    ) -> u32 {
        let b = &game.st.board;
        let tiles = &game.cfg.tiles;
        self.cities.clear();
        for &r in roots {
            b.features.for_each_member(r, |m| {
                let p = b.placed[b.features.tile[m as usize] as usize];
                let seg = (m - p.first_node) as usize;
                for &c in &tiles[p.ty as usize].adjacent_cities[seg] {
                    let cr = b.features.root(p.first_node + u32::from(c));
                    let (id, complete) =
                        match self.groups.iter().position(|g| g.roots.contains(&cr)) {
                            Some(g) => (city_id_group(g), self.groups[g].complete),
                            None => (city_id_root(cr), b.features.open_at_root(cr) == 0),
                        };
                    if complete && !self.cities.contains(&id) {
                        self.cities.push(id);
                    }
                }
            });
        }
        for &s in segs {
            for &c in &t.adjacent_cities[s as usize] {
                let g = self.seg_group[c as usize];
                if self.groups[g].complete && !self.cities.contains(&city_id_group(g)) {
                    self.cities.push(city_id_group(g));
                }
            }
        }
        self.cities.len() as u32
    }

    /// Monasteries with followers around the placed tile gain a filled square.
    fn monasteries_around(
        &mut self,
        game: &Game<Interp>,
        cell: u32,
        me: u8,
        points: &mut FeaturePoints,
        out: &mut Outcome,
    ) -> Result<(), GameError> {
        let b = &game.st.board;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let c = (cell as i32 + dy * b.gw + dx) as u32;
                let t = b.tile[c as usize];
                if t == NONE {
                    continue;
                }
                let p = b.placed[t as usize];
                if p.monastery == NO_SEG {
                    continue;
                }
                let root = b.features.root(p.first_node + u32::from(p.monastery));
                let Some(s) = self.standing.iter().find(|s| s.root == root).copied() else {
                    continue;
                };
                let mut info = s.info;
                info.tiles = b.monastery_count(c) + 1;
                info.complete = info.tiles == 9;
                sub(&mut out.scores, &s.points);
                add(&mut out.scores, &points.of(game, &info)?);
                if info.complete {
                    out.spare += self.mine_on(&[root], me);
                }
            }
        }
        Ok(())
    }

    /// Farms with followers the tile does not join, next to a city it completes: one more city.
    fn farms_next_to_completed_cities(
        &mut self,
        game: &Game<Interp>,
        points: &mut FeaturePoints,
        out: &mut Outcome,
    ) -> Result<(), GameError> {
        let b = &game.st.board;
        let tiles = &game.cfg.tiles;
        self.gained.clear();
        for (g, group) in self.groups.iter().enumerate() {
            if group.kind != Some(FeatureKind::City) || !group.complete {
                continue;
            }
            for &r in &group.roots {
                b.features.for_each_member(r, |m| {
                    let p = b.placed[b.features.tile[m as usize] as usize];
                    let seg = (m - p.first_node) as u8;
                    let tt = &tiles[p.ty as usize];
                    for (f, adj) in tt.adjacent_cities.iter().enumerate() {
                        if !adj.contains(&seg) {
                            continue;
                        }
                        let fr = b.features.root(p.first_node + f as u32);
                        let joined = self.groups.iter().any(|x| x.roots.contains(&fr));
                        let followed = self.standing.iter().any(|s| s.root == fr);
                        if followed && !joined && !self.gained.contains(&(fr, g)) {
                            self.gained.push((fr, g));
                        }
                    }
                });
            }
        }
        for k in 0..self.gained.len() {
            let fr = self.gained[k].0;
            if self.gained[..k].iter().any(|&(r, _)| r == fr) {
                continue;
            }
            let more = self.gained.iter().filter(|&&(r, _)| r == fr).count() as u32;
            let Some(s) = self.standing.iter().find(|s| s.root == fr).copied() else {
                continue;
            };
            let mut info = s.info;
            info.cities += more;
            sub(&mut out.scores, &s.points);
            add(&mut out.scores, &points.of(game, &info)?);
        }
        Ok(())
    }

    /// The facts of a feature of the board as it stands (what `State::feature_info` says, read
    /// without changing anything).
    fn info_of_root(&mut self, game: &Game<Interp>, root: u32) -> FeatureInfo {
        let b = &game.st.board;
        let f = &b.features;
        let kind = f.kind[root as usize];
        let mut info = FeatureInfo {
            root,
            kind: Some(kind),
            ..FeatureInfo::default()
        };
        match kind {
            FeatureKind::Road | FeatureKind::City => {
                info.complete = f.open_at_root(root) == 0;
                info.shields = u32::from(f.shields_at_root(root));
                info.tiles = self.distinct_tiles(b, root);
            }
            FeatureKind::Monastery => {
                let cell = b.placed[f.tile[root as usize] as usize].cell;
                info.tiles = b.monastery_count(cell);
                info.complete = info.tiles == 9;
            }
            FeatureKind::Field => {
                info.tiles = self.distinct_tiles(b, root);
                let tiles = &game.cfg.tiles;
                self.cities.clear();
                f.for_each_member(root, |m| {
                    let p = b.placed[f.tile[m as usize] as usize];
                    let seg = (m - p.first_node) as usize;
                    for &c in &tiles[p.ty as usize].adjacent_cities[seg] {
                        let cr = f.root(p.first_node + u32::from(c));
                        if f.open_at_root(cr) == 0 && !self.cities.contains(&city_id_root(cr)) {
                            self.cities.push(city_id_root(cr));
                        }
                    }
                });
                info.cities = self.cities.len() as u32;
            }
        }
        info.winners = self.winners(&[root], None);
        info
    }

    fn distinct_tiles(&mut self, b: &Board, root: u32) -> u32 {
        let stamp = self.next_stamp(b.placed.len());
        let mut tiles = 0;
        b.features.for_each_member(root, |m| {
            let tu = b.features.tile[m as usize] as usize;
            if self.tile_stamp[tu] != stamp {
                self.tile_stamp[tu] = stamp;
                tiles += 1;
            }
        });
        tiles
    }

    fn next_stamp(&mut self, len: usize) -> u32 {
        if self.tile_stamp.len() < len {
            self.tile_stamp.resize(len, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.tile_stamp.iter_mut().for_each(|s| *s = u32::MAX);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Players with the greatest strength on the features `roots` taken as one (plus `extra`, a
    /// follower about to be placed), as `State::majority` reckons it.
    fn winners(&self, roots: &[u32], extra: Option<(u8, u32)>) -> u8 {
        let mut strength = [0u32; 8];
        for h in &self.held {
            if roots.contains(&h.root) {
                strength[(h.owner & 7) as usize] += h.strength;
            }
        }
        if let Some((p, s)) = extra {
            strength[(p & 7) as usize] += s;
        }
        let best = strength.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return 0;
        }
        let mut mask = 0u8;
        for (p, &s) in strength.iter().enumerate() {
            if s == best {
                mask |= 1 << p;
            }
        }
        mask
    }

    /// How many of `me`'s followers stand on the features `roots`.
    fn mine_on(&self, roots: &[u32], me: u8) -> u32 {
        self.held
            .iter()
            .filter(|h| h.owner == me && roots.contains(&h.root))
            .count() as u32
    }
}

fn add(a: &mut Points, b: &Points) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.saturating_add(*y);
    }
}

fn sub(a: &mut Points, b: &Points) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.saturating_sub(*y);
    }
}
