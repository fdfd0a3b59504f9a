//! The last move on a board: the tile placed this turn framed in its player's colour, the follower
//! placed ringed, and the points earned floated over what scored them (as Board Game Arena and
//! JCloisterZone show it).

use super::svg::{self, esc, Base};
use super::timeline::Snapshot;
use crate::game::{Game, Hooks};
use crate::state::EvKind;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What happened on the board in one turn.
#[derive(Clone, Debug, Default)]
pub(crate) struct LastMove {
    /// The turn's player.
    pub(crate) player: Option<u8>,
    /// The cell of the tile placed.
    pub(crate) tile: Option<u32>,
    /// The followers placed.
    pub(crate) followers: Vec<u16>,
    /// Points earned: (player, points, the cell they are shown on, the rule that gave them).
    pub(crate) points: Vec<(u8, i64, u32, u16)>,
}

/// The last move of every turn, 0 to `last`.
pub fn every_turn<H: Hooks>(game: &Game<H>, last: u32) -> Vec<LastMove> {
    let mut out = vec![LastMove::default(); last as usize + 1];
    for e in &game.st.events {
        let Some(m) = out.get_mut(e.turn as usize) else {
            continue;
        };
        if e.turn == 0 {
            continue;
        }
        match &e.kind {
            EvKind::TilePlaced { cell, .. } => {
                m.tile = Some(*cell);
                m.player = e.player;
            }
            EvKind::FollowerPlaced { f, .. } => m.followers.push(*f),
            EvKind::Score {
                player,
                points,
                what,
                at,
                rule,
            } => {
                if let Some(cell) = what.as_ref().map(|w| w.cell).or(*at).or(m.tile) {
                    m.points.push((*player, *points, cell, *rule));
                }
            }
            _ => {}
        }
    }
    out
}

/// Draws `m` on the board of `snap`: the frame, the rings and the floating points. A points pill's
/// tooltip says its rule as `why` gives it (by the rule's name: heading, place, sentence), else the
/// rule's name.
pub(crate) fn draw<H: Hooks>(
    out: &mut String,
    game: &Game<H>,
    base: &Base,
    (snap, tile_at): (&Snapshot, &BTreeMap<u32, (u16, u8)>),
    m: &LastMove,
    why: &[(String, String)],
) {
    let b = &game.st.board;
    let s = svg::SQUARE;
    if let (Some(cell), Some(p)) = (m.tile, m.player) {
        let (x, y) = b.xy(cell);
        let (px, py) = base.px(x, y);
        let colour = svg::player_colour(p as usize);
        let name = svg::player_name(game, p as usize, "");
        let _ = write!(
            out,
            r##"<g class="last-tile" data-player="{}"><title>{}'s last tile, at {x},{y}</title><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="4" fill="none" stroke="{}" stroke-width="7"/><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="3" fill="none" stroke="{colour}" stroke-width="4"/></g>"##,
            esc(name),
            esc(name),
            px - 1.0,
            py - 1.0,
            s + 2.0,
            s + 2.0,
            svg::ring(colour),
            px - 1.0,
            py - 1.0,
            s + 2.0,
            s + 2.0,
        );
    }
    for &f in &m.followers {
        let Some(fo) = snap.followers.get(f as usize) else {
            continue;
        };
        let crate::state::FollowerAt::Board(node) = fo.at else {
            continue;
        };
        let (x, y) = b.xy(fo.cell);
        let (px, py) = base.px(x, y);
        let (ax, ay) = svg::follower_anchor(game, tile_at, fo.cell, node);
        let colour = svg::player_colour(fo.owner as usize);
        let _ = write!(
            out,
            r##"<g class="last-follower"><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{}" stroke-width="5"/><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="2.5"/></g>"##,
            px + ax,
            py + ay,
            s * 0.27,
            svg::ring(colour),
            px + ax,
            py + ay,
            s * 0.27,
        );
    }
    points_pills(out, game, base, (snap, tile_at), m, why);
}

