//! Issue 8, B: `carto check` reports, with file:line:col, what play would refuse. One snapshot per
//! kind of problem: the source and the rendered diagnostics together (as tests/lang_diagnostics.rs).

use crate::common;

use common::error_snap as snap;

// A4: a forced action that always applies would be taken without end.
snap!(
    forced_always_applies,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nforced f when true {\n  score(player, 1)\n}\n"
);

// B: header values play would refuse.
snap!(
    players_empty_range,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n  players = 5..2\n}\n"
);
snap!(
    players_too_many,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n  players = 7..9\n}\n"
);
snap!(
    start_squares_zero,
    "import \"scatter\"\nvariant \"v\" {\n  map = \"germany\"\n  start_squares = 0\n}\n"
);
snap!(
    start_squares_negative,
    "import \"scatter\"\nvariant \"v\" {\n  map = \"germany\"\n  start_squares = -2\n}\n"
);
snap!(
    start_squares_more_than_the_map,
    "import \"scatter\"\nvariant \"v\" {\n  map = \"test\"\n  start_squares = 4\n}\n"
);
snap!(
    tiles_misspelt,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n  tiles = [\"bsae\"]\n}\n"
);
snap!(
    header_key_misspelt,
    "import \"base\"\nvariant \"v\" {\n  titel = \"V\"\n  map = unbounded\n}\n"
);
snap!(
    followers_negative,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\noverride followers = -5\n"
);

// B: parameters declare their ranges (`in`); defaults and overrides outside them are refused.
snap!(
    param_default_outside_range,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam bonus: int in 0..30 = 31\n"
);
snap!(
    override_outside_range,
    "import \"scatter\"\nvariant \"v\" {\n  map = \"germany\"\n}\noverride scatter_count = -5\n"
);
snap!(
    table_default_lacks_keys,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam trade: table in 1..4 = {1: 1, 2: 3, 4: 10}\n"
);
snap!(
    range_on_a_bool,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam on: bool in 0..1 = true\n"
);
snap!(
    range_empty,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam n: int in 5..2 = 3\n"
);

// B: a rule and an action with the same name.
snap!(
    rule_and_action_same_name,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nrule bonus on placed {\n  score(player, 1)\n}\naction bonus phase score limit per turn 1 {\n  score(player, 2)\n}\n"
);

// C5: `sort` orders by a number; `min`/`max` of two numbers take exactly two.
snap!(
    sort_by_a_non_number,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nrule r on placed {\n  score(player, len(sort(p in players(): p.name)))\n}\n"
);
snap!(
    min_of_three,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nrule r on placed {\n  score(player, min(1, 2, 3))\n}\n"
);

// C3: a limit's count is made of numbers and parameters, at least 1.
snap!(
    limit_count_not_a_parameter,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\naction a phase score limit per turn (turn_number()) {\n  score(player, 1)\n}\n"
);
snap!(
    limit_count_zero,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam n: int = 1\naction a phase score limit group g (n - 1) {\n  score(player, 1)\n}\n"
);

// Range bounds are expressions of parameters: checked with the values in force; a range that depends
// on itself, or a bound that is not made of numbers and parameters, is an error.
snap!(
    range_bound_default_outside,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam most: int = 2\nparam bonus: int in 1..(most * 2) = 5\nrule r on placed {\n  score(player, bonus)\n}\n"
);
snap!(
    range_bound_override_outside,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam most: int = 2\nparam bonus: int in 1..(most * 2) = 3\noverride most = 1\nrule r on placed {\n  score(player, bonus)\n}\n"
);
snap!(
    range_bound_cycle,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam a: int in 0..b = 1\nparam b: int in 0..(a + 1) = 1\nrule r on placed {\n  score(player, a + b)\n}\n"
);
snap!(
    range_bound_not_a_parameter,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam a: int in 0..turn_number() = 1\nrule r on placed {\n  score(player, a)\n}\n"
);
snap!(
    range_bound_empty_with_defaults,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nparam most: int = 0\nparam bonus: int in 1..most = 1\nrule r on placed {\n  score(player, bonus)\n}\n"
);

// Weak messages made plain (session 5): an argument left empty after a comma is pointed at and named.
snap!(
    argument_left_empty,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nrule r on placed {\n  score(player, )\n}\n"
);
// `per_turn` for `per turn`: the unknown limit is named, not the count after it.
snap!(
    limit_per_turn_as_one_word,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\naction a phase score limit per_turn -1 {\n  score(player, 1)\n}\n"
);
// A negative count says so (0 is `limit_count_zero`).
snap!(
    limit_count_negative,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\naction a phase score limit per turn -1 {\n  score(player, 1)\n}\n"
);
// A colour the variant's chips do not have: the error lists the colours they have.
snap!(
    colour_unknown,
    "import \"france\"\nvariant \"v\" {\n  map = \"france\"\n}\nrule r on placed {\n  score(player, count(c in chips(hand(player)) where c.colour == red))\n}\n"
);
// A misspelt colour, on either side of the comparison: did you mean, and the colours.
snap!(
    colour_misspelt,
    "import \"france\"\nvariant \"v\" {\n  map = \"france\"\n}\nrule r on placed {\n  score(player, count(c in chips(hand(player)) where purpel == c.colour))\n}\n"
);

// Issue 32 C: an unknown builtin too far from every name to be a typo is found by its words.
snap!(
    unknown_builtin_found_by_its_words,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nrule r on turn_end when tiles_remaining() == 3 {\n  score(player, 1)\n}\n"
);

// Issue 32 C: a rule that an earlier rule on its trigger keeps from ever running (Great Britain's
// `collect` takes every chip of the square whenever a face-down one lies there) is warned about;
// the second rule may run (a face-up chip stays), so it is not.
#[test]
fn rule_never_runs_after_a_rule_that_takes_its_chips() {
    let out = common::check(
        "import \"great-britain\"\nvariant \"v\" {\n  title = \"V\"\n}\n\
         rule bonus on placed when count(c in chips(at(square)) where not c.face_up) > 0 {\n  score(player, 5)\n}\n\
         rule shown on placed when len(chips(at(square))) > 0 {\n  score(player, 1)\n}\n",
    );
    assert!(out.contains("warning") && !out.contains("error"), "{out}");
    assert_eq!(out.matches("never runs:").count(), 1, "{out}");
    insta::assert_snapshot!("rule_never_runs_after_a_rule_that_takes_its_chips", out);
}

// W0002, widened: a later rule's condition that asks for the chips Great Britain's `collect` takes
// in another form than `collect`'s own still implies `collect`'s, so the rule never runs.
fn never_runs_after_collect(when: &str) -> String {
    common::check(&format!(
        "import \"great-britain\"\nvariant \"v\" {{\n  title = \"V\"\n}}\n\
         rule later on placed when {when} {{\n  score(player, 5)\n}}\n"
    ))
}

/// The comparison written the other way round (`0 < count(…)`).
#[test]
fn rule_never_runs_when_its_count_is_compared_the_other_way_round() {
    let out = never_runs_after_collect("0 < count(c in chips(at(square)) where not c.face_up)");
    assert!(!out.contains("error"), "{out}");
    assert_eq!(
        out.matches("rule `later` never runs: rule `collect`")
            .count(),
        1,
        "{out}"
    );
}

/// More chips than `collect`'s condition asks for (`>= 2`, `== 1`).
#[test]
fn rule_never_runs_when_it_asks_for_more_of_the_chips() {
    for when in [
        "count(c in chips(at(square)) where not c.face_up) >= 2",
        "count(c in chips(at(square)) where not c.face_up) == 1",
    ] {
        let out = never_runs_after_collect(when);
        assert_eq!(
            out.matches("rule `later` never runs").count(),
            1,
            "{when}:\n{out}"
        );
    }
}

/// `any(c in L where F)` for `count(c in L where F) > 0`.
#[test]
fn rule_never_runs_when_it_asks_with_any() {
    let out = never_runs_after_collect("any(c in chips(at(square)) where not c.face_up)");
    assert_eq!(out.matches("rule `later` never runs").count(), 1, "{out}");
}

/// The length of a filtered list (`len([c in L where F]) > 0`), and a condition besides.
#[test]
fn rule_never_runs_when_it_counts_a_filtered_list() {
    let out = never_runs_after_collect(
        "len([c in chips(at(square)) where not c.face_up]) > 0 and turn_number() > 3",
    );
    assert_eq!(out.matches("rule `later` never runs").count(), 1, "{out}");
}

/// Conditions that do not imply `collect`'s, or need no chip, are not warned about: face-up chips
/// (`collect` may not run), `!= 1` and `>= 0` (no chip needed), fewer of any chip.
#[test]
fn rule_that_may_run_after_collect_is_not_warned_about() {
    for when in [
        "count(c in chips(at(square)) where c.face_up) > 0",
        "count(c in chips(at(square)) where not c.face_up) != 1",
        "0 <= count(c in chips(at(square)) where not c.face_up)",
        "len(chips(at(square))) >= 1",
        "any(c in chips(at(square)) where c.value == 2)",
    ] {
        let out = never_runs_after_collect(when);
        assert!(!out.contains("never runs"), "{when}:\n{out}");
        assert!(!out.contains("error"), "{when}:\n{out}");
    }
}

/// W0002 where the earlier rule moves each chip away in every branch of an `if … else` (Iberia's
/// `collect`: to the player's area, or to the box when the chip's band is full): a house rule's
/// `placed` rule that needs a face-down chip on the square never runs; one that needs no chip there
/// is not warned about.
#[test]
fn rule_never_runs_after_a_rule_that_moves_each_chip_away_in_every_branch() {
    let out = common::check(
        "import \"iberia\"\nvariant \"v\" {\n  title = \"V\"\n}\n\
         rule later on placed when count(c in chips(at(square)) where not c.face_up) > 0 {\n  score(player, 5)\n}\n\
         rule other on placed when square.x > 3 {\n  score(player, 1)\n}\n",
    );
    assert!(!out.contains("error"), "{out}");
    assert_eq!(
        out.matches("rule `later` never runs: rule `collect`")
            .count(),
        1,
        "{out}"
    );
    assert_eq!(out.matches("never runs:").count(), 1, "{out}");
}

/// No W0002 when the earlier rule's loop puts chips back on the place it takes them from (a
/// `collect` changed to lay each chip back after scoring it).
#[test]
fn rule_after_a_rule_that_lays_the_chips_back_is_not_warned_about() {
    let out = common::check(
        "import \"great-britain\"\nvariant \"v\" {\n  title = \"V\"\n}\n\
         change rule collect {\n  for c in chips(at(square)) {\n    move(c, hand(player), up)\n    score(player, c.value)\n    move(c, at(square), down)\n  }\n}\n\
         rule later on placed when count(c in chips(at(square)) where not c.face_up) > 0 {\n  score(player, 5)\n}\n",
    );
    assert!(!out.contains("error"), "{out}");
    assert!(!out.contains("never runs"), "{out}");
}

// W0002 for state the rules keep: an earlier rule on the trigger sets a state to a constant that a
// part of the later rule's `when` rules out, and no other rule changes it (an action may: actions
// run at decisions, never between the rules of one trigger).
fn state_rules(rest: &str) -> String {
    common::check(&format!(
        "import \"base\"\nvariant \"v\" {{\n  title = \"V\"\n  map = unbounded\n}}\n\
         state moved: bool per player\nstate season: int = 1\n\
         rule clear on turn_start {{\n  set(player.moved, false)\n  set(season, 1)\n}}\n\
         action mark phase after {{\n  set(player.moved, true)\n  add(season, 1)\n}}\n{rest}"
    ))
}

/// A flag the earlier rule clears, read as it is (`when player.moved`), and a counter it sets, read
/// in a comparison either way round (`season > 1`, `2 <= season`).
#[test]
fn rule_never_runs_after_a_rule_that_sets_the_state_it_needs() {
    for when in ["player.moved", "season > 1", "2 <= season", "season != 1"] {
        let out = state_rules(&format!(
            "rule bonus on turn_start when {when} {{\n  score(player, 1)\n}}\n"
        ));
        assert!(!out.contains("error"), "{when}:\n{out}");
        assert_eq!(
            out.matches("rule `bonus` never runs: rule `clear`").count(),
            1,
            "{when}:\n{out}"
        );
        assert!(out.contains("sets `"), "{when}:\n{out}");
    }
}

/// Not warned about: a condition the value meets (`not player.moved`, `season == 1`), a state
/// another rule also changes, a rule on another trigger.
#[test]
fn rule_after_a_rule_that_sets_a_state_it_may_find_is_not_warned_about() {
    for rest in [
        "rule bonus on turn_start when not player.moved {\n  score(player, 1)\n}\n",
        "rule bonus on turn_start when season == 1 {\n  score(player, 1)\n}\n",
        "rule also on turn_start {\n  set(player.moved, true)\n}\nrule bonus on turn_start when player.moved {\n  score(player, 1)\n}\n",
        "rule bonus on turn_end when player.moved {\n  score(player, 1)\n}\n",
    ] {
        let out = state_rules(rest);
        assert!(!out.contains("error"), "{rest}:\n{out}");
        assert!(!out.contains("never runs"), "{rest}:\n{out}");
    }
}
