//! Issue 32 B.2: the expansions as rules any map imports (`rules/inns-cathedrals.rules`,
//! `rules/traders-builders.rules`; their rules are played by the scripts in
//! tests/scripts/inns-cathedrals/ and tests/scripts/traders-builders/), and what two imports that
//! change the same thing do (grammar/DESIGN.md, "Two imports"): neither wins silently, the file
//! importing both says which.

use crate::common;

use common::{carto, check, error_snap as snap};

const FRANCE_INNS: &str = "tests/fixtures/expansions/france_inns.rules";
const FRANCE_TRADERS: &str = "tests/scripts/traders-builders/france_traders.rules";

/// France with Inns & Cathedrals, its header settling what the two give differently: clean, and it
/// plays to the end and replays.
#[test]
fn a_map_variant_with_an_expansion_checks_plays_and_replays() {
    let (code, out, err) = carto(&["check", FRANCE_INNS]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
    let dir = common::scratch_dir("expansions");
    for seed in ["1", "2"] {
        let log = dir.join(format!("france-inns-{seed}.log"));
        let log = log.to_str().unwrap();
        let (code, out, err) = carto(&["play", FRANCE_INNS, "--seed", seed, "--log", log]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("final scores"), "{out}");
        let rules = format!("--rules={FRANCE_INNS}");
        let (code, out, err) = carto(&["replay", log, &rules]);
        assert_eq!(code, 0, "{out}{err}");
    }
}

/// France with Traders & Builders: a map with chips and the expansion, whose goods tokens, builder
/// and pig are state the rules keep, not chips (so France's chip set is the only one). Clean; whole
/// games with every agent (random, greedy, mcts, and the three at one table) end and replay; the
/// goods, the builder and the pig all happen in them, and France's chips are still collected.
#[test]
fn a_chip_map_with_traders_builders_plays_with_every_agent_and_replays() {
    let (code, out, err) = carto(&["check", FRANCE_TRADERS]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
    let dir = common::scratch_dir("expansions-tb");
    let mut seen = String::new();
    for agents in ["random", "greedy", "mcts:2", "random,greedy,mcts:2"] {
        let log = dir.join(format!("france-tb-{}.log", agents.replace([',', ':'], "-")));
        let log = log.to_str().unwrap();
        let args = [
            "play",
            FRANCE_TRADERS,
            "--seed",
            "2",
            "--players",
            "ann,bob,cyd",
        ];
        let (code, out, err) = carto(&[&args[..], &["--agents", agents, "--log", log]].concat());
        assert_eq!(code, 0, "{agents}: {out}{err}");
        assert!(out.contains("final scores"), "{agents}: {out}");
        let rules = format!("--rules={FRANCE_TRADERS}");
        let (code, rout, err) = carto(&["replay", log, &rules]);
        assert_eq!(code, 0, "{agents}: {rout}{err}");
        seen.push_str(&out);
    }
    for what in [
        "_tokens is now",
        "builder is now",
        "pig is now",
        "(rule collect)",
        "(rule goods_end)",
    ] {
        assert!(seen.contains(what), "no `{what}` in the games:\n{seen}");
    }
}

/// Each expansion plays alone on the endless table with the base game.
#[test]
fn each_expansion_plays_alone() {
    for v in ["inns-cathedrals", "traders-builders"] {
        let (code, out, err) = carto(&["play", v, "--seed", "3", "--players", "ann,bob,cyd"]);
        assert_eq!(code, 0, "{v}: {out}{err}");
        assert!(out.contains("final scores"), "{v}: {out}");
    }
}

// The map variant and the expansion give the header's map, tiles, followers and doc differently:
// each is an error at the import that brings the second, naming both places.
snap!(
    two_imports_giving_header_keys,
    "import \"france\"\nimport \"inns-cathedrals\"\nvariant \"v\" {\n  title = \"v\"\n}\n"
);

// Two imports changing the same rule of the base game: an error at the second import.
snap!(
    two_imports_changing_one_rule,
    "import \"inns-cathedrals\"\nimport \"tests/fixtures/expansions/long_roads.rules\"\nvariant \"v\" {\n  title = \"v\"\n}\n"
);

/// The importing file settles it by changing the rule itself.
#[test]
fn the_importer_settles_a_rule_two_imports_change() {
    let src = "import \"inns-cathedrals\"\nimport \"tests/fixtures/expansions/long_roads.rules\"\n\
               variant \"v\" {\n  title = \"v\"\n}\n\
               change rule road when feature.kind == road and feature.inn == 0 and feature.tiles >= 3\n";
    let out = check(src);
    assert!(!out.contains("error"), "{out}");
}

// Two imports that each give a chip set: the map variant's chips and an expansion's tokens.
snap!(
    two_imports_giving_chip_sets,
    "import \"france\"\nimport \"tests/fixtures/expansions/tokens.rules\"\nvariant \"v\" {\n  title = \"v\"\n  doc = \"\"\n  map = \"france\"\n  followers = followers\n}\n"
);
