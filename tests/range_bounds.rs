//! Issue 8: a parameter's range bounded by other parameters (`param bonus: int in 1..(most * 2)`),
//! through the built binary: `--set` is checked once every value is set, in any order, and
//! `carto doc` shows the range as written.

use crate::common;

use common::carto;

const RULES: &str = "tests/scripts/lang/range_bounds.rules";

#[test]
fn set_in_any_order() {
    // bonus 7 needs most >= 4 (7 <= most * 2); most = 5 comes after it: accepted.
    let (code, _, err) = carto(&[
        "play", RULES, "--quiet", "--set", "bonus=7", "--set", "most=5",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = carto(&[
        "play", RULES, "--quiet", "--set", "most=5", "--set", "bonus=7",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn set_outside_a_bound_read_from_a_parameter() {
    // most = 1: bonus (default 3) must be in 1..2.
    let (code, _, err) = carto(&["play", RULES, "--quiet", "--set", "most=1"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("`bonus` takes values from 1 to 2 (`1..(most * 2)`), not 3"),
        "{err}"
    );
    // bonus = 5 with most = 2: 1..4.
    let (code, _, err) = carto(&["play", RULES, "--quiet", "--set", "bonus=5"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("`--set bonus=5`: `bonus` takes values from 1 to 4 (`1..(most * 2)`), not 5"),
        "{err}"
    );
}

#[test]
fn doc_shows_the_range_as_written() {
    let (code, out, err) = carto(&["doc", RULES]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("| `bonus` | int | in 1..(most * 2) | 3 | 3 |"),
        "{out}"
    );
}
