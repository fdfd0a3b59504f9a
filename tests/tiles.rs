//! Bundled tile sets load, and broken tile sets are reported well.

use carto::diag::{Diagnostic, Source};
use carto::geometry::{half_from_name, EdgeKind, FeatureKind};
use carto::tiles::{bundled_tile_set, bundled_tile_sets, parse_tile_set, TileSet, TileType};

fn load(name: &str) -> TileSet {
    let text = bundled_tile_set(name).unwrap_or_else(|| panic!("no bundled set {name}"));
    let source = Source::new(format!("maps/tiles/{name}.toml"), text);
    match parse_tile_set(name, &source) {
        Ok(set) => set,
        Err(diags) => panic!("{}", source.render(&diags)),
    }
}

fn tile<'a>(set: &'a TileSet, id: &str) -> &'a TileType {
    set.tiles
        .iter()
        .find(|t| t.id == id)
        .unwrap_or_else(|| panic!("no tile {id}"))
}

fn of_kind(t: &TileType, kind: FeatureKind) -> Vec<&carto::tiles::Segment> {
    t.segments.iter().filter(|s| s.kind == kind).collect()
}

fn halves(names: &[&str]) -> u8 {
    names
        .iter()
        .map(|n| 1u8 << half_from_name(n).unwrap_or_else(|| panic!("{n}")))
        .fold(0, |a, b| a | b)
}

fn errors(text: &str) -> (Source, Vec<Diagnostic>) {
    let source = Source::new("bad.toml", text);
    match parse_tile_set("bad", &source) {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(diags) => (source, diags),
    }
}

/// `file:line:col` of the first occurrence of `needle` in the source.
fn position_of(source: &Source, needle: &str) -> String {
    let at = source
        .text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in source"));
    let (line, col) = source.line_col(at);
    format!("{}:{line}:{col}", source.name)
}

#[test]
fn every_bundled_set_parses_with_its_counts() {
    let expected = [
        ("base", 72, 24),
        ("inns-cathedrals", 18, 17),
        ("traders-builders", 24, 24),
    ];
    let names: Vec<&str> = bundled_tile_sets().collect();
    assert_eq!(names.len(), expected.len());
    for (name, total, types) in expected {
        assert!(names.contains(&name));
        let set = load(name);
        assert_eq!(set.name, name);
        assert_eq!(set.total(), total, "{name}");
        assert_eq!(set.tiles.len(), types, "{name}");
    }
    assert!(bundled_tile_set("nope").is_none());
}

/// The expansions' symbols as printed (issue 32 B.1): inns on 6 Inns & Cathedrals tiles and a
/// cathedral on 2; in Traders & Builders wine on 9 tiles, grain on 6, cloth on 5, 4 without goods.
#[test]
fn the_expansions_carry_their_symbols_as_printed() {
    use carto::map::AttrValue;
    use carto::tiles::attr_value;
    // Copies of the tiles (counted by `count`) with a segment giving `attr` the value `want`.
    let copies = |set: &TileSet, attr: &str, want: Option<AttrValue>| -> u32 {
        set.tiles
            .iter()
            .filter(|t| {
                let on = t.segments.iter().find_map(|s| attr_value(&s.attrs, attr));
                on.cloned() == want
            })
            .map(|t| t.count)
            .sum()
    };
    let ic = load("inns-cathedrals");
    assert_eq!(copies(&ic, "inn", Some(AttrValue::Bool(true))), 6);
    assert_eq!(copies(&ic, "cathedral", Some(AttrValue::Bool(true))), 2);
    let tb = load("traders-builders");
    let goods = |g: &str| copies(&tb, "goods", Some(AttrValue::Str(g.into())));
    assert_eq!((goods("wine"), goods("grain"), goods("cloth")), (9, 6, 5));
    assert_eq!(copies(&tb, "goods", None), 4);
    // Every tile of the set is one copy: the merged tiles are split again.
    assert!(tb.tiles.iter().all(|t| t.count == 1));
}

#[test]
fn base_has_one_start_tile_on_d() {
    let base = load("base");
    let starts: Vec<_> = base.tiles.iter().filter(|t| t.start > 0).collect();
    assert_eq!(starts.len(), 1);
    assert_eq!(starts[0].id, "D");
    assert_eq!(starts[0].start, 1);
    assert_eq!(starts[0].count, 4);
    for name in ["inns-cathedrals", "traders-builders"] {
        assert!(load(name).tiles.iter().all(|t| t.start == 0), "{name}");
    }
}

#[test]
fn base_counts_per_type() {
    let base = load("base");
    let counts: Vec<(String, u32)> = base.tiles.iter().map(|t| (t.id.clone(), t.count)).collect();
    let want = [
        ("A", 2),
        ("B", 4),
        ("C", 1),
        ("D", 4),
        ("E", 5),
        ("F", 2),
        ("G", 1),
        ("H", 3),
        ("I", 2),
        ("J", 3),
        ("K", 3),
        ("L", 3),
        ("M", 2),
        ("N", 3),
        ("O", 2),
        ("P", 3),
        ("Q", 1),
        ("R", 3),
        ("S", 2),
        ("T", 1),
        ("U", 8),
        ("V", 9),
        ("W", 4),
        ("X", 1),
    ];
    let want: Vec<(String, u32)> = want.iter().map(|(i, c)| (i.to_string(), *c)).collect();
    assert_eq!(counts, want);
}

