//! One snapshot per kind of diagnostic: the source and the rendered diagnostics together.

use crate::common;

use carto::diag::Source;
use carto::lang::check::{check_source, render, RulesResolver};
use carto::map::{AttrValue, MapBoard, Square, SquareKind};
use std::collections::BTreeMap;

/// Imports from memory: `lib` and the two halves of a cycle.
struct Mem;

impl RulesResolver for Mem {
    fn resolve(&self, name: &str, _from: &Source) -> Result<Source, String> {
        let text = match name {
            "lib" => "param points: int = 2 \"points\"\nrule lib_rule on placed { score(player, points) }\n",
            "cycle_a" => "import \"cycle_b\"\n",
            "cycle_b" => "import \"cycle_a\"\n",
            "forced_lib" => "forced tax when turn_number() == 1 { }\n",
            _ => return Err(format!("no rules named `{name}` here")),
        };
        Ok(Source::new(format!("{name}.rules"), text))
    }
}

fn test_map() -> MapBoard {
    let mut attrs = BTreeMap::new();
    attrs.insert("wine".to_string(), AttrValue::Str("purple".into()));
    attrs.insert("band".to_string(), AttrValue::Int(1));
    MapBoard {
        name: "testmap".into(),
        doc: String::new(),
        width: 1,
        height: 1,
        squares: vec![Square {
            kind: SquareKind::Land,
            town: true,
            name: None,
            start: None,
            large_city: None,
            island: None,
            attrs,
        }],
        starts: Vec::new(),
        ferries: Vec::new(),
        exits: Vec::new(),
        large_cities: Vec::new(),
        islands: Vec::new(),
        groups: Vec::new(),
        face_down_colour: None,
    }
}

fn check(src: &str) -> String {
    let source = Source::new("test.rules", src);
    let result = check_source(&source, &Mem, &|name, _| {
        if name == "testmap" {
            Ok(test_map())
        } else {
            Err(format!("there is no map named `{name}`"))
        }
    });
    common::source_and_diagnostics(src, &render(&result))
}

macro_rules! snap {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            let out = check($src);
            assert!(
                out.contains("error") || out.contains("warning"),
                "no diagnostic:\n{out}"
            );
            insta::assert_snapshot!(stringify!($name), out);
        }
    };
}

// ---------------------------------------------------------------- syntax
snap!(
    syntax_missing_comma,
    "rule r on placed {\n  score(player 2)\n}\n"
);
snap!(
    syntax_unclosed_block,
    "rule r on placed {\n  score(player, 2)\n\nrule s on placed { }\n"
);
snap!(
    syntax_missing_value,
    "param x: int =\nrule r on placed { }\n"
);
snap!(
    syntax_unterminated_string,
    "variant \"v\" {\n  title = \"Carcassonne\n}\n"
);
snap!(syntax_bad_escape, "variant \"v\" { title = \"a\\qb\" }\n");
snap!(
    syntax_number_too_large,
    "param x: int = 99999999999999999999\n"
);
snap!(
    syntax_nesting_too_deep,
    &format!(
        "rule r on placed {{ let x = {}1{} }}\n",
        "(".repeat(70),
        ")".repeat(70)
    )
);
snap!(syntax_not_an_item, "rule r on placed { }\n}\n");
snap!(syntax_keyword_as_name, "rule if on placed { }\n");

// ---------------------------------------------------------------- names and types
snap!(
    unknown_name,
    "param road_tile: int = 1\nrule r on scored { score(feature.winners, road_tiles) }\n"
);
snap!(
    type_mismatch_argument,
    "rule r on scored { score(feature.winners, true) }\n"
);
snap!(
    unknown_field,
    "rule r on scored { score(feature.winers, 1) }\n"
);
snap!(
    field_of_list,
    "rule r on placed { let v = chips(hand(player)).value }\n"
);
snap!(unknown_builtin, "rule r on placed { scroe(player, 1) }\n");
snap!(builtin_arity, "rule r on placed { score(player) }\n");
snap!(
    builtin_list_argument,
    "rule r on placed { let n = len(3) }\n"
);
snap!(query_as_statement, "rule r on placed { len(squares()) }\n");
snap!(
    effect_as_value,
    "rule r on placed { let x = score(player, 1) }\n"
);
snap!(expected_list, "rule r on placed { for s in 3 { } }\n");
snap!(cannot_compare, "rule r on placed when player == 3 { }\n");
snap!(cannot_index, "rule r on placed { let x = player[1] }\n");
snap!(condition_not_bool, "rule r on placed { if 1 + 1 { } }\n");
snap!(
    count_with_map,
    "rule r on placed when count(c in chips(hand(player)): c.value) > 0 { }\n"
);
snap!(
    sum_needs_numbers,
    "rule r on placed when sum(c in chips(hand(player))) > 0 { }\n"
);
snap!(list_mixed_types, "rule r on placed { let l = [1, true] }\n");
snap!(
    table_not_constant,
    "rule r on placed { let t = {1: player} }\n"
);
snap!(unknown_type, "param x: integer = 1\n");
snap!(param_list_type, "param x: list<int> = []\n");
snap!(param_default_type, "param x: int = true\n");
snap!(param_default_not_constant, "param x: int = 1 + 2\n");
snap!(
    param_default_not_allowed,
    "param m: string = \"both\" one of [\"colour\", \"value\"]\n"
);
snap!(param_unused, "param unused: int = 1 \"never read\"\n");
snap!(already_defined, "chips { purple 1 x 6 }\nholding purple\n");

