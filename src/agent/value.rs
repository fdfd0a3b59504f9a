//! What an option would gain, read from the board without playing it: the features a placement
//! would join, complete or enlarge (and the farms next to a city it completes), or the feature a
//! follower would join, each described by the facts the rules score (kind, complete, tiles, coats
//! of arms, cities, winners) and valued by [`FeaturePoints`]. The result is the same position value
//! `greedy` gets by playing the option in a copy of the game and letting the final scoring run:
//! every player's score plus what the features with followers would score now, and the deciding
//! player's followers back in the supply at the end of the turn.
//!
//! Only for rules whose `scored` rules [`super::points::scored_by_facts`] accepts, options that run
//! no other rule (`super::quiet`), and decisions of placing a tile or a follower; anything else is
//! valued in a copy.

use super::points::{FeaturePoints, Points};
use crate::board::{Board, CellKind, Mark};
use crate::compiled::{CompiledTile, NO_SEG};
use crate::facts::{majority, Walk};
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
    /// Strength of each player's followers on it.
    strength: [u32; 8],
    info: FeatureInfo,
    points: Points,
    /// Monasteries: what it would score with one more tile around it (worked out when first
    /// asked).
    next_points: Option<Points>,
    /// Members of the feature (see [`Kept`]).
    size: u32,
    /// Farms: the cities next to it, `Kept::cities[start..start + len]`.
    cities: (u32, u32),
}

/// The final position an option leads to: every player's score and the decider's spare followers;
/// and whether any follower returns to its supply in the turn (a completed feature with followers).
#[derive(Clone, Copy)]
pub(crate) struct Outcome {
    pub(crate) scores: Points,
    pub(crate) spare: u32,
    pub(crate) returns: bool,
}

/// The most segments a tile may have for the preview (a bit each); a tile with more is valued in
/// a copy of the game.
const MAX_SEGS: usize = 32;

/// The most features of the board a tile's segment group can join: one through each side and
/// each half side.
const MAX_JOINS: usize = 12;

/// Segments of the placed tile joined into one feature, with the features they join (in place,
/// no allocation per option).
#[derive(Default, Clone, Copy)]
struct Group {
    /// A bit per segment.
    segs: u32,
    /// The roots of the features of the board it joins: the first `joined` of them.
    joined_roots: [u32; MAX_JOINS],
    joined: u8,
    kind: Option<FeatureKind>,
    /// Roads and cities: whether the feature is complete once the tile is down.
    complete: bool,
    /// Whether a feature it joins has followers.
    followed: bool,
    /// Roads and cities: the sides it leaves open once the tile is down.
    open: i32,
}

impl Group {
    /// The roots of the features of the board the group joins.
    fn roots(&self) -> &[u32] {
        &self.joined_roots[..self.joined as usize]
    }
}

/// The segments in the mask `m`.
fn segs_of(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            s
        })
    })
}

/// What the last read of the board kept (with [`Preview::standing`], the features with followers
/// it read), for a later read of the same board with only tiles placed since, or of a copy of it
/// with only tiles placed since ([`Board::descends_from`]): a feature whose root has as many
/// members as then has the same tiles, coats of arms and sides, and, a farm, the same cities next
/// to it (which may have been completed or joined since). Its facts are read again from those,
/// without a walk; its winners are the same when the strengths on it are, and its points when its
/// facts are.
#[derive(Default)]
struct Kept {
    /// The board the last read read, as it was (`None` after a read that failed).
    mark: Option<Mark>,
    /// A buffer for the features with followers a read finds.
    standing: Vec<Standing>,
    /// Farms' cities: a node of each city next to a farm (`Standing::cities` says which).
    cities: Vec<u32>,
    /// Being filled by the current read.
    next_cities: Vec<u32>,
    /// Cities' roots, counted once each.
    roots: Vec<u32>,
}
/// Buffers kept from decision to decision.
#[derive(Default)]
pub(crate) struct Preview {
    /// The features with followers the last `load` read.
    kept: Kept,
    held: Vec<Held>,
    standing: Vec<Standing>,
    /// Scores plus what every standing feature would score, per player.
    base: Points,
    /// The decider's followers in the supply at the end of the turn, as things stand.
    base_spare: u32,
    /// Whether a feature with followers is complete as things stand (its followers return).
    base_returns: bool,
    walk: Walk,
    groups: Vec<Group>,
    /// Group of each segment of the placed tile that has one (see `group_segments`).
    seg_group: [u8; MAX_SEGS],
    joins: Vec<(u8, u32)>,
    /// Farms of the board next to a city the placed tile completes: (farm root, the city's group).
    city_farms: Vec<(u32, usize)>,
    /// Groups of the placed tile: cities a farm gains.
    new_cities: Vec<usize>,
    /// The last cell a placement was asked for, for the next rotation there: the cell, whether it
    /// is [`Self::untouched`], and whether a monastery with followers is around it.
    last_cell: Option<(u32, bool, bool)>,
    /// The monasteries among the standing features: index and square (x, y).
    monasteries: Vec<(usize, (i32, i32))>,
    /// Whether a farm has followers.
    followed_farm: bool,
    /// Whether a group of the placed tile is a city it completes (see `group_segments`).
    completes_city: bool,
    /// Players in the game (at most 8): the others' points are all 0.
    seats: usize,
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
    /// features they stand on would score. What this preview read last is read again without a
    /// walk where it still holds (see [`Kept`]).
    pub(crate) fn load(
        &mut self,
        game: &Game<Interp>,
        me: u8,
        points: &mut FeaturePoints,
    ) -> Result<(), GameError> {
        // The last read is taken out while this one reads against it, then kept as a buffer.
        let was = std::mem::take(&mut self.standing);
        let was_cities = std::mem::take(&mut self.kept.cities);
        let read = self.read(game, me, points, self.kept.mark, &was, &was_cities);
        self.kept.standing = was;
        self.kept.next_cities = was_cities;
        read
    }

