//! Issue 32 B.4: the order of play from the rules (`go_first`, `skip_turn`, `reverse_order`, two
//! extra turns queued). The hand-worked games are tests/scripts/lang/turn_order.script and the
//! examples' scripts (examples/seasons.script, examples/start-auction.script); here: the examples
//! check, play (random and greedy seats) and replay, and the next player the agents are told
//! (`State::next_player`) is the one who plays.

use crate::common;

use carto::rng::Rng;
use carto::variant::load_variant;

const EXAMPLES: [&str; 2] = ["seasons", "start-auction"];

#[test]
fn the_examples_check_and_their_scripts_hold() {
    for name in EXAMPLES {
        for file in [
            format!("examples/{name}.rules"),
            format!("examples/{name}.script"),
        ] {
            let (code, out, err) = common::carto(&["check", &file]);
            assert_eq!(code, 0, "{file}: {out}{err}");
            assert!(out.contains("0 errors, 0 warnings"), "{file}: {out}");
        }
    }
}

#[test]
fn the_examples_play_and_replay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in EXAMPLES {
        let dir = common::fresh_dir("turn-order", name);
        std::fs::copy(
            root.join(format!("examples/{name}.rules")),
            dir.join("v.rules"),
        )
        .unwrap();
        for (players, agents, seed) in [
            ("ann,bob,cyd", "random,random,random", "1"),
            ("ann,bob", "greedy,random", "2"),
        ] {
            let args = [
                "play",
                "v.rules",
                "--players",
                players,
                "--agents",
                agents,
                "--seed",
                seed,
                "--quiet",
                "--log",
                "g.log",
            ];
            let (code, _, err) = common::carto_in(&dir, &args);
            assert_eq!(code, 0, "{name} {agents}: {err}");
            let log = std::fs::read_to_string(dir.join("g.log")).unwrap();
            crate::log_contract::check_log(&log);
            let (code, out, err) = common::carto_in(&dir, &["replay", "g.log"]);
            assert_eq!(code, 0, "{name} {agents}: {out}{err}");
        }
    }
}

/// At every decision after the turn's tile is placed, `next_player` names who plays the next
/// turn (the test rules change the order only when a tile is placed).
#[test]
fn the_next_player_agents_are_told_is_the_one_who_plays() {
    let v = load_variant("tests/scripts/lang/turn_order.rules", &[]).unwrap();
    let players: Vec<String> = ["ann", "bob", "cyd", "dan"].map(String::from).to_vec();
    let mut checked = 0;
    for seed in 0..6u64 {
        let n = 3 + (seed as usize % 2);
        let mut game = v
            .new_game(v.config.clone(), &players[..n], seed, false)
            .unwrap();
        let mut rng = Rng::new(seed);
        let mut said: Option<(u32, u8)> = None;
        while game.advance().unwrap() {
            if let Some((turn, p)) = said {
                if game.st.turn == turn + 1 {
                    assert_eq!(game.st.current, p, "seed {seed}: turn {}", game.st.turn);
                    checked += 1;
                }
            }
            if game.st.placed_now != carto::features::NONE {
                let view = carto::agent::View::of(&game);
                assert_eq!(view.next_player(), game.st.next_player());
                assert_eq!(view.state("rounds", None), game.st.counters.get(0, None));
                said = Some((game.st.turn, game.st.next_player()));
            }
            let i = rng.below(game.options.len() as u32) as usize;
            game.choose(i).unwrap();
        }
    }
    assert!(checked > 100, "only {checked} turns checked");
}
