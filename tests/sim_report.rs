//! `carto sim --report` through the built binary: the report's figures, the same in one run and in
//! merged slices, a comparison in a player's words (yours minus the original), the agents named
//! (greedy by default), and restricted play (`greedy-without:ACTION`) that finds an action's worth.

use crate::common;

use common::carto;
use serde_json::json;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = carto(args);
    assert_eq!(code, 0, "carto {}: {err}", args.join(" "));
    out
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

fn tmp(name: &str) -> String {
    common::scratch_dir("sim_report")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The report's row of a figure for a group.
fn row<'a>(doc: &'a serde_json::Value, figure: &str, who: &str) -> &'a serde_json::Value {
    doc["report"]["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["figure"] == figure && e["who"] == who)
        .unwrap_or_else(|| panic!("no {figure} {who} in {doc}"))
}

#[test]
fn the_report_names_greedy_players_and_every_section() {
    let out = ok(&["sim", "base", "--games", "30", "--report", "--quiet"]);
    assert!(
        out.contains("played by: ann (greedy), bob (greedy)"),
        "{out}"
    );
    for part in [
        "WHO WINS",
        "ann's win share",
        "HOW THE GAME GOES",
        "lead changes per game",
        "the share of games with no lead change",
        "when the winner took the lead for good",
        "drama: the winner's mean deficit",
        "the game's length in turns",
        "options per decision with more than one option",
        "COMING BACK",
        "the chance to win when 1-5 points behind at half-time",
        "WHAT SCORED",
        "points from `road` per game",
        "balance (the largest gap between seats' win shares)",
    ] {
        assert!(out.contains(part), "no `{part}` in\n{out}");
    }
    // Random players are named, with a warning.
    let out = ok(&[
        "sim", "base", "--games", "4", "--report", "--agents", "random", "--quiet",
    ]);
    assert!(out.contains("a `random` seat plays without aim"), "{out}");
}

