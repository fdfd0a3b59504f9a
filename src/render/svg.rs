//! SVG pictures: a map alone (`map_svg`) and a game's board at one turn (`board_svg`): squares by
//! kind and attributes, tiles drawn from their definitions, chips, followers, the players' areas
//! and scores. One picture is one string, the same for the same inputs.

use super::tile_svg;
use super::timeline::{FollowerView, Snapshot, StackView};
use crate::game::{Game, Hooks};
use crate::map::{AttrValue, MapBoard, Square, SquareKind};
use crate::sight::ChipSight;
use crate::state::{FollowerAt, Place};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Side of a square in pixels.
const S: f64 = 56.0;
/// Side of a square in pixels, for the other pictures.
pub(crate) const SQUARE: f64 = S;
/// Left margin, for the coordinates.
const LEFT: f64 = 30.0;

/// The players' colours, in seat order. None is near a chip or band hue (blue, orange, purple,
/// pink, yellow), so a follower never reads as a chip; each is drawn with a ring and a halo of the
/// other lightness (`ring`, `halo`), so it stands out on any ground.
pub(crate) const PLAYER_COLOURS: [&str; 6] = [
    "#d7263d", "#2e9e44", "#1d1d1d", "#f4f4f4", "#14a3a3", "#9a9a9a",
];
const SEA: &str = "#9ccbe8";
/// How strongly a group's colour tints its squares: enough for "blue" to read as blue over land.
const TINT: f64 = 0.42;
const LAND: &str = "#f1e8cc";
pub(crate) const LARGE_CITY: &str = "#a59d94";
pub(crate) const TOWN: &str = "#d9543c";

/// A player's colour.
/// A player's name, `missing` for an index out of range.
pub(crate) fn player_name<'a, H: Hooks>(game: &'a Game<H>, p: usize, missing: &'a str) -> &'a str {
    game.st.players.get(p).map_or(missing, |p| p.name.as_str())
}

/// Opens the group of a follower in holding area `h`, with its tooltip naming the owner.
fn held_title<H: Hooks>(out: &mut String, game: &Game<H>, owner: &str, h: usize) {
    let _ = write!(
        out,
        "<g><title>{}: {}'s follower</title>",
        esc(&game.cfg.holding_titles[h]),
        esc(owner)
    );
}

pub(crate) fn player_colour(p: usize) -> &'static str {
    PLAYER_COLOURS[p % PLAYER_COLOURS.len()]
}

/// The relative luminance of a `#rrggbb` colour (WCAG).
pub(crate) fn luminance(hex: &str) -> f64 {
    let h = hex.trim_start_matches('#');
    let ch = |i: usize| {
        let v = f64::from(u8::from_str_radix(h.get(i..i + 2).unwrap_or("88"), 16).unwrap_or(136))
            / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * ch(0) + 0.7152 * ch(2) + 0.0722 * ch(4)
}

/// The outline drawn right around a colour: dark on a light colour, white on a dark one.
pub(crate) fn ring(colour: &str) -> &'static str {
    if luminance(colour) > 0.18 {
        "#111111"
    } else {
        "#ffffff"
    }
}

/// The halo around the ring: the ring's opposite, so that one of the two stands out on any ground.
pub(crate) fn halo(colour: &str) -> &'static str {
    if ring(colour) == "#ffffff" {
        "#111111"
    } else {
        "#ffffff"
    }
}
const TABLE: &str = "#e9e6df";

/// Escapes text for SVG.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A CSS colour for a colour named in a map or rules file (unknown names draw grey).
pub(crate) fn css_colour(name: &str) -> String {
    const KNOWN: &[&str] = &[
        "black",
        "blue",
        "brown",
        "cyan",
        "gold",
        "gray",
        "green",
        "grey",
        "lightblue",
        "lightgreen",
        "lime",
        "magenta",
        "maroon",
        "navy",
        "olive",
        "orange",
        "pink",
        "purple",
        "red",
        "silver",
        "teal",
        "turquoise",
        "violet",
        "white",
        "yellow",
        "darkblue",
        "darkgreen",
        "darkred",
        "skyblue",
        "beige",
        "tan",
        "salmon",
    ];
    let n: String = name
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    // Softer, further-apart shades for the colours chips and bands use most.
    let shade = match n.as_str() {
        "blue" => Some("#2f6fde"),
        "orange" => Some("#f08a24"),
        "purple" => Some("#8e44ad"),
        "lightblue" => Some("#74c0ec"),
        "yellow" => Some("#f2cf1d"),
        "pink" => Some("#e879b9"),
        _ => None,
    };
    if let Some(h) = shade {
        h.to_string()
    } else if KNOWN.contains(&n.as_str()) {
        n
    } else {
        "#888888".into()
    }
}

fn is_colour(name: &str) -> bool {
    css_colour(name) != "#888888"
}

/// The squares drawn and where they go.
struct Frame {
    x0: i32,
    y0: i32,
    w: i32,
    h: i32,
    /// How much larger the text around the board is drawn, so that a wide board shrunk to a phone's
    /// width keeps its title, scores and legend readable.
    k: f64,
    /// Top of the board (below the title and the coordinates).
    top: f64,
}

impl Frame {
    fn new(x0: i32, y0: i32, w: i32, h: i32) -> Frame {
        let k = ((LEFT + f64::from(w) * S) / 640.0).clamp(1.0, 2.0);
        Frame {
            x0,
            y0,
            w,
            h,
            k,
            top: 30.0 * k + 28.0,
        }
    }
    fn px(&self, x: i32, y: i32) -> (f64, f64) {
        (
            LEFT + f64::from(x - self.x0) * S,
            self.top + f64::from(y - self.y0) * S,
        )
    }
    fn width(&self) -> f64 {
        LEFT + f64::from(self.w) * S + 12.0
    }
    fn board_bottom(&self) -> f64 {
        self.top + f64::from(self.h) * S
    }
}

fn open_svg(out: &mut String, width: f64, height: f64) {
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = write!(
        out,
        r##"<rect width="{width:.0}" height="{height:.0}" fill="#fbfaf6"/>"##
    );
}

fn text(out: &mut String, x: f64, y: f64, size: f64, anchor: &str, extra: &str, s: &str) {
    let _ = write!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.0}" text-anchor="{anchor}" {extra}>{}</text>"#,
        esc(s)
    );
}

