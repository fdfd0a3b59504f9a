//! The JSON Lines log of `shared/spec/event-log.md` (the transcript and the ASCII board live in
//! `render`, re-exported here).

use crate::game::{Game, Hooks};
use crate::state::{EvKind, FollowerAt, Place};
use serde_json::{json, Map, Value};

/// Names the log needs that the events hold as indices.
pub struct Namer<'a, H: Hooks> {
    pub game: &'a Game<H>,
}

impl<H: Hooks> Namer<'_, H> {
    pub fn player(&self, p: u8) -> String {
        self.game
            .st
            .players
            .get(p as usize)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    }
    pub fn place(&self, p: Place) -> String {
        let b = &self.game.st.board;
        match p {
            Place::Supply => "supply".into(),
            Place::Aside => "aside".into(),
            Place::Box => "box".into(),
            Place::Square(c) => {
                let (x, y) = b.xy(c);
                format!("map:{x},{y}")
            }
            Place::Hand(p) => format!("hand:{}", self.player(p)),
            Place::Slot(c, i) => {
                let (x, y) = b.xy(c);
                format!("slot:{x},{y}:{i}")
            }
            Place::Under(f) => format!("under:{}", self.game.st.follower_id(f)),
            Place::Holding(h) => self
                .game
                .cfg
                .holdings
                .get(h as usize)
                .cloned()
                .unwrap_or_default(),
        }
    }
    pub fn follower_place(&self, f: u16, at: FollowerAt) -> String {
        match at {
            FollowerAt::Supply => format!(
                "player:{}",
                self.player(self.game.st.followers[f as usize].owner)
            ),
            FollowerAt::Board(_) => {
                let (x, y) = self
                    .game
                    .st
                    .board
                    .xy(self.game.st.followers[f as usize].cell);
                format!("map:{x},{y}")
            }
            FollowerAt::Holding(h) => self
                .game
                .cfg
                .holdings
                .get(h as usize)
                .cloned()
                .unwrap_or_default(),
        }
    }
    pub fn colour(&self, c: u8) -> String {
        self.game
            .cfg
            .colours
            .get(c as usize)
            .cloned()
            .unwrap_or_default()
    }
    pub fn tile(&self, ty: u16) -> &str {
        self.game
            .cfg
            .tiles
            .get(ty as usize)
            .map(|t| t.id.as_str())
            .unwrap_or("?")
    }
}

/// The log lines of a finished (or stopped) game. `params` are the parameters in force.
pub fn json_log<H: Hooks>(game: &Game<H>, params: &[(String, Value)]) -> String {
    json_log_with_rules(game, params, &game.cfg.rules)
}

/// [`json_log`] for a log written to the file `log`: a rules file is named by its path relative to
/// the log's folder, so `carto replay` finds it from any folder.
pub fn json_log_to_file<H: Hooks>(
    game: &Game<H>,
    params: &[(String, Value)],
    log: &std::path::Path,
) -> String {
    let rules = crate::sources::rules_for_log(&game.cfg.rules, log);
    json_log_with_rules(game, params, &rules)
}

