//! Issue 8, D: generated, well-typed rules files are checked and *played* a few turns each
//! (`carto_gen::trial`, the body of the `play` fuzz target in `fuzz/`): no panic, and no runaway (the
//! interpreter's operation budget ends a rule that keeps going with an error; the trial stops after
//! a few turns).
//!
//! - `sweep`: files from seeded bytes (our ChaCha generator), so the run is the same everywhere; it
//!   also asserts the generator is worth running: most files pass the checker and get played.
//!   `CARTO_GENERATED=N` runs N files instead of the default (long local runs).
//! - `proptest_smoke`: random bytes from proptest, which shrinks a failing case to a short file.

use carto::rng::Rng;
use carto_gen::trial::{play_generated, Trial};
use carto_gen::Catalog;
use proptest::prelude::*;

fn bytes(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let len = 64 + rng.below(2048) as usize;
    (0..len).map(|_| rng.below(256) as u8).collect()
}

fn files() -> u64 {
    std::env::var("CARTO_GENERATED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
}

/// Runs one trial; a panic is reported with the generated file.
fn trial(data: &[u8]) -> Trial {
    let data = data.to_vec();
    match std::panic::catch_unwind(|| play_generated(&data)) {
        Ok(t) => t,
        Err(_) => panic!(
            "panicked on the generated file:\n{}",
            carto_gen::rules_file(Catalog::bundled(), &data)
        ),
    }
}

#[test]
fn sweep() {
    let n = files();
    let (mut checked, mut played, mut errors, mut on_attributes) = (0, 0, 0, 0);
    for seed in 0..n {
        let t = trial(&bytes(seed));
        if t.checked {
            checked += 1;
        }
        if t.decisions > 0 {
            played += 1;
            if t.attributes_read {
                on_attributes += 1;
            }
        }
        if t.error.is_some() {
            errors += 1;
        }
    }
    eprintln!(
        "{n} files: {checked} passed the checker, {played} played ({on_attributes} reading map \
         attributes), {errors} stopped on a game error"
    );
    // The generator writes well-typed files: most pass the checker and are played.
    assert!(checked * 2 > n, "only {checked} of {n} passed the checker");
    assert!(played * 3 > n, "only {played} of {n} were played");
    // Maps and their attributes come from the loaded map data (`gen::Catalog`): files on maps with
    // attributes, reading them, are among those played.
    assert!(
        on_attributes * 10 > n,
        "only {on_attributes} of {n} played files read a map attribute"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn proptest_smoke(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        trial(&data);
    }
}

/// The catalog the generator names maps, attributes and imports from is read from the bundled data:
/// every bundled map with a start square and every bundled rules file that can be imported is in it,
/// and each map's attributes are those its squares carry.
#[test]
fn catalog_is_read_from_the_bundled_data() {
    let c = Catalog::bundled();
    for (name, text) in carto::bundled::MAPS {
        let src = carto::diag::Source::new(*name, *text);
        let board = carto::map::parse_map(&src, &carto::map::BundledResolver).unwrap();
        let listed = c.maps.iter().find(|m| m.name == *name);
        assert_eq!(listed.is_some(), !board.starts.is_empty(), "map {name}");
        if let Some(m) = listed {
            let names: Vec<String> = m.attrs(&[]).into_iter().map(|(a, _)| a).collect();
            let want: Vec<String> = board.attr_names().into_keys().collect();
            assert_eq!(names, want, "attributes of {name}");
        }
    }
    assert_eq!(c.imports.len(), carto::bundled::RULES.len());
    assert!(c.maps.iter().any(|m| !m.attrs(&[]).is_empty()));
    assert!(c.imports.iter().any(|i| i.colours.is_empty()));
    assert!(c.imports.iter().any(|i| !i.colours.is_empty()));
}

/// Short streams: small files (a few rules on an imported variant), which the analyses more often
/// find read nothing hidden (greedy then plays plain copies of the game).
fn short_bytes(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let len = 8 + rng.below(300) as usize;
    (0..len).map(|_| rng.below(256) as u8).collect()
}

/// Issue 33 B: the agents' analyses follow the language's tables. For generated rules (every
/// builtin, field, effect and trigger the tables hold, in random combinations: short byte streams,
/// so small files on an imported variant), at decisions of a game played at random, `greedy` and
/// `mcts` choose the same option in the game and in a copy where what the decider may not see is
/// shuffled (`common::shuffle_hidden`: the tiles to come, face-down chips' faces, the supply's
/// order, the rules' generator). Greedy plays options in plain copies of the game only where its
/// analyses (`interp::hidden`, read from the rows) say that the rules read nothing hidden once the
/// tile is placed: in those files every decision is compared (greedy; mcts once a file, in the
/// first thirty), in the others one. Planted wrong, `chips` without `role Role::ChipsIn` (so `chips(supply)` is
/// not seen to list the supply), greedy's choice changes in generated file 808 and this fails.
#[test]
fn agents_choose_alike_when_the_hidden_is_shuffled_in_generated_rules() {
    use carto::agent::{parse_agent, View};
    use carto::diag::Source;
    use carto::variant::{variant_from_source, InputError};
    let n = std::env::var("CARTO_GENERATED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000u64);
    let exempt = placement_triggers();
    let (mut games, mut said, mut compared) = (0u64, 0u64, 0);
    for seed in 0..n {
        let text = carto_gen::rules_file(Catalog::bundled(), &short_bytes(seed));
        let source = Source::new("generated.rules", text.as_str());
        let no_sets = |_: usize, e: String| InputError::new(carto::diag::Code::BadSet, e);
        let Ok(v) = variant_from_source(&source, "generated.rules", &[], &no_sets) else {
            continue;
        };
        let players: Vec<String> = ["ann", "bob"].iter().map(|s| s.to_string()).collect();
        let Ok(mut game) = v.new_game(v.config.clone(), &players, seed, false) else {
            continue;
        };
        games += 1;
        let plain = game.hooks.faces_read_only_in_hands(&exempt);
        said += u64::from(plain);
        let mut play = Rng::new(seed);
        let mut k = 0u64;
        while k < 16 && matches!(game.advance(), Ok(true)) {
            // mcts plays greedy to the end of the game in each playout: once per file, in the
            // first thirty files greedy may play plain copies in.
            let specs: &[&str] = match (plain, k) {
                (true, 1) if said <= 30 => &["greedy", "mcts:2"],
                (true, _) | (false, 1) => &["greedy"],
                (false, _) => &[],
            };
            if !specs.is_empty() {
                let shuffled = crate::common::shuffle_hidden(&game, &mut Rng::new(k));
                for spec in specs {
                    let (mut a, mut b) = (parse_agent(spec).unwrap(), parse_agent(spec).unwrap());
                    let x = a.choose(&View::of(&game), &mut Rng::new(100 + k));
                    let y = b.choose(&View::of(&shuffled), &mut Rng::new(100 + k));
                    // A rule that stops the game with an error may do so on a hidden fact.
                    if let (Ok(x), Ok(y)) = (x, y) {
                        compared += 1;
                        assert_eq!(
                            x, y,
                            "{spec}, generated rules {seed}, decision {k}: the hidden changed \
                             its choice; the rules:\n{text}"
                        );
                    }
                }
            }
            let i = play.below(game.options.len() as u32) as usize;
            if game.choose(i).is_err() {
                break;
            }
            k += 1;
        }
    }
    eprintln!(
        "{n} generated files: {games} played ({said} said to read nothing hidden once the tile is \
         placed), {compared} choices compared"
    );
    assert!(
        games * 3 > n,
        "only {games} of {n} generated files were played"
    );
    assert!(
        said * 10 > n,
        "only {said} of {n} said to read nothing hidden"
    );
}

/// The triggers a turn fires no more once its tile is placed (by their moment), as greedy exempts
/// them (`agent::quiet::after_placement`).
fn placement_triggers() -> Vec<carto::game::Trigger> {
    use carto::game::{Moment, Trigger};
    Trigger::ALL
        .into_iter()
        .filter(|t| {
            matches!(
                t.moment(),
                Moment::TileDrawn | Moment::Placement | Moment::PlacementSide
            )
        })
        .collect()
}

/// The claim greedy plays plain copies on (`Interp::faces_read_only_in_hands`, the triggers of a
/// placement exempt: once the turn's tile is placed, the rules read nothing a sample of the game
/// deals afresh but the faces of chips in players' hands) holds for generated rules: wherever a
/// program is said to, at each decision after the turn's tile is placed with every chip in the
/// other players' hands face up, the game and a copy with what the decider may not see shuffled
/// play the rest of the turn alike (the same options taken by index: the same options offered,
/// the same scores, chips and followers where they were). The claim is read from the rows
/// (an effect's `Changes::DEALS`, a query's `Role::ChipsIn`, a field's `Reads::FACES`): planted
/// wrong, `chips` without `role Role::ChipsIn`, this test fails (generated file 808 scores the
/// value of the supply's top chip).
#[test]
fn what_the_rules_are_said_not_to_read_changes_nothing_in_generated_rules() {
    use carto::diag::Source;
    use carto::game::Opt;
    use carto::variant::{variant_from_source, InputError};
    let n = std::env::var("CARTO_GENERATED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000u64);
    let exempt = placement_triggers();
    type G = carto::game::Game<carto::lang::interp::Interp>;
    let scores = |g: &G| g.st.players.iter().map(|p| p.score).collect::<Vec<_>>();
    let chips = |g: &G| {
        g.st.chips
            .iter()
            .map(|c| (c.place, c.face_up))
            .collect::<Vec<_>>()
    };
    let (mut said, mut compared) = (0, 0);
    for seed in 0..n {
        let text = carto_gen::rules_file(Catalog::bundled(), &short_bytes(seed));
        let source = Source::new("generated.rules", text.as_str());
        let no_sets = |_: usize, e: String| InputError::new(carto::diag::Code::BadSet, e);
        let Ok(v) = variant_from_source(&source, "generated.rules", &[], &no_sets) else {
            continue;
        };
        let players: Vec<String> = ["ann", "bob"].iter().map(|s| s.to_string()).collect();
        let Ok(mut game) = v.new_game(v.config.clone(), &players, seed, false) else {
            continue;
        };
        if !game.hooks.faces_read_only_in_hands(&exempt) {
            continue;
        }
        said += 1;
        let mut play = Rng::new(seed);
        let mut k = 0u64;
        while k < 80 && matches!(game.advance(), Ok(true)) {
            let me = game.decider();
            let others_face_up =
                game.st.chips.iter().all(|c| {
                    c.face_up || !matches!(c.place, carto::state::Place::Hand(p) if p != me)
                });
            let tile_placed = game.st.placed_now != carto::features::NONE
                && !game
                    .options
                    .iter()
                    .any(|o| matches!(o, Opt::Draw | Opt::Place { .. }));
            if others_face_up && tile_placed {
                let mut a = game.clone();
                let mut b = crate::common::shuffle_hidden(&game, &mut Rng::new(seed + k));
                let mut r = Rng::new(k);
                compared += 1;
                let turn = a.st.turn;
                let mut stopped = false;
                let at = || format!("generated rules {seed}, decision {k}:\n{text}");
                loop {
                    let (x, y) = (a.advance(), b.advance());
                    assert_eq!(x.is_ok(), y.is_ok(), "{}", at());
                    let (Ok(true), Ok(true)) = (x, y) else {
                        break;
                    };
                    // A new tile (drawn from the shuffled stack): the game ends where it stands,
                    // its final scoring run in both.
                    let new_tile = a.st.turn != turn
                        || a.options
                            .iter()
                            .any(|o| matches!(o, Opt::Draw | Opt::Place { .. }));
                    if new_tile && !stopped {
                        stopped = true;
                        a.stop_here();
                        b.stop_here();
                        continue;
                    }
                    assert_eq!(a.options.len(), b.options.len(), "options differ: {}", at());
                    let i = r.below(a.options.len() as u32) as usize;
                    let (x, y) = (a.choose(i), b.choose(i));
                    assert_eq!(x.is_ok(), y.is_ok(), "{}", at());
                    if x.is_err() {
                        break;
                    }
                    assert_eq!(scores(&a), scores(&b), "scores differ: {}", at());
                    assert_eq!(chips(&a), chips(&b), "chips differ: {}", at());
                    assert_eq!(a.st.followers, b.st.followers, "followers differ: {}", at());
                }
                assert_eq!(scores(&a), scores(&b), "final scores differ: {}", at());
                assert_eq!(chips(&a), chips(&b), "chips differ at the end: {}", at());
            }
            let i = play.below(game.options.len() as u32) as usize;
            if game.choose(i).is_err() {
                break;
            }
            k += 1;
        }
    }
    eprintln!("{n} generated files: {said} said to read nothing hidden after a placement, {compared} turns played on both ways");
    assert!(said * 10 > n, "only {said} of {n}");
    assert!(compared > n, "only {compared} turns compared");
}