/// Text a reader reads (a name, a coordinate, a title, a legend or panel line): the browser audit
/// checks that no two overlap and none leaves the drawing.
fn label(out: &mut String, x: f64, y: f64, size: f64, anchor: &str, extra: &str, s: &str) {
    text(
        out,
        x,
        y,
        size,
        anchor,
        &format!(r#"class="label" {extra}"#),
        s,
    );
}

/// The names of places, drawn over the tiles, and the boxes they take (for what is drawn later, such
/// as floated points, to keep clear of them).
#[derive(Default)]
pub(crate) struct Names {
    pub(crate) svg: String,
    /// The box of every label on the board (the names, the coordinates, the squares' badges): left,
    /// top, right, bottom (estimated from its size and length).
    pub(crate) boxes: Vec<[f64; 4]>,
}

impl Names {
    /// A name centred on `x`, its baseline at `y`.
    fn label(&mut self, (x, y): (f64, f64), size: f64, extra: &str, s: &str) {
        label(&mut self.svg, x, y, size, "middle", extra, s);
        self.boxes.push(label_box((x, y), size, "middle", s));
    }
}

/// The box a label takes (left, top, right, bottom), estimated from its size and length (a
/// character of the board's font is at most about 0.66 of its size wide): what is drawn later, such
/// as floated points, keeps clear of it.
pub(crate) fn label_box((x, y): (f64, f64), size: f64, anchor: &str, s: &str) -> [f64; 4] {
    let w = 0.66 * size * s.chars().count() as f64 + 4.0;
    let left = match anchor {
        "middle" => x - w / 2.0,
        "end" => x - w + 2.0,
        _ => x - 2.0,
    };
    [left, y - size * 0.95, left + w, y + size * 0.3]
}

fn coordinates(out: &mut String, boxes: &mut Vec<[f64; 4]>, f: &Frame) {
    let mut one = |(x, y): (f64, f64), anchor: &str, s: String| {
        label(out, x, y, 13.0, anchor, r##"fill="#555""##, &s);
        boxes.push(label_box((x, y), 13.0, anchor, &s));
    };
    for x in f.x0..f.x0 + f.w {
        let (px, _) = f.px(x, f.y0);
        one((px + S / 2.0, f.top - 6.0), "middle", x.to_string());
    }
    for y in f.y0..f.y0 + f.h {
        let (_, py) = f.px(f.x0, y);
        one((LEFT - 5.0, py + S / 2.0 + 5.0), "end", y.to_string());
    }
}

/// Attributes a group gives its squares: drawn as a tint over the group, not per square.
fn group_attrs(map: &MapBoard) -> BTreeMap<(i32, i32), Vec<(String, String)>> {
    let mut m: BTreeMap<(i32, i32), Vec<(String, String)>> = BTreeMap::new();
    for g in &map.groups {
        for (k, v) in &g.attrs {
            if let AttrValue::Str(c) = v {
                if is_colour(c) {
                    for &sq in &g.squares {
                        m.entry(sq).or_default().push((k.clone(), c.clone()));
                    }
                }
            }
        }
    }
    m
}

/// The squares of groups of sea squares only (an island of a colour in the sea, not a band of
/// rows over land and sea): their colour is drawn on the sea.
fn sea_groups(map: &MapBoard) -> std::collections::BTreeSet<(i32, i32)> {
    let sea = |&(x, y): &(i32, i32)| {
        map.square(x, y)
            .is_some_and(|s| matches!(s.kind, SquareKind::Sea | SquareKind::Wave))
    };
    map.groups
        .iter()
        .filter(|g| g.squares.iter().all(sea))
        .flat_map(|g| g.squares.iter().copied())
        .collect()
}

/// What the map's legend explains, gathered while drawing.
#[derive(Default)]
struct Legend {
    /// Kinds of squares and marks the map has: land, sea, wave, island, large city, town, start
    /// square, border exit, ferry, chip slots.
    marks: std::collections::BTreeSet<Mark>,
    /// (attribute, colour) drawn as a tint over a group of squares.
    tints: std::collections::BTreeSet<(String, String)>,
    /// (attribute, colour) drawn as a coloured spot.
    spots: std::collections::BTreeSet<(String, String)>,
    /// Other attributes, drawn as a short badge: (attribute, badge text).
    badges: std::collections::BTreeSet<(String, String)>,
}

/// What the legend explains beyond attributes, in the order it lists them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    Land,
    Sea,
    Wave,
    Island,
    LargeCity,
    Town,
    Start,
    Exit,
    Ferry,
    Slots,
}

fn badge_text(name: &str, v: &AttrValue) -> Option<String> {
    let initial: String = name.chars().take(2).collect();
    match v {
        AttrValue::Bool(true) => Some(initial),
        AttrValue::Bool(false) => None,
        // A zero counts nothing ("sh0" on an island without coats of arms is noise).
        AttrValue::Int(0) => None,
        AttrValue::Int(i) => Some(format!("{initial}{i}")),
        AttrValue::Str(s) => Some(format!(
            "{initial}:{}",
            s.chars().take(3).collect::<String>()
        )),
    }
}

/// The map squares: ground by kind, towns, names, attributes, slots, exits and ferries.
/// The map's squares into `out`, and the names of its places into `names` (drawn above the tiles,
/// so that a covered town keeps its name).
fn map_squares(
    out: &mut String,
    names: &mut Names,
    map: &MapBoard,
    f: &Frame,
    legend: &mut Legend,
) {
    let tints = group_attrs(map);
    let islands = sea_groups(map);
    for y in 0..map.height {
        for x in 0..map.width {
            let Some(sq) = map.square(x, y) else { continue };
            let (px, py) = f.px(x, y);
            if !ground(out, sq, px, py) {
                continue;
            }
            legend.marks.insert(match sq.kind {
                SquareKind::Sea => Mark::Sea,
                SquareKind::Wave => Mark::Wave,
                SquareKind::Island => Mark::Island,
                SquareKind::LargeCity => Mark::LargeCity,
                _ => Mark::Land,
            });
            if sq.kind == SquareKind::Island {
                legend.marks.insert(Mark::Land);
            }
            let group = tints.get(&(x, y)).cloned().unwrap_or_default();
            tint(out, sq, (&group, islands.contains(&(x, y))), px, py, legend);
            attribute_marks((out, &mut names.boxes), sq, &group, px, py, legend);
            if let Some(AttrValue::Int(n)) = sq.attrs.get("slots") {
                slots(out, px, py, (*n).clamp(0, 8) as usize);
                legend.marks.insert(Mark::Slots);
            }
            if sq.town {
                town(out, px, py);
                legend.marks.insert(Mark::Town);
            }
            place_name(names, sq, (px, py), f);
            if sq.start.is_some() {
                start_flag(out, px, py);
                legend.marks.insert(Mark::Start);
            }
        }
    }
    coasts(out, map, f, &tints);
    large_city_names(out, names, map, f);
    exits(out, map, f);
    ferries(out, map, f);
    if !map.exits.is_empty() {
        legend.marks.insert(Mark::Exit);
    }
    if !map.ferries.is_empty() {
        legend.marks.insert(Mark::Ferry);
    }
}

/// Coasts drawn round rather than in stairs: a land corner with sea on its two sides and across it is
/// cut by a quarter circle of sea, and a sea corner with land on its two sides and across it is
/// filled by one of land (not beside tinted land, whose tint it would lack). A tile placed on the
/// square covers its cut corner.
fn coasts(
    out: &mut String,
    map: &MapBoard,
    f: &Frame,
    tints: &BTreeMap<(i32, i32), Vec<(String, String)>>,
) {
    let kind = |x: i32, y: i32| map.square(x, y).map(|s| s.kind);
    let sea = |x: i32, y: i32| matches!(kind(x, y), Some(SquareKind::Sea | SquareKind::Wave));
    let land = |x: i32, y: i32| matches!(kind(x, y), Some(SquareKind::Land | SquareKind::Island));
    let r = S * 0.4;
    for y in 0..map.height {
        for x in 0..map.width {
            let (px, py) = f.px(x, y);
            for (dx, dy) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] {
                let fill = if land(x, y) && sea(x + dx, y) && sea(x, y + dy) && sea(x + dx, y + dy)
                {
                    SEA
                } else if sea(x, y)
                    && [(x + dx, y), (x, y + dy), (x + dx, y + dy)]
                        .iter()
                        .all(|&(a, b)| land(a, b) && !tints.contains_key(&(a, b)))
                {
                    LAND
                } else {
                    continue;
                };
                let (sx, sy) = (f64::from(dx), f64::from(dy));
                let (cx, cy) = (px + S * (sx + 1.0) / 2.0, py + S * (sy + 1.0) / 2.0);
                let sweep = u8::from(dx * dy < 0);
                let _ = write!(
                    out,
                    r#"<path d="M{cx:.1} {cy:.1}H{:.1}A{r:.1} {r:.1} 0 0 {sweep} {cx:.1} {:.1}Z" fill="{fill}"/>"#,
                    cx - sx * r,
                    cy - sy * r
                );
            }
        }
    }
}

