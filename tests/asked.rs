//! Issue 8, C1: decisions a rule asks of any player (`ask`), through the built binary: a scripted
//! game's log names who decided each choice (`deciders`, also on `game_end` for decisions asked in
//! final scoring) and replays identically; random games with asked decisions replay identically.

use crate::common;

use common::{carto, scratch_dir};
use std::path::PathBuf;

/// The rules of the asked games: their logs are written in the temp folder, away from the rules, so a
/// replay names them (a log reads only in its own folder).
const RULES: &str = "tests/scripts/lang/asked.rules";

fn scratch(name: &str) -> PathBuf {
    scratch_dir("asked").join(name)
}

#[test]
fn a_scripted_game_logs_who_decides_and_replays() {
    let log = scratch("scripted.jsonl");
    let (code, out, err) = carto(&[
        "run",
        "tests/scripts/lang/asked.script",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("bob is asked: [8 options] pay_toll orange1"),
        "{out}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Turn 5: ann's own two choices, then ann and bob asked in turn order.
    let t5 = lines
        .iter()
        .find(|l| l["event"] == "turn_end" && l["turn"] == 5)
        .unwrap();
    assert_eq!(
        t5["choices"],
        serde_json::json!([
            "place R at 0,-1 r180",
            "pass",
            "pay_toll purple1+blue1",
            "pay_toll orange1"
        ])
    );
    assert_eq!(
        t5["deciders"],
        serde_json::json!(["ann", "ann", "ann", "bob"])
    );
    // A turn with no asked decision has no `deciders` field (the contract's lines are unchanged).
    let t1 = lines
        .iter()
        .find(|l| l["event"] == "turn_end" && l["turn"] == 1)
        .unwrap();
    assert!(t1.get("deciders").is_none());
    // Final scoring asked ann about her road.
    let end = lines.last().unwrap();
    assert_eq!(end["event"], "game_end");
    assert_eq!(end["choices"], serde_json::json!(["pay_toll orange1"]));
    assert_eq!(end["deciders"], serde_json::json!(["ann"]));
    assert_eq!(end["scores"], serde_json::json!({"ann": 22, "bob": 12}));
    let (code, out, err) = carto(&["replay", log.to_str().unwrap(), "--rules", RULES]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("the replay is identical"), "{out}");
}

#[test]
fn random_games_with_asked_decisions_replay() {
    let mut asked = 0;
    for seed in 1..=4 {
        let log = scratch(&format!("random{seed}.jsonl"));
        let (code, out, err) = carto(&[
            "play",
            "tests/scripts/lang/asked.rules",
            "--seed",
            &seed.to_string(),
            "--players",
            "ann,bob",
            "--quiet",
            "--log",
            log.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}{out}");
        let text = std::fs::read_to_string(&log).unwrap();
        asked += text.matches("\"deciders\"").count();
        let (code, out, err) = carto(&["replay", log.to_str().unwrap(), "--rules", RULES]);
        assert_eq!(code, 0, "seed {seed}: {err}");
        assert!(out.contains("the replay is identical"), "{out}");
    }
    // Roads and cities are scored in every game: some decisions were asked.
    assert!(asked > 0);
}

/// Issue 17, B: `carto doc` says who asks an asked action. `buy` is asked by the action `offer`,
/// not by a rule (offer.rules), and the turn section says so; asked.rules' `pay_toll` is asked by a
/// rule.
#[test]
fn doc_says_whether_a_rule_or_an_action_asks() {
    let (code, out, err) = carto(&[
        "doc",
        "tests/scripts/lang/offer.rules",
        "--format",
        "markdown",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(when an action (*offer*) asks a player)"),
        "{out}"
    );
    assert!(!out.contains("when a rule asks"), "{out}");
    assert!(
        out.contains("A rule or an action may ask any player to decide"),
        "{out}"
    );
    let (code, out, err) = carto(&["doc", RULES, "--format", "markdown"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(when a rule asks a player)"), "{out}");
    assert!(out.contains("A rule may ask any player to decide"), "{out}");
}
