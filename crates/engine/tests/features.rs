//! Features by hand-built boards: cities joined by a tile, closed by the map border, tile counts,
//! coats of arms, fields and the completed cities next to them, monasteries at the border, followers
//! coming back when their feature is scored, and determinism of whole games.

use crate::support;

use carto_engine::board::Board;
use carto_engine::features::NONE;
use carto_engine::game::{play_random, Ctx, Game, GameError, Hooks, NoRules, Trigger};
use carto_engine::geometry::FeatureKind;
use carto_engine::rng::Rng;
use carto_engine::state::{EvKind, FeatureInfo, Follower, FollowerAt, Player, State};
use std::sync::Arc;
use support::*;

/// A state around a board, with `players` players of 7 followers each.
fn state(b: Board, t: &Tiles, players: usize) -> State {
    let mut st = State::new(b, Arc::new(t.tiles.clone()), 1);
    st.per_player = 7;
    for p in 0..players {
        st.players.push(Player {
            name: format!("p{p}"),
            score: 0,
        });
        for k in 0..7 {
            st.followers.push(Follower {
                owner: p as u8,
                num: k + 1,
                at: FollowerAt::Supply,
                strength: 1,
                placed_turn: 0,
                cell: NONE,
                kind: FeatureKind::Road,
            });
        }
    }
    st
}

/// Three separate city caps around (1,0), whose N, E and W sides face them; (1,1) below is a
/// monastery (field). Returns the board and the city nodes of the caps: west, north, east.
fn three_caps(t: &Tiles) -> (Board, [u32; 3]) {
    let mut b = Board::unbounded(20);
    put(&mut b, t, 0, 0, "E", 1); // city E
    put(&mut b, t, 0, 1, "B", 0);
    put(&mut b, t, 1, 1, "B", 0);
    put(&mut b, t, 2, 1, "B", 0);
    put(&mut b, t, 2, 0, "E", 3); // city W
    put(&mut b, t, 2, -1, "B", 0);
    put(&mut b, t, 1, -1, "E", 2); // city S
    let caps = [
        side_node(&b, 0, 0, E),
        side_node(&b, 1, -1, S),
        side_node(&b, 2, 0, W),
    ];
    let roots: Vec<u32> = caps.iter().map(|&n| b.features.root(n)).collect();
    assert!(roots[0] != roots[1] && roots[1] != roots[2] && roots[0] != roots[2]);
    (b, caps)
}

/// Base rules: a tile joining separate cities makes one city; followers on the parts are then on one
/// feature, and the majority is over all of them. Tied 1–1: both players hold the majority.
#[test]
fn a_tile_joining_two_cities_ties_their_followers_one_to_one() {
    let t = Tiles::base();
    let (b, caps) = three_caps(&t);
    let mut st = state(b, &t, 2);
    st.place_follower(0, caps[0]).unwrap();
    st.place_follower(1, caps[2]).unwrap();
    assert_eq!(st.majority(st.board.features.root(caps[0])), 0b01);
    assert_eq!(st.majority(st.board.features.root(caps[2])), 0b10);
    // R: city N, E, W as one segment; field S.
    let mut done = Vec::new();
    let c = cell(&st.board, 1, 0);
    let ty = t.ty("R");
    st.board.check(c, &t.tiles[ty as usize], 0).unwrap();
    st.board.place(c, ty, &t.tiles[ty as usize], 0, &mut done);
    let root = st.board.features.find(caps[0]);
    assert_eq!(root, st.board.features.find(caps[1]));
    assert_eq!(root, st.board.features.find(caps[2]));
    assert_eq!(done, vec![root]);
    assert_eq!(st.board.features.follower_count(root), 2);
    assert_eq!(st.majority(root), 0b11);
    let info = st.feature_info(caps[1]);
    assert_eq!(info.root, root);
    assert!(info.complete);
    assert_eq!(info.tiles, 4);
    assert_eq!(info.winners, 0b11);
    let mut fs = Vec::new();
    st.feature_followers(root, &mut fs);
    assert_eq!(fs.len(), 2);
}

