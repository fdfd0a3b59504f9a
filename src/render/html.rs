//! The HTML replay page: one self-contained file (inline SVG, style and script; nothing fetched)
//! with the board of every turn, buttons and arrow keys to step, `#turn=N` to open a turn, each
//! turn's events and the options that were open, and a graph of the scores.
//!
//! The board is one SVG: the map once, then every tile, follower and chip as an element that shows
//! during the turns it was there (`data-a` ≤ turn < `data-b`), and one players' panel per turn.

use super::load::Loaded;
use super::svg::{self, esc, Base, PLAYER_COLOURS};
use super::timeline::{every_turn, Snapshot};
use crate::game::{Game, Hooks};
use crate::state::Place;
use std::fmt::Write as _;

/// Shows "never ends" for elements still there at the end.
const FOREVER: u32 = u32::MAX;

/// The page for a loaded game.
pub fn view_html(loaded: &Loaded) -> String {
    let game = &loaded.game;
    let mut snaps = every_turn(game);
    super::timeline::with_stacks(&mut snaps, &loaded.stacks);
    let last = snaps.len().saturating_sub(1) as u32;
    let Some(end) = snaps.last() else {
        return String::new();
    };
    let base = svg::base(game, end);
    let board = board_svg(game, &base, &snaps, last, &loaded.why);
    let hands = hands_svg(game, &snaps);
    let titles: Vec<String> = snaps
        .iter()
        .map(|s| svg::title(game, s.turn, s.last))
        .collect();
    let turns = super::story::every_turn(loaded, last);
    page(
        game,
        &board,
        &hands,
        &snaps,
        &titles,
        &turns,
        &score_graph(game, &snaps),
    )
}

/// The board of every turn in one SVG: the map, then tiles, stacks, chips, names and followers,
/// each shown during its turns, and each turn's last move.
fn board_svg<H: Hooks>(
    game: &Game<H>,
    base: &Base,
    snaps: &[Snapshot],
    last: u32,
    why: &[(String, String)],
) -> String {
    let Some(end) = snaps.last() else {
        return String::new();
    };
    let mut board = String::new();
    svg::open_board(
        &mut board,
        base,
        0.0,
        &svg::title(game, last, true),
        "title",
    );
    tiles(&mut board, game, base, snaps);
    stacks(&mut board, game, base, snaps);
    chips(&mut board, game, base, snaps);
    board.push_str(&base.names.svg);
    followers(&mut board, game, base, snaps);
    let tile_at = svg::tiles_by_cell(end);
    for (m, s) in super::last_move::every_turn(game, last).iter().zip(snaps) {
        let _ = write!(
            board,
            r#"<g class="last" data-a="{}" data-b="{}">"#,
            s.turn,
            s.turn + 1
        );
        svg::held_on_map(&mut board, game, base, s);
        super::last_move::draw(&mut board, game, base, (s, &tile_at), m, why);
        board.push_str("</g>");
    }
    board.push_str("</svg>");
    board
}

/// The players' hands and scores, beside the board (below it on a narrow screen): one panel per
/// turn, each shown during its turn.
fn hands_svg<H: Hooks>(game: &Game<H>, snaps: &[Snapshot]) -> String {
    let mut hands = format!(
        r##"<svg id="hands" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {:.0} {:.0}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"##,
        svg::panel_width(game),
        svg::panel_height(game)
    );
    for s in snaps {
        let _ = write!(
            hands,
            r#"<g class="panel" data-a="{}" data-b="{}">"#,
            s.turn,
            s.turn + 1
        );
        svg::panel_alone(&mut hands, game, s);
        hands.push_str("</g>");
    }
    hands.push_str("</svg>");
    hands
}

/// Tiles never leave: each shows from the turn it was placed.
fn tiles<H: Hooks>(out: &mut String, game: &Game<H>, base: &Base, snaps: &[Snapshot]) {
    let mut shown = 0;
    for s in snaps {
        for &t in &s.tiles[shown..] {
            let _ = write!(
                out,
                r#"<g class="tile" data-a="{}" data-b="{FOREVER}">"#,
                s.turn
            );
            svg::tile_el(out, game, base, t);
            out.push_str("</g>");
        }
        shown = s.tiles.len();
    }
}

