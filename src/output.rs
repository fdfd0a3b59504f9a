//! The JSON Lines log of `shared/spec/event-log.md` (the transcript and the ASCII board live in
//! `render`, re-exported here).

use crate::game::{Game, Hooks};
use crate::state::{EvKind, FollowerAt, Place};
use serde_json::{json, Map, Value};

/// Names the log needs that the events hold as indices.
pub(crate) struct Namer<'a, H: Hooks> {
    pub(crate) game: &'a Game<H>,
}

impl<H: Hooks> Namer<'_, H> {
    pub(crate) fn player(&self, p: u8) -> String {
        self.game
            .st
            .players
            .get(p as usize)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    }
    pub(crate) fn place(&self, p: Place) -> String {
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
            // A player's own area of a per-player holding: `bid:ann`.
            Place::PlayerHolding(h, p) => format!(
                "{}:{}",
                self.game
                    .cfg
                    .holdings
                    .get(h as usize)
                    .map_or("", |s| s.as_str()),
                self.player(p)
            ),
        }
    }
    pub(crate) fn follower_place(&self, f: u16, at: FollowerAt) -> String {
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
    pub(crate) fn colour(&self, c: u8) -> String {
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

/// [`json_log`] with `rules` for the `game_start` line's `rules`.
pub fn json_log_with_rules<H: Hooks>(
    game: &Game<H>,
    params: &[(String, Value)],
    rules: &str,
) -> String {
    let n = Namer { game };
    let mut log = LogLines::default();
    log.line(0, None, "game_start", game_start(game, &n, params, rules));
    for e in &game.st.events {
        log.event(game, &n, e);
    }
    // An unfinished game (a script that stops at a pending decision) has no `game_end`: its last
    // line says so, with the choices taken since the last `turn_end` (so that it replays).
    if game.is_over() {
        // The game ends in the turn of its final scoring.
        let last = game.st.events.last().map_or(0, |e| e.turn);
        log.line(last, None, "game_end", game_end(game, &n));
    } else {
        let st = &game.st;
        let mut f = Map::new();
        f.insert("stopped_turn_choices".into(), json!(st.turn_choices));
        if !st.turn_deciders.is_empty() {
            let names: Vec<String> = st.turn_deciders.iter().map(|&p| n.player(p)).collect();
            f.insert("stopped_turn_deciders".into(), json!(names));
        }
        if let Some(last) = log.last.as_mut() {
            last.extend(f);
        }
    }
    log.finish();
    log.out
}

/// The log's lines as they are written, with what waits to ride along on the next line: discarded
/// tiles and notes are not event kinds of the contract, so they go out as the extra fields
/// `discarded` and `notes` of the line after them.
#[derive(Default)]
struct LogLines {
    out: String,
    /// The last line, written out when the next comes (or at `finish`).
    last: Option<Map<String, Value>>,
    seq: u64,
    discarded: Vec<Value>,
    notes: Vec<Value>,
}

impl LogLines {
    /// One line: `seq`, `turn`, `player`, `event`, the event's fields and what rides along.
    fn line(&mut self, turn: u32, player: Option<String>, event: &str, fields: Map<String, Value>) {
        let mut m = Map::new();
        m.insert("seq".into(), json!(self.seq));
        m.insert("turn".into(), json!(turn));
        m.insert(
            "player".into(),
            player.map(Value::String).unwrap_or(Value::Null),
        );
        m.insert("event".into(), json!(event));
        m.extend(fields);
        if !self.discarded.is_empty() {
            m.insert(
                "discarded".into(),
                Value::Array(std::mem::take(&mut self.discarded)),
            );
        }
        if !self.notes.is_empty() {
            m.insert(
                "notes".into(),
                Value::Array(std::mem::take(&mut self.notes)),
            );
        }
        self.finish();
        self.last = Some(m);
        self.seq += 1;
    }

    /// Writes out the last line.
    fn finish(&mut self) {
        if let Some(m) = self.last.take() {
            self.out.push_str(&Value::Object(m).to_string());
            self.out.push('\n');
        }
    }

    /// The line of one event; a discarded tile or a note waits for the next line, a choice has none.
    fn event<H: Hooks>(&mut self, game: &Game<H>, n: &Namer<'_, H>, e: &crate::state::Event) {
        let mut f = Map::new();
        let mut who = e.player.map(|p| n.player(p));
        let kind = match &e.kind {
            EvKind::TileDiscarded { ty } => return self.discarded.push(json!(n.tile(*ty))),
            EvKind::Note(text) => return self.notes.push(json!(text)),
            EvKind::Choice { .. } => return,
            EvKind::Score {
                player,
                points,
                rule,
                ..
            } => {
                // `player` of the line is the receiver (the contract's table says so).
                who = Some(n.player(*player));
                f.insert("points".into(), json!(points));
                f.insert("rule".into(), json!(game.rule_name(*rule)));
                "score"
            }
            EvKind::TurnEnd { choices, deciders } => {
                f.insert("choices".into(), json!(choices));
                if !deciders.is_empty() {
                    let names: Vec<String> = deciders.iter().map(|&p| n.player(p)).collect();
                    f.insert("deciders".into(), json!(names));
                }
                "turn_end"
            }
            EvKind::Counter {
                id,
                of,
                value,
                reset,
            } => {
                let def = game.cfg.counters.get(*id as usize);
                f.insert("state".into(), json!(def.map_or("", |d| d.name.as_str())));
                f.insert("value".into(), counter_json(def, *value));
                if let Some(p) = of {
                    f.insert("of".into(), json!(n.player(*p)));
                }
                if let Some(r) = reset {
                    f.insert("reset".into(), json!(r.name()));
                }
                "state_set"
            }
            other => piece_fields(n, other, &mut f),
        };
        self.line(e.turn, who, kind, f);
    }
}

/// The `game_start` line's fields: the variant, its rules and sources, what was fixed (tile order,
/// start squares), the map, the seed, the players and the parameters in force.
fn game_start<H: Hooks>(
    game: &Game<H>,
    n: &Namer<'_, H>,
    params: &[(String, Value)],
    rules: &str,
) -> Map<String, Value> {
    let cfg = &game.cfg;
    let mut f = Map::new();
    f.insert("variant".into(), json!(cfg.variant));
    f.insert("rules".into(), json!(rules));
    if !cfg.sources.is_empty() {
        let files: Map<String, Value> = cfg
            .sources
            .iter()
            .map(|f| (f.key.clone(), json!(f.hash)))
            .collect();
        f.insert("sources".into(), Value::Object(files));
    }
    if let Some(order) = &cfg.fixed_stack {
        let ids: Vec<&str> = order.iter().map(|&t| n.tile(t)).collect();
        f.insert("tiles".into(), json!(ids));
    }
    if !cfg.start_names.is_empty() {
        f.insert("starts".into(), json!(cfg.start_names));
    }
    if cfg.start_named {
        // A script's `start TILE rDEG`: the start tile the game used, so that it replays.
        f.insert(
            "start_tile".into(),
            json!({"tile": n.tile(cfg.start_tile), "rotation": cfg.start_rot as u32 * 90}),
        );
    }
    if !cfg.laid_chips.is_empty() {
        let chips: Vec<Value> = cfg
            .laid_chips
            .iter()
            .map(|c| json!({"id": c.id, "at": c.at, "face": if c.face_up { "up" } else { "down" }}))
            .collect();
        f.insert("chips".into(), Value::Array(chips));
    }
    let map = cfg.map.as_ref().map_or("unbounded", |m| m.name.as_str());
    f.insert("map".into(), json!(map));
    f.insert("seed".into(), json!(game.seed));
    let players: Vec<&str> = game.st.players.iter().map(|p| p.name.as_str()).collect();
    f.insert("players".into(), json!(players));
    let params: Map<String, Value> = params.iter().cloned().collect();
    f.insert("params".into(), Value::Object(params));
    if !cfg.counters.is_empty() {
        f.insert("state".into(), start_state(&cfg.counters, &players));
    }
    f
}

/// A kept value as the log writes it: a flag as true or false, a counter as an integer.
fn counter_json(def: Option<&crate::counters::CounterDef>, v: i64) -> Value {
    match def {
        Some(d) if d.flag => json!(v != 0),
        _ => json!(v),
    }
}

/// `game_start.state`: every value the rules keep at the start, by name (one kept per player: an
/// object of player name → value).
fn start_state(defs: &[crate::counters::CounterDef], players: &[&str]) -> Value {
    let mut m = Map::new();
    for d in defs {
        let v = counter_json(Some(d), d.start);
        let v = if d.per_player {
            Value::Object(players.iter().map(|p| (p.to_string(), v.clone())).collect())
        } else {
            v
        };
        m.insert(d.name.clone(), v);
    }
    Value::Object(m)
}

/// The fields of an event that puts or moves a piece (a tile, a follower, a chip) or changes a
/// follower's strength; returns the event's name.
fn piece_fields<H: Hooks>(
    n: &Namer<'_, H>,
    kind: &EvKind,
    f: &mut Map<String, Value>,
) -> &'static str {
    let st = &n.game.st;
    let follower = |f: &mut Map<String, Value>, fo: u16| {
        f.insert("follower".into(), json!(st.follower_id(fo)));
    };
    match kind {
        EvKind::TilePlaced { ty, cell, rot } => {
            let (x, y) = st.board.xy(*cell);
            f.insert("tile".into(), json!(n.tile(*ty)));
            f.insert("at".into(), json!([x, y]));
            f.insert("rotation".into(), json!(*rot as u32 * 90));
            "tile_placed"
        }
        EvKind::FollowerPlaced {
            f: fo, cell, kind, ..
        } => {
            let (x, y) = st.board.xy(*cell);
            follower(f, *fo);
            f.insert("at".into(), json!([x, y]));
            f.insert("feature".into(), json!(kind.name()));
            "follower_placed"
        }
        EvKind::FollowerReturned { f: fo } => {
            follower(f, *fo);
            f.insert(
                "to".into(),
                json!(n.follower_place(*fo, FollowerAt::Supply)),
            );
            "follower_returned"
        }
        EvKind::FollowerMoved { f: fo, from, to } => {
            follower(f, *fo);
            f.insert("from".into(), json!(n.follower_place(*fo, *from)));
            f.insert("to".into(), json!(n.follower_place(*fo, *to)));
            "follower_moved"
        }
        EvKind::FollowerStrength { f: fo, strength } => {
            follower(f, *fo);
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
        // Handled by `LogLines::event`.
        EvKind::Counter { .. }
        | EvKind::TileDiscarded { .. }
        | EvKind::Note(_)
        | EvKind::Choice { .. }
        | EvKind::Score { .. }
        | EvKind::TurnEnd { .. } => "",
    }
}

/// The `game_end` line's fields: the scores, and the decisions asked during final scoring (they
/// come after the last turn's end).
fn game_end<H: Hooks>(game: &Game<H>, n: &Namer<'_, H>) -> Map<String, Value> {
    let st = &game.st;
    let scores: Map<String, Value> = st
        .players
        .iter()
        .map(|p| (p.name.clone(), json!(p.score)))
        .collect();
    let mut f = Map::new();
    f.insert("scores".into(), Value::Object(scores));
    if !st.turn_choices.is_empty() {
        f.insert("choices".into(), json!(st.turn_choices));
        let names: Vec<String> = st.turn_deciders.iter().map(|&p| n.player(p)).collect();
        f.insert("deciders".into(), json!(names));
    }
    f
}

pub use crate::render::ascii::ascii_board;
pub use crate::render::text::{transcript, transcript_with, TranscriptOptions};

/// One diagnostic as `carto check --format json` writes it (and the playground): where (1-based line
/// and column, in characters), how bad, its kind's code, what and the hint. The fields are listed in docs/commands.md ("Machine-readable output").
/// A problem without a place in a file (a file that cannot be read, a command's own failure) as
/// JSON, in the shape of [`diagnostic_json`]: `message` is the text for people without `error: `.
pub fn unlocated_json(file: Option<&str>, code: crate::diag::Code, text: &str) -> Value {
    let message = text.trim_end().trim_start_matches("error: ");
    json!({
        "file": file, "line": null, "column": null, "end_line": null,
        "end_column": null, "severity": "error",
        "code": code.as_str(), "message": message,
        "label": "", "hint": null,
    })
}

pub fn diagnostic_json(src: &crate::diag::Source, d: &crate::diag::Diagnostic) -> Value {
    let (line, column) = src.line_col(d.span.start);
    let (end_line, end_column) = src.line_col(d.span.end.max(d.span.start));
    let severity = if d.is_error() { "error" } else { "warning" };
    let hint = (!d.notes.is_empty()).then(|| d.notes.join("\n"));
    json!({
        "file": src.name,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "severity": severity,
        "code": d.code.as_str(),
        "message": d.message,
        "label": d.label,
        "hint": hint,
    })
}

/// The state the rules keep, as the game stands, for the playground and other front ends: one
/// entry per state, in declaration order: `name`, `of` (`game` or `player`), `type` (`int` or
/// `bool`), and `value` (one kept per player: an object of player name → value). Every player may
/// see them all.
pub fn state_json<H: Hooks>(game: &Game<H>) -> Value {
    let defs = &game.cfg.counters;
    let st = &game.st;
    let out: Vec<Value> = defs
        .iter()
        .enumerate()
        .map(|(id, d)| {
            let of = |p: Option<u8>| {
                let v = st.counters.get(id as u16, p).unwrap_or(d.start);
                counter_json(Some(d), v)
            };
            let value = if d.per_player {
                let m: Map<String, Value> = st
                    .players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.name.clone(), of(Some(i as u8))))
                    .collect();
                Value::Object(m)
            } else {
                of(None)
            };
            json!({
                "name": d.name,
                "of": if d.per_player { "player" } else { "game" },
                "type": if d.flag { "bool" } else { "int" },
                "value": value,
            })
        })
        .collect();
    Value::Array(out)
}