/// The same join with 2 followers of one player against 1 of the other: only the first holds the
/// majority.
#[test]
fn a_tile_joining_three_cities_gives_the_majority_two_to_one() {
    let t = Tiles::base();
    let (b, caps) = three_caps(&t);
    let mut st = state(b, &t, 2);
    st.place_follower(0, caps[0]).unwrap();
    st.place_follower(1, caps[1]).unwrap();
    st.place_follower(0, caps[2]).unwrap();
    let mut done = Vec::new();
    let c = cell(&st.board, 1, 0);
    let ty = t.ty("R");
    st.board.place(c, ty, &t.tiles[ty as usize], 0, &mut done);
    let root = st.board.features.find(caps[0]);
    assert_eq!(done, vec![root]);
    assert_eq!(st.board.features.follower_count(root), 3);
    assert_eq!(st.majority(root), 0b01);
    assert_eq!(st.feature_info(root).winners, 0b01);
    // A stronger follower (an upgrade counts as 2) turns it into a tie.
    let bob = st.player_followers(1).next().unwrap();
    st.set_strength(bob, 2);
    assert_eq!(st.majority(root), 0b11);
}

/// §2.1: a city side facing the map border (off-map frame, sea) is closed; a city closed by the
/// border on one side and by a tile on the other is complete.
#[test]
fn a_city_closed_by_the_map_border_is_complete() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
....
....
~...
"""
[legend]
"." = "land"
"~" = "sea"
"##);
    let mut b = Board::from_map(&m);
    // F (city W–E, shield) at the west border: closed on W, open on E.
    let done = put(&mut b, &t, 0, 0, "F", 0);
    assert!(done.is_empty(), "{done:?}");
    let city = side_node(&b, 0, 0, E);
    assert_eq!(b.features.open(city), 1);
    // E turned 270°: city W; it closes the city.
    let done = put(&mut b, &t, 1, 0, "E", 3);
    let root = b.features.find(city);
    assert_eq!(done, vec![root]);
    let mut st = state(b, &t, 1);
    let info = st.feature_info(city);
    assert!(info.complete);
    assert_eq!(info.tiles, 2);
    assert_eq!(info.shields, 1);
    assert_eq!(info.kind, Some(FeatureKind::City));

    // A city corner in the map's corner: complete on its own.
    let mut b = Board::from_map(&m);
    let done = put(&mut b, &t, 3, 0, "N", 1); // N turned 90°: city N and E
    assert_eq!(done.len(), 1);
    assert_eq!(b.features.open(done[0]), 0);
    // A city cap facing the sea (E turned 270°: city W, toward the sea at 0,2): complete on its own.
    let mut b = Board::from_map(&m);
    put(&mut b, &t, 1, 1, "B", 0);
    let done = put(&mut b, &t, 1, 2, "E", 3);
    assert_eq!(done, vec![b.features.find(side_node(&b, 1, 2, W))]);
}

/// Base rules with the map parameter on: sea and off-map squares around a monastery count as filled,
/// so a monastery in the corner is complete when its 3 land neighbours hold tiles.
#[test]
fn a_monastery_at_the_border_is_completed_by_its_land_neighbours() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
...
...
...
"""
[legend]
"." = "land"
"##);
    let mut b = Board::from_map(&m);
    assert!(b.border_fills_monastery);
    assert!(put(&mut b, &t, 0, 0, "B", 0).is_empty());
    assert!(put(&mut b, &t, 1, 0, "B", 0).is_empty());
    assert!(put(&mut b, &t, 0, 1, "B", 0).is_empty());
    assert_eq!(b.monastery_count(cell(&b, 0, 0)), 8);
    let done = put(&mut b, &t, 1, 1, "B", 0);
    let mon = monastery_node(&b, 0, 0);
    // Only the corner monastery: the others still have land squares in column 2 or row 2 empty.
    assert_eq!(done, vec![mon]);
    let mut st = state(b, &t, 1);
    let info = st.feature_info(mon);
    assert!(info.complete);
    assert_eq!(info.tiles, 9);
    assert_eq!(info.kind, Some(FeatureKind::Monastery));
}

