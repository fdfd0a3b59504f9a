//! `carto fmt` (issue 35, B): every bundled rules file is in the canonical layout already; formatting
//! keeps a file's tokens and meaning and is idempotent (on generated files, and with blanks added
//! between their tokens); the command rewrites, checks and refuses as a user sees it.

use crate::common::carto_in;
use carto::diag::Source;
use carto::lang::check::{check_source, BundledRules};
use carto::lang::fmt::{format_rules, format_script};
use carto::lang::lex::Tok;
use carto::rng::Rng;
use carto_gen::Catalog;
use proptest::prelude::*;

#[test]
fn every_bundled_rules_file_is_formatted() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rules") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let formatted = format_rules(&text).unwrap_or_else(|e| panic!("{path:?}: {e:?}"));
        assert!(
            formatted == text,
            "{} is not formatted: run `carto fmt {}`\n{}",
            path.display(),
            path.display(),
            first_difference(&text, &formatted)
        );
        seen += 1;
    }
    assert!(seen >= 15, "{seen} rules files");
}

fn first_difference(a: &str, b: &str) -> String {
    let line = a
        .lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or(a.lines().count().min(b.lines().count()));
    format!(
        "line {}:\n- {:?}\n+ {:?}",
        line + 1,
        a.lines().nth(line),
        b.lines().nth(line)
    )
}

/// What the checker says of a text: each diagnostic's code and message (not its place).
fn verdict(text: &str) -> Vec<(String, String)> {
    let loader = |_: &str, _: &Source| Err("no map in this test".to_string());
    let src = Source::new("gen.rules", text);
    check_source(&src, &BundledRules, &loader)
        .diagnostics
        .into_iter()
        .map(|(_, d)| (d.code.as_str().to_string(), d.message))
        .collect()
}

/// `text` with blanks added between tokens on a line (never inside a token, never a line break, never
/// before a comment, whose distance from the code is kept).
fn spaced_out(text: &str, rng: &mut Rng) -> String {
    let toks = carto::lang::lex::tokens(text);
    let mut out = String::new();
    let mut at = 0;
    for t in &toks {
        let gap = &text[at..t.span.start];
        out.push_str(gap);
        if !gap.contains('\n') && at > 0 && t.tok != Tok::Comment && rng.below(3) == 0 {
            out.push_str(&" ".repeat(1 + rng.below(3) as usize));
        }
        out.push_str(&text[t.span.clone()]);
        at = t.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Formats a generated file: the result is formatted already, checks as the original does, and is
/// what the original with blanks added between its tokens formats to.
fn holds_for(data: &[u8], seed: u64) -> bool {
    let text = carto_gen::rules_file(Catalog::bundled(), data);
    let Ok(once) = format_rules(&text) else {
        return false;
    };
    assert_eq!(
        format_rules(&once).as_deref(),
        Ok(once.as_str()),
        "not idempotent on:\n{text}"
    );
    assert_eq!(
        verdict(&once),
        verdict(&text),
        "the check changed:\n{text}\n---\n{once}"
    );
    let spaced = spaced_out(&text, &mut Rng::new(seed));
    assert_eq!(
        format_rules(&spaced).as_deref(),
        Ok(once.as_str()),
        "blanks between tokens changed the layout:\n{spaced}"
    );
    true
}

#[test]
fn formatting_generated_files_is_idempotent_and_keeps_their_meaning() {
    let mut formatted = 0;
    for seed in 0..60u64 {
        let mut rng = Rng::new(seed);
        let len = 64 + rng.below(2048) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        formatted += usize::from(holds_for(&data, seed));
    }
    // The generator writes files that parse: nearly all of them are formatted, not refused.
    assert!(formatted >= 55, "{formatted} of 60 formatted");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn formatting_random_generated_files(data in proptest::collection::vec(any::<u8>(), 16..1024), seed in any::<u64>()) {
        holds_for(&data, seed);
    }
}

#[test]
fn every_bundled_file_formats_the_same_with_blanks_added() {
    for (name, text) in carto::lang::check::BUNDLED_RULES {
        for seed in 0..4 {
            let spaced = spaced_out(text, &mut Rng::new(seed));
            assert_eq!(format_rules(&spaced).as_deref(), Ok(*text), "{name}");
        }
    }
}

#[test]
fn scripts_keep_their_lines() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scripts/base/tie.script"
    ))
    .unwrap();
    assert_eq!(format_script(&text), text);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("carto-fmt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MESSY: &str =
    "import \"base\"\nrule  bonus on placed when square.x>0{\nscore(player,1)\n}\n\n\n";
const TIDY: &str =
    "import \"base\"\nrule bonus on placed when square.x > 0 {\n  score(player, 1)\n}\n";

#[test]
fn the_command_checks_rewrites_and_refuses() {
    let dir = temp_dir("cli");
    std::fs::write(dir.join("a.rules"), MESSY).unwrap();
    std::fs::write(dir.join("ok.rules"), TIDY).unwrap();
    std::fs::write(dir.join("bad.rules"), "rule x on {\n").unwrap();

    // --check writes nothing and names the first line that differs.
    let (code, out, _) = carto_in(&dir, &["fmt", "--check", "a.rules", "ok.rules"]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "a.rules:2: not formatted\n  - rule  bonus on placed when square.x>0{\n  + rule bonus on placed when square.x > 0 {\n"
    );
    assert_eq!(std::fs::read_to_string(dir.join("a.rules")).unwrap(), MESSY);

    // Without it, the file is rewritten, and only a file that changes.
    let (code, out, err) = carto_in(&dir, &["fmt", "a.rules", "ok.rules"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "a.rules: formatted\n", "")
    );
    assert_eq!(std::fs::read_to_string(dir.join("a.rules")).unwrap(), TIDY);
    let (code, out, _) = carto_in(&dir, &["fmt", "--check", "a.rules"]);
    assert_eq!((code, out.as_str()), (0, ""));

    // A file with a syntax error is left as it is, with its error where `carto check` shows it.
    let (code, _, err) = carto_in(&dir, &["fmt", "bad.rules"]);
    assert_eq!(code, 1);
    assert!(err.contains("┌─ bad.rules:1:11"), "{err}");
    assert!(
        err.contains("bad.rules: not formatted: it has 1 syntax error (fix it first)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("bad.rules")).unwrap(),
        "rule x on {\n"
    );

    // A missing file is an error among the others; no option is bad usage.
    let (code, _, err) = carto_in(&dir, &["fmt", "missing.rules"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: "), "{err}");
    let (code, _, _) = carto_in(&dir, &["fmt"]);
    assert_eq!(code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_formats_standard_input_to_standard_output() {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_carto"))
        .args(["fmt", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(MESSY.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), TIDY);
}