/// Each tile stack, for each stretch of turns it kept one top tile and count.
fn stacks<H: Hooks>(out: &mut String, game: &Game<H>, base: &Base, snaps: &[Snapshot]) {
    let n = snaps.first().map_or(0, |s| s.stacks.len());
    for id in 0..n {
        let mut start = 0usize;
        for i in 1..=snaps.len() {
            let same = i < snaps.len() && snaps[i].stacks.get(id) == snaps[start].stacks.get(id);
            if same {
                continue;
            }
            if let Some(sv) = snaps[start].stacks.get(id) {
                let b = if i < snaps.len() {
                    snaps[i].turn
                } else {
                    FOREVER
                };
                let _ = write!(
                    out,
                    r#"<g class="stacked" data-a="{}" data-b="{b}">"#,
                    snaps[start].turn
                );
                svg::stack_el(out, game, base, sv);
                out.push_str("</g>");
            }
            start = i;
        }
    }
}

/// Each chip, for each stretch of turns it lay on one square or slot with one face.
fn chips<H: Hooks>(out: &mut String, game: &Game<H>, base: &Base, snaps: &[Snapshot]) {
    let n = snaps.first().map_or(0, |s| s.chips.len());
    let tile_at = snaps.last().map(svg::tiles_by_cell).unwrap_or_default();
    for id in 0..n {
        let mut start = 0usize;
        for i in 1..=snaps.len() {
            let same = i < snaps.len() && snaps[i].chips[id] == snaps[start].chips[id];
            if same {
                continue;
            }
            let c = snaps[start].chips[id];
            if matches!(
                c.place,
                Place::Square(_) | Place::Slot(..) | Place::Under(_)
            ) {
                let k = svg::fan_position(&snaps[start], id);
                let b = if i < snaps.len() {
                    snaps[i].turn
                } else {
                    FOREVER
                };
                let _ = write!(
                    out,
                    r#"<g class="chip" data-a="{}" data-b="{b}">"#,
                    snaps[start].turn
                );
                svg::chip_el(out, game, base, (&snaps[start], &tile_at), id, k);
                out.push_str("</g>");
            }
            start = i;
        }
    }
}

/// Each follower, for each stretch of turns it stood on one feature with one strength.
fn followers<H: Hooks>(out: &mut String, game: &Game<H>, base: &Base, snaps: &[Snapshot]) {
    let n = snaps.first().map_or(0, |s| s.followers.len());
    let end = snaps.last();
    let tile_at = end.map(svg::tiles_by_cell).unwrap_or_default();
    for id in 0..n {
        let mut start = 0usize;
        for i in 1..=snaps.len() {
            if i < snaps.len() && snaps[i].followers[id] == snaps[start].followers[id] {
                continue;
            }
            let fo = snaps[start].followers[id];
            if matches!(fo.at, crate::state::FollowerAt::Board(_)) {
                let b = if i < snaps.len() {
                    snaps[i].turn
                } else {
                    FOREVER
                };
                let _ = write!(
                    out,
                    r#"<g class="follower" data-a="{}" data-b="{b}">"#,
                    snaps[start].turn
                );
                svg::follower_el(out, game, base, &tile_at, &fo);
                out.push_str("</g>");
            }
            start = i;
        }
    }
}

