//! The transcript for people, through the built binary: the setup's chips summed up unless
//! `--verbose` asks for every one.

use crate::common;

/// Runs `carto ARGS`, which must succeed; its stdout.
fn carto(args: &[&str]) -> String {
    let (code, out, err) = common::carto(args);
    assert!(code == 0, "{err}");
    out
}

/// tests/scripts/france/one_sale_per_turn.script: 30 chips scattered and 3 moved to bob's hand at
/// setup, then 2 chip moves in play (ann collects chip 8, bob sells chip 16).
#[test]
fn setup_chips_are_summed_up_unless_verbose() {
    let script = "tests/scripts/france/one_sale_per_turn.script";
    let short = carto(&["run", script]);
    let long = carto(&["run", script, "--verbose"]);
    let chip_lines = |t: &str| t.lines().filter(|l| l.starts_with("  chip ")).count();
    assert_eq!(chip_lines(&long), 30 + 3 + 2);
    assert_eq!(chip_lines(&short), 2);
    assert!(short.contains(
        "  30 chips supply -> map squares face down: purple 1 ×6, purple 2 ×4, blue 1 ×6, blue 2 ×4, orange 1 ×6, orange 2 ×4"
    ));
    assert!(short.contains("  3 chips map squares -> hand:bob face up: blue 2, orange 1 ×2"));
    // Everything after the setup is the same.
    let after = |t: &str| t[t.find("turn 1 ·").unwrap()..].to_string();
    assert_eq!(after(&short), after(&long));
    let played = carto(&["play", "france", "--seed", "2", "--verbose"]);
    assert!(played.lines().filter(|l| l.starts_with("  chip ")).count() >= 30);
}
