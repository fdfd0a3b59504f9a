//! The battery of bad inputs (issue 12 item 7): about 150 rules files, maps, tile sets, scripts, logs
//! and command lines a user could get wrong. For each, the built binary must exit 1 (bad input) or 2
//! (bad usage) as the case says, never 0 or 101 (a panic), never run away (a time limit per case, as a
//! guard only), and name `file:line:col` when the problem is in a file. The messages are pinned, one
//! snapshot per group (`tests/snapshots/battery__*.snap`), and were read one by one.

use crate::common;

use common::{fresh_dir, write_file};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One bad input.
struct Case {
    name: String,
    files: Vec<(String, Vec<u8>)>,
    args: Vec<String>,
    /// The exit code carto must give.
    code: i32,
    /// The file whose `file:line:col` the message must name (`None`: the input is not a file, or a
    /// file with no line to point at, such as a missing or binary one).
    at: Option<String>,
}

fn case(name: &str, files: &[(&str, &str)], args: &str, code: i32, at: Option<&str>) -> Case {
    Case {
        name: name.into(),
        files: files
            .iter()
            .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
            .collect(),
        args: args.split_whitespace().map(String::from).collect(),
        code,
        at: at.map(String::from),
    }
}

/// The longest one case may take (debug build, a loaded machine): a guard against a run-away, not a
/// measure of speed.
const LIMIT: Duration = Duration::from_secs(60);

/// Runs one case in a fresh folder; (exit code, stderr, stdout).
fn run(group: &str, c: &Case) -> (i32, String, String) {
    let dir = fresh_dir("battery", &format!("{group}-{}", c.name));
    for (name, bytes) in &c.files {
        write_file(&dir, name, bytes);
    }
    let out = output_within(&dir, &c.args, LIMIT)
        .unwrap_or_else(|| panic!("{group}/{}: carto ran over {LIMIT:?}", c.name));
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// Runs carto with a time limit; `None` when it ran over (it is killed).
fn output_within(dir: &Path, args: &[String], limit: Duration) -> Option<(i32, String, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carto"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read both pipes on threads so a full pipe never blocks the child.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut so, &mut s).ok();
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut se, &mut s).ok();
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = String::from_utf8_lossy(&t_out.join().unwrap()).into_owned();
    let err = String::from_utf8_lossy(&t_err.join().unwrap()).into_owned();
    Some((status.code().unwrap_or(-1), err, out))
}

/// Whether `text` names `file:LINE:COL`.
fn names_line_col(text: &str, file: &str) -> bool {
    text.match_indices(&format!("{file}:")).any(|(i, m)| {
        let rest = &text[i + m.len()..];
        let mut parts = rest.splitn(3, ':');
        let line = parts.next().unwrap_or("");
        let col: String = parts
            .next()
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) && !col.is_empty()
    })
}

