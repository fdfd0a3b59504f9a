//! The replay page's account of each turn, in words: who played (in their colour), a picture of the
//! tile they drew and where it went, the follower they placed, the points scored and what for, the
//! chips that moved; the options that were open folded away below.

use super::load::Loaded;
use super::svg::{self, esc};
use crate::game::{Game, Hooks};
use crate::state::{EvKind, Event, FollowerAt, Place};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A meeple path in a 20×20 box (the board's).
const MEEPLE: &str = "M4 19L7 12L2 11Q1 8 5 7.5L7.6 7A3.2 3.2 0 1 1 12.4 7L15 7.5Q19 8 18 11L13 12L16 19H11.5L10 15.5L8.5 19Z";

/// One HTML block per turn, 0 to `last`.
pub fn every_turn(loaded: &Loaded, last: u32) -> Vec<String> {
    let game = &loaded.game;
    let mut per_turn: Vec<Vec<&Event>> = vec![Vec::new(); last as usize + 1];
    for e in &game.st.events {
        if let Some(v) = per_turn.get_mut(e.turn as usize) {
            v.push(e);
        }
    }
    let mut options: BTreeMap<u32, Vec<&Vec<String>>> = BTreeMap::new();
    for d in &loaded.decisions {
        options.entry(d.turn).or_default().push(&d.options);
    }
    let setup = setup_lines(game);
    let mut running = vec![0i64; game.st.players.len()];
    per_turn
        .iter()
        .enumerate()
        .map(|(t, events)| {
            let mut w = Story {
                game,
                out: String::new(),
            };
            if t == 0 {
                w.out.push_str(r#"<div class="head">Setup</div><ul>"#);
                for l in &setup {
                    let _ = write!(w.out, "<li>{}</li>", esc(l));
                }
                w.out.push_str("</ul>");
            } else {
                w.turn(t as u32, events, last, &mut running);
            }
            if let Some(list) = options.get(&(t as u32)) {
                w.options(list);
            }
            w.out
        })
        .collect()
}

/// The setup in plain lines (the transcript's, chips summarised), without its codes.
fn setup_lines<H: Hooks>(game: &Game<H>) -> Vec<String> {
    let text = super::text::transcript(game);
    let mut lines = Vec::new();
    let mut in_setup = false;
    for l in text.lines().skip(1) {
        if l == "setup" {
            in_setup = true;
            continue;
        }
        if !l.starts_with("  ") {
            if in_setup {
                break;
            }
            continue;
        }
        if in_setup {
            lines.push(
                l.trim_start()
                    .replace(" -> ", " → ")
                    .replace("map squares", "the map"),
            );
        }
    }
    lines
}

struct Story<'a, H: Hooks> {
    game: &'a Game<H>,
    out: String,
}

impl<H: Hooks> Story<'_, H> {
    fn name(&self, p: u8) -> &str {
        svg::player_name(self.game, p as usize, "?")
    }

    /// A player's name after a little meeple in their colour.
    fn who(&self, p: u8) -> String {
        let c = svg::player_colour(p as usize);
        format!(
            r#"<span class="who"><svg width="15" height="15" viewBox="0 0 20 20" aria-hidden="true"><path d="{MEEPLE}" fill="{c}" stroke="{}" stroke-width="1.6"/></svg><b>{}</b></span>"#,
            svg::ring(c),
            esc(self.name(p))
        )
    }

    fn follower_owner(&self, f: u16) -> u8 {
        self.game
            .st
            .followers
            .get(f as usize)
            .map_or(0, |fo| fo.owner)
    }

    /// A place in words: "the map at 8,13", "ann's hand", "the supply".
    fn place(&self, p: Place) -> String {
        let b = &self.game.st.board;
        match p {
            Place::Supply => "the supply".into(),
            Place::Aside => "the chips set aside".into(),
            Place::Box => "the box".into(),
            Place::Square(c) => {
                let (x, y) = b.xy(c);
                format!("the map at {x},{y}")
            }
            Place::Slot(c, _) => {
                let (x, y) = b.xy(c);
                format!("a slot at {x},{y}")
            }
            Place::Hand(p) => format!("{}'s hand", esc(self.name(p))),
            Place::Under(f) => format!(
                "under {}'s follower",
                esc(self.name(self.follower_owner(f)))
            ),
            Place::Holding(h) => esc(&holding_in_sentence(self.game, h)),
            Place::PlayerHolding(h, p) => format!(
                "{}'s {}",
                esc(self.name(p)),
                esc(&holding_name(self.game, h))
            ),
        }
    }

    fn follower_place(&self, f: u16, at: FollowerAt) -> String {
        match at {
            FollowerAt::Supply => format!("{}'s supply", esc(self.name(self.follower_owner(f)))),
            FollowerAt::Board(_) => "the board".into(),
            FollowerAt::Holding(h) => esc(&holding_in_sentence(self.game, h)),
        }
    }

    fn turn(&mut self, t: u32, events: &[&Event], last: u32, running: &mut [i64]) {
        let g = self.game;
        let player = events.iter().find_map(|e| e.player);
        let head = match player {
            Some(p) if !(t == last && g.is_over() && events.iter().all(|e| e.player.is_none())) => {
                format!("Turn {t} · {}", self.who(p))
            }
            _ => "Game end: the final scoring".to_string(),
        };
        let _ = write!(self.out, r#"<div class="head">{head}</div><ul>"#);
        let mut changed = false;
        for e in events {
            let Some(line) = self.sentence(e, running, &mut changed) else {
                continue;
            };
            let class = if line.starts_with(r#"<span class="drawn">"#) {
                r#" class="pic""#
            } else {
                ""
            };
            let _ = write!(self.out, "<li{class}>{line}</li>");
        }
        if !events
            .iter()
            .any(|e| !matches!(e.kind, EvKind::Choice { .. } | EvKind::TurnEnd { .. }))
        {
            self.out.push_str("<li>nothing happened on the board</li>");
        }
        self.out.push_str("</ul>");
        if changed {
            self.scores(running);
        }
    }

    /// What event `e` says, as a list item (`None` for an event the story does not tell); a score
    /// is added to `running` and sets `changed`.
    fn sentence(&self, e: &Event, running: &mut [i64], changed: &mut bool) -> Option<String> {
        let g = self.game;
        let b = &g.st.board;
        Some(match &e.kind {
            EvKind::TilePlaced { ty, cell, rot } => {
                let (x, y) = b.xy(*cell);
                let pic = tile_picture(g, *ty, *rot);
                let turned = match rot & 3 {
                    0 => String::new(),
                    r => format!(", turned {}°", u32::from(r) * 90),
                };
                format!(
                    r#"<span class="drawn">{pic}<span>drew tile <b>{}</b> and placed it at {x},{y}{turned}</span></span>"#,
                    esc(tile_id(g, *ty))
                )
            }
            EvKind::TileDiscarded { ty } => {
                let pic = tile_picture(g, *ty, 0);
                format!(
                    r#"<span class="drawn">{pic}<span>drew tile <b>{}</b>, which fits nowhere: discarded</span></span>"#,
                    esc(tile_id(g, *ty))
                )
            }
            EvKind::FollowerPlaced { cell, kind, .. } => {
                let (x, y) = b.xy(*cell);
                format!(
                    "placed a {} on the {} at {x},{y}",
                    svg::role(Some(*kind)),
                    svg::feature_word(Some(*kind))
                )
            }
            EvKind::FollowerReturned { f } => format!(
                "{}'s follower comes back to them",
                esc(self.name(self.follower_owner(*f)))
            ),
            EvKind::FollowerMoved { f, from, to } => format!(
                "{}'s follower moves from {} to {}",
                esc(self.name(self.follower_owner(*f))),
                self.follower_place(*f, *from),
                self.follower_place(*f, *to)
            ),
            EvKind::FollowerStrength { f, strength } => format!(
                "{}'s follower now counts as {strength}",
                esc(self.name(self.follower_owner(*f)))
            ),
            EvKind::ChipMoved {
                chip,
                from,
                to,
                face_up,
            } => self.chip(*chip, *from, *to, *face_up),
            EvKind::Score {
                player,
                points,
                what,
                at,
                ..
            } => {
                if let Some(r) = running.get_mut(*player as usize) {
                    *r = r.saturating_add(*points);
                }
                *changed = true;
                let why = match (what, at) {
                    (Some(f), _) => format!(" for {}", super::text::describe_feature(g, f)),
                    (None, Some(c)) => {
                        let (x, y) = b.xy(*c);
                        format!(" for the square at {x},{y}")
                    }
                    _ => String::new(),
                };
                format!(
                    r#"{} <span class="pts">{points:+}</span>{}"#,
                    self.who(*player),
                    esc(&why)
                )
            }
            EvKind::Choice {
                taken, asked: true, ..
            } => match e.player {
                Some(p) => format!("{} is asked, and chooses {}", self.who(p), esc(taken)),
                None => return None,
            },
            EvKind::Note(text) => esc(text),
            EvKind::Counter {
                id,
                of,
                value,
                reset,
            } => match g.cfg.counters.get(*id as usize) {
                Some(d) => {
                    let of = of.map(|p| self.name(p).to_string());
                    esc(&d.said(of.as_deref(), *value, *reset))
                }
                None => return None,
            },
            EvKind::Choice { .. } | EvKind::TurnEnd { .. } => return None,
        })
    }

    /// The scores after a turn that changed them.
    fn scores(&mut self, running: &[i64]) {
        let scores: Vec<String> = running
            .iter()
            .enumerate()
            .map(|(p, s)| format!("{} {s}", self.who(p as u8)))
            .collect();
        let _ = write!(
            self.out,
            r#"<div class="scores">Scores: {}</div>"#,
            scores.join(" · ")
        );
    }

    /// "the orange 2 chip goes from the map at 8,13 to ann's hand, face up"
    fn chip(&self, chip: u16, from: Place, to: Place, face_up: bool) -> String {
        let st = &self.game.st;
        let c = st.chips[chip as usize];
        let colour = self
            .game
            .cfg
            .colours
            .get(c.colour as usize)
            .map_or("", |s| s.as_str());
        let disc = format!(
            r#"<span class="chip" style="background:{}"></span>"#,
            svg::css_colour(colour)
        );
        format!(
            "{disc}the {} {} chip goes from {} to {}, face {}",
            esc(colour),
            c.value,
            self.place(from),
            self.place(to),
            if face_up { "up" } else { "down" }
        )
    }

    fn options(&mut self, list: &[&Vec<String>]) {
        let counts: Vec<String> = list.iter().map(|o| o.len().to_string()).collect();
        let total: usize = list.iter().map(|o| o.len()).sum();
        let _ = write!(
            self.out,
            r#"<details class="opts"><summary>{} decision{} · {} option{} open ({})</summary>"#,
            list.len(),
            if list.len() == 1 { "" } else { "s" },
            total,
            if total == 1 { "" } else { "s" },
            counts.join(" + ")
        );
        for opts in list {
            let _ = write!(
                self.out,
                "<div>{}</div>",
                opts.iter().map(|o| esc(o)).collect::<Vec<_>>().join(" · ")
            );
        }
        self.out.push_str("</details>");
    }
}

fn tile_id<H: Hooks>(game: &Game<H>, ty: u16) -> &str {
    game.cfg
        .tiles
        .get(ty as usize)
        .map_or("?", |t| t.id.as_str())
}

/// A holding area's title (`holding NAME "Title"`), or its name when it has none.
fn holding_name<H: Hooks>(game: &Game<H>, h: u8) -> String {
    game.cfg
        .holding_titles
        .get(h as usize)
        .cloned()
        .unwrap_or_default()
}

/// A shared holding area inside a sentence: its title with "the" ("goes to the Title", as the
/// rule pages say it), or its name when it has no title.
fn holding_in_sentence<H: Hooks>(game: &Game<H>, h: u8) -> String {
    let title = holding_name(game, h);
    let titled = game.cfg.holdings.get(h as usize) != Some(&title);
    match title.strip_prefix("The ") {
        Some(rest) => format!("the {rest}"),
        None if titled && !title.starts_with("the ") => format!("the {title}"),
        None => title,
    }
}

/// A small picture of tile `ty` at rotation `rot`, drawn as the board draws it.
pub(crate) fn tile_picture<H: Hooks>(game: &Game<H>, ty: u16, rot: u8) -> String {
    let s = svg::SQUARE;
    let mut out = format!(
        r#"<svg class="tile-pic" width="48" height="48" viewBox="-1 -1 {} {}">"#,
        s + 2.0,
        s + 2.0
    );
    if let Some(t) = game.cfg.tiles.get(ty as usize) {
        super::tile_svg::tile(&mut out, t, rot as usize & 3, s);
    }
    out.push_str("</svg>");
    out
}