// ---------------------------------------------------------------- items
snap!(import_not_found, "import \"nowhere\"\n");
snap!(import_cycle, "import \"cycle_a\"\n");
snap!(
    param_duplicate_imported,
    "import \"lib\"\nparam points: int = 3\n"
);
snap!(
    param_duplicate_local,
    "param x: int = 1\nparam x: int = 2\nrule r on placed { score(player, x) }\n"
);
snap!(override_unknown, "import \"lib\"\noverride pionts = 3\n");
snap!(
    override_wrong_type,
    "import \"lib\"\noverride points = \"three\"\n"
);
snap!(
    unknown_header_key,
    "variant \"v\" {\n  title = \"V\"\n  mapp = \"x\"\n}\n"
);
snap!(
    duplicate_header_key,
    "variant \"v\" {\n  title = \"V\"\n  title = \"W\"\n}\n"
);
snap!(header_value_type, "variant \"v\" {\n  players = 4\n}\n");
snap!(second_variant, "variant \"v\" { }\nvariant \"w\" { }\n");
snap!(map_not_a_name, "variant \"v\" { map = 3 }\n");
snap!(map_not_found, "variant \"v\" { map = \"atlantis\" }\n");
snap!(
    map_attribute_unknown,
    "variant \"v\" { map = \"testmap\" }\nrule r on placed when square.wien == \"purple\" { }\n"
);
snap!(
    map_attribute_named_unknown,
    "variant \"v\" { map = \"testmap\" }\nrule r on placed when len(squares_with(\"wien\", 1)) > 0 { }\n"
);
snap!(
    map_attribute_unbounded,
    "variant \"v\" { map = unbounded }\nrule r on placed when square.band == 1 { }\n"
);
snap!(
    second_chips,
    "chips { purple 1 x 6 }\nchips { blue 1 x 6 }\n"
);
snap!(chip_count_zero, "chips { purple 1 x 0 }\n");
snap!(
    duplicate_rule,
    "rule r on placed { }\nrule r on scored { }\n"
);
snap!(duplicate_action, "action a { }\naction a { }\n");
snap!(
    duplicate_choice,
    "action a choose s: squares() choose s: squares() { }\n"
);
snap!(unknown_trigger, "rule r on placd { }\n");
snap!(unknown_phase, "action a phase scoring { }\n");
snap!(unknown_limit, "action a limit no_followers { }\n");
snap!(unknown_limit_unit, "action a limit per turns 1 { }\n");
snap!(limit_never, "action a limit per turn 0 { }\n");
snap!(
    limit_no_follower_at_start,
    "action a phase start limit no_follower { }\n"
);
snap!(when_false, "rule r on placed when false { }\n");
snap!(forced_when_false, "forced f when not true { }\n");
snap!(
    abroad_without_exits,
    "variant \"v\" { map = \"testmap\" }\nrule r on abroad { }\n"
);
// Issue 17, B: redefining an imported forced action suggests `replace forced`; a replacement that
// changes what kind of definition it is (forced to optional) is warned.
snap!(
    redefined_imported_forced,
    "import \"forced_lib\"\nforced tax when turn_number() == 2 { }\n"
);
snap!(
    replace_changes_kind,
    "import \"forced_lib\"\nreplace action tax phase after { }\n"
);
// Issue 17, A6: on the endless table there are no map squares around a tile.
snap!(
    adjacent_on_endless_table,
    "variant \"v\" { map = unbounded }\nrule r on adjacent { score(player, 1) }\n"
);
snap!(
    neighbours_on_endless_table,
    "variant \"v\" { map = unbounded }\nrule r on placed { score(player, len(neighbours(square))) }\n"
);
// Issue 17, A7: the engine's own option words cannot name an action (two options called `pass`).
snap!(
    action_named_like_an_option,
    "action pass { }\naction draw phase start { }\naction place(n: int) { }\nforced follower when turn_number() == 1 { }\n"
);
snap!(
    choice_size_type,
    "action a choose c: chips from chips(hand(player)) size true { }\n"
);
snap!(
    choice_from_not_chips,
    "action a choose c: chips from squares() { }\n"
);

snap!(
    five_independent_mistakes,
    "param a: int = true\n\
     rule r on scored { score(feature.winners, tru) }\n\
     action b phase scoring { }\n\
     rule s on placed {\n  score(player 1)\n}\n\
     override nothing = 1\n"
);

#[test]
fn five_mistakes_give_five_diagnostics() {
    let out = check(
        "param a: int = true\nrule r on scored { score(feature.winners, tru) }\naction b phase scoring { }\nrule s on placed {\n  score(player 1)\n}\noverride nothing = 1\n",
    );
    let count = out
        .lines()
        .filter(|l| l.starts_with("error") || l.starts_with("warning"))
        .count();
    assert_eq!(count, 5, "{out}");
}

