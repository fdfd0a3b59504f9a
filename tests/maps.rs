//! Map loading: the bundled maps, and every check of `parse_map` with its `file:line:col`.

use carto::diag::{Diagnostic, Source};
use carto::geometry::EdgeKind;
use carto::map::*;
use std::cell::Cell;

fn bundled(name: &str) -> MapBoard {
    let text = bundled_map(name).unwrap_or_else(|| panic!("no bundled map {name}"));
    let src = Source::new(name, text);
    match parse_map(&src, &BundledResolver) {
        Ok(b) => b,
        Err(d) => panic!("{name} does not parse:\n{}", src.render(&d)),
    }
}

/// Parses `text` as `bad.toml` (bundled parts only) and returns its diagnostics, rendered.
fn errors(text: &str) -> (Vec<Diagnostic>, String) {
    let src = Source::new("bad.toml", text);
    match parse_map(&src, &BundledResolver) {
        Ok(_) => panic!("expected errors in:\n{text}"),
        Err(d) => {
            let out = src.render(&d);
            (d, out)
        }
    }
}

/// A valid map: grid rows are lines 3..=6 of the file, a grid character at row r, column c (both
/// 0-based) is at `bad.toml:{3+r}:{1+c}`.
const BASE: &str = r##"name = "t"
grid = """
~~~~~~~
~.....~
~..#..~
~~~~~ii
"""
[legend]
"~" = "sea"
"." = "land"
"#" = "large_city"
"i" = "island"
"##;

fn base_with(extra: &str) -> String {
    format!("{BASE}{extra}")
}

#[test]
fn every_bundled_map_parses() {
    for name in bundled_maps() {
        let b = bundled(name);
        assert_eq!(b.squares.len(), (b.width * b.height) as usize, "{name}");
        assert!(!b.name.is_empty(), "{name}");
    }
}

