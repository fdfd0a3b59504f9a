//! Placement on the endless table and on maps (spec §2.1), by hand-built boards: adjacency, edge
//! matching, what sea, off-map, waves and large cities do to placement, ferries, maps side by side,
//! and how `Game::find_option` explains a refused placement.

use crate::support;

use carto_engine::board::{Board, Refusal};
use carto_engine::game::{Game, NoRules};
use std::sync::Arc;
use support::*;

/// §2.1: a tile goes next to an already placed tile; a square next to nothing is refused.
#[test]
fn a_tile_must_be_next_to_a_placed_tile() {
    let t = Tiles::base();
    let mut b = Board::unbounded(10);
    // The first tile of an empty board may go anywhere.
    put(&mut b, &t, 0, 0, "D", 0);
    assert_eq!(check(&b, &t, 2, 0, "B", 0), Err(Refusal::NotAdjacent));
    // Diagonal is not next to.
    assert_eq!(check(&b, &t, 1, 1, "B", 0), Err(Refusal::NotAdjacent));
    assert_eq!(check(&b, &t, 0, 1, "B", 0), Ok(()));
    // An occupied square is refused as such.
    assert_eq!(check(&b, &t, 0, 0, "B", 0), Err(Refusal::Occupied));
}

/// The same on a map: land far from every tile is refused.
#[test]
fn on_a_map_a_tile_must_be_next_to_a_placed_tile() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
.....
.....
"""
[legend]
"." = "land"
"##);
    let mut b = Board::from_map(&m);
    put(&mut b, &t, 0, 0, "B", 0);
    assert_eq!(check(&b, &t, 4, 1, "B", 0), Err(Refusal::NotAdjacent));
    assert_eq!(check(&b, &t, 2, 0, "B", 0), Err(Refusal::NotAdjacent));
    assert_eq!(check(&b, &t, 1, 0, "B", 0), Ok(()));
    let mut out = Vec::new();
    b.legal_placements(t.get("B"), &mut out);
    let mut cells: Vec<(i32, i32)> = out.iter().map(|&(c, _)| b.xy(c)).collect();
    cells.sort();
    assert_eq!(cells, vec![(0, 1), (1, 0)]);
}

/// §2.1: every edge facing a placed tile must match it; the refusal names the tile's side.
#[test]
fn edges_must_match_and_the_refusal_names_the_side() {
    let t = Tiles::base();
    let mut b = Board::unbounded(10);
    // D: city N, road E–W, field S.
    put(&mut b, &t, 0, 0, "D", 0);
    // Above D its city: a straight road (field N and S) shows a field on its S side.
    assert_eq!(
        check(&b, &t, 0, -1, "U", 0),
        Err(Refusal::EdgeMismatch { side: 'S' })
    );
    // E rotated 180° has its city cap on S: matches.
    assert_eq!(check(&b, &t, 0, -1, "E", 2), Ok(()));
    // East of D its road: a monastery (all field) shows a field on its W side.
    assert_eq!(
        check(&b, &t, 1, 0, "B", 0),
        Err(Refusal::EdgeMismatch { side: 'W' })
    );
    assert_eq!(check(&b, &t, 1, 0, "U", 0), Ok(()));
    // Below D its field: E with its city on N does not match.
    assert_eq!(
        check(&b, &t, 0, 1, "E", 0),
        Err(Refusal::EdgeMismatch { side: 'N' })
    );
    // Legal placements agree with `check`: U fits east of D only as E–W.
    let mut out = Vec::new();
    b.legal_placements(t.get("U"), &mut out);
    let east = cell(&b, 1, 0);
    let rots: Vec<u8> = out.iter().filter(|p| p.0 == east).map(|p| p.1).collect();
    assert_eq!(rots, vec![0]);
    // A square with two placed neighbours must match both.
    put(&mut b, &t, 1, 0, "U", 0);
    put(&mut b, &t, 1, 1, "B", 0);
    // (0,1): N faces D's field, E faces B's field: B fits, V with its road S–W fits, V turned
    // 270° (road E–S, field N) matches on N but not on E.
    assert_eq!(check(&b, &t, 0, 1, "B", 0), Ok(()));
    assert_eq!(check(&b, &t, 0, 1, "V", 0), Ok(()));
    assert_eq!(
        check(&b, &t, 0, 1, "V", 3),
        Err(Refusal::EdgeMismatch { side: 'E' })
    );
}

/// §2.1: an edge facing sea, off-map, a wave or a large city has no constraint: a city, road or
/// field may face any of them.
#[test]
fn no_constraint_toward_sea_off_map_wave_or_large_city() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
x~w#
....
"""
[legend]
"." = "land"
"~" = "sea"
"w" = "wave"
"x" = "offmap"
"#" = "large_city"
"##);
    let mut b = Board::from_map(&m);
    put(&mut b, &t, 0, 1, "U", 0);
    // D's city cap facing the sea, the wave and the large city in turn (its W road matches the
    // road to its west); each cap is closed there, so each is a complete city at once.
    for x in 1..4 {
        assert_eq!(check(&b, &t, x, 1, "D", 0), Ok(()), "D at {x},1");
        let done = put(&mut b, &t, x, 1, "D", 0);
        assert!(
            done.contains(&b.features.find(side_node(&b, x, 1, N))),
            "D at {x},1"
        );
    }
    // A city facing the frame below the map (rotated 180°: city S, road W–E).
    let mut b = Board::from_map(&m);
    put(&mut b, &t, 0, 1, "U", 0);
    assert_eq!(check(&b, &t, 1, 1, "D", 2), Ok(()));
    // A city facing the frame to the east: J turned 90° has its city E and its road S–W.
    put(&mut b, &t, 1, 1, "D", 2);
    put(&mut b, &t, 2, 1, "U", 0);
    assert_eq!(
        t.get("J").edge(1, E),
        carto_engine::geometry::EdgeKind::City
    );
    assert_eq!(check(&b, &t, 3, 1, "J", 1), Ok(()));
}