#[test]
fn base_rules_check_clean() {
    let text = include_str!("../rules/base.rules");
    let source = Source::new("rules/base.rules", text);
    let r = check_source(&source, &carto::lang::check::BundledRules, &|n, _| {
        Err(format!("no map {n}"))
    });
    assert!(r.diagnostics.is_empty(), "{}", render(&r));
    let p = r.program.unwrap_or_default();
    assert_eq!(p.rules.len(), 5);
    assert_eq!(p.rules_for(carto::lang::builtins::Trigger::Scored).len(), 5);
}

#[test]
fn sample_variant_checks_clean() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/rules/sample_variant.rules"
    );
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let source = Source::new(path, text);
    let r = check_source(&source, &carto::lang::check::BundledRules, &|n, _| {
        Err(format!("no map {n}"))
    });
    // It plays on the endless table, where its `adjacent` rule and `neighbours` never apply: the
    // two warnings that say so (issue 17, A6) are its only diagnostics.
    let messages: Vec<&str> = r
        .diagnostics
        .iter()
        .map(|(_, d)| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "`neighbours` is always empty here",
            "this trigger can never apply"
        ],
        "{}",
        render(&r)
    );
    assert!(r
        .diagnostics
        .iter()
        .all(|(_, d)| d.severity == carto::diag::Severity::Warning));
    let mut p = r.program.unwrap_or_default();
    assert_eq!(p.actions.len(), 5);
    assert_eq!(p.rules.len(), 7);
    assert_eq!(p.params.len(), 11);
    assert_eq!(p.chips.len(), 30);
    assert!(p.set_param("sale_town", "11").is_ok());
    assert!(p.set_param("sale_town", "true").is_err());
    assert!(p.set_param("match", "value").is_ok());
    assert!(p.set_param("match", "nothing").is_err());
    assert!(p
        .set_param("trade", "{1: 2, 2: 5, 3: 7, 4: 9, 5: 11}")
        .is_ok());
    // A table keeps the keys of its default (issue 8, A6): 3 and 4 are missing here.
    assert_eq!(
        p.set_param("trade", "{1: 2, 2: 5}").unwrap_err(),
        "`trade` must be a table with the keys 1, 2, 3, 4: 3, 4 are missing"
    );
    assert!(p
        .set_param("folowers", "3")
        .unwrap_err()
        .contains("did you mean `followers`"));
}

// ---------------------------------------------------------------- player sets (issue 8, C2)
// A set of players iterates as a list of players; a list operation on it gives a list of players,
// which is not itself a set: `score` needs the set (or one player).
snap!(
    player_set_list_is_not_a_set,
    "rule r on scored { score(take(feature.winners, 1), 1) }\n"
);
snap!(
    player_set_elements_are_players,
    "rule r on scored { for p in feature.winners { let n = p + 1 } }\n"
);

// ---------------------------------------------------------------- asked decisions (issue 8, C1)
snap!(
    ask_unknown_action,
    "action bonus(f: feature) { }\nrule r on scored { ask feature.winners bonsu(feature) }\n"
);
snap!(
    ask_not_an_asked_action,
    "action bonus { }\nrule r on scored { ask feature.winners bonus() }\n"
);
snap!(
    ask_wrong_arity,
    "action bonus(f: feature, n: int) { }\nrule r on scored { ask feature.winners bonus(feature) }\n"
);
snap!(
    ask_wrong_argument_type,
    "action bonus(n: int) { }\nrule r on scored { ask feature.winners bonus(feature) }\n"
);
snap!(
    ask_not_a_player,
    "action bonus() { }\nrule r on scored { ask feature bonus() }\n"
);
snap!(
    asked_action_with_phase_and_limit,
    "action bonus(f: feature) phase score limit per turn 1 { }\nrule r on scored { ask feature.winners bonus(feature) }\n"
);
snap!(
    asked_action_list_parameter,
    "action bonus(l: list<chip>, player: int) { }\n"
);
snap!(forced_with_parameters, "forced f(n: int) when n > 1 { }\n");

// A map attribute compared with a colour, whose values name no chip colour (testmap's `wine` is
// "purple"; these chips are blue only): the note says which value keeps it a string.
snap!(
    attribute_not_a_colour,
    "variant \"v\" { map = \"testmap\" }\nchips { blue 1 x 2 }\nrule r on placed when turn_tile().square.town {\n  score(player, count(c in chips(hand(player)) where c.colour == turn_tile().square.wine))\n}\n"
);

// ---------------------------------------------------------------- holding areas per player
// Issue 17, C4: a per-player holding is named with its player, holds chips only; a shared one is
// not named with a player. Four mistakes, four errors, each at the holding's name.
snap!(
    holding_per_player_misused,
    "holding isle\nholding bid per player\nrule r on placed {\n  move(chips(holding(bid)), box, up)\n  move(chips(holding_of(isle, player)), box, up)\n  for f in held(bid) { recall([f]) }\n  for f in followers(player) { send(f, bid) }\n}\n"
);
snap!(holding_per_what, "holding bid per seat\n");