#[test]
fn segments_are_ordered_cities_roads_fields_monastery() {
    for name in bundled_tile_sets() {
        for t in &load(name).tiles {
            let order: Vec<u8> = t
                .segments
                .iter()
                .map(|s| match s.kind {
                    FeatureKind::City => 0,
                    FeatureKind::Road => 1,
                    FeatureKind::Field => 2,
                    FeatureKind::Monastery => 3,
                })
                .collect();
            assert!(order.windows(2).all(|w| w[0] <= w[1]), "{name} {}", t.id);
            for s in &t.segments {
                for &c in &s.adjacent_cities {
                    assert_eq!(t.segments[c as usize].kind, FeatureKind::City, "{}", t.id);
                }
            }
        }
    }
}

#[test]
fn base_geometry_spot_checks() {
    let base = load("base");

    let d = tile(&base, "D");
    assert_eq!(
        d.edges,
        [
            EdgeKind::City,
            EdgeKind::Road,
            EdgeKind::Field,
            EdgeKind::Road
        ]
    );
    let fields = of_kind(d, FeatureKind::Field);
    assert_eq!(fields.len(), 2);
    assert_eq!(fields[0].halves, halves(&["En", "Wn"]));
    assert_eq!(fields[0].adjacent_cities, vec![0]);
    assert!(fields[1].adjacent_cities.is_empty());
    assert_eq!(of_kind(d, FeatureKind::Road)[0].sides, 0b1010);

    let c = tile(&base, "C");
    assert_eq!(c.segments.len(), 1);
    assert_eq!(c.segments[0].kind, FeatureKind::City);
    assert_eq!(c.segments[0].sides, 0b1111);
    assert_eq!(c.segments[0].shields, 1);

    let x = tile(&base, "X");
    let roads = of_kind(x, FeatureKind::Road);
    assert_eq!(roads.len(), 4);
    assert!(roads.iter().all(|r| r.sides.count_ones() == 1));
    let fields = of_kind(x, FeatureKind::Field);
    assert_eq!(fields.len(), 4);
    assert!(fields.iter().all(|f| f.halves.count_ones() == 2));

    let b = tile(&base, "B");
    assert_eq!(
        b.segments.last().map(|s| s.kind),
        Some(FeatureKind::Monastery)
    );
    assert_eq!(of_kind(b, FeatureKind::Field)[0].halves, 0xff);

    let h = tile(&base, "H");
    assert_eq!(of_kind(h, FeatureKind::City).len(), 2);
    assert_eq!(
        of_kind(h, FeatureKind::Field)[0].adjacent_cities,
        vec![0, 1]
    );

    let shields: u32 = base
        .tiles
        .iter()
        .flat_map(|t| {
            t.segments
                .iter()
                .map(move |s| u32::from(s.shields) * t.count)
        })
        .sum();
    assert_eq!(shields, 10, "C 1, F 2, M 2, O 2, Q 1, S 2");

    let monasteries: u32 = base
        .tiles
        .iter()
        .filter(|t| t.segments.iter().any(|s| s.kind == FeatureKind::Monastery))
        .map(|t| t.count)
        .sum();
    assert_eq!(monasteries, 6);
}

#[test]
fn expansion_spot_checks() {
    let ic = load("inns-cathedrals");
    let enclosed = tile(&ic, "IC-C");
    let field = of_kind(enclosed, FeatureKind::Field);
    assert_eq!(field.len(), 1);
    assert_eq!(field[0].halves, 0);
    assert_eq!(field[0].adjacent_cities, vec![0, 1, 2, 3]);
    assert_eq!(tile(&ic, "IC-B").count, 2);
    let monastery = tile(&ic, "IC-A");
    assert_eq!(of_kind(monastery, FeatureKind::Road).len(), 2);

    let tb = load("traders-builders");
    let bridge = tile(&tb, "TB-T");
    let roads = of_kind(bridge, FeatureKind::Road);
    assert_eq!(roads.len(), 2);
    assert!(roads.iter().all(|r| r.sides.count_ones() == 2));
}

#[test]
fn bad_edge_letter_points_at_the_value() {
    let text = r#"
[[tile]]
id = "A"
count = 1
edges = "FFXF"
fields = [{ halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] }]
"#;
    let (source, diags) = errors(text);
    assert_eq!(diags.len(), 1, "{}", source.render(&diags));
    let at = source.text.find("\"FFXF\"").unwrap_or_default();
    assert_eq!(diags[0].span, at..at + 6);
    let out = source.render(&diags);
    assert!(out.contains(&position_of(&source, "\"FFXF\"")), "{out}");
    assert!(out.contains("bad.toml:5:9"), "{out}");
    assert!(out.contains('X'), "{out}");
}