/// The scores over the turns: one line per player, named at its end with the final score (the names
/// moved apart when scores are close), a marker at the current turn.
fn score_graph<H: Hooks>(game: &Game<H>, snaps: &[Snapshot]) -> String {
    // Width, height, left margin, bottom margin, the names' column on the right.
    let (w, h, l, b, names) = (640.0, 220.0, 40.0, 24.0, 92.0);
    let turns = snaps.len().max(2) as f64 - 1.0;
    let top = snaps
        .iter()
        .flat_map(|s| s.scores.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let right = w - 10.0 - names;
    let x = |t: f64| l + t / turns * (right - l);
    let y = |v: f64| h - b - v / top * (h - b - 10.0);
    let mut out = format!(
        r##"<svg id="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="12"><rect width="{w}" height="{h}" fill="#fbfaf6"/><path d="M{l} 10V{:.1}H{:.1}" fill="none" stroke="#888"/>"##,
        h - b,
        right
    );
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" text-anchor="end" fill="#555">{top}</text><text x="{}" y="{}" text-anchor="end" fill="#555">0</text><text x="{:.1}" y="{}" text-anchor="end" fill="#555">turn {}</text>"##,
        l - 4.0,
        16.0,
        l - 4.0,
        h - b,
        right,
        h - 6.0,
        turns as u32
    );
    // Each name at the height of its final score, pushed apart to 14 units between baselines,
    // kept between the top and the axis.
    let finals: Vec<f64> = (0..game.st.players.len())
        .map(|p| {
            let v = snaps
                .last()
                .and_then(|s| s.scores.get(p))
                .copied()
                .unwrap_or(0);
            y(v as f64) + 4.0
        })
        .collect();
    let label_y = spread(&finals, 14.0, 14.0, h - b);
    for (p, player) in game.st.players.iter().enumerate() {
        let pts: Vec<String> = snaps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let v = s.scores.get(p).copied().unwrap_or(0) as f64;
                format!("{:.1},{:.1}", x(i as f64), y(v))
            })
            .collect();
        let colour = PLAYER_COLOURS[p % PLAYER_COLOURS.len()];
        let ring = svg::ring(colour);
        let _ = write!(
            out,
            r#"<polyline points="{0}" fill="none" stroke="{ring}" stroke-width="4.5"/><polyline points="{0}" fill="none" stroke="{colour}" stroke-width="2.5"/><text x="{1:.1}" y="{2:.1}" fill="{colour}" stroke="{ring}" stroke-width="0.6" font-weight="bold">{3} {4}</text>"#,
            pts.join(" "),
            right + 6.0,
            label_y[p],
            esc(&short(&player.name, 7)),
            snaps
                .last()
                .and_then(|s| s.scores.get(p))
                .copied()
                .unwrap_or(0)
        );
    }
    let _ = write!(
        out,
        r##"<line id="marker" x1="{l}" x2="{l}" y1="10" y2="{:.1}" stroke="#000" stroke-dasharray="3 3" data-l="{l}" data-w="{:.1}" data-turns="{turns}"/></svg>"##,
        h - b,
        right - l
    );
    out
}

/// `ys` moved apart so that no two are nearer than `gap`, in their order, kept within `lo`..`hi`:
/// each run of crowded names is centred on the mean of where its names want to be.
fn spread(ys: &[f64], gap: f64, lo: f64, hi: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..ys.len()).collect();
    order.sort_by(|&a, &b| ys[a].total_cmp(&ys[b]).then(a.cmp(&b)));
    // Blocks of names one `gap` apart: (the first one's place, the names).
    let mut blocks: Vec<(f64, Vec<usize>)> = Vec::new();
    for i in order {
        blocks.push((ys[i], vec![i]));
        while let [.., prev, top] = blocks.as_slice() {
            if prev.0 + gap * prev.1.len() as f64 <= top.0 {
                break;
            }
            let Some(top) = blocks.pop() else { break };
            let Some(mut prev) = blocks.pop() else { break };
            prev.1.extend(top.1);
            let n = prev.1.len() as f64;
            let mean = prev.1.iter().map(|&i| ys[i]).sum::<f64>() / n;
            prev.0 = mean - gap * (n - 1.0) / 2.0;
            blocks.push(prev);
        }
    }
    let mut placed: Vec<(usize, f64)> = blocks
        .iter()
        .flat_map(|(first, ids)| {
            ids.iter()
                .enumerate()
                .map(move |(k, &i)| (i, first + gap * k as f64))
        })
        .collect();
    // Within the bounds: pushed down from the top, then up from the bottom.
    let mut floor = lo;
    for (_, y) in placed.iter_mut() {
        *y = y.max(floor);
        floor = *y + gap;
    }
    let mut ceiling = hi;
    for (_, y) in placed.iter_mut().rev() {
        *y = y.min(ceiling);
        ceiling = *y - gap;
    }
    let mut out = vec![0.0; ys.len()];
    for (i, y) in placed {
        out[i] = y;
    }
    out
}