#[test]
fn test_map_spot_checks() {
    let b = bundled("test");
    assert_eq!((b.width, b.height), (14, 10));
    let starts: Vec<&str> = b.starts.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(starts, ["Nancy", "Le Mans", "Limoges"]);
    let nancy = b.square(3, 2).unwrap();
    assert!(nancy.town);
    assert_eq!(nancy.start, Some(0));
    assert_eq!(nancy.name.as_deref(), Some("Nancy"));

    // Large cities: a 2-square Paris and a 1-square Metz.
    let sizes: Vec<(&str, usize)> = b
        .large_cities
        .iter()
        .map(|c| (c.name.as_str(), c.squares.len()))
        .collect();
    assert_eq!(sizes, [("Paris", 2), ("Metz", 1)]);
    assert_eq!(b.square(6, 0).unwrap().kind, SquareKind::LargeCity);
    assert_eq!(b.square(6, 0).unwrap().large_city, Some(0));
    assert_eq!(
        b.square(6, 0).unwrap().attrs.get("capital"),
        Some(&AttrValue::Bool(true))
    );
    assert_eq!(b.square(9, 3).unwrap().large_city, Some(1));

    // The island, its ferry and the coat of arms on one of its squares.
    assert_eq!(b.islands.len(), 1);
    assert_eq!(b.islands[0].name, "Belle-Ile");
    assert_eq!(b.islands[0].squares, [(12, 7), (13, 7)]);
    assert_eq!(
        b.ferries,
        [Ferry {
            from: (10, 6),
            to: (12, 7)
        }]
    );
    let shield = b.square(13, 7).unwrap();
    assert_eq!(shield.kind, SquareKind::Island);
    assert_eq!(shield.island, Some(0));
    assert_eq!(shield.attrs.get("shields"), Some(&AttrValue::Int(1)));
    assert_eq!(
        shield.attrs.get("colour"),
        Some(&AttrValue::Str("orange".into()))
    );
    assert_eq!(b.square(12, 7).unwrap().attrs.get("shields"), None);

    // Border exits.
    assert_eq!(
        b.exits,
        [
            Exit {
                at: (0, 4),
                side: 3,
                feature: EdgeKind::Road
            },
            Exit {
                at: (13, 2),
                side: 1,
                feature: EdgeKind::City
            },
        ]
    );

    // Kinds.
    assert_eq!(b.square(0, 0).unwrap().kind, SquareKind::OffMap);
    assert_eq!(b.square(13, 8).unwrap().kind, SquareKind::Wave);
    assert_eq!(b.square(0, 9).unwrap().kind, SquareKind::Sea);

    // Towns: from the legend (unnamed) and named, with their wine.
    let legend_town = b.square(6, 2).unwrap();
    assert!(legend_town.town && legend_town.name.is_none());
    assert_eq!(
        legend_town.attrs.get("wine"),
        Some(&AttrValue::Str("purple".into()))
    );
    let lyon = b.square(11, 1).unwrap();
    assert_eq!(lyon.name.as_deref(), Some("Lyon"));
    assert_eq!(
        lyon.attrs.get("wine"),
        Some(&AttrValue::Str("light blue".into()))
    );
    let towns = b.squares.iter().filter(|s| s.town).count();
    assert_eq!(towns, 3 + 2 + 2);

    // Groups: a row band, an intersection, a list; and a per-square attribute.
    assert_eq!(
        b.square(9, 1).unwrap().attrs.get("band"),
        Some(&AttrValue::Str("orange".into()))
    );
    assert_eq!(b.square(9, 3).unwrap().attrs.get("band"), None);
    assert_eq!(
        b.square(2, 7).unwrap().attrs.get("band"),
        Some(&AttrValue::Str("purple".into()))
    );
    assert_eq!(b.square(5, 7).unwrap().attrs.get("band"), None);
    assert_eq!(b.groups.len(), 3);
    assert_eq!(b.groups[0].squares.len(), 3 * 14);
    assert_eq!(b.groups[1].squares.len(), 3 * 5);
    assert_eq!(b.groups[2].squares, [(1, 3), (5, 4)]);
    assert_eq!(
        b.square(5, 4).unwrap().attrs.get("spot"),
        Some(&AttrValue::Str("blue".into()))
    );
    let sq = b.square(12, 2).unwrap();
    assert_eq!(sq.attrs.get("spot"), Some(&AttrValue::Str("orange".into())));
    assert_eq!(sq.attrs.get("chumak"), Some(&AttrValue::Bool(true)));

    let names = b.attr_names();
    assert_eq!(names.get("shields"), Some(&"int"));
    assert_eq!(names.get("chumak"), Some(&"bool"));
    assert_eq!(names.get("wine"), Some(&"string"));
    assert_eq!(names.get("band"), Some(&"string"));

    assert_eq!(b.index(3, 2), Some(2 * 14 + 3));
    assert_eq!(b.index(14, 0), None);
    assert_eq!(b.index(-1, 0), None);
}

#[test]
fn test_pair_joins_at_the_seam() {
    let west = bundled("test-west");
    let east = bundled("test-east");
    let pair = bundled("test-pair");
    assert_eq!(pair.width, west.width + east.width);
    assert_eq!(pair.height, 6);
    let starts: Vec<(&str, (i32, i32))> = pair
        .starts
        .iter()
        .map(|s| (s.name.as_str(), s.at))
        .collect();
    assert_eq!(starts, [("Brest", (2, 3)), ("Strasbourg", (11, 3))]);
    // Squares from both sides of the seam.
    assert_eq!(pair.square(7, 2).unwrap().kind, SquareKind::Land);
    assert_eq!(pair.square(8, 2).unwrap().kind, SquareKind::Land);
    assert_eq!(pair.square(7, 1).unwrap().kind, SquareKind::LargeCity);
    assert_eq!(pair.square(15, 0).unwrap().kind, SquareKind::OffMap);
    let strasbourg = pair.square(11, 3).unwrap();
    assert_eq!(strasbourg.start, Some(1));
    assert_eq!(strasbourg.name.as_deref(), Some("Strasbourg"));
    assert_eq!(
        pair.square(14, 1).unwrap().attrs.get("shields"),
        Some(&AttrValue::Int(1))
    );
    assert_eq!(pair.square(6, 1).unwrap().attrs.get("shields"), None);
    assert_eq!(
        pair.square(0, 1).unwrap().attrs.get("band"),
        Some(&AttrValue::Str("west".into()))
    );
    assert_eq!(
        pair.exits,
        [Exit {
            at: (15, 2),
            side: 1,
            feature: EdgeKind::Road
        }]
    );
    assert_eq!(pair.large_cities.len(), 1);
    assert_eq!(pair.square(7, 1).unwrap().large_city, Some(0));
}

