//! Logs obey `shared/spec/event-log.md`: every line's common fields, each event kind's required
//! fields, every chip accounted for from setup on (each in exactly one place after every event), and
//! score lines adding up to the totals of `game_end`.

use crate::common;

use common::carto;
use serde_json::Value;
use std::collections::BTreeMap;

fn play_log(variant: &str, seed: u64) -> String {
    let dir = common::scratch_dir(&format!("log-{seed}"));
    let path = dir.join(format!("{}.jsonl", variant.replace('/', "_")));
    let seed = seed.to_string();
    let (code, _, err) = carto(&[
        "play",
        variant,
        "--seed",
        &seed,
        "--quiet",
        "--log",
        path.to_str().unwrap(),
    ]);
    assert!(code == 0, "{err}");
    std::fs::read_to_string(&path).unwrap()
}

fn required(event: &str) -> &'static [&'static str] {
    match event {
        "game_start" => &["variant", "map", "seed", "players", "params"],
        "tile_placed" => &["tile", "at", "rotation"],
        "follower_placed" => &["follower", "at", "feature"],
        "follower_returned" => &["follower", "to"],
        "follower_moved" => &["follower", "from", "to"],
        "follower_strength" => &["follower", "strength"],
        "chip_moved" => &["chip", "from", "to", "face"],
        "score" => &["player", "points", "rule"],
        "state_set" => &["state", "value"],
        "turn_end" => &[],
        "game_end" => &["scores"],
        _ => &[],
    }
}

/// Checks a log against the contract; returns the number of lines.
pub fn check_log(log: &str) -> usize {
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["event"], "game_start");
    assert_eq!(lines.last().unwrap()["event"], "game_end");
    let players: Vec<String> = lines[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    let mut chip_at: BTreeMap<i64, String> = BTreeMap::new();
    let mut sums: BTreeMap<String, i64> = BTreeMap::new();
    let mut setup_done = false;
    let mut last_turn = 0;
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["seq"], i as i64, "seq of line {i}");
        let turn = l["turn"].as_i64().unwrap();
        assert!(
            l["player"].is_null() || players.contains(&l["player"].as_str().unwrap().to_string())
        );
        let event = l["event"].as_str().unwrap();
        for f in required(event) {
            assert!(l.get(*f).is_some(), "line {i}: `{event}` lacks `{f}`");
        }
        if turn > 0 {
            setup_done = true;
            assert!(turn >= last_turn, "line {i}: turns go back");
            last_turn = turn;
        } else {
            assert!(!setup_done, "line {i}: turn 0 (setup) after the game began");
        }
        match event {
            "tile_placed" => assert!([0, 90, 180, 270].contains(&l["rotation"].as_i64().unwrap())),
            "follower_placed" => {
                assert!(["road", "city", "field", "monastery"]
                    .contains(&l["feature"].as_str().unwrap()))
            }
            "chip_moved" => {
                let chip = &l["chip"];
                let id = chip["id"].as_i64().unwrap();
                // The map variants' chips, and the goods tokens, builders and pigs of Traders &
                // Builders.
                let colours = [
                    "purple", "blue", "orange", "wine", "grain", "cloth", "builder", "pig",
                ];
                assert!(colours.contains(&chip["colour"].as_str().unwrap()));
                assert!([1, 2].contains(&chip["value"].as_i64().unwrap()));
                assert!(["up", "down"].contains(&l["face"].as_str().unwrap()));
                let from = l["from"].as_str().unwrap().to_string();
                match chip_at.get(&id) {
                    Some(at) => {
                        assert_eq!(at, &from, "line {i}: chip {id} moved from where it was not")
                    }
                    None => {
                        assert!(!setup_done, "line {i}: chip {id} first seen after setup");
                        assert_eq!(
                            from, "supply",
                            "line {i}: setup moves chips from the supply"
                        );
                    }
                }
                chip_at.insert(id, l["to"].as_str().unwrap().to_string());
            }
            "score" => {
                *sums
                    .entry(l["player"].as_str().unwrap().to_string())
                    .or_default() += l["points"].as_i64().unwrap();
                assert!(l["rule"].as_str().is_some_and(|r| !r.is_empty()));
            }
            "game_end" => {
                let scores = l["scores"].as_object().unwrap();
                for p in &players {
                    let total = scores[p].as_i64().unwrap();
                    assert_eq!(
                        sums.get(p).copied().unwrap_or(0),
                        total,
                        "score lines of {p}"
                    );
                }
            }
            _ => {}
        }
    }
    lines.len()
}

#[test]
fn a_random_base_game_log_obeys_the_contract() {
    for seed in 1..4 {
        assert!(check_log(&play_log("base", seed)) > 70);
    }
}

#[test]
fn a_random_map_game_log_obeys_the_contract() {
    for seed in 1..4 {
        let log = play_log("tests/fixtures/rules/test_map.rules", seed);
        assert!(check_log(&log) > 30);
        // All 30 chips were accounted for in setup.
        assert_eq!(
            log.lines()
                .filter(|l| l.contains("\"turn\":0") && l.contains("chip_moved"))
                .count(),
            30
        );
    }
}

#[test]
fn every_bundled_variant_logs_by_the_contract() {
    let (_, list, _) = carto(&["list"]);
    for name in list.lines().filter_map(|l| l.split_whitespace().next()) {
        check_log(&play_log(name, 1));
    }
}
