//! The JSON Schemas of maps and tile sets (`schema/`) against the loaders: every bundled map and tile
//! set names its schema on its first line (`#:schema …`, read by TOML editors such as taplo and Even
//! Better TOML) and passes it; and over the bundled files and a set of broken ones, the schema accepts a
//! file exactly when the loader loads it. The broken files are broken in shape (unknown keys, wrong
//! types, unknown names), which is what a schema can see; mistakes of meaning (a grid character missing
//! from the legend, a coordinate outside the grid) only the loader finds.

use carto::diag::Source;
use carto::map::parse_map;
use carto::tiles::parse_tile_set;
use carto::variant::BundledOnly;
use std::path::Path;

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schema")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(
        jsonschema::meta::is_valid(&value),
        "{name} is not a valid JSON Schema"
    );
    jsonschema::validator_for(&value).unwrap()
}

/// The TOML as JSON, or `None` when it is not TOML at all.
fn as_json(text: &str) -> Option<serde_json::Value> {
    toml::from_str::<serde_json::Value>(text).ok()
}

fn schema_accepts(v: &jsonschema::Validator, text: &str) -> bool {
    as_json(text).is_some_and(|j| v.is_valid(&j))
}

fn map_loads(text: &str) -> bool {
    parse_map(&Source::new("case.toml", text), &BundledOnly).is_ok()
}

fn tiles_load(text: &str) -> bool {
    parse_tile_set("case", &Source::new("case.toml", text)).is_ok()
}

