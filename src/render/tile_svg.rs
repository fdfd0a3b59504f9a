//! A tile drawn from its definition: fields as the ground, cities as walls filling their sides,
//! roads from their sides to the middle, monasteries, coats of arms. Also where a follower stands on
//! each segment. Coordinates are in a square of side `s` with its top-left corner at (0, 0).

use crate::compiled::CompiledTile;
use crate::geometry::FeatureKind;
use std::fmt::Write as _;

pub const FIELD: &str = "#9cc46a";
pub const CITY: &str = "#c98b4f";
pub const CITY_EDGE: &str = "#6e4421";
pub const ROAD: &str = "#fbf6e9";
pub const ROAD_EDGE: &str = "#5b5247";
pub const SHIELD: &str = "#2456a6";

/// The two corners of side `side` (N, E, S, W), clockwise.
fn corners(side: usize, s: f64) -> [(f64, f64); 2] {
    match side {
        0 => [(0.0, 0.0), (s, 0.0)],
        1 => [(s, 0.0), (s, s)],
        2 => [(s, s), (0.0, s)],
        _ => [(0.0, s), (0.0, 0.0)],
    }
}

/// The middle of side `side` moved `depth` toward the middle of the tile.
fn inward(side: usize, s: f64, depth: f64) -> (f64, f64) {
    let h = s / 2.0;
    match side {
        0 => (h, depth),
        1 => (s - depth, h),
        2 => (h, s - depth),
        _ => (depth, h),
    }
}

/// The point of half-edge `h` (Nw, Ne, En, …) moved `depth` inward.
fn half_point(h: usize, s: f64, depth: f64) -> (f64, f64) {
    let (q, t) = (s / 4.0, 3.0 * s / 4.0);
    match h {
        0 => (q, depth),
        1 => (t, depth),
        2 => (s - depth, q),
        3 => (s - depth, t),
        4 => (t, s - depth),
        5 => (q, s - depth),
        6 => (depth, t),
        _ => (depth, q),
    }
}

/// The step `depth` from side `side` toward the middle of the tile.
fn into(side: usize, depth: f64) -> (f64, f64) {
    match side {
        0 => (0.0, depth),
        1 => (-depth, 0.0),
        2 => (0.0, -depth),
        _ => (depth, 0.0),
    }
}

fn sides(mask: u8) -> Vec<usize> {
    (0..4).filter(|i| mask & (1 << i) != 0).collect()
}