/// A square's ground by its kind, with waves on a wave square and a dashed rim on an island; false
/// (nothing drawn) for an off-map square.
fn ground(out: &mut String, sq: &Square, px: f64, py: f64) -> bool {
    let fill = match sq.kind {
        SquareKind::Sea | SquareKind::Wave => SEA,
        SquareKind::OffMap => return false,
        SquareKind::LargeCity => LARGE_CITY,
        SquareKind::Land | SquareKind::Island => LAND,
    };
    let _ = write!(
        out,
        r##"<rect x="{px}" y="{py}" width="{S}" height="{S}" fill="{fill}" stroke="#00000018"/>"##
    );
    if sq.kind == SquareKind::Wave {
        let _ = write!(
            out,
            r##"<path d="M{:.1} {:.1}q7 -6 14 0t14 0t14 0" fill="none" stroke="#ffffffaa" stroke-width="2"/>"##,
            px + 7.0,
            py + S / 2.0
        );
    }
    if sq.kind == SquareKind::Island {
        let _ = write!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#2a7a8a" stroke-width="2" stroke-dasharray="5 3"/>"##,
            px + 2.0,
            py + 2.0,
            S - 4.0,
            S - 4.0
        );
    }
    true
}

/// The tints of the colour attributes a square shares with its group (`group`); a band over the sea
/// would make it look like land, so only land squares are tinted.
fn tint(
    out: &mut String,
    sq: &Square,
    (group, island): (&[(String, String)], bool),
    px: f64,
    py: f64,
    legend: &mut Legend,
) {
    if matches!(sq.kind, SquareKind::Sea | SquareKind::Wave) {
        // A group of sea squares with a colour (an island of a colour in the sea): a patch of that
        // colour, so that the sea around stays sea.
        for (k, c) in group.iter().filter(|_| island) {
            let _ = write!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="9" fill="{}" fill-opacity="0.55" stroke="{}" stroke-width="2"/>"#,
                px + 3.0,
                py + 3.0,
                S - 6.0,
                S - 6.0,
                css_colour(c),
                css_colour(c)
            );
            legend.tints.insert((k.clone(), c.clone()));
        }
        return;
    }
    for (k, c) in group {
        let _ = write!(
            out,
            r#"<rect x="{px}" y="{py}" width="{S}" height="{S}" fill="{}" fill-opacity="{TINT}"/>"#,
            css_colour(c)
        );
        legend.tints.insert((k.clone(), c.clone()));
    }
}

/// A square's own attributes (not its group's tints, not its slots): a spot of colour for a colour,
/// a badge of text for the others.
fn attribute_marks(
    (out, boxes): (&mut String, &mut Vec<[f64; 4]>),
    sq: &Square,
    group: &[(String, String)],
    px: f64,
    py: f64,
    legend: &mut Legend,
) {
    let mut spot = 0;
    let mut badges = Vec::new();
    for (k, v) in &sq.attrs {
        if group.iter().any(|(tk, _)| tk == k) || k == "slots" {
            continue;
        }
        match v {
            AttrValue::Str(c) if is_colour(c) => {
                // A diamond: never mistaken for a chip, which is a disc.
                let _ = write!(
                    out,
                    r##"<path d="M{:.1} {:.1}l6.5 6.5l-6.5 6.5l-6.5 -6.5z" fill="{}" stroke="#333" stroke-width="1"/>"##,
                    px + 9.0 + 14.0 * f64::from(spot),
                    py + 2.5,
                    css_colour(c)
                );
                spot += 1;
                legend.spots.insert((k.clone(), c.clone()));
            }
            // A large city's other attributes are written once, under its name.
            _ if sq.kind == SquareKind::LargeCity => {}
            v => {
                if let Some(b) = badge_text(k, v) {
                    legend.badges.insert((k.clone(), b.clone()));
                    badges.push(b);
                }
            }
        }
    }
    if !badges.is_empty() {
        let text = badges.join(" ");
        label(
            out,
            px + 3.0,
            py + 26.0,
            10.0,
            "start",
            r##"fill="#333" font-weight="bold""##,
            &text,
        );
        boxes.push(label_box((px + 3.0, py + 26.0), 10.0, "start", &text));
    }
}

/// The name of a town or start square along the bottom of its square (large cities are named once
/// for the whole city, by `large_city_names`): small enough to stay within about a square and a
/// half, and moved inside the drawing at the map's edges.
fn place_name(names: &mut Names, sq: &Square, (px, py): (f64, f64), f: &Frame) {
    if sq.kind == SquareKind::LargeCity || !(sq.town || sq.start.is_some()) {
        return;
    }
    if let Some(name) = &sq.name {
        let chars = name.chars().count().max(1) as f64;
        let size = (S * 1.12 / (0.6 * chars)).clamp(7.0, 10.0);
        let half = 0.6 * size * chars / 2.0 + 2.0;
        let (lo, hi) = (LEFT + half, LEFT + f64::from(f.w) * S - half);
        let x = (px + S / 2.0).clamp(lo, hi.max(lo));
        names.label(
            (x, py + S - 4.0),
            size,
            r##"fill="#222" stroke="#fbfaf6" stroke-width="2.5" paint-order="stroke""##,
            name,
        );
    }
}

/// The green flag of a start square, top right.
fn start_flag(out: &mut String, px: f64, py: f64) {
    let _ = write!(
        out,
        r##"<path d="M{:.1} {:.1}l9 0l-3 4l3 4l-9 0z" fill="#2a9d3a" stroke="#1b5e25"/>"##,
        px + S - 14.0,
        py + 4.0
    );
}

/// Chip slots: small empty boxes along the bottom of a square.
fn slots(out: &mut String, px: f64, py: f64, n: usize) {
    for i in 0..n {
        let _ = write!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="11" height="11" rx="2" fill="#ffffffaa" stroke="#555" stroke-dasharray="2 1"/>"##,
            px + 3.0 + 13.0 * i as f64,
            py + S - 15.0
        );
    }
}

fn slot_xy(px: f64, py: f64, i: u8) -> (f64, f64) {
    (px + 8.5 + 13.0 * f64::from(i), py + S - 9.5)
}

fn town(out: &mut String, px: f64, py: f64) {
    let (cx, cy) = (px + S / 2.0, py + S / 2.0 - 4.0);
    let _ = write!(
        out,
        r##"<path d="M{:.1} {:.1}l9 -8l9 8v9h-18z" fill="#d9543c" stroke="#5a2015" stroke-width="1.5"/>"##,
        cx - 9.0,
        cy + 1.0
    );
}

fn large_city_names(out: &mut String, names: &mut Names, map: &MapBoard, f: &Frame) {
    for g in &map.large_cities {
        if g.squares.is_empty() {
            continue;
        }
        let n = g.squares.len() as f64;
        let (sx, sy) = g.squares.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
            let (px, py) = f.px(x, y);
            (a + px, b + py)
        });
        let (cx, cy) = (sx / n + S / 2.0, sy / n + S / 2.0);
        let _ = write!(out, r##"<g fill="#7a4a2a">"##);
        for (dx, h) in [(-12.0, 14.0), (-3.0, 20.0), (6.0, 12.0)] {
            let _ = write!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="8" height="{h}"/>"#,
                cx + dx,
                cy - h + 2.0
            );
        }
        out.push_str("</g>");
        names.label(
            (cx, cy + 17.0),
            13.0,
            r##"fill="#fff" font-weight="bold" stroke="#5a3517" stroke-width="3" paint-order="stroke""##,
            &g.name,
        );
        // Its other attributes in words, once for the whole city.
        let words: Vec<String> = g
            .squares
            .first()
            .and_then(|&(x, y)| map.square(x, y))
            .map(|sq| {
                sq.attrs
                    .iter()
                    .filter(|(k, v)| {
                        *k != "slots" && !matches!(v, AttrValue::Str(c) if is_colour(c))
                    })
                    .filter_map(|(k, v)| badge_text(k, v).map(|b| badge_meaning(k, &b)))
                    .collect()
            })
            .unwrap_or_default();
        if !words.is_empty() {
            names.label(
                (cx, cy + 30.0),
                10.0,
                r##"fill="#fff" font-style="italic" stroke="#5a3517" stroke-width="2.5" paint-order="stroke""##,
                &words.join(", "),
            );
        }
    }
}