/// With the parameter off, the border does not fill a monastery: the same corner monastery is not
/// complete, and counts only its tiles.
#[test]
fn a_monastery_at_the_border_is_not_complete_when_the_border_does_not_fill() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
...
...
...
"""
[legend]
"." = "land"
"##);
    let mut b = Board::from_map(&m);
    b.border_fills_monastery = false;
    for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (2, 1)] {
        assert!(put(&mut b, &t, x, y, "B", 0).is_empty(), "{x},{y}");
    }
    assert_eq!(b.monastery_count(cell(&b, 0, 0)), 4);
    let mon = monastery_node(&b, 0, 0);
    let mut st = state(b, &t, 1);
    let info = st.feature_info(mon);
    assert!(!info.complete);
    assert_eq!(info.tiles, 4);
}

/// §2.1: only sea and off-map squares fill a monastery; a large city next to it never does, so the
/// monastery stays incomplete.
#[test]
fn a_large_city_does_not_fill_a_monastery() {
    let t = Tiles::base();
    let m = map(r##"
name = "t"
grid = """
~~~
.#.
...
"""
[legend]
"." = "land"
"~" = "sea"
"#" = "large_city"
"##);
    let mut b = Board::from_map(&m);
    for (x, y) in [(0, 1), (0, 2), (1, 2), (2, 2)] {
        assert!(put(&mut b, &t, x, y, "B", 0).is_empty(), "{x},{y}");
    }
    // The monastery at (2,2): its block is 3 tiles, 5 off-map squares and the large city at (1,1).
    assert!(put(&mut b, &t, 2, 1, "B", 0).is_empty());
    assert_eq!(b.monastery_count(cell(&b, 2, 2)), 8);
    let mon = monastery_node(&b, 2, 2);
    let mut st = state(b, &t, 1);
    assert!(!st.feature_info(mon).complete);
}

/// A monastery on the endless table is complete when its 8 neighbours hold tiles, and the last tile
/// placed reports it (also when the monastery itself is placed last).
#[test]
fn a_monastery_is_complete_when_surrounded() {
    let t = Tiles::base();
    let mut b = Board::unbounded(20);
    let ring = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
    ];
    for &(x, y) in &ring {
        put(&mut b, &t, x, y, "B", 0);
    }
    let done = put(&mut b, &t, 0, 0, "B", 0);
    assert_eq!(done, vec![monastery_node(&b, 0, 0)]);
}

/// A city's size counts tiles: a tile two of whose city segments belong to the city counts once
/// (I has two separate caps, joined here by a ring of corners).
#[test]
fn a_city_counts_a_tile_once_when_two_of_its_segments_belong_to_it() {
    let t = Tiles::base();
    let mut b = Board::unbounded(20);
    // I: caps N and W. N (corner) turned: 270° = city W+S, 180° = E+S, 90° = N+E.
    assert!(put(&mut b, &t, 0, 0, "I", 0).is_empty());
    let n_cap = side_node(&b, 0, 0, N);
    let w_cap = side_node(&b, 0, 0, W);
    assert_ne!(b.features.root(n_cap), b.features.root(w_cap));
    assert!(put(&mut b, &t, 0, -1, "N", 3).is_empty());
    assert!(put(&mut b, &t, -1, -1, "M", 2).is_empty());
    let done = put(&mut b, &t, -1, 0, "N", 1);
    let root = b.features.find(n_cap);
    assert_eq!(root, b.features.find(w_cap));
    assert_eq!(done, vec![root]);
    let mut members = 0;
    b.features.for_each_member(root, |_| members += 1);
    assert_eq!(members, 5, "5 segments on 4 tiles");
    let mut st = state(b, &t, 1);
    let info = st.feature_info(n_cap);
    assert!(info.complete);
    assert_eq!(info.tiles, 4);
    assert_eq!(info.shields, 1); // the M corner
}

/// H's two opposite caps joined by a ring around its east side count H once too.
#[test]
fn a_city_ring_through_h_counts_h_once() {
    let t = Tiles::base();
    let mut b = Board::unbounded(20);
    put(&mut b, &t, 0, 0, "H", 0); // caps N and S
    put(&mut b, &t, 0, -1, "N", 2); // E+S
    put(&mut b, &t, 1, -1, "N", 3); // W+S
    put(&mut b, &t, 1, 0, "F", 1); // city N–S
    put(&mut b, &t, 1, 1, "N", 0); // N+W
    let done = put(&mut b, &t, 0, 1, "N", 1); // N+E
    let cap = side_node(&b, 0, 0, N);
    let root = b.features.find(cap);
    assert_eq!(root, b.features.find(side_node(&b, 0, 0, S)));
    assert_eq!(done, vec![root]);
    let mut st = state(b, &t, 1);
    let info = st.feature_info(cap);
    assert!(info.complete);
    assert_eq!(info.tiles, 6);
    assert_eq!(info.shields, 1); // F's coat of arms
}

/// Coats of arms: each city segment with one counts, summed over the joined city.
#[test]
fn coats_of_arms_are_summed_over_a_city() {
    let t = Tiles::base();
    let mut b = Board::unbounded(20);
    put(&mut b, &t, -1, 0, "E", 1); // cap E, no shield
    put(&mut b, &t, 0, 0, "F", 0); // W–E, shield
    put(&mut b, &t, 1, 0, "F", 0); // W–E, shield
    let open = side_node(&b, 1, 0, E);
    let mut st = state(b, &t, 1);
    let info = st.feature_info(open);
    assert!(!info.complete);
    assert_eq!(info.shields, 2);
    assert_eq!(info.tiles, 3);
    // C: city on four sides with a shield, closed by three caps.
    let mut b = std::mem::replace(&mut st.board, Board::unbounded(1));
    put(&mut b, &t, 2, 0, "C", 0);
    put(&mut b, &t, 2, -1, "E", 2);
    put(&mut b, &t, 3, 0, "E", 3);
    let done = put(&mut b, &t, 2, 1, "E", 0);
    let root = b.features.find(open);
    assert_eq!(done, vec![root]);
    st.board = b;
    let info = st.feature_info(open);
    assert!(info.complete);
    assert_eq!(info.shields, 3);
    assert_eq!(info.tiles, 7);
}

/// Base farms: a field counts the completed cities next to it; an incomplete one does not count.
#[test]
fn a_field_counts_only_completed_cities() {
    let t = Tiles::base();
    let mut b = Board::unbounded(20);
    // Three caps side by side (city N), their fields joined into one field south of them.
    put(&mut b, &t, 0, 0, "E", 0);
    put(&mut b, &t, 1, 0, "E", 0);
    put(&mut b, &t, 2, 0, "E", 0);
    // Close the first two cities with caps facing them.
    put(&mut b, &t, 0, -1, "E", 2);
    put(&mut b, &t, 1, -1, "E", 2);
    let field = half_node(&b, 0, 0, 4); // Se
    assert_eq!(
        b.features.root(field),
        b.features.root(half_node(&b, 2, 0, 5))
    );
    let mut st = state(b, &t, 1);
    let info = st.feature_info(field);
    assert_eq!(info.kind, Some(FeatureKind::Field));
    assert_eq!(info.cities, 2);
    // Closing the third city makes it 3.
    let mut done = Vec::new();
    let c = cell(&st.board, 2, -1);
    let ty = t.ty("E");
    st.board.place(c, ty, &t.tiles[ty as usize], 2, &mut done);
    assert_eq!(done.len(), 1);
    assert_eq!(st.feature_info(field).cities, 3);
}

/// Base farms: a completed city next to a field on several tiles counts once.
#[test]
fn a_field_next_to_one_city_twice_counts_it_once() {
    let t = Tiles::base();
    let mut b = Board::unbounded(20);
    put(&mut b, &t, -1, 0, "E", 1); // cap E
    put(&mut b, &t, 0, 0, "F", 0); // W–E
    let done = put(&mut b, &t, 1, 0, "E", 3); // cap W
    assert_eq!(done.len(), 1);
    // Monasteries below join the fields south of the three city tiles into one field.
    put(&mut b, &t, -1, 1, "B", 0);
    put(&mut b, &t, 0, 1, "B", 0);
    put(&mut b, &t, 1, 1, "B", 0);
    let south = half_node(&b, 0, 0, 4); // F's Se half
    let west = half_node(&b, -1, 0, 5);
    let east = half_node(&b, 1, 0, 5);
    assert_eq!(b.features.root(south), b.features.root(west));
    assert_eq!(b.features.root(south), b.features.root(east));
    let mut st = state(b, &t, 1);
    assert_eq!(st.feature_info(south).cities, 1);
    // F's north field touches no other tile: a field of its own, next to the same city once.
    let north = half_node(&st.board, 0, 0, 0);
    assert_ne!(st.board.features.root(north), st.board.features.root(south));
    assert_eq!(st.feature_info(north).cities, 1);
}

/// A field's size counts tiles too: a road tile whose two fields join around the road's end counts
/// once.
#[test]
fn a_field_counts_a_tile_once_when_two_of_its_segments_belong_to_it() {
    let t = Tiles::base();
    let mut b = Board::unbounded(20);
    put(&mut b, &t, 0, 0, "U", 0); // road W–E, a field north and a field south
    let north = half_node(&b, 0, 0, 0);
    let south = half_node(&b, 0, 0, 4);
    assert_ne!(b.features.root(north), b.features.root(south));
    // A monastery whose road ends on W: its one field wraps around the road's end.
    put(&mut b, &t, 1, 0, "A", 1);
    assert_eq!(b.features.root(north), b.features.root(south));
    let mut st = state(b, &t, 1);
    let info = st.feature_info(north);
    assert_eq!(info.kind, Some(FeatureKind::Field));
    assert_eq!(info.tiles, 2);
}

/// Records what the engine scored (the `Scored` trigger) and which followers came back.
#[derive(Default)]
struct Recorder {
    scored: Vec<FeatureInfo>,
    returned: Vec<u16>,
}

impl Hooks for Recorder {
    fn setup(&mut self, _: &mut State) -> Result<(), GameError> {
        Ok(())
    }
    fn fire(&mut self, _: &mut State, tr: Trigger, ctx: &Ctx) -> Result<(), GameError> {
        match tr {
            Trigger::Scored => self.scored.push(ctx.feature),
            Trigger::Returned => self.returned.push(ctx.follower),
            _ => {}
        }
        Ok(())
    }
    fn listens(&self, tr: Trigger) -> bool {
        matches!(tr, Trigger::Scored | Trigger::Returned)
    }
}

fn play<H: Hooks>(g: &mut Game<H>, name: &str) {
    assert!(g.advance().unwrap(), "game over before `{name}`");
    let i = g.find_option(name).unwrap_or_else(|e| panic!("{e}"));
    g.choose(i).unwrap();
}

/// §3: a completed feature is scored in phase 3 of the turn that completes it, and its followers go
/// back to their owners' supply.
#[test]
fn a_completed_road_returns_its_follower_to_supply() {
    let t = Tiles::base();
    let cfg = Arc::new(config(&t, &["A", "A", "B"], 7));
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut g = Game::new(cfg, Recorder::default(), &players, 5, true).unwrap();
    // The start tile D at 0,0: road E–W. Ann ends it east at a monastery and stands on it.
    play(&mut g, "place A at 1,0 r90");
    play(&mut g, "follower road W");
    let f = g.st.player_followers(0).next().unwrap();
    assert!(matches!(
        g.st.followers[f as usize].at,
        FollowerAt::Board(_)
    ));
    assert_eq!(g.st.followers_in_supply(0), 6);
    // Bob ends it west: the road is complete.
    play(&mut g, "place A at -1,0 r270");
    assert!(g.hooks.scored.is_empty(), "scored before phase 3");
    play(&mut g, "pass");
    assert!(g.advance().unwrap()); // turn 3: the decision for B
    assert_eq!(g.st.followers[f as usize].at, FollowerAt::Supply);
    assert_eq!(g.st.followers_in_supply(0), 7);
    assert_eq!(g.hooks.returned, vec![f]);
    let road: Vec<&FeatureInfo> = g
        .hooks
        .scored
        .iter()
        .filter(|i| i.kind == Some(FeatureKind::Road))
        .collect();
    assert_eq!(road.len(), 1, "{:?}", g.hooks.scored);
    assert!(road[0].complete);
    assert_eq!(road[0].tiles, 3);
    assert_eq!(road[0].winners, 0b01);
    // The record: the follower came back in turn 2, after bob's tile and before the turn ended.
    let ev = &g.st.events;
    let ret = ev
        .iter()
        .position(|e| e.kind == EvKind::FollowerReturned { f })
        .expect("a FollowerReturned event");
    assert_eq!(ev[ret].turn, 2);
    let placed = ev
        .iter()
        .rposition(|e| matches!(e.kind, EvKind::TilePlaced { .. }))
        .unwrap();
    let end = ev
        .iter()
        .position(|e| e.turn == 2 && matches!(e.kind, EvKind::TurnEnd { .. }))
        .unwrap();
    assert!(placed < ret && ret < end);
}

/// A follower on a feature that is not complete stays on the board.
#[test]
fn a_follower_on_an_incomplete_road_stays() {
    let t = Tiles::base();
    let cfg = Arc::new(config(&t, &["U", "U"], 7));
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut g = Game::new(cfg, NoRules, &players, 5, true).unwrap();
    play(&mut g, "place U at 1,0 r0");
    play(&mut g, "follower road E+W");
    let f = g.st.player_followers(0).next().unwrap();
    play(&mut g, "place U at 2,0 r0");
    play(&mut g, "pass");
    assert!(!g.advance().unwrap());
    assert!(matches!(
        g.st.followers[f as usize].at,
        FollowerAt::Board(_)
    ));
    assert!(!g
        .st
        .events
        .iter()
        .any(|e| matches!(e.kind, EvKind::FollowerReturned { .. })));
}

/// The same seed and the same player choices give the same game, event for event; another seed
/// gives another game.
#[test]
fn games_are_deterministic_from_the_seed() {
    let t = Tiles::base();
    let cfg = Arc::new(config(&t, &[], 7));
    let players = vec!["ann".to_string(), "bob".to_string(), "cyd".to_string()];
    let run = |seed: u64, choices: u64| {
        let mut g = Game::new(cfg.clone(), NoRules, &players, seed, true).unwrap();
        let mut rng = Rng::new(choices);
        play_random(&mut g, &mut rng).unwrap();
        assert!(g.is_over());
        g.st.events
    };
    let a = run(42, 7);
    let b = run(42, 7);
    assert!(a.len() > 72, "{} events", a.len());
    assert_eq!(a, b);
    assert_ne!(a, run(43, 7));
    // A game reused through `reset` plays the same as a fresh one.
    let mut g = Game::new(cfg.clone(), NoRules, &players, 1, true).unwrap();
    play_random(&mut g, &mut Rng::new(3)).unwrap();
    g.reset(&players, 42, true).unwrap();
    play_random(&mut g, &mut Rng::new(7)).unwrap();
    assert_eq!(g.st.events, a);
}

/// The same on a map with large cities and a ferry (the frontier, discovery and ferries reset too).
#[test]
fn games_on_a_map_are_deterministic_and_reset_cleanly() {
    let t = Tiles::base();
    let mut c = config(&t, &[], 7);
    c.map = Some(Arc::new(bundled("test")));
    c.start_squares = 2;
    let cfg = Arc::new(c);
    let players = vec!["ann".to_string(), "bob".to_string()];
    let run = |seed: u64| {
        let mut g = Game::new(cfg.clone(), NoRules, &players, seed, true).unwrap();
        play_random(&mut g, &mut Rng::new(seed + 100)).unwrap();
        g.st.events
    };
    let a = run(9);
    assert_eq!(a, run(9));
    assert_ne!(a, run(10));
    let mut g = Game::new(cfg.clone(), NoRules, &players, 10, true).unwrap();
    play_random(&mut g, &mut Rng::new(110)).unwrap();
    g.reset(&players, 9, true).unwrap();
    play_random(&mut g, &mut Rng::new(109)).unwrap();
    assert_eq!(g.st.events, a);
}

/// A board's mark tells a board with only tiles placed since from any other: a feature whose root
/// has as many members as at the mark is then the same feature (`Features::size_at_root`).
#[test]
fn a_mark_holds_while_only_tiles_are_placed_and_no_longer_after_a_copy_or_a_reset() {
    let t = Tiles::base();
    let cfg = Arc::new(config(&t, &[], 7));
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut g = Game::new(cfg.clone(), NoRules, &players, 5, true).unwrap();
    let mut rng = Rng::new(9);
    // A few turns in: the start tile's city, road and farms have grown.
    for _ in 0..12 {
        assert!(g.advance().unwrap());
        let i = rng.below(g.options.len() as u32) as usize;
        g.choose(i).unwrap();
    }
    let mark = g.st.board.mark();
    let sizes: Vec<(u32, u32)> = (0..g.st.board.features.len() as u32)
        .map(|n| g.st.board.features.root(n))
        .map(|r| (r, g.st.board.features.size_at_root(r)))
        .collect();
    let placed = g.st.board.placed.len();
    while g.st.board.placed.len() < placed + 6 {
        assert!(g.advance().unwrap());
        let i = rng.below(g.options.len() as u32) as usize;
        g.choose(i).unwrap();
    }
    assert!(g.st.board.only_placed_since(mark));
    // Every feature then is a root now with more members, or the same root with as many: then
    // the very same members.
    let f = &g.st.board.features;
    let mut same = 0;
    for (n, &(r, size)) in sizes.iter().enumerate() {
        let now = f.root(n as u32);
        assert!(f.size_at_root(now) >= size);
        if now == r && f.size_at_root(now) == size {
            same += 1;
            let mut members = vec![];
            f.for_each_member(r, |m| members.push(m));
            assert!(members.iter().all(|&m| sizes[m as usize].0 == r));
        }
    }
    assert!(same > 0);
    // A clone is another board; a copy made into a board, or a reset, starts it afresh.
    assert!(!g.clone().st.board.only_placed_since(mark));
    let mut h = g.clone();
    let h_mark = h.st.board.mark();
    h.copy_unrecorded(&g);
    assert!(!h.st.board.only_placed_since(h_mark));
    assert!(!h.st.board.only_placed_since(mark));
    g.reset(&players, 5, true).unwrap();
    while g.st.board.placed.len() < placed + 6 {
        assert!(g.advance().unwrap());
        let i = rng.below(g.options.len() as u32) as usize;
        g.choose(i).unwrap();
    }
    assert!(!g.st.board.only_placed_since(mark));
}

/// A board descends from a mark while it is the marked board with only tiles placed since, or a
/// copy of it (or a copy of such a copy) made then, with only tiles placed in the copy since; a
/// copy of the board from before the mark, a copy of another board, or a copy taken over by a
/// later copy or a reset does not.
#[test]
fn a_copy_descends_from_a_mark_while_only_tiles_are_placed_in_it_and_in_what_it_copied() {
    let t = Tiles::base();
    let cfg = Arc::new(config(&t, &[], 7));
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut rng = Rng::new(9);
    let play = |g: &mut Game<NoRules>, rng: &mut Rng, tiles: usize| {
        let placed = g.st.board.placed.len();
        while g.st.board.placed.len() < placed + tiles {
            assert!(g.advance().unwrap());
            let i = rng.below(g.options.len() as u32) as usize;
            g.choose(i).unwrap();
        }
    };
    let mut g = Game::new(cfg.clone(), NoRules, &players, 5, true).unwrap();
    play(&mut g, &mut rng, 8);
    // A copy made before the last tiles of the mark is not of the marked board.
    let mut early = g.clone();
    early.copy_unrecorded(&g);
    play(&mut g, &mut rng, 1);
    let mark = g.st.board.mark();
    let nodes = g.st.board.features.len() as u32;
    assert!(!early.st.board.descends_from(mark));
    play(&mut g, &mut rng, 3);
    assert!(g.st.board.descends_from(mark));
    // A copy, and a copy of that copy, with tiles placed in each.
    let mut copy = g.clone();
    copy.copy_unrecorded(&g);
    assert!(copy.st.board.descends_from(mark));
    play(&mut copy, &mut rng, 2);
    let mut copy2 = g.clone();
    copy2.copy_unrecorded(&copy);
    play(&mut copy2, &mut rng, 2);
    assert!(copy.st.board.descends_from(mark) && copy2.st.board.descends_from(mark));
    // Each feature of the marked board is one of the copy of a copy, under the same nodes.
    let f = &copy2.st.board.features;
    for node in 0..nodes {
        assert_eq!(f.root(node), f.root(g.st.board.features.root(node)));
    }
    // Copied into afresh from another game's board, or reset: no longer.
    let mut other = Game::new(cfg.clone(), NoRules, &players, 6, true).unwrap();
    play(&mut other, &mut rng, 5);
    copy2.copy_unrecorded(&other);
    assert!(!copy2.st.board.descends_from(mark));
    copy.reset(&players, 5, true).unwrap();
    play(&mut copy, &mut rng, 14);
    assert!(!copy.st.board.descends_from(mark));
    // The marked board emptied and played again: neither it nor a copy of it.
    g.reset(&players, 5, true).unwrap();
    play(&mut g, &mut rng, 14);
    let mut late = g.clone();
    late.copy_unrecorded(&g);
    assert!(!g.st.board.descends_from(mark) && !late.st.board.descends_from(mark));
}