#[test]
fn report_figures_agree_with_the_plain_figures_and_merge_exactly() {
    let args = [
        "sim", "france", "--games", "24", "--seed", "5", "--report", "--format", "json",
    ];
    let doc = json(&args);
    // The report's win share is the plain figure's mean.
    let plain = doc["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["setting"] == "a" && e["figure"] == "win" && e["who"] == "ann")
        .unwrap();
    assert_eq!(row(&doc, "win", "ann")["value"]["mean"], plain["mean"]);
    let turns = doc["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["setting"] == "a" && e["figure"] == "turns" && e["who"] == "game")
        .unwrap();
    assert_eq!(row(&doc, "turns", "game")["value"]["mean"], turns["mean"]);
    // Two slices merge into the report of one run.
    let (a, b) = (tmp("a.json"), tmp("b.json"));
    let slice = |first: &str, games: &str| {
        let mut s = args.to_vec();
        s[3] = games;
        s.extend(["--first-game", first]);
        ok(&s)
    };
    std::fs::write(&a, slice("0", "10")).unwrap();
    std::fs::write(&b, slice("10", "14")).unwrap();
    let merged = ok(&["sim", "merge", &a, &b, "--format", "json"]);
    let merged: serde_json::Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(merged["report"], doc["report"]);
    let table = ok(&["sim", "merge", &a, &b]);
    let mut one = args[..7].to_vec();
    one.push("--quiet");
    assert_eq!(table, ok(&one));
}

#[test]
fn a_comparison_is_yours_minus_the_original_in_words() {
    // Selling wine to a town for 30 points instead of 9: the points of `sell_town` rise for sure.
    let doc = json(&[
        "sim",
        "france",
        "--games",
        "40",
        "--report",
        "--vs",
        "sale_town=30",
        "--format",
        "json",
    ]);
    let rep = &doc["report"];
    assert_eq!(rep["original"], "france");
    assert_eq!(rep["yours"], "france with sale_town=30");
    let sell = row(&doc, "points: sell_town", "game");
    assert!(sell["difference"]["mean"].as_f64().unwrap() > 0.0, "{sell}");
    assert_eq!(sell["significant"], true);
    let s = sell["sentence"].as_str().unwrap();
    assert!(
        s.starts_with("Points from `sell_town` per game rises from "),
        "{s}"
    );
    assert!(s.ends_with("the games show it at 95% confidence."), "{s}");
    // The same rule written as a rules file, compared the other way round (`my.rules --vs-rules
    // france`): the difference is still yours minus the original.
    let mine = tmp("my.rules");
    std::fs::write(
        &mine,
        "import \"france\"\nvariant \"mine\" {\n  title = \"Mine\"\n}\noverride sale_town = 30\n",
    )
    .unwrap();
    let other = json(&[
        "sim",
        &mine,
        "--games",
        "40",
        "--report",
        "--vs-rules",
        "france",
        "--format",
        "json",
    ]);
    assert_eq!(other["report"]["original"], "france");
    let d = &row(&other, "points: sell_town", "game")["difference"]["mean"];
    assert_eq!(d, &sell["difference"]["mean"]);
    let text = ok(&[
        "sim",
        "france",
        "--games",
        "40",
        "--report",
        "--vs",
        "sale_town=30",
        "--quiet",
    ]);
    assert!(text.contains("IN A PLAYER'S WORDS"), "{text}");
    assert!(text.contains("- Your rule moves "), "{text}");
    assert!(
        text.contains("The first player's (ann) win share goes from "),
        "{text}"
    );
}

#[test]
fn restricted_play_finds_what_an_action_is_worth() {
    // Greedy barred from selling to a town against full greedy, both seats: it takes no sale and
    // loses more than it wins.
    let doc = json(&[
        "sim",
        "france",
        "--games",
        "60",
        "--report",
        "--format",
        "json",
        "--agents",
        "greedy-without:sell_town,greedy",
    ]);
    let taken = doc["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["setting"] == "a" && e["figure"] == "action: sell_town" && e["who"] == "ann")
        .unwrap();
    assert_eq!(taken["max"], 0.0, "{taken}");
    let win = row(&doc, "win", "ann")["value"]["mean"].as_f64().unwrap();
    assert!(win < 0.5, "{win}");
    // A misspelt action is refused, with the actions there are.
    let (code, _, err) = carto(&[
        "sim",
        "france",
        "--games",
        "2",
        "--agents",
        "greedy-without:sel_town",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no action `sel_town`") && err.contains("sell_town"),
        "{err}"
    );
    // And in a tuning run, in the same words.
    let (code, _, err) = carto(&[
        "tune",
        "france",
        "sale_town=5..7",
        "--target",
        "balance",
        "--games",
        "4",
        "--agents",
        "greedy-without:sel_town,greedy",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no action `sel_town`") && err.contains("sell_town"),
        "{err}"
    );
    let (code, _, err) = carto(&["sim", "france", "--report", "--sweep", "sale_town=1..3"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn rules_fired_and_asks_are_counted_and_compared_by_name() {
    // The start auction asks each of the two players once for a bid (in `setup`), and `settle`
    // fires once, when both have answered (its `when not settled` holds only then): per game,
    // exactly 2 asks (1 per seat) and 1 firing, under every seed. Compared with base (which has
    // neither), the differences are +2 and +1 in every game; rules both have are matched by name.
    let doc = json(&[
        "sim",
        "examples/start-auction.rules",
        "--games",
        "12",
        "--report",
        "--vs-rules",
        "base",
        "--format",
        "json",
    ]);
    let asked = row(&doc, "asked: bid", "game");
    assert_eq!(asked["yours"]["mean"], 2.0, "{asked}");
    assert_eq!(asked["original"]["mean"], 0.0, "{asked}");
    assert_eq!(asked["difference"]["mean"], 2.0, "{asked}");
    let ann = doc["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["setting"] == "a" && e["figure"] == "asked: bid" && e["who"] == "ann")
        .unwrap();
    assert_eq!(ann["hist"], json!([[1, 12]]), "{ann}");
    let settle = row(&doc, "fired: settle", "game");
    assert_eq!(
        (
            &settle["original"]["mean"],
            &settle["yours"]["mean"],
            &settle["difference"]["ci95"]
        ),
        (&json!(0.0), &json!(1.0), &json!([1.0, 1.0])),
        "{settle}"
    );
    // `road` is a rule of both: fired under both, its difference is paired game by game.
    let road = row(&doc, "fired: road", "game");
    assert!(road["original"]["mean"].as_f64().unwrap() > 1.0, "{road}");
    assert!(road["difference"]["ci95"].is_array(), "{road}");
    let text = ok(&[
        "sim",
        "examples/start-auction.rules",
        "--games",
        "4",
        "--report",
        "--quiet",
    ]);
    for part in [
        "WHAT FIRED",
        "`settle` fired per game                ",
        "`bid` asked per game",
    ] {
        assert!(text.contains(part.trim_end()), "no `{part}` in\n{text}");
    }
    let line = |what: &str| {
        text.lines()
            .find(|l| l.starts_with(what))
            .unwrap_or_else(|| panic!("no {what} in {text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        line("`settle` fired"),
        "`settle` fired per game 1.00 [1.00, 1.00]"
    );
    assert_eq!(
        line("`bid` asked"),
        "`bid` asked per game 2.00 [2.00, 2.00]"
    );
    // A rule fires when its `when` holds, not whenever its trigger does: `three` listens to all
    // 71 tiles placed and fires for the first 3 only.
    let three = tmp("three.rules");
    std::fs::write(
        &three,
        "import \"base\"\nvariant \"three\" {\n  title = \"Three\"\n}\n\
         state n: int in 0..100 \"tiles placed so far, up to 3\"\n\
         rule three on placed when n < 3 {\n  set(n, n + 1)\n}\n",
    )
    .unwrap();
    let doc = json(&[
        "sim", &three, "--games", "5", "--report", "--format", "json",
    ]);
    assert_eq!(
        row(&doc, "fired: three", "game")["value"],
        json!({"mean": 3.0, "ci95": [3.0, 3.0]})
    );
}

#[test]
fn a_report_per_player_count_is_the_report_of_each_count() {
    let doc = json(&[
        "sim",
        "base",
        "--players",
        "2..3",
        "--games",
        "6",
        "--format",
        "json",
    ]);
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["label"], "2 players");
    assert_eq!(runs[1]["run"]["players"], json!(["ann", "bob", "cyd"]));
    // Each count's report is the report of that count played alone, on the same seeds.
    let alone = json(&[
        "sim",
        "base",
        "--players",
        "ann,bob,cyd",
        "--games",
        "6",
        "--report",
        "--format",
        "json",
    ]);
    assert_eq!(runs[1]["report"], alone["report"]);
    // Side by side: every seat's win share, with the fair share of the count.
    let across = doc["across"].as_array().unwrap();
    assert_eq!(across[1]["win_shares"].as_array().unwrap().len(), 3);
    assert_eq!(across[1]["fair_share"], json!(1.0 / 3.0));
    let ann = row(&alone, "win", "ann")["value"]["mean"].clone();
    assert_eq!(across[1]["win_shares"][0]["win_share"]["mean"], ann);
    let text = ok(&[
        "sim",
        "base",
        "--players",
        "2..3",
        "--games",
        "6",
        "--quiet",
    ]);
    assert!(text.contains("=== 3 players ==="), "{text}");
    assert!(text.contains("PER PLAYER COUNT"), "{text}");
    for bad in [
        vec!["sim", "base", "--players", "1..3"],
        vec!["sim", "base", "--players", "2..x"],
        vec!["sim", "base", "--players", "2..3", "--format", "csv"],
        vec!["sim", "base", "--skill", "--agents", "greedy"],
        vec!["sim", "base", "--skill", "--trace-games", "0"],
    ] {
        let (code, _, err) = carto(&bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(
            err.contains("--players") || err.contains("--skill") || err.contains("--trace"),
            "{err}"
        );
    }
}

#[test]
fn skill_pairings_and_the_trace() {
    let doc = json(&[
        "sim",
        "base",
        "--skill",
        "--games",
        "1",
        "--trace-games",
        "1",
        "--format",
        "json",
    ]);
    let labels: Vec<&str> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["random", "greedy", "mcts:16", "mcts:64"]);
    assert_eq!(
        doc["runs"][3]["run"]["agents"],
        json!(["mcts:64", "mcts:64"])
    );
    let trace = doc["skill_trace"].as_array().unwrap();
    let ns: Vec<u64> = trace.iter().map(|t| t["n"].as_u64().unwrap()).collect();
    assert_eq!(ns, [4, 8, 16, 32, 64]);
    // The first step by hand from its two seatings played alone: mcts:8 as ann, then as bob.
    let share = |agents: &str, seat: &str| {
        let d = json(&[
            "sim", "base", "--agents", agents, "--games", "2", "--report", "--format", "json",
        ]);
        row(&d, "win", seat)["value"]["mean"].as_f64().unwrap()
    };
    let want = (share("mcts:8,mcts:4", "ann") + share("mcts:4,mcts:8", "bob")) / 2.0;
    let got = trace[0]["stronger_win_share"]["mean"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-12, "{got} {want}");
    assert_eq!(trace[0]["games"], 2);
}