    /// [`Preview::load`], reading against what `prior` read last instead of this preview's own
    /// last read: for the position an option leads to, played in a copy of the game whose
    /// decision `prior` read, so that only what the option changed is walked.
    pub(crate) fn load_after(
        &mut self,
        game: &Game<Interp>,
        me: u8,
        points: &mut FeaturePoints,
        prior: &Preview,
    ) -> Result<(), GameError> {
        self.read(
            game,
            me,
            points,
            prior.kept.mark,
            &prior.standing,
            &prior.kept.cities,
        )
    }

    /// Reads the position (see [`Preview::load`]) against a read of the board `mark` that found
    /// the features with followers `was`, their farms' cities in `was_cities`.
    fn read(
        &mut self,
        game: &Game<Interp>,
        me: u8,
        points: &mut FeaturePoints,
        mark: Option<Mark>,
        was: &[Standing],
        was_cities: &[u32],
    ) -> Result<(), GameError> {
        self.kept.mark = None;
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
        self.seats = st.players.len().min(8);
        for (i, p) in st.players.iter().enumerate().take(8) {
            self.base[i] = p.score;
        }
        self.base_spare = u32::from(st.followers_in_supply(me));
        self.base_returns = false;
        let b = &st.board;
        let valid = mark.is_some_and(|m| b.descends_from(m));
        std::mem::swap(&mut self.standing, &mut self.kept.standing);
        self.standing.clear();
        self.kept.next_cities.clear();
        self.monasteries.clear();
        self.last_cell = None;
        for h in &self.held {
            let k = match self.standing.iter().position(|s| s.root == h.root) {
                Some(k) => k,
                None => {
                    self.standing.push(Standing {
                        root: h.root,
                        strength: [0; 8],
                        info: FeatureInfo::default(),
                        points: [0; 8],
                        next_points: None,
                        size: f.size_at_root(h.root),
                        cities: (0, 0),
                    });
                    self.standing.len() - 1
                }
            };
            self.standing[k].strength[(h.owner & 7) as usize] += h.strength;
        }
        for k in 0..self.standing.len() {
            let s = &self.standing[k];
            // Features are found in the followers' order, which changes little from one read to
            // the next: the same place is looked at first.
            let alike = |w: &&Standing| w.root == s.root && w.size == s.size;
            let same = match valid {
                true => was.get(k).filter(alike).or_else(|| was.iter().find(alike)),
                false => None,
            };
            let cities_from = self.kept.next_cities.len();
            match same {
                Some(w) => self.kept_facts(game, k, w, was_cities, points)?,
                None => {
                    let mut info = self.facts_kept(b, &game.cfg.tiles, s.root);
                    info.winners = majority(&self.standing[k].strength);
                    self.standing[k].points = points.of(game, &info)?;
                    self.standing[k].info = info;
                }
            }
            let s = &mut self.standing[k];
            s.cities = (
                cities_from as u32,
                (self.kept.next_cities.len() - cities_from) as u32,
            );
            let (root, complete, kind) = (s.info.root, s.info.complete, s.info.kind);
            add(self.seats, &mut self.base, &self.standing[k].points);
            if complete {
                self.base_spare += self.mine_on(&[root], me);
                self.base_returns = true;
            }
            if kind == Some(FeatureKind::Monastery) {
                let cell = st.board.placed[f.tile[root as usize] as usize].cell;
                self.monasteries.push((k, st.board.xy(cell)));
            }
        }
        std::mem::swap(&mut self.kept.cities, &mut self.kept.next_cities);
        self.kept.mark = Some(b.mark());
        self.followed_farm = self
            .standing
            .iter()
            .any(|s| s.info.kind == Some(FeatureKind::Field));
        Ok(())
    }