/// §2: sea, wave, off-map and large-city squares never take a tile, and neither does the frame
/// around the map.
#[test]
fn sea_wave_off_map_and_large_city_refuse_tiles() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
....
~wx#
"""
[legend]
"." = "land"
"~" = "sea"
"w" = "wave"
"x" = "offmap"
"#" = "large_city"
"##);
    let mut b = Board::from_map(&m);
    for x in 0..4 {
        put(&mut b, &t, x, 0, "B", 0);
    }
    for x in 0..3 {
        assert_eq!(
            check(&b, &t, x, 1, "B", 0),
            Err(Refusal::NotLand("sea, wave or off-map")),
            "{x},1"
        );
    }
    assert_eq!(
        check(&b, &t, 3, 1, "B", 0),
        Err(Refusal::NotLand("large city"))
    );
    // The frame: the cell north of (0,0) is outside the map.
    assert_eq!(b.cell_at(0, -1), None);
    let frame = b.neighbour(cell(&b, 0, 0), N);
    assert_eq!(
        b.check(frame, t.get("B"), 0),
        Err(Refusal::NotLand("sea, wave or off-map"))
    );
    // No placement is ever listed on those squares.
    let mut out = Vec::new();
    b.legal_placements(t.get("B"), &mut out);
    assert!(out.is_empty(), "{out:?}");
    assert!(!b.has_placement(t.get("B")));
}

/// §2.1: a road running into the map edge (the frame) is closed there; it is complete when its
/// other end is closed too.
#[test]
fn the_map_edge_closes_a_road() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
....
....
"""
[legend]
"." = "land"
"##);
    let mut b = Board::from_map(&m);
    // U at the west border: road W–E, closed on W by the frame, open on E.
    let done = put(&mut b, &t, 0, 0, "U", 0);
    assert!(done.is_empty(), "{done:?}");
    let road = side_node(&b, 0, 0, E);
    assert_eq!(b.features.open(road), 1);
    // A monastery with its road ending on W closes the other end.
    let a = t.get("A");
    let rot = (0..4)
        .find(|&r| a.edge(r, W) == carto_engine::geometry::EdgeKind::Road)
        .unwrap();
    let done = put(&mut b, &t, 1, 0, "A", rot);
    let root = b.features.find(road);
    assert_eq!(done, vec![root]);
    assert_eq!(b.features.open(root), 0);

    // A road from border to border: three straight roads across a 4-wide map end at both edges.
    let mut b = Board::from_map(&m);
    for x in 0..3 {
        assert!(put(&mut b, &t, x, 1, "U", 0).is_empty());
    }
    let done = put(&mut b, &t, 3, 1, "U", 0);
    assert_eq!(done, vec![b.features.find(side_node(&b, 0, 1, E))]);
}

