//! What the map data says that the rules read, in words: for each square attribute the rules read,
//! which squares carry each value (whole rows as a band of rows, towns by name, other squares by
//! column and row); border exits edge by edge; ferries. Rows and columns are counted from 0 at the
//! top left, as the board pictures and the logs number them.

use crate::map::{AttrValue, MapBoard, Square};
use crate::state::Place;
use crate::variant::Variant;
use std::collections::BTreeMap;

/// The map facts of a variant, as Markdown paragraphs (none without a map).
pub fn facts(v: &Variant) -> Vec<String> {
    let Some(m) = v.map.as_deref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // The attributes the rules read: as fields, or named in a string (`squares_with("ATTR", …)`).
    let mut read: Vec<String> = v.program.attrs.iter().map(|a| a.name.clone()).collect();
    for name in m.attr_names().keys() {
        let quoted = format!("\"{name}\"");
        if !read.contains(name) && v.texts.iter().any(|t| t.text.contains(&quoted)) {
            read.push(name.clone());
        }
    }
    // Chip slots are read through `slots(…)`, not as a field: say how many each square has.
    if m.attr_names().contains_key("slots") && !read.iter().any(|a| a == "slots") {
        read.push("slots".to_string());
    }
    for attr in &read {
        if let Some(mut text) = attribute(m, attr) {
            if chips_show_their_colour(v, m, attr) {
                text.push_str(&format!(
                    " Every chip starts face down on a square whose `{attr}` is its colour, so anyone can tell a face-down chip's colour from its square; only its value is hidden."
                ));
            }
            out.push(text);
        }
    }
    out.extend(holding_squares(v, m));
    if !m.exits.is_empty() {
        let exits: Vec<String> = m
            .exits
            .iter()
            .map(|e| {
                let side = ["north", "east", "south", "west"]
                    .get(e.side as usize)
                    .copied()
                    .unwrap_or("?");
                format!("{} ({side} edge, {})", place(m, e.at), edge_word(e.feature))
            })
            .collect();
        out.push(format!(
            "**Border exits** ({}): a tile placed on one of these squares whose edge on that side continues the printed road or city connects abroad: {}.",
            m.exits.len(),
            exits.join("; ")
        ));
    }
    if !m.ferries.is_empty() {
        let ferries: Vec<String> = m
            .ferries
            .iter()
            .map(|f| format!("from {} to {}", place(m, f.from), place(m, f.to)))
            .collect();
        out.push(format!(
            "**Ferries** ({}): once the mainland square of a ferry holds a tile, its island square counts as next to it for placing tiles: {}.",
            m.ferries.len(),
            ferries.join("; ")
        ));
    }
    out
}

/// Whether the setup lays chips face down only on squares whose attribute `attr` names the chip's
/// colour (at least one chip, on each of three seeds): then the map shows the colour of a face-down
/// chip. Found by running the setup, so it stays true for a house rule that changes it.
fn chips_show_their_colour(v: &Variant, m: &MapBoard, attr: &str) -> bool {
    let colours = &v.program.colours;
    let names: Vec<String> = (0..v.players.0.max(1)).map(|i| format!("p{i}")).collect();
    (1..=3).all(|seed| {
        let Ok(game) = v.new_game(v.config.clone(), &names, seed, false) else {
            return false;
        };
        let mut laid = 0;
        for c in &game.st.chips {
            let Place::Square(cell) = c.place else {
                continue;
            };
            if c.face_up {
                continue;
            }
            let (x, y) = game.st.board.xy(cell);
            match (
                m.square(x, y).and_then(|sq| sq.attrs.get(attr)),
                colours.get(c.colour as usize),
            ) {
                (Some(AttrValue::Str(on)), Some(colour)) if on == colour => laid += 1,
                _ => return false,
            }
        }
        laid > 0
    })
}

/// Where the map draws each holding area: the squares whose attribute named like the holding is
/// true, as the boards show its followers there.
fn holding_squares(v: &Variant, m: &MapBoard) -> Vec<String> {
    let p = &v.program;
    p.holdings
        .iter()
        .zip(&p.holding_titles)
        .filter_map(|(name, title)| {
            let sqs: Vec<(i32, i32)> = (0..m.height)
                .flat_map(|y| (0..m.width).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    m.square(x, y)
                        .is_some_and(|sq| matches!(sq.attrs.get(name), Some(AttrValue::Bool(true))))
                })
                .collect();
            if sqs.is_empty() {
                return None;
            }
            let called = match title {
                Some(t) => format!("**{t}** (the holding area `{name}`)"),
                None => format!("**The holding area `{name}`**"),
            };
            Some(format!(
                "{called}: off the board; the board pictures draw the followers in it on {}.",
                squares(m, &sqs)
            ))
        })
        .collect()
}