#[test]
fn base_map_is_valid_and_zero_starts_are_fine() {
    let src = Source::new("ok.toml", BASE);
    let b = parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)));
    assert!(b.starts.is_empty());
    assert_eq!((b.width, b.height), (7, 4));
    assert_eq!(b.islands.len(), 1);
    assert_eq!(b.large_cities.len(), 1);
}

#[test]
fn character_missing_from_the_legend() {
    // Row 2 (third row), column 4: line 5, column 5.
    let text = BASE.replace("~..#..~", "~..#?.~");
    let (d, out) = errors(&text);
    assert_eq!(d.len(), 1, "{out}");
    assert!(out.contains("bad.toml:5:5"), "{out}");
    assert!(
        out.contains("character `?` at [4, 2] is not in the legend"),
        "{out}"
    );
    assert!(out.contains("the legend has: `#` `.` `i` `~`"), "{out}");
}

#[test]
fn grid_spans_with_crlf_line_endings() {
    let text = BASE.replace("~..#..~", "~..#.?~").replace('\n', "\r\n");
    let (_, out) = errors(&text);
    assert!(out.contains("bad.toml:5:6"), "{out}");
}

#[test]
fn grid_spans_in_a_one_line_literal_string() {
    // A literal string starting on the `grid =` line: no newline to trim, no escapes.
    let text = BASE
        .replace("grid = \"\"\"\n~~~~~~~\n", "grid = '''~~~~~~~\n")
        .replace("~~~~~ii\n\"\"\"", "~~~~~ii\n'''")
        .replace("~..#..~", "~..#..!");
    let (_, out) = errors(&text);
    assert!(out.contains("bad.toml:4:7"), "{out}");
}

#[test]
fn rows_of_different_lengths() {
    let text = BASE.replace("~.....~", "~......~");
    let (d, out) = errors(&text);
    assert_eq!(d.len(), 1, "{out}");
    assert!(out.contains("bad.toml:4:1"), "{out}");
    assert!(
        out.contains("row 1 of the grid has 8 squares, the first row has 7"),
        "{out}"
    );
}

#[test]
fn unknown_kind_with_suggestion() {
    let text = BASE.replace("\".\" = \"land\"", "\".\" = \"lnad\"");
    let (d, out) = errors(&text);
    assert!(out.contains("bad.toml:10:7"), "{out}");
    assert!(out.contains("unknown square kind `lnad`"), "{out}");
    assert!(out.contains("did you mean `land`?"), "{out}");
    // Only the legend entry is reported, not every `.` of the grid.
    assert_eq!(d.len(), 1, "{out}");
}

#[test]
fn unknown_kind_in_a_legend_table() {
    let text = base_with("\"t\" = { kind = \"large-city\", town = false }\n");
    let (_, out) = errors(&text);
    assert!(out.contains("bad.toml:13:16"), "{out}");
    assert!(out.contains("did you mean `large_city`?"), "{out}");
}

#[test]
fn start_square_not_on_land() {
    let (_, out) = errors(&base_with("[[start]]\nname = \"A\"\nat = [0, 0]\n"));
    assert!(out.contains("bad.toml:15:6"), "{out}");
    assert!(
        out.contains("start square `A` at [0, 0] is on a sea square, not land"),
        "{out}"
    );
}

