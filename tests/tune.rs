//! `carto tune` through the built binary: a known answer (the points that make up for the first
//! player's edge in base, against a separate fine sweep), slices that merge into one run, and
//! targets and ranges refused with reasons.

use crate::common;

use common::carto;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = carto(args);
    assert_eq!(code, 0, "carto {}: {err}", args.join(" "));
    out
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

fn rules() -> String {
    format!("{}/examples/compensation.rules", env!("CARGO_MANIFEST_DIR"))
}

fn tmp(name: &str) -> String {
    common::scratch_dir("tune")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_tuned_points_agree_with_where_a_fine_sweep_crosses_half() {
    let rules = rules();
    // The fine sweep: ann's win share at every k, with its interval.
    let sweep = json(&[
        "sim", &rules, "--agents", "greedy", "--games", "800", "--sweep", "k=0..4", "--format",
        "json", "--quiet",
    ]);
    let mut shares = Vec::new();
    for k in 0..=4 {
        let e = sweep["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["setting"] == format!("k={k}") && e["figure"] == "win" && e["who"] == "ann")
            .unwrap();
        let ci = (
            e["ci95"][0].as_f64().unwrap(),
            e["ci95"][1].as_f64().unwrap(),
        );
        shares.push((e["mean"].as_f64().unwrap(), ci));
    }
    // The same games under every k: ann's share can only fall as bob's head start grows.
    assert!(shares.windows(2).all(|w| w[1].0 <= w[0].0), "{shares:?}");
    let crossing = shares
        .iter()
        .position(|s| s.0 <= 0.5)
        .expect("the share crosses 0.5");
    // The values a sweep cannot tell from 50%, and the two around the crossing.
    let mut near: Vec<usize> = (0..=4)
        .filter(|&k| shares[k].1 .0 <= 0.5 && 0.5 <= shares[k].1 .1)
        .collect();
    near.extend([crossing.saturating_sub(1), crossing]);
    let tuned = json(&[
        "tune",
        &rules,
        "k=0..4",
        "--target",
        "win:ann=0.5",
        "--games",
        "4000",
        "--format",
        "json",
        "--quiet",
    ]);
    let k_of =
        |v: &serde_json::Value| -> usize { v[0].as_str().unwrap()["k=".len()..].parse().unwrap() };
    let best = k_of(&tuned["best"]);
    let open: Vec<usize> = tuned["not_ruled_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(k_of)
        .collect();
    // Within the intervals: a value the tuner cannot rule out is one the sweep cannot tell from
    // 50%, and the best is next to where the sweep crosses.
    assert!(
        open.iter().any(|k| near.contains(k)) && best.abs_diff(crossing) <= 2,
        "tuned k={best} (not ruled out: {open:?}); the sweep crosses 0.5 at k={crossing}, cannot tell {near:?} from 0.5: {shares:?}"
    );
    let games: u64 = tuned["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["games"].as_u64().unwrap())
        .sum();
    assert!(games <= 4000, "{games}");
    // The table names the best value and the evidence.
    let table = ok(&[
        "tune",
        &rules,
        "k=0,1,30",
        "--target",
        "win:ann=0.5",
        "--games",
        "600",
        "--first-round",
        "100",
        "--quiet",
    ]);
    // The table names the best value and the evidence: k=30 is surely further than the best.
    assert!(table.contains("\nbest: k="), "{table}");
    assert!(table.contains("out after round"), "{table}");
}

#[test]
fn slices_merge_into_one_run() {
    let rules = rules();
    let slice = |first: &str, games: &str| {
        ok(&[
            "tune",
            &rules,
            "k=0..2",
            "--target",
            "balance",
            "--first-game",
            first,
            "--games",
            games,
            "--format",
            "json",
            "--quiet",
        ])
    };
    let (a, b) = (tmp("a.json"), tmp("b.json"));
    std::fs::write(&a, slice("0", "30")).unwrap();
    std::fs::write(&b, slice("30", "20")).unwrap();
    let merged = json(&["tune", "merge", &a, &b, "--format", "json"]);
    let one: serde_json::Value = serde_json::from_str(&slice("0", "50")).unwrap();
    for (m, o) in merged["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .zip(one["candidates"].as_array().unwrap())
    {
        assert_eq!(m["hists"], o["hists"]);
        assert_eq!(m["games"], 50);
    }
    // The same slice twice is refused.
    let (code, _, err) = carto(&["tune", "merge", &a, &a]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("own --first-game"), "{err}");
}

#[test]
fn bad_targets_and_ranges_are_refused() {
    let rules = rules();
    for (args, says) in [
        (vec!["k=0..3", "--target", "win:cyd=0.5"], "no seat `cyd`"),
        (vec!["k=0..3", "--target", "fair"], "expected balance"),
        (vec!["k=3..0", "--target", "balance"], "is empty"),
        (vec!["nope=0..3", "--target", "balance"], "nope"),
    ] {
        let mut a = vec!["tune", rules.as_str()];
        a.extend(args);
        let (code, _, err) = carto(&a);
        assert_ne!(code, 0, "{a:?}");
        assert!(err.contains(says), "{a:?}: {err}");
    }
}
