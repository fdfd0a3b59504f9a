//! The USA West / USA East (and both side by side), Taiwan and Ukraine maps: they parse from disk and
//! carry the data their variants need (map-chips spec §2, §5.6–§5.8, §6).

use crate::common;

use carto::map::*;
use common::load_map as load;
use std::collections::BTreeSet;

fn coords(b: &MapBoard) -> impl Iterator<Item = (i32, i32, &Square)> {
    (0..b.height).flat_map(move |y| (0..b.width).map(move |x| (x, y, b.square(x, y).unwrap())))
}

fn land_count(b: &MapBoard) -> usize {
    coords(b)
        .filter(|(_, _, s)| s.kind == SquareKind::Land)
        .count()
}

/// Names of the towns that are not start squares.
fn plain_towns(b: &MapBoard) -> Vec<String> {
    coords(b)
        .filter(|(_, _, s)| s.town && s.start.is_none())
        .map(|(x, y, s)| {
            assert_eq!(s.kind, SquareKind::Land, "town at ({x}, {y})");
            s.name
                .clone()
                .unwrap_or_else(|| panic!("unnamed town at ({x}, {y})"))
        })
        .collect()
}

fn start_names(b: &MapBoard) -> Vec<&str> {
    b.starts.iter().map(|s| s.name.as_str()).collect()
}

/// Common checks of every map: a schematic `doc`, start squares that are named towns on land, at least
/// two named large cities, and enough land for a game.
fn common(b: &MapBoard, min_land: usize) {
    assert!(
        b.doc.contains("schematic"),
        "{}: doc should say it is a schematic stand-in",
        b.name
    );
    assert_eq!(b.squares.len(), (b.width * b.height) as usize);
    for s in &b.starts {
        let sq = b.square(s.at.0, s.at.1).unwrap();
        assert_eq!(sq.kind, SquareKind::Land, "{}", s.name);
        assert!(sq.town, "{}", s.name);
        assert_eq!(sq.name.as_deref(), Some(s.name.as_str()));
    }
    common::assert_large_cities_named(b);
    let land = land_count(b);
    assert!(
        land >= min_land,
        "{}: {land} land squares < {min_land}",
        b.name
    );
}

#[test]
fn usa_west() {
    let b = load("usa-west.toml");
    common(&b, 170);
    assert_eq!(start_names(&b), ["Boise", "Phoenix"]);
    assert_eq!(plain_towns(&b).len(), 15, "{:?}", plain_towns(&b));
    // Pacific on the west coast, land all down the east edge.
    for y in 0..b.height {
        assert_eq!(b.square(0, y).unwrap().kind, SquareKind::Sea, "(0, {y})");
        assert_eq!(
            b.square(b.width - 1, y).unwrap().kind,
            SquareKind::Land,
            "east edge row {y}"
        );
    }
}

#[test]
fn usa_east() {
    let b = load("usa-east.toml");
    common(&b, 170);
    assert_eq!(start_names(&b), ["St. Louis", "Pittsburgh"]);
    assert_eq!(plain_towns(&b).len(), 15, "{:?}", plain_towns(&b));
    // Atlantic on the east side.
    let atlantic = (0..b.height)
        .filter(|&y| b.square(b.width - 1, y).unwrap().kind == SquareKind::Sea)
        .count();
    assert!(atlantic >= 10, "{atlantic} sea squares on the east edge");
    assert_eq!(b.square(0, 0).unwrap().kind, SquareKind::Land);
}

#[test]
fn usa_side_by_side() {
    let w = load("usa-west.toml");
    let e = load("usa-east.toml");
    let b = load("usa.toml");
    assert_eq!(b.width, w.width + e.width);
    assert_eq!(b.height, w.height);
    assert_eq!(w.height, e.height);
    assert_eq!(b.squares.len(), (b.width * b.height) as usize);
    assert_eq!(
        start_names(&b),
        ["Boise", "Phoenix", "St. Louis", "Pittsburgh"]
    );
    let towns = plain_towns(&b);
    assert_eq!(towns.len(), 30, "{towns:?}");
    assert_eq!(
        towns.iter().collect::<BTreeSet<_>>().len(),
        30,
        "town names unique"
    );
    assert_eq!(land_count(&b), land_count(&w) + land_count(&e));
    assert!(b.large_cities.len() >= 4);
    // The seam: West's last column against East's first, land next to land on most rows.
    let seam = w.width - 1;
    let joined = (0..b.height)
        .filter(|&y| {
            b.square(seam, y).unwrap().kind == SquareKind::Land
                && b.square(seam + 1, y).unwrap().kind == SquareKind::Land
        })
        .count();
    assert!(joined >= 10, "only {joined} rows join across the seam");
    // Squares of each part land where the offset puts them.
    for y in 0..w.height {
        for x in 0..w.width {
            assert_eq!(b.square(x, y).unwrap().kind, w.square(x, y).unwrap().kind);
        }
        for x in 0..e.width {
            let kind = b.square(w.width + x, y).unwrap().kind;
            assert_eq!(kind, e.square(x, y).unwrap().kind);
        }
    }
}

