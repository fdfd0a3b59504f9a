//! Bad input at the command line: every case ends in one clear message and exit code 1 (bad input) or
//! 2 (bad usage), never a panic (101). Each case runs the built binary in a fresh directory under the
//! system's temp dir, with the files it needs, and pins (exit code, stderr, stdout) as a snapshot.

use crate::common;

use common::write_file;
use std::path::PathBuf;
use std::process::Command;

/// A fresh, empty directory for one case.
fn scratch(case: &str) -> PathBuf {
    common::fresh_dir("cli", case)
}

/// Runs `carto ARGS` in a fresh directory holding `files`; returns the exit code, stderr and stdout.
fn carto(case: &str, files: &[(&str, &[u8])], args: &[&str]) -> (i32, String, String) {
    let dir = scratch(case);
    for (name, bytes) in files {
        write_file(&dir, name, bytes);
    }
    let out = carto_in(&dir, args);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn report(args: &[&str], (code, err, out): &(i32, String, String)) -> String {
    format!(
        "$ carto {}\nexit: {code}\n----- stderr\n{err}----- stdout\n{out}",
        args.join(" ")
    )
}

/// Runs a case that must fail with `code`, and snapshots it.
fn case(name: &str, code: i32, files: &[(&str, &[u8])], args: &[&str]) -> String {
    let r = carto(name, files, args);
    assert_ne!(r.0, 101, "carto panicked:\n{}", report(args, &r));
    assert_eq!(r.0, code, "wrong exit code:\n{}", report(args, &r));
    assert!(!r.1.trim().is_empty(), "no message:\n{}", report(args, &r));
    let text = report(args, &r);
    insta::assert_snapshot!(name, text);
    text
}

/// A rules file: the base game on a map file.
fn rules_on(map: &str) -> String {
    format!(
        "import \"base\"\nvariant \"tiny\" {{\n  title = \"Tiny\"\n  map = \"{map}\"\n  players = 2..6\n}}\n"
    )
}

const SMALL_MAP: &str = r#"name = "Small"
grid = """
~~~~~~
~....~
~.t..~
~....~
~~~~~~
"""
[legend]
"~" = "sea"
"." = "land"
"t" = { kind = "land", town = true }
[[start]]
name = "Home"
at = [2, 2]
"#;

// ------------------------------------------------------------------ files

#[test]
fn missing_script() {
    case("missing_script", 1, &[], &["run", "nosuch.script"]);
}

#[test]
fn missing_rules_file() {
    case("missing_rules_file", 1, &[], &["play", "nosuch.rules"]);
}

#[test]
fn missing_check_file() {
    case(
        "missing_check_file",
        1,
        &[],
        &["check", "rules/nosuch.rules"],
    );
}

#[test]
fn directory_script() {
    case("directory_script", 1, &[("d/x", b"")], &["run", "d"]);
}

#[test]
fn directory_rules() {
    case(
        "directory_rules",
        1,
        &[("d.rules/x", b"")],
        &["play", "d.rules"],
    );
}

#[test]
fn empty_script() {
    case(
        "empty_script",
        1,
        &[("e.script", b"")],
        &["run", "e.script"],
    );
}

#[test]
fn empty_rules() {
    case("empty_rules", 1, &[("e.rules", b"")], &["play", "e.rules"]);
}

#[test]
fn binary_rules() {
    case(
        "binary_rules",
        1,
        &[("b.rules", b"\x7fELF\x02\x01\x01\0\0\0\0")],
        &["play", "b.rules"],
    );
}

#[test]
fn binary_script() {
    case(
        "binary_script",
        1,
        &[("b.script", b"variant base\n\0\0\0")],
        &["run", "b.script"],
    );
}

#[test]
fn invalid_utf8_rules() {
    case(
        "invalid_utf8_rules",
        1,
        &[("u.rules", b"import \"base\"\n# caf\xe9\n")],
        &["check", "u.rules"],
    );
}

#[test]
fn invalid_utf8_script() {
    case(
        "invalid_utf8_script",
        1,
        &[("u.script", b"variant base\nplayers \xff\xfe\n")],
        &["run", "u.script"],
    );
}

// ------------------------------------------------------------------ maps

#[test]
fn map_not_toml() {
    let rules = rules_on("m.toml");
    case(
        "map_not_toml",
        1,
        &[
            ("v.rules", rules.as_bytes()),
            ("m.toml", b"name = \"Broken\"\ngrid = \"\"\"\n....\n"),
        ],
        &["play", "v.rules"],
    );
}

#[test]
fn map_syntax_error() {
    let rules = rules_on("m.toml");
    let map = SMALL_MAP.replace("[legend]", "[legend\n");
    case(
        "map_syntax_error",
        1,
        &[("v.rules", rules.as_bytes()), ("m.toml", map.as_bytes())],
        &["play", "v.rules"],
    );
}

#[test]
fn map_missing() {
    let rules = rules_on("nowhere.toml");
    case(
        "map_missing",
        1,
        &[("v.rules", rules.as_bytes())],
        &["play", "v.rules"],
    );
}

#[test]
fn map_start_in_sea() {
    let rules = rules_on("m.toml");
    let map = SMALL_MAP.replace("at = [2, 2]", "at = [0, 0]");
    case(
        "map_start_in_sea",
        1,
        &[("v.rules", rules.as_bytes()), ("m.toml", map.as_bytes())],
        &["play", "v.rules"],
    );
}

#[test]
fn map_town_outside_grid() {
    let rules = rules_on("m.toml");
    let map = format!("{SMALL_MAP}[[town]]\nname = \"Faraway\"\nat = [40, 3]\n");
    case(
        "map_town_outside_grid",
        1,
        &[("v.rules", rules.as_bytes()), ("m.toml", map.as_bytes())],
        &["play", "v.rules"],
    );
}

// ------------------------------------------------------------------ variants and parameters

#[test]
fn unknown_variant() {
    case("unknown_variant", 1, &[], &["play", "bsae"]);
}

#[test]
fn unknown_bench_variant() {
    case(
        "unknown_bench_variant",
        1,
        &[],
        &["bench", "nosuch", "--games", "1"],
    );
}

#[test]
fn set_unknown_parameter() {
    case(
        "set_unknown_parameter",
        1,
        &[],
        &["play", "base", "--set", "folowers=3"],
    );
}

#[test]
fn set_wrong_type() {
    case(
        "set_wrong_type",
        1,
        &[],
        &["play", "base", "--set", "followers=many"],
    );
}

#[test]
fn set_without_value() {
    case(
        "set_without_value",
        1,
        &[],
        &["play", "base", "--set", "followers"],
    );
}

#[test]
fn too_many_players() {
    case(
        "too_many_players",
        2,
        &[],
        &["play", "base", "--players", "a,b,c,d,e,f,g"],
    );
}

#[test]
fn one_player() {
    case("one_player", 2, &[], &["play", "base", "--players", "solo"]);
}

#[test]
fn duplicate_player() {
    case(
        "duplicate_player",
        2,
        &[],
        &["play", "base", "--players", "ann,ann"],
    );
}

#[test]
fn bench_zero_games() {
    case(
        "bench_zero_games",
        2,
        &[],
        &["bench", "base", "--games", "0"],
    );
}

#[test]
fn bench_too_many_games() {
    case(
        "bench_too_many_games",
        2,
        &[],
        &["bench", "base", "--games", "1000000000000"],
    );
}

#[test]
fn bench_games_not_a_number() {
    case(
        "bench_games_not_a_number",
        2,
        &[],
        &["bench", "base", "--games", "lots"],
    );
}

#[test]
fn unknown_command() {
    case("unknown_command", 2, &[], &["fly", "base"]);
}

// ------------------------------------------------------------------ setups that cannot be satisfied

/// A map far too small for the 30 chips: the game still runs; the chips that find no square go aside,
/// and the transcript says so.
#[test]
fn map_too_small_for_chips() {
    let rules = "import \"scatter\"\nvariant \"crowded\" {\n  title = \"Crowded\"\n  map = \"m.toml\"\n  players = 2..6\n}\n";
    let args = ["play", "v.rules", "--seed", "3"];
    let r = carto(
        "map_too_small_for_chips",
        &[
            ("v.rules", rules.as_bytes()),
            ("m.toml", SMALL_MAP.as_bytes()),
        ],
        &args,
    );
    assert_eq!(r.0, 0, "{}", report(&args, &r));
    let setup: String =
        r.2.lines()
            .take_while(|l| !l.contains("turn 1"))
            .map(|l| format!("{l}\n"))
            .collect();
    assert!(setup.contains("aside"), "no chip went aside:\n{setup}");
    insta::assert_snapshot!(
        "map_too_small_for_chips",
        format!(
            "$ carto {}\nexit: {}\n----- stderr\n{}----- stdout (setup only)\n{setup}",
            args.join(" "),
            r.0,
            r.1
        )
    );
}

// ------------------------------------------------------------------ scripts

#[test]
fn script_illegal_move() {
    let script = "variant base\ntiles U, E\nplace U at 5,5 r0\n";
    case(
        "script_illegal_move",
        1,
        &[("s.script", script.as_bytes())],
        &["run", "s.script"],
    );
}

#[test]
fn script_rotation_not_a_right_angle() {
    // `r45` is no rotation: the refusal lists the four that exist.
    let script = "variant base\ntiles U, E\nplace U at 1,0 r45\n";
    case(
        "script_rotation_not_a_right_angle",
        1,
        &[("s.script", script.as_bytes())],
        &["run", "s.script"],
    );
}

#[test]
fn script_unknown_tile_for_variant() {
    // `base` has only the base tile set: the inns-and-cathedrals tiles are not there.
    let script = "variant base\ntiles U, EI1\nplace U at 1,0 r0\n";
    case(
        "script_unknown_tile_for_variant",
        1,
        &[("s.script", script.as_bytes())],
        &["run", "s.script"],
    );
}

#[test]
fn script_option_of_another_variant() {
    // A base-game parameter in a script naming a variant that lacks it.
    let rules = "variant \"bare\" {\n  title = \"Bare\"\n  map = unbounded\n  players = 2..6\n}\n";
    let script = "variant bare.rules\nset road_tile = 3\ntiles U\nplace U at 1,0 r0\n";
    case(
        "script_option_of_another_variant",
        1,
        &[
            ("bare.rules", rules.as_bytes()),
            ("s.script", script.as_bytes()),
        ],
        &["run", "s.script"],
    );
}

#[test]
fn script_too_many_players() {
    let script = "variant base\nplayers a, b, c, d, e, f, g\n";
    case(
        "script_too_many_players",
        1,
        &[("s.script", script.as_bytes())],
        &["run", "s.script"],
    );
}

#[test]
fn script_unknown_variant() {
    let script = "variant nosuch\n";
    case(
        "script_unknown_variant",
        1,
        &[("s.script", script.as_bytes())],
        &["run", "s.script"],
    );
}

// ------------------------------------------------------------------ limits

#[test]
fn deep_parentheses() {
    let rules = format!(
        "import \"base\"\nparam deep: int = {}1{}\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    case(
        "deep_parentheses",
        1,
        &[("deep.rules", rules.as_bytes())],
        &["check", "deep.rules"],
    );
}

#[test]
fn deep_nots() {
    let rules = format!(
        "import \"base\"\nparam deep: bool = {}true\n",
        "not ".repeat(10_000)
    );
    case(
        "deep_nots",
        1,
        &[("deep.rules", rules.as_bytes())],
        &["check", "deep.rules"],
    );
}

#[test]
fn deep_minus() {
    let rules = format!(
        "import \"base\"\nparam deep: int = {}1\n",
        "-".repeat(10_000)
    );
    case(
        "deep_minus",
        1,
        &[("deep.rules", rules.as_bytes())],
        &["check", "deep.rules"],
    );
}

#[test]
fn rule_over_operation_budget() {
    let rules = "import \"base\"\n\
        variant \"slow\" {\n  title = \"Slow\"\n  map = \"m.toml\"\n  players = 2..6\n}\n\
        rule forever on placed {\n\
        \x20 for a in squares() {\n\
        \x20   for b in squares() {\n\
        \x20     for c in squares() {\n\
        \x20       for d in squares() {\n\
        \x20         score(player, 0)\n\
        \x20       }\n\
        \x20     }\n\
        \x20   }\n\
        \x20 }\n\
        }\n";
    case(
        "rule_over_operation_budget",
        1,
        &[
            ("v.rules", rules.as_bytes()),
            ("m.toml", SMALL_MAP.as_bytes()),
        ],
        &["play", "v.rules", "--quiet"],
    );
}

#[test]
fn import_itself() {
    case(
        "import_itself",
        1,
        &[("self.rules", b"import \"self.rules\"\n")],
        &["check", "self.rules"],
    );
}

#[test]
fn import_cycle() {
    case(
        "import_cycle",
        1,
        &[
            ("a.rules", b"import \"b.rules\"\n"),
            ("b.rules", b"import \"c.rules\"\n"),
            ("c.rules", b"import \"a.rules\"\n"),
        ],
        &["check", "a.rules"],
    );
}

#[test]
fn shared_rules_not_a_variant() {
    case("shared_rules_not_a_variant", 1, &[], &["play", "map-chips"]);
}

#[test]
fn script_duplicate_player() {
    let script = "variant base\nplayers ann, bob, ann\n";
    case(
        "script_duplicate_player",
        1,
        &[("s.script", script.as_bytes())],
        &["run", "s.script"],
    );
}

#[test]
fn script_starts_without_map() {
    let script = "variant base\nstarts Nancy\n";
    case(
        "script_starts_without_map",
        1,
        &[("s.script", script.as_bytes())],
        &["run", "s.script"],
    );
}

#[test]
fn unknown_start_square() {
    case(
        "unknown_start_square",
        1,
        &[],
        &["play", "france", "--starts", "Nancy,Paris"],
    );
}

#[test]
fn start_squares_without_a_map() {
    case(
        "start_squares_without_a_map",
        2,
        &[],
        &["play", "base", "--starts", "Nancy"],
    );
}

#[test]
fn too_many_tiles() {
    let rules = "import \"base\"\nvariant \"big\" {\n  title = \"Big\"\n  map = unbounded\n  tiles = [\"big.toml\"]\n}\n";
    let tiles = "[[tile]]\nid = \"D\"\nname = \"start\"\ncount = 900\nstart = 1\nedges = \"CRFR\"\ncities = [{ sides = \"N\" }]\nroads = [{ sides = \"EW\" }]\nfields = [{ halves = [\"En\", \"Wn\"], cities = [0] }, { halves = [\"Es\", \"Se\", \"Sw\", \"Ws\"] }]\n\n[[tile]]\nid = \"U\"\nname = \"road\"\ncount = 5000\nedges = \"FRFR\"\nroads = [{ sides = \"EW\" }]\nfields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Wn\"] }, { halves = [\"Es\", \"Se\", \"Sw\", \"Ws\"] }]\n";
    case(
        "too_many_tiles",
        1,
        &[
            ("big.rules", rules.as_bytes()),
            ("big.toml", tiles.as_bytes()),
        ],
        &["play", "big.rules"],
    );
}

// Item 7: a count beyond every integer type says the real limit (1000 copies), not "at least 1".
#[test]
fn tile_count_far_too_large() {
    let rules = "import \"base\"\nvariant \"big\" {\n  title = \"Big\"\n  map = unbounded\n  tiles = [\"big.toml\"]\n}\n";
    let tiles = "[[tile]]\nid = \"D\"\nname = \"start\"\ncount = 99999999999\nstart = 1\nedges = \"CRFR\"\ncities = [{ sides = \"N\" }]\nroads = [{ sides = \"EW\" }]\nfields = [{ halves = [\"En\", \"Wn\"], cities = [0] }, { halves = [\"Es\", \"Se\", \"Sw\", \"Ws\"] }]\n";
    case(
        "tile_count_far_too_large",
        1,
        &[
            ("big.rules", rules.as_bytes()),
            ("big.toml", tiles.as_bytes()),
        ],
        &["play", "big.rules"],
    );
}

#[test]
fn too_many_tiles_in_all() {
    let rules = "import \"base\"\nvariant \"big\" {\n  title = \"Big\"\n  map = unbounded\n  tiles = [\"big.toml\"]\n}\n";
    let tiles = "[[tile]]\nid = \"D\"\nname = \"start\"\ncount = 900\nstart = 1\nedges = \"CRFR\"\ncities = [{ sides = \"N\" }]\nroads = [{ sides = \"EW\" }]\nfields = [{ halves = [\"En\", \"Wn\"], cities = [0] }, { halves = [\"Es\", \"Se\", \"Sw\", \"Ws\"] }]\n\n[[tile]]\nid = \"U\"\nname = \"road\"\ncount = 900\nedges = \"FRFR\"\nroads = [{ sides = \"EW\" }]\nfields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Wn\"] }, { halves = [\"Es\", \"Se\", \"Sw\", \"Ws\"] }]\n";
    case(
        "too_many_tiles_in_all",
        1,
        &[
            ("big.rules", rules.as_bytes()),
            ("big.toml", tiles.as_bytes()),
        ],
        &["play", "big.rules"],
    );
}

// Issue 8, A5: every file read is a regular file of bounded size; devices are refused at once
// (before this, `carto check /dev/zero` read until memory ran out).
#[test]
fn check_dev_zero() {
    case("check_dev_zero", 1, &[], &["check", "/dev/zero"]);
}

#[test]
fn play_dev_urandom() {
    case("play_dev_urandom", 1, &[], &["play", "/dev/urandom"]);
}

#[test]
fn run_dev_zero() {
    case("run_dev_zero", 1, &[], &["run", "/dev/zero"]);
}

#[test]
fn replay_dev_zero() {
    case("replay_dev_zero", 1, &[], &["replay", "/dev/zero"]);
}

#[test]
fn map_is_a_device() {
    let rules = rules_on("/dev/zero");
    case(
        "map_is_a_device",
        1,
        &[("v.rules", rules.as_bytes())],
        &["play", "v.rules"],
    );
}

#[test]
fn script_too_large() {
    // 16 MiB is the most carto reads; one byte more is refused before the script is parsed.
    let big = vec![b'#'; 16 * 1024 * 1024 + 1];
    case(
        "script_too_large",
        1,
        &[("big.script", &big)],
        &["run", "big.script"],
    );
}

// Issue 8, A3: a script that stops at a pending decision logs no `game_end` and says who decides.
#[test]
fn unfinished_script_logs_no_game_end() {
    let script =
        b"variant base\nplayers ann, bob\nseed 1\ntiles E, U\nplace E at 0,-1 r180\npass\n";
    let dir = scratch("unfinished_script");
    write_file(&dir, "s.script", script);
    let (code, stdout, _) = common::carto_in(&dir, &["run", "s.script", "--log", "s.jsonl"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("game not finished: a decision is pending (turn 2, bob: placing the tile)"),
        "{stdout}"
    );
    assert!(!stdout.contains("final scores"), "{stdout}");
    let log = std::fs::read_to_string(dir.join("s.jsonl")).unwrap();
    let last = log.lines().last().unwrap();
    assert!(last.contains("\"event\":\"turn_end\""), "{last}");
    assert!(!log.contains("game_end"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

// Issue 8, A4: a forced action whose condition stays true is stopped within its turn, with an error
// naming it (before: `carto play` grew past 5 GB). The condition hides its constant from the checker.
#[test]
fn forced_action_runs_away() {
    let rules = b"import \"base\"\nvariant \"loop\" {\n  map = unbounded\n}\nforced f when turn_number() > 0 {\n  score(player, 1)\n}\n";
    case(
        "forced_action_runs_away",
        1,
        &[("loop.rules", rules)],
        &["play", "loop.rules", "--quiet"],
    );
}

// Issue 8, A6 and B: `--set` values outside a parameter's declared range are refused before play.
#[test]
fn set_followers_negative() {
    case(
        "set_followers_negative",
        1,
        &[],
        &["play", "base", "--set", "followers=-5"],
    );
}

#[test]
fn set_scatter_count_too_high() {
    case(
        "set_scatter_count_too_high",
        1,
        &[],
        &["play", "germany", "--set", "scatter_count=31"],
    );
}

#[test]
fn set_table_missing_key() {
    case(
        "set_table_missing_key",
        1,
        &[],
        &["play", "ukraine", "--set", "trade={1: 1, 2: 3, 4: 10}"],
    );
}

// Issue 8, A6: a score that overflows is an error naming the rule (it was clamped silently).
// 9223372036854775807 is i64::MAX: ann's first placement scores it, the second overflows.
#[test]
fn score_overflows() {
    let rules = b"import \"base\"\nvariant \"big\" {\n  map = unbounded\n}\nrule huge on placed {\n  score(player, 9223372036854775807)\n}\n";
    let script = b"variant big.rules\nplayers ann, bob\nseed 1\ntiles U, U, U\nplace U at 1,0 r0\npass\nplace U at 2,0 r0\npass\nplace U at 3,0 r0\n";
    case(
        "score_overflows",
        1,
        &[("big.rules", rules), ("s.script", script)],
        &["run", "s.script"],
    );
}

// Issue 8, B: `carto check` reads the tile sets a header names by path and reports a missing or
// broken one at the `tiles` entry (play would refuse them).
#[test]
fn check_tile_set_missing() {
    let rules = b"import \"base\"\nvariant \"v\" {\n  map = unbounded\n  tiles = [\"base\", \"mine.toml\"]\n}\n";
    case(
        "check_tile_set_missing",
        1,
        &[("v.rules", rules)],
        &["check", "v.rules"],
    );
}

#[test]
fn check_tile_set_broken() {
    let rules = b"import \"base\"\nvariant \"v\" {\n  map = unbounded\n  tiles = [\"base\", \"mine.toml\"]\n}\n";
    case(
        "check_tile_set_broken",
        1,
        &[("v.rules", rules), ("mine.toml", b"[[tile]]\nid = 3\n")],
        &["check", "v.rules"],
    );
}

#[test]
fn import_a_device() {
    let rules = b"import \"/dev/zero\"\nvariant \"v\" {\n  map = unbounded\n}\n";
    case(
        "import_a_device",
        1,
        &[("v.rules", rules)],
        &["check", "v.rules"],
    );
}

// Issue 8, A4: rules that trigger each other without end (a chip gained is put back and another
// drawn, which is gained...) stop with an error naming the rule.
#[test]
fn triggers_fire_triggers() {
    let rules = b"import \"base\"\nvariant \"chain\" {\n  map = unbounded\n}\nchips { purple 1 x 2 }\nrule first on placed {\n  draw(1, supply, hand(player), up)\n}\nrule again on gained {\n  move(chip, supply, down)\n  draw(1, supply, hand(player), up)\n}\n";
    case(
        "triggers_fire_triggers",
        1,
        &[("chain.rules", rules)],
        &["play", "chain.rules", "--quiet"],
    );
}

// Issue 12: the command line a Rust user expects.

/// Runs a case that must succeed, and snapshots it.
fn ok_case(name: &str, files: &[(&str, &[u8])], args: &[&str]) -> String {
    let r = carto(name, files, args);
    assert_eq!(r.0, 0, "carto failed:\n{}", report(args, &r));
    let text = report(args, &r);
    insta::assert_snapshot!(name, text);
    text
}

/// Every subcommand (as `carto --help` lists them, `help` aside).
const COMMANDS: [&str; 13] = [
    "play",
    "run",
    "replay",
    "doc",
    "list",
    "check",
    "sim",
    "render",
    "view",
    "bench",
    "completions",
    "fmt",
    "lsp",
];

// Item 1: the top-level help lists the commands and the exit codes.
#[test]
fn help_lists_exit_codes() {
    let text = ok_case("help_lists_exit_codes", &[], &["--help"]);
    for c in COMMANDS {
        assert!(
            text.contains(&format!("\n  {c} ")),
            "`{c}` missing from --help"
        );
    }
}

// Item 1: `carto run --help` summarises the script format.
#[test]
fn help_of_run_shows_the_script_format() {
    ok_case(
        "help_of_run_shows_the_script_format",
        &[],
        &["run", "--help"],
    );
}

/// The script in `carto run --help` is a script that runs: its left column, lifted out of the help
/// (each line up to its first run of two spaces; continuation lines dropped), plays to the end with
/// exit 0, with the city both followers share scored by the parameter it sets (its `expect score ann 12`).
#[test]
fn script_in_run_help_runs() {
    let (code, err, out) = carto("run-help-script", &[], &["run", "--help"]);
    assert_eq!(code, 0, "{err}");
    let block = out
        .split("Script format")
        .nth(1)
        .and_then(|s| s.split("\n\n").next())
        .expect("the help has a script format block");
    let script: Vec<&str> = block
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("  ") && !l[2..].starts_with(' '))
        .map(|l| l[2..].split("  ").next().unwrap_or("").trim_end())
        .collect();
    assert!(script[0].starts_with("variant "), "{script:?}");
    let text = script.join("\n") + "\n";
    let (code, err, out) = carto(
        "run-help-script-played",
        &[("help.script", text.as_bytes())],
        &["run", "help.script"],
    );
    assert_eq!(code, 0, "the help's script fails:\n{text}\n{err}");
    assert!(out.contains("+12"), "{out}");
}

// Item 1: every argument and option of every command has a description, and every command has one to
// three examples.
#[test]
fn every_argument_is_described_and_every_command_has_examples() {
    for c in COMMANDS {
        let (code, err, out) = carto(&format!("help-{c}"), &[], &[c, "--help"]);
        assert_eq!(code, 0, "{c} --help: {err}");
        let mut section = "";
        for line in out.lines() {
            if !line.starts_with(' ') && line.ends_with(':') {
                section = line;
                continue;
            }
            let item = line.trim_start();
            let indent = line.len() - item.len();
            // An item line is `  <ARG>  text` or `  -x, --opt <V>  text`; continuation lines are indented
            // further.
            if (section == "Arguments:" || section == "Options:") && indent == 2 {
                let described = item
                    .split_once("  ")
                    .is_some_and(|(_, d)| !d.trim().is_empty() && !d.trim().starts_with('['));
                assert!(described, "`carto {c} --help`: no description for `{item}`");
            }
        }
        let examples = out.split("Examples:\n").nth(1);
        let examples = examples.unwrap_or_else(|| panic!("`carto {c} --help` has no examples"));
        let n = examples
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .filter(|l| l.trim_start().starts_with("carto ") || l.contains("carto "))
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .count();
        assert!((1..=3).contains(&n), "`carto {c} --help` has {n} examples");
    }
}

// Item 2: completion scripts for four shells, each naming the commands.
#[test]
fn completions_for_four_shells() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let (code, err, out) = carto(&format!("comp-{shell}"), &[], &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for c in COMMANDS {
            assert!(out.contains(c), "{shell} completions lack `{c}`");
        }
    }
    case(
        "completions_unknown_shell",
        2,
        &[],
        &["completions", "tcsh"],
    );
}

// Item 4: a write error is exit 1 with a message.
#[cfg(target_os = "linux")]
#[test]
fn output_to_a_full_disk() {
    let out = Command::new(env!("CARGO_BIN_EXE_carto"))
        .arg("list")
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err,
        "error: cannot write to standard output: No space left on device (os error 28)\n"
    );
}

// Item 4: a closed pipe stays quiet (exit 0, nothing on stderr), like `carto doc france | head -1`.
#[test]
fn closed_pipe_is_quiet() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carto"))
        .args(["doc", "france"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

// Item 4: player names are trimmed as start squares are; empty and repeated names are refused.
#[test]
fn players_are_trimmed() {
    let (code, err, out) = carto(
        "players-trimmed",
        &[],
        &["play", "base", "--players", "ann, bob", "--quiet"],
    );
    assert_eq!(code, 0, "{err}");
    let last: Vec<&str> = out.lines().rev().take(2).collect();
    assert!(
        last[1].starts_with("ann: ") && last[0].starts_with("bob: "),
        "{out}"
    );
}

#[test]
fn players_given_twice_after_trimming() {
    case(
        "players_given_twice_after_trimming",
        2,
        &[],
        &["play", "base", "--players", "ann, ann"],
    );
}

#[test]
fn players_empty() {
    case("players_empty", 2, &[], &["play", "base", "--players", ""]);
}

// Item 7: `--seed -1` says seeds are 0 or more (not clap's advice to write `-- -1`).
#[test]
fn seed_negative() {
    case("seed_negative", 2, &[], &["play", "base", "--seed", "-1"]);
}

// A word where a number is expected says which type was expected (not only "unknown name").
#[test]
fn set_word_for_a_number() {
    case(
        "set_word_for_a_number",
        1,
        &[],
        &["play", "france", "--set", "sale_town=abc"],
    );
}

// `render --map` takes a map, a variant or a file: an unknown name lists the maps and the variants.
#[test]
fn render_unknown_map() {
    case(
        "render_unknown_map",
        1,
        &[],
        &["render", "--map", "nowhere"],
    );
}

// `--quiet` prints no transcript, so `--verbose` (a more detailed transcript) cannot go with it.
#[test]
fn quiet_and_verbose_together() {
    case(
        "quiet_and_verbose_together",
        2,
        &[],
        &["play", "base", "--quiet", "--verbose"],
    );
}

// Item 6: a failing script shows the transcript up to the failing line, then the error.
#[test]
fn script_failure_shows_the_transcript() {
    let script = b"variant base\ntiles D, D, U\nplace D at 1,0 r0\npass\nplace D at 9,9 r0\n";
    case(
        "script_failure_shows_the_transcript",
        1,
        &[("s.script", script)],
        &["run", "s.script"],
    );
}

// Item 3: `--format json` for check (every diagnostic with file, line, column, severity, code, message, hint;
// a missing file is one error and the other files are still checked), list and bench. The field
// names are documented in docs/commands.md ("Machine-readable output").
#[test]
fn check_json() {
    let rules = b"import \"base\"\nvariant \"v\" {\n  map = unbounded\n  titel = \"x\"\n}\n";
    let (code, err, out) = carto(
        "check-json",
        &[("v.rules", rules)],
        &["check", "v.rules", "nope.rules", "--format", "json"],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(err, "");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = &v["diagnostics"][0];
    // `titel` starts at line 4, column 3 (two spaces of indent) and is 5 characters long.
    assert_eq!(
        (
            &d["file"],
            &d["line"],
            &d["column"],
            &d["end_line"],
            &d["end_column"]
        ),
        (
            &"v.rules".into(),
            &4.into(),
            &3.into(),
            &4.into(),
            &8.into()
        )
    );
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "E0119");
    assert_eq!(d["message"], "unknown header key `titel`");
    assert!(d["hint"]
        .as_str()
        .unwrap()
        .starts_with("did you mean `title`?"));
    assert_eq!(v["diagnostics"][1]["file"], "nope.rules");
    assert_eq!(v["diagnostics"][1]["line"], serde_json::Value::Null);
    assert_eq!(v["diagnostics"][1]["code"], "E0007");
    assert_eq!(
        v["files"][1],
        serde_json::json!({"file": "nope.rules", "errors": 1, "warnings": 0})
    );
    let keys: Vec<&String> = d.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "code",
            "column",
            "end_column",
            "end_line",
            "file",
            "hint",
            "label",
            "line",
            "message",
            "severity"
        ]
    );
}

#[test]
fn check_several_files_missing_first() {
    let rules = b"import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\n";
    case(
        "check_several_files_missing_first",
        1,
        &[("v.rules", rules)],
        &["check", "nope.rules", "v.rules"],
    );
}

#[test]
fn list_json() {
    let (code, err, out) = carto("list-json", &[], &["list", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let base = v
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "base")
        .unwrap();
    assert_eq!(base["map"], serde_json::Value::Null);
    let keys: Vec<&String> = base.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["map", "max_players", "min_players", "name", "title"]);
    // As many entries as `carto list` has lines.
    let (_, _, text) = carto("list-text", &[], &["list"]);
    assert_eq!(v.as_array().unwrap().len(), text.lines().count());
}

#[test]
fn bench_json() {
    let (code, err, out) = carto(
        "bench-json",
        &[],
        &[
            "bench", "base", "--games", "2", "--quiet", "--format", "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let row = &v[0];
    assert_eq!(
        (&row["variant"], &row["games"]),
        (&"base".into(), &2.into())
    );
    let keys: Vec<&String> = row.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["games", "games_per_second", "seconds", "variant"]);
}

// Item 7: a UTF-8 byte-order mark at the start of a file is accepted (not an invisible character).
#[test]
fn byte_order_mark_accepted() {
    let script = b"\xEF\xBB\xBFvariant base\ntiles D\n";
    let (code, err, out) = carto("bom", &[("s.script", script)], &["run", "s.script"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("game base on the endless table"), "{out}");
}

// Item 7: a name with a non-ASCII letter says that names are ASCII, at the word (6:7..6:11).
#[test]
fn non_ascii_name() {
    let rules = "variant \"v\" {\n  title = \"V\"\n  map = unbounded\n  players = 2..6\n}\nparam café = 3\n";
    case(
        "non_ascii_name",
        1,
        &[("v.rules", rules.as_bytes())],
        &["check", "v.rules"],
    );
}

// Item 7: a place outside the map says so with the board's range: iberia's grid is 30 columns by
// 12 rows, so x runs 0..=29 and y 0..=11.
#[test]
fn place_outside_the_map() {
    let script = "variant iberia\nplayers ann, bob\nstarts León, Pamplona, Évora\ntiles B, B, U, E\nchip 0 at map:999,999\n";
    case(
        "place_outside_the_map",
        1,
        &[("s.script", script.as_bytes())],
        &["run", "s.script"],
    );
}

// Item 7: `carto run` given a game log says so and points to `carto replay`.
#[test]
fn run_given_a_log() {
    let log = b"{\"type\":\"game_start\",\"variant\":\"base\"}\n";
    case(
        "run_given_a_log",
        1,
        &[("game.log", log)],
        &["run", "game.log"],
    );
}

// Item 7: `--set =3` says the name is missing and lists the real parameters.
#[test]
fn set_without_name() {
    case("set_without_name", 1, &[], &["play", "base", "--set", "=3"]);
}

// ------------------------------------------------------------------ item 5: replays from anywhere

/// Runs `carto ARGS` with `cwd` as the current folder; (exit code, stderr, stdout).
fn carto_in(cwd: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = common::carto_in(cwd, args);
    (code, err, out)
}

/// A folder with `house/h.rules` on `house/m.toml` and a game of it logged to `logs/g.log` (played
/// from the folder's root), and an empty folder `elsewhere` to replay from.
fn logged_house_game(case: &str) -> PathBuf {
    let dir = scratch(case);
    for sub in ["house", "logs", "elsewhere"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(dir.join("house/h.rules"), rules_on("m.toml")).unwrap();
    std::fs::write(dir.join("house/m.toml"), SMALL_MAP).unwrap();
    let r = carto_in(
        &dir,
        &["play", "house/h.rules", "--log", "logs/g.log", "--quiet"],
    );
    assert_eq!(r.0, 0, "{}", r.1);
    dir
}

/// The JSON of line `i` of a log.
fn log_line(path: &std::path::Path, i: usize) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(text.lines().nth(i).unwrap()).unwrap()
}

fn sha256_of(path: &std::path::Path) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(std::fs::read(path).unwrap());
    let hex: String = d.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

// The log names the rules relative to its own folder and every file read, with its SHA-256 (the
// same digest `sha256sum` gives the file), bundled files included.
#[test]
fn log_names_rules_relative_to_itself_with_hashes() {
    let dir = logged_house_game("log_hashes");
    let start = log_line(&dir.join("logs/g.log"), 0);
    assert_eq!(start["rules"], "../house/h.rules");
    let sources = start["sources"].as_object().unwrap();
    let keys: Vec<&str> = sources.keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "bundled:maps/tiles/base.toml",
            "bundled:rules/base.rules",
            "h.rules",
            "m.toml"
        ]
    );
    assert_eq!(sources["h.rules"], sha256_of(&dir.join("house/h.rules")));
    assert_eq!(sources["m.toml"], sha256_of(&dir.join("house/m.toml")));
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(
        sources["bundled:rules/base.rules"],
        sha256_of(&repo.join("rules/base.rules"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Replays `log` (relative to `dir/elsewhere`) from `dir/elsewhere` and snapshots the outcome. The
/// log's rules are outside its folder, so they are named with `--rules` (issue 18: a log reads only
/// in its own folder).
fn replay_case(name: &str, dir: &std::path::Path, log: &str, code: i32) {
    let house = dir.join("house").exists() && log.starts_with("../logs/");
    let args = if house {
        vec!["replay", log, "--rules", "../house/h.rules"]
    } else {
        vec!["replay", log]
    };
    let r = carto_in(&dir.join("elsewhere"), &args);
    let _ = std::fs::remove_dir_all(dir);
    assert_ne!(r.0, 101, "carto panicked:\n{}", report(&args, &r));
    assert_eq!(r.0, code, "wrong exit code:\n{}", report(&args, &r));
    insta::assert_snapshot!(name, report(&args, &r));
}

// Item 5: a log of a game with a rules file of one's own replays from another folder.
#[test]
fn replay_from_another_folder() {
    let dir = logged_house_game("replay_elsewhere");
    replay_case("replay_from_another_folder", &dir, "../logs/g.log", 0);
}

// Item 5: a map changed since (a comment added): the replay names it and still matches.
#[test]
fn replay_map_changed_still_matches() {
    let dir = logged_house_game("replay_map_comment");
    let map = dir.join("house/m.toml");
    let text = std::fs::read_to_string(&map).unwrap() + "# a comment added later\n";
    std::fs::write(&map, text).unwrap();
    replay_case("replay_map_changed_still_matches", &dir, "../logs/g.log", 0);
}

// Item 5: the start square moved on the map: the replay names the map as changed, and differs.
#[test]
fn replay_map_changed_differs() {
    let dir = logged_house_game("replay_map_moved");
    let map = dir.join("house/m.toml");
    let text = std::fs::read_to_string(&map)
        .unwrap()
        .replace("at = [2, 2]", "at = [3, 2]");
    std::fs::write(&map, text).unwrap();
    replay_case("replay_map_changed_differs", &dir, "../logs/g.log", 1);
}

// Item 5: the rules file gone from beside the log: its path as looked for.
#[test]
fn replay_rules_missing() {
    let dir = logged_house_game("replay_rules_gone");
    std::fs::remove_file(dir.join("house/h.rules")).unwrap();
    replay_case("replay_rules_missing", &dir, "../logs/g.log", 1);
}

/// A game of the bundled base logged to `elsewhere/g.log`, with line 0 passed through `edit`.
fn logged_base_game(case: &str, edit: impl Fn(&mut serde_json::Value)) -> PathBuf {
    logged_game(case, "base", edit)
}

/// A game of a bundled `variant` logged to `elsewhere/g.log`, with line 0 passed through `edit`.
fn logged_game(case: &str, variant: &str, edit: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let dir = scratch(case);
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    let r = carto_in(
        &dir.join("elsewhere"),
        &["play", variant, "--log", "g.log", "--quiet"],
    );
    assert_eq!(r.0, 0, "{}", r.1);
    let path = dir.join("elsewhere/g.log");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut start: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    edit(&mut start);
    lines[0] = start.to_string();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    dir
}

// Item 5: a bundled variant keeps working, and its bundled files are hashed too: a log played with
// other bundled rules (here: its hash edited) says the bundled rules changed, and still matches.
#[test]
fn replay_bundled_rules_changed() {
    let dir = logged_base_game("replay_bundled", |start| {
        assert_eq!(start["rules"], "base");
        let h = &mut start["sources"]["bundled:rules/base.rules"];
        assert!(h.as_str().unwrap().starts_with("sha256:"));
        *h = serde_json::json!(format!("sha256:{}", "0".repeat(64)));
    });
    replay_case("replay_bundled_rules_changed", &dir, "g.log", 0);
}

// Item 5: a log written before `sources` existed replays as before (nothing to compare).
#[test]
fn replay_log_without_sources() {
    let dir = logged_base_game("replay_no_sources", |start| {
        start.as_object_mut().unwrap().remove("sources");
    });
    replay_case("replay_log_without_sources", &dir, "g.log", 0);
}

// Item 7: a log re-written with other JSON spacing and key order replays, and says so.
#[test]
fn replay_other_spacing() {
    let dir = logged_base_game("replay_spacing", |_| {});
    let path = dir.join("elsewhere/g.log");
    let text = std::fs::read_to_string(&path).unwrap();
    let spaced: Vec<String> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            serde_json::to_string_pretty(&v).unwrap().replace('\n', " ")
        })
        .collect();
    std::fs::write(&path, spaced.join("\n") + "\n").unwrap();
    replay_case("replay_other_spacing", &dir, "g.log", 0);
}

// Item 7: a replay that differs names the first line that differs: the seed edited in game_start
// changes the setup, reported at the first line that differs (line 3: line 1 is game_start, line 2
// the start tile, the same; line 3 the tile dealt to the second start square, drawn from the
// shuffle), not at line 36, the first choice the replay cannot take.
#[test]
fn replay_names_the_first_difference() {
    let dir = logged_game("replay_first_difference", "france", |start| {
        start["seed"] = serde_json::json!(2);
    });
    replay_case("replay_names_the_first_difference", &dir, "g.log", 1);
}

// ------------------------------------------------------------------ item 7: the remaining weak messages

// Item 7: `blue` on the endless table (no colours declared) suggests nothing: `true` is two edits
// from it, another word rather than a typo.
#[test]
fn unknown_name_suggests_no_unlike_name() {
    let rules = "import \"base\"\nvariant \"t\" {\n  title = \"T\"\n}\nrule r on placed {\n  let c = blue\n}\n";
    case(
        "unknown_name_suggests_no_unlike_name",
        1,
        &[("v.rules", rules.as_bytes())],
        &["play", "v.rules"],
    );
}

// Item 7: tile sets of which none has a start tile: said at the header's `tiles`, as check finds it.
#[test]
fn check_tile_sets_without_a_start_tile() {
    let rules = "import \"base\"\nvariant \"t\" {\n  title = \"T\"\n  tiles = [\"t.toml\"]\n}\n";
    let set = "[[tile]]\nid = \"B\"\ncount = 4\nedges = \"FFFF\"\n\
               fields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Es\", \"Se\", \"Sw\", \"Ws\", \"Wn\"] }]\n\
               monastery = true\n";
    case(
        "check_tile_sets_without_a_start_tile",
        1,
        &[("v.rules", rules.as_bytes()), ("t.toml", set.as_bytes())],
        &["check", "v.rules"],
    );
}

// Item 7: a map that cannot load gives its own error, without a note about unchecked attributes.
#[test]
fn map_misspelt_suggests_the_bundled_map() {
    case(
        "map_misspelt_suggests_the_bundled_map",
        1,
        &[("v.rules", rules_on("frnace").as_bytes())],
        &["play", "v.rules"],
    );
}

// Newcomer finding: `check --map nomap` blames the map given on the command line, not the header's.
#[test]
fn check_map_option_missing() {
    case(
        "check_map_option_missing",
        1,
        &[
            ("v.rules", rules_on("m.toml").as_bytes()),
            ("m.toml", SMALL_MAP.as_bytes()),
        ],
        &["check", "v.rules", "--map", "nomap"],
    );
}

// Newcomer finding: `check` of a file without a `variant` header says `play` refuses it (a warning:
// the file is fine to import).
#[test]
fn check_file_without_a_variant_header() {
    let out = ok_case(
        "check_file_without_a_variant_header",
        &[("shared.rules", b"import \"base\"\noverride followers = 3\n")],
        &["check", "shared.rules"],
    );
    assert!(out.contains("0 errors, 1 warning"), "{out}");
}

// Item 7: a script's header statement after the first move is said to belong to the header.
#[test]
fn script_header_statement_after_a_move() {
    case(
        "script_header_statement_after_a_move",
        1,
        &[(
            "s.script",
            b"variant base\ntiles U, U\nplace U at 1,0 r0\nseed 3\n",
        )],
        &["run", "s.script"],
    );
}

// Item 7: a script's unknown variant is reported at its `variant` line.
#[test]
fn script_variant_misspelt_at_its_line() {
    case(
        "script_variant_misspelt_at_its_line",
        1,
        &[("s.script", b"# a game\nvariant bsae\n")],
        &["run", "s.script"],
    );
}

// Item 5: `carto render` and `carto view` read a log from another folder too (they replay it).
#[test]
fn render_and_view_a_log_from_another_folder() {
    let dir = logged_house_game("render_elsewhere");
    let here = dir.join("elsewhere");
    let rules = ["--rules", "../house/h.rules"];
    let r = carto_in(&here, &["render", "../logs/g.log", "-o", "board.svg"]);
    assert_eq!(r.0, 1, "{}", r.1);
    assert!(
        r.1.contains("a path that leaves the log's folder"),
        "{}",
        r.1
    );
    let r = carto_in(
        &here,
        &[
            "render",
            "../logs/g.log",
            "-o",
            "board.svg",
            rules[0],
            rules[1],
        ],
    );
    assert_eq!(r.0, 0, "{}", r.1);
    assert!(std::fs::read_to_string(here.join("board.svg"))
        .unwrap()
        .starts_with("<svg"));
    let r = carto_in(
        &here,
        &[
            "view",
            "../logs/g.log",
            "-o",
            "game.html",
            rules[0],
            rules[1],
        ],
    );
    assert_eq!(r.0, 0, "{}", r.1);
    assert!(here.join("game.html").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

// Item 5: the rules file broken since the game was played: its error, and that it changed since.
#[test]
fn replay_rules_broken_since() {
    let dir = logged_house_game("replay_rules_broken");
    let rules = dir.join("house/h.rules");
    let text = std::fs::read_to_string(&rules).unwrap() + "rule r on placed {\n";
    std::fs::write(&rules, text).unwrap();
    replay_case("replay_rules_broken_since", &dir, "../logs/g.log", 1);
}

// ------------------------------------------------------------------ issue 18 C, outside the battery

/// A value that is not UTF-8 where carto takes UTF-8 (a player's name) is named by its position
/// (clap said "one or more arguments"). A file's name may be any bytes: tests/typed_paths.rs.
#[test]
#[cfg(unix)]
fn a_non_utf8_argument_is_named() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = scratch("non_utf8_argument");
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9,bob");
    let out = Command::new(env!("CARGO_BIN_EXE_carto"))
        .args(["play", "base", "--players"])
        .arg(name)
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: argument 4 (`caf\u{FFFD},bob`) is not valid UTF-8"),
        "{err}"
    );
}

/// `check --format json` to a full disk says that it could not write, as well as failing.
#[test]
#[cfg(target_os = "linux")]
fn check_json_to_a_full_disk_says_so() {
    let dir = scratch("check_json_full");
    write_file(
        &dir,
        "v.rules",
        b"import \"base\"\nrule a on scored { nosuch }\n",
    );
    for file in ["v.rules", "base"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_carto"))
            .args(["check", "--format", "json", file])
            .current_dir(&dir)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(
            err.contains("error: cannot write to standard output"),
            "{file}: {err}"
        );
    }
}

/// `check` checks a map and a tile set as what they are: good ones pass.
#[test]
fn check_takes_maps_and_tile_sets() {
    let dir = scratch("check_map_tiles");
    write_file(&dir, "m.toml", SMALL_MAP.as_bytes());
    let root = env!("CARGO_MANIFEST_DIR");
    let tiles = format!("{root}/maps/tiles/base.toml");
    let france = format!("{root}/maps/france.toml");
    let (code, err, out) = carto_in(&dir, &["check", "m.toml", &tiles, &france]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!("m.toml: 0 errors, 0 warnings\n{tiles}: 0 errors, 0 warnings\n{france}: 0 errors, 0 warnings\n")
    );
}

/// `bench` stopped by Ctrl-C prints the rows measured so far (the games played before it) and
/// exits 130. The signal is sent once the bench has started playing: its progress bar is off, so
/// the test retries with a longer wait if the signal came before carto listened for it.
#[test]
#[cfg(unix)]
fn bench_interrupted_prints_its_rows() {
    use std::os::unix::process::ExitStatusExt as _;
    let dir = scratch("bench_ctrl_c");
    for wait in [2, 5, 10] {
        let child = Command::new(env!("CARGO_BIN_EXE_carto"))
            .args(["bench", "base", "france", "--games", "100000000", "--quiet"])
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_secs(wait));
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        if out.status.signal().is_some() {
            continue; // interrupted before the handler was set: try again, later
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{err}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{stdout}");
        assert!(lines[0].starts_with("variant"), "{stdout}");
        let games: u64 = lines[1].split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(
            lines[1].starts_with("base ") && games > 0 && games < 100_000_000,
            "{stdout}"
        );
        assert!(err.contains("interrupted"), "{err}");
        return;
    }
    panic!("carto bench never took the Ctrl-C");
}

// ------------------------------------------------------------------ issue 18 E, command-line habits

/// Runs `carto ARGS` in `dir` on a pseudo-terminal (`script`), with `env` set; its output (stdout
/// and stderr together, as a terminal shows them).
#[cfg(target_os = "linux")]
fn on_a_terminal(dir: &std::path::Path, env: &[(&str, &str)], args: &str) -> String {
    let cmd = format!("{} {args}", env!("CARGO_BIN_EXE_carto"));
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env_remove("NO_COLOR")
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Diagnostics are coloured on a terminal, unless `NO_COLOR` is set or `--color never`.
#[test]
#[cfg(target_os = "linux")]
fn colour_on_a_terminal_unless_no_color() {
    let dir = scratch("colour_terminal");
    write_file(
        &dir,
        "v.rules",
        b"import \"base\"\nrule a on scored { nosuch }\n",
    );
    let coloured = on_a_terminal(&dir, &[], "check v.rules");
    assert!(
        coloured.contains("expected `(`") && coloured.contains("\u{1b}["),
        "{coloured}"
    );
    let plain = on_a_terminal(&dir, &[("NO_COLOR", "1")], "check v.rules");
    assert!(
        plain.contains("expected `(`") && !plain.contains('\u{1b}'),
        "{plain}"
    );
    let never = on_a_terminal(&dir, &[], "check v.rules --color never");
    assert!(
        never.contains("expected `(`") && !never.contains('\u{1b}'),
        "{never}"
    );
}

/// `carto play` of search agents shows the turn on a terminal once a game takes over a second,
/// and clears the line at the end; into a pipe it shows nothing.
#[test]
#[cfg(target_os = "linux")]
fn play_shows_progress_on_a_terminal() {
    let dir = scratch("play_progress");
    let args = "play base --agents mcts:100 --quiet --seed 1";
    let shown = on_a_terminal(&dir, &[], args);
    assert!(shown.contains("\rplaying: turn "), "{shown}");
    assert!(shown.contains("tiles left) \r\u{1b}[K"), "{shown}");
    let (code, err, _) = carto_in(&dir, &args.split(' ').collect::<Vec<_>>());
    assert_eq!((code, err.as_str()), (0, ""));
}

/// The shells complete the bundled variant names, the parameter names of `--set`/`--vs` and the
/// agent names; the completions help says to create the folder first.
#[test]
fn completions_offer_variants_parameters_and_agents() {
    for shell in ["bash", "zsh", "fish"] {
        let (code, err, out) = carto(&format!("names-{shell}"), &[], &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for name in [
            "great-britain",
            "usa-west",
            "followers=",
            "farm_city=",
            "trade=",
            "greedy",
            "mcts",
        ] {
            assert!(out.contains(name), "{shell} completions lack `{name}`");
        }
    }
    let (_, _, bash) = carto("names-bash-play", &[], &["completions", "bash"]);
    let play = bash.split("carto__subcmd__play)").nth(1).unwrap();
    let opts = play.lines().find(|l| l.contains("opts=")).unwrap();
    assert!(
        opts.contains("--set") && opts.contains(" base benelux france "),
        "{opts}"
    );
    let (_, _, help) = carto("completions-help", &[], &["completions", "--help"]);
    assert!(
        help.contains("mkdir -p ~/.local/share/bash-completion/completions"),
        "{help}"
    );
    // The lists stay out of `--help`.
    let (_, _, help) = carto("play-help", &[], &["play", "--help"]);
    assert!(
        !help.contains("followers=") && !help.contains("great-britain"),
        "{help}"
    );
}

/// `check`'s problems go to stderr and its summary to stdout, as its help says.
#[test]
fn check_summary_on_stdout_problems_on_stderr() {
    let (code, err, out) = carto(
        "check_streams",
        &[("v.rules", b"import \"base\"\nrule a on scored { nosuch }\n")],
        &["check", "v.rules"],
    );
    assert_eq!(code, 1);
    assert_eq!(out, "v.rules: 1 error, 0 warnings\n");
    assert!(
        err.contains("v.rules:2:") && !err.contains("1 error"),
        "{err}"
    );
    let (_, _, help) = carto("check_help", &[], &["check", "--help"]);
    assert!(
        help.contains("the problems on stderr, then one summary line per file on stdout"),
        "{help}"
    );
}

/// The final scoring has its heading before the final scores even when the last tiles were
/// discarded (a map of three land squares: the draw of turn 3 finds no placeable tile).
#[test]
fn final_scoring_heading_after_discarded_tiles() {
    let map =
        "name = \"Strip\"\ngrid = \"\"\"\n~~~~~\n~...~\n~~~~~\n\"\"\"\n[legend]\n\"~\" = \"sea\"\n\
               \".\" = \"land\"\n[[start]]\nname = \"Home\"\nat = [2, 1]\n";
    let rules = "import \"base\"\nvariant \"strip\" {\n  title = \"Strip\"\n  map = \"m.toml\"\n  players = 2..6\n}\n";
    let (code, err, out) = carto(
        "final_heading",
        &[("m.toml", map.as_bytes()), ("s.rules", rules.as_bytes())],
        &["play", "s.rules", "--seed", "1"],
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let end = lines.iter().position(|l| *l == "game end").expect(&out);
    assert!(
        lines[end - 1].ends_with("has no legal place: discarded"),
        "{out}"
    );
    assert!(lines[end + 1].starts_with("final scores: "), "{out}");
    assert_eq!(
        lines.iter().filter(|l| **l == "game end").count(),
        1,
        "{out}"
    );
}

/// The installed binary carries no debug info; the profiling profile keeps it.
#[test]
fn release_profile_without_debug_info() {
    let cargo =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let release = cargo.split("[profile.release]").nth(1).unwrap();
    let release = release.split("\n[").next().unwrap();
    assert!(release.contains("debug = false"), "{release}");
    let profiling = cargo.split("[profile.profiling]").nth(1).unwrap();
    assert!(profiling.contains("inherits = \"release\"") && profiling.contains("debug = 1"));
}

/// Issue 18 B: the endless table reaches N + 2 squares from the start for a game of N tiles, so a
/// script of the most tiles a game may have (1,000) laid in one line is never short of table (a
/// discarded tile would leave a `place` line without its option, and the script would fail).
#[test]
fn the_endless_table_holds_a_line_of_the_most_tiles() {
    let dir = scratch("endless_line");
    let mut script = format!("variant base\ntiles {}\n", vec!["U"; 1000].join(", "));
    for x in 1..=1000 {
        script += &format!("place U at {x},0 r0\npass\n");
    }
    std::fs::write(dir.join("line.script"), script).unwrap();
    let (code, err, out) = carto_in(&dir, &["run", "line.script"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("place U at 1000,0 r0") && out.contains("game end"),
        "{out}"
    );
}

/// Issue 18 B: a map without a `name` is called after its file, not "game v on  · seed 1".
#[test]
fn a_map_without_a_name_is_called_after_its_file() {
    let dir = scratch("map_without_name");
    let map = "grid = \"\"\"\n~~~~~~\n~....~\n~.t..~\n~....~\n~~~~~~\n\"\"\"\n[legend]\n\
               \"~\" = \"sea\"\n\".\" = \"land\"\n\"t\" = { kind = \"land\", town = true }\n\
               [[start]]\nname = \"Home\"\nat = [2, 2]\n";
    std::fs::write(dir.join("small-isle.toml"), map).unwrap();
    let rules = "import \"base\"\nvariant \"v\" {\n  title = \"T\"\n  map = \"small-isle.toml\"\n  players = 2..6\n}\n";
    std::fs::write(dir.join("v.rules"), rules).unwrap();
    let (code, err, out) = carto_in(&dir, &["play", "v.rules"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("game v on small-isle · seed 1"), "{out}");
}
