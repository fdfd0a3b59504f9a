//! Invariants over random games of every bundled variant, checked after every decision: every chip in
//! exactly one place (the supply's order list agrees with the chips' places), every follower in one
//! place and counted on its feature, score lines adding up to the totals, and a replay of the log
//! giving the same log.

use carto::diag::Source;
use carto::game::{Game, Hooks};
use carto::rng::Rng;
use carto::state::{EvKind, FollowerAt, Place};
use carto::variant::{bundled_variants, load_variant};
use std::collections::BTreeMap;

fn check_state<H: Hooks>(game: &mut Game<H>, what: &str) {
    let st = &mut game.st;
    // Chips: the supply list holds exactly the chips whose place is the supply, once each.
    let mut in_supply: Vec<u16> = (0..st.chips.len() as u16)
        .filter(|&c| st.chips[c as usize].place == Place::Supply)
        .collect();
    let mut listed = st.supply.clone();
    listed.sort();
    in_supply.sort();
    assert_eq!(
        listed, in_supply,
        "{what}: supply list and chip places disagree"
    );
    for (i, c) in st.chips.iter().enumerate() {
        match c.place {
            Place::Square(cell) | Place::Slot(cell, _) => {
                assert!(
                    st.board.square[cell as usize] != u32::MAX,
                    "{what}: chip {i} off the map"
                )
            }
            Place::Hand(p) => assert!(
                (p as usize) < st.players.len(),
                "{what}: chip {i} in no hand"
            ),
            Place::Under(f) => assert!(
                matches!(st.followers[f as usize].at, FollowerAt::Board(_)),
                "{what}: chip {i} under a follower that is not on the board"
            ),
            _ => {}
        }
        if c.place == Place::Supply {
            assert!(!c.face_up, "{what}: chip {i} face up in the supply");
        }
    }
    // Followers: each on the board is counted by its feature, and the counts agree.
    let mut per_root: BTreeMap<u32, u16> = BTreeMap::new();
    for f in &st.followers {
        if let FollowerAt::Board(node) = f.at {
            *per_root.entry(st.board.features.find(node)).or_default() += 1;
        }
    }
    for (root, n) in per_root {
        assert_eq!(
            st.board.features.follower_count(root),
            n,
            "{what}: follower count of a feature"
        );
    }
}

#[test]
fn random_games_of_every_variant_keep_their_invariants() {
    let players = vec!["ann".to_string(), "bob".to_string(), "cy".to_string()];
    let mut checked = 0;
    for (name, _) in bundled_variants() {
        let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        for seed in 0..3u64 {
            let mut game = v.new_game(v.config.clone(), &players, seed, true).unwrap();
            let mut rng = Rng::new(seed + 77);
            let mut steps = 0;
            while game
                .advance()
                .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"))
            {
                check_state(&mut game, &format!("{name} seed {seed} step {steps}"));
                let i = rng.below(game.options.len() as u32) as usize;
                game.choose(i)
                    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                steps += 1;
            }
            check_state(&mut game, &format!("{name} seed {seed} end"));
            // Score lines add up to the totals.
            let mut sums = vec![0i64; players.len()];
            for e in &game.st.events {
                if let EvKind::Score { player, points, .. } = e.kind {
                    sums[player as usize] += points;
                }
            }
            let totals: Vec<i64> = game.st.players.iter().map(|p| p.score).collect();
            assert_eq!(sums, totals, "{name} seed {seed}: score lines vs totals");
            // Setup logs every chip once.
            let setup_chips: Vec<u16> = game
                .st
                .events
                .iter()
                .filter(|e| e.turn == 0 && e.player.is_none())
                .filter_map(|e| match e.kind {
                    EvKind::ChipMoved { chip, .. } => Some(chip),
                    _ => None,
                })
                .collect();
            for c in 0..game.st.chips.len() as u16 {
                assert!(
                    setup_chips.contains(&c),
                    "{name} seed {seed}: chip {c} not in the setup log"
                );
            }
            // The log replays to itself.
            let log = carto::output::json_log(&game, &v.params());
            let r = carto::replay::replay(&Source::new(format!("{name}.jsonl"), log));
            assert!(
                r.is_ok(),
                "{name} seed {seed}: {}",
                r.err().map(|e| e.text).unwrap_or_default()
            );
            checked += 1;
        }
    }
    assert!(checked >= 3);
}
