//! `carto sim` through the built binary: results independent of threads, slices that merge into
//! exactly one run, games that replay alone, and paired comparisons that find what they should.

mod common;

use common::carto;
use std::process::Command;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = carto(args);
    assert_eq!(code, 0, "carto {}: {err}", args.join(" "));
    out
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

fn tmp(name: &str) -> String {
    common::scratch_dir("sim")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The entry of a figure for a group and setting.
fn entry<'a>(
    doc: &'a serde_json::Value,
    setting: &str,
    figure: &str,
    who: &str,
) -> &'a serde_json::Value {
    doc["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["setting"] == setting && e["figure"] == figure && e["who"] == who)
        .unwrap_or_else(|| panic!("no {setting} {figure} {who}"))
}

#[test]
fn one_thread_and_two_give_identical_results() {
    for variant in ["base", "france"] {
        let run = |t: &str| {
            ok(&[
                "sim",
                variant,
                "--games",
                "40",
                "--seed",
                "7",
                "--threads",
                t,
                "--format",
                "json",
            ])
        };
        let (one, two) = (run("1"), run("2"));
        assert_eq!(one, two, "{variant}");
        let table = |t: &str| {
            ok(&[
                "sim",
                variant,
                "--games",
                "40",
                "--seed",
                "7",
                "--threads",
                t,
            ])
        };
        assert_eq!(table("1"), table("2"));
    }
}

#[test]
fn two_slices_merge_into_exactly_one_run() {
    let args = [
        "sim",
        "france",
        "--seed",
        "3",
        "--format",
        "json",
        "--vs",
        "sale_town=7",
    ];
    let whole = ok(&[&args[..], &["--games", "30"]].concat());
    let (a, b) = (tmp("slice-a.json"), tmp("slice-b.json"));
    std::fs::write(&a, ok(&[&args[..], &["--games", "12"]].concat())).unwrap();
    std::fs::write(
        &b,
        ok(&[&args[..], &["--first-game", "12", "--games", "18"]].concat()),
    )
    .unwrap();
    // In either order: the merge is the run.
    assert_eq!(ok(&["sim", "merge", &b, &a, "--format", "json"]), whole);
    assert_eq!(ok(&["sim", "merge", &a, &b, "--format", "json"]), whole);
    // A slice given twice shares games: refused.
    let (code, _, err) = carto(&["sim", "merge", &a, &a]);
    assert_eq!(code, 1);
    assert!(err.contains("both played games 0 to 11"), "{err}");
    // Slices of different runs: refused.
    let c = tmp("slice-c.json");
    std::fs::write(
        &c,
        ok(&[
            "sim",
            "france",
            "--seed",
            "4",
            "--format",
            "json",
            "--games",
            "2",
            "--first-game",
            "40",
            "--vs",
            "sale_town=7",
        ]),
    )
    .unwrap();
    let (code, _, err) = carto(&["sim", "merge", &a, &c]);
    assert_eq!(code, 1);
    assert!(err.contains("seed 3 vs 4"), "{err}");
}

/// The scores of `carto play` (its last lines: `name: score`).
fn play_scores(out: &str) -> Vec<i64> {
    out.lines()
        .rev()
        .take_while(|l| l.contains(": "))
        .filter_map(|l| l.rsplit(": ").next()?.parse().ok())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}