/// [`json_log`] with `rules` for the `game_start` line's `rules`.
pub fn json_log_with_rules<H: Hooks>(
    game: &Game<H>,
    params: &[(String, Value)],
    rules: &str,
) -> String {
    let n = Namer { game };
    let st = &game.st;
    let mut out = String::new();
    let mut seq = 0u64;
    // Discarded tiles and notes are not event kinds of the contract: they ride along as extra fields
    // (`discarded`, `notes`) of the next line.
    let mut discarded: Vec<Value> = Vec::new();
    let mut notes: Vec<Value> = Vec::new();
    let mut line = |turn: u32,
                    player: Option<String>,
                    event: &str,
                    fields: Map<String, Value>,
                    discarded: &mut Vec<Value>,
                    notes: &mut Vec<Value>| {
        let mut m = Map::new();
        m.insert("seq".into(), json!(seq));
        m.insert("turn".into(), json!(turn));
        m.insert(
            "player".into(),
            player.map(Value::String).unwrap_or(Value::Null),
        );
        m.insert("event".into(), json!(event));
        m.extend(fields);
        if !discarded.is_empty() {
            m.insert("discarded".into(), Value::Array(std::mem::take(discarded)));
        }
        if !notes.is_empty() {
            m.insert("notes".into(), Value::Array(std::mem::take(notes)));
        }
        out.push_str(&Value::Object(m).to_string());
        out.push('\n');
        seq += 1;
    };
    let mut f = Map::new();
    f.insert("variant".into(), json!(game.cfg.variant));
    f.insert("rules".into(), json!(rules));
    if !game.cfg.sources.is_empty() {
        let files: Map<String, Value> = game
            .cfg
            .sources
            .iter()
            .map(|f| (f.key.clone(), json!(f.hash)))
            .collect();
        f.insert("sources".into(), Value::Object(files));
    }
    if let Some(order) = &game.cfg.fixed_stack {
        let ids: Vec<&str> = order.iter().map(|&t| n.tile(t)).collect();
        f.insert("tiles".into(), json!(ids));
    }
    if !game.cfg.start_names.is_empty() {
        f.insert("starts".into(), json!(game.cfg.start_names));
    }
    f.insert(
        "map".into(),
        json!(game
            .cfg
            .map
            .as_ref()
            .map(|m| m.name.clone())
            .unwrap_or_else(|| "unbounded".into())),
    );
    f.insert("seed".into(), json!(game.seed));
    f.insert(
        "players".into(),
        json!(st
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()),
    );
    let mut pm = Map::new();
    for (k, v) in params {
        pm.insert(k.clone(), v.clone());
    }
    f.insert("params".into(), Value::Object(pm));
    line(0, None, "game_start", f, &mut discarded, &mut notes);
    for e in &st.events {
        let who = e.player.map(|p| n.player(p));
        let mut f = Map::new();
        let kind = match &e.kind {
            EvKind::TilePlaced { ty, cell, rot } => {
                let (x, y) = st.board.xy(*cell);
                f.insert("tile".into(), json!(n.tile(*ty)));
                f.insert("at".into(), json!([x, y]));
                f.insert("rotation".into(), json!(*rot as u32 * 90));
                "tile_placed"
            }
            EvKind::TileDiscarded { ty } => {
                discarded.push(json!(n.tile(*ty)));
                continue;
            }
            EvKind::FollowerPlaced {
                f: fo, cell, kind, ..
            } => {
                let (x, y) = st.board.xy(*cell);
                f.insert("follower".into(), json!(st.follower_id(*fo)));
                f.insert("at".into(), json!([x, y]));
                f.insert("feature".into(), json!(kind.name()));
                "follower_placed"
            }
            EvKind::FollowerReturned { f: fo } => {
                f.insert("follower".into(), json!(st.follower_id(*fo)));
                f.insert(
                    "to".into(),
                    json!(n.follower_place(*fo, FollowerAt::Supply)),
                );
                "follower_returned"
            }
            EvKind::FollowerMoved { f: fo, from, to } => {
                f.insert("follower".into(), json!(st.follower_id(*fo)));
                f.insert("from".into(), json!(n.follower_place(*fo, *from)));
                f.insert("to".into(), json!(n.follower_place(*fo, *to)));
                "follower_moved"
            }
            EvKind::FollowerStrength { f: fo, strength } => {
                f.insert("follower".into(), json!(st.follower_id(*fo)));
                f.insert("strength".into(), json!(strength));
                "follower_strength"
            }
            EvKind::ChipMoved {
                chip,
                from,
                to,
                face_up,
            } => {
                let c = st.chips[*chip as usize];
                f.insert(
                    "chip".into(),
                    json!({"id": chip, "colour": n.colour(c.colour), "value": c.value}),
                );
                f.insert("from".into(), json!(n.place(*from)));
                f.insert("to".into(), json!(n.place(*to)));
                f.insert("face".into(), json!(if *face_up { "up" } else { "down" }));
                "chip_moved"
            }
            EvKind::Score {
                player,
                points,
                rule,
                ..
            } => {
                // `player` of the line is the receiver (the contract's table says so).
                f.insert("points".into(), json!(points));
                f.insert("rule".into(), json!(game.rule_name(*rule)));
                line(
                    e.turn,
                    Some(n.player(*player)),
                    "score",
                    f,
                    &mut discarded,
                    &mut notes,
                );
                continue;
            }
            EvKind::TurnEnd { choices, deciders } => {
                f.insert("choices".into(), json!(choices));
                if !deciders.is_empty() {
                    let names: Vec<String> = deciders.iter().map(|&p| n.player(p)).collect();
                    f.insert("deciders".into(), json!(names));
                }
                "turn_end"
            }
            EvKind::Note(text) => {
                notes.push(json!(text));
                continue;
            }
            EvKind::Choice { .. } => continue,
        };
        line(e.turn, who, kind, f, &mut discarded, &mut notes);
    }
    // An unfinished game (a script that stops at a pending decision) has no `game_end`.
    if !game.is_over() {
        return out;
    }
    let mut scores = Map::new();
    for p in &st.players {
        scores.insert(p.name.clone(), json!(p.score));
    }
    let mut f = Map::new();
    f.insert("scores".into(), Value::Object(scores));
    // Decisions asked during final scoring come after the last turn's end.
    if !st.turn_choices.is_empty() {
        f.insert("choices".into(), json!(st.turn_choices));
        let names: Vec<String> = st.turn_deciders.iter().map(|&p| n.player(p)).collect();
        f.insert("deciders".into(), json!(names));
    }
    // The game ends in the turn of its final scoring.
    let last = st.events.last().map_or(0, |e| e.turn);
    line(last, None, "game_end", f, &mut discarded, &mut notes);
    out
}

pub use crate::render::ascii::ascii_board;
pub use crate::render::text::{transcript, transcript_with, TranscriptOptions};
