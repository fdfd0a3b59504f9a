//! What does not change between games of a variant: tiles, counts, map, followers, chips.

use crate::compiled::CompiledTile;
use crate::map::MapBoard;
use std::sync::Arc;

/// Everything about a variant that does not change between games.
#[derive(Clone)]
pub struct Config {
    pub variant: String,
    /// The rules as the user named them (a bundled name or a path), for logs and replays.
    pub rules: String,
    pub tiles: Arc<Vec<CompiledTile>>,
    /// Copies of each tile type, start tile included.
    pub counts: Vec<u32>,
    pub start_tile: u16,
    /// The start tile's rotation (quarter turns); with `start_named`, both were set by the game
    /// (a script's `start TILE rDEG`) rather than taken from the tile sets, and the log says so.
    pub start_rot: u8,
    pub start_named: bool,
    pub map: Option<Arc<MapBoard>>,
    pub followers: u16,
    pub start_squares: usize,
    /// Start squares named by the game (a script or a parameter) instead of chosen at random.
    pub start_names: Vec<String>,
    pub border_fills_monastery: bool,
    pub colours: Vec<String>,
    /// The chip set: (colour, value) per chip, in id order.
    pub chip_set: Vec<(u8, u8)>,
    pub holdings: Vec<String>,
    /// What people read for each holding area: its title in the rules, or else its name.
    pub holding_titles: Vec<String>,
    /// Whether each holding area is one per player (`holding bid per player`).
    pub holdings_per_player: Vec<bool>,
    /// A fixed draw order (tile type ids, first drawn first) instead of a shuffle.
    pub fixed_stack: Option<Vec<u16>>,
    /// The files the rules were read from, with their hashes, for the log (`game_start.sources`).
    pub sources: Vec<SourceFile>,
    /// Chips a script laid after setup (`chip ID at PLACE`), in order, for the log
    /// (`game_start.chips`), so that the game replays.
    pub laid_chips: Vec<LaidChip>,
    /// The values the rules keep (`state NAME …`), in declaration order.
    pub counters: Arc<Vec<crate::counters::CounterDef>>,
}

/// A chip a script laid after setup: its id, its place as the log names it, and its face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaidChip {
    pub id: u16,
    pub at: String,
    pub face_up: bool,
}

impl Config {
    pub fn tile_by_id(&self, id: &str) -> Option<u16> {
        self.tiles.iter().position(|t| t.id == id).map(|i| i as u16)
    }
}

/// Compiles tile sets into one table: tile types in set order, their counts, and the start tile
/// (the first type any set marks as a start tile).
pub fn compile_tiles(sets: &[crate::tiles::TileSet]) -> (Vec<CompiledTile>, Vec<u32>, Option<u16>) {
    let mut tiles = Vec::new();
    let mut counts = Vec::new();
    let mut start = None;
    for set in sets {
        for t in &set.tiles {
            if t.start > 0 && start.is_none() {
                start = Some(tiles.len() as u16);
            }
            tiles.push(CompiledTile::new(t));
            counts.push(t.count);
        }
    }
    (tiles, counts, start)
}

/// One file read for a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The key in the log: `bundled:PATH` for a file built into carto, or the path relative to the
    /// rules file's folder (`/`-separated).
    pub key: String,
    /// `sha256:` and the hex digest of the text.
    pub hash: String,
    /// The path as carto read it this time (for messages).
    pub shown: String,
}
