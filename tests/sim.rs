//! `carto sim` through the built binary: results independent of threads, slices that merge into
//! exactly one run, games that replay alone, and paired comparisons that find what they should.

use crate::common;

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

/// Fields of a CSV text as RFC 4180 reads them: quoted fields may hold commas, quotes (doubled)
/// and line breaks.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let (mut rec, mut field) = (Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => rec.push(std::mem::take(&mut field)),
            (false, '\n') => {
                rec.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut rec));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(
        !quoted && field.is_empty() && rec.is_empty(),
        "unterminated CSV"
    );
    records
}

#[test]
fn csv_quotes_names_in_both_writers() {
    let per_game = tmp("quoted.csv");
    let out = ok(&[
        "sim",
        "base",
        "--games",
        "3",
        "--players",
        "say \"hi\",bob",
        "--format",
        "csv",
        "--per-game",
        &per_game,
    ]);
    for (what, text) in [
        ("--format csv", out),
        ("--per-game", std::fs::read_to_string(&per_game).unwrap()),
    ] {
        let recs = csv_records(&text);
        let width = recs[0].len();
        assert!(recs.iter().all(|r| r.len() == width), "{what}: {text}");
        assert!(
            recs.iter().flatten().any(|f| f.contains("say \"hi\"")),
            "{what}: the name comes back whole: {text}"
        );
    }
    let rows = csv_records(&std::fs::read_to_string(&per_game).unwrap());
    assert_eq!(&rows[0][4..6], ["score_say \"hi\"", "score_bob"]);
    assert_eq!(rows.len(), 4, "a header and 3 games");
}