#[test]
fn town_not_on_land() {
    let (_, out) = errors(&base_with("[[town]]\nname = \"T\"\nat = [3, 2]\n"));
    assert!(out.contains("bad.toml:15:6"), "{out}");
    assert!(
        out.contains("town `T` at [3, 2] is on a large_city square, not land"),
        "{out}"
    );
}

#[test]
fn legend_town_not_on_land() {
    let (_, out) = errors(&base_with("\"t\" = { kind = \"sea\", town = true }\n"));
    assert!(out.contains("bad.toml:13:16"), "{out}");
    assert!(out.contains("a town must be on land"), "{out}");
}

#[test]
fn coordinate_outside_the_grid() {
    let (_, out) = errors(&base_with("[[square]]\nat = [7, 1]\nattrs = { a = 1 }\n"));
    assert!(out.contains("bad.toml:14:6"), "{out}");
    assert!(out.contains("[7, 1] is outside the map"), "{out}");
    let (_, out) = errors(&base_with("[[start]]\nname = \"A\"\nat = [-1, 1]\n"));
    assert!(out.contains("bad.toml:15:6"), "{out}");
}

#[test]
fn ferry_not_from_land_to_island() {
    let (d, out) = errors(&base_with("[[ferry]]\nfrom = [0, 3]\nto = [4, 2]\n"));
    assert_eq!(d.len(), 2, "{out}");
    assert!(out.contains("bad.toml:14:8"), "{out}");
    assert!(
        out.contains("a ferry starts at [0, 3], a sea square"),
        "{out}"
    );
    assert!(out.contains("bad.toml:15:6"), "{out}");
    assert!(
        out.contains("a ferry ends at [4, 2], a land square"),
        "{out}"
    );
    let src = Source::new(
        "ok.toml",
        base_with("[[ferry]]\nfrom = [4, 2]\nto = [5, 3]\n"),
    );
    let b = parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)));
    assert_eq!(
        b.ferries,
        [Ferry {
            from: (4, 2),
            to: (5, 3)
        }]
    );
}

