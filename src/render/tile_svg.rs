//! A tile drawn from its definition: fields as the ground, cities as walls filling their sides,
//! roads from their sides to the middle, monasteries, coats of arms. Also where a follower stands on
//! each segment. Coordinates are in a square of side `s` with its top-left corner at (0, 0).

use crate::compiled::CompiledTile;
use crate::geometry::FeatureKind;
use std::fmt::Write as _;

pub(crate) const FIELD: &str = "#9cc46a";
pub(crate) const CITY: &str = "#c98b4f";
pub(crate) const CITY_EDGE: &str = "#6e4421";
pub(crate) const ROAD: &str = "#fbf6e9";
pub(crate) const ROAD_EDGE: &str = "#5b5247";
pub(crate) const SHIELD: &str = "#2456a6";

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

/// The SVG elements of tile `t` at rotation `rot`, in a square of side `s`. Every part drawn for a
/// segment (a field's area, a city's area and wall, a road, a monastery) carries `data-seg` with the
/// segment's index, so that a test can ask which segment is drawn at a point.
pub fn tile(out: &mut String, t: &CompiledTile, rot: usize, s: f64) {
    // The ground: a field that reaches no side (enclosed by cities) is what shows there.
    let _ = match enclosed_field(t, rot) {
        Some(seg) => write!(
            out,
            r#"<rect data-seg="{seg}" width="{s}" height="{s}" fill="{FIELD}"/>"#
        ),
        None => write!(out, r#"<rect width="{s}" height="{s}" fill="{FIELD}"/>"#),
    };
    for seg in 0..t.kinds.len() {
        if t.kinds[seg] == FeatureKind::Field {
            let mut d = String::new();
            for [a, b, c] in field_wedges(t, rot, seg, s) {
                let _ = write!(
                    d,
                    "M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z",
                    a.0, a.1, b.0, b.1, c.0, c.1
                );
            }
            if !d.is_empty() {
                let _ = write!(out, r#"<path data-seg="{seg}" d="{d}" fill="{FIELD}"/>"#);
            }
        }
    }
    for seg in 0..t.kinds.len() {
        if t.kinds[seg] == FeatureKind::City {
            city(
                out,
                seg,
                t.seg_sides[seg][rot],
                other_cities(t, rot, seg),
                s,
            );
        }
    }
    for seg in 0..t.kinds.len() {
        if t.kinds[seg] == FeatureKind::Road {
            road(out, seg, t.seg_sides[seg][rot], s, t.monastery.is_some());
        }
    }
    let spots = spots(t, rot);
    for seg in 0..t.kinds.len() {
        if t.kinds[seg] == FeatureKind::City && t.shields[seg] > 0 {
            let (x, y) = spots.shield[seg];
            shield(out, x * s, y * s, s * 0.17);
        }
    }
    if let Some(seg) = t.kinds.iter().position(|&k| k == FeatureKind::Monastery) {
        monastery(out, seg, s);
    }
    let _ = write!(
        out,
        r##"<rect width="{s}" height="{s}" fill="none" stroke="#00000055" stroke-width="1"/>"##
    );
}

/// The sides of the tile's other cities than `seg`: a city's bay facing one is deeper, so that the
/// field enclosed between them shows.
fn other_cities(t: &CompiledTile, rot: usize, seg: usize) -> u8 {
    (0..t.kinds.len())
        .filter(|&g| g != seg && t.kinds[g] == FeatureKind::City)
        .fold(0, |m, g| m | t.seg_sides[g][rot])
}

/// How deep a city's bay on `side` reaches (the Bézier's control points, as a share of the side).
fn bay_depth(side: usize, others: u8) -> f64 {
    if others & (1 << side) != 0 {
        0.62
    } else {
        0.34
    }
}

fn city(out: &mut String, seg: usize, mask: u8, others: u8, s: f64) {
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
                let (dx, dy) = into(side, s * bay_depth(side, others));
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
        r#"<path data-seg="{seg}" d="{area}" fill="{CITY}"/><path data-seg="{seg}" d="{wall}" fill="none" stroke="{CITY_EDGE}" stroke-width="{:.1}" stroke-linecap="round"/>"#,
        s * 0.05
    );
}

fn road(out: &mut String, seg: usize, mask: u8, s: f64, monastery: bool) {
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
            r#"<path data-seg="{seg}" d="{d}" fill="none" stroke="{colour}" stroke-width="{:.1}" stroke-linecap="butt"/>"#,
            s * w
        );
    }
    // A road that ends or forks in the middle ends at a little house (unless at the monastery).
    if sd.len() != 2 && !monastery {
        let w = s * 0.2;
        let _ = write!(
            out,
            r#"<rect data-seg="{seg}" x="{:.1}" y="{:.1}" width="{w:.1}" height="{w:.1}" fill="{ROAD_EDGE}"/>"#,
            c - w / 2.0,
            c - w / 2.0
        );
    }
}

