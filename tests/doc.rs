//! `carto doc`: pages generated from the rules, read along the path a user takes (the built binary).
//! The committed pages under `docs/` are checked against a fresh `carto doc --all`; every builtin,
//! field, trigger and phase has its English phrase; sentences are pinned where checked by hand.

use carto::lang::builtins::{Builtin, Trigger, FIELDS, PHASES};
use carto::lang::phrases::{builtin_phrase, field_phrase, phase_phrase, trigger_phrase};
use common::carto_in as carto;
use std::path::{Path, PathBuf};

use crate::common;

fn scratch(case: &str) -> PathBuf {
    common::fresh_dir("doc", case)
}

/// `carto doc FILE ARGS…` of a rules file written to a fresh folder: the folder and the page (the
/// command must succeed).
fn doc_of_rules(case: &str, file: &str, text: &str, args: &[&str]) -> (PathBuf, String) {
    let dir = scratch(case);
    std::fs::write(dir.join(file), text).unwrap();
    let mut all = vec!["doc", file];
    all.extend_from_slice(args);
    let (code, out, err) = carto(&dir, &all);
    assert_eq!(code, 0, "{err}");
    (dir, out)
}

#[test]
fn every_builtin_field_trigger_and_phase_has_a_phrase() {
    for b in Builtin::ALL {
        let name = b.info().name;
        let (phrase, neg) = builtin_phrase(name).unwrap_or_else(|| {
            panic!("builtin `{name}` has no phrase in crates/lang/src/phrases.rs")
        });
        for i in 0..b.info().params.len() {
            assert!(
                phrase.contains(&format!("{{{i}")),
                "the phrase of `{name}` does not say argument {i}"
            );
        }
        let is_bool = matches!(b.info().ret, carto::lang::builtins::RTy::T(t) if t == carto::lang::builtins::Ty::BOOL);
        assert_eq!(
            is_bool,
            !neg.is_empty(),
            "`{name}`: a bool query needs a negated phrase"
        );
    }
    for (_, name, _, ty, _) in FIELDS {
        let (_, neg) = field_phrase(name).unwrap_or_else(|| {
            panic!("field `{name}` has no phrase in crates/lang/src/phrases.rs")
        });
        let is_bool = *ty == carto::lang::builtins::Ty::BOOL;
        assert_eq!(
            is_bool,
            !neg.is_empty(),
            "field `{name}`: a bool field needs a negated phrase"
        );
    }
    for t in Trigger::ALL {
        let (_, binds) = trigger_phrase(t.name())
            .unwrap_or_else(|| panic!("trigger `{}` has no phrase", t.name()));
        assert_eq!(
            binds.len(),
            t.binds().len(),
            "trigger `{}`: one phrase per bound name",
            t.name()
        );
    }
    for (name, _) in PHASES {
        assert!(phase_phrase(name).is_some(), "phase `{name}` has no phrase");
    }
}