#[test]
fn taiwan() {
    let b = load("taiwan.toml");
    common(&b, 150);
    assert_eq!(start_names(&b), ["Mount Snow", "Mount Jade"]);
    let names: Vec<&str> = b.large_cities.iter().map(|c| c.name.as_str()).collect();
    assert!(
        names.contains(&"Taipei") && names.contains(&"Kaohsiung"),
        "{names:?}"
    );
    // Every island is named and reached by a ferry from a coast land square.
    assert!(b.islands.len() >= 4, "{} islands", b.islands.len());
    for (i, island) in b.islands.iter().enumerate() {
        assert!(!island.name.is_empty(), "island {i} unnamed");
        let ferry = b
            .ferries
            .iter()
            .find(|f| b.square(f.to.0, f.to.1).unwrap().island == Some(i as u16))
            .unwrap_or_else(|| panic!("no ferry to {}", island.name));
        let (fx, fy) = ferry.from;
        assert_eq!(b.square(fx, fy).unwrap().kind, SquareKind::Land);
        let coast = [(0, 1), (1, 0), (0, -1), (-1, 0)]
            .iter()
            .any(|(dx, dy)| b.square(fx + dx, fy + dy).map(|s| s.kind) == Some(SquareKind::Sea));
        assert!(coast, "ferry to {} starts inland", island.name);
    }
    // Coats of arms on island squares only, on several islands.
    let shields: Vec<(i32, i32, i64)> = coords(&b)
        .filter_map(|(x, y, s)| match s.attrs.get("shields") {
            // Island squares carry `shields = 0` unless they show coats of arms (rules read it).
            Some(AttrValue::Int(0)) => None,
            Some(AttrValue::Int(n)) => {
                assert_eq!(s.kind, SquareKind::Island, "shields on ({x}, {y})");
                Some((x, y, *n))
            }
            Some(v) => panic!("shields = {v:?} at ({x}, {y})"),
            None => None,
        })
        .collect();
    assert!(shields.len() >= 3, "{shields:?}");
    assert!(shields.iter().all(|&(_, _, n)| n == 1 || n == 2));
    let with_shields: BTreeSet<u16> = shields
        .iter()
        .map(|&(x, y, _)| b.square(x, y).unwrap().island.unwrap())
        .collect();
    assert!(with_shields.len() >= 3);
}

#[test]
fn ukraine() {
    let b = load("ukraine.toml");
    common(&b, 170);
    assert_eq!(b.starts.len(), 3, "{:?}", start_names(&b));
    let chumaks: Vec<(i32, i32)> = coords(&b)
        .filter(|(_, _, s)| s.attrs.get("chumak") == Some(&AttrValue::Bool(true)))
        .map(|(x, y, s)| {
            assert_eq!(s.kind, SquareKind::Land, "chumak ({x}, {y})");
            assert_eq!(s.attrs.get("slots"), Some(&AttrValue::Int(4)), "({x}, {y})");
            assert!(!s.town, "chumak ({x}, {y}) is a town");
            (x, y)
        })
        .collect();
    assert!(chumaks.len() >= 4, "{chumaks:?}");
    let starts: Vec<(i32, i32)> = b.starts.iter().map(|s| s.at).collect();
    let adjacent = |a: (i32, i32), c: (i32, i32)| (a.0 - c.0).abs() + (a.1 - c.1).abs() == 1;
    for &c in &chumaks {
        for &d in &chumaks {
            assert!(!adjacent(c, d), "chumaks {c:?} and {d:?} adjacent");
        }
        for &s in &starts {
            assert!(
                !adjacent(c, s) && c != s,
                "chumak {c:?} next to start {s:?}"
            );
        }
    }
    // Spread over the country: in both halves, west and east.
    let mid = b.width / 2;
    assert!(chumaks.iter().any(|c| c.0 < mid) && chumaks.iter().any(|c| c.0 >= mid));
    // Black Sea and Sea of Azov in the south.
    let south_sea = coords(&b)
        .filter(|&(_, y, s)| y >= b.height / 2 && s.kind == SquareKind::Sea)
        .count();
    assert!(south_sea >= 20, "{south_sea}");
    let names: Vec<&str> = b.large_cities.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"Kyiv"), "{names:?}");
}