fn exits(out: &mut String, map: &MapBoard, f: &Frame) {
    for e in &map.exits {
        let (px, py) = f.px(e.at.0, e.at.1);
        // Inside the square's edge, so that it never covers a coordinate.
        let (c, m) = (S / 2.0, 6.0);
        let (x, y, w, h) = match e.side {
            0 => (px + c - 10.0, py, 20.0, m),
            1 => (px + S - m, py + c - 10.0, m, 20.0),
            2 => (px + c - 10.0, py + S - m, 20.0, m),
            _ => (px, py + c - 10.0, m, 20.0),
        };
        let fill = match e.feature {
            crate::geometry::EdgeKind::City => tile_svg::CITY,
            _ => "#5b5247",
        };
        let _ = write!(
            out,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{w}" height="{h}" fill="{fill}" stroke="#222" stroke-width="1"/>"##
        );
    }
}

fn ferries(out: &mut String, map: &MapBoard, f: &Frame) {
    for fe in &map.ferries {
        let (ax, ay) = f.px(fe.from.0, fe.from.1);
        let (bx, by) = f.px(fe.to.0, fe.to.1);
        let _ = write!(
            out,
            r##"<path d="M{:.1} {:.1}L{:.1} {:.1}" stroke="#1d4f7a" stroke-width="2.5" stroke-dasharray="6 4"/>"##,
            ax + S / 2.0,
            ay + S / 2.0,
            bx + S / 2.0,
            by + S / 2.0
        );
    }
}

/// One entry of a legend: a little picture (SVG in a 16×16 box at the origin) and what it means.
pub(crate) struct LegendItem {
    swatch: String,
    text: String,
}

fn item(swatch: String, text: &str) -> LegendItem {
    LegendItem {
        swatch,
        text: text.to_string(),
    }
}

fn square_swatch(fill: &str, extra: &str) -> String {
    format!(
        r##"<rect x="1" y="1" width="14" height="14" fill="{fill}" stroke="#00000055"/>{extra}"##
    )
}