    /// Gives standing feature `k`, the same feature as `w` of an earlier read (same root and
    /// members), whose farm's cities are in `was_cities`, its facts and points: read from what
    /// that read walked (see [`Kept`]); a farm's cities are kept for the next read.
    fn kept_facts(
        &mut self,
        game: &Game<Interp>,
        k: usize,
        w: &Standing,
        was_cities: &[u32],
        points: &mut FeaturePoints,
    ) -> Result<(), GameError> {
        let b = &game.st.board;
        let f = &b.features;
        let root = self.standing[k].root;
        let (mut info, cities) = (w.info, w.cities);
        match info.kind {
            Some(FeatureKind::Road | FeatureKind::City) => {
                info.complete = f.open_at_root(root) == 0;
                info.shields = u32::from(f.shields_at_root(root));
            }
            Some(FeatureKind::Monastery) => {
                let cell = b.placed[f.tile[root as usize] as usize].cell;
                info.tiles = b.monastery_count(cell);
                info.complete = info.tiles == 9;
            }
            Some(FeatureKind::Field) => {
                let kept = &mut self.kept;
                kept.roots.clear();
                let (start, len) = (cities.0 as usize, cities.1 as usize);
                for &c in &was_cities[start..start + len] {
                    let r = f.root(c);
                    if f.open_at_root(r) == 0 && !kept.roots.contains(&r) {
                        kept.roots.push(r);
                    }
                }
                info.cities = kept.roots.len() as u32;
                kept.next_cities
                    .extend_from_slice(&was_cities[start..start + len]);
            }
            None => {}
        }
        let s = &mut self.standing[k];
        if s.strength != w.strength {
            info.winners = majority(&s.strength);
        }
        if info == w.info {
            s.next_points = w.next_points;
            s.points = w.points;
        } else {
            s.points = points.of(game, &info)?;
        }
        s.info = info;
        Ok(())
    }

    /// The facts of the feature `root` of `b` as it stands (all but its winners), walked; a farm's
    /// cities next to it (completed or not) are noted in `kept.next_cities`, a node each.
    fn facts_kept(&mut self, b: &Board, tiles: &[CompiledTile], root: u32) -> FeatureInfo {
        let f = &b.features;
        if f.kind[root as usize] != FeatureKind::Field {
            return self.walk.facts(b, tiles, root);
        }
        let from = self.kept.next_cities.len();
        let cities = &mut self.kept.next_cities;
        self.walk.start(b.placed.len());
        self.walk.add_farm(b, tiles, root, |c| {
            if !cities[from..].contains(&c) {
                cities.push(c);
            }
            (f.open_at_root(c) == 0).then_some(u64::from(c))
        });
        FeatureInfo {
            root,
            kind: Some(FeatureKind::Field),
            tiles: self.walk.tiles(),
            cities: self.walk.cities(),
            ..FeatureInfo::default()
        }
    }

    /// The outcome of a turn that changes nothing on the board (passing): the position `load` read.
    pub(crate) fn as_it_stands(&self) -> Outcome {
        Outcome {
            scores: self.base,
            spare: self.base_spare,
            returns: self.base_returns,
        }
    }

    /// Where option `opt` leads, or `None` when this preview cannot tell (the option is valued in
    /// a copy then). `load` first, for the same game and decider.
    pub(crate) fn outcome(
        &mut self,
        game: &Game<Interp>,
        opt: Opt,
        me: u8,
        points: &mut FeaturePoints,
    ) -> Result<Option<Outcome>, GameError> {
        match opt {
            Opt::Pass => Ok(Some(self.as_it_stands())),
            Opt::Follower { seg } => self.follower(game, seg, me, points).map(Some),
            Opt::Place { cell, rot } => self.place(game, cell, rot as usize, me, points),
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
            return Ok(self.as_it_stands());
        };
        let root = st.board.features.root(p.first_node + u32::from(seg));
        let strength = st
            .player_followers(me)
            .map(|f| st.followers[f as usize])
            .find(|f| f.at == FollowerAt::Supply)
            .map_or(1, |f| u32::from(f.strength));
        // The facts of the feature as it stands (what `State::feature_info` says: the same walk,
        // read without changing anything), with the follower.
        let mut info = self.walk.facts(&st.board, &game.cfg.tiles, root);
        info.winners = self.winners(&[root], Some((me, strength)));
        let mut scores = self.base;
        // A feature that already had followers would not be offered; be exact all the same.
        if let Some(s) = self.standing.iter().find(|s| s.root == root) {
            sub(self.seats, &mut scores, &s.points);
        }
        points.add_to(game, &info, self.seats, &mut scores)?;
        let mut spare = self.base_spare.saturating_sub(1);
        if info.complete {
            spare += 1;
        }
        Ok(Outcome {
            scores,
            spare,
            returns: self.base_returns || info.complete,
        })
    }