#[test]
fn three_independent_mistakes_give_three_diagnostics() {
    let text = r#"
[[tile]]
id = "A"
count = 1
edges = "FFRF"
roads = [{ sides = "S" }]
fields = [{ halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wx"] }]
monastery = true

[[tile]]
id = "B"
count = 0
edges = "CFFF"
cities = [{ sides = "N" }]
fields = [{ halves = ["En", "Es", "Se", "Sw", "Ws", "Wn"], cities = [0] }]

[[tile]]
id = "A"
count = 2
edges = "FFFF"
fields = [{ halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] }]
"#;
    let (source, diags) = errors(text);
    let out = source.render(&diags);
    assert_eq!(diags.len(), 3, "{out}");
    assert!(diags.iter().all(|d| d.span.start < d.span.end), "{out}");
    assert!(out.contains(&position_of(&source, "\"Wx\"")), "{out}");
    assert!(out.contains(&position_of(&source, "0\nedges")), "{out}");
    assert!(out.contains("bad.toml:18:6"), "{out}");
    assert!(out.contains("did you mean `Wn`?"), "{out}");
    assert!(out.contains("duplicate tile id `A`"), "{out}");
}

#[test]
fn consistency_problems_are_each_reported() {
    let text = r#"
[[tile]]
id = "D"
count = 2
start = 1
edges = "CRFR"
cities = [{ sides = "N" }]
roads = [{ sides = "E" }]
fields = [{ halves = ["En", "Wn", "Nw"], cities = [3] },
          { halves = ["Es", "Se", "Sw", "Ws"] }]

[[tile]]
id = "E"
count = 1
start = 1
edges = "CFFF"
cities = [{ sides = "NE" }]
fields = [{ halves = ["En", "Es", "Se", "Sw", "Ws", "Wn"], cities = [0] }]
"#;
    let (source, diags) = errors(text);
    let out = source.render(&diags);
    let has = |needle: &str| assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    // Tile D: W is a road side in no road; Nw is on a city side; city 3 does not exist.
    has("side W is a road but no road segment holds it");
    has("half-edge Nw is on side N, which is a city");
    has("there is no city 3 on this tile");
    has(&position_of(&source, "3] }"));
    has(&position_of(&source, "\"Nw\"],"));
    // Tile E: its city claims side E, which `edges` calls a field.
    has("side E is in a city but `edges` says `F` there");
    // Two start tiles.
    has("a second tile type is marked as the start tile");
    assert!(diags.iter().all(|d| d.span.start < d.span.end), "{out}");
    assert_eq!(diags.len(), 5, "{out}");
}

#[test]
fn unclaimed_halves_are_listed_once() {
    let text = r#"
[[tile]]
id = "V"
count = 1
edges = "FFRR"
roads = [{ sides = "SW" }]
fields = [{ halves = ["Nw", "Ne", "En", "Es", "Se"] }]
"#;
    let (source, diags) = errors(text);
    let out = source.render(&diags);
    assert_eq!(diags.len(), 1, "{out}");
    assert!(
        out.contains("half-edges Sw, Ws, Wn are in no field"),
        "{out}"
    );
    assert!(out.contains(&position_of(&source, "\"FFRR\"")), "{out}");
}

#[test]
fn type_and_key_mistakes_are_reported_together() {
    let text = r#"
[[tile]]
idd = "A"
count = "two"
edges = "FFFF"
fields = [{ halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] }]
monastery = "yes"
"#;
    let (source, diags) = errors(text);
    let out = source.render(&diags);
    assert!(out.contains("unknown key `idd`"), "{out}");
    assert!(out.contains("did you mean `id`?"), "{out}");
    assert!(out.contains("this tile has no `id`"), "{out}");
    assert!(out.contains("bad.toml:2:1"), "{out}");
    let missing = diags.iter().find(|d| d.message.contains("no `id`"));
    assert_eq!(
        missing.map(|d| d.span.len()),
        Some("[[tile]]".len()),
        "{out}"
    );
    assert!(out.contains(&position_of(&source, "\"two\"")), "{out}");
    assert!(out.contains(&position_of(&source, "\"yes\"")), "{out}");
    assert!(diags.iter().all(|d| d.span.start < d.span.end), "{out}");
}

#[test]
fn syntax_errors_have_a_span() {
    let text = "[[tile]]\nid = \"A\nbroken\n";
    let (source, diags) = errors(text);
    assert_eq!(diags.len(), 1);
    assert!(diags[0].span.start > 0, "{}", source.render(&diags));
    assert!(
        source.render(&diags).contains("bad.toml:2:"),
        "{}",
        source.render(&diags)
    );
}

#[test]
fn empty_sets_are_rejected() {
    let (_, diags) = errors("# nothing here\n");
    assert_eq!(diags.len(), 1);
    assert!(diags[0].span.end > 0);
}
