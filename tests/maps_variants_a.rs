//! The schematic variant maps France, Germany, Benelux, Iberia and Great Britain: each parses and
//! carries the data its chip variant needs (`/work/shared/spec/map-chips.md` §6).

use crate::common;

use carto::geometry::EdgeKind;
use carto::map::{AttrValue, MapBoard, SquareKind};
use common::load_map as load;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

fn xy(b: &MapBoard, i: usize) -> (i32, i32) {
    (i as i32 % b.width, i as i32 / b.width)
}

fn count_kind(b: &MapBoard, kind: SquareKind) -> usize {
    b.squares.iter().filter(|s| s.kind == kind).count()
}

fn str_attr<'a>(b: &'a MapBoard, x: i32, y: i32, name: &str) -> Option<&'a str> {
    match b.square(x, y)?.attrs.get(name) {
        Some(AttrValue::Str(s)) => Some(s),
        _ => None,
    }
}

/// Squares (as `(x, y)`) whose string attribute `name` is set, by value.
fn by_attr(b: &MapBoard, name: &str) -> BTreeMap<String, Vec<(i32, i32)>> {
    let mut out: BTreeMap<String, Vec<(i32, i32)>> = BTreeMap::new();
    for (i, s) in b.squares.iter().enumerate() {
        if let Some(AttrValue::Str(v)) = s.attrs.get(name) {
            out.entry(v.clone()).or_default().push(xy(b, i));
        }
    }
    out
}

fn adjacent(a: (i32, i32), c: (i32, i32)) -> bool {
    (a.0 - c.0).abs() + (a.1 - c.1).abs() == 1
}

/// Squares a tile path can reach from the start squares: land and large cities by adjacency
/// (a discovered large city lets tiles go round it), islands by ferry and then within the island.
fn reachable(b: &MapBoard) -> BTreeSet<(i32, i32)> {
    let mut seen: BTreeSet<(i32, i32)> = b.starts.iter().map(|s| s.at).collect();
    let mut queue: VecDeque<(i32, i32)> = seen.iter().copied().collect();
    while let Some((x, y)) = queue.pop_front() {
        let here = b.square(x, y).unwrap().kind;
        let mut next: Vec<(i32, i32)> = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            .into_iter()
            .filter(|&(nx, ny)| match b.square(nx, ny).map(|s| s.kind) {
                Some(SquareKind::Land | SquareKind::LargeCity) => here != SquareKind::Island,
                Some(SquareKind::Island) => here == SquareKind::Island,
                _ => false,
            })
            .collect();
        if here == SquareKind::Land {
            next.extend(b.ferries.iter().filter(|f| f.from == (x, y)).map(|f| f.to));
        }
        for p in next {
            if seen.insert(p) {
                queue.push_back(p);
            }
        }
    }
    seen
}

/// Checks shared by every map: start names, land count, named large cities, sea, a doc string, and
/// every land and island square reachable from the start squares.
fn common(b: &MapBoard, starts: &[&str], min_land: usize) {
    let names: Vec<&str> = b.starts.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, starts, "{}: start squares", b.name);
    for s in &b.starts {
        let sq = b.square(s.at.0, s.at.1).unwrap();
        assert_eq!(sq.kind, SquareKind::Land, "{}: start {}", b.name, s.name);
        assert!(sq.town, "{}: start {} is a town", b.name, s.name);
    }
    let land = count_kind(b, SquareKind::Land);
    assert!(
        land >= min_land,
        "{}: {land} land squares < {min_land}",
        b.name
    );
    assert!(count_kind(b, SquareKind::Sea) > 0, "{}: no sea", b.name);
    common::assert_large_cities_named(b);
    assert!(b.doc.contains("schematic"), "{}: doc", b.name);
    let reach = reachable(b);
    for (i, s) in b.squares.iter().enumerate() {
        if s.kind.takes_tile() {
            assert!(
                reach.contains(&xy(b, i)),
                "{}: {:?} unreachable",
                b.name,
                xy(b, i)
            );
        }
    }
}