    /// Whether every rotation of the current tile on `cell` leads to the position as it stands
    /// (what [`Self::outcome`] gives then is [`Self::as_it_stands`]): see [`Self::untouched`].
    pub(crate) fn leaves_as_it_stands(&mut self, game: &Game<Interp>, cell: u32) -> bool {
        let Some(ty) = game.st.current_tile else {
            return false;
        };
        game.cfg.tiles[ty as usize].kinds.len() <= MAX_SEGS
            && self.cell_facts(&game.st.board, cell).0
    }

    /// Whether a tile on `cell` leaves the features with followers as they stand, and whether a
    /// monastery with followers is around it: worked out once for the rotations on one square.
    fn cell_facts(&mut self, b: &Board, cell: u32) -> (bool, bool) {
        let (untouched, monastery) = match self.last_cell {
            Some((c, u, m)) if c == cell => (u, m),
            _ => {
                let m = self.monastery_around(b, cell);
                (!m && self.untouched(b, cell), m)
            }
        };
        self.last_cell = Some((cell, untouched, monastery));
        (untouched, monastery)
    }

    /// The current tile placed on `cell` with rotation `rot`, no follower on it.
    fn place(
        &mut self,
        game: &Game<Interp>,
        cell: u32,
        rot: usize,
        me: u8,
        points: &mut FeaturePoints,
    ) -> Result<Option<Outcome>, GameError> {
        let mut out = self.as_it_stands();
        let Some(ty) = game.st.current_tile else {
            return Ok(Some(out));
        };
        let t = &game.cfg.tiles[ty as usize];
        if t.kinds.len() > MAX_SEGS {
            return Ok(None);
        }
        let (untouched, monastery) = self.cell_facts(&game.st.board, cell);
        if untouched {
            return Ok(Some(out));
        }
        self.group_segments(&game.st.board, t, cell, rot);
        if self.followed_farm {
            self.farms_of_completed_cities(game);
        }
        // Features with followers the tile joins.
        for g in 0..self.groups.len() {
            if !self.groups[g].followed {
                continue;
            }
            let info = self.group_info(game, t, g);
            let roots = self.groups[g].roots();
            for r in roots {
                if let Some(s) = self.standing.iter().find(|s| s.root == *r) {
                    sub(self.seats, &mut out.scores, &s.points);
                }
            }
            if info.complete {
                out.spare += self.mine_on(roots, me);
                out.returns = true;
            }
            points.add_to(game, &info, self.seats, &mut out.scores)?;
        }
        if monastery {
            self.monasteries_around(game, cell, me, points, &mut out)?;
        }
        if self.followed_farm {
            self.farms_next_to_completed_cities(game, points, &mut out)?;
        }
        Ok(Some(out))
    }

    /// Whether every tile placed on `cell`, around which no monastery has followers (the caller
    /// asks [`Self::monastery_around`] first), leaves the features with followers as they stand,
    /// so that the outcome is the position as it is: read from the neighbours alone, the same for
    /// every tile and rotation. It is so when no feature the tile could join has followers, and,
    /// when a farm has followers, the tile can complete no city of the board (a completed city
    /// counts for the farms next to it): that needs every side the city leaves open to face
    /// `cell`. (A city side of the tile meets only a city side: the tile's segments and edges
    /// agree, and edges match.)
    fn untouched(&self, b: &Board, cell: u32) -> bool {
        let followed = |root: u32| b.features.followers_at_root(root) > 0;
        let mut side_roots = [NONE; 4];
        for (s, side_root) in side_roots.iter_mut().enumerate() {
            let nt = b.tile[b.neighbour(cell, s) as usize];
            if nt == NONE {
                continue;
            }
            let other = &b.placed[nt as usize];
            let segs = [
                other.side_seg[opposite(s)],
                other.half_seg[facing_half(2 * s)],
                other.half_seg[facing_half(2 * s + 1)],
            ];
            for (k, seg) in segs.into_iter().enumerate() {
                if seg == NO_SEG {
                    continue;
                }
                let root = b.features.root(other.first_node + u32::from(seg));
                if followed(root) {
                    return false;
                }
                if k == 0 {
                    *side_root = root;
                }
            }
        }
        if self.followed_farm {
            let cities = side_roots
                .iter()
                .filter(|&&r| r != NONE && b.features.kind[r as usize] == FeatureKind::City);
            for &r in cities {
                let facing = side_roots.iter().filter(|&&q| q == r).count() as i32;
                if b.features.open_at_root(r) <= facing {
                    return false;
                }
            }
        }
        true
    }