/// Runs a group: every case's assertions, then one snapshot of all the messages.
fn battery(group: &str, cases: Vec<Case>) {
    let mut report = String::new();
    let mut problems = Vec::new();
    for c in &cases {
        let (code, err, out) = run(group, c);
        let text = format!(
            "### {}\n$ carto {}\nexit: {code}\n{err}",
            c.name,
            c.args.join(" ")
        );
        if code == 101 || err.contains("panicked") {
            problems.push(format!("{}: panicked\n{text}", c.name));
        } else if code != c.code {
            let out: String = out.lines().take(3).collect::<Vec<_>>().join("\n");
            problems.push(format!(
                "{}: exit {code}, expected {}\n{text}{out}",
                c.name, c.code
            ));
        } else if err.trim().is_empty() {
            problems.push(format!("{}: no message on stderr", c.name));
        } else if let Some(f) = &c.at {
            if !names_line_col(&err, f) {
                problems.push(format!(
                    "{}: the message names no `{f}:line:col`\n{text}",
                    c.name
                ));
            }
        }
        report.push_str(&text);
        report.push('\n');
    }
    if let Ok(dir) = std::env::var("BATTERY_DUMP") {
        std::fs::write(format!("{dir}/{group}.txt"), &report).unwrap();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    insta::assert_snapshot!(group, report);
}

#[test]
fn names_line_col_finds_positions() {
    assert!(names_line_col("  ┌─ v.rules:4:3\n", "v.rules"));
    assert!(!names_line_col("error: no file `v.rules`", "v.rules"));
    assert!(!names_line_col("v.rules: 1 error", "v.rules"));
}

// ------------------------------------------------------------------ inputs

/// A rules file: a small variant on the endless table, then `body`.
fn rules(body: &str) -> String {
    format!("import \"base\"\nvariant \"t\" {{\n  title = \"T\"\n  players = 2..6\n}}\n{body}\n")
}

/// A rules file whose header is `header` (between the braces).
fn header(header: &str) -> String {
    format!("import \"base\"\nvariant \"t\" {{\n{header}\n}}\n")
}

/// A rules file on the map `m.toml`.
fn on_map() -> String {
    header("  title = \"T\"\n  map = \"m.toml\"\n  players = 2..6")
}

/// A rules file with the tile set `t.toml`.
fn with_tiles() -> String {
    header("  title = \"T\"\n  tiles = [\"t.toml\"]\n  players = 2..6")
}

const MAP: &str =
    "name = \"Small\"\ngrid = \"\"\"\n~~~~~~\n~....~\n~.t..~\n~....~\n~~~~~~\n\"\"\"\n\
[legend]\n\"~\" = \"sea\"\n\".\" = \"land\"\n\"t\" = { kind = \"land\", town = true }\n\
[[start]]\nname = \"Home\"\nat = [2, 2]\n";

/// A tile set with a start tile `S` (a road east–west) and `extra` tiles after it.
fn tiles(extra: &str) -> String {
    format!(
        "[[tile]]\nid = \"S\"\ncount = 2\nstart = 1\nedges = \"FRFR\"\n\
         roads = [{{ sides = \"EW\" }}]\n\
         fields = [{{ halves = [\"Nw\", \"Ne\", \"En\", \"Wn\"] }}, {{ halves = [\"Es\", \"Se\", \"Sw\", \"Ws\"] }}]\n\
         {extra}"
    )
}

/// A script of the base game with `body` after its header.
fn script(body: &str) -> String {
    format!("variant base\nplayers ann, bob\nseed 1\n{body}\n")
}

/// A case for a rules file `v.rules` holding `text`, run with `carto CMD v.rules`.
fn rules_case(name: &str, cmd: &str, text: &str) -> Case {
    case(
        name,
        &[("v.rules", text)],
        &format!("{cmd} v.rules"),
        1,
        Some("v.rules"),
    )
}

#[test]
fn bad_rules() {
    let r = |name: &str, body: &str| rules_case(name, "play", &rules(body));
    let c = |name: &str, body: &str| rules_case(name, "check", &rules(body));
    let h = |name: &str, head: &str| rules_case(name, "play", &header(head));
    let deep = format!(
        "rule r on placed {{\n  score(player, {}1{})\n}}",
        "(".repeat(300),
        ")".repeat(300)
    );
    let cases = vec![
        r("brace_missing", "rule r on placed {\n  score(player, 1)\n"),
        r("brace_extra", "rule r on placed {\n  score(player, 1)\n}\n}"),
        r("trigger_unknown", "rule r on flying {\n  score(player, 1)\n}"),
        r("trigger_missing", "rule r {\n  score(player, 1)\n}"),
        r("name_unknown", "rule r on placed {\n  score(player, nope)\n}"),
        r("name_colour_on_the_endless_table", "rule r on placed {\n  let c = blue\n}"),
        r("builtin_unknown", "rule r on placed {\n  fly(player)\n}"),
        r("builtin_too_few_arguments", "rule r on placed {\n  score(player)\n}"),
        r("builtin_too_many_arguments", "rule r on placed {\n  score(player, 1, 2)\n}"),
        r("argument_wrong_type", "rule r on placed {\n  score(player, true)\n}"),
        r("field_unknown", "rule r on scored {\n  score(feature.winners, feature.tilez)\n}"),
        r("field_of_an_int", "rule r on placed {\n  let x = 3\n  score(player, x.value)\n}"),
        r("number_too_large", "rule r on placed {\n  score(player, 99999999999999999999999)\n}"),
        r("rule_twice", "rule r on placed {\n  score(player, 1)\n}\nrule r on placed {\n  score(player, 2)\n}"),
        r("rule_and_action_one_name", "rule r on placed {\n  score(player, 1)\n}\naction r phase score {\n  score(player, 1)\n}"),
        r("param_twice", "param p: int = 1 \"a\"\nparam p: int = 2 \"b\""),
        r("param_shadows_imported", "param followers: int = 3 \"f\""),
        r("param_default_wrong_type", "param p: int = true \"a\""),
        r("param_default_outside_range", "param p: int in 0..3 = 7 \"a\""),
        r("param_range_reversed", "param p: int in 5..1 = 3 \"a\""),
        r("param_type_unknown", "param p: float = 1 \"a\""),
        r("param_no_default", "param p: int \"a\""),
        r("override_unknown", "override nosuch = 3"),
        r("override_wrong_type", "override followers = true"),
        r("override_outside_range", "override followers = 99"),
        r("statement_at_top_level", "score(player, 1)"),
        r("keyword_as_rule_name", "rule rule on placed {\n  score(player, 1)\n}"),
        r("rule_without_name", "rule on placed {\n  score(player, 1)\n}"),
        r("when_not_bool", "rule r on placed when 3 {\n  score(player, 1)\n}"),
        r("compare_kind_with_int", "rule r on scored when feature.kind == 3 {\n  score(feature.winners, 1)\n}"),
        r("add_bool_to_int", "rule r on placed {\n  score(player, 1 + true)\n}"),
        r("for_over_an_int", "rule r on placed {\n  for a in 3 {\n    score(player, 1)\n  }\n}"),
        r("argument_missing", "rule r on placed {\n  score(player, )\n}"),
        r("assign_to_a_param", "rule r on placed {\n  followers = 3\n}"),
        r("string_unterminated", "rule r on placed {\n  log(\"oops)\n}"),
        r("stray_character", "rule r on placed {\n  score(player, 1) @\n}"),
        r("name_not_ascii", "param café: int = 1 \"a\""),
        r("chips_unknown_shape", "chips {\n  purple one x 6\n}"),
        r("chip_value_too_large", "chips {\n  purple 300 x 6\n}"),
        r("chip_count_huge", "chips {\n  purple 1 x 99999999999\n}"),
        r("holding_twice", "holding isle\nholding isle"),
        r("action_phase_unknown", "action a phase sleep {\n  score(player, 1)\n}"),
        r("action_limit_negative", "action a phase score limit per_turn -1 {\n  score(player, 1)\n}"),
        r("choose_from_an_int", "action a phase score choose x: chips from 3 size 1..2 {\n  score(player, 1)\n}"),
        r("action_keyword_unknown", "action a phase score forced {\n  score(player, 1)\n}"),
        r("parentheses_too_deep", &deep),
        r("import_unknown", "import \"nosuch\""),
        r("import_misspelt", "import \"bsae\""),
        r("import_missing_file", "import \"lib/x.rules\""),
        r("import_itself", "import \"v.rules\""),
        c("check_name_unknown", "rule r on placed {\n  score(player, nope)\n}"),
        c("check_two_errors", "rule r on placed {\n  score(player, nope)\n  score(player, true)\n}"),
        h("header_key_unknown", "  titel = \"T\"\n  players = 2..6"),
        h("header_players_too_many", "  title = \"T\"\n  players = 2..9"),
        h("header_players_reversed", "  title = \"T\"\n  players = 6..2"),
        h("header_followers_negative", "  title = \"T\"\n  players = 2..6\n  followers = -1"),
        h("header_map_missing_file", "  title = \"T\"\n  map = \"nomap.toml\"\n  players = 2..6"),
        h("header_map_misspelt", "  title = \"T\"\n  map = \"frnace\"\n  players = 2..6"),
        h("header_map_a_number", "  title = \"T\"\n  map = 3\n  players = 2..6"),
        h("header_title_unterminated", "  title = \"T\n  players = 2..6"),
        h("header_key_twice", "  title = \"T\"\n  title = \"U\"\n  players = 2..6"),
        h("header_tiles_empty", "  title = \"T\"\n  tiles = []\n  players = 2..6"),
        r(
            "operation_budget",
            "rule forever on placed {\n  for a in 1..1000 {\n    for b in 1..1000 {\n      for c in 1..1000 {\n        score(player, 0)\n      }\n    }\n  }\n}",
        ),
        r("score_overflows", "rule huge on placed {\n  score(player, 9223372036854775807)\n}"),
        // Issue 18: silent acceptances of the checker.
        c(
            "choose_size_empty",
            "action a phase score\n    choose pay: chips from chips(hand(player)) size 3..1 {\n  score(player, 1)\n}",
        ),
        c("table_key_twice", "param p: table = {1: 1, 1: 2} \"a\"\nrule r on placed {\n  score(player, p[1])\n}"),
        c("division_by_zero", "rule r on scored {\n  score(feature.winners, feature.tiles / 0)\n}"),
        c("remainder_by_zero", "rule r on scored {\n  score(feature.winners, feature.tiles % 0)\n}"),
        rules_case(
            "variant_name_a_path",
            "doc",
            "import \"base\"\nvariant \"../x\" {\n  title = \"T\"\n}\n",
        ),
        rules_case("variant_name_empty", "check", "import \"base\"\nvariant \"\" {\n}\n"),
        rules_case("variant_without_braces", "check", "import \"base\"\nvariant \"x\"\n"),
        rules_case(
            "title_with_a_newline",
            "check",
            "import \"base\"\nvariant \"t\" {\n  title = \"a\\nb\"\n}\n",
        ),
        rules_case("import_absolute", "check", "import \"/etc/passwd\"\n"),
        case(
            "check_map_option_missing",
            &[("v.rules", &rules(""))],
            "check v.rules --map nomap",
            1,
            None,
        ),
    ];
    battery("rules", cases);
}

/// A case for the rules file `v.rules` holding `rules` with the file `file` beside it holding
/// `text`, run with `carto play v.rules`; the message must point into `at`.
fn beside_case(name: &str, rules: &str, (file, text): (&str, &str), at: &str) -> Case {
    case(
        name,
        &[("v.rules", rules), (file, text)],
        "play v.rules",
        1,
        Some(at),
    )
}

/// A case for the map `m.toml` holding `map`, played by a rules file on it.
fn map_case(name: &str, map: &str) -> Case {
    beside_case(name, &on_map(), ("m.toml", map), "m.toml")
}

#[test]
fn bad_maps() {
    let m = |name: &str, from: &str, to: &str| {
        assert!(MAP.contains(from), "{name}: `{from}` is not in the map");
        map_case(name, &MAP.replacen(from, to, 1))
    };
    let big = format!(
        "name = \"Big\"\ngrid = \"\"\"\n{}\"\"\"\n[legend]\n\".\" = \"land\"\n[[start]]\nname = \"A\"\nat = [1, 1]\n",
        format!("{}\n", ".".repeat(300)).repeat(300)
    );
    let cases = vec![
        map_case("not_toml", "this is not toml\n"),
        // Issue 18.
        m("start_name_empty", "name = \"Home\"", "name = \"\""),
        m(
            "slots_over_the_limit",
            "town = true }",
            "town = true, attrs = { slots = 100 } }",
        ),
        map_case(
            "no_land",
            "name = \"Wet\"\ngrid = \"\"\"\n~~~\n~~~\n\"\"\"\n[legend]\n\"~\" = \"sea\"\n",
        ),
        map_case("empty", ""),
        m(
            "grid_missing",
            "grid = \"\"\"\n~~~~~~\n~....~\n~.t..~\n~....~\n~~~~~~\n\"\"\"\n",
            "",
        ),
        m("grid_empty", "~~~~~~\n~....~\n~.t..~\n~....~\n~~~~~~\n", ""),
        m("grid_ragged", "~.t..~", "~.t..~~~"),
        m(
            "grid_a_number",
            "grid = \"\"\"\n~~~~~~\n~....~\n~.t..~\n~....~\n~~~~~~\n\"\"\"",
            "grid = 3",
        ),
        m("legend_missing_a_character", "\"~\" = \"sea\"\n", ""),
        m("legend_kind_unknown", "\".\" = \"land\"", "\".\" = \"lnd\""),
        m(
            "legend_key_two_characters",
            "\"~\" = \"sea\"",
            "\"~~\" = \"sea\"",
        ),
        m("legend_value_a_number", "\".\" = \"land\"", "\".\" = 3"),
        m("attribute_wrong_type", "town = true", "town = \"yes\""),
        m(
            "key_unknown",
            "name = \"Small\"",
            "name = \"Small\"\ncolour = \"red\"",
        ),
        m("start_outside", "at = [2, 2]", "at = [9, 2]"),
        m("start_in_sea", "at = [2, 2]", "at = [0, 0]"),
        m("start_negative", "at = [2, 2]", "at = [-1, 2]"),
        m("start_three_numbers", "at = [2, 2]", "at = [2, 2, 2]"),
        m("start_strings", "at = [2, 2]", "at = [\"2\", \"2\"]"),
        m("start_without_name", "name = \"Home\"\n", ""),
        m(
            "start_twice",
            "at = [2, 2]\n",
            "at = [2, 2]\n[[start]]\nname = \"Home\"\nat = [3, 2]\n",
        ),
        m(
            "part_missing",
            "[[start]]",
            "[[part]]\nmap = \"nopart.toml\"\noffset = [0, 0]\n[[start]]",
        ),
        m(
            "part_itself",
            "[[start]]",
            "[[part]]\nmap = \"m.toml\"\noffset = [0, 0]\n[[start]]",
        ),
        m(
            "part_far_away",
            "[[start]]",
            "[[part]]\nmap = \"m.toml\"\noffset = [99999, 0]\n[[start]]",
        ),
        map_case("too_many_squares", &big),
        beside_case(
            "file_misspelt",
            &on_map().replace("m.toml", "mm.toml"),
            ("m.toml", MAP),
            "v.rules",
        ),
    ];
    battery("maps", cases);
}

/// A case for the tile set `t.toml` holding `set`, played by a rules file that names it.
fn tiles_case(name: &str, set: &str) -> Case {
    beside_case(name, &with_tiles(), ("t.toml", set), "t.toml")
}

#[test]
fn bad_tile_sets() {
    let t = |name: &str, extra: &str| tiles_case(name, &tiles(extra));
    let edit = |name: &str, from: &str, to: &str| {
        let set = tiles("");
        assert!(set.contains(from), "{name}: `{from}` is not in the set");
        tiles_case(name, &set.replacen(from, to, 1))
    };
    let tile = |body: &str| format!("[[tile]]\nid = \"A\"\ncount = 2\n{body}\n");
    // No start tile in any set: said at the header's `tiles`, where the sets are named.
    let no_start =
        |set: &str| beside_case("no_start_tile", &with_tiles(), ("t.toml", set), "v.rules");
    let rules_of = |list: &str| {
        header(&format!(
            "  title = \"T\"\n  tiles = [{list}]\n  players = 2..6"
        ))
    };
    // A rules file naming the sets `list`, with nothing beside it.
    let sets = |name: &str, list: &str| rules_case(name, "play", &rules_of(list));
    let cases = vec![
        tiles_case("not_toml", "this is not toml\n"),
        tiles_case("no_tiles", "# nothing\n"),
        edit("edges_missing", "edges = \"FRFR\"\n", ""),
        edit("edges_too_short", "edges = \"FRFR\"", "edges = \"FRF\""),
        edit("edge_letter_unknown", "edges = \"FRFR\"", "edges = \"FRXR\""),
        edit("id_missing", "id = \"S\"\n", ""),
        edit("id_empty", "id = \"S\"", "id = \"\""),
        edit("count_zero", "count = 2", "count = 0"),
        edit("count_negative", "count = 2", "count = -2"),
        edit("count_huge", "count = 2", "count = 99999999999"),
        edit("count_a_string", "count = 2", "count = \"two\""),
        edit("start_more_than_count", "start = 1", "start = 3"),
        edit("start_not_a_number", "start = 1", "start = \"yes\""),
        edit("road_side_unknown", "sides = \"EW\"", "sides = \"EQ\""),
        edit("road_on_a_field_edge", "sides = \"EW\"", "sides = \"NS\""),
        edit("half_unknown", "\"Nw\", \"Ne\"", "\"Nw\", \"Nx\""),
        edit("key_unknown", "count = 2", "count = 2\ncolour = \"red\""),
        t("id_twice", &tile("start = 0\nedges = \"FRFR\"\nroads = [{ sides = \"EW\" }]").replace("\"A\"", "\"S\"")),
        t("monastery_a_number", &tile("edges = \"FFFF\"\nmonastery = 3")),
        t("city_on_a_field_edge", &tile("edges = \"FFFF\"\ncities = [{ sides = \"N\" }]")),
        no_start(&tile("edges = \"FFFF\"\nfields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Es\", \"Se\", \"Sw\", \"Ws\", \"Wn\"] }]\nmonastery = true")),
        sets("set_missing", "\"nosuch.toml\""),
        sets("set_misspelt", "\"basee\""),
        beside_case(
            "set_file_misspelt",
            &rules_of("\"tiels.toml\""),
            ("tiles.toml", &tiles("")),
            "v.rules",
        ),
        sets("no_sets", ""),
        edit("id_not_a_name", "id = \"S\"", "id = \"A,B at 0\""),
        sets("set_a_number", "3"),
    ];
    battery("tile_sets", cases);
}

/// A case for the script `s.script` holding `text` (and `files` beside it).
fn script_case(name: &str, text: &str, files: &[(&str, &str)]) -> Case {
    let mut all = vec![("s.script", text)];
    all.extend_from_slice(files);
    case(name, &all, "run s.script", 1, Some("s.script"))
}

#[test]
fn bad_scripts() {
    let s = |name: &str, body: &str| script_case(name, &script(body), &[]);
    let raw = |name: &str, text: &str| script_case(name, text, &[]);
    let cases = vec![
        raw("empty", ""),
        s(
            "tiles_over_the_limit",
            &format!("tiles {}", vec!["U"; 1001].join(",")),
        ),
        raw("variant_missing", "players ann, bob\nplace U at 1,0 r0\n"),
        raw("variant_unknown", "variant nosuch\n"),
        raw("variant_misspelt", "variant bsae\n"),
        raw("variant_file_missing", "variant lib/house.rules\n"),
        raw("variant_twice", "variant base\nvariant base\n"),
        raw("players_one", "variant base\nplayers ann\n"),
        raw(
            "players_seven",
            "variant base\nplayers a, b, c, d, e, f, g\n",
        ),
        raw("players_twice", "variant base\nplayers ann, ann\n"),
        raw("players_empty_name", "variant base\nplayers ann, , bob\n"),
        raw("seed_negative", "variant base\nseed -1\n"),
        raw("seed_a_word", "variant base\nseed seven\n"),
        raw(
            "seed_too_large",
            "variant base\nseed 99999999999999999999999\n",
        ),
        raw("set_unknown", "variant base\nset nosuch = 3\n"),
        raw("set_wrong_type", "variant base\nset followers = many\n"),
        raw("set_outside_range", "variant base\nset followers = 99\n"),
        raw("set_without_value", "variant base\nset followers\n"),
        raw("starts_on_the_endless_table", "variant base\nstarts Home\n"),
        raw("tiles_unknown", "variant base\ntiles U, Q9\n"),
        raw("tiles_empty", "variant base\ntiles\n"),
        raw(
            "chip_on_the_endless_table",
            "variant base\nchip 3 at map:1,1\n",
        ),
        raw("chip_unknown_id", "variant france\nchip 99 at map:4,5\n"),
        raw("chip_unknown_place", "variant france\nchip 3 at moon\n"),
        raw(
            "chip_outside_the_map",
            "variant france\nchip 3 at map:999,999\n",
        ),
        raw(
            "header_after_moves",
            "variant base\ntiles U, U\nplace U at 1,0 r0\nseed 3\n",
        ),
        s("place_illegal", "tiles U, U\nplace U at 5,5 r0"),
        s("place_wrong_tile", "tiles U, U\nplace V at 1,0 r0"),
        s("place_rotation_45", "tiles U, U\nplace U at 1,0 r45"),
        s("place_no_rotation", "tiles U, U\nplace U at 1,0"),
        s("place_garbage", "tiles U, U\nplace U at one,zero r0"),
        s(
            "follower_illegal",
            "tiles U, U\nplace U at 1,0 r0\nfollower city N",
        ),
        s("statement_unknown", "tiles U, U\nfly away"),
        s(
            "expect_score_wrong",
            "tiles U, U\nplace U at 1,0 r0\npass\nexpect score ann 5",
        ),
        s(
            "expect_player_unknown",
            "tiles U, U\nplace U at 1,0 r0\npass\nexpect score cyd 0",
        ),
        s("expect_options_wrong", "tiles U, U\nexpect options 99"),
        s("expect_unknown", "tiles U, U\nexpect weather sunny"),
        s("rest_unknown", "tiles U, U\nrest greedy"),
        s(
            "move_after_the_end",
            "tiles U\nplace U at 1,0 r0\npass\nplace U at 2,0 r0",
        ),
        case(
            "rules_file_broken",
            &[
                ("s.script", "variant v.rules\n"),
                ("v.rules", "variant \"t\" {\n  title = \n}\n"),
            ],
            "run s.script",
            1,
            Some("v.rules"),
        ),
        script_case("a_log", "{\"event\":\"game_start\"}\n", &[]),
    ];
    battery("scripts", cases);
}

/// A game log of the base game, written by the built binary.
fn base_log() -> String {
    let dir = fresh_dir("battery", "log");
    let args: Vec<String> = "play base --seed 4 --log g.log --quiet"
        .split(' ')
        .map(String::from)
        .collect();
    let (code, err, _) = output_within(&dir, &args, LIMIT).unwrap();
    assert_eq!(code, 0, "{err}");
    let log = std::fs::read_to_string(dir.join("g.log")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    log
}

/// A case for the log `g.log` holding `text`, replayed.
fn log_case(name: &str, text: &str, at: Option<&str>) -> Case {
    case(name, &[("g.log", text)], "replay g.log", 1, at)
}

#[test]
fn bad_logs() {
    let log = base_log();
    let lines: Vec<&str> = log.lines().collect();
    let start: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    // The log with its first line edited.
    let with_start = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut s = start.clone();
        edit(&mut s);
        let mut out = vec![s.to_string()];
        out.extend(lines[1..].iter().map(|l| l.to_string()));
        out.join("\n") + "\n"
    };
    let at = Some("g.log");
    let turn_end = lines
        .iter()
        .position(|l| l.contains("\"turn_end\""))
        .unwrap();
    let mut wrong_choice: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    wrong_choice[turn_end] = wrong_choice[turn_end].replace("place ", "place Q9 at 40,40 r0 ");
    let cases = vec![
        log_case("empty", "", at),
        log_case("not_json", "this is not json\n", at),
        log_case("json_but_not_an_object_line", "[1, 2, 3]\n", at),
        log_case("first_line_not_game_start", &lines[1..].join("\n"), at),
        log_case(
            "seed_missing",
            &with_start(&|s| {
                s.as_object_mut().unwrap().remove("seed");
            }),
            at,
        ),
        log_case(
            "seed_a_string",
            &with_start(&|s| s["seed"] = "four".into()),
            at,
        ),
        log_case(
            "rules_missing",
            &with_start(&|s| {
                let o = s.as_object_mut().unwrap();
                o.remove("rules");
                o.remove("variant");
            }),
            at,
        ),
        log_case(
            "rules_unknown",
            &with_start(&|s| s["rules"] = "nosuch".into()),
            None,
        ),
        log_case(
            "rules_file_missing",
            &with_start(&|s| s["rules"] = "lib/house.rules".into()),
            at,
        ),
        log_case(
            "players_one",
            &with_start(&|s| s["players"] = serde_json::json!(["ann"])),
            at,
        ),
        log_case(
            "param_unknown",
            &with_start(&|s| s["params"]["nosuch"] = 3.into()),
            None,
        ),
        log_case(
            "param_wrong_type",
            &with_start(&|s| s["params"]["followers"] = "many".into()),
            None,
        ),
        log_case(
            "tiles_unknown",
            &with_start(&|s| s["tiles"] = serde_json::json!(["Q9"])),
            at,
        ),
        log_case(
            "choice_not_an_option",
            &(wrong_choice.join("\n") + "\n"),
            at,
        ),
        log_case(
            "ends_early",
            &(lines[..lines.len() / 2].join("\n") + "\n"),
            at,
        ),
        log_case("line_added", &(log.clone() + lines[1] + "\n"), at),
        log_case(
            "line_missing",
            &(lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != 1)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"),
            at,
        ),
        log_case("a_script", "variant base\nplayers ann, bob\n", at),
        case("binary", &[], "replay /bin/sh", 1, None),
    ];
    battery("logs", cases);
}

#[test]
fn bad_command_lines() {
    let u = |name: &str, args: &str| case(name, &[], args, 2, None);
    let i = |name: &str, args: &str| case(name, &[], args, 1, None);
    let cases = vec![
        u("no_command", ""),
        u("command_unknown", "plya base"),
        u("play_without_variant", "play"),
        u("option_unknown", "play base --speed 3"),
        u("seed_a_word", "play base --seed abc"),
        u("seed_negative", "play base --seed -1"),
        u("seed_too_large", "play base --seed 99999999999999999999999"),
        u("players_one", "play base --players ann"),
        u("players_seven", "play base --players a,b,c,d,e,f,g"),
        u("players_twice", "play base --players ann,ann"),
        u("players_empty", "play base --players="),
        u("agents_unknown", "play base --agents genius"),
        u(
            "agents_three_for_two",
            "play base --agents random,random,random",
        ),
        u("quiet_and_verbose", "play base --quiet --verbose"),
        u("starts_on_the_endless_table", "play base --starts Home"),
        i("variant_unknown", "play nosuch"),
        i("variant_misspelt", "play bsae"),
        i("rules_file_missing", "play lib/house.rules"),
        i("set_without_equals", "play base --set followers"),
        i("set_unknown", "play base --set nosuch=1"),
        i("set_wrong_type", "play base --set followers=many"),
        i("set_outside_range", "play base --set followers=99"),
        i("set_table_wrong_type", "play ukraine --set trade=many"),
        u("bench_zero_games", "bench base --games 0"),
        u("bench_games_a_word", "bench base --games many"),
        u("sim_zero_threads", "sim base --threads 0"),
        u("format_unknown", "check rules/x.rules --format xml"),
        u("check_without_files", "check"),
        u("completions_unknown_shell", "completions tcsh"),
        i("doc_against_unknown", "doc base --against nosuch"),
        u("render_turn_negative", "render x.log --turn -1"),
        i("replay_missing_file", "replay nosuch.log"),
        i("run_missing_file", "run nosuch.script"),
        i("render_missing_file", "render nosuch.log"),
        i("view_missing_file", "view nosuch.log -o x.html"),
    ];
    battery("command_lines", cases);
}

/// A case whose files are bytes (not text).
fn bytes_case(
    name: &str,
    files: &[(&str, &[u8])],
    args: &str,
    code: i32,
    at: Option<&str>,
) -> Case {
    Case {
        files: files
            .iter()
            .map(|(n, b)| (n.to_string(), b.to_vec()))
            .collect(),
        ..case(name, &[], args, code, at)
    }
}

/// Issue 18 C: the weak messages, each with its case. The snapshot `battery__messages.snap` shows
/// what each now says (read one by one): a long name or line is cut and its length said; a map's
/// slot limit is said with its square and is a setup problem, not an action's; `--out` naming a
/// file says so; `import "."` says it is a folder; NUL and non-UTF-8 bytes and CR-only line endings
/// get `file:line:col` where the user's editor puts them; `check` checks a map; the reason at the
/// bottom of a chain of map parts comes first; "an array"; `replay -` reads standard input.
#[test]
fn weak_messages() {
    let long_name = "n".repeat(100_000);
    let long_line = format!(
        "import \"base\"\n# {}\nfoo {}\n",
        "c".repeat(1_000_000),
        "d".repeat(1_000_000)
    );
    let tiny = std::fs::read_to_string("tests/scripts/ukraine/tiny.toml")
        .unwrap()
        .replace("slots = 4", "slots = 2");
    let slotty = "import \"ukraine\"\nvariant \"slotty\" {\n  title = \"Slotty\"\n  map = \"tiny.toml\"\n  \
                  players = 2..5\n  start_squares = 1\n}\nsetup {\n  for s in slot_squares() {\n    \
                  move([c in chips(supply) where c.value < 4], slots(s), up)\n  }\n}\n";
    // Parts nested 6 deep; the last one's legend has a typo.
    let mut parts: Vec<(String, String)> = (1..6)
        .map(|i| {
            (
                format!("p{i}.toml"),
                format!(
                    "name = \"p{i}\"\n[[part]]\nmap = \"p{}.toml\"\noffset = [0, 0]\n",
                    i + 1
                ),
            )
        })
        .collect();
    parts.push((
        "p6.toml".into(),
        MAP.replace("\".\" = \"land\"", "\".\" = \"lnad\""),
    ));
    parts.push((
        "v.rules".into(),
        header("  title = \"T\"\n  map = \"p1.toml\"\n  players = 2..6"),
    ));
    let parts: Vec<(&str, &str)> = parts
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let cases = vec![
        rules_case(
            "name_of_100000_characters",
            "check",
            &rules(&format!("param {long_name}: int = nosuch\n")),
        ),
        rules_case("line_of_1_mb", "check", &long_line),
        case(
            "slot_limit_of_the_map",
            &[("u.rules", slotty), ("tiny.toml", &tiny)],
            "play u.rules --seed 1 --quiet",
            1,
            None,
        ),
        case(
            "doc_out_names_a_file",
            &[("gen/good.log", "")],
            "doc base --out gen/good.log",
            1,
            None,
        ),
        rules_case("import_a_folder", "check", "import \".\"\n"),
        bytes_case(
            "nul_byte",
            &[("v.rules", b"import \"base\"\nrule a on scored {\n  score(fe\0ature.winners, 1)\n}\n")],
            "check v.rules",
            1,
            Some("v.rules"),
        ),
        bytes_case(
            "latin1_byte",
            &[("v.rules", b"import \"base\"\n# caf\xe9 au lait\n")],
            "check v.rules",
            1,
            Some("v.rules"),
        ),
        rules_case(
            "cr_only_line_endings",
            "check",
            "import \"base\"\r# a comment\rrule a on scored {\r  score(feature.winners, nosuch)\r}\r",
        ),
        case(
            "check_a_map",
            &[("my-map.toml", &MAP.replace("~.t..~", "~.t.x~"))],
            "check my-map.toml",
            1,
            Some("my-map.toml"),
        ),
        case("chain_of_map_parts", &parts, "check v.rules", 1, Some("p1.toml")),
        case(
            "attribute_an_array",
            &[
                ("v.rules", &on_map()),
                ("m.toml", &MAP.replace("town = true }", "town = true, attrs = { band = [1, 2] } }")),
            ],
            "check v.rules",
            1,
            Some("m.toml"),
        ),
        case("replay_dash_reads_standard_input", &[], "replay -", 1, None),
    ];
    battery("messages", cases);
}