/// The SVG elements of tile `t` at rotation `rot`, in a square of side `s`.
pub fn tile(out: &mut String, t: &CompiledTile, rot: usize, s: f64) {
    let _ = write!(out, r#"<rect width="{s}" height="{s}" fill="{FIELD}"/>"#);
    for seg in 0..t.kinds.len() {
        if t.kinds[seg] == FeatureKind::City {
            city(out, t.seg_sides[seg][rot], s);
        }
    }
    for seg in 0..t.kinds.len() {
        if t.kinds[seg] == FeatureKind::Road {
            road(out, t.seg_sides[seg][rot], s, t.monastery.is_some());
        }
    }
    for seg in 0..t.kinds.len() {
        if t.kinds[seg] == FeatureKind::City && t.shields[seg] > 0 {
            let (x, y) = anchor(t, seg, rot, s);
            shield(out, x + s * 0.16, y - s * 0.02, s * 0.17);
        }
    }
    if t.monastery.is_some() {
        monastery(out, s);
    }
    let _ = write!(
        out,
        r##"<rect width="{s}" height="{s}" fill="none" stroke="#00000055" stroke-width="1"/>"##
    );
}

fn city(out: &mut String, mask: u8, s: f64) {
    let sd = sides(mask);
    // The area (filled, no outline) and its wall (the edge inside the tile, stroked).
    let (area, wall) = if sd.len() == 1 {
        // A cap: a round-topped wall from corner to corner, about a third of the tile deep, so
        // that four caps on one tile stay four caps (not a star).
        let [(ax, ay), (bx, by)] = corners(sd[0], s);
        let (dx, dy) = into(sd[0], s * 0.42);
        let curve = format!(
            "C{:.1} {:.1} {:.1} {:.1} {ax:.1} {ay:.1}",
            bx + dx,
            by + dy,
            ax + dx,
            ay + dy
        );
        (
            format!("M{ax:.1} {ay:.1}L{bx:.1} {by:.1}{curve}Z"),
            format!("M{bx:.1} {by:.1}{curve}"),
        )
    } else {
        let mut area = String::new();
        let mut wall = String::new();
        for side in 0..4 {
            let [a, b] = corners(side, s);
            if area.is_empty() {
                let _ = write!(area, "M{:.1} {:.1}", a.0, a.1);
            }
            if mask & (1 << side) != 0 {
                let _ = write!(area, "L{:.1} {:.1}", b.0, b.1);
            } else {
                // The field's side: a rounded bay into the city.
                let (dx, dy) = into(side, s * 0.34);
                let q = format!(
                    "C{:.1} {:.1} {:.1} {:.1} {:.1} {:.1}",
                    a.0 + dx,
                    a.1 + dy,
                    b.0 + dx,
                    b.1 + dy,
                    b.0,
                    b.1
                );
                let _ = write!(wall, "M{:.1} {:.1}{q}", a.0, a.1);
                area.push_str(&q);
            }
        }
        area.push('Z');
        (area, wall)
    };
    let _ = write!(
        out,
        r#"<path d="{area}" fill="{CITY}"/><path d="{wall}" fill="none" stroke="{CITY_EDGE}" stroke-width="{:.1}" stroke-linecap="round"/>"#,
        s * 0.05
    );
}

fn road(out: &mut String, mask: u8, s: f64, monastery: bool) {
    let sd = sides(mask);
    let c = s / 2.0;
    let d = if sd.len() == 2 {
        let (ax, ay) = inward(sd[0], s, 0.0);
        let (bx, by) = inward(sd[1], s, 0.0);
        format!("M{ax} {ay}Q{c} {c} {bx} {by}")
    } else {
        let mut d = String::new();
        for &side in &sd {
            let (x, y) = inward(side, s, 0.0);
            let _ = write!(d, "M{x} {y}L{c} {c}");
        }
        d
    };
    for (colour, w) in [(ROAD_EDGE, 0.15), (ROAD, 0.09)] {
        let _ = write!(
            out,
            r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="{:.1}" stroke-linecap="butt"/>"#,
            s * w
        );
    }
    // A road that ends or forks in the middle ends at a little house (unless at the monastery).
    if sd.len() != 2 && !monastery {
        let w = s * 0.2;
        let _ = write!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{w:.1}" fill="{ROAD_EDGE}"/>"#,
            c - w / 2.0,
            c - w / 2.0
        );
    }
}

/// A coat of arms centred on (x, y), `w` wide.
pub fn shield(out: &mut String, x: f64, y: f64, w: f64) {
    let h = w * 1.15;
    let (l, r, t) = (x - w / 2.0, x + w / 2.0, y - h / 2.0);
    let _ = write!(
        out,
        r##"<path d="M{l:.1} {t:.1}H{r:.1}V{:.1}Q{r:.1} {:.1} {x:.1} {:.1}Q{l:.1} {:.1} {l:.1} {:.1}Z" fill="{SHIELD}" stroke="#fff" stroke-width="{:.1}"/>"##,
        t + h * 0.45,
        t + h * 0.85,
        t + h,
        t + h * 0.85,
        t + h * 0.45,
        w * 0.12
    );
}