#[test]
fn france() {
    let b = load("france.toml");
    common(&b, &["Nancy", "Le Mans", "Limoges"], 170);
    let mut per_colour: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, s) in b.squares.iter().enumerate() {
        if s.town {
            let (x, y) = xy(&b, i);
            let wine = str_attr(&b, x, y, "wine")
                .unwrap_or_else(|| panic!("town {:?} at {:?} has no wine", s.name, (x, y)));
            assert!(
                ["purple", "blue", "orange"].contains(&wine),
                "wine {wine} at {:?}",
                (x, y)
            );
            *per_colour.entry(wine).or_default() += 1;
        }
    }
    assert_eq!(per_colour.len(), 3, "{per_colour:?}");
    assert!(
        per_colour.values().all(|&n| (4..=7).contains(&n)),
        "{per_colour:?}"
    );
    let roads = b
        .exits
        .iter()
        .filter(|e| e.feature == EdgeKind::Road)
        .count();
    let cities = b
        .exits
        .iter()
        .filter(|e| e.feature == EdgeKind::City)
        .count();
    assert!(roads >= 6, "{roads} road exits");
    assert!(cities >= 3, "{cities} city exits");
    // Exits on the land border only (east, top right, bottom), never on the sea coast.
    for e in &b.exits {
        assert_eq!(b.square(e.at.0, e.at.1).unwrap().kind, SquareKind::Land);
        assert!(e.at.0 >= 5, "exit {:?} on the Atlantic side", e.at);
    }
    let paris = b.large_cities.iter().find(|c| c.name == "Paris").unwrap();
    assert!((2..=4).contains(&paris.squares.len()));
}

#[test]
fn germany() {
    let b = load("germany.toml");
    common(&b, &["Rostock", "Erfurt", "Stuttgart"], 170);
    let towns = b.squares.iter().filter(|s| s.town).count();
    assert!(towns >= 3 + 5, "{towns} towns");
    // Sea in the north: the top rows are mostly sea, the bottom rows have none but a lake.
    let sea_in = |rows: std::ops::Range<i32>| {
        rows.flat_map(|y| (0..b.width).map(move |x| (x, y)))
            .filter(|&(x, y)| b.square(x, y).unwrap().kind == SquareKind::Sea)
            .count()
    };
    assert!(sea_in(0..3) > 3 * b.width as usize / 2);
    assert!(sea_in(b.height / 2..b.height) <= 2);
    let rostock = b.starts[0].at;
    assert_eq!(
        b.square(rostock.0, rostock.1 - 1).unwrap().kind,
        SquareKind::Sea
    );
}

#[test]
fn benelux() {
    let b = load("benelux.toml");
    common(&b, &["Meppel", "Eindhoven", "Charleroi"], 170);
    assert_eq!(count_kind(&b, SquareKind::Wave), 3);
    let stacks = by_attr(&b, "stack");
    assert_eq!(
        stacks.keys().map(String::as_str).collect::<Vec<_>>(),
        ["blue", "orange", "purple"]
    );
    for (colour, squares) in &stacks {
        assert_eq!(squares.len(), 2, "{colour} stacks {squares:?}");
        assert!(
            adjacent(squares[0], squares[1]),
            "{colour} island is one group"
        );
        for &(x, y) in squares {
            assert_eq!(
                b.square(x, y).unwrap().kind,
                SquareKind::Sea,
                "{colour} {:?}",
                (x, y)
            );
        }
        let group = b
            .groups
            .iter()
            .find(|g| g.attrs.get("stack") == Some(&AttrValue::Str(colour.clone())))
            .unwrap_or_else(|| panic!("no named island for {colour}"));
        assert!(!group.name.is_empty());
    }
}