    /// Whether a monastery with followers is around `cell` (on one of the eight squares next to it).
    fn monastery_around(&self, b: &Board, cell: u32) -> bool {
        if self.monasteries.is_empty() {
            return false;
        }
        let (x, y) = b.xy(cell);
        (self.monasteries.iter()).any(|&(_, (mx, my))| (mx - x).abs() <= 1 && (my - y).abs() <= 1)
    }

    /// Sorts the tile's segments (at most `MAX_SEGS`) into features: each with the features of
    /// the board it joins, and, for roads and cities, whether it is complete once the tile is down.
    fn group_segments(&mut self, b: &Board, t: &CompiledTile, cell: u32, rot: usize) {
        let n = t.kinds.len();
        let open = self.open_sides_and_joins(b, t, cell, rot);
        let (sets, count) = joined_sets(&self.joins);
        let joined_segs = sets[..count].iter().fold(0, |a, m| a | m);
        // One group per set, and per city segment joined to nothing (a farm next to it may count
        // it complete), in the order of their first segments. Any other segment joined to nothing
        // is a feature of its own without followers, which no outcome reads (only cities are
        // looked up, by the farms next to them): it has no group.
        self.groups.clear();
        for i in 0..n {
            let bit = 1u32 << i;
            let segs = if joined_segs & bit == 0 {
                if t.kinds[i] != FeatureKind::City {
                    continue;
                }
                bit
            } else {
                match sets[..count].iter().find(|&&m| m & bit != 0) {
                    Some(&m) if m.trailing_zeros() as usize == i => m,
                    _ => continue,
                }
            };
            let g = self.groups.len() as u8;
            let mut group_open = 0;
            for j in segs_of(segs) {
                self.seg_group[j] = g;
                group_open += open[j];
            }
            self.groups.push(Group {
                segs,
                kind: Some(t.kinds[i]),
                open: group_open,
                ..Group::default()
            });
        }
        for &(s, root) in &self.joins {
            let g = &mut self.groups[self.seg_group[s as usize] as usize];
            if !g.roots().contains(&root) {
                g.joined_roots[g.joined as usize] = root;
                g.joined += 1;
                g.followed |= b.features.followers_at_root(root) > 0;
                g.open += b.features.open_at_root(root);
            }
        }
        self.completes_city = false;
        for g in &mut self.groups {
            g.complete =
                matches!(g.kind, Some(FeatureKind::Road | FeatureKind::City)) && g.open == 0;
            self.completes_city |= g.complete && g.kind == Some(FeatureKind::City);
        }
    }

