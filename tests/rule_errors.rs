//! Issue 8, A4 and A6, the examples not pinned elsewhere, through the built binary: a division by
//! zero in a rule is an error naming the rule and the expression that failed (like an overflow, `tests/cli.rs` `score_overflows`);
//! rules that grant extra turns on every turn do not run away: the chain ends with the tiles.

use crate::common;

use common::{carto, scratch_dir, write_file};
use std::path::{Path, PathBuf};

fn scratch(name: &str, text: &str) -> PathBuf {
    write_file(&scratch_dir("rule-errors"), name, text)
}

fn play(rules: &Path) -> (i32, String, String) {
    carto(&["play", rules.to_str().unwrap(), "--seed", "1", "--quiet"])
}

#[test]
fn division_by_zero_names_the_rule() {
    let rules = scratch(
        "div.rules",
        "import \"base\"\nvariant \"div\" {\n  map = unbounded\n}\nparam zero: int = 0\nrule split on placed {\n  score(player, 10 / zero)\n}\n",
    );
    let (code, _, err) = play(&rules);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error: rule `split`: division by zero"),
        "{err}"
    );
    // The caret is under the expression that failed, not the effect it is an argument of nor
    // the rule's first line.
    assert!(err.contains("div.rules:7:17"), "{err}");
    assert!(
        err.contains("7 │   score(player, 10 / zero)\n  │                 ^^^^^^^^^ failed here"),
        "{err}"
    );
}

#[test]
fn errors_point_at_the_innermost_expression_that_failed() {
    // The division inside `abs` inside `+` inside the effect; the follower's square (it is in the
    // reserve) read by a comparison, inside a loop.
    for (text, line, place) in [
        (
            "  score(player, abs(10 / zero) + 1)\n",
            "7 │   score(player, abs(10 / zero) + 1)\n  │                     ^^^^^^^^^ failed here",
            "inner.rules:7:21",
        ),
        (
            "  for f in reserve(player) {\n    if f.square == square {\n      score(player, 1)\n    }\n  }\n",
            "8 │     if f.square == square {\n  │        ^^^^^^^^ failed here",
            "inner.rules:8:8",
        ),
    ] {
        let rules = scratch(
            "inner.rules",
            &format!("import \"base\"\nvariant \"inner\" {{\n  map = unbounded\n}}\nparam zero: int = 0\nrule r on placed {{\n{text}}}\n"),
        );
        let (code, _, err) = play(&rules);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(place) && err.contains(line), "{err}");
    }
}

#[test]
fn extra_turns_every_turn_end_with_the_tiles() {
    let rules = scratch(
        "extra.rules",
        "import \"base\"\nvariant \"extra\" {\n  map = unbounded\n}\nrule again on turn_start {\n  extra_turn()\n}\nrule more on turn_end {\n  extra_turn()\n  extra_turn()\n}\n",
    );
    let (code, out, err) = play(&rules);
    assert_eq!(code, 0, "{err}");
    // ann's first turn grants her the next one, and so on until the tiles run out: bob never plays
    // (he has no follower on the board and scores nothing).
    assert!(out.contains("bob: 0"), "{out}");
}