/// §2.1: a road running into the sea, a wave or a large city ends there, like one at the map edge.
#[test]
fn sea_wave_and_large_city_close_a_road() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
~...w
....#
"""
[legend]
"." = "land"
"~" = "sea"
"w" = "wave"
"#" = "large_city"
"##);
    // Row 0: sea at the west end, a wave at the east end.
    let mut b = Board::from_map(&m);
    assert!(put(&mut b, &t, 1, 0, "U", 0).is_empty());
    assert!(put(&mut b, &t, 2, 0, "U", 0).is_empty());
    let done = put(&mut b, &t, 3, 0, "U", 0);
    assert_eq!(done, vec![b.features.find(side_node(&b, 1, 0, E))]);
    // Row 1: the frame at the west end, a large city at the east end.
    let mut b = Board::from_map(&m);
    assert!(put(&mut b, &t, 0, 1, "U", 0).is_empty());
    assert!(put(&mut b, &t, 1, 1, "U", 0).is_empty());
    assert!(put(&mut b, &t, 2, 1, "U", 0).is_empty());
    let done = put(&mut b, &t, 3, 1, "U", 0);
    assert_eq!(done, vec![b.features.find(side_node(&b, 0, 1, E))]);
}

/// §2.1: a large city is discovered once a tile lies next to it; then a land square next to another
/// side of it may take a tile though it touches no tile (nothing to match there).
#[test]
fn a_discovered_large_city_makes_its_other_sides_placeable() {
    let t = Tiles::base();
    // An unnamed large city of two squares at (1,1),(2,1).
    let m = map(r##"
name = "t"
grid = """
......
.##...
......
"""
[legend]
"." = "land"
"#" = "large_city"
"##);
    let mut b = Board::from_map(&m);
    // (0,0) is only diagonal to the large city.
    put(&mut b, &t, 0, 0, "B", 0);
    assert_eq!(check(&b, &t, 3, 1, "B", 0), Err(Refusal::NotAdjacent));
    assert_eq!(check(&b, &t, 2, 2, "B", 0), Err(Refusal::NotAdjacent));
    // A tile next to the city's west side discovers it.
    put(&mut b, &t, 0, 1, "B", 0);
    // East side, south side, north side of the city: placeable, and any tile fits there.
    for (x, y) in [(3, 1), (1, 2), (2, 2), (2, 0)] {
        for id in ["B", "C", "D", "U"] {
            assert_eq!(check(&b, &t, x, y, id, 0), Ok(()), "{id} at {x},{y}");
        }
    }
    let mut out = Vec::new();
    b.legal_placements(t.get("C"), &mut out);
    let east = cell(&b, 3, 1);
    assert!(out.iter().any(|p| p.0 == east), "{out:?}");
    // A square next to no tile and not next to the large city is still refused.
    assert_eq!(check(&b, &t, 4, 0, "B", 0), Err(Refusal::NotAdjacent));
    // A tile there grows the board from it by normal adjacency.
    put(&mut b, &t, 3, 1, "C", 0);
    assert_eq!(
        check(&b, &t, 4, 1, "B", 0),
        Err(Refusal::EdgeMismatch { side: 'W' })
    );
    assert_eq!(check(&b, &t, 4, 1, "E", 3), Ok(()));
}

/// A second large city stays undiscovered while only the first one is.
#[test]
fn discovering_one_large_city_does_not_discover_another() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
.#....
....2.
......
"""
[legend]
"." = "land"
"#" = "large_city"
"2" = "large_city"
"##);
    let mut b = Board::from_map(&m);
    put(&mut b, &t, 0, 0, "B", 0); // next to the first large city
    assert_eq!(check(&b, &t, 2, 0, "B", 0), Ok(()));
    assert_eq!(check(&b, &t, 5, 1, "B", 0), Err(Refusal::NotAdjacent));
    put(&mut b, &t, 2, 0, "B", 0);
    put(&mut b, &t, 3, 0, "B", 0);
    put(&mut b, &t, 4, 0, "B", 0); // next to the second one (north of it)
    assert_eq!(check(&b, &t, 5, 1, "B", 0), Ok(()));
    assert_eq!(check(&b, &t, 3, 1, "B", 0), Ok(()));
    assert_eq!(check(&b, &t, 4, 2, "B", 0), Ok(()));
}

