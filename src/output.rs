//! What a game shows: the JSON Lines log of `shared/spec/event-log.md`, a readable transcript, and an
//! ASCII picture of the board.

use crate::game::{Game, Hooks};
use crate::geometry::EdgeKind;
use crate::state::{EvKind, Event, FollowerAt, Place};
use serde_json::{json, Map, Value};

/// Names the log needs that the events hold as indices.
pub struct Namer<'a, H: Hooks> {
    pub game: &'a Game<H>,
}

impl<H: Hooks> Namer<'_, H> {
    fn player(&self, p: u8) -> String {
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
    f.insert("rules".into(), json!(game.cfg.rules));
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
            EvKind::FollowerPlaced { f: fo, cell, kind } => {
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
            EvKind::TurnEnd { choices } => {
                f.insert("choices".into(), json!(choices));
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
    // The game ends in the turn of its final scoring.
    let last = st.events.last().map_or(0, |e| e.turn);
    line(last, None, "game_end", f, &mut discarded, &mut notes);
    out
}

/// A readable account of the game: every decision with its number of options and the one taken,
/// every point with its rule, chips and scores after each turn.
pub fn transcript<H: Hooks>(game: &Game<H>) -> String {
    let n = Namer { game };
    let st = &game.st;
    let mut out = String::new();
    let players: Vec<&str> = st.players.iter().map(|p| p.name.as_str()).collect();
    out.push_str(&format!(
        "game {} on {} · seed {} · players {}\n",
        game.cfg.variant,
        game.cfg
            .map
            .as_ref()
            .map(|m| m.name.as_str())
            .unwrap_or("the endless table"),
        game.seed,
        players.join(", ")
    ));
    let mut turn = u32::MAX;
    let mut running: Vec<i64> = vec![0; st.players.len()];
    let end_turn = |out: &mut String, running: &[i64]| {
        let s: Vec<String> = players
            .iter()
            .zip(running)
            .map(|(p, s)| format!("{p} {s}"))
            .collect();
        out.push_str(&format!("  scores: {}\n", s.join(", ")));
    };
    for Event {
        turn: t,
        player,
        kind,
    } in &st.events
    {
        if *t != turn {
            turn = *t;
            if turn == 0 {
                out.push_str("setup\n");
            } else if player.is_none() {
                out.push_str("game end\n");
            } else {
                out.push_str(&format!(
                    "turn {} · {}\n",
                    turn,
                    player.map(|p| n.player(p)).unwrap_or_default()
                ));
            }
        }
        match kind {
            EvKind::Choice {
                options,
                taken,
                listed,
            } => {
                let s = if *options == 1 { "" } else { "s" };
                out.push_str(&format!("  [{options} option{s}] {taken}"));
                if listed.len() > 1 {
                    out.push_str(&format!("   ({})", listed.join(" | ")));
                }
                out.push('\n');
            }
            EvKind::TilePlaced { ty, cell, rot } if *t == 0 => {
                let (x, y) = st.board.xy(*cell);
                out.push_str(&format!(
                    "  tile {} at {x},{y} r{}\n",
                    n.tile(*ty),
                    *rot as u32 * 90
                ));
            }
            EvKind::TilePlaced { .. } | EvKind::FollowerPlaced { .. } => {}
            EvKind::TileDiscarded { ty } => out.push_str(&format!(
                "  tile {} has no legal place: discarded\n",
                n.tile(*ty)
            )),
            EvKind::FollowerReturned { f } => {
                out.push_str(&format!("  follower {} returns\n", st.follower_id(*f)))
            }
            EvKind::FollowerMoved { f, from, to } => out.push_str(&format!(
                "  follower {} moves {} -> {}\n",
                st.follower_id(*f),
                n.follower_place(*f, *from),
                n.follower_place(*f, *to)
            )),
            EvKind::FollowerStrength { f, strength } => out.push_str(&format!(
                "  follower {} strength {strength}\n",
                st.follower_id(*f)
            )),
            EvKind::ChipMoved {
                chip,
                from,
                to,
                face_up,
            } => {
                let c = st.chips[*chip as usize];
                out.push_str(&format!(
                    "  chip {} ({} {}) {} -> {} face {}\n",
                    chip,
                    n.colour(c.colour),
                    c.value,
                    n.place(*from),
                    n.place(*to),
                    if *face_up { "up" } else { "down" }
                ));
            }
            EvKind::Score {
                player,
                points,
                rule,
            } => {
                if let Some(r) = running.get_mut(*player as usize) {
                    *r = r.saturating_add(*points);
                }
                out.push_str(&format!(
                    "  score {} {:+} ({})\n",
                    n.player(*player),
                    points,
                    game.rule_name(*rule)
                ));
            }
            EvKind::TurnEnd { .. } => end_turn(&mut out, &running),
            EvKind::Note(text) => out.push_str(&format!("  note: {text}\n")),
        }
    }
    match game.pending_decision() {
        Some(what) => out.push_str(&format!(
            "game not finished: a decision is pending ({what})\nscores so far\n"
        )),
        None => out.push_str("final scores\n"),
    }
    end_turn(&mut out, &running);
    out
}

/// The board as text: each square three characters wide and three high.
pub fn ascii_board<H: Hooks>(game: &Game<H>) -> String {
    let b = &game.st.board;
    // Bounds: the map, or the placed tiles on the endless table.
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    if let Some(m) = &game.cfg.map {
        (x0, y0, x1, y1) = (0, 0, m.width - 1, m.height - 1);
    } else {
        for p in &b.placed {
            let (x, y) = b.xy(p.cell);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 {
        return String::new();
    }
    let mut out = String::new();
    for y in y0..=y1 {
        let mut rows = [String::new(), String::new(), String::new()];
        for x in x0..=x1 {
            let cell = b.cell_at(x, y);
            let block = cell
                .map(|c| square_block(game, c))
                .unwrap_or([*b"   ", *b"   ", *b"   "]);
            for (r, row) in rows.iter_mut().enumerate() {
                row.push_str(std::str::from_utf8(&block[r]).unwrap_or("   "));
            }
        }
        for row in rows {
            out.push_str(row.trim_end());
            out.push('\n');
        }
    }
    out
}

fn square_block<H: Hooks>(game: &Game<H>, cell: u32) -> [[u8; 3]; 3] {
    use crate::board::CellKind;
    let b = &game.st.board;
    let t = b.tile[cell as usize];
    if t == crate::features::NONE {
        let fill = match b.kind[cell as usize] {
            CellKind::Water => b'~',
            CellKind::LargeCity => b'#',
            CellKind::Land => b' ',
        };
        let mut blk = [[fill; 3]; 3];
        if fill == b' ' && game.cfg.map.is_some() {
            blk[1][1] = b'.';
            let sq = b.square[cell as usize];
            if let Some(s) = game
                .cfg
                .map
                .as_ref()
                .and_then(|m| m.squares.get(sq as usize))
            {
                if s.town {
                    blk[1][1] = b't';
                }
            }
        }
        return blk;
    }
    let p = b.placed[t as usize];
    let tile = &game.cfg.tiles[p.ty as usize];
    let mut blk = [[b'.'; 3]; 3];
    let pos = [(0, 1), (1, 2), (2, 1), (1, 0)];
    let mut roads = 0;
    for (s, &(r, c)) in pos.iter().enumerate() {
        blk[r][c] = match tile.edge(p.rot as usize, s) {
            EdgeKind::City => b'C',
            EdgeKind::Road => {
                roads += 1;
                if s % 2 == 0 {
                    b'|'
                } else {
                    b'-'
                }
            }
            EdgeKind::Field => b'.',
        };
    }
    blk[1][1] = if p.monastery != crate::compiled::NO_SEG {
        b'M'
    } else if tile.kinds.contains(&crate::geometry::FeatureKind::City)
        && (0..4)
            .filter(|&s| tile.edge(p.rot as usize, s) == EdgeKind::City)
            .count()
            >= 2
    {
        b'C'
    } else if roads > 0 {
        b'+'
    } else {
        b'.'
    };
    // A follower shows as its owner's number in a corner.
    for fo in &game.st.followers {
        if matches!(fo.at, FollowerAt::Board(_)) && fo.cell == cell {
            blk[0][0] = b'1' + fo.owner;
        }
    }
    blk
}
