//! The facts of a feature the rules read (`FeatureInfo`): the one walk over a feature's members
//! they need (the tiles it covers, a tile once however many of its segments the feature holds, and
//! for a farm the completed cities next to it, each once) and who holds it (the majority of
//! strength). Read-only, for the engine scoring a feature (`State::feature_info`) and for the
//! agents previewing a placement (`agent::value`), which also count as one the features a tile not
//! yet placed would join.

use crate::board::Board;
use crate::compiled::CompiledTile;
use crate::geometry::FeatureKind;
use crate::state::FeatureInfo;

/// A walk's counts and scratch space, kept from walk to walk.
#[derive(Default, Clone, Debug)]
pub struct Walk {
    /// Per placed-tile index: the walk that last counted it.
    seen: Vec<u32>,
    walk: u32,
    tiles: u32,
    /// Completed cities counted, by the caller's names for them.
    cities: Vec<u64>,
}

impl Walk {
    /// Starts counting afresh on a board of `tiles` placed-tile indexes.
    pub fn start(&mut self, tiles: usize) {
        if self.seen.len() < tiles {
            self.seen.resize(tiles, 0);
        }
        self.walk = self.walk.wrapping_add(1);
        if self.walk == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.walk = 1;
        }
        self.tiles = 0;
        self.cities.clear();
    }

    /// Counts placed tile `t` (an index below the `start` size), once.
    pub fn tile(&mut self, t: u32) {
        let s = &mut self.seen[t as usize];
        if *s != self.walk {
            *s = self.walk;
            self.tiles += 1;
        }
    }

    /// Counts the completed city named `id`, once.
    pub fn city(&mut self, id: u64) {
        if !self.cities.contains(&id) {
            self.cities.push(id);
        }
    }

    /// Counts the tiles of the feature whose root is `root`.
    pub fn add_tiles(&mut self, b: &Board, root: u32) {
        let f = &b.features;
        f.for_each_member(root, |m| self.tile(f.tile[m as usize]));
    }

    /// Counts the tiles of the farm whose root is `root` and the completed cities next to it:
    /// `city` names a city by its root, `None` when it is not complete.
    pub fn add_farm(
        &mut self,
        b: &Board,
        tiles: &[CompiledTile],
        root: u32,
        mut city: impl FnMut(u32) -> Option<u64>,
    ) {
        let f = &b.features;
        f.for_each_member(root, |m| {
            let t = f.tile[m as usize];
            self.tile(t);
            let p = &b.placed[t as usize];
            let seg = (m - p.first_node) as usize;
            for &c in &tiles[p.ty as usize].adjacent_cities[seg] {
                if let Some(id) = city(f.root(p.first_node + u32::from(c))) {
                    self.city(id);
                }
            }
        });
    }

    /// Tiles counted since `start`.
    pub fn tiles(&self) -> u32 {
        self.tiles
    }

    /// Completed cities counted since `start`.
    pub fn cities(&self) -> u32 {
        self.cities.len() as u32
    }

    /// The facts of the feature whose root is `root` as the board stands, all but its winners
    /// (who holds it is the followers' business, not the board's).
    pub fn facts(&mut self, b: &Board, tiles: &[CompiledTile], root: u32) -> FeatureInfo {
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
                self.start(b.placed.len());
                self.add_tiles(b, root);
                info.tiles = self.tiles;
            }
            FeatureKind::Monastery => {
                let cell = b.placed[f.tile[root as usize] as usize].cell;
                info.tiles = b.monastery_count(cell);
                info.complete = info.tiles == 9;
            }
            FeatureKind::Field => {
                self.start(b.placed.len());
                self.add_farm(b, tiles, root, |c| {
                    (f.open_at_root(c) == 0).then_some(u64::from(c))
                });
                info.tiles = self.tiles;
                info.cities = self.cities();
            }
        }
        info
    }
}

/// The players (a bit each) whose followers on a feature have the greatest total strength, given
/// each player's strength there; none when no one has any.
pub fn majority(strength: &[u32; 8]) -> u8 {
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