    /// The sides each road or city segment of the tile leaves open (its own, less those facing
    /// water, less two for each side joined to a feature of the board), and the segments joined to
    /// features of the board (`joins`: a segment and the feature's root).
    #[inline]
    fn open_sides_and_joins(
        &mut self,
        b: &Board,
        t: &CompiledTile,
        cell: u32,
        rot: usize,
    ) -> [i32; MAX_SEGS] {
        let n = t.kinds.len();
        let r = &t.rot[rot];
        // Sides each road or city segment leaves open: its own, less those facing water, less two
        // for each side joined to a feature of the board (its side and the neighbour's close).
        let mut open = [0i32; MAX_SEGS];
        for (i, o) in open.iter_mut().enumerate().take(n) {
            if matches!(t.kinds[i], FeatureKind::Road | FeatureKind::City) {
                *o = t.seg_sides[i][rot].count_ones() as i32;
            }
        }
        self.joins.clear();
        for s in 0..4 {
            let nb = b.neighbour(cell, s);
            let seg = r.side_seg[s];
            let nt = b.tile[nb as usize];
            if nt != NONE {
                let other = &b.placed[nt as usize];
                let oseg = other.side_seg[opposite(s)];
                if seg != NO_SEG && oseg != NO_SEG {
                    let root = b.features.root(other.first_node + u32::from(oseg));
                    self.joins.push((seg, root));
                    open[seg as usize] -= 2;
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
                open[seg as usize] -= 1;
            }
        }
        open
    }

    /// The facts of group `g` of the placed tile `t` once the tile is down.
    fn group_info(&mut self, game: &Game<Interp>, t: &CompiledTile, g: usize) -> FeatureInfo {
        if let [root] = *self.groups[g].roots() {
            if let Some(s) = self.standing.iter().find(|s| s.root == root) {
                let old = s.info;
                return self.grown(game, t, g, old);
            }
        }
        self.joined(game, t, g)
    }

    /// The facts of a feature with followers, `old`, once group `g` of the placed tile `t` joins
    /// it alone: read from what the feature was, without a walk (the same as [`Self::joined`]).
    fn grown(
        &mut self,
        game: &Game<Interp>,
        t: &CompiledTile,
        g: usize,
        old: FeatureInfo,
    ) -> FeatureInfo {
        let group = &self.groups[g];
        let mut info = FeatureInfo {
            complete: group.complete,
            tiles: old.tiles + 1,
            shields: u32::from(game.st.board.features.shields_at_root(old.root))
                + group_shields(t, group),
            ..old
        };
        if group.kind == Some(FeatureKind::Field) {
            // The cities it was next to stay complete and apart (a complete city is joined by no
            // tile); the cities the tile completes next to it, by the board's farm or the tile's, add.
            self.new_cities.clear();
            for &(farm, h) in &self.city_farms {
                if farm == old.root && !self.new_cities.contains(&h) {
                    self.new_cities.push(h);
                }
            }
            for s in segs_of(group.segs) {
                for &c in &t.adjacent_cities[s] {
                    let h = self.seg_group[c as usize] as usize;
                    if self.groups[h].complete && !self.new_cities.contains(&h) {
                        self.new_cities.push(h);
                    }
                }
            }
            info.cities += self.new_cities.len() as u32;
        }
        info
    }

    /// The facts of group `g` of the placed tile `t` and the features of the board it joins, taken
    /// as one, walked.
    fn joined(&mut self, game: &Game<Interp>, t: &CompiledTile, g: usize) -> FeatureInfo {
        let b = &game.st.board;
        let Preview {
            walk,
            groups,
            seg_group,
            ..
        } = self;
        let group = &groups[g];
        let kind = group.kind.unwrap_or(FeatureKind::Road);
        let new_tile = b.placed.len() as u32;
        walk.start(b.placed.len() + 1);
        walk.tile(new_tile);
        // A city of the board is named by its root, or by the group of the tile joining it (the
        // first that does: each root the groups join, with its group, listed once).
        let mut joined_by = [(NONE, 0usize); MAX_JOINS];
        let mut listed = 0;
        if kind == FeatureKind::Field {
            for (h, other) in groups.iter().enumerate() {
                for &r in other.roots() {
                    if listed < MAX_JOINS && !joined_by[..listed].iter().any(|&(q, _)| q == r) {
                        joined_by[listed] = (r, h);
                        listed += 1;
                    }
                }
            }
        }
        let joined_by = &joined_by[..listed];
        let city_after = |root: u32| match joined_by.iter().find(|&&(r, _)| r == root) {
            Some(&(_, h)) => groups[h].complete.then_some(city_id_group(h)),
            None => (b.features.open_at_root(root) == 0).then_some(city_id_root(root)),
        };
        for &r in group.roots() {
            if kind == FeatureKind::Field {
                walk.add_farm(b, &game.cfg.tiles, r, city_after);
            } else {
                walk.add_tiles(b, r);
            }
        }
        if kind == FeatureKind::Field {
            for s in segs_of(group.segs) {
                for &c in &t.adjacent_cities[s] {
                    let h = seg_group[c as usize] as usize;
                    if groups[h].complete {
                        walk.city(city_id_group(h));
                    }
                }
            }
        }
        let mut shields = group_shields(t, group);
        for &r in group.roots() {
            shields += u32::from(b.features.shields_at_root(r));
        }
        FeatureInfo {
            root: group.roots().first().copied().unwrap_or(0),
            kind: Some(kind),
            complete: group.complete,
            tiles: walk.tiles(),
            shields,
            cities: walk.cities(),
            winners: self.winners(self.groups[g].roots(), None),
        }
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
        let (x, y) = game.st.board.xy(cell);
        for m in 0..self.monasteries.len() {
            let (k, (mx, my)) = self.monasteries[m];
            // The squares around a monastery are the eight next to its own.
            if (mx - x).abs() > 1 || (my - y).abs() > 1 {
                continue;
            }
            let s = &mut self.standing[k];
            let mut info = s.info;
            info.tiles += 1;
            info.complete = info.tiles == 9;
            if s.next_points.is_none() {
                s.next_points = Some(points.of(game, &info)?);
            }
            let s = &self.standing[k];
            sub(self.seats, &mut out.scores, &s.points);
            if let Some(next) = &s.next_points {
                add(self.seats, &mut out.scores, next);
            }
            if info.complete {
                out.spare += self.mine_on(&[s.root], me);
                out.returns = true;
            }
        }
        Ok(())
    }

    /// The farms of the board next to each city the placed tile completes, as pairs (farm root,
    /// the city's group), each once: walked from the cities' members, which are fewer than a farm's.
    fn farms_of_completed_cities(&mut self, game: &Game<Interp>) {
        let b = &game.st.board;
        let tiles = &game.cfg.tiles;
        self.city_farms.clear();
        if !self.completes_city {
            return;
        }
        for (g, group) in self.groups.iter().enumerate() {
            if group.kind != Some(FeatureKind::City) || !group.complete {
                continue;
            }
            for &r in group.roots() {
                b.features.for_each_member(r, |m| {
                    let p = b.placed[b.features.tile[m as usize] as usize];
                    let seg = (m - p.first_node) as u8;
                    for (f, adj) in tiles[p.ty as usize].adjacent_cities.iter().enumerate() {
                        if adj.contains(&seg) {
                            let farm = b.features.root(p.first_node + f as u32);
                            if !self.city_farms.contains(&(farm, g)) {
                                self.city_farms.push((farm, g));
                            }
                        }
                    }
                });
            }
        }
    }

    /// Farms with followers the tile does not join, next to a city it completes: one more city.
    fn farms_next_to_completed_cities(
        &mut self,
        game: &Game<Interp>,
        points: &mut FeaturePoints,
        out: &mut Outcome,
    ) -> Result<(), GameError> {
        for k in 0..self.city_farms.len() {
            let farm = self.city_farms[k].0;
            if self.city_farms[..k].iter().any(|&(r, _)| r == farm)
                || self.groups.iter().any(|x| x.roots().contains(&farm))
            {
                continue;
            }
            let Some(s) = self.standing.iter().find(|s| s.root == farm).copied() else {
                continue;
            };
            let more = self.city_farms.iter().filter(|&&(r, _)| r == farm).count() as u32;
            let mut info = s.info;
            info.cities += more;
            sub(self.seats, &mut out.scores, &s.points);
            points.add_to(game, &info, self.seats, &mut out.scores)?;
        }
        Ok(())
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
        majority(&strength)
    }

    /// How many of `me`'s followers stand on the features `roots`.
    fn mine_on(&self, roots: &[u32], me: u8) -> u32 {
        self.held
            .iter()
            .filter(|h| h.owner == me && roots.contains(&h.root))
            .count() as u32
    }
}

/// The segments joined to each feature of the board (a bit each), merged where they share a
/// segment (a segment joined to two features joins them): the sets apart, and how many.
#[inline]
fn joined_sets(joins: &[(u8, u32)]) -> ([u32; MAX_JOINS], usize) {
    // Segments joining one feature of the board are one feature: the segments joined to each
    // feature of the board (a bit each), then those sets merged where they share a segment
    // (a segment joined to two features joins them), in sets apart.
    let mut root_segs = [(NONE, 0u32); MAX_JOINS];
    let mut roots = 0;
    for &(seg, root) in joins {
        let k = root_segs[..roots]
            .iter()
            .position(|&(r, _)| r == root)
            .unwrap_or_else(|| {
                root_segs[roots] = (root, 0);
                roots += 1;
                roots - 1
            });
        root_segs[k].1 |= 1 << seg;
    }
    let mut sets = [0u32; MAX_JOINS];
    let mut count = 0;
    for &(_, m) in &root_segs[..roots] {
        let mut merged = m;
        let mut k = 0;
        while k < count {
            if sets[k] & merged != 0 {
                merged |= sets[k];
                count -= 1;
                sets[k] = sets[count];
            } else {
                k += 1;
            }
        }
        sets[count] = merged;
        count += 1;
    }
    (sets, count)
}

/// Coats of arms on the segments of group `g` of the placed tile `t`.
fn group_shields(t: &CompiledTile, g: &Group) -> u32 {
    segs_of(g.segs).map(|s| u32::from(t.shields[s])).sum()
}

/// Adds `b` to `a`, for the first `n` players (the others have no points).
fn add(n: usize, a: &mut Points, b: &Points) {
    for (x, y) in a.iter_mut().zip(b).take(n) {
        *x = x.saturating_add(*y);
    }
}

/// Takes `b` from `a`, for the first `n` players (the others have no points).
fn sub(n: usize, a: &mut Points, b: &Points) {
    for (x, y) in a.iter_mut().zip(b).take(n) {
        *x = x.saturating_sub(*y);
    }
}

#[cfg(test)]
mod tests {
    use super::super::greedy::Greedy;
    use super::super::view::View;
    use super::super::Agent as _;
    use super::*;
    use crate::agent::lookahead::Scratch;
    use crate::rng::Rng;
    use crate::variant::{bundled_variants, load_variant};