/// A coat of arms centred on (x, y), `w` wide.
pub(crate) fn shield(out: &mut String, x: f64, y: f64, w: f64) {
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
fn monastery(out: &mut String, seg: usize, s: f64) {
    let (c, w) = (s / 2.0, s * 0.36);
    let (l, r) = (c - w / 2.0, c + w / 2.0);
    let (roof, eaves, foot) = (c - w * 0.55, c - w * 0.1, c + w * 0.55);
    let _ = write!(
        out,
        r##"<g data-seg="{seg}"><path d="M{l:.1} {eaves:.1}H{r:.1}V{foot:.1}H{l:.1}Z" fill="#f3ede0" stroke="#3b3b3b" stroke-width="{sw:.1}"/><path d="M{:.1} {eaves:.1}L{c:.1} {roof:.1}L{:.1} {eaves:.1}Z" fill="#4a4a58" stroke="#3b3b3b" stroke-width="{sw:.1}"/><path d="M{c:.1} {:.1}V{:.1}M{:.1} {:.1}H{:.1}" stroke="#3b3b3b" stroke-width="{:.1}"/><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#6b4a2b"/></g>"##,
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

type Pt = (f64, f64);

/// The points of a cubic Bézier curve from `p0` to `p3`, `p0` left out.
fn cubic(p0: Pt, p1: Pt, p2: Pt, p3: Pt, out: &mut Vec<Pt>) {
    for i in 1..=16 {
        let t = f64::from(i) / 16.0;
        let u = 1.0 - t;
        let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        out.push((
            a * p0.0 + b * p1.0 + c * p2.0 + d * p3.0,
            a * p0.1 + b * p1.1 + c * p2.1 + d * p3.1,
        ));
    }
}

/// The area `city` fills for a city on sides `mask`, as a polygon (the same curves, flattened).
fn city_polygon(mask: u8, others: u8, s: f64) -> Vec<Pt> {
    let sd = sides(mask);
    let mut poly = Vec::new();
    if sd.len() == 1 {
        let [a, b] = corners(sd[0], s);
        let (dx, dy) = into(sd[0], s * 0.42);
        poly.push(a);
        poly.push(b);
        cubic(b, (b.0 + dx, b.1 + dy), (a.0 + dx, a.1 + dy), a, &mut poly);
        return poly;
    }
    for side in 0..4 {
        let [a, b] = corners(side, s);
        if poly.is_empty() {
            poly.push(a);
        }
        if mask & (1 << side) != 0 {
            poly.push(b);
        } else {
            let (dx, dy) = into(side, s * bay_depth(side, others));
            cubic(a, (a.0 + dx, a.1 + dy), (b.0 + dx, b.1 + dy), b, &mut poly);
        }
    }
    poly
}

/// The line `road` draws for a road on sides `mask`: one polyline per stroke.
fn road_lines(mask: u8, s: f64) -> Vec<Vec<Pt>> {
    let sd = sides(mask);
    let c = (s / 2.0, s / 2.0);
    if sd.len() == 2 {
        let (a, b) = (inward(sd[0], s, 0.0), inward(sd[1], s, 0.0));
        // The quadratic from a to b through the control point c, as a cubic.
        let k = 2.0 / 3.0;
        let p1 = (a.0 + k * (c.0 - a.0), a.1 + k * (c.1 - a.1));
        let p2 = (b.0 + k * (c.0 - b.0), b.1 + k * (c.1 - b.1));
        let mut line = vec![a];
        cubic(a, p1, p2, b, &mut line);
        vec![line]
    } else {
        sd.iter()
            .map(|&side| vec![inward(side, s, 0.0), c])
            .collect()
    }
}

fn inside(poly: &[Pt], (x, y): Pt) -> bool {
    let mut odd = false;
    let mut j = poly.len().wrapping_sub(1);
    for i in 0..poly.len() {
        let ((xi, yi), (xj, yj)) = (poly[i], poly[j]);
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            odd = !odd;
        }
        j = i;
    }
    odd
}

fn near_line(line: &[Pt], (x, y): Pt, r: f64) -> bool {
    line.windows(2).any(|w| {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        let (dx, dy) = (bx - ax, by - ay);
        let len2 = dx * dx + dy * dy;
        let t = if len2 > 0.0 {
            (((x - ax) * dx + (y - ay) * dy) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (px, py) = (ax + t * dx - x, ay + t * dy - y);
        px * px + py * py <= r * r
    })
}

/// The field segment each half-edge's wedge (the triangle from the half-edge to the middle of the
/// tile) is drawn in: its own field, or for a half-edge of a city the field enclosed between cities
/// if there is one, else the field next to it along the edge, away from the middle of its side
/// (the field that reaches around the city's wall).
fn wedge_fields(t: &CompiledTile, rot: usize) -> [Option<usize>; 8] {
    let field_of = |h: usize| {
        (0..t.kinds.len())
            .find(|&g| t.kinds[g] == FeatureKind::Field && t.seg_halves[g][rot] & (1 << h) != 0)
    };
    let enclosed = enclosed_field(t, rot);
    let mut out = [None; 8];
    for (h, o) in out.iter_mut().enumerate() {
        if enclosed.is_some() && field_of(h).is_none() {
            // Behind a city's wall lies the enclosed field.
            *o = enclosed;
            continue;
        }
        *o = (0..8).find_map(|k| {
            let step = if h % 2 == 0 { 8 - k } else { k };
            field_of((h + step) % 8)
        });
    }
    out
}

/// A field that reaches no side of the tile (it shows wherever nothing else is drawn).
fn enclosed_field(t: &CompiledTile, rot: usize) -> Option<usize> {
    (0..t.kinds.len()).find(|&g| t.kinds[g] == FeatureKind::Field && t.seg_halves[g][rot] == 0)
}

/// The triangles drawn for field `seg`.
fn field_wedges(t: &CompiledTile, rot: usize, seg: usize, s: f64) -> Vec<[Pt; 3]> {
    let c = (s / 2.0, s / 2.0);
    wedge_fields(t, rot)
        .iter()
        .enumerate()
        .filter(|&(_, &f)| f == Some(seg))
        .map(|(h, _)| {
            let [a, b] = corners(h / 2, s);
            let mid = inward(h / 2, s, 0.0);
            if h % 2 == 0 {
                [a, mid, c]
            } else {
                [mid, b, c]
            }
        })
        .collect()
}

/// The segment drawn on top at point `p` of tile `t` at rotation `rot` in a unit square, as
/// `tile` draws it (fields, then cities, then roads, then the monastery): `None` on the bare ground.
pub(crate) fn region_at(t: &CompiledTile, rot: usize, p: Pt) -> Option<usize> {
    let mut top = enclosed_field(t, rot);
    let wedges = wedge_fields(t, rot);
    for (h, f) in wedges.iter().enumerate() {
        let [a, b] = corners(h / 2, 1.0);
        let mid = inward(h / 2, 1.0, 0.0);
        let tri = if h % 2 == 0 {
            [a, mid, (0.5, 0.5)]
        } else {
            [mid, b, (0.5, 0.5)]
        };
        if f.is_some() && inside(&tri, p) {
            top = *f;
            break;
        }
    }
    for (g, kind) in t.kinds.iter().enumerate() {
        if *kind == FeatureKind::City
            && inside(
                &city_polygon(t.seg_sides[g][rot], other_cities(t, rot, g), 1.0),
                p,
            )
        {
            top = Some(g);
        }
    }
    for (g, kind) in t.kinds.iter().enumerate() {
        if *kind == FeatureKind::Road {
            let mask = t.seg_sides[g][rot];
            let on_line = road_lines(mask, 1.0).iter().any(|l| near_line(l, p, 0.075));
            let house = sides(mask).len() != 2
                && t.monastery.is_none()
                && (p.0 - 0.5).abs() <= 0.1
                && (p.1 - 0.5).abs() <= 0.1;
            if on_line || house {
                top = Some(g);
            }
        }
    }
    if let Some(g) = t.kinds.iter().position(|&k| k == FeatureKind::Monastery) {
        let w = 0.36;
        if (p.0 - 0.5).abs() <= w * 0.58 && p.1 >= 0.5 - w * 0.9 && p.1 <= 0.5 + w * 0.55 {
            top = Some(g);
        }
    }
    top
}

/// Where followers stand and coats of arms are drawn on one tile at one rotation, in a unit square.
#[derive(Clone, Debug)]
pub(crate) struct Spots {
    /// Per segment: where its follower stands.
    pub(crate) follower: Vec<Pt>,
    /// Per city segment: where its coat of arms is drawn (away from the follower).
    pub(crate) shield: Vec<Pt>,
}

const GRID: usize = 24;

thread_local! {
    static SPOTS: std::cell::RefCell<std::collections::BTreeMap<String, Spots>> =
        const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
}

/// The spots of tile `t` at rotation `rot` (worked out once per tile and rotation).
pub(crate) fn spots(t: &CompiledTile, rot: usize) -> Spots {
    let key = format!(
        "{}/{rot}/{:?}/{:?}/{:?}/{:?}",
        t.id, t.kinds, t.seg_sides, t.seg_halves, t.monastery
    );
    if let Some(s) = SPOTS.with(|m| m.borrow().get(&key).cloned()) {
        return s;
    }
    let s = work_out_spots(t, rot);
    SPOTS.with(|m| m.borrow_mut().insert(key, s.clone()));
    s
}

fn work_out_spots(t: &CompiledTile, rot: usize) -> Spots {
    let at = |i: usize| (i as f64 + 0.5) / GRID as f64;
    let cells: Vec<(Pt, Option<usize>)> = (0..GRID * GRID)
        .map(|i| {
            let p = (at(i % GRID), at(i / GRID));
            (p, region_at(t, rot, p))
        })
        .collect();
    // How far each cell of `seg` is from the nearest cell of another segment or the tile's edge
    // (only the other cells that border `seg` can be the nearest).
    let rooms = |seg: usize| -> Vec<f64> {
        let of = |x: i64, y: i64| {
            (0..GRID as i64).contains(&x)
                && (0..GRID as i64).contains(&y)
                && cells[y as usize * GRID + x as usize].1 == Some(seg)
        };
        let border: Vec<Pt> = (0..GRID * GRID)
            .filter(|&i| {
                let (x, y) = ((i % GRID) as i64, (i / GRID) as i64);
                !of(x, y)
                    && [(1, 0), (-1, 0), (0, 1), (0, -1)]
                        .iter()
                        .any(|(dx, dy)| of(x + dx, y + dy))
            })
            .map(|i| cells[i].0)
            .collect();
        cells
            .iter()
            .map(|&(p, g)| {
                if g != Some(seg) {
                    return -1.0;
                }
                let edge = p.0.min(1.0 - p.0).min(p.1).min(1.0 - p.1) + 0.5 / GRID as f64;
                border
                    .iter()
                    .map(|q| ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt())
                    .fold(edge, f64::min)
            })
            .collect()
    };
    // The roomiest point of `seg` (room counted up to `enough`), the nearest to `near` among the
    // equally roomy, and never nearer than `apart` to `away`.
    let best = |room: &[f64], near: Pt, enough: f64, away: Option<(Pt, f64)>| -> Option<Pt> {
        let mut found: Option<(f64, f64, Pt)> = None;
        for (&(p, _), &r) in cells.iter().zip(room) {
            if r < 0.0 {
                continue;
            }
            let far = away.map_or(0.0, |(q, apart)| {
                let d = ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt();
                (apart - d).max(0.0)
            });
            let room = r.min(enough) - far;
            let dist = (p.0 - near.0).powi(2) + (p.1 - near.1).powi(2);
            let better = match found {
                None => true,
                Some((r, d, _)) => room > r + 1e-9 || ((room - r).abs() <= 1e-9 && dist < d),
            };
            if better {
                found = Some((room, dist, p));
            }
        }
        found.map(|(_, _, p)| p)
    };
    let mut follower = Vec::with_capacity(t.kinds.len());
    let mut shield = Vec::with_capacity(t.kinds.len());
    for seg in 0..t.kinds.len() {
        let near = first_guess(t, seg, rot);
        let room = rooms(seg);
        let p = match t.kinds[seg] {
            FeatureKind::Monastery => near,
            // On the road's line (it is narrow), the nearest to the guess that is not covered.
            FeatureKind::Road => best(&room, near, 0.05, None).unwrap_or(near),
            FeatureKind::City | FeatureKind::Field => best(&room, near, 0.17, None).unwrap_or(near),
        };
        follower.push(p);
        shield.push(if t.kinds[seg] == FeatureKind::City {
            best(&room, near, 0.1, Some((p, 0.3))).unwrap_or(p)
        } else {
            p
        });
    }
    Spots { follower, shield }
}

/// Where a follower on segment `seg` stands, in a square of side `s`.
pub fn anchor(t: &CompiledTile, seg: usize, rot: usize, s: f64) -> (f64, f64) {
    let (x, y) = spots(t, rot)
        .follower
        .get(seg)
        .copied()
        .unwrap_or((0.5, 0.5));
    (x * s, y * s)
}

/// A first guess at where a follower on segment `seg` stands, in a unit square: the middle of a
/// monastery, a point on a road's line, the middle of a city's or field's sides.
fn first_guess(t: &CompiledTile, seg: usize, rot: usize) -> Pt {
    let (s, c) = (1.0, 0.5);
    match t.kinds.get(seg) {
        Some(FeatureKind::Field) => {
            let halves = t.seg_halves[seg][rot];
            let hs: Vec<usize> = (0..8).filter(|h| halves & (1 << h) != 0).collect();
            if hs.is_empty() {
                return (c, c);
            }
            let n = hs.len() as f64;
            let (sx, sy) = hs.iter().fold((0.0, 0.0), |(x, y), &h| {
                let p = half_point(h, s, s * 0.22);
                (x + p.0, y + p.1)
            });
            (sx / n, sy / n)
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
        _ => (c, c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every follower spot of every bundled tile, at every rotation, lies on its own segment as
    /// drawn, and every coat of arms on its city.
    #[test]
    fn spots_lie_on_their_segment() {
        let mut checked = 0;
        for name in crate::tiles::bundled_tile_sets() {
            let set = crate::tiles::parse_bundled(name)
                .expect("bundled")
                .expect("parses");
            for ty in &set.tiles {
                let t = &CompiledTile::new(ty);
                for rot in 0..4 {
                    let sp = spots(t, rot);
                    for seg in 0..t.kinds.len() {
                        assert_eq!(
                            region_at(t, rot, sp.follower[seg]),
                            Some(seg),
                            "{name} {} rot {rot} seg {seg} ({:?}) at {:?}",
                            t.id,
                            t.kinds[seg],
                            sp.follower[seg]
                        );
                        if t.kinds[seg] == FeatureKind::City {
                            assert_eq!(region_at(t, rot, sp.shield[seg]), Some(seg));
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
