//! A game in the page: the person's seats decide by clicking, the other seats are agents. Every
//! choice is kept, so undo rebuilds the game up to the start of the person's last move (every
//! decision of their last turn) and the agents, given their generator back, answer as before; the
//! log is the one `carto play --log` writes, so `carto replay` accepts it.

use crate::api::{bad, given_maps, load, strings, Failed};
use carto::agent::{parse_agent, Agent, View};
use carto::diag::Code;
use carto::game::{Game, Opt};
use carto::lang::interp::Interp;
use carto::render::{svg, tile_svg, timeline};
use carto::rng::Rng;
use carto::sight::Seat;
use carto::state::Place;
use carto::variant::Variant;
use serde_json::{json, Value};
use std::cell::RefCell;

/// The side of a square in the pictures (the board's unit).
const SIDE: f64 = 56.0;

pub struct Session {
    v: Variant,
    /// The name the rules were loaded under (the log's `rules`).
    rules: String,
    players: Vec<String>,
    seed: u64,
    /// One per seat; `None` is the person at the page.
    agents: Vec<Option<Box<dyn Agent>>>,
    rng: Rng,
    game: Game<Interp>,
    /// Every choice so far.
    choices: Vec<Choice>,
    /// A rule's failure that stopped the game.
    error: Option<Failed>,
    /// A rule's failure in the person's last move, which was taken back (the game goes on).
    move_failed: Option<Failed>,
}

/// One decision taken in the game.
struct Choice {
    /// The option taken.
    i: usize,
    /// The turn it was taken in.
    turn: u32,
    /// For the person's decisions, the agents' generator as it was before it (undo puts it back,
    /// so the agents answer as they did); `None` for an agent's.
    rng: Option<Rng>,
}

thread_local! {
    static GAME: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Why the log and the replay wait for the end of the game (the page says it under its button).
pub const NOT_YET: &str =
    "the log and the replay are given when the game is over: they show every \
     chip's face, face-down ones too, and the log's seed deals the whole game again";

pub fn dispatch(f: &str, req: &Value) -> Value {
    GAME.with(|g| {
        let mut g = g.borrow_mut();
        if f == "play_new" {
            return match new_session(req) {
                Ok(s) => view(g.insert(s)),
                Err(e) => e.json(),
            };
        }
        let Some(s) = g.as_mut() else {
            return bad("no game: start one").json();
        };
        match f {
            "play_view" => view(s),
            "play_choose" => {
                let i = req.get("i").and_then(Value::as_u64).unwrap_or(u64::MAX) as usize;
                if let Err(e) = s.choose(i) {
                    return e.json();
                }
                view(s)
            }
            "play_undo" => {
                if let Err(e) = s.undo() {
                    return e.json();
                }
                view(s)
            }
            "play_rules" => rules_json(&s.v),
            // The replay page and the log show every chip's face (the log is the referee's record,
            // and its seed deals the whole game again): given only when the page's seat sees
            // everything, the game over (or no person at the table).
            "play_replay" | "play_log" if s.seat() != Seat::Everyone => refused(NOT_YET).json(),
            "play_replay" => {
                // The HTML replay page of the game (`carto view`'s: steps, slider, score graph).
                let loaded = carto::render::load::Loaded::of_game(s.game.clone(), &s.v);
                json!({"html": carto::render::html::view_html(&loaded)})
            }
            "play_log" => {
                let log = carto::output::json_log_with_rules(&s.game, &s.v.params(), &s.rules);
                json!({"log": log, "file": format!("{}-seed{}.log", s.v.name, s.seed)})
            }
            _ => bad(format!("no function `{f}`")).json(),
        }
    })
}

/// Every rule and action of the variant as its page gives them (heading, sentence, file and line),
/// by name: what the page says of a score's rule or an action offered.
fn rules_json(v: &Variant) -> Value {
    let page = serde_json::to_value(carto::doc::page(v)).unwrap_or_default();
    let mut out = serde_json::Map::new();
    for list in ["rules", "actions"] {
        for item in page[list].as_array().into_iter().flatten() {
            let name = item["name"].as_str().unwrap_or("").to_string();
            out.insert(
                name,
                json!({"kind": item["kind"], "heading": item["heading"], "when": item["when"],
                    "sentence": item["sentence"], "file": item["file"], "line": item["line"]}),
            );
        }
    }
    Value::Object(out)
}

/// The log's events after the setup (the move log and the points come from them), as
/// `carto play --log` writes them; an event at a named square of the map (a town, a large city)
/// also has the square's name (`"square": "Lyon"`).
fn events_json(s: &Session) -> Vec<Value> {
    let own = own_places(s);
    carto::output::json_log_with_rules(&s.game, &s.v.params(), &s.rules)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["turn"].as_u64().unwrap_or(0) > 0 && e["event"] != "game_start")
        .map(|mut e| {
            // A chip moved face down keeps its face only where the seat saw it (`carto::sight`):
            // from or to one of its own places; the page is given its id alone.
            let seen = |k: &str| match &own {
                None => true,
                Some(own) => e[k].as_str().is_some_and(|p| own.iter().any(|o| o == p)),
            };
            if e["event"] == "chip_moved" && e["face"] == "down" && !seen("from") && !seen("to") {
                e["chip"] = json!({"id": e["chip"]["id"]});
            }
            let at = (e["at"][0].as_i64(), e["at"][1].as_i64());
            if let (Some(x), Some(y)) = at {
                if let Some(name) = square_name(&s.v, x, y) {
                    e["square"] = json!(name);
                }
            }
            e
        })
        .collect()
}