    /// What a preview read of `game` for `me`, as `(root, facts, points)` per feature with
    /// followers, and the position as it stands.
    fn read_of(p: &Preview) -> (Vec<(u32, FeatureInfo, Points)>, Points, u32, bool) {
        let standing = p.standing.iter().map(|s| (s.root, s.info, s.points));
        let o = p.as_it_stands();
        (standing.collect(), o.scores, o.spare, o.returns)
    }

    /// A position read against another preview's last read (`load_after`: a copy of the game,
    /// or a copy of a copy, with an option played in it) is the position read afresh; so is a
    /// copy read against a preview that has read a later position since (which it does not
    /// descend from). Whole games of every bundled variant whose features the preview reads.
    #[test]
    fn a_copy_read_against_the_decisions_read_is_the_copy_read_afresh() {
        let (mut checked, mut variants) = (0, 0);
        for (name, _) in bundled_variants() {
            let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            let names = ["ann".to_string(), "bob".to_string(), "cyd".to_string()];
            let mut game = v.new_game(v.config.clone(), &names, 3, false).unwrap();
            if !crate::agent::quiet::end_allows(&game) {
                continue;
            }
            variants += 1;
            let mut rng = Rng::new(11);
            let (mut points, mut prior) = (FeaturePoints::default(), Preview::default());
            let (mut sample, mut scratch, mut old) =
                (Scratch::default(), Scratch::default(), Scratch::default());
            let mut old_made = false;
            while game.advance().unwrap() {
                let me = game.st.current;
                prior.load(&game, me, &mut points).unwrap();
                // A copy of a copy (a decision's sample, then the scratch an option is played
                // in), with a random option played and the turn passed to its end.
                let s = sample.load(&game);
                let g = scratch.load(s);
                let i = rng.below(g.options.len() as u32) as usize;
                g.choose(i).unwrap();
                g.pass_actions();
                let turn = g.st.turn;
                while g.st.turn == turn && g.advance().unwrap() {
                    let q = crate::agent::lookahead::quiet_option(&g.options);
                    g.choose(q).unwrap();
                }
                let mut fresh = Preview::default();
                fresh.load(g, me, &mut points).unwrap();
                let mut after = Preview::default();
                after.load_after(g, me, &mut points, &prior).unwrap();
                assert_eq!(read_of(&after), read_of(&fresh), "{name}");
                // Last decision's copy, read against this decision's read: afresh.
                if old_made {
                    let o = old.game_mut().unwrap();
                    fresh.load(o, me, &mut points).unwrap();
                    after.load_after(o, me, &mut points, &prior).unwrap();
                    assert_eq!(read_of(&after), read_of(&fresh), "{name}");
                }
                old.load(g);
                old_made = true;
                checked += 1;
                let i = rng.below(game.options.len() as u32) as usize;
                game.choose(i).unwrap();
            }
        }
        assert!(
            variants >= 5 && checked > 500,
            "{variants} variants, {checked}"
        );
    }

