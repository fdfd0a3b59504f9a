//! Issue 32 B.3: the state the rules keep (`state NAME …`): every mistake of a file reported at
//! once; the log records each change and replays; a game's copies and the agents carry the values;
//! the page lists them. The scripted games are tests/scripts/lang/state.script (worked out by hand)
//! and fail_state_range.script (E0804).

use crate::common;

use common::carto;
use serde_json::Value;
use std::collections::BTreeMap;

const STATE_RULES: &str = "tests/scripts/lang/state.rules";

#[test]
fn every_mistake_with_state_is_reported_at_once() {
    let src = r#"import "base"
state season: int in 1..3 = 0 "the season"
state bid: int in 0..20 per player reset rond
state traded: bool in 0..1 per player reset turn
state name: int per player
state label: string
state season: int
state few: int in 5..2
rule r on placed {
  add(sesaon, 1)
  set(season, 4)
  set(bid, 2)
  set(player.season, 2)
  add(player.traded, 1)
  set(player.traded, 3)
  score(player, bid)
  score(player, player.bid + season)
  set(road_tile, 2)
}
"#;
    let out = common::check(src);
    assert!(
        out.contains("15 errors") || out.matches("error").count() >= 15,
        "{out}"
    );
    insta::assert_snapshot!("state_mistakes", out);
}

/// Follows every state from `game_start.state` through the `state_set` lines; the values at the end.
fn follow(log: &str) -> BTreeMap<String, Value> {
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut now: BTreeMap<String, Value> = BTreeMap::new();
    for (k, v) in lines[0]["state"].as_object().expect("game_start.state") {
        match v.as_object() {
            Some(per) => {
                for (p, x) in per {
                    now.insert(format!("{p}.{k}"), x.clone());
                }
            }
            None => {
                now.insert(k.clone(), v.clone());
            }
        }
    }
    for l in &lines[1..] {
        if l["event"] != "state_set" {
            continue;
        }
        let name = l["state"].as_str().unwrap();
        let key = match l["of"].as_str() {
            Some(p) => format!("{p}.{name}"),
            None => name.to_string(),
        };
        let old = now.insert(key.clone(), l["value"].clone());
        assert!(old.is_some(), "`{key}` is not in game_start.state");
        assert_ne!(
            old.as_ref(),
            Some(&l["value"]),
            "a state_set that changes nothing: {l}"
        );
    }
    now
}

#[test]
fn the_log_records_every_change_and_replays() {
    let dir = common::fresh_dir("states", "log");
    std::fs::copy(STATE_RULES, dir.join("state.rules")).unwrap();
    let script = std::fs::read_to_string("tests/scripts/lang/state.script").unwrap();
    common::write_file(&dir, "state.script", script);
    let (code, _, err) = common::carto_in(&dir, &["run", "state.script", "--log", "game.log"]);
    assert_eq!(code, 0, "{err}");
    let log = std::fs::read_to_string(dir.join("game.log")).unwrap();
    crate::log_contract::check_log(&log);
    // By hand (state.script): 4 tiles placed; the round counts were reset at turn 3, then ann and
    // bob placed one each; the flags were reset at each turn's start, bob's set last.
    let end = follow(&log);
    let want: BTreeMap<String, Value> = [
        ("placed", Value::from(4)),
        ("ann.this_round", Value::from(1)),
        ("bob.this_round", Value::from(1)),
        ("ann.moved", Value::from(false)),
        ("bob.moved", Value::from(true)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(end, want);
    let resets = log
        .lines()
        .filter(|l| l.contains(r#""reset":"round""#))
        .count();
    assert_eq!(resets, 2, "ann's and bob's round counts, once each");
    let (code, out, err) = common::carto_in(&dir, &["replay", "game.log"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("identical"), "{out}");
}

#[test]
fn agents_play_with_state_and_their_games_replay() {
    let dir = common::fresh_dir("states", "agents");
    std::fs::copy(STATE_RULES, dir.join("state.rules")).unwrap();
    for agents in ["greedy,random", "mcts,greedy"] {
        let (code, _, err) = common::carto_in(
            &dir,
            &[
                "play",
                "state.rules",
                "--agents",
                agents,
                "--seed",
                "5",
                "--quiet",
                "--log",
                "g.log",
            ],
        );
        assert_eq!(code, 0, "{agents}: {err}");
        let log = std::fs::read_to_string(dir.join("g.log")).unwrap();
        crate::log_contract::check_log(&log);
        let end = follow(&log);
        // Every tile of the game was placed and counted (72 tiles, the start tile not placed by a
        // rule, so 71, less any discarded).
        let discarded: usize = log
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|l| l["discarded"].as_array().map(|a| a.len()))
            .sum();
        assert_eq!(
            end["placed"],
            Value::from(71 - discarded as i64),
            "{agents}"
        );
        let (code, out, err) = common::carto_in(&dir, &["replay", "g.log"]);
        assert_eq!(code, 0, "{agents}: {out}{err}");
    }
}

#[test]
fn the_page_lists_the_state() {
    let (code, out, err) = carto(&["doc", STATE_RULES, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let page: Value = serde_json::from_str(&out).unwrap();
    let states = page["states"].as_array().expect("states");
    let names: Vec<&str> = states.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["placed", "this_round", "moved"]);
    assert_eq!(states[1]["of"], "player");
    assert_eq!(states[1]["reset"], "round");
    assert_eq!(states[1]["range"], "0..5");
    assert_eq!(states[2]["start"], Value::from(false));
    let (_, md, _) = carto(&["doc", STATE_RULES, "--format", "markdown"]);
    assert!(md.contains("## State the rules keep"), "{md}");
    assert!(
        md.contains("| `moved` | each player's | bool |  | false | at the start of every turn |"),
        "{md}"
    );
}
