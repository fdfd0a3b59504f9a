//! Issue 8, D: two variants of our own design, data only, in `tests/fixtures/`, played through the
//! built binary (`.ci/run` also runs this file against the release build: `cargo test --release
//! --test fixtures`):
//!
//! - `lighthouse.rules` on its own map `lighthouse.toml`: C1 (`ask players() …`), C2 (player sets
//!   as lists), C3 (a limit of a parameter, a group limit with a count), C5 (`min`, `max`, `sort` by a
//!   key, `take`, `has`);
//! - `house_rules.rules`, house rules on the bundled base game: C4 (`change rule … when`, `change rule
//!   … { }`, `remove rule`, `replace rule`), C2, C5.
//!
//! Each is clean under `carto check` (but for the warning that `remove rule farm` leaves `farm_city` unread), documented by `carto doc` (key sentences pinned), and played by
//! a script whose every score is worked out by hand in its comments (the script's `expect` lines
//! assert them; the final scores are pinned here too).

mod common;

use common::{carto, scratch_dir, write_file};

const LIGHTHOUSE: &str = "tests/fixtures/lighthouse.rules";
const HOUSE: &str = "tests/fixtures/house_rules.rules";

#[test]
fn fixtures_check_clean() {
    for (file, name) in [
        (LIGHTHOUSE, "lighthouse.rules"),
        (HOUSE, "house_rules.rules"),
    ] {
        let (code, out, err) = carto(&["check", file]);
        assert_eq!(code, 0, "{out}{err}");
        // `remove rule farm` leaves base's `farm_city` unread: one warning, at the `remove`.
        let warnings = if file == HOUSE {
            "1 warning"
        } else {
            "0 warnings"
        };
        assert!(
            out.contains(&format!("{name}: 0 errors, {warnings}")),
            "{out}"
        );
        if file == HOUSE {
            let all = format!("{out}{err}");
            assert!(
                all.contains("warning: after this `remove`, nothing reads parameter `farm_city`"),
                "{all}"
            );
            assert!(all.contains("32 │ remove rule farm"), "{all}");
        }
    }
}

#[test]
fn lighthouse_doc_says_what_it_does() {
    let (code, out, err) = carto(&["doc", LIGHTHOUSE]);
    assert_eq!(code, 0, "{err}");
    for sentence in [
        "then you score the smaller of the `beacon` of that square and 4 (`cap`)",
        "then ask the players whether to *pay dues* (with that square)",
        "**Pay dues** (when a rule asks a player): Asked by `port`","*Precisely:* You may choose *pay*, 1 chip from the chips in your hand",
        "you score the larger of the value of the first of *pay* and 2 (`dues`)",
        "**Signal** (phase 3, up to 2 (`signals`) times per turn, up to 3 (`signals` + 1) times per turn",
        "shared with *flare*",
        "the first 2 of the squares *s* on the map such that *s* is covered and *s* has a `beacon`, in order of −the `beacon` of *s*",
        "*p* scores 5 × the number of players *q* such that *q*'s score is more than *p*'s score",
    ] {
        assert!(out.contains(sentence), "missing `{sentence}` in:\n{out}");
    }
}

#[test]
fn house_rules_doc_says_what_changed() {
    let (code, out, err) = carto(&["doc", HOUSE]);
    assert_eq!(code, 0, "{err}");
    for sentence in [
        "When a road is completed (closed at both ends), at once in that turn, the players with the most followers on the road score",
        "Changed by the house rule at tests/fixtures/house_rules.rules:21.",
        "for each player *p* with the most followers on the city: *p* scores",
        "the smaller of the number of players *q* such that *q* is not *p* and 3 (`table_bonus`)",
        "the players with the most followers on the monastery score 2 × the number of tiles in and around the monastery",
    ] {
        assert!(out.contains(sentence), "missing `{sentence}` in:\n{out}");
    }
    // The farm rule is removed: no farm sentence on the page.
    assert!(!out.contains("**Farm**"), "{out}");
}

/// Runs a fixture script; its `expect` lines hold the hand-worked scores turn by turn.
fn run(script: &str) -> String {
    let (code, out, err) = carto(&["run", script]);
    assert_eq!(code, 0, "{out}{err}");
    out
}

#[test]
fn lighthouse_script_scores() {
    let out = run("tests/fixtures/lighthouse.script");
    // ann: 3 (beacon) + 3 (dues) + 3 + 3 + 1 (signals, flare) + 1 (beacon) + 8 (signal) = 22;
    // bob: 3 (dues) + 4 (beacon) + 8 (signal) + 5 (catch up) = 20.
    assert!(out.contains("final scores: ann 22, bob 20"), "{out}");
    assert!(
        out.contains("bob is asked: [2 options] pay_dues silver3"),
        "{out}"
    );
    assert!(out.contains("bob +5 (rule catch_up)"), "{out}");
}

#[test]
fn house_rules_script_scores() {
    let out = run("tests/fixtures/house_rules.script");
    // The city: (4 + 0) * 2 + min(1, 3) = 9 each; the open road and the farm score nothing.
    assert!(out.contains("final scores: ann 9, bob 9"), "{out}");
}

/// The same moves under the plain base game score differently: the house rules are what changed.
#[test]
fn house_rules_differ_from_base() {
    let text = std::fs::read_to_string("tests/fixtures/house_rules.script").unwrap();
    let base: String = text
        .lines()
        .filter(|l| !l.starts_with("expect"))
        .map(|l| {
            if l.starts_with("variant ") {
                "variant base\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let path = write_file(&scratch_dir("fixtures"), "base.script", base);
    let out = run(path.to_str().unwrap());
    // Base: city 4 * 2 = 8 each; ann's open road 3 tiles = 3; ann's farm next to 1 completed city = 3.
    assert!(out.contains("final scores: ann 14, bob 8"), "{out}");
}
