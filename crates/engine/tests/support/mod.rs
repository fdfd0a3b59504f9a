//! Shared helpers for the hand-built engine tests: the base tiles, inline maps, and placing tiles by
//! display coordinates with the legality check first.

#![allow(dead_code)]

use carto_engine::board::{Board, Refusal};
use carto_engine::compiled::{CompiledTile, NO_SEG};
use carto_engine::diag::Source;
use carto_engine::game::{compile_tiles, Config};
use carto_engine::map::{parse_map, BundledResolver, MapBoard};
use carto_engine::tiles::{bundled_tile_set, parse_tile_set};
use std::sync::Arc;

pub const N: usize = 0;
pub const E: usize = 1;
pub const S: usize = 2;
pub const W: usize = 3;

/// The base tiles, compiled, with lookup by id.
pub struct Tiles {
    pub tiles: Vec<CompiledTile>,
    pub counts: Vec<u32>,
    pub start: u16,
}

impl Tiles {
    pub fn base() -> Tiles {
        let src = Source::new("base.toml", bundled_tile_set("base").unwrap());
        let set = parse_tile_set("base", &src).unwrap();
        let (tiles, counts, start) = compile_tiles(&[set]);
        Tiles {
            tiles,
            counts,
            start: start.unwrap(),
        }
    }

    pub fn ty(&self, id: &str) -> u16 {
        self.tiles
            .iter()
            .position(|t| t.id == id)
            .unwrap_or_else(|| panic!("no tile {id}")) as u16
    }

    pub fn get(&self, id: &str) -> &CompiledTile {
        &self.tiles[self.ty(id) as usize]
    }
}

/// Parses an inline map (bundled maps may be used as parts).
pub fn map(text: &str) -> MapBoard {
    let src = Source::new("inline.toml", text);
    parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)))
}

pub fn bundled(name: &str) -> MapBoard {
    let text = carto_engine::map::bundled_map(name).unwrap();
    let src = Source::new(name, text);
    parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)))
}

pub fn cell(b: &Board, x: i32, y: i32) -> u32 {
    b.cell_at(x, y)
        .unwrap_or_else(|| panic!("{x},{y} is outside the board"))
}

/// Checks a placement (rotation in quarter turns clockwise) without placing.
pub fn check(b: &Board, t: &Tiles, x: i32, y: i32, id: &str, rot: usize) -> Result<(), Refusal> {
    b.check(cell(b, x, y), t.get(id), rot)
}

/// Checks then places a tile; returns the roots of the features it completed.
pub fn put(b: &mut Board, t: &Tiles, x: i32, y: i32, id: &str, rot: usize) -> Vec<u32> {
    let c = cell(b, x, y);
    let ty = t.ty(id);
    let tile = &t.tiles[ty as usize];
    if let Err(e) = b.check(c, tile, rot) {
        panic!("place {id} at {x},{y} r{}: {e}", rot * 90);
    }
    let mut completed = Vec::new();
    b.place(c, ty, tile, rot, &mut completed);
    completed
}

fn placed_at(b: &Board, x: i32, y: i32) -> carto_engine::board::Placed {
    let c = cell(b, x, y);
    let i = b.tile[c as usize];
    assert!(i != u32::MAX, "no tile at {x},{y}");
    b.placed[i as usize]
}

/// The node of the road or city on side `side` of the tile at `x,y` (as placed).
pub fn side_node(b: &Board, x: i32, y: i32, side: usize) -> u32 {
    let p = placed_at(b, x, y);
    let s = p.side_seg[side];
    assert!(s != NO_SEG, "no road or city on side {side} at {x},{y}");
    p.first_node + s as u32
}

/// The node of the field on half-edge `half` (Nw=0 .. Wn=7) of the tile at `x,y`.
pub fn half_node(b: &Board, x: i32, y: i32, half: usize) -> u32 {
    let p = placed_at(b, x, y);
    let s = p.half_seg[half];
    assert!(s != NO_SEG, "no field on half {half} at {x},{y}");
    p.first_node + s as u32
}

pub fn monastery_node(b: &Board, x: i32, y: i32) -> u32 {
    let p = placed_at(b, x, y);
    assert!(p.monastery != NO_SEG, "no monastery at {x},{y}");
    p.first_node + p.monastery as u32
}

/// The engine alone on the endless table, with a fixed draw order (tile ids).
pub fn config(t: &Tiles, stack: &[&str], followers: u16) -> Config {
    Config {
        variant: "engine".into(),
        rules: "engine".into(),
        tiles: Arc::new(t.tiles.clone()),
        counts: t.counts.clone(),
        start_tile: t.start,
        start_rot: 0,
        start_named: false,
        map: None,
        followers,
        start_squares: 1,
        start_names: vec![],
        border_fills_monastery: true,
        colours: vec![],
        chip_set: vec![],
        holdings: vec![],
        holding_titles: vec![],
        holdings_per_player: vec![],
        fixed_stack: (!stack.is_empty()).then(|| stack.iter().map(|id| t.ty(id)).collect()),
        sources: Vec::new(),
        laid_chips: Vec::new(),
        counters: Default::default(),
    }
}