/// The points of `m`: a pill in the player's colour over the scored feature's tile, in its upper
/// half; several on one tile, or one that would cover a label (a place's name, a coordinate, a
/// square's badge), a chip, a follower or other points, moved to the nearest free place above,
/// below or beside, inside the board.
fn points_pills<H: Hooks>(
    out: &mut String,
    game: &Game<H>,
    base: &Base,
    (snap, tile_at): (&Snapshot, &BTreeMap<u32, (u16, u8)>),
    m: &LastMove,
    why: &[(String, String)],
) {
    let b = &game.st.board;
    let s = svg::SQUARE;
    let mut taken: Vec<[f64; 4]> = base.names.boxes.clone();
    for id in 0..snap.chips.len() {
        let k = svg::fan_position(snap, id);
        if let Some((cx, cy, r)) = svg::chip_spot(game, base, (snap, tile_at), id, k) {
            taken.push([cx - r, cy - r, cx + r, cy + r]);
        }
    }
    for fo in &snap.followers {
        if let crate::state::FollowerAt::Board(node) = fo.at {
            let (x, y) = b.xy(fo.cell);
            let (px, py) = base.px(x, y);
            let (ax, ay) = svg::follower_anchor(game, tile_at, fo.cell, node);
            let r = s * 0.2;
            taken.push([px + ax - r, py + ay - r, px + ax + r, py + ay + r]);
        }
    }
    for &(p, points, cell, rule) in &m.points {
        let (x, y) = b.xy(cell);
        let (px, py) = base.px(x, y);
        let colour = svg::player_colour(p as usize);
        let label = format!("{points:+}");
        let w = 12.0 + 11.0 * label.chars().count() as f64;
        let (cx, cy) = pill_place(&taken, base.board_box(), (px + s / 2.0, py + 16.0), w);
        taken.push([cx - w / 2.0, cy - 11.0, cx + w / 2.0, cy + 11.0]);
        let name = svg::player_name(game, p as usize, "");
        // The rule that gave them: its heading, file and line and sentence where known, else its
        // name in the rules (the play page says them from the rules' page: "why these points?").
        let name_in_rules = game.rule_name(rule);
        let said = match why.iter().find(|(n, _)| n == name_in_rules) {
            Some((_, w)) => format!("{label} for {w}"),
            None => format!("{label} ({name_in_rules})"),
        };
        let rule = esc(name_in_rules);
        let _ = write!(
            out,
            r##"<g class="points" data-player="{}" data-points="{points}" data-rule="{rule}"><title>{} {}</title><rect x="{:.1}" y="{:.1}" width="{w:.1}" height="22" rx="11" fill="{colour}" stroke="{}" stroke-width="2"/><text x="{cx:.1}" y="{:.1}" font-size="16" font-weight="bold" text-anchor="middle" fill="{}">{label}</text></g>"##,
            esc(name),
            esc(name),
            esc(&said),
            cx - w / 2.0,
            cy - 11.0,
            svg::ring(colour),
            cy + 6.0,
            svg::ring(colour),
        );
    }
}

/// Where a pill `w` wide goes: at `at` if it covers nothing `taken` and lies inside `inside`, else
/// at the nearest such place in steps of half a pill around it (up first).
fn pill_place(taken: &[[f64; 4]], inside: [f64; 4], at: (f64, f64), w: f64) -> (f64, f64) {
    let free = |(cx, cy): (f64, f64)| {
        let r = [cx - w / 2.0 - 1.0, cy - 12.0, cx + w / 2.0 + 1.0, cy + 12.0];
        r[0] >= inside[0]
            && r[1] >= inside[1]
            && r[2] <= inside[2]
            && r[3] <= inside[3]
            && !taken
                .iter()
                .any(|t| r[0] < t[2] && t[0] < r[2] && r[1] < t[3] && t[1] < r[3])
    };
    for ring in 0..12 {
        let d = 12.0 * f64::from(ring);
        for (dx, dy) in [
            (0.0, -d),
            (0.0, d),
            (-d, 0.0),
            (d, 0.0),
            (-d, -d),
            (d, -d),
            (-d, d),
            (d, d),
        ] {
            if free((at.0 + dx, at.1 + dy)) {
                return (at.0 + dx, at.1 + dy);
            }
        }
    }
    at
}