/// A monastery: a pale stone chapel with a dark roof and a cross, unlike the map's red town houses.
fn monastery(out: &mut String, s: f64) {
    let (c, w) = (s / 2.0, s * 0.36);
    let (l, r) = (c - w / 2.0, c + w / 2.0);
    let (roof, eaves, foot) = (c - w * 0.55, c - w * 0.1, c + w * 0.55);
    let _ = write!(
        out,
        r##"<path d="M{l:.1} {eaves:.1}H{r:.1}V{foot:.1}H{l:.1}Z" fill="#f3ede0" stroke="#3b3b3b" stroke-width="{sw:.1}"/><path d="M{:.1} {eaves:.1}L{c:.1} {roof:.1}L{:.1} {eaves:.1}Z" fill="#4a4a58" stroke="#3b3b3b" stroke-width="{sw:.1}"/><path d="M{c:.1} {:.1}V{:.1}M{:.1} {:.1}H{:.1}" stroke="#3b3b3b" stroke-width="{:.1}"/><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#6b4a2b"/>"##,
        l - w * 0.08,
        r + w * 0.08,
        roof - w * 0.35,
        roof + w * 0.02,
        c - w * 0.14,
        roof - w * 0.22,
        c + w * 0.14,
        s * 0.035,
        c - w * 0.13,
        foot - w * 0.38,
        w * 0.26,
        w * 0.38,
        sw = s * 0.025
    );
}

/// Where a follower on segment `seg` stands.
pub fn anchor(t: &CompiledTile, seg: usize, rot: usize, s: f64) -> (f64, f64) {
    let c = s / 2.0;
    match t.kinds.get(seg) {
        Some(FeatureKind::Monastery) => (c, c),
        // A field: the middle of the points just inside its half-edges, which lies on the field for
        // the shapes tiles have (a cap, a road, a corner); a field around the whole tile (its middle
        // taken by a monastery or a crossing) stands in the corner of its first half-edge instead.
        Some(FeatureKind::Field) => {
            let halves = t.seg_halves[seg][rot];
            let hs: Vec<usize> = (0..8).filter(|h| halves & (1 << h) != 0).collect();
            let Some(&first) = hs.first() else {
                return (c, c);
            };
            let n = hs.len() as f64;
            let (sx, sy) = hs.iter().fold((0.0, 0.0), |(x, y), &h| {
                let p = half_point(h, s, s * 0.22);
                (x + p.0, y + p.1)
            });
            let (ax, ay) = (sx / n, sy / n);
            let busy_middle = t.monastery.is_some()
                || (0..t.kinds.len()).any(|g| {
                    t.kinds[g] == FeatureKind::Road && sides(t.seg_sides[g][rot]).len() != 2
                });
            if (ax - c).abs() < s * 0.15 && (ay - c).abs() < s * 0.15 && busy_middle {
                // Toward the corner the first half-edge is next to.
                let (hx, hy) = half_point(first, s, s * 0.16);
                let corner = |v: f64| if v < c { s * 0.18 } else { s * 0.82 };
                return match first {
                    0 | 1 | 4 | 5 => (corner(hx), hy),
                    _ => (hx, corner(hy)),
                };
            }
            (ax, ay)
        }
        Some(FeatureKind::Road) => {
            let sd = sides(t.seg_sides[seg][rot]);
            match sd.as_slice() {
                [a, b] if (a + 2) % 4 == *b => inward(*a, s, s * 0.3),
                [a, b] => {
                    let (p, q) = (inward(*a, s, 0.0), inward(*b, s, 0.0));
                    ((p.0 + q.0) / 4.0 + c / 2.0, (p.1 + q.1) / 4.0 + c / 2.0)
                }
                [a, ..] => inward(*a, s, s * 0.27),
                [] => (c, c),
            }
        }
        Some(FeatureKind::City) => {
            let sd = sides(t.seg_sides[seg][rot]);
            match sd.len() {
                1 => inward(sd[0], s, s * 0.16),
                4 => (c, c),
                _ => {
                    let n = sd.len() as f64;
                    let (sx, sy) = sd.iter().fold((0.0, 0.0), |(x, y), &side| {
                        let p = inward(side, s, s * 0.25);
                        (x + p.0, y + p.1)
                    });
                    (sx / n, sy / n)
                }
            }
        }
        None => (c, c),
    }
}