#[test]
fn iberia() {
    let b = load("iberia.toml");
    common(&b, &["León", "Pamplona", "Évora", "Murcia"], 170);
    assert_eq!(b.height, 12, "the bands need exactly 12 rows");
    for (colour, first) in [("orange", 0), ("blue", 4), ("purple", 8)] {
        let g = b
            .groups
            .iter()
            .find(|g| g.attrs.get("band") == Some(&AttrValue::Str(colour.into())))
            .unwrap_or_else(|| panic!("no band {colour}"));
        let rows: BTreeSet<i32> = g.squares.iter().map(|&(_, y)| y).collect();
        assert_eq!(rows, (first..first + 4).collect(), "band {colour}");
        assert_eq!(
            g.squares.len(),
            4 * b.width as usize,
            "band {colour} spans whole rows"
        );
        for y in first..first + 4 {
            for x in 0..b.width {
                assert_eq!(str_attr(&b, x, y, "band"), Some(colour));
            }
            let land = (0..b.width)
                .filter(|&x| b.square(x, y).unwrap().kind == SquareKind::Land)
                .count();
            assert!(land >= 4, "row {y} has {land} land squares for treats");
        }
    }
    assert!(!b.islands.is_empty());
    assert!(!b.ferries.is_empty());
    for f in &b.ferries {
        assert_eq!(b.square(f.from.0, f.from.1).unwrap().kind, SquareKind::Land);
        assert_eq!(b.square(f.to.0, f.to.1).unwrap().kind, SquareKind::Island);
    }
    // Every island has a ferry; the Balearics lie east of the mainland.
    let mainland_east = (0..b.width)
        .filter(|&x| (0..b.height).any(|y| b.square(x, y).unwrap().kind == SquareKind::Land))
        .max()
        .unwrap();
    for isl in &b.islands {
        assert!(!isl.name.is_empty());
        assert!(
            b.ferries.iter().any(|f| isl.squares.contains(&f.to)),
            "{}",
            isl.name
        );
        assert!(isl.squares.iter().all(|&(x, _)| x > mainland_east - 5));
    }
    let shields: Vec<(i32, i32)> = (0..b.squares.len())
        .filter(|&i| matches!(b.squares[i].attrs.get("shields"), Some(AttrValue::Int(n)) if *n > 0))
        .map(|i| xy(&b, i))
        .collect();
    assert!(!shields.is_empty());
    for &(x, y) in &shields {
        assert_eq!(
            b.square(x, y).unwrap().kind,
            SquareKind::Island,
            "shields at {:?}",
            (x, y)
        );
    }
}

#[test]
fn great_britain() {
    let b = load("great-britain.toml");
    common(&b, &["Kilkenny", "Carlisle", "Bristol"], 140);
    let spots = by_attr(&b, "spot");
    assert_eq!(
        spots.keys().map(String::as_str).collect::<Vec<_>>(),
        ["blue", "orange", "purple"]
    );
    let all: Vec<(i32, i32)> = spots.values().flatten().copied().collect();
    assert_eq!(all.len(), 30);
    for (colour, squares) in &spots {
        assert_eq!(squares.len(), 10, "{colour} spots");
    }
    for (i, &p) in all.iter().enumerate() {
        let sq = b.square(p.0, p.1).unwrap();
        assert_eq!(sq.kind, SquareKind::Land, "spot {p:?}");
        assert!(
            sq.start.is_none() && !sq.town,
            "spot {p:?} on a start square or town"
        );
        assert!(
            all[i + 1..].iter().all(|&q| !adjacent(p, q)),
            "spots next to each other at {p:?}"
        );
    }
    // Blue in the north (Scotland), purple in the south (England and Wales), orange in the west (Ireland).
    let mean = |v: &[(i32, i32)], f: fn(&(i32, i32)) -> i32| {
        v.iter().map(f).sum::<i32>() as f64 / v.len() as f64
    };
    let (blue, orange, purple) = (&spots["blue"], &spots["orange"], &spots["purple"]);
    assert!(blue.iter().map(|p| p.1).max() < purple.iter().map(|p| p.1).min());
    assert!(mean(orange, |p| p.0) < mean(blue, |p| p.0));
    assert!(mean(orange, |p| p.0) < mean(purple, |p| p.0));
    let isle: Vec<usize> = (0..b.squares.len())
        .filter(|&i| b.squares[i].attrs.get("isle") == Some(&AttrValue::Bool(true)))
        .collect();
    assert!(!isle.is_empty());
    for &i in &isle {
        assert_eq!(b.squares[i].kind, SquareKind::Sea);
    }
    // Ireland is reachable from Carlisle and Bristol alone (over the land bridge).
    let mut without_kilkenny = b.clone();
    without_kilkenny.starts.remove(0);
    let reach = reachable(&without_kilkenny);
    assert!(reach.contains(&b.starts[0].at));
    assert!(orange.iter().all(|p| reach.contains(p)));
}