/// A name cut to `n` characters with an ellipsis.
fn short(name: &str, n: usize) -> String {
    if name.chars().count() <= n {
        name.to_string()
    } else {
        name.chars().take(n - 1).chain(['…']).collect()
    }
}

/// The whole page: header with the turn controls, the board, the side panel (hands, this turn's
/// story, the score graph), and the data the script steps through.
fn page<H: Hooks>(
    game: &Game<H>,
    board: &str,
    hands: &str,
    snaps: &[Snapshot],
    titles: &[String],
    turns: &[String],
    graph: &str,
) -> String {
    let last = snaps.len().saturating_sub(1);
    let data = TurnData::of(game, snaps);
    let json_strings = |v: &[String]| {
        serde_json::Value::Array(
            v.iter()
                .map(|s| serde_json::Value::String(s.clone()))
                .collect(),
        )
        .to_string()
        .replace("</", "<\\/")
    };
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{STYLE}</style></head><body>
<header>
<nav><button id="first" title="first turn (Home)">«</button><button id="prev" title="previous turn (←)">◀</button>
<span id="label"></span><button id="next" title="next turn (→)">▶</button><button id="last" title="last turn (End)">»</button>
<input id="slider" type="range" min="0" max="{last}" value="{last}" aria-label="turn"></nav>
<div id="status">turn <b id="turn-now"></b> · tiles on the board <b id="tiles-shown"></b> · scores <span id="scores"></span></div>
<div id="sight">{sight}</div>
</header>
<main><section id="board"><div id="zoom"><button id="zoom-out" title="zoom out (-)">−</button><button id="zoom-fit" title="fit the board to the window (0)">fit</button><button id="zoom-in" title="zoom in (+)">+</button><span class="hint">drag to move the board when zoomed in</span></div><div id="view">{board}</div></section>
<section id="side"><h2 class="sr">Players</h2>{hands}<h2>This turn</h2><div id="events"></div><h2>Scores over the game</h2>{graph}</section></main>
<script>
const LAST = {last};
const SQUARE = {square};
const NAMES = [{names}];
const SCORES = [{scores}];
const TILES = [{tiles}];
const TITLES = {titles};
const TURNS = {turns};
{SCRIPT}
</script></body></html>
"#,
        title = esc(&svg::title(game, last as u32, true)),
        sight = sight_note(game),
        square = svg::SQUARE,
        names = data.names.join(","),
        scores = data.scores.join(","),
        tiles = data.tiles.join(","),
        titles = json_strings(titles),
        turns = json_strings(turns),
    );
    out
}

/// What the page says of what it shows: every chip's face, face-down ones too (a replay sees as
/// [`crate::sight::Seat::Everyone`]), which is for after the game.
fn sight_note<H: Hooks>(game: &Game<H>) -> &'static str {
    if game.is_over() {
        "The game is over: this replay shows every chip's face, face-down ones too."
    } else {
        "This game is not over, and this replay shows every chip's face, face-down ones too: \
         do not show it to a player of the game (a seat sees its own view in carto play and the \
         playground's Play tab)."
    }
}

/// What the page's script reads per turn, as JavaScript literals: the players' names, every turn's
/// scores and number of tiles.
struct TurnData {
    names: Vec<String>,
    scores: Vec<String>,
    tiles: Vec<String>,
}

impl TurnData {
    fn of<H: Hooks>(game: &Game<H>, snaps: &[Snapshot]) -> TurnData {
        let scores = snaps
            .iter()
            .map(|s| {
                let v: Vec<String> = s.scores.iter().map(|x| x.to_string()).collect();
                format!("[{}]", v.join(","))
            })
            .collect();
        TurnData {
            names: game
                .st
                .players
                .iter()
                .map(|p| serde_json::Value::String(p.name.clone()).to_string())
                .collect(),
            scores,
            tiles: snaps.iter().map(|s| s.tiles.len().to_string()).collect(),
        }
    }
}

/// The replay page's style and script, kept as the CSS and JavaScript files they are.
const STYLE: &str = include_str!("replay.css");

const SCRIPT: &str = include_str!("replay.js");