fn edge_word(k: crate::geometry::EdgeKind) -> &'static str {
    match format!("{k:?}").to_lowercase().as_str() {
        "road" => "road",
        "city" => "city",
        _ => "field",
    }
}

/// The squares carrying an attribute, by value.
fn attribute(m: &MapBoard, attr: &str) -> Option<String> {
    let mut by_value: BTreeMap<String, Vec<(i32, i32)>> = BTreeMap::new();
    let mut bools = false;
    for y in 0..m.height {
        for x in 0..m.width {
            let Some(sq) = m.square(x, y) else { continue };
            let key = match sq.attrs.get(attr) {
                Some(AttrValue::Str(s)) => s.clone(),
                Some(AttrValue::Bool(true)) => {
                    bools = true;
                    String::new()
                }
                Some(AttrValue::Int(i)) if *i != 0 => i.to_string(),
                _ => continue,
            };
            by_value.entry(key).or_default().push((x, y));
        }
    }
    if by_value.is_empty() {
        return None;
    }
    if bools {
        let sqs = &by_value[""];
        return Some(format!(
            "**Squares marked `{attr}`** ({}): {}.",
            sqs.len(),
            squares(m, sqs)
        ));
    }
    let ints = by_value.keys().all(|k| k.parse::<i64>().is_ok());
    let rows: Vec<String> = by_value
        .iter()
        .map(|(value, sqs)| {
            if ints {
                format!("{value} on {}", squares(m, sqs))
            } else {
                format!("{value}: {}", squares(m, sqs))
            }
        })
        .collect();
    Some(format!("**The map's `{attr}`**: {}.", rows.join("; ")))
}

/// A set of squares in words (columns and rows counted from 0, as the board pictures and logs
/// number them): whole rows as "rows 0–3 (40 land squares)", towns by name, others by
/// column and row.
fn squares(m: &MapBoard, sqs: &[(i32, i32)]) -> String {
    let land = |list: &[(i32, i32)]| {
        list.iter()
            .filter(|&&(x, y)| m.square(x, y).is_some_and(is_land))
            .count()
    };
    let mut rows: Vec<i32> = sqs.iter().map(|s| s.1).collect();
    rows.dedup();
    let whole_rows = rows.windows(2).all(|w| w[1] == w[0] + 1)
        && sqs.len() as i32 == rows.len() as i32 * m.width;
    if whole_rows {
        let (a, b) = (rows[0], rows[rows.len() - 1]);
        let span = if a == b {
            format!("row {a}")
        } else {
            format!("rows {a}–{b}")
        };
        return format!("{span} ({} land squares)", land(sqs));
    }
    let mut named: Vec<String> = sqs.iter().map(|&at| place(m, at)).collect();
    if named.len() > 12 {
        let (r0, r1) = (rows[0], rows[rows.len() - 1]);
        let mut cols: Vec<i32> = sqs.iter().map(|s| s.0).collect();
        cols.sort();
        let (c0, c1) = (cols[0], cols[cols.len() - 1]);
        return format!("{} squares in rows {r0}–{r1}, columns {c0}–{c1}", sqs.len());
    }
    match named.len() {
        1 => named.remove(0),
        n => format!("{} and {} ({n})", named[..n - 1].join(", "), named[n - 1]),
    }
}

fn is_land(s: &Square) -> bool {
    matches!(
        s.kind,
        crate::map::SquareKind::Land | crate::map::SquareKind::Island
    )
}

/// A square by its printed name, its island's or large city's name, or its column and row.
fn place(m: &MapBoard, (x, y): (i32, i32)) -> String {
    let at = format!("column {x} row {y}");
    let Some(sq) = m.square(x, y) else {
        return at;
    };
    if let Some(n) = sq.name.as_deref().filter(|n| !n.is_empty()) {
        return n.to_string();
    }
    let group = m
        .islands
        .iter()
        .chain(&m.large_cities)
        .find(|g| g.squares.contains(&(x, y)) && !g.name.is_empty());
    match group {
        Some(g) => format!("{} ({at})", g.name),
        None => at,
    }
}
