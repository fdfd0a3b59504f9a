//! The standard chip scatter (spec §4), as the bundled variants that use it run it: each variant is
//! loaded, set up for many seeds (start squares chosen by the seed), and the chips on the map are
//! checked against every placement rule. Add a variant to `SCATTERED` to have it checked too.

use carto::game::Game;
use carto::lang::interp::Interp;
use carto::map::{MapBoard, SquareKind};
use carto::state::Place;
use carto::variant::{load_variant, Variant};
use std::collections::BTreeSet;

/// (variant, chips the scatter puts on the map; the rest of the 30 go aside).
const SCATTERED: &[(&str, usize)] = &[("france", 30), ("benelux", 20)];

const SEEDS: std::ops::RangeInclusive<u64> = 1..=40;

fn new_game(v: &Variant, seed: u64) -> Game<Interp> {
    assert!(v.map.is_some(), "a map variant");
    let players = ["ann".to_string(), "bob".to_string()];
    v.new_game(v.config.clone(), &players, seed, false)
        .unwrap_or_else(|e| panic!("{}: seed {seed}: {e}", v.name))
}

fn neighbours((x, y): (i32, i32)) -> [(i32, i32); 4] {
    [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]
}

fn kind(map: &MapBoard, at: (i32, i32)) -> Option<SquareKind> {
    map.square(at.0, at.1).map(|s| s.kind)
}

/// The chips' squares and the number of chips aside after setup.
fn layout(game: &Game<Interp>) -> (Vec<(i32, i32)>, usize) {
    let mut on_map = Vec::new();
    let mut aside = 0;
    for (i, c) in game.st.chips.iter().enumerate() {
        match c.place {
            Place::Square(cell) => {
                assert!(!c.face_up, "chip {i} lies face up");
                on_map.push(game.st.board.xy(cell));
            }
            Place::Aside => aside += 1,
            p => panic!("chip {i} is at {p:?} after setup"),
        }
    }
    (on_map, aside)
}

#[test]
fn scattered_chips_keep_apart_from_each_other_used_starts_and_open_large_city_sides() {
    for &(name, want) in SCATTERED {
        let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {}", e.text));
        let map = v.map.clone().unwrap();
        for seed in SEEDS {
            let game = new_game(&v, seed);
            let ctx = format!("{name}, seed {seed}");
            let (chips, aside) = layout(&game);
            assert_eq!(
                (chips.len(), aside),
                (want, 30 - want),
                "{ctx}: chips on the map, aside"
            );
            let used_starts: Vec<(i32, i32)> = game
                .st
                .start_cells
                .iter()
                .map(|&c| game.st.board.xy(c))
                .collect();
            assert_eq!(used_starts.len(), 2, "{ctx}: start squares used");
            let taken: BTreeSet<(i32, i32)> = chips.iter().copied().collect();
            assert_eq!(taken.len(), chips.len(), "{ctx}: two chips on one square");
            for &at in &chips {
                let sq = map.square(at.0, at.1).unwrap();
                // Rule 2: land, not a town (start squares are towns), not a stack square.
                assert_eq!(sq.kind, SquareKind::Land, "{ctx}: chip at {at:?}");
                assert!(!sq.town, "{ctx}: chip on the town at {at:?}");
                assert!(sq.start.is_none(), "{ctx}: chip on a start square {at:?}");
                assert!(
                    !sq.attrs.contains_key("stack"),
                    "{ctx}: chip on a stack square {at:?}"
                );
                for n in neighbours(at) {
                    // Rule 3: no two chips orthogonally adjacent.
                    assert!(
                        !taken.contains(&n),
                        "{ctx}: chips at {at:?} and {n:?} touch"
                    );
                    // Rule 4: not next to a used start square.
                    assert!(
                        !used_starts.contains(&n),
                        "{ctx}: chip at {at:?} next to the used start square {n:?}"
                    );
                    // Rule 5: not next to an open side of a large city (the chip's square is land,
                    // so a large city next to it has an open side there).
                    assert_ne!(
                        kind(&map, n),
                        Some(SquareKind::LargeCity),
                        "{ctx}: chip at {at:?} next to the large city at {n:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_scatter_spreads_chips_over_the_map_and_follows_the_seed() {
    for &(name, want) in SCATTERED {
        let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {}", e.text));
        let map = v.map.clone().unwrap();
        let mut layouts = BTreeSet::new();
        for seed in SEEDS {
            let (chips, _) = layout(&new_game(&v, seed));
            let (again, _) = layout(&new_game(&v, seed));
            assert_eq!(chips, again, "{name}, seed {seed}: not reproducible");
            // Spread: every third of the map's height and of its width holds some of the chips.
            for (axis, size) in [(0, map.width), (1, map.height)] {
                for third in 0..3 {
                    let n = chips
                        .iter()
                        .filter(|c| {
                            let p = if axis == 0 { c.0 } else { c.1 };
                            p * 3 / size == third
                        })
                        .count();
                    assert!(
                        n * 8 >= want,
                        "{name}, seed {seed}: {n} of {want} chips in third {third} of axis {axis}"
                    );
                }
            }
            layouts.insert(chips);
        }
        assert!(
            layouts.len() as u64 > *SEEDS.end() / 2,
            "{name}: seeds give few layouts"
        );
    }
}