/// The places, as the log names them, where the page's seat sees a face-down chip's face
/// (`Seat::sees_face`): its hand and its own areas; `None` when it sees everything.
fn own_places(s: &Session) -> Option<Vec<String>> {
    let seat = s.seat();
    let Seat::Player(me) = seat else {
        return None;
    };
    let name = s.players.get(me as usize).cloned().unwrap_or_default();
    let mut out = Vec::new();
    if seat.sees_face(false, Place::Hand(me)) {
        out.push(format!("hand:{name}"));
    }
    for (h, holding) in s.game.cfg.holdings.iter().enumerate() {
        let h = u8::try_from(h).unwrap_or(u8::MAX);
        if seat.sees_face(false, Place::PlayerHolding(h, me)) {
            out.push(format!("{holding}:{name}"));
        }
    }
    Some(out)
}

/// Every named square of the map, as `"x,y": name`.
fn square_names(v: &Variant) -> Value {
    let mut out = serde_json::Map::new();
    if let Some(m) = v.map.as_ref() {
        for y in 0..m.height {
            for x in 0..m.width {
                if let Some(name) = m.square(x, y).and_then(|sq| sq.name.clone()) {
                    out.insert(format!("{x},{y}"), json!(name));
                }
            }
        }
    }
    Value::Object(out)
}

/// The name of the map's square at `x`,`y`, when it has one.
fn square_name(v: &Variant, x: i64, y: i64) -> Option<String> {
    let (x, y) = (i32::try_from(x).ok()?, i32::try_from(y).ok()?);
    v.map.as_ref()?.square(x, y)?.name.clone()
}

/// Every part of the feature that segment `seg` of the tile `p` belongs to, as `[x, y, segment]`
/// of the tiles on the board (what a follower there would join).
fn feature_parts(g: &Game<Interp>, p: &carto::board::Placed, seg: u8) -> Vec<[i64; 3]> {
    let b = &g.st.board;
    let mut parts = Vec::new();
    b.features
        .for_each_member(p.first_node + u32::from(seg), |node| {
            let Some(tile) = b.features.tile.get(node as usize) else {
                return;
            };
            let Some(t) = b.placed.get(*tile as usize) else {
                return;
            };
            let (x, y) = b.xy(t.cell);
            parts.push([i64::from(x), i64::from(y), i64::from(node - t.first_node)]);
        });
    parts
}