#[test]
fn threads_are_capped_and_say_so() {
    let (code, out, err) = carto(&["sim", "base", "--games", "3", "--threads", "1000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note: --threads 1000: playing on 3 threads"),
        "{err}"
    );
    assert_eq!(out, ok(&["sim", "base", "--games", "3", "--threads", "1"]));
    let (code, _, err) = carto(&["sim", "base", "--games", "3", "--threads", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--threads must be at least 1"), "{err}");
}

#[test]
fn a_seed_range_that_wraps_is_refused() {
    let (code, _, err) = carto(&[
        "sim",
        "base",
        "--seed",
        "18446744073709551615",
        "--games",
        "3",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the largest --seed that fits is 18446744073709551613"),
        "{err}"
    );
    let (code, _, err) = carto(&[
        "sim",
        "base",
        "--seed",
        "18446744073709551600",
        "--first-game",
        "10",
        "--games",
        "10",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("games 10 to 19"), "{err}");
    assert!(err.contains("fits is 18446744073709551596"), "{err}");
    // The last seed that fits plays.
    let out = ok(&[
        "sim",
        "base",
        "--seed",
        "18446744073709551613",
        "--games",
        "3",
    ]);
    assert!(
        out.contains("seeds 18446744073709551613 to 18446744073709551615"),
        "{out}"
    );
}

/// The `(setting, figure, who)` entry's histogram and count.
fn hist_of(doc: &serde_json::Value, setting: &str, figure: &str, who: &str) -> serde_json::Value {
    let e = entry(doc, setting, figure, who);
    serde_json::json!([e["n"], e["hist"]])
}

#[test]
fn a_sweep_plays_the_same_games_as_separate_runs() {
    let sweep = json(&[
        "sim",
        "base",
        "--games",
        "20",
        "--seed",
        "5",
        "--sweep",
        "city_tile=1..5:2",
        "--format",
        "json",
    ]);
    assert_eq!(
        sweep["points"],
        serde_json::json!(["city_tile=1", "city_tile=3", "city_tile=5"])
    );
    // Each point is exactly the run with that setting.
    for v in ["1", "3", "5"] {
        let single = json(&[
            "sim",
            "base",
            "--games",
            "20",
            "--seed",
            "5",
            "--set",
            &format!("city_tile={v}"),
            "--format",
            "json",
        ]);
        for (figure, who) in [("score", "ann"), ("win", "bob"), ("points: city", "game")] {
            assert_eq!(
                hist_of(&sweep, &format!("city_tile={v}"), figure, who),
                hist_of(&single, "a", figure, who),
                "{v} {figure} {who}"
            );
        }
    }
    // And the difference with the first value is the paired comparison's.
    let paired = json(&[
        "sim",
        "base",
        "--games",
        "20",
        "--seed",
        "5",
        "--set",
        "city_tile=1",
        "--vs",
        "city_tile=5",
        "--format",
        "json",
    ]);
    for (figure, who) in [("score", "ann"), ("win", "ann"), ("margin", "bob")] {
        let d = entry(&sweep, "city_tile=5 - city_tile=1", figure, who);
        let p = entry(&paired, "b-a", figure, who);
        assert_eq!(
            (&d["hist"], &d["ci95"]),
            (&p["hist"], &p["ci95"]),
            "{figure}"
        );
    }
    // Cities score more at 5 points a tile than at 1: the games show it.
    assert_eq!(
        entry(&sweep, "city_tile=5 - city_tile=1", "points: city", "game")["significant"],
        true
    );
}

#[test]
fn a_sweep_is_the_same_on_any_threads_and_in_slices() {
    let args = [
        "sim",
        "base",
        "--seed",
        "2",
        "--sweep",
        "road_tile=1,3",
        "--sweep",
        "farm_city=2..3",
    ];
    let run = |extra: &[&str]| ok(&[&args[..], extra].concat());
    let one = run(&["--games", "24", "--threads", "1"]);
    assert_eq!(one, run(&["--games", "24", "--threads", "2"]));
    assert!(
        one.contains("sweep: road_tile=1,3 farm_city=2..3 (4 values"),
        "{one}"
    );
    assert!(one.contains("road_tile=3 farm_city=3"), "{one}");
    let whole = run(&["--games", "24", "--format", "json"]);
    let (a, b) = (tmp("sweep-a.json"), tmp("sweep-b.json"));
    std::fs::write(&a, run(&["--games", "10", "--format", "json"])).unwrap();
    std::fs::write(
        &b,
        run(&["--first-game", "10", "--games", "14", "--format", "json"]),
    )
    .unwrap();
    assert_eq!(ok(&["sim", "merge", &b, &a, "--format", "json"]), whole);
    assert_eq!(ok(&["sim", "merge", &a, &b]), run(&["--games", "24"]));
}

#[test]
fn a_sweep_reports_the_same_numbers_in_every_format() {
    let args = [
        "sim",
        "base",
        "--games",
        "30",
        "--seed",
        "9",
        "--sweep",
        "city_tile=1..3",
    ];
    let table = ok(&args);
    let doc = json(&[&args[..], &["--format", "json"]].concat());
    let csv = csv_records(&ok(&[&args[..], &["--format", "csv"]].concat()));
    assert_eq!(
        csv[0],
        [
            "figure",
            "who",
            "setting",
            "n",
            "mean",
            "sd",
            "ci_lo",
            "ci_hi",
            "diff_mean",
            "diff_ci_lo",
            "diff_ci_hi",
            "significant"
        ]
    );
    let row = csv
        .iter()
        .find(|r| r[0] == "score" && r[1] == "ann" && r[2] == "city_tile=3")
        .unwrap();
    let e = entry(&doc, "city_tile=3", "score", "ann");
    let d = entry(&doc, "city_tile=3 - city_tile=1", "score", "ann");
    let f = |s: &str| s.parse::<f64>().unwrap();
    assert_eq!(f(&row[4]), e["mean"].as_f64().unwrap());
    assert_eq!(f(&row[6]), e["ci95"][0].as_f64().unwrap());
    assert_eq!(f(&row[8]), d["mean"].as_f64().unwrap());
    assert_eq!(f(&row[10]), d["ci95"][1].as_f64().unwrap());
    // The table rounds the same numbers: mean, its interval, the difference and its interval.
    let line = table
        .lines()
        .find(|l| l.starts_with("score ") && l.contains(" ann ") && l.contains(" 3 "))
        .unwrap();
    let r2 = |v: &serde_json::Value| format!("{:.2}", v.as_f64().unwrap());
    for want in [
        r2(&e["mean"]),
        format!("[{}, {}]", r2(&e["ci95"][0]), r2(&e["ci95"][1])),
        r2(&d["mean"]),
        format!("[{}, {}]", r2(&d["ci95"][0]), r2(&d["ci95"][1])),
    ] {
        assert!(line.contains(&want), "{want} in {line}");
    }
    // The balance line: the first seat's win share at the first value, as JSON has it.
    let b = &doc["balance"][0];
    let share = format!(
        "{:.2} [{:.2}, {:.2}]",
        b["first_seat_win_share"].as_f64().unwrap(),
        b["ci95"][0].as_f64().unwrap(),
        b["ci95"][1].as_f64().unwrap()
    );
    let balance = table.lines().find(|l| l.starts_with("balance: ")).unwrap();
    let detected: Vec<&serde_json::Value> = doc["balance"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["advantage"].is_null())
        .collect();
    if detected.is_empty() {
        assert!(balance.contains(&share), "{balance}");
        assert!(balance.contains("no seat advantage detected"), "{balance}");
    } else {
        for b in detected {
            let at = format!(
                "{} at {}",
                b["advantage"].as_str().unwrap(),
                b["setting"].as_str().unwrap()
            );
            assert!(balance.contains(&at), "{at} in {balance}");
        }
    }
}

#[test]
fn a_sweep_draws_its_chart() {
    let svg = tmp("sweep.svg");
    let (code, _, err) = carto(&[
        "sim",
        "base",
        "--games",
        "12",
        "--sweep",
        "farm_city=0..4:2",
        "--players",
        "ann,b<b>",
        "--plot",
        &svg,
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg ") && text.ends_with("</svg>\n"));
    for want in [
        "Final score per seat",
        "Win share per seat",
        "First-seat advantage",
        ">farm_city<",
        ">ann (random)<",
        ">b&lt;b&gt; (random)<",
        "fair share 0.50",
        "bars: 95% interval",
    ] {
        assert!(text.contains(want), "{want}");
    }
    // A dot per value and series (2 + 2 + 1 series, 3 values), and one per legend line.
    assert_eq!(text.matches("<circle").count(), 3 * 5 + 5);
}

#[test]
fn bad_sweeps_are_refused_with_reasons() {
    for (args, code, says) in [
        (
            &["--sweep", "city_tile=1..3", "--vs", "city_tile=9"][..],
            2,
            "does not combine with --vs",
        ),
        (&["--plot", "x.svg"][..], 2, "--plot draws a sweep"),
        (
            &["--sweep", "a=1..10", "--sweep", "b=1..10"][..],
            2,
            "10 × 10 = 100 points, at most 64",
        ),
        (
            &["--sweep", "city_tile=1..3", "--set", "city_tile=2"][..],
            2,
            "name the same parameter",
        ),
        (&["--sweep", "no_such=1..2"][..], 1, "`--sweep no_such=1`"),
        (&["--sweep", "city_tile=3..1"][..], 2, "is empty"),
    ] {
        let (c, _, err) = carto(&[&["sim", "base", "--games", "2"][..], args].concat());
        assert_eq!(c, code, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A game that fails under the changed setting of a comparison says where in the rules it failed
/// (the caret line, as `carto play` shows it) and how to replay that setting's game alone.
#[test]
fn a_failed_game_points_into_the_rules_and_replays_its_own_setting() {
    let rules = tmp("share.rules");
    std::fs::write(
        &rules,
        "import \"base\"\nvariant \"share\" {\n  title = \"Share\"\n}\n\nparam parts: int = 1\n\nrule share on placed {\n  score(player, 10 / parts)\n}\n",
    )
    .unwrap();
    let (code, _, err) = carto(&["sim", &rules, "--games", "2", "--vs", "parts=0"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error: game 0 (seed 1): rule `share`: division by zero"),
        "{err}"
    );
    assert!(err.contains("share.rules:9:"), "the place: {err}");
    assert!(err.contains("failed here"), "the caret line: {err}");
    let replay = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("replay it alone: "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(replay.ends_with("--set parts=0"), "{replay}");
    // The command it gives fails alike, at the same place.
    let words: Vec<String> = replay
        .split(' ')
        .skip(1)
        .map(|w| w.trim_matches('\'').to_string())
        .collect();
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let (code, _, again) = carto(&args);
    assert_eq!(code, 1, "{again}");
    assert!(again.contains("share.rules:9:"), "{again}");
}