/// §2.1 ferries: once the ferry's mainland square holds a tile, the island square counts as adjacent
/// (nothing to match); the rest of the island then grows by normal adjacency.
#[test]
fn a_ferry_makes_its_island_square_placeable() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
...~ii
...~~~
"""
[legend]
"." = "land"
"~" = "sea"
"i" = "island"
[[ferry]]
from = [2, 1]
to = [4, 0]
"##);
    let mut b = Board::from_map(&m);
    put(&mut b, &t, 0, 0, "B", 0);
    put(&mut b, &t, 1, 0, "B", 0);
    put(&mut b, &t, 2, 0, "B", 0);
    // A tile next to the sea is not a ferry landing.
    assert_eq!(check(&b, &t, 4, 0, "B", 0), Err(Refusal::NotAdjacent));
    put(&mut b, &t, 1, 1, "B", 0);
    assert_eq!(check(&b, &t, 4, 0, "B", 0), Err(Refusal::NotAdjacent));
    // The mainland square of the ferry.
    put(&mut b, &t, 2, 1, "B", 0);
    for id in ["B", "C", "D"] {
        assert_eq!(check(&b, &t, 4, 0, id, 0), Ok(()), "{id}");
    }
    // The island's other square only once a tile is next to it.
    assert_eq!(check(&b, &t, 5, 0, "B", 0), Err(Refusal::NotAdjacent));
    put(&mut b, &t, 4, 0, "C", 0);
    assert_eq!(
        check(&b, &t, 5, 0, "B", 0),
        Err(Refusal::EdgeMismatch { side: 'W' })
    );
    assert_eq!(check(&b, &t, 5, 0, "E", 3), Ok(()));
}

/// §2.1 with §5.6: two maps side by side; squares across the seam are adjacent, so a tile there is
/// placeable and must match the tile on the other side.
#[test]
fn across_the_seam_of_two_maps_tiles_are_adjacent_and_must_match() {
    let t = Tiles::base();
    let m = bundled("test-pair");
    // test-west is 8 wide: (7,3) is its last land column, (8,3) the first column of test-east.
    assert_eq!(m.width, 16);
    let mut b = Board::from_map(&m);
    put(&mut b, &t, 7, 3, "D", 0); // road E–W: its E road faces the seam
    assert_eq!(
        check(&b, &t, 8, 3, "B", 0),
        Err(Refusal::EdgeMismatch { side: 'W' })
    );
    assert_eq!(check(&b, &t, 8, 3, "U", 0), Ok(()));
    let done = put(&mut b, &t, 8, 3, "U", 0);
    assert!(done.is_empty());
    // The road runs across the seam as one feature.
    assert_eq!(
        b.features.find(side_node(&b, 7, 3, E)),
        b.features.find(side_node(&b, 8, 3, W))
    );

    // The same with an inline composite of the two halves, the east part one row lower.
    let m = map(r##"
name = "pair"
[[part]]
map = "test-west"
offset = [0, 0]
[[part]]
map = "test-east"
offset = [8, 1]
"##);
    let mut b = Board::from_map(&m);
    // test-west (7,3) touches test-east's (0,2) at (8,3).
    put(&mut b, &t, 7, 3, "D", 2); // D turned: city S, road E–W
    assert_eq!(
        check(&b, &t, 8, 3, "B", 0),
        Err(Refusal::EdgeMismatch { side: 'W' })
    );
    assert_eq!(check(&b, &t, 8, 3, "U", 0), Ok(()));
}

/// `find_option` says why a placement is refused: next to nothing names the adjacency rule; a
/// mismatching edge names the side.
#[test]
fn find_option_explains_refused_placements() {
    let t = Tiles::base();
    let cfg = Arc::new(config(&t, &["A", "A"], 7));
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut g = Game::new(cfg, NoRules, &players, 1, true).unwrap();
    assert!(g.advance().unwrap());
    // The start tile D is at 0,0; the tile to place is A (monastery, road S).
    assert!(g.find_option("place A at 0,1 r0").is_ok());
    let far = g.find_option("place A at 5,5 r0").unwrap_err();
    assert!(far.contains("not next to a placed tile"), "{far}");
    let mism = g.find_option("place A at 0,-1 r0").unwrap_err();
    assert!(mism.contains("S edge does not match"), "{mism}");
    let mism = g.find_option("place A at 1,0 r0").unwrap_err();
    assert!(mism.contains("W edge does not match"), "{mism}");
    let occ = g.find_option("place A at 0,0 r0").unwrap_err();
    assert!(occ.contains("already holds a tile"), "{occ}");
    let wrong = g.find_option("place B at 0,1 r0").unwrap_err();
    assert!(wrong.contains("the tile to place is A"), "{wrong}");
    // Every refusal lists the legal options.
    assert!(far.contains("legal: "), "{far}");
}

/// The placements offered, which the board finds from the need it keeps for each frontier cell,
/// are those found afresh: every frontier cell, in frontier order, with every distinct rotation
/// whose edges fit the tiles around it now; and the need kept for every empty land cell is the one
/// its neighbours give. Checked at every placement of many random games, on the endless table and
/// on maps with sea, large cities and a ferry (where `Board::check` is also asked of every cell).
/// So are the filled squares kept around each monastery.
#[test]
fn offered_placements_equal_those_found_afresh() {
    use carto_engine::board::CellKind;
    use carto_engine::compiled::need_fits;
    use carto_engine::game::{Config, Opt};
    use carto_engine::rng::Rng;
    let t = Tiles::base();
    let endless = config(&t, &[], 7);
    let mut on_map = config(&t, &[], 7);
    on_map.map = Some(Arc::new(bundled("test")));
    on_map.start_squares = 2;
    let mut checked = 0;
    for (cfg, every_cell) in [(endless, false), (on_map, true)] {
        let cfg: Arc<Config> = Arc::new(cfg);
        let players = vec!["ann".to_string(), "bob".to_string()];
        let mut g = Game::new(cfg.clone(), NoRules, &players, 0, false).unwrap();
        for seed in 0..20u64 {
            g.reset(&players, seed, false).unwrap();
            let mut rng = Rng::new(seed + 500);
            while g.advance().unwrap() {
                if let (Some(ty), Some(Opt::Place { .. })) = (g.st.current_tile, g.options.first())
                {
                    let b = &g.st.board;
                    let tile = &cfg.tiles[ty as usize];
                    let mut afresh = Vec::new();
                    for c in b.frontier() {
                        let need = b.need_from_neighbours(c, &cfg.tiles);
                        assert_eq!(b.need_kept(c), (need, Some(need)), "seed {seed}");
                        for &r in &tile.distinct_rots {
                            if need_fits(tile.rot[r as usize].edges, need) {
                                afresh.push(Opt::Place { cell: c, rot: r });
                            }
                        }
                    }
                    assert_eq!(g.options, afresh, "seed {seed} turn {}", g.st.turn);
                    // The filled squares kept around each monastery are those counted afresh.
                    for p in &b.placed {
                        let kept = b.monastery_fill_kept(p.cell);
                        if cfg.tiles[p.ty as usize].monastery.is_some() {
                            assert_eq!(kept, b.monastery_count(p.cell), "seed {seed}");
                        } else {
                            assert_eq!(kept, 0, "seed {seed}");
                        }
                    }
                    // Every land cell of a map; around every placed tile on the endless table.
                    let cells: Vec<u32> = if every_cell {
                        (0..b.kind.len() as u32).collect()
                    } else {
                        let around = |p: &carto_engine::board::Placed| {
                            let cell = p.cell;
                            (0..4).map(move |s| b.neighbour(cell, s))
                        };
                        b.placed.iter().flat_map(around).collect()
                    };
                    for c in cells {
                        if b.kind[c as usize] == CellKind::Land && b.tile[c as usize] == u32::MAX {
                            let need = b.need_from_neighbours(c, &cfg.tiles);
                            assert_eq!(b.need_kept(c).0, need, "seed {seed} cell {c}");
                        }
                    }
                    if every_cell {
                        let mut checked_ok: Vec<Opt> = Vec::new();
                        for c in 0..b.kind.len() as u32 {
                            for &r in &tile.distinct_rots {
                                if b.check(c, tile, r as usize).is_ok() {
                                    checked_ok.push(Opt::Place { cell: c, rot: r });
                                }
                            }
                        }
                        let mut offered = g.options.clone();
                        let key = |o: &Opt| match *o {
                            Opt::Place { cell, rot } => (cell, rot),
                            _ => (u32::MAX, 0),
                        };
                        offered.sort_by_key(key);
                        assert_eq!(offered, checked_ok, "seed {seed} turn {}", g.st.turn);
                    }
                    checked += 1;
                }
                let i = rng.below(g.options.len() as u32) as usize;
                g.choose(i).unwrap();
            }
        }
    }
    assert!(checked > 2000, "{checked} placements checked");
}

/// Everything a board holds that play reads, in the order it lists it: the frontier, the tiles
/// placed, each cell's tile, need (and frontier entry) and monastery count, and each feature node's root,
/// open sides, coats of arms, kind and tile.
type Facts = (
    Vec<u32>,
    Vec<carto_engine::board::Placed>,
    Vec<(u32, (u8, Option<u8>), u32)>,
    Vec<(u32, i32, u16, u32)>,
);

fn board_facts(b: &Board) -> Facts {
    let cells = (0..b.kind.len() as u32)
        .map(|c| (b.tile[c as usize], b.need_kept(c), b.monastery_fill_kept(c)))
        .collect();
    let f = &b.features;
    let nodes = (0..f.len() as u32)
        .map(|n| {
            let r = f.root(n);
            let kind = f.kind[n as usize] as u32;
            (
                r,
                f.open_at_root(r),
                f.shields_at_root(r),
                kind * 1_000_000 + f.tile[n as usize],
            )
        })
        .collect();
    (b.frontier().collect(), b.placed.clone(), cells, nodes)
}

/// A look-ahead's scratch board, copied from a position, played on (a few tiles) and copied from
/// the same position again (which copies back only the cells those tiles touched), is the
/// position again, cell for cell; so is one copied again after the position itself moved on (a
/// whole copy). On the endless table and on a map with sea, large cities and a ferry.
#[test]
fn a_board_copied_back_after_placements_is_the_position_again() {
    use carto_engine::game::{Config, Opt};
    use carto_engine::rng::Rng;
    let t = Tiles::base();
    let endless = config(&t, &[], 7);
    let mut on_map = config(&t, &[], 7);
    on_map.map = Some(Arc::new(bundled("test")));
    on_map.start_squares = 2;
    let mut copied_back = 0;
    for cfg in [endless, on_map] {
        let cfg: Arc<Config> = Arc::new(cfg);
        let players = vec!["ann".to_string(), "bob".to_string()];
        let mut g = Game::new(cfg.clone(), NoRules, &players, 0, false).unwrap();
        // The board is copied as part of the state (`State::clone_from`), as look-aheads do.
        let mut scratch: Option<carto_engine::state::State> = None;
        for seed in 0..3u64 {
            g.reset(&players, seed, false).unwrap();
            let mut rng = Rng::new(seed + 900);
            while g.advance().unwrap() {
                if let (Some(_), Some(Opt::Place { .. })) = (g.st.current_tile, g.options.first()) {
                    let b = &g.st.board;
                    let st = scratch.get_or_insert_with(|| g.st.clone());
                    for _ in 0..2 {
                        st.clone_from(&g.st);
                        assert_eq!(board_facts(&st.board), board_facts(b), "seed {seed}");
                        // A few tiles of the stack placed on the scratch board.
                        for &ty in g.st.stack.iter().rev().take(1 + rng.below(3) as usize) {
                            let s = &mut st.board;
                            let mut opts = Vec::new();
                            s.legal_placements(&cfg.tiles[ty as usize], &mut opts);
                            if opts.is_empty() {
                                continue;
                            }
                            let (cell, rot) = opts[rng.below(opts.len() as u32) as usize];
                            let tile = &cfg.tiles[ty as usize];
                            s.place(cell, ty, tile, rot as usize, &mut Vec::new());
                        }
                        st.clone_from(&g.st);
                        assert_eq!(board_facts(&st.board), board_facts(b), "seed {seed}");
                        copied_back += 1;
                    }
                }
                let n = g.options.len() as u32;
                g.choose(rng.below(n) as usize).unwrap();
            }
        }
    }
    assert!(copied_back > 300, "{copied_back}");
}