/// A map whose land reaches the border, for exits.
const BORDER: &str = r#"grid = """
x...
....
"""
[legend]
"x" = "offmap"
"." = "land"
"#;

#[test]
fn exits_must_face_off_the_map() {
    let ok = format!(
        "{BORDER}[[exit]]\nat = [0, 1]\nside = \"W\"\nfeature = \"road\"\n\
         [[exit]]\nat = [1, 0]\nside = \"W\"\nfeature = \"city\"\n"
    );
    let src = Source::new("ok.toml", ok);
    let b = parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)));
    assert_eq!(b.exits.len(), 2);

    // Line 10 is `side = "E"` of an exit whose east neighbour is land.
    let (_, out) = errors(&format!(
        "{BORDER}[[exit]]\nat = [1, 1]\nside = \"E\"\nfeature = \"road\"\n"
    ));
    assert!(out.contains("bad.toml:10:8"), "{out}");
    assert!(out.contains("the exit at [1, 1] does not face off the map: [2, 1] beyond its E side is a land square"), "{out}");

    let (_, out) = errors(&format!(
        "{BORDER}[[exit]]\nat = [0, 0]\nside = \"N\"\nfeature = \"road\"\n"
    ));
    assert!(out.contains("bad.toml:9:6"), "{out}");
    assert!(
        out.contains("the exit at [0, 0] is on an offmap square, not land"),
        "{out}"
    );
}

#[test]
fn bad_side_and_feature() {
    let (d, out) = errors(&format!(
        "{BORDER}[[exit]]\nat = [0, 1]\nside = \"west\"\nfeature = \"ctiy\"\n"
    ));
    assert_eq!(d.len(), 2, "{out}");
    assert!(out.contains("bad.toml:10:8"), "{out}");
    assert!(out.contains("unknown side `west`"), "{out}");
    assert!(out.contains("bad.toml:11:11"), "{out}");
    assert!(out.contains("unknown exit feature `ctiy`"), "{out}");
    assert!(out.contains("did you mean `city`?"), "{out}");
}

#[test]
fn attribute_with_two_types() {
    let text = base_with(
        "[[square]]\nat = [1, 1]\nattrs = { wine = \"blue\" }\n[[square]]\nat = [2, 1]\nattrs = { wine = 2 }\n",
    );
    let (d, out) = errors(&text);
    assert_eq!(d.len(), 1, "{out}");
    assert!(out.contains("bad.toml:18:18"), "{out}");
    assert!(
        out.contains("attribute `wine` is an int here but a string elsewhere"),
        "{out}"
    );
    assert!(out.contains("first a string at bad.toml:15:18"), "{out}");
}

#[test]
fn attribute_of_an_unsupported_type() {
    let (_, out) = errors(&base_with("[[square]]\nat = [1, 1]\nattrs = { x = 1.5 }\n"));
    assert!(out.contains("bad.toml:15:15"), "{out}");
    assert!(out.contains("attribute `x` is a float"), "{out}");
}

#[test]
fn duplicate_start_and_town_names() {
    let text =
        base_with("[[start]]\nname = \"A\"\nat = [1, 1]\n[[town]]\nname = \"A\"\nat = [2, 1]\n");
    let (d, out) = errors(&text);
    assert_eq!(d.len(), 1, "{out}");
    assert!(out.contains("bad.toml:17:8"), "{out}");
    assert!(out.contains("the name `A` is used twice"), "{out}");
    assert!(out.contains("first used at bad.toml:14:8"), "{out}");
}

#[test]
fn unknown_keys() {
    let (_, out) = errors(&base_with("[[start]]\nname = \"A\"\nposition = [1, 1]\n"));
    assert!(out.contains("bad.toml:15:1"), "{out}");
    assert!(out.contains("unknown field `position`"), "{out}");
    let (_, out) = errors(&format!("colour = 1\n{BASE}"));
    assert!(out.contains("bad.toml:1:1"), "{out}");
    assert!(out.contains("unknown field `colour`"), "{out}");
}

#[test]
fn toml_syntax_error() {
    let (d, out) = errors(&base_with("[[start]\n"));
    assert_eq!(d.len(), 1, "{out}");
    assert!(out.contains("bad.toml:13:"), "{out}");
}

#[test]
fn naming_areas() {
    let (_, out) = errors(&base_with("[[island]]\nname = \"I\"\nat = [1, 1]\n"));
    assert!(out.contains("bad.toml:15:6"), "{out}");
    assert!(
        out.contains("[1, 1] is a land square, not an island square"),
        "{out}"
    );
    let src = Source::new(
        "ok.toml",
        base_with("[[island]]\nname = \"I\"\nat = [6, 3]\nattrs = { colour = \"blue\" }\n"),
    );
    let b = parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)));
    assert_eq!(b.islands[0].name, "I");
    assert_eq!(b.square(5, 3).unwrap().name.as_deref(), Some("I"));
    assert_eq!(
        b.square(5, 3).unwrap().attrs.get("colour"),
        Some(&AttrValue::Str("blue".into()))
    );
}

#[test]
fn bad_group_ranges() {
    let (d, out) = errors(&base_with(
        "[[group]]\nname = \"g\"\nrows = [2, 9]\nattrs = { b = 1 }\n",
    ));
    assert_eq!(d.len(), 1, "{out}");
    assert!(out.contains("bad.toml:15:8"), "{out}");
    let (_, out) = errors(&base_with("[[group]]\nname = \"g\"\nattrs = { b = 1 }\n"));
    assert!(out.contains("group `g` has no squares"), "{out}");
}

#[test]
fn four_independent_mistakes_give_four_diagnostics() {
    let text = BASE.replace("~..#..~", "~..#.?~")
        + "[[start]]\nname = \"A\"\nat = [0, 0]\n"
        + "[[ferry]]\nfrom = [1, 1]\nto = [2, 1]\n"
        + "[[square]]\nat = [20, 1]\n";
    let (d, out) = errors(&text);
    assert_eq!(d.len(), 4, "{out}");
    for at in [
        "bad.toml:5:6",
        "bad.toml:15:6",
        "bad.toml:18:6",
        "bad.toml:20:6",
    ] {
        assert!(out.contains(at), "{at} missing in:\n{out}");
    }
}

/// Resolves every name to the same text, under a name given by `name_of(depth)`.
struct Loop<F: Fn(usize) -> String> {
    text: String,
    name_of: F,
    calls: Cell<usize>,
}

impl<F: Fn(usize) -> String> MapResolver for Loop<F> {
    fn resolve(&self, _: &str, _: &Source) -> Result<Source, String> {
        let n = self.calls.get() + 1;
        self.calls.set(n);
        Ok(Source::new((self.name_of)(n), self.text.clone()))
    }
}

const SELF_PART: &str = "name = \"loop\"\n[[part]]\nmap = \"self.toml\"\noffset = [0, 0]\n";

#[test]
fn a_self_including_part_is_a_clear_error() {
    let src = Source::new("self.toml", SELF_PART);
    let resolver = Loop {
        text: SELF_PART.to_string(),
        name_of: |_| "self.toml".to_string(),
        calls: Cell::new(0),
    };
    let d = parse_map(&src, &resolver).expect_err("a cycle");
    let out = src.render(&d);
    assert_eq!(d.len(), 1, "{out}");
    assert!(out.contains("self.toml:3:7"), "{out}");
    assert!(out.contains("map `self.toml` includes itself"), "{out}");
}

#[test]
fn a_self_including_file_on_disk() {
    let dir = std::env::temp_dir().join(format!("carto-maps-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("self.toml");
    std::fs::write(&path, SELF_PART).unwrap();
    let src = Source::new(path.to_string_lossy(), SELF_PART);
    let d = parse_map(&src, &BundledResolver).expect_err("a cycle");
    let out = src.render(&d);
    assert!(out.contains("includes itself"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn endless_nesting_stops_at_the_depth_limit() {
    let src = Source::new("deep.toml", SELF_PART);
    let resolver = Loop {
        text: SELF_PART.to_string(),
        name_of: |n| format!("deep{n}.toml"),
        calls: Cell::new(0),
    };
    let d = parse_map(&src, &resolver).expect_err("too deep");
    let out = src.render(&d);
    assert!(out.contains("deep.toml:3:7"), "{out}");
    assert!(
        out.contains(&format!("parts nest more than {MAX_PART_DEPTH} deep")),
        "{out}"
    );
    assert!(resolver.calls.get() <= MAX_PART_DEPTH + 2);
}

#[test]
fn problems_inside_a_part_are_shown_with_the_part_file() {
    struct One;
    impl MapResolver for One {
        fn resolve(&self, name: &str, _: &Source) -> Result<Source, String> {
            match name {
                "broken" => Ok(Source::new(
                    "broken.toml",
                    BASE.replace("~..#..~", "~..#.?~"),
                )),
                _ => Err(format!("no map `{name}`")),
            }
        }
    }
    let text = "[[part]]\nmap = \"broken\"\noffset = [0, 0]\n[[part]]\nmap = \"nowhere\"\noffset = [9, 0]\n";
    let src = Source::new("top.toml", text);
    let d = parse_map(&src, &One).expect_err("broken part");
    let out = src.render(&d);
    assert_eq!(d.len(), 2, "{out}");
    assert!(out.contains("top.toml:2:7"), "{out}");
    assert!(out.contains("part `broken` has 1 problem"), "{out}");
    assert!(out.contains("broken.toml:5:6"), "{out}");
    assert!(out.contains("top.toml:5:7"), "{out}");
    assert!(out.contains("no map `nowhere`"), "{out}");
}

#[test]
fn overlapping_parts() {
    let text = "[[part]]\nmap = \"test-west\"\noffset = [0, 0]\n[[part]]\nmap = \"test-east\"\noffset = [4, 0]\n";
    let (_, out) = errors(text);
    assert!(out.contains("bad.toml:5:7"), "{out}");
    assert!(
        out.contains("part `test-east` overlaps part `test-west`"),
        "{out}"
    );
}

#[test]
fn parts_with_a_gap_leave_offmap_squares_and_shared_names_are_errors() {
    let text = "[[part]]\nmap = \"test-west\"\noffset = [0, 0]\n[[part]]\nmap = \"test-west\"\noffset = [10, 2]\n";
    let (_, out) = errors(text);
    assert!(out.contains("bad.toml:5:7"), "{out}");
    assert!(
        out.contains("the name `Brest` is used in part `test-west` and in part `test-west`"),
        "{out}"
    );

    let src = Source::new(
        "gap.toml",
        "[[part]]\nmap = \"test-west\"\noffset = [0, 0]\n[[part]]\nmap = \"test-east\"\noffset = [10, 2]\n",
    );
    let b = parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)));
    assert_eq!((b.width, b.height), (18, 8));
    assert_eq!(b.square(8, 0).unwrap().kind, SquareKind::OffMap);
    assert_eq!(b.square(0, 7).unwrap().kind, SquareKind::OffMap);
    assert_eq!(b.square(10, 3).unwrap().kind, SquareKind::Land);
}

#[test]
fn a_map_with_parts_takes_no_grid() {
    let text = format!("{BASE}[[part]]\nmap = \"test-west\"\noffset = [0, 0]\n");
    let (_, out) = errors(&text);
    assert!(out.contains("bad.toml:2:8"), "{out}");
    assert!(
        out.contains("a map made of parts cannot also have `grid`"),
        "{out}"
    );
}

#[test]
fn readme_examples_parse() {
    let readme = include_str!("../maps/README.md");
    let blocks: Vec<&str> = readme
        .split("```toml\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .collect();
    assert!(blocks.len() >= 2);
    let src = Source::new("README.md", blocks[0]);
    let b = parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)));
    assert_eq!(b.starts.len(), 1);
    assert_eq!(b.exits.len(), 1);
    assert_eq!(b.islands[0].name, "Mallorca");
    assert_eq!(b.large_cities[0].name, "Paris");
}

#[test]
fn readme_composite_example_parses() {
    let readme = include_str!("../maps/README.md");
    let block = readme
        .split("```toml\n")
        .nth(2)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let src = Source::new("README.md", block);
    let b = parse_map(&src, &BundledResolver).unwrap_or_else(|d| panic!("{}", src.render(&d)));
    assert_eq!((b.width, b.height), (16, 6));
}

#[test]
fn a_huge_grid_is_refused_not_allocated() {
    let row = ".".repeat(70_000);
    let text = format!("grid = \"\"\"\n{row}\n.\n\"\"\"\n[legend]\n\".\" = \"land\"\n");
    let (d, out) = errors(&text);
    assert_eq!(d.len(), 1, "{out}");
    assert!(out.contains("too large"), "{out}");
}

/// A part named by a bare name that is no bundled map is a misspelt bundled name: the message names
/// the nearest one and the list, not a file it would not read.
#[test]
fn a_misspelt_bundled_part_is_named_as_such() {
    let (d, out) = errors("name = \"Two\"\n[[part]]\nmap = \"test-wst\"\noffset = [0, 0]\n");
    assert_eq!(d.len(), 1, "{out}");
    assert_eq!(d[0].code, carto::diag::Code::Part);
    assert!(
        out.contains("no bundled map `test-wst`: did you mean `test-west`?"),
        "{out}"
    );
    assert!(!out.contains("not a `.toml` file"), "{out}");
}
