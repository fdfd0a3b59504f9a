//! `docs/error-codes.md` lists every error and warning code (`carto::diag::Code`) with an example.
//! Both ways: every code is listed once and every listed code exists; and every example, written to
//! a fresh folder and checked by the built binary (`carto check FILE --format json`, or the `sh`
//! block's command), produces its code, and only its code (so an example shows one kind of problem);
//! a command without JSON output (a `text` block gives its error) prints that error.

use crate::common;

use carto::diag::Code;
use std::collections::BTreeMap;

/// One section of the page: its code and its example's files (name, text) and command.
struct Example {
    code: String,
    files: Vec<(String, String)>,
    /// The `carto` arguments (`check FILE` unless an `sh` block gives them).
    args: Vec<String>,
    /// The error printed, for a command without JSON output (a `text` block).
    text: Option<String>,
    /// Other files the command reads (```` ```file NAME ```` blocks).
    needs: Vec<(String, String)>,
}

/// The sections (`### E0110 …`) of the page and the fenced blocks in each: ```` ```rules NAME ````,
/// ```` ```toml NAME ````, ```` ```script NAME ````, ```` ```log NAME ```` (the first file is the one
/// checked), ```` ```file NAME ```` (a file the command reads), ```` ```sh ```` (a `carto …` command
/// instead, run with `--format json` unless a `text` block follows) and ```` ```text ```` (the error
/// that command prints, when it has no JSON output).
fn examples(page: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        if let Some(head) = line.strip_prefix("### ") {
            let code = head.split_whitespace().next().unwrap_or("").to_string();
            out.push(Example {
                code,
                files: Vec::new(),
                args: Vec::new(),
                text: None,
                needs: Vec::new(),
            });
            continue;
        }
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut body = String::new();
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        let Some(ex) = out.last_mut() else {
            continue;
        };
        let mut words = info.split_whitespace();
        match (words.next(), words.next()) {
            (Some("sh"), _) => {
                let cmd = body
                    .trim()
                    .strip_prefix("carto ")
                    .expect("a `carto …` command");
                ex.args = cmd.split_whitespace().map(String::from).collect();
            }
            (Some("text"), _) => ex.text = Some(body.trim().to_string()),
            (Some(lang @ ("rules" | "toml" | "script" | "log")), name) => {
                let name = name.map_or(format!("example.{lang}"), String::from);
                ex.files.push((name, body));
            }
            // A file the command needs, never the one checked.
            (Some("file"), Some(name)) => ex.needs.push((name.to_string(), body)),
            _ => {}
        }
    }
    out
}

fn page() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/error-codes.md")).unwrap()
}

#[test]
fn every_code_is_listed_once_with_an_example() {
    let listed = examples(&page());
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for ex in &listed {
        *count.entry(ex.code.as_str()).or_default() += 1;
        assert!(
            Code::ALL.iter().any(|c| c.as_str() == ex.code),
            "docs/error-codes.md lists {}, which is no code",
            ex.code
        );
        assert!(
            !ex.files.is_empty() || !ex.args.is_empty(),
            "{} has no example",
            ex.code
        );
    }
    for c in Code::ALL {
        assert_eq!(
            count.get(c.as_str()),
            Some(&1),
            "{} ({c:?}) is not listed exactly once in docs/error-codes.md",
            c.as_str()
        );
    }
    // Listed in the order of their codes, so a reader finds one.
    let codes: Vec<&str> = listed.iter().map(|e| e.code.as_str()).collect();
    let mut sorted = codes.clone();
    sorted.sort();
    assert_eq!(codes, sorted);
}

#[test]
fn every_example_produces_its_code() {
    let mut failures = Vec::new();
    for ex in examples(&page()) {
        let dir = common::fresh_dir("error-codes", &ex.code);
        for (name, text) in ex.files.iter().chain(&ex.needs) {
            common::write_file(&dir, name, text);
        }
        let mut args = match ex.args.is_empty() {
            true => vec!["check".to_string(), ex.files[0].0.clone()],
            false => ex.args.clone(),
        };
        if ex.text.is_none() {
            args.extend(["--format".to_string(), "json".to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, out, err) = common::carto_in(&dir, &args);
        let _ = std::fs::remove_dir_all(&dir);
        if let Some(text) = &ex.text {
            if status != 1 || !err.contains(text.as_str()) {
                failures.push(format!("{}: exit {status}, printed {err:?}", ex.code));
            }
            continue;
        }
        let json: serde_json::Value = match serde_json::from_str(&out) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: no JSON ({e}), exit {status}: {err}", ex.code));
                continue;
            }
        };
        let diags = json["diagnostics"].as_array().cloned().unwrap_or_default();
        let codes: Vec<String> = diags
            .iter()
            .map(|d| format!("{} {}", d["code"], d["message"]))
            .collect();
        let ok = !diags.is_empty() && diags.iter().all(|d| d["code"] == ex.code.as_str());
        if !ok {
            failures.push(format!("{}: the example gives {codes:?}", ex.code));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every way a running rule fails (the `E08xx` examples that play a game of their rules), played
/// by `carto play RULES --seed 1 --quiet`: the error is rendered at the effect or expression that
/// failed in the rules file (`file:line:col`, the line, a caret, `failed here`), each checked by
/// hand in the snapshot.
#[test]
fn running_errors_point_at_what_failed() {
    let mut shown = String::new();
    for ex in examples(&page()) {
        if !ex.code.starts_with("E08") || matches!(ex.code.as_str(), "E0802" | "E0803") {
            continue;
        }
        let dir = common::fresh_dir("running-errors", &ex.code);
        for (name, text) in ex.files.iter().chain(&ex.needs) {
            common::write_file(&dir, name, text);
        }
        let rules = ex
            .files
            .iter()
            .find(|(n, _)| n.ends_with(".rules"))
            .map(|(n, _)| n.clone())
            .expect("a rules file");
        let (status, _, err) = common::carto_in(&dir, &["play", &rules, "--seed", "1", "--quiet"]);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(status, 1, "{}: {err}", ex.code);
        shown.push_str(&format!("### {} (exit {status})\n{err}\n", ex.code));
    }
    insta::assert_snapshot!(shown);
}