/// The legend's entries: only what the picture shows. `holdings` are (name, title) of the rules'
/// holding areas: a square attribute named like one is its square, and the legend says its title.
fn legend_items(legend: &Legend, holdings: &[(&str, &str)]) -> Vec<LegendItem> {
    let mut items = Vec::new();
    for m in &legend.marks {
        items.push(match m {
            Mark::Land => item(square_swatch(LAND, ""), "land"),
            Mark::Sea => item(square_swatch(SEA, ""), "sea"),
            Mark::Wave => item(
                square_swatch(
                    SEA,
                    r##"<path d="M2 8q3 -3 6 0t6 0" fill="none" stroke="#fff" stroke-width="1.5"/>"##,
                ),
                "waves",
            ),
            Mark::Island => item(
                square_swatch(
                    LAND,
                    r##"<rect x="2.5" y="2.5" width="11" height="11" fill="none" stroke="#2a7a8a" stroke-width="1.5" stroke-dasharray="3 2"/>"##,
                ),
                "island",
            ),
            Mark::LargeCity => item(
                square_swatch(
                    LARGE_CITY,
                    r##"<path d="M4 13V7h2.5v6zM7 13V4h2.5v9zM10 13V8h2.5v5z" fill="#4a4038"/>"##,
                ),
                "large city",
            ),
            Mark::Town => item(
                format!(r##"<path d="M2 8l6 -6l6 6v7h-12z" fill="{TOWN}" stroke="#5a2015" stroke-width="1.2"/>"##),
                "town",
            ),
            Mark::Start => item(
                r##"<path d="M3 3h10l-3 4l3 4h-10z" fill="#2a9d3a" stroke="#1b5e25"/>"##.into(),
                "start square",
            ),
            Mark::Exit => item(
                r##"<rect x="1" y="5" width="14" height="6" fill="#5b5247" stroke="#222"/>"##.into(),
                "border exit (roads and cities may leave the map)",
            ),
            Mark::Ferry => item(
                r##"<path d="M1 8H15" stroke="#1d4f7a" stroke-width="2.5" stroke-dasharray="4 3"/>"##
                    .into(),
                "ferry",
            ),
            Mark::Slots => item(
                r##"<rect x="3" y="3" width="10" height="10" rx="2" fill="#ffffffaa" stroke="#555" stroke-dasharray="2 1"/>"##
                    .into(),
                "chip slot",
            ),
        });
    }
    for (k, c) in &legend.tints {
        items.push(item(
            format!(
                r#"<rect x="1" y="1" width="14" height="14" fill="{LAND}"/><rect x="1" y="1" width="14" height="14" fill="{}" fill-opacity="{TINT}" stroke="{}" stroke-width="1.5"/>"#,
                css_colour(c),
                css_colour(c)
            ),
            &format!("{k}: {c}"),
        ));
    }
    for (k, c) in &legend.spots {
        items.push(item(
            format!(
                r##"<path d="M8 1.5l6.5 6.5l-6.5 6.5l-6.5 -6.5z" fill="{}" stroke="#333"/>"##,
                css_colour(c)
            ),
            &format!("{k}: {c}"),
        ));
    }
    for (k, b) in &legend.badges {
        items.push(item(
            format!(
                r##"<text x="8" y="12" font-size="10" font-weight="bold" text-anchor="middle" fill="#333">{}</text>"##,
                esc(b)
            ),
            &match holdings.iter().find(|(name, _)| name == k) {
                Some((_, title)) => format!("{title} ({k})"),
                None => badge_meaning(k, b),
            },
        ));
    }
    items
}

/// A badge in words: the attribute's name for a true one (`ca`), with its value for a number (`sh1`).
fn badge_meaning(attr: &str, badge: &str) -> String {
    let initial: String = attr.chars().take(2).collect();
    match badge.strip_prefix(&initial) {
        Some(rest) if !rest.is_empty() => format!("{attr} {}", rest.trim_start_matches(':')),
        _ => attr.to_string(),
    }
}

/// The legend laid out in rows `width` wide from (`left`, `top`), `k` times the usual size: the
/// SVG and its height.
fn legend_svg(items: &[LegendItem], left: f64, top: f64, width: f64, k: f64) -> (String, f64) {
    if items.is_empty() {
        return (String::new(), 0.0);
    }
    let (size, row) = (13.0 * k, 22.0 * k);
    let mut out = String::new();
    let (mut x, mut y) = (left, top);
    for it in items {
        let w = 16.0 * k + 6.0 * k + 0.58 * size * it.text.chars().count() as f64 + 16.0 * k;
        if x > left && x + w > left + width {
            x = left;
            y += row;
        }
        let _ = write!(
            out,
            r#"<g transform="translate({x:.1} {:.1}) scale({k:.3})">{}</g>"#,
            y + 2.0 * k,
            it.swatch
        );
        label(
            &mut out,
            x + 22.0 * k,
            y + 14.0 * k,
            size,
            "start",
            r##"fill="#333""##,
            &it.text,
        );
        x += w;
    }
    (out, y + row - top)
}

/// The map alone: every square by kind and attributes, with coordinates, names and a legend
/// (`holdings`: the rules' holding areas as (name, title), when the rules are known).
pub fn map_svg(map: &MapBoard, holdings: &[(&str, &str)]) -> String {
    let f = Frame::new(0, 0, map.width.max(1), map.height.max(1));
    let mut body = String::new();
    let mut names = Names::default();
    let mut legend = Legend::default();
    coordinates(&mut body, &mut names.boxes, &f);
    map_squares(&mut body, &mut names, map, &f, &mut legend);
    let width = f.width().max(420.0);
    let k = f.k;
    let (legend, legend_h) = legend_svg(
        &legend_items(&legend, holdings),
        LEFT,
        f.board_bottom() + 10.0 * k,
        width - LEFT - 8.0,
        k,
    );
    let height = f.board_bottom() + 10.0 * k + legend_h + 6.0 * k;
    let mut out = String::new();
    open_svg(&mut out, width, height);
    label(
        &mut out,
        LEFT,
        26.0 * k,
        22.0 * k,
        "start",
        r#"font-weight="bold""#,
        &map.name,
    );
    out.push_str(&body);
    out.push_str(&names.svg);
    out.push_str(&legend);
    out.push_str("</svg>\n");
    out
}

fn board_frame<H: Hooks>(game: &Game<H>, snap: &Snapshot) -> Frame {
    if let Some(m) = &game.cfg.map {
        return Frame::new(0, 0, m.width.max(1), m.height.max(1));
    }
    let b = &game.st.board;
    let (mut x0, mut y0, mut x1, mut y1) = (0, 0, 0, 0);
    for &(_, cell, _) in &snap.tiles {
        let (x, y) = b.xy(cell);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    Frame::new(x0 - 1, y0 - 1, x1 - x0 + 3, y1 - y0 + 3)
}

/// A meeple in player `p`'s colour at (x, y), `h` high, with its ring and halo; lying on its side
/// when `lying` (a farmer); its strength on a badge when not 1.
fn meeple(out: &mut String, (x, y): (f64, f64), h: f64, p: usize, strength: u8, lying: bool) {
    let colour = player_colour(p);
    let k = h / 20.0;
    let turn = if lying { " rotate(-90 10 10)" } else { "" };
    let d = "M4 19L7 12L2 11Q1 8 5 7.5L7.6 7A3.2 3.2 0 1 1 12.4 7L15 7.5Q19 8 18 11L13 12L16 19H11.5L10 15.5L8.5 19Z";
    let _ = write!(
        out,
        r##"<g class="meeple" data-fill="{colour}" data-ring="{}" data-halo="{}" transform="translate({:.1} {:.1}) scale({k:.3}){turn}"><path d="{d}" fill="none" stroke="{}" stroke-width="4.4" stroke-linejoin="round"/><path d="{d}" fill="{colour}" stroke="{}" stroke-width="1.6" stroke-linejoin="round"/></g>"##,
        ring(colour),
        halo(colour),
        x - h / 2.0,
        y - h / 2.0,
        halo(colour),
        ring(colour),
    );
    if strength != 1 {
        let r = (h * 0.3).max(7.0);
        let (bx, by) = (x + h * 0.45, y - h * 0.35);
        let _ = write!(
            out,
            r##"<circle cx="{bx:.1}" cy="{by:.1}" r="{r:.1}" fill="#fff" stroke="#111" stroke-width="1.5"/>"##
        );
        text(
            out,
            bx,
            by + r * 0.45,
            r * 1.3,
            "middle",
            r##"font-weight="bold" fill="#111""##,
            &strength.to_string(),
        );
    }
}

/// A chip: a disc in its colour, its value on it when face up; a face-down chip whose colour is
/// hidden (`colour` empty) is grey, as the legend's.
fn chip(out: &mut String, x: f64, y: f64, r: f64, colour: &str, value: u8, face_up: bool) {
    let c = if colour.is_empty() {
        "#999".to_string()
    } else {
        css_colour(colour)
    };
    let _ = write!(
        out,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{c}" stroke="#222" stroke-width="1.5"/>"##
    );
    if face_up {
        text(
            out,
            x,
            y + r * 0.45,
            r * 1.3,
            "middle",
            r##"font-weight="bold" fill="#fff" stroke="#000" stroke-width="2" paint-order="stroke""##,
            &value.to_string(),
        );
    } else {
        let _ = write!(
            out,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#ffffffaa" stroke-width="1.5"/>"##,
            r * 0.55
        );
    }
}

/// The parts of a board picture that do not change during a game: the frame, the coordinates, the
/// map's squares and its legend lines.
pub struct Base {
    frame: Frame,
    pub(crate) body: String,
    /// The names of places, drawn over the tiles, and their boxes.
    pub(crate) names: Names,
    pub(crate) legend: Vec<LegendItem>,
}

impl Base {
    /// The top-left corner of square (x, y).
    pub(crate) fn px(&self, x: i32, y: i32) -> (f64, f64) {
        self.frame.px(x, y)
    }
    pub(crate) fn width(&self) -> f64 {
        self.frame.width().max(560.0)
    }
    pub(crate) fn panel_top(&self) -> f64 {
        self.frame.board_bottom() + 14.0
    }
    /// The board's squares: left, top, right, bottom (what is floated over the board stays inside).
    pub(crate) fn board_box(&self) -> [f64; 4] {
        let f = &self.frame;
        let (l, t) = f.px(f.x0, f.y0);
        [l, t, l + f64::from(f.w) * S, f.board_bottom()]
    }
    /// Where the square (x, y) is drawn: its top-left corner and its side, in the picture's units
    /// (for a page that marks squares on the picture, such as the web playground's legal squares).
    pub fn square_px(&self, x: i32, y: i32) -> (f64, f64, f64) {
        let (px, py) = self.frame.px(x, y);
        (px, py, S)
    }
}

/// The board's frame and ground for the tiles of `snap` (the whole map when there is one).
pub fn base<H: Hooks>(game: &Game<H>, snap: &Snapshot) -> Base {
    let f = board_frame(game, snap);
    let mut body = String::new();
    let mut names = Names::default();
    let mut legend = Legend::default();
    coordinates(&mut body, &mut names.boxes, &f);
    match &game.cfg.map {
        Some(m) => map_squares(&mut body, &mut names, m, &f, &mut legend),
        None => {
            let _ = write!(
                body,
                r#"<rect x="{LEFT}" y="{:.1}" width="{:.0}" height="{:.0}" fill="{TABLE}"/>"#,
                f.top,
                f64::from(f.w) * S,
                f64::from(f.h) * S
            );
        }
    }
    let holdings: Vec<(&str, &str)> = game
        .cfg
        .holdings
        .iter()
        .zip(&game.cfg.holding_titles)
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let mut legend = legend_items(&legend, &holdings);
    if snap.stacks.iter().any(|s| s.left > 0) || !game.st.tile_stacks.is_empty() {
        let mut swatch = String::new();
        stack_picture(&mut swatch, (0.0, 0.0), 11.0, None);
        legend.push(item(
            swatch,
            "stack of tiles dealt onto a square (its top tile face up; the badge: tiles left)",
        ));
    }
    legend.push(item(
        format!(
            r##"<rect x="1" y="1" width="14" height="14" fill="{}"/><rect x="1.5" y="1.5" width="13" height="13" rx="2" fill="none" stroke="#111" stroke-width="3"/>"##,
            tile_svg::FIELD
        ),
        "last move (in its player's colour)",
    ));
    for c in &game.cfg.colours {
        legend.push(item(
            format!(
                r##"<circle cx="8" cy="8" r="6" fill="{}" stroke="#222" stroke-width="1.5"/>"##,
                css_colour(c)
            ),
            &format!("{c} chip"),
        ));
    }
    if !game.cfg.colours.is_empty() {
        legend.push(item(
            r##"<circle cx="8" cy="8" r="6" fill="#999" stroke="#222" stroke-width="1.5"/><circle cx="8" cy="8" r="3.3" fill="none" stroke="#ffffffaa" stroke-width="1.5"/>"##.into(),
            "chip face down (value hidden)",
        ));
    }
    Base {
        frame: f,
        body,
        names,
        legend,
    }
}

/// One placed tile.
pub(crate) fn tile_el<H: Hooks>(
    out: &mut String,
    game: &Game<H>,
    base: &Base,
    (ty, cell, rot): (u16, u32, u8),
) {
    let (x, y) = game.st.board.xy(cell);
    let (px, py) = base.frame.px(x, y);
    if let Some(t) = game.cfg.tiles.get(ty as usize) {
        let _ = write!(
            out,
            r#"<g data-tile="{}" data-at="{x},{y}" transform="translate({px} {py})">"#,
            esc(&t.id)
        );
        tile_svg::tile(out, t, rot as usize & 3, S);
    } else {
        out.push_str("<g>");
    }
    out.push_str("</g>");
}

/// A tile stack on its square: a few tiles' edges under its top tile (drawn small, face up) and the
/// number of tiles left on a badge; nothing once it is empty.
pub(crate) fn stack_el<H: Hooks>(out: &mut String, game: &Game<H>, base: &Base, sv: &StackView) {
    if sv.left == 0 {
        return;
    }
    let (x, y) = game.st.board.xy(sv.cell);
    let (px, py) = base.frame.px(x, y);
    let top = sv.top.and_then(|t| game.cfg.tiles.get(t as usize));
    let _ = write!(
        out,
        "<g class=\"stack\"><title>a stack of {} {} at {x},{y}{}</title>",
        sv.left,
        if sv.left == 1 { "tile" } else { "tiles" },
        top.map_or(String::new(), |t| format!(
            ", its top tile {} face up",
            t.id
        ))
    );
    stack_picture(out, (px + 6.0, py + 6.0), S * 0.62, top);
    let (bx, by) = (px + S - 12.0, py + S - 12.0);
    let _ = write!(
        out,
        r##"<circle cx="{bx:.1}" cy="{by:.1}" r="10" fill="#fff" stroke="#111" stroke-width="1.5"/>"##
    );
    text(
        out,
        bx,
        by + 4.5,
        13.0,
        "middle",
        r##"font-weight="bold" fill="#111""##,
        &sv.left.to_string(),
    );
    out.push_str("</g>");
}

/// A little stack of tiles at (x, y), `w` wide: two tiles' edges, then the top tile (or a plain back).
fn stack_picture(
    out: &mut String,
    (x, y): (f64, f64),
    w: f64,
    top: Option<&crate::compiled::CompiledTile>,
) {
    for k in [2.0, 1.0] {
        let _ = write!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{w:.1}" fill="#e9e2cf" stroke="#555" stroke-width="1"/>"##,
            x + 2.5 * k,
            y + 2.5 * k
        );
    }
    let _ = write!(out, r#"<g transform="translate({x:.1} {y:.1})">"#);
    match top {
        Some(t) => tile_svg::tile(out, t, 0, w),
        None => {
            let _ = write!(
                out,
                r##"<rect width="{w:.1}" height="{w:.1}" fill="#8a7a5a" stroke="#555"/>"##
            );
        }
    }
    out.push_str("</g>");
}

/// One follower on the board (nothing when it is elsewhere).
pub(crate) fn follower_el<H: Hooks>(
    out: &mut String,
    game: &Game<H>,
    base: &Base,
    tile_at: &BTreeMap<u32, (u16, u8)>,
    fo: &FollowerView,
) {
    if let FollowerAt::Board(node) = fo.at {
        let (x, y) = game.st.board.xy(fo.cell);
        let (px, py) = base.frame.px(x, y);
        let (ax, ay) = follower_anchor(game, tile_at, fo.cell, node);
        let kind = follower_kind(game, node);
        let lying = kind == Some(crate::geometry::FeatureKind::Field);
        let mut words = follower_words(game, fo.owner, kind, (x, y));
        if fo.strength != 1 {
            let _ = write!(words, ", counting as {} followers", fo.strength);
        }
        // Where it stands and on which segment of its tile, for a test to find what is drawn there.
        let seg = tile_at
            .get(&fo.cell)
            .and_then(|_| game.st.board.features.tile.get(node as usize))
            .and_then(|&t| game.st.board.placed.get(t as usize))
            .map_or(0, |p| node.saturating_sub(p.first_node));
        let _ = write!(
            out,
            r#"<g data-at="{x},{y}" data-seg="{seg}" data-x="{:.1}" data-y="{:.1}"><title>{}</title>"#,
            px + ax,
            py + ay,
            esc(&words)
        );
        meeple(
            out,
            (px + ax, py + ay),
            S * 0.42,
            fo.owner as usize,
            fo.strength,
            lying,
        );
        out.push_str("</g>");
    }
}

/// The square a holding area is shown on: the map's square whose attribute named like the holding
/// is true, if any.
pub(crate) fn holding_square<H: Hooks>(game: &Game<H>, h: usize) -> Option<(i32, i32)> {
    let name = game.cfg.holdings.get(h)?;
    let m = game.cfg.map.as_ref()?;
    (0..m.height)
        .flat_map(|y| (0..m.width).map(move |x| (x, y)))
        .find(|&(x, y)| {
            m.square(x, y)
                .is_some_and(|sq| matches!(sq.attrs.get(name), Some(AttrValue::Bool(true))))
        })
}

/// The followers held in each holding area that has a square on the map, drawn small on that
/// square, each named in a tooltip.
pub(crate) fn held_on_map<H: Hooks>(
    out: &mut String,
    game: &Game<H>,
    base: &Base,
    snap: &Snapshot,
) {
    for h in 0..game.cfg.holdings.len() {
        let Some((x, y)) = holding_square(game, h) else {
            continue;
        };
        let (px, py) = base.px(x, y);
        let held: Vec<&FollowerView> = snap
            .followers
            .iter()
            .filter(|f| f.at == FollowerAt::Holding(h as u8))
            .collect();
        for (i, fo) in held.iter().enumerate() {
            let (col, row) = ((i % 3) as f64, (i / 3) as f64);
            let owner = player_name(game, fo.owner as usize, "?");
            held_title(out, game, owner, h);
            meeple(
                out,
                (px + 10.0 + 18.0 * col, py + 11.0 + 17.0 * row),
                S * 0.3,
                fo.owner as usize,
                fo.strength,
                false,
            );
            out.push_str("</g>");
        }
    }
}

/// One chip on a square (the `k`-th there, fanned out) or in a slot (nothing when it is elsewhere).
pub(crate) fn chip_el<H: Hooks>(
    out: &mut String,
    game: &Game<H>,
    base: &Base,
    (snap, tile_at): (&Snapshot, &BTreeMap<u32, (u16, u8)>),
    chip_id: usize,
    k: u32,
) {
    if game.cfg.chip_set.get(chip_id).is_none() {
        return;
    }
    if let Some((cx, cy, r)) = chip_spot(game, base, (snap, tile_at), chip_id, k) {
        let (colour, value) = chip_seen(game, snap, chip_id);
        chip(out, cx, cy, r, colour, value, snap.chips[chip_id].face_up);
    }
}

/// Where chip `chip_id` (the `k`-th in its place) is drawn on the board: its centre and radius;
/// `None` when it is not on the board (in a hand, the supply, a bag).
pub(crate) fn chip_spot<H: Hooks>(
    game: &Game<H>,
    base: &Base,
    (snap, tile_at): (&Snapshot, &BTreeMap<u32, (u16, u8)>),
    chip_id: usize,
    k: u32,
) -> Option<(f64, f64, f64)> {
    let b = &game.st.board;
    match snap.chips.get(chip_id)?.place {
        Place::Square(cell) => {
            let (x, y) = b.xy(cell);
            let (px, py) = base.frame.px(x, y);
            Some((px + S - 12.0 - 7.0 * f64::from(k), py + S - 12.0, 9.0))
        }
        Place::Slot(cell, i) => {
            let (x, y) = b.xy(cell);
            let (px, py) = base.frame.px(x, y);
            let (cx, cy) = slot_xy(px, py, i);
            Some((cx, cy, 6.5))
        }
        // Under a follower on the board: at its feet (a base the follower stands on, drawn before
        // it, so it never covers it).
        Place::Under(f) => {
            let fo = snap.followers.get(f as usize)?;
            let FollowerAt::Board(node) = fo.at else {
                return None;
            };
            let (x, y) = b.xy(fo.cell);
            let (px, py) = base.frame.px(x, y);
            let (ax, ay) = follower_anchor(game, tile_at, fo.cell, node);
            Some((px + ax + 5.0 * f64::from(k), py + ay + S * 0.15, 8.0))
        }
        _ => None,
    }
}

/// How many chips with a lower id lie in the same place (chips on a square or under a follower
/// fan out).
pub(crate) fn fan_position(s: &Snapshot, id: usize) -> u32 {
    match s.chips[id].place {
        p @ (Place::Square(_) | Place::Under(_)) => {
            s.chips[..id].iter().filter(|c| c.place == p).count() as u32
        }
        _ => 0,
    }
}

/// Where each tile lies: cell to (type, rotation).
pub(crate) fn tiles_by_cell(snap: &Snapshot) -> BTreeMap<u32, (u16, u8)> {
    snap.tiles
        .iter()
        .map(|&(ty, cell, rot)| (cell, (ty, rot)))
        .collect()
}

/// The title line: variant, map, seed and turn.
pub(crate) fn title<H: Hooks>(game: &Game<H>, turn: u32, last: bool) -> String {
    let end = super::timeline::last_turn(game);
    format!(
        "{} · {} · seed {} · {}",
        game.cfg.variant,
        game.cfg
            .map
            .as_ref()
            .map(|m| m.name.as_str())
            .unwrap_or("endless table"),
        game.seed,
        if turn == 0 {
            "setup".to_string()
        } else if last && game.is_over() {
            format!("end (turn {end})")
        } else {
            format!("turn {turn} of {end}")
        }
    )
}

/// Writes the SVG's opening, its title and the base; returns the legend's top.
pub(crate) fn open_board(
    out: &mut String,
    base: &Base,
    panel_h: f64,
    title_text: &str,
    title_id: &str,
) {
    let k = base.frame.k;
    let legend_top = base.panel_top() + panel_h * k + 8.0;
    let (legend, legend_h) =
        legend_svg(&base.legend, LEFT, legend_top, base.width() - LEFT - 8.0, k);
    let height = legend_top + legend_h + 8.0 * k;
    open_svg(out, base.width(), height);
    let id = if title_id.is_empty() {
        String::new()
    } else {
        format!(r#"id="{title_id}""#)
    };
    label(
        out,
        LEFT,
        26.0 * k,
        20.0 * k,
        "start",
        &format!(r#"font-weight="bold" {id}"#),
        title_text,
    );
    out.push_str(&base.body);
    out.push_str(&legend);
}

/// The height the players' panel needs.
pub(crate) fn panel_height<H: Hooks>(game: &Game<H>) -> f64 {
    let rows = game.st.players.len() + game.cfg.holdings.len();
    40.0 * rows as f64 + if game.st.chips.is_empty() { 0.0 } else { 26.0 } + 26.0
}

/// The players' areas and scores at a snapshot.
pub(crate) fn panel<H: Hooks>(out: &mut String, game: &Game<H>, base: &Base, snap: &Snapshot) {
    let k = base.frame.k;
    let _ = write!(
        out,
        r#"<g transform="translate({:.1} {:.1}) scale({k:.3})">"#,
        LEFT - k * LEFT,
        base.panel_top()
    );
    players_panel(out, game, snap, 0.0);
    out.push_str("</g>");
}

/// The players' areas and scores at a snapshot, alone (the replay page shows them beside the
/// board), in a box `PANEL_WIDTH` wide from the origin.
pub(crate) fn panel_alone<H: Hooks>(out: &mut String, game: &Game<H>, snap: &Snapshot) {
    let _ = write!(out, r#"<g transform="translate({} 0)">"#, 8.0 - LEFT);
    players_panel(out, game, snap, 0.0);
    out.push_str("</g>");
}

/// The width the players' panel needs: the longest hand of chips.
pub(crate) fn panel_width<H: Hooks>(game: &Game<H>) -> f64 {
    (350.0 + 25.0 * (game.st.chips.len().min(12) as f64)).max(560.0)
}

/// The board at a snapshot, with the players' areas and scores below it.
pub fn board_svg<H: Hooks>(game: &Game<H>, snap: &Snapshot) -> String {
    board_svg_since(game, snap, None)
}

/// The board at a snapshot, with the points scored since turn `since` (its own included) floated
/// over what scored them, rather than the last turn's alone (a player back at the table after the
/// others' turns sees their own points too); the last move framed.
pub fn board_svg_since<H: Hooks>(game: &Game<H>, snap: &Snapshot, since: Option<u32>) -> String {
    let base = base(game, snap);
    let mut out = String::new();
    open_board(
        &mut out,
        &base,
        panel_height(game),
        &title(game, snap.turn, snap.last),
        "",
    );
    for &t in &snap.tiles {
        tile_el(&mut out, game, &base, t);
    }
    for sv in &snap.stacks {
        stack_el(&mut out, game, &base, sv);
    }
    let tile_at = tiles_by_cell(snap);
    for i in 0..snap.chips.len() {
        chip_el(
            &mut out,
            game,
            &base,
            (snap, &tile_at),
            i,
            fan_position(snap, i),
        );
    }
    out.push_str(&base.names.svg);
    held_on_map(&mut out, game, &base, snap);
    for fo in &snap.followers {
        follower_el(&mut out, game, &base, &tile_at, fo);
    }
    let moves = super::last_move::every_turn(game, snap.turn);
    if let Some(m) = moves.last() {
        let mut m = m.clone();
        if let Some(from) = since {
            m.points = moves
                .iter()
                .skip(from as usize)
                .flat_map(|t| t.points.iter().copied())
                .collect();
        }
        super::last_move::draw(&mut out, game, &base, (snap, &tile_at), &m, &[]);
    }
    panel(&mut out, game, &base, snap);
    out.push_str("</svg>\n");
    out
}

/// The kind of feature a follower standing on `node` is on.
pub(crate) fn follower_kind<H: Hooks>(
    game: &Game<H>,
    node: u32,
) -> Option<crate::geometry::FeatureKind> {
    game.st.board.features.kind.get(node as usize).copied()
}

/// What a follower is called on a feature of `kind`.
pub(crate) fn role(kind: Option<crate::geometry::FeatureKind>) -> &'static str {
    use crate::geometry::FeatureKind as K;
    match kind {
        Some(K::City) => "knight",
        Some(K::Road) => "thief",
        Some(K::Field) => "farmer",
        Some(K::Monastery) => "monk",
        None => "follower",
    }
}

/// The feature's name in words.
pub(crate) fn feature_word(kind: Option<crate::geometry::FeatureKind>) -> &'static str {
    use crate::geometry::FeatureKind as K;
    match kind {
        Some(K::City) => "city",
        Some(K::Road) => "road",
        Some(K::Field) => "field",
        Some(K::Monastery) => "monastery",
        None => "feature",
    }
}

/// "ann's knight on the city at 6,14"
pub(crate) fn follower_words<H: Hooks>(
    game: &Game<H>,
    owner: u8,
    kind: Option<crate::geometry::FeatureKind>,
    (x, y): (i32, i32),
) -> String {
    let name = player_name(game, owner as usize, "?");
    format!(
        "{name}'s {} on the {} at {x},{y}",
        role(kind),
        feature_word(kind)
    )
}

pub(crate) fn follower_anchor<H: Hooks>(
    game: &Game<H>,
    tile_at: &BTreeMap<u32, (u16, u8)>,
    cell: u32,
    node: u32,
) -> (f64, f64) {
    let b = &game.st.board;
    let Some(&(ty, rot)) = tile_at.get(&cell) else {
        return (S / 2.0, S / 2.0);
    };
    let placed = b
        .features
        .tile
        .get(node as usize)
        .and_then(|&t| b.placed.get(t as usize));
    match (placed, game.cfg.tiles.get(ty as usize)) {
        (Some(p), Some(t)) => {
            let seg = node.saturating_sub(p.first_node) as usize;
            tile_svg::anchor(t, seg, rot as usize & 3, S)
        }
        _ => (S / 2.0, S / 2.0),
    }
}

/// Per player: colour, name, score, followers left, chips in hand; then the holding areas and the
/// chips elsewhere. Returns its height.
fn players_panel<H: Hooks>(out: &mut String, game: &Game<H>, snap: &Snapshot, top: f64) -> f64 {
    let mut y = top;
    for p in 0..game.st.players.len() {
        player_row(out, game, snap, p, y);
        y += PANEL_ROW;
    }
    for h in 0..game.cfg.holdings.len() {
        holding_row(out, game, snap, h, y);
        y += PANEL_ROW;
    }
    if !snap.chips.is_empty() {
        chip_counts(out, snap, y);
        y += 26.0;
    }
    panel_line(
        out,
        LEFT,
        y + 18.0,
        &count(snap.tiles.len(), "tile", "tiles on the board"),
    );
    y + 26.0 - top
}

/// "1 tile on the board", "2 tiles on the board": `n`, then the singular noun and the rest of the
/// plural phrase for 1, the plural phrase otherwise.
fn count(n: usize, one: &str, many: &str) -> String {
    match (n, many.split_once(' ')) {
        (1, Some((_, rest))) => format!("1 {one} {rest}"),
        (1, None) => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// Height of a player's or a holding's row in the panel.
const PANEL_ROW: f64 = 40.0;

/// A line of grey text in the panel.
fn panel_line(out: &mut String, x: f64, y: f64, s: &str) {
    label(out, x, y, 14.0, "start", r##"fill="#444""##, s);
}

/// Chip `i` of the chip set as the snapshot's seat sees it where it lay ([`Seat::chip`]): its
/// colour's name (empty when hidden) and its value (0 when hidden).
pub(crate) fn chip_seen<'g, H: Hooks>(
    game: &'g Game<H>,
    snap: &Snapshot,
    i: usize,
) -> (&'g str, u8) {
    let Some(c) = snap.chips.get(i) else {
        return ("", 0);
    };
    let name = |colour: u8| {
        game.cfg
            .colours
            .get(colour as usize)
            .map_or("", |s| s.as_str())
    };
    match snap.seat.chip(game, i, c.face_up, c.place) {
        ChipSight::Face { colour, value } => (name(colour), value),
        ChipSight::Printed { colour } => (name(colour), 0),
        ChipSight::Back => ("", 0),
    }
}

/// The chips of the snapshot lying in `place`, drawn in a row from `x`; returns where the row ends.
fn chips_in_row<H: Hooks>(
    out: &mut String,
    game: &Game<H>,
    snap: &Snapshot,
    place: Place,
    mut x: f64,
    y: f64,
) -> f64 {
    for (i, c) in snap.chips.iter().enumerate() {
        if c.place == place {
            let (name, value) = chip_seen(game, snap, i);
            chip(out, x, y, 11.0, name, value, c.face_up);
            x += 25.0;
        }
    }
    x
}

/// A player's row: their meeple, name and score (a star for a winner at the end), followers left
/// and the chips in their hand.
fn player_row<H: Hooks>(out: &mut String, game: &Game<H>, snap: &Snapshot, p: usize, y: f64) {
    let mid = y + PANEL_ROW / 2.0;
    meeple(out, (LEFT + 12.0, mid), 26.0, p, 1, false);
    let best = snap.scores.iter().copied().max().unwrap_or(0);
    let score = snap.scores.get(p).copied().unwrap_or(0);
    let crown = if snap.last && game.is_over() && score == best {
        " ★"
    } else {
        ""
    };
    label(
        out,
        LEFT + 32.0,
        mid + 7.0,
        20.0,
        "start",
        r#"font-weight="bold""#,
        &format!("{} {score}{crown}", game.st.players[p].name),
    );
    let left = snap
        .followers
        .iter()
        .filter(|f| f.owner as usize == p && f.at == FollowerAt::Supply)
        .count();
    panel_line(
        out,
        LEFT + 200.0,
        mid + 5.0,
        &count(left, "follower", "followers left"),
    );
    let mut x = chips_in_row(out, game, snap, Place::Hand(p as u8), LEFT + 340.0, mid);
    // The player's own areas of per-player holdings (`holding bid per player`), each named.
    for (h, name) in game.cfg.holding_titles.iter().enumerate() {
        let place = Place::PlayerHolding(h as u8, p as u8);
        if snap.chips.iter().any(|c| c.place == place) {
            panel_line(out, x + 4.0, mid + 5.0, &format!("{name}:"));
            x = chips_in_row(
                out,
                game,
                snap,
                place,
                x + 16.0 + 8.0 * name.len() as f64,
                mid,
            );
        }
    }
}

/// A holding's row: its name, the chips and the followers in it.
fn holding_row<H: Hooks>(out: &mut String, game: &Game<H>, snap: &Snapshot, h: usize, y: f64) {
    let mid = y + PANEL_ROW / 2.0;
    panel_line(out, LEFT, mid + 5.0, &game.cfg.holding_titles[h]);
    let mut x = chips_in_row(out, game, snap, Place::Holding(h as u8), LEFT + 200.0, mid);
    // Each follower there, with its owner named in a tooltip, then how many each player has.
    let mut per_player = vec![0u32; game.st.players.len()];
    for fo in &snap.followers {
        if fo.at == FollowerAt::Holding(h as u8) {
            let owner = player_name(game, fo.owner as usize, "?");
            held_title(out, game, owner, h);
            meeple(out, (x, mid), 24.0, fo.owner as usize, fo.strength, false);
            out.push_str("</g>");
            x += 26.0;
            if let Some(n) = per_player.get_mut(fo.owner as usize) {
                *n += 1;
            }
        }
    }
    let owners: Vec<String> = per_player
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(p, n)| format!("{} {n}", game.st.players[p].name))
        .collect();
    if !owners.is_empty() {
        panel_line(out, x + 6.0, mid + 5.0, &owners.join(", "));
    }
}

/// Where the chips are: on the map, in the supply, aside, in the box.
fn chip_counts(out: &mut String, snap: &Snapshot, y: f64) {
    let count = |want: Place| snap.chips.iter().filter(|c| c.place == want).count();
    let on_board = snap
        .chips
        .iter()
        .filter(|c| matches!(c.place, Place::Square(_) | Place::Slot(..)))
        .count();
    panel_line(
        out,
        LEFT,
        y + 18.0,
        &format!(
            "chips: {on_board} on the map · {} in the supply · {} aside · {} in the box",
            count(Place::Supply),
            count(Place::Aside),
            count(Place::Box)
        ),
    );
}