/// The tiles still to come, counted by kind, each with its picture.
fn to_come(g: &Game<Interp>) -> Vec<Value> {
    let mut counts: Vec<(u16, u32)> = Vec::new();
    for &t in &g.st.stack {
        match counts.iter_mut().find(|(k, _)| *k == t) {
            Some((_, n)) => *n += 1,
            None => counts.push((t, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    counts
        .iter()
        .map(|&(t, n)| {
            let ct = &g.cfg.tiles[t as usize];
            let mut pic = String::new();
            tile_svg::tile(&mut pic, ct, 0, SIDE);
            json!({"id": ct.id, "n": n, "svg": pic})
        })
        .collect()
}

/// A rule's failure in the game, explained (where the rule is), with its kind.
fn game_failed(v: &Variant, e: &carto::game::GameError) -> Failed {
    Failed {
        code: e.code(),
        text: v.explain(e),
    }
}

/// A move the game does not take now.
fn refused(text: impl Into<String>) -> Failed {
    Failed {
        code: Code::MoveRefused,
        text: text.into(),
    }
}

fn new_session(req: &Value) -> Result<Session, Failed> {
    let s = |k: &str| req.get(k).and_then(Value::as_str).unwrap_or("");
    let rules = s("name").to_string();
    let v = load(
        &rules,
        s("text"),
        &strings(req.get("sets")),
        &given_maps(req),
    )?;
    let players = strings(req.get("players"));
    let specs = strings(req.get("agents"));
    let (lo, hi) = v.players;
    if players.len() < lo || players.len() > hi {
        return Err(bad(format!(
            "{} is for {lo} to {hi} players, not {}",
            v.name,
            players.len()
        )));
    }
    if specs.len() != players.len() {
        return Err(bad("one agent (or `person`) for every player"));
    }
    let agents = specs
        .iter()
        .map(|a| match a.as_str() {
            "person" => Ok(None),
            a => parse_agent(a).map(Some).map_err(bad),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let seed = req.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let game = v
        .new_game(v.config.clone(), &players, seed, true)
        .map_err(|e| game_failed(&v, &e))?;
    let mut session = Session {
        rng: carto::sim::play::agent_rng(seed),
        v,
        rules,
        players,
        seed,
        agents,
        game,
        choices: Vec::new(),
        error: None,
        move_failed: None,
    };
    session.run_agents();
    Ok(session)
}

impl Session {
    /// Lets the agents decide until the person's turn to decide, or the end.
    fn run_agents(&mut self) {
        loop {
            match self.game.advance() {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => {
                    self.error = Some(game_failed(&self.v, &e));
                    return;
                }
            }
            let who = self.game.decider() as usize;
            let Some(Some(agent)) = self.agents.get_mut(who) else {
                return;
            };
            let turn = self.game.st.turn;
            let step = agent
                .choose(&View::of(&self.game), &mut self.rng)
                .and_then(|i| self.game.choose(i).map(|()| i));
            match step {
                Ok(i) => self.choices.push(Choice { i, turn, rng: None }),
                Err(e) => {
                    self.error = Some(game_failed(&self.v, &e));
                    return;
                }
            }
        }
    }

    /// The seat the page shows the game to (decided in one place: `carto::sight`): the person
    /// deciding, else the first person's seat; everything once the game is over, or when no person
    /// plays (agents alone, watched).
    fn seat(&self) -> Seat {
        if self.game.is_over() {
            return Seat::Everyone;
        }
        let person = |p: usize| matches!(self.agents.get(p), Some(None));
        let decider = self.game.decider() as usize;
        if person(decider) {
            return Seat::Player(decider as u8);
        }
        match (0..self.agents.len()).find(|&p| person(p)) {
            Some(p) => Seat::Player(p as u8),
            None => Seat::Everyone,
        }
    }

    fn persons_turn(&self) -> bool {
        self.error.is_none()
            && !self.game.is_over()
            && matches!(self.agents.get(self.game.decider() as usize), Some(None))
    }

    fn choose(&mut self, i: usize) -> Result<(), Failed> {
        if !self.persons_turn() {
            return Err(refused("it is not your turn to decide"));
        }
        if i >= self.game.options.len() {
            return Err(refused(format!("no option {i}")));
        }
        let rng = Some(self.rng.clone());
        let turn = self.game.st.turn;
        self.move_failed = None;
        if let Err(e) = self.game.choose(i) {
            // The move made a rule fail: the game goes back to before it (played again from the
            // start, as undo does), and the person hears why.
            let failed = game_failed(&self.v, &e);
            self.replay(self.choices.len())?;
            self.move_failed = Some(failed);
            return Ok(());
        }
        self.choices.push(Choice { i, turn, rng });
        self.run_agents();
        Ok(())
    }

    /// The game played again from the start with the first `k` choices, up to the next decision.
    fn replay(&mut self, k: usize) -> Result<(), Failed> {
        let mut game = self
            .v
            .new_game(self.v.config.clone(), &self.players, self.seed, true)
            .map_err(|e| game_failed(&self.v, &e))?;
        for c in &self.choices[..k] {
            game.advance().map_err(|e| game_failed(&self.v, &e))?;
            game.choose(c.i).map_err(|e| game_failed(&self.v, &e))?;
        }
        game.advance().map_err(|e| game_failed(&self.v, &e))?;
        self.choices.truncate(k);
        self.game = game;
        self.error = None;
        Ok(())
    }

    /// Back to before the person's last move: the first of their decisions in the turn of their
    /// last decision. The game is played again from the start with every choice before it.
    fn undo(&mut self) -> Result<(), Failed> {
        let Some(last) = self.choices.iter().rposition(|c| c.rng.is_some()) else {
            return Err(refused("nothing of yours to undo"));
        };
        let turn = self.choices[last].turn;
        let k = self.choices[..=last]
            .iter()
            .rposition(|c| c.rng.is_some() && c.turn != turn)
            .map_or(0, |j| j + 1);
        let k = k + self.choices[k..=last]
            .iter()
            .position(|c| c.rng.is_some())
            .unwrap_or(0);
        let rng = self.choices[k].rng.clone();
        self.replay(k)?;
        if let Some(rng) = rng {
            self.rng = rng;
        }
        self.move_failed = None;
        Ok(())
    }
}

/// What the page shows: the board, the tile in hand, the scores and the person's options (squares
/// with their rotations, follower spots, and the rest as named buttons), all as the person's seat
/// sees them ([`Session::seat`]): a face-down chip it may not see is drawn face down, without its
/// colour, and the options name it by where it lies.
fn view(s: &Session) -> Value {
    let g = &s.game;
    let mut snap = timeline::at_turn(g, None);
    snap.seat = s.seat();
    let base = svg::base(g, &snap);
    // The points scored since the person's last decision float on the board (theirs too).
    let since = s
        .choices
        .iter()
        .rev()
        .find(|c| c.rng.is_some())
        .map(|c| c.turn);
    let board = svg::board_svg_since(g, &snap, since);
    let mine = s.persons_turn();
    let mut places = Vec::new();
    let mut followers = Vec::new();
    let mut others = Vec::new();
    let placed = g.st.board.placed.get(g.st.placed_now as usize);
    for (i, &o) in g.options.iter().enumerate().filter(|_| mine) {
        let name = g.option_name(o);
        match o {
            Opt::Place { cell, rot } => {
                let (x, y) = g.st.board.xy(cell);
                let (px, py, side) = base.square_px(x, y);
                let square = square_name(&s.v, i64::from(x), i64::from(y));
                places.push(json!({"i": i, "x": x, "y": y, "rot": rot, "px": px, "py": py, "side": side, "name": name, "square": square}));
            }
            Opt::Follower { seg } => {
                let Some(p) = placed else { continue };
                let t = &g.cfg.tiles[p.ty as usize];
                let (x, y) = g.st.board.xy(p.cell);
                let (px, py, side) = base.square_px(x, y);
                let (ax, ay) = tile_svg::anchor(t, seg as usize, p.rot as usize & 3, side);
                // The anchor on the tile drawn alone (a square of SIDE), for the close-up.
                let (tx, ty) = tile_svg::anchor(t, seg as usize, p.rot as usize & 3, SIDE);
                followers.push(json!({"i": i, "x": px + ax, "y": py + ay, "seg": seg,
                    "tx": tx, "ty": ty, "name": name, "joins": feature_parts(g, p, seg)}));
            }
            // The points it gives at once, as the seat can know them (never read from the real
            // game, which knows the faces it may not see).
            Opt::Action(_) => others.push(json!({"i": i, "name": name,
                "points": carto::agent::points_as_seen(g, i)})),
            _ => others.push(json!({"i": i, "name": name})),
        }
    }
    let tile = g.st.current_tile.map(|t| {
        let ct = &g.cfg.tiles[t as usize];
        let rotations: Vec<String> = (0..4)
            .map(|r| {
                let mut out = String::new();
                tile_svg::tile(&mut out, ct, r, SIDE);
                out
            })
            .collect();
        json!({"id": ct.id, "rotations": rotations})
    });
    // The tile placed this turn, drawn alone at its rotation (the follower close-up).
    let placed_tile = placed.filter(|_| !followers.is_empty()).map(|p| {
        let t = &g.cfg.tiles[p.ty as usize];
        let (x, y) = g.st.board.xy(p.cell);
        let mut pic = String::new();
        tile_svg::tile(&mut pic, t, p.rot as usize & 3, SIDE);
        json!({"id": t.id, "x": x, "y": y, "svg": pic})
    });
    let players: Vec<Value> =
        g.st.players
            .iter()
            .zip(&s.agents)
            .map(|(p, a)| {
                let who = a.as_ref().map_or("person", |a| a.name());
                json!({"name": p.name, "score": p.score, "agent": who})
            })
            .collect();
    json!({
        "board_svg": board,
        "over": g.is_over(),
        "error": s.error.as_ref().map(|e| &e.text),
        "code": s.error.as_ref().map(|e| e.code.as_str()),
        "move_failed": s.move_failed.as_ref().map(|e| &e.text),
        "yours": mine,
        "decider": g.st.players.get(g.decider() as usize).map(|p| p.name.clone()),
        "pending": if mine { g.pending_decision() } else { None },
        "turn": g.st.turn,
        "tiles_left": g.st.stack.len(),
        "tile": tile,
        "places": places,
        "followers": followers,
        "others": others,
        "placed": placed_tile,
        // The named square the turn's tile went on (a town, a large city), for an action's words.
        "square": placed.and_then(|p| {
            let (x, y) = g.st.board.xy(p.cell);
            square_name(&s.v, i64::from(x), i64::from(y))
        }),
        // The map's named squares ("x,y" → name): an action's square said by its name.
        "square_names": square_names(&s.v),
        "to_come": to_come(g),
        "events": events_json(s),
        "players": players,
        "state": carto::output::state_json(g),
        "can_undo": s.choices.iter().any(|c| c.rng.is_some()),
        // Whether the page's seat sees everything (the game over, or no person plays): the log
        // and the replay are given then, and not before.
        "all_seen": s.seat() == Seat::Everyone,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every refusal says its kind: a request without a game or with too few players (E1003), a
    /// choice or undo the game does not take (E0705), rules that do not load (their own code).
    #[test]
    fn refusals_have_codes() {
        let text = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "base")
            .unwrap()
            .1;
        assert_eq!(dispatch("play_view", &json!({}))["code"], "E1003");
        let req = |players: Vec<&str>, agents: Vec<&str>, text: &str| json!({"name": "base", "text": text, "seed": 4, "players": players, "agents": agents});
        let one = dispatch("play_new", &req(vec!["ann"], vec!["person"], text));
        assert_eq!(one["code"], "E1003", "{one}");
        let broken = dispatch(
            "play_new",
            &req(vec!["ann", "bob"], vec!["person", "random"], "rule {"),
        );
        assert_eq!(broken["code"], "E0001", "{broken}");
        let game = dispatch(
            "play_new",
            &req(vec!["ann", "bob"], vec!["person", "random"], text),
        );
        assert!(game["error"].is_null() && game["code"].is_null(), "{game}");
        let nothing = dispatch("play_undo", &json!({}));
        assert_eq!(nothing["code"], "E0705", "{nothing}");
        let no_option = dispatch("play_choose", &json!({"i": 9999}));
        assert_eq!(no_option["code"], "E0705", "{no_option}");
        let bad: Value = serde_json::from_str(&crate::call("{")).unwrap();
        assert_eq!(bad["code"], "E1003");
    }

    /// A tile placed on a named square of the map (a town) is told with the square's name, in
    /// the events and in the view's `square` (the actions' words).
    #[test]
    fn a_tile_on_a_town_is_told_by_its_name() {
        let text = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "france")
            .unwrap()
            .1;
        let req = json!({"fn": "play_new", "name": "france", "text": text, "seed": 2,
            "players": ["ann", "bob"], "agents": ["person", "random"]});
        let mut v = dispatch("play_new", &req);
        let named = |v: &Value| {
            GAME.with(|g| {
                let g = g.borrow();
                let s = g.as_ref().unwrap();
                v["places"].as_array().unwrap().iter().find_map(|p| {
                    let name = square_name(&s.v, p["x"].as_i64()?, p["y"].as_i64()?)?;
                    Some((p["i"].as_u64()?, name))
                })
            })
        };
        for _ in 0..200 {
            assert!(
                v["error"].is_null() && !v["over"].as_bool().unwrap(),
                "{}",
                v["error"]
            );
            if let Some((i, name)) = named(&v) {
                let after = dispatch("play_choose", &json!({"i": i}));
                assert_eq!(after["square"], json!(name), "the view names the square");
                let told = after["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["event"] == "tile_placed" && e["square"] == json!(name));
                assert!(told, "the event names {name}");
                return;
            }
            let n = v["places"].as_array().unwrap().len()
                + v["followers"].as_array().unwrap().len()
                + v["others"].as_array().unwrap().len();
            v = dispatch("play_choose", &json!({"i": n - 1}));
        }
        panic!("no town was ever offered");
    }

    /// A person who always takes the last option, against random, to the end, with an undo on
    /// the way (after the second decision of a move): the log replays identically.
    #[test]
    fn a_game_to_its_end_replays() {
        let text = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "base")
            .unwrap()
            .1;
        let req = json!({"fn": "play_new", "name": "base", "text": text, "seed": 4,
            "players": ["ann", "bob"], "agents": ["person", "random"]});
        let first = dispatch("play_new", &req);
        assert!(first["yours"].as_bool().unwrap(), "{}", first["error"]);
        // Not before the end: the log and the replay show every face.
        for f in ["play_log", "play_replay"] {
            let early = dispatch(f, &json!({}));
            assert_eq!(early["code"], "E0705", "{f}: {early}");
            assert!(early["log"].is_null() && early["html"].is_null(), "{early}");
        }
        let mut moves = 0;
        let mut undone = false;
        // The view at the first decision of the person's move, and the decisions in it so far.
        let mut move_start: Option<(Value, usize)> = None;
        loop {
            let v = dispatch("play_view", &json!({}));
            assert!(v["error"].is_null(), "{}", v["error"]);
            if v["over"].as_bool().unwrap() {
                break;
            }
            match &mut move_start {
                Some((start, n)) if start["turn"] == v["turn"] => *n += 1,
                _ => move_start = Some((v.clone(), 1)),
            }
            let n = v["places"].as_array().unwrap().len()
                + v["followers"].as_array().unwrap().len()
                + v["others"].as_array().unwrap().len();
            let after = dispatch("play_choose", &json!({"i": n - 1}));
            assert!(after["error"].is_null(), "{}", after["error"]);
            moves += 1;
            let (start, in_move) = move_start.clone().unwrap();
            if !undone && moves > 6 && in_move >= 2 {
                // The whole move is taken back, not only its last decision.
                let back = dispatch("play_undo", &json!({}));
                assert_eq!(
                    back["board_svg"], start["board_svg"],
                    "undo restores the board"
                );
                assert_eq!(back["places"], start["places"], "and the legal squares");
                assert_eq!(back["turn"], start["turn"]);
                undone = true;
                move_start = None;
            }
        }
        assert!(undone, "an undo was tried");
        assert!(moves > 36, "{moves} moves");
        let log = dispatch("play_log", &json!({}))["log"]
            .as_str()
            .unwrap()
            .to_string();
        let r = carto::replay::replay(&carto::diag::Source::new("game.log", log)).unwrap();
        assert!(r.changed.is_empty(), "{:?}", r.changed);
        assert!(r.lines > 100);
        let page = dispatch("play_replay", &json!({}))["html"]
            .as_str()
            .unwrap_or("")
            .to_string();
        assert!(page.contains("The game is over: this replay shows every chip's face"));
    }

    /// During a game of Ukraine (chips drawn face down into the hands), the events given to the page name a face-down chip's colour and
    /// value only when it went to or came from the person's own hand or area; once the game is
    /// over, every chip's (the log's).
    #[test]
    fn the_page_is_given_no_hidden_face() {
        let text = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "ukraine")
            .unwrap()
            .1;
        let req = json!({"fn": "play_new", "name": "ukraine", "text": text, "seed": 3,
            "players": ["ann", "bob"], "agents": ["person", "greedy"]});
        let mut v = dispatch("play_new", &req);
        let (mut hidden, mut seen_mine) = (0, 0);
        while !v["over"].as_bool().unwrap() {
            assert!(v["error"].is_null(), "{}", v["error"]);
            for e in v["events"].as_array().unwrap() {
                if e["event"] != "chip_moved" || e["face"] != "down" {
                    continue;
                }
                let mine = e["from"] == "hand:ann" || e["to"] == "hand:ann";
                assert_eq!(e["chip"]["colour"].is_string(), mine, "{e}");
                assert_eq!(e["chip"]["value"].is_number(), mine, "{e}");
                if mine {
                    seen_mine += 1
                } else {
                    hidden += 1
                }
            }
            let n = v["places"].as_array().unwrap().len()
                + v["followers"].as_array().unwrap().len()
                + v["others"].as_array().unwrap().len();
            v = dispatch("play_choose", &json!({"i": n - 1}));
        }
        assert!(
            hidden > 0 && seen_mine > 0,
            "{hidden} hidden, {seen_mine} seen"
        );
        let all = v["events"].as_array().unwrap();
        assert!(all
            .iter()
            .filter(|e| e["event"] == "chip_moved")
            .all(|e| e["chip"]["colour"].is_string()));
    }
}