#[test]
fn a_game_replays_alone_as_inside_the_run() {
    let csv = tmp("per-game.csv");
    let out = ok(&[
        "sim",
        "france",
        "--games",
        "6",
        "--seed",
        "11",
        "--first-game",
        "3",
        "--per-game",
        &csv,
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 6);
    for (k, row) in rows.iter().enumerate() {
        // Game i has seed 11 + i; the rows are in game order.
        assert_eq!(row[col("game")], (3 + k).to_string());
        assert_eq!(row[col("seed")], (14 + k).to_string());
    }
    // The report's replay command, run as it says, gives game 3's scores.
    let cmd = out
        .lines()
        .find_map(|l| l.split_once("e.g. game 3: carto "))
        .map(|(_, c)| c.to_string())
        .expect("a replay command");
    let mut args: Vec<&str> = cmd.split_whitespace().collect();
    args.push("--quiet");
    let scores = play_scores(&ok(&args));
    let want: Vec<i64> = ["score_ann", "score_bob"]
        .iter()
        .map(|c| rows[0][col(c)].parse().unwrap())
        .collect();
    assert_eq!(scores, want, "{cmd}");
    // And any other game by its seed.
    for row in &rows[1..] {
        let scores = play_scores(&ok(&[
            "play",
            "france",
            "--seed",
            &row[col("seed")],
            "--quiet",
        ]));
        assert_eq!(scores[0].to_string(), row[col("score_ann")]);
        assert_eq!(scores[1].to_string(), row[col("score_bob")]);
    }
    // The statistics are those of the rows: ann's mean score is the mean of her column.
    let doc = json(&[
        "sim",
        "france",
        "--games",
        "6",
        "--seed",
        "11",
        "--first-game",
        "3",
        "--format",
        "json",
    ]);
    let sum: i64 = rows
        .iter()
        .map(|r| r[col("score_ann")].parse::<i64>().unwrap())
        .sum();
    let mean = entry(&doc, "a", "score", "ann")["mean"].as_f64().unwrap();
    assert!((mean - sum as f64 / 6.0).abs() < 1e-9);
    let sold: i64 = rows
        .iter()
        .map(|r| r[col("points_bob_sell_town")].parse::<i64>().unwrap())
        .sum();
    let m = entry(&doc, "a", "points: sell_town", "bob")["mean"]
        .as_f64()
        .unwrap();
    assert!((m - sold as f64 / 6.0).abs() < 1e-9);
}

#[test]
fn a_change_that_changes_nothing_differs_by_exactly_zero() {
    // sale_abroad is 5 by default: setting it to 5 again changes no game.
    let doc = json(&[
        "sim",
        "france",
        "--games",
        "30",
        "--vs",
        "sale_abroad=5",
        "--format",
        "json",
    ]);
    let diffs: Vec<_> = doc["figures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["setting"] == "b-a")
        .collect();
    assert!(diffs.len() > 40);
    for d in diffs {
        assert_eq!(d["mean"], 0.0, "{d}");
        assert_eq!(d["significant"], false, "{d}");
        let hist = d["hist"].as_array().unwrap();
        assert!(hist.iter().all(|h| h[0] == 0), "{d}");
    }
}

#[test]
fn selling_wine_for_nothing_makes_a_significant_difference() {
    let doc = json(&[
        "sim",
        "france",
        "--games",
        "60",
        "--vs",
        "sale_town=0",
        "--format",
        "json",
    ]);
    let d = entry(&doc, "b-a", "points: sell_town", "game");
    assert_eq!(d["significant"], true, "{d}");
    assert!(d["mean"].as_f64().unwrap() < 0.0);
    // Under b, no town sale gives points.
    assert_eq!(entry(&doc, "b", "points: sell_town", "game")["max"], 0.0);
    let table = ok(&["sim", "france", "--games", "60", "--vs", "sale_town=0"]);
    let line = table
        .lines()
        .find(|l| l.starts_with("points: sell_town") && l.contains(" game "))
        .unwrap();
    assert!(line.ends_with(" *"), "{line}");
}

#[test]
fn bad_usage_is_refused_with_a_reason() {
    let (code, _, err) = carto(&["sim", "france", "--games", "3", "--vs", "sale_nowhere=1"]);
    assert_eq!(code, 1);
    assert!(err.contains("--vs sale_nowhere=1"), "{err}");
    let (code, _, err) = carto(&[
        "sim",
        "base",
        "--agents",
        "random,random,random",
        "--players",
        "a,b",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("3 agents for 2 players"), "{err}");
    let (code, _, err) = carto(&["sim", "base", "--agents", "human,random"]);
    assert_eq!(code, 2);
    assert!(err.contains("sim plays without people"), "{err}");
    let (code, _, err) = carto(&["sim", "base", "--games", "0"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = carto(&["sim", "base", "--threads", "0"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = carto(&["sim", "base", "--threads", "100000"]);
    assert_eq!(code, 2);
    assert!(err.contains("--threads must be 1 to 1024"), "{err}");
    let f = tmp("not-sim.json");
    std::fs::write(&f, "{}").unwrap();
    let (code, _, err) = carto(&["sim", "merge", &f]);
    assert_eq!(code, 1);
    assert!(err.contains("carto-sim-1"), "{err}");
}

#[test]
fn ctrl_c_stops_and_reports_the_games_played() {
    let csv = tmp("interrupted.csv");
    let _ = std::fs::remove_file(&csv);
    let child = Command::new(env!("CARGO_BIN_EXE_carto"))
        .args([
            "sim",
            "base",
            "--games",
            "100000000",
            "--threads",
            "2",
            "--format",
            "json",
        ])
        .args(["--per-game", &csv])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Rows on disk: the run is under way (and its Ctrl-C handler installed).
    let t = std::time::Instant::now();
    while std::fs::metadata(&csv).map(|m| m.len()).unwrap_or(0) == 0 {
        assert!(t.elapsed().as_secs() < 120, "no games played");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["interrupted"], true);
    let games = doc["games"].as_u64().unwrap();
    assert!(games > 0 && games < 100_000_000);
    assert_eq!(entry(&doc, "a", "score", "ann")["n"].as_u64(), Some(games));
    // Every game played has its row.
    let rows = std::fs::read_to_string(&csv).unwrap().lines().count() as u64 - 1;
    assert_eq!(rows, games);
}