fn toml_files(dir: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_bundled_map_names_and_passes_the_schema() {
    let v = schema("map.schema.json");
    let files = toml_files("maps");
    assert!(files.len() >= 14, "{}", files.len());
    for (name, text) in files {
        assert_eq!(
            text.lines().next(),
            Some("#:schema ../schema/map.schema.json"),
            "{name}: the first line names the schema"
        );
        let json = as_json(&text).unwrap();
        let errors: Vec<String> = v.iter_errors(&json).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert!(map_loads(&text), "{name} does not load");
    }
}

/// The fixture variants' own map (issue 8, D) names the schema and passes it too.
#[test]
fn the_fixture_map_names_and_passes_the_schema() {
    let v = schema("map.schema.json");
    let files = toml_files("tests/fixtures");
    assert_eq!(files.len(), 1, "{files:?}");
    for (name, text) in files {
        assert_eq!(
            text.lines().next(),
            Some("#:schema ../../schema/map.schema.json"),
            "{name}: the first line names the schema"
        );
        let json = as_json(&text).unwrap();
        let errors: Vec<String> = v.iter_errors(&json).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert!(map_loads(&text), "{name} does not load");
    }
}

#[test]
fn every_bundled_tile_set_names_and_passes_the_schema() {
    let v = schema("tile-set.schema.json");
    let files = toml_files("maps/tiles");
    assert!(files.len() >= 3, "{}", files.len());
    for (name, text) in files {
        assert_eq!(
            text.lines().next(),
            Some("#:schema ../../schema/tile-set.schema.json"),
            "{name}: the first line names the schema"
        );
        let json = as_json(&text).unwrap();
        let errors: Vec<String> = v.iter_errors(&json).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert!(tiles_load(&text), "{name} does not load");
    }
}

const GRID: &str =
    "grid = \"\"\"\n~~~~\n~..~\n~~~~\n\"\"\"\n[legend]\n\"~\" = \"sea\"\n\".\" = \"land\"\n";

/// (what, map text, whether it is a good map).
fn map_cases() -> Vec<(&'static str, String, bool)> {
    let g = GRID;
    vec![
        ("minimal", g.to_string(), true),
        ("named, with doc", format!("name = \"M\"\ndoc = \"d\"\n{g}"), true),
        ("legend table", format!("{g}\"t\" = {{ kind = \"land\", town = true, attrs = {{ wine = \"blue\" }} }}\n"), true),
        ("start", format!("{g}[[start]]\nname = \"A\"\nat = [1, 1]\n"), true),
        ("group by rows", format!("{g}[[group]]\nname = \"b\"\nrows = [0, 1]\nattrs = {{ band = \"x\", n = 2, ok = true }}\n"), true),
        ("square attrs", format!("{g}[[square]]\nat = [1, 1]\nattrs = {{ spot = \"blue\" }}\n"), true),
        ("parts", "name = \"P\"\n[[part]]\nmap = \"test-west\"\noffset = [0, 0]\n[[part]]\nmap = \"test-east\"\noffset = [8, 0]\n".into(), true),
        ("unknown top-level key", format!("{g}colour = 3\n"), false),
        ("no grid and no parts", "name = \"M\"\n".into(), false),
        ("kind misspelt", GRID.replace("\"land\"", "\"lnad\""), false),
        ("legend key of two characters", format!("{g}\"ab\" = \"land\"\n"), false),
        ("legend table without kind", format!("{g}\"t\" = {{ town = true }}\n"), false),
        ("legend table unknown key", format!("{g}\"t\" = {{ kind = \"land\", size = 2 }}\n"), false),
        ("start without name", format!("{g}[[start]]\nat = [1, 1]\n"), false),
        ("start with three coordinates", format!("{g}[[start]]\nname = \"A\"\nat = [1, 1, 1]\n"), false),
        ("coordinate not a number", format!("{g}[[start]]\nname = \"A\"\nat = [\"1\", 1]\n"), false),
        ("exit side X", format!("{g}[[exit]]\nat = [1, 1]\nside = \"X\"\nfeature = \"road\"\n"), false),
        ("exit feature river", format!("{g}[[exit]]\nat = [1, 1]\nside = \"N\"\nfeature = \"river\"\n"), false),
        ("ferry without to", format!("{g}[[ferry]]\nfrom = [1, 1]\n"), false),
        ("attribute a float", format!("{g}[[square]]\nat = [1, 1]\nattrs = {{ x = 1.5 }}\n"), false),
        ("attribute a list", format!("{g}[[square]]\nat = [1, 1]\nattrs = {{ x = [1] }}\n"), false),
        ("group without squares, rows or cols", format!("{g}[[group]]\nname = \"b\"\n"), false),
        ("part without offset", "[[part]]\nmap = \"test-west\"\n".into(), false),
        ("parts and a grid", format!("{g}[[part]]\nmap = \"test-west\"\noffset = [0, 0]\n"), false),
        ("grid a number", "grid = 3\n".into(), false),
        ("not TOML", "grid = \n".into(), false),
    ]
}

fn tile(body: &str) -> String {
    format!("[[tile]]\nid = \"A\"\ncount = 1\n{body}\n")
}

fn tile_cases() -> Vec<(&'static str, String, bool)> {
    let farm =
        "fields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Es\", \"Se\", \"Sw\", \"Ws\", \"Wn\"] }]";
    vec![
        ("a field tile", tile(&format!("edges = \"FFFF\"\n{farm}")), true),
        ("a monastery", tile(&format!("edges = \"FFFF\"\nmonastery = true\nname = \"m\"\nstart = 1\n{farm}")), true),
        ("a city with a shield", tile("edges = \"CCCC\"\ncities = [{ sides = \"NESW\", shield = true }]"), true),
        ("unknown top-level key", format!("colour = 1\n{}", tile(&format!("edges = \"FFFF\"\n{farm}"))), false),
        ("unknown tile key", tile(&format!("edges = \"FFFF\"\nriver = true\n{farm}")), false),
        ("no edges", tile(farm), false),
        ("no id", format!("[[tile]]\ncount = 1\nedges = \"FFFF\"\n{farm}\n"), false),
        ("edge letter X", tile("edges = \"CCCX\"\ncities = [{ sides = \"NES\" }]"), false),
        ("count 0", format!("[[tile]]\nid = \"A\"\ncount = 0\nedges = \"FFFF\"\n{farm}\n"), false),
        ("count 1001", format!("[[tile]]\nid = \"A\"\ncount = 1001\nedges = \"FFFF\"\n{farm}\n"), false),
        ("count a string", format!("[[tile]]\nid = \"A\"\ncount = \"2\"\nedges = \"FFFF\"\n{farm}\n"), false),
        ("shield a string", tile("edges = \"CCCC\"\ncities = [{ sides = \"NESW\", shield = \"yes\" }]"), false),
        ("half-edge misspelt", tile("edges = \"FFFF\"\nfields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Es\", \"Se\", \"Sw\", \"Ws\", \"Wx\"] }]"), false),
        ("monastery a string", tile(&format!("edges = \"FFFF\"\nmonastery = \"yes\"\n{farm}")), false),
        ("road side Q", tile("edges = \"FFRF\"\nroads = [{ sides = \"Q\" }]"), false),
        ("unknown key in a field", tile("edges = \"FFFF\"\nfields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Es\", \"Se\", \"Sw\", \"Ws\", \"Wn\"], farmers = 1 }]"), false),
    ]
}

#[test]
fn schema_and_loader_agree_on_maps() {
    let v = schema("map.schema.json");
    let mut cases = map_cases();
    cases.extend(
        toml_files("maps")
            .into_iter()
            .map(|(_, t)| ("bundled", t, true)),
    );
    for (what, text, good) in cases {
        assert_eq!(map_loads(&text), good, "the loader, on `{what}`:\n{text}");
        assert_eq!(
            schema_accepts(&v, &text),
            good,
            "the schema, on `{what}`:\n{text}"
        );
    }
}

#[test]
fn schema_and_loader_agree_on_tile_sets() {
    let v = schema("tile-set.schema.json");
    let mut cases = tile_cases();
    cases.extend(
        toml_files("maps/tiles")
            .into_iter()
            .map(|(_, t)| ("bundled", t, true)),
    );
    for (what, text, good) in cases {
        assert_eq!(tiles_load(&text), good, "the loader, on `{what}`:\n{text}");
        assert_eq!(
            schema_accepts(&v, &text),
            good,
            "the schema, on `{what}`:\n{text}"
        );
    }
}
