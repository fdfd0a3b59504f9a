//! Every log carto writes replays (issue 17, A4 and A5), through the built binary, as a user runs it:
//! - a random game of every bundled variant and of every rules file under `tests/` that plays
//!   (`carto play V --log`), and
//! - the log of every script under `tests/` that runs (`carto run S --log`), games that stop at a
//!   pending decision included,
//!
//! each replays byte-identically (`carto replay` says "the replay is identical"). The rules, maps and
//! scripts are copied into a scratch folder first, so that each log lies beside the files it names.

use crate::common;

use common::{carto_in, fresh_dir};
use std::path::{Path, PathBuf};

/// The files under `dir` whose name ends in one of `exts`, sorted, snapshot folders left out.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "snapshots") {
                files(&p, exts, out);
            }
        } else if p.extension().is_some_and(|e| exts.iter().any(|x| e == *x)) {
            out.push(p);
        }
    }
}

/// A copy of the rules, maps and scripts under `tests/` in a fresh scratch folder; the relative
/// paths of the scripts and of the rules files in it.
fn copy_tests(case: &str) -> (PathBuf, Vec<PathBuf>, Vec<PathBuf>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = fresh_dir("replays", case);
    let mut all = Vec::new();
    files(&root.join("tests"), &["script", "rules", "toml"], &mut all);
    let (mut scripts, mut rules) = (Vec::new(), Vec::new());
    for p in all {
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        let to = dir.join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&p, &to).unwrap();
        match rel.extension().and_then(|e| e.to_str()) {
            Some("script") => scripts.push(rel),
            Some("rules") => rules.push(rel),
            _ => {}
        }
    }
    (dir, scripts, rules)
}

/// Replays `log` (relative to `dir`); the failure, when it does not replay identically.
fn replays(dir: &Path, log: &str, what: &str) -> Option<String> {
    let (code, out, err) = carto_in(dir, &["replay", log]);
    (code != 0 || !out.contains("the replay is identical"))
        .then(|| format!("{what}: `carto replay {log}` exit {code}\n{out}{err}"))
}

#[test]
fn a_random_game_of_every_variant_replays() {
    let (dir, _, rules) = copy_tests("random");
    let mut variants: Vec<String> = carto_in(&dir, &["list"])
        .1
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect();
    assert!(variants.len() >= 11, "bundled variants: {variants:?}");
    let bundled = variants.len();
    variants.extend(rules.iter().map(|r| r.display().to_string()));
    let (mut failures, mut played) = (Vec::new(), 0);
    for (i, v) in variants.iter().enumerate() {
        let log = format!("game{i}.jsonl");
        // A log is written beside its rules, where `carto replay` looks for them.
        let folder = Path::new(v).parent().unwrap_or(Path::new(""));
        let log_path = folder.join(&log).display().to_string();
        let (code, _, err) = carto_in(
            &dir,
            &["play", v, "--seed", "3", "--quiet", "--log", &log_path],
        );
        if code != 0 {
            // Only a rules file of the tests may not play (a library of definitions, a file
            // that is meant to be refused); every bundled variant plays.
            if i < bundled {
                failures.push(format!("{v}: `carto play` exit {code}\n{err}"));
            }
            continue;
        }
        played += 1;
        failures.extend(replays(&dir, &log_path, v));
    }
    // Every bundled variant and most rules files of the tests play a game.
    assert!(played >= bundled + 8, "only {played} variants played");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_log_of_every_script_replays() {
    let (dir, scripts, _) = copy_tests("scripts");
    let (mut failures, mut ran, mut stopped) = (Vec::new(), 0, 0);
    for s in &scripts {
        let log = s.with_extension("jsonl").display().to_string();
        let script = s.display().to_string();
        let (code, _, _) = carto_in(&dir, &["run", &script, "--log", &log]);
        if code != 0 {
            // A script that fails (a `fail/` script, say) is not a game to replay.
            continue;
        }
        ran += 1;
        let text = std::fs::read_to_string(dir.join(&log)).unwrap();
        if !text.contains("\"event\":\"game_end\"") {
            stopped += 1;
        }
        failures.extend(replays(&dir, &log, &script));
    }
    // Scripts that run: about 80 today, a dozen of them stopping at a pending decision.
    assert!(ran >= 70, "only {ran} scripts ran");
    assert!(stopped >= 5, "only {stopped} scripts stopped early");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