#[test]
fn committed_pages_are_fresh() {
    let dir = scratch("all");
    let (code, _, err) = carto(&dir, &["doc", "--all", "--out", "docs"]);
    assert_eq!(code, 0, "{err}");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut fresh: Vec<String> = std::fs::read_dir(dir.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    fresh.sort();
    assert!(fresh.len() >= 12, "{fresh:?}");
    let regenerate = "regenerate them with `cargo run -- doc --all --out docs/` and commit";
    for name in &fresh {
        let new = std::fs::read_to_string(dir.join("docs").join(name)).unwrap();
        let old = std::fs::read_to_string(repo.join(name)).unwrap_or_default();
        assert!(old == new, "docs/{name} is stale: {regenerate}");
    }
    // A page `carto doc` wrote shows each rule's source beside a link to its line in a rules file;
    // hand-written pages (the command line, agents, performance, ...) do not, and may sit beside them.
    for e in std::fs::read_dir(&repo).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(repo.join(&name)).unwrap_or_default();
        if name.ends_with(".md") && text.contains(".rules#L") {
            assert!(
                fresh.contains(&name),
                "docs/{name} is no variant's page any more: {regenerate}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The issue's example, checked against rules/france.rules by hand: `group sale` → "once per turn,
/// shared with *sell town*"; `connects_abroad(turn_tile())`; size 1..2 with a sum of 2 in one colour;
/// `move(wine, box, up)`; `score(player, sale_abroad)` with sale_abroad = 5.
#[test]
fn france_sell_abroad_reads_as_a_sentence() {
    let dir = scratch("france");
    let (code, out, err) = carto(&dir, &["doc", "france"]);
    assert_eq!(code, 0, "{err}");
    let expected = "*Precisely:* When the tile \
        placed this turn joins a road or city to a border exit, you may choose *wine*, 1 to 2 chips from \
        the chips in your hand, such that the *wine* chips are worth exactly 2 together and all of one \
        colour; then the *wine* chips go to the box face up; you score 5 (`sale_abroad`). | \
        `rules/france.rules:35`";
    // The rules file's comment leads the row.
    assert!(
        out.contains("| **Sell abroad** (phase 3, once per turn, shared with *sell town*): Selling, phase 3,"),
        "{out}"
    );
    assert!(out.contains(expected), "{out}");
    // The value in force follows --set, in the table and in the sentence.
    let (code, out, err) = carto(&dir, &["doc", "france", "--set", "sale_abroad=7"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("| `sale_abroad` | int |  | 5 | 7 | points for a wine sold abroad |"),
        "{out}"
    );
    assert!(out.contains("you score 7 (`sale_abroad`)"), "{out}");
    // Base scoring, `feature.kind == road` and `feature.tiles * road_tile`.
    // The moment is composed from what the rule tests: `feature.kind == road` and no test of
    // `feature.complete`, so when completed and at the end; ties score in full.
    assert!(out.contains(
        "*Precisely:* When a road is completed (closed at both ends), at once in that turn, and at the \
         end of the game for each road still incomplete, the players with the most followers on the road \
         score the number of tiles of the road × 1 (`road_tile`) (when several players tie for the most, \
         each of them scores it in full)."
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_sentence_falls_back_to_syntax() {
    for (name, _) in carto::variant::bundled_variants() {
        let v = carto::variant::load_variant(name, &[]).unwrap();
        let page = carto::doc::page(&v);
        let items = page.setup.iter().chain(&page.rules).chain(&page.actions);
        let mut n = 0;
        for it in items {
            n += 1;
            let s = &it.sentence;
            for bad in [" holds", "?", "()"] {
                assert!(!s.contains(bad), "{name} {}: `{bad}` in {s}", it.name);
            }
            assert!(s.ends_with('.'), "{name} {}: {s}", it.name);
            assert!(s.len() > 20, "{name} {}: {s}", it.name);
        }
        assert!(n >= 5, "{name}: {n} items");
    }
}

/// Great Britain's setup lays each chip face down on a spot of its colour, so its colour is public:
/// the page says so from running the setup. France's towns are coloured too (`wine`), but its chips
/// are scattered without regard to them: no such sentence there.
#[test]
fn a_chip_on_a_spot_of_its_colour_shows_its_colour() {
    let dir = scratch("spots");
    let sentence =
        "Every chip starts face down on a square whose `spot` is its colour, so anyone can \
                    tell a face-down chip's colour from its square; only its value is hidden.";
    let (code, gb, err) = carto(&dir, &["doc", "great-britain"]);
    assert_eq!(code, 0, "{err}");
    assert!(gb.contains(sentence), "{gb}");
    // Where the boards draw the Isle of Man: the square marked `isle`.
    assert!(
        gb.contains(
            "**Isle of Man** (the holding area `isle`): off the board; the board pictures draw \
             the followers in it on column 11 row 15."
        ),
        "{gb}"
    );
    let (code, france, err) = carto(&dir, &["doc", "france"]);
    assert_eq!(code, 0, "{err}");
    assert!(!france.contains("Every chip starts face down"), "{france}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rule on `tile_drawn` says its moment in the rule book's words, and the turn's first step says
/// what drawing sets off.
#[test]
fn a_rule_on_a_drawn_tile_says_when() {
    let (dir, out) = doc_of_rules(
        "drawn",
        "drawn.rules",
        "import \"base\"\n\
         variant \"drawn\" { title = \"Drawn\" }\n\
         rule draw_point on tile_drawn { score(player, 1) }\n",
        &[],
    );
    assert!(
        out.contains("**Draw point**: When you draw a tile, before placing it, you score 1."),
        "{out}"
    );
    assert!(
        out.contains("Drawing a tile that fits, before you place it, sets off *Draw point*."),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A house rule: France with a dearer sale abroad, no town sales, and a new rule.
#[test]
fn against_shows_what_a_house_rule_changes() {
    let (dir, out) = doc_of_rules(
        "against",
        "house.rules",
        "import \"france\"\n\
         variant \"house\" { title = \"House\" }\n\
         override sale_abroad = 6\n\
         param bonus: int = 1 \"points for a town\"\n\
         rule sell_town_gone on turn_end { score(player, bonus) }\n\
         replace rule road on scored when feature.kind == road {\n  score(feature.winners, 2 * feature.tiles)\n}\n",
        &["--against", "france"],
    );
    assert!(out.starts_with("# `house` against `france`"), "{out}");
    assert!(out.contains("- `sale_abroad` changed: 6 (was 5)"), "{out}");
    assert!(
        out.contains("- `bonus` added: int = 1 — points for a town"),
        "{out}"
    );
    assert!(out.contains("- **Road** replaced (`house.rules:6`, was `rules/base.rules:26`): When a road is completed (closed at both ends), at once in that turn, and at the end of the game for each road still incomplete, the players with the most followers on the road score 2 × the number of tiles of the road (when several players tie for the most, each of them scores it in full). Replaced by the house rule at house.rules:6.\n  - before: When a road is completed (closed at both ends), at once in that turn, and at the end of the game for each road still incomplete, the players with the most followers on the road score the number of tiles of the road × 1 (`road_tile`) (when several players tie for the most, each of them scores it in full).\n"), "{out}");
    assert!(out.contains("- **Sell town gone** added (`house.rules:5`): At the end of each of your turns, you score 1 (`bonus`)."), "{out}");
    assert!(!out.contains("Sell abroad"), "{out}");
    let (_, same, _) = carto(&dir, &["doc", "france", "--against", "france"]);
    assert!(same.contains("No differences"), "{same}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_page_has_the_documented_fields() {
    let dir = scratch("json");
    let (code, out, err) = carto(&dir, &["doc", "germany", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "name",
        "title",
        "doc",
        "map",
        "players",
        "followers",
        "tiles",
        "tile_sets",
        "chip_colours",
        "chips",
        "params",
        "setup",
        "rules",
        "actions",
        "holdings",
    ] {
        assert!(v.get(key).is_some(), "no `{key}`");
    }
    assert_eq!(v["name"], "germany");
    // A holding area has its title beside its name (`holding isle "Isle of Man"`), and the
    // sentences use the title.
    let (code, gb, err) = carto(&dir, &["doc", "great-britain", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let gb: serde_json::Value = serde_json::from_str(&gb).unwrap();
    assert_eq!(
        gb["holdings"],
        serde_json::json!([{"name": "isle", "title": "Isle of Man", "per_player": false}])
    );
    assert!(gb["actions"][0]["sentence"]
        .as_str()
        .unwrap()
        .contains("goes to the Isle of Man"));
    assert_eq!(v["players"], serde_json::json!([2, 6]));
    let p = &v["params"][0];
    for key in ["name", "type", "range", "default", "value", "doc"] {
        assert!(p.get(key).is_some(), "param has no `{key}`");
    }
    assert_eq!(p["name"], "followers");
    assert_eq!(p["range"], "in 0..64");
    let a = v["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "upgrade")
        .unwrap();
    for key in [
        "name", "kind", "heading", "when", "sentence", "comment", "file", "line", "source",
    ] {
        assert!(a.get(key).is_some(), "action has no `{key}`");
    }
    assert_eq!(a["kind"], "action");
    assert_eq!(a["when"], "phase 2, after placing a follower");
    assert!(a["source"].as_str().unwrap().starts_with("action upgrade"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README and the pages under docs/ link only to files in the repository, and every one exists.
#[test]
fn readme_and_docs_link_to_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap_or("");
            if target.is_empty() || target.starts_with("http") {
                continue;
            }
            let path = page.parent().unwrap().join(target);
            assert!(
                path.exists(),
                "{}: link to `{target}`, which is not in the repository",
                page.display()
            );
            assert!(
                path.canonicalize()
                    .unwrap()
                    .starts_with(root.canonicalize().unwrap()),
                "{}: link to `{target}` leaves the repository",
                page.display()
            );
        }
        assert!(
            !text.contains("shared/spec"),
            "{}: points outside the repository",
            page.display()
        );
    }
}

/// The scripts shown in README.md ("Scripted games") and docs/format-script.md ("An example") are
/// files under tests/scripts/, word for word, so `cargo test` plays them (tests/scripts.rs): an
/// example that stopped running would fail there. The README's file starts with comment lines of its
/// own (the arithmetic), which the README leaves out.
#[test]
fn script_examples_are_scripts_the_tests_play() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let example = read("tests/scripts/france/format_script_example.script");
    assert!(
        read("docs/format-script.md").contains(&format!("```\n{example}```\n")),
        "docs/format-script.md's example differs from tests/scripts/france/format_script_example.script"
    );
    let readme_example = read("tests/scripts/france/readme_example.script");
    let body: String = readme_example
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(body.starts_with("variant france"), "{body}");
    assert!(
        read("README.md").contains(&body),
        "README's script example differs from tests/scripts/france/readme_example.script"
    );
}

/// A parameter's doc written over several lines reads as one line in the table: the line break and
/// the next line's indentation become one space (upgrade.rules' `upgrade_older`).
#[test]
fn multi_line_parameter_doc_is_one_line_in_the_table() {
    let dir = scratch("multi-line-doc");
    let (code, out, err) = carto(&dir, &["doc", "germany"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("at most one upgraded follower at a time, and may upgrade only the follower"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A limit's count in the sentence (session 5): `1` reads "once", a group's count as given, a count of
/// parameters with its value in force and the formula; `--set` changes the value.
#[test]
fn limit_counts_say_how_many_times() {
    let dir = scratch("limit-counts");
    let src =
        "import \"base\"\nvariant \"t\" {\n  title = \"T\"\n}\nparam n: int in 1..9 = 3 \"n\"\n\
        action a phase score limit group g 2 {\n  score(player, 1)\n}\n\
        action b phase score limit group g 2 {\n  score(player, 2)\n}\n\
        action c phase score limit group h (n + 1) {\n  score(player, 1)\n}\n\
        action d phase score limit group k 1 {\n  score(player, 1)\n}\n\
        action e phase score limit per turn n {\n  score(player, 1)\n}\n";
    common::write_file(&dir, "t.rules", src);
    let mut shown = format!("----- SOURCE\n{src}");
    for set in [None, Some("n=5")] {
        let mut args = vec!["doc", "t.rules"];
        args.extend(set.iter().flat_map(|s| ["--set", *s]));
        let (code, out, err) = carto(&dir, &args);
        assert_eq!(code, 0, "{err}");
        shown.push_str(&format!("----- carto {}\n", args.join(" ")));
        for line in out
            .lines()
            .filter(|l| l.starts_with("| **") && l.contains("** ("))
        {
            let heading = line.split("):").next().unwrap_or(line);
            shown.push_str(&format!("{heading})\n"));
        }
    }
    insta::assert_snapshot!(shown);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The turn and the end of the game, from the rules' phases and triggers (base: three phases, farms
/// and incomplete cities only at the end, nothing else scores); France adds its phase-3 sales and
/// says that chips score nothing at the end; Ukraine draws chips face down into hands, so it says
/// who may look at them.
#[test]
fn the_turn_and_the_end_are_told() {
    let page = |name: &str| carto::doc::page(&carto::variant::load_variant(name, &[]).unwrap());
    let base = page("base").turn.join("\n");
    assert!(base.contains("3. **Score (phase 3).** Each road, city and monastery completed by the tile just placed is scored at once, with followers on it or not: *Road*, *City* and *Monastery*."), "{base}");
    assert!(
        base.contains(
            "(*City incomplete* and *Farm* only then). Nothing else scores at the end. The player"
        ),
        "{base}"
    );
    assert!(!base.contains("chip"), "{base}");
    assert!(base.starts_with("**Before the first turn.** Each player takes 7 followers in their colour (their reserve). The start tile is put face up in the middle of the table;"), "{base}");
    assert!(
        base.contains("A farm is never completed: farmers stay on it to the end of the game."),
        "{base}"
    );
    let france = page("france").turn.join("\n");
    assert!(
        france.contains("Then you may take *Sell abroad* (once per turn, shared with *sell town*) or *Sell town* (once per turn, shared with *sell abroad*)."),
        "{france}"
    );
    assert!(france.contains("Nothing else scores at the end: chips left in hands, on the map or anywhere else score nothing."), "{france}");
    assert!(!france.contains("in your hand: you may look"), "{france}");
    assert!(france.contains("2 of the 3 start squares (Nancy, Le Mans or Limoges) are chosen at random (or named with `--starts`); the other is plain land with a town. The start tile goes face up on the first start square in use; the other tiles are shuffled face down into the draw stack, and its top tile, turned at random, goes on each other start square in use."), "{france}");
    let gb = page("great-britain").turn.join("\n");
    assert!(
        gb.contains("All 3 start squares (Kilkenny, Carlisle and Bristol) are used."),
        "{gb}"
    );
    assert!(
        gb.contains("4. **After the turn.** You may take *Isle extra turn* (once per round, not in an extra turn)."),
        "{gb}"
    );
    // An action with no count is offered again after it is taken (DESIGN.md: a forced one with no
    // choice would be taken "again and again"), so the turn says so; one with a count does not.
    let germany = page("germany").turn.join("\n");
    assert!(
        germany.contains(
            "Then you may take *Upgrade* (any number of times, while its condition holds)."
        ),
        "{germany}"
    );
    let ukraine_page = page("ukraine");
    assert!(
        ukraine_page
            .map_facts
            .iter()
            .any(|f| f.starts_with("**The map's `slots`**: 4 on column 15 row 1, ")),
        "{:?}",
        ukraine_page.map_facts
    );
    assert!(
        ukraine_page
            .turn
            .join("\n")
            .contains("*Trade chips* (only in a turn without a follower placed, once per turn)."),
        "{:?}",
        ukraine_page.turn
    );
    let ukraine = page("ukraine").turn.join("\n");
    assert!(
        ukraine.contains(
            "A chip face down in your hand: you may look at it; the other players may not."
        ),
        "{ukraine}"
    );
}

/// A page printed as text has no HTML and no Markdown marks; `--out` writes the map picture the page
/// links; the JSON sentence is plain, with the Markdown beside it.
#[test]
fn text_page_out_picture_and_plain_json() {
    let dir = scratch("text-out-json");
    let (code, out, err) = carto(&dir, &["doc", "iberia", "--format", "text"]);
    assert_eq!(code, 0, "{err}");
    for bad in ["&nbsp;", "&#", "<br>", "<code>", "**", "`", "|---"] {
        assert!(!out.contains(bad), "`{bad}` in:\n{out}");
    }
    assert!(
        out.contains(
            "No chips (30 − scatter_count) go from the supply to the chips set aside face down."
        ),
        "{out}"
    );
    // Rows counted from 0, as the board pictures number them (checked against maps/iberia.toml:
    // the bands are its rows 0–3, 4–7 and 8–11).
    assert!(out.contains("The map's band: blue: rows 4–7 (80 land squares); orange: rows 0–3 (79 land squares); purple: rows\n8–11 (49 land squares)."), "{out}");
    // The text map: column numbers above (tens, units), row numbers on the left.
    assert!(
        out.contains("             11111111112222222222\n   012345678901234567890123456789\n 0 ~~.....t.....t..\n"),
        "{out}"
    );
    assert!(
        out.contains("\n11 ~~~~~~~~....~~~~~~~~~~~~~~~~~~\n"),
        "{out}"
    );
    let (code, _, err) = carto(&dir, &["doc", "iberia", "--out", "pages"]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(dir.join("pages/iberia.md")).unwrap();
    assert!(
        md.contains("![The map Iberian Peninsula](iberia-map.svg)"),
        "{md}"
    );
    assert!(std::fs::read_to_string(dir.join("pages/iberia-map.svg"))
        .unwrap()
        .starts_with("<svg"));
    let (code, out, err) = carto(&dir, &["doc", "iberia", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let treat = v["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "treat")
        .unwrap();
    let (plain, md) = (
        treat["sentence"].as_str().unwrap(),
        treat["markdown"].as_str().unwrap(),
    );
    assert!(plain.starts_with("As soon as you can choose chip, a chip in your hand; and at_square, a square whose band is the colour of chip, such that all of these are true: (1) at_square is land;"), "{plain}");
    assert!(
        plain.ends_with("you must choose one (you pick which, if several are possible); then chip goes to at_square face up. The game looks for a choice only when there are chips in your hand."),
        "{plain}"
    );
    assert!(
        md.contains("*at_square*, a square whose `band` is the colour of *chip*"),
        "{md}"
    );
    assert!(!plain.contains('*') && !plain.contains('`'), "{plain}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A parameter that switches a condition off says which one, after the list, not on its last item
/// (France: `scatter_islands` on lets chips onto islands); switched on, the condition is an item
/// with its parameter (Iberia). The map pages say what a coast does to a road and what a large city
/// is to a farm, and where the chips start.
#[test]
fn folded_conditions_and_map_facts_read_plainly() {
    let dir = scratch("folded");
    let setup = |variant: &str| -> String {
        let (code, out, err) = carto(&dir, &["doc", variant, "--format", "json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let mut all: Vec<String> = v["setup"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["sentence"].as_str().unwrap().to_string())
            .collect();
        all.extend(
            v["turn"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string()),
        );
        all.join("\n")
    };
    let france = setup("france");
    assert!(
        france.contains("(3) no square next to s is part of a large city; whether or not s is an island (as scatter_islands is on)."),
        "{france}"
    );
    assert!(france.contains("a road or city running into it is closed there"));
    assert!(france.contains("a farm next to it does not count it as a completed city"));
    assert!(france.contains("The 30 chips start face down in the supply"));
    let iberia = setup("iberia");
    assert!(
        iberia.contains("(3) s is not an island (as scatter_islands is off); (4) no square next to s is part of a large city."),
        "{iberia}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The language reference, `docs/language.md`, is what `carto doc --builtins` prints now (it is made
/// from the tables: a row added or changed changes it).
#[test]
fn the_language_reference_is_fresh() {
    let dir = scratch("builtins");
    let (code, out, err) = carto(&dir, &["doc", "--builtins"]);
    assert_eq!(code, 0, "{err}");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md");
    let old = std::fs::read_to_string(repo).unwrap_or_default();
    assert!(
        old == out,
        "docs/language.md is stale: regenerate it with `cargo run -- doc --builtins --out docs` and commit"
    );
    for b in Builtin::ALL {
        assert!(
            out.contains(&format!("### `{}`", b.signature())),
            "{}",
            b.info().name
        );
    }
    for t in Trigger::ALL {
        assert!(out.contains(&format!("### `{}`", t.name())), "{}", t.name());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every example of the language reference (every builtin's and field's row has one, every
/// trigger, statement and expression too) checks without an error after the reference's prelude
/// and plays two random games of two and three players to the end.
#[test]
fn every_example_of_the_language_reference_checks_and_plays() {
    use carto::doc::language::{examples, PRELUDE};
    use carto::variant::{variant_from_source, InputError};
    let all = examples();
    assert!(all.len() > 100, "{}", all.len());
    let mut failures = Vec::new();
    for (what, example) in all {
        if example.trim().is_empty() {
            failures.push(format!(
                "{what}: no example (its row needs `example r#\"…\"#`)"
            ));
            continue;
        }
        // On the small map of the tests, as the reference says.
        let prelude = PRELUDE.replacen(
            "title = \"An example\"\n",
            "title = \"An example\"\n  map = \"test\"\n  start_squares = 1\n",
            1,
        );
        assert_ne!(prelude, PRELUDE);
        let source = carto::diag::Source::new("example.rules", format!("{prelude}{example}\n"));
        let no_sets = |_: usize, e: String| InputError::new(carto::diag::Code::BadSet, e);
        let v = match variant_from_source(&source, "example.rules", &[], &no_sets) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{what}: {}", e.text));
                continue;
            }
        };
        for (seed, n) in [(1, 2), (2, 3)] {
            let players: Vec<String> = ["ann", "bob", "cyd"][..n]
                .iter()
                .map(|p| p.to_string())
                .collect();
            let mut g = v
                .new_game(v.config.clone(), &players, seed, false)
                .expect("a game starts");
            let mut rng = carto::rng::Rng::new(seed);
            if let Err(e) = carto::game::play_random(&mut g, &mut rng) {
                failures.push(format!("{what}: the game stops: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Issue 32 C: a rule switched by a parameter alone (`when takeover`) says so in its sentence and in
/// the JSON `when`, as does one whose other parts fix the moment (`when takeover and
/// feature.kind == city and feature.complete`); the rules without a switch have an empty `when`.
#[test]
fn a_parameter_switch_is_on_the_page() {
    let rules = "import \"base\"\nvariant \"takeover\" {\n  title = \"Takeover\"\n}\n\
        param takeover: bool = true \"a completed city pays its completer\"\n\
        rule completer on scored when takeover and feature.kind == city and feature.complete {\n  score(current_player(), 2)\n}\n\
        rule steady on turn_end when takeover {\n  score(player, 1)\n}\n";
    let (dir, json) = doc_of_rules("switch", "takeover.rules", rules, &["--format", "json"]);
    let page: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rule = |name: &str| {
        page["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no rule {name}"))
    };
    assert_eq!(
        rule("steady")["sentence"],
        "At the end of each of your turns, if takeover is on, then you score 1."
    );
    assert_eq!(rule("steady")["when"], "`takeover` is on");
    assert_eq!(
        rule("completer")["sentence"],
        "When a city is completed (its walls closed all round), at once in that turn, if takeover is on, then the current player scores 2."
    );
    assert_eq!(rule("completer")["when"], "`takeover` is on");
    assert_eq!(rule("road")["when"], "");
    let (_, off) = doc_of_rules(
        "switch_off",
        "takeover.rules",
        rules,
        &["--format", "json", "--set", "takeover=false"],
    );
    let off: serde_json::Value = serde_json::from_str(&off).unwrap();
    let steady = off["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "steady")
        .cloned()
        .unwrap();
    assert_eq!(
        steady["sentence"],
        "At the end of each of your turns, if never (as takeover is off), then you score 1."
    );
    assert_eq!(steady["when"], "`takeover` is off");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 32 C: the source a page shows for a changed rule ends with the change: the comment after
/// it, which belongs to the next item, is not part of it.
#[test]
fn a_changed_rule_shows_its_change_without_the_next_comment() {
    let rules = "import \"base\"\nvariant \"house\" {\n  title = \"House\"\n}\n\n\
        # Roads score only when long.\n\
        change rule road when feature.kind == road and feature.tiles > 3\n\n\
        # Cities score triple.\n\
        change rule city {\n  score(feature.winners, 3 * feature.tiles)\n}\n";
    let (dir, json) = doc_of_rules("change", "house.rules", rules, &["--format", "json"]);
    let page: serde_json::Value = serde_json::from_str(&json).unwrap();
    let road = page["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "road")
        .cloned()
        .unwrap();
    let source = road["source"].as_str().unwrap();
    assert!(
        source.ends_with(
            "# house.rules:7\nchange rule road when feature.kind == road and feature.tiles > 3"
        ),
        "{source}"
    );
    assert_eq!(road["comment"], "Roads score only when long.");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 32 C: the page says the order rules run in, for each trigger two or more rules listen to
/// (Iberia: its `placed` rules, collecting first).
#[test]
fn the_page_says_the_order_rules_run_in() {
    let page = carto::doc::page(&carto::variant::load_variant("iberia", &[]).unwrap());
    let turn = page.turn.join("\n");
    assert!(
        turn.contains(
            "when a player places a tile, *Collect* then *Treat taken* then *Island shields*"
        ),
        "{turn}"
    );
}