    /// Every option `greedy` values from the board (this preview) is worth what it is worth played
    /// in a copy of the game: whole games of every bundled variant, two and three players, every
    /// option of every decision compared. The games are played by greedy and by random players,
    /// so that followers stand on every kind of feature (farms, monasteries) and tiles complete
    /// cities next to farms with followers.
    #[test]
    fn every_option_read_from_the_board_is_worth_what_it_is_worth_played_in_a_copy() {
        let mut decisions = 0;
        for (name, _) in bundled_variants() {
            let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            for (players, seed) in [(2, 3), (3, 8)] {
                let names: Vec<String> = ["ann", "bob", "cyd"][..players]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                let mut game = v.new_game(v.config.clone(), &names, seed, false).unwrap();
                let mut rng = Rng::new(seed).fork();
                let mut player = Greedy::default();
                // Asked at every decision, so that it reads each position relative to the last.
                let mut read = Greedy::default();
                while game.advance().unwrap() {
                    let view = View::of(&game);
                    let mut copied = Greedy::copying();
                    let want = copied.values(&view).unwrap().to_vec();
                    assert_eq!(
                        read.values(&view).unwrap(),
                        &want[..],
                        "{name} turn {}",
                        game.st.turn
                    );
                    decisions += 1;
                    let i = match game.st.turn % 3 {
                        0 => rng.below(game.options.len() as u32) as usize,
                        _ => player.choose(&view, &mut rng).unwrap(),
                    };
                    game.choose(i).unwrap();
                }
            }
        }
        assert!(decisions > 1000, "{decisions} decisions");
    }
}
