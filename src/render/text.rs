//! The transcript: a readable account of a game for people. Every decision with its number of options
//! and the one taken, every point with what scored it, a scores line after each turn that changed
//! them, and the winner. The setup is summarised (chips by colour) unless asked for in full.

use crate::game::{Game, Hooks};
use crate::geometry::FeatureKind;
use crate::output::Namer;
use crate::state::{EvKind, Event, Place, ScoredFeature};

/// How much the transcript shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct TranscriptOptions {
    /// Every chip moved at setup on a line of its own, instead of one line per kind of move.
    pub verbose: bool,
    /// The game stopped on an error (a failing script line): the transcript ends with the scores so
    /// far, no verdict.
    pub stopped: bool,
}

/// Runs of chip moves at setup at least this long are summarised in one line.
const SUMMARY_RUN: usize = 3;

/// The transcript with the default options.
pub fn transcript<H: Hooks>(game: &Game<H>) -> String {
    transcript_with(game, TranscriptOptions::default())
}

pub fn transcript_with<H: Hooks>(game: &Game<H>, opts: TranscriptOptions) -> String {
    let mut w = Writer {
        n: Namer { game },
        game,
        out: String::new(),
        running: vec![0; game.st.players.len()],
        shown: vec![0; game.st.players.len()],
    };
    w.header();
    let events = &game.st.events;
    // Final scoring: what follows the last turn's end, after the tiles nobody could place. It gets
    // its heading even when it comes in the turn whose draw found no placeable tile.
    let final_from = match game.is_over() {
        true => {
            let after = events
                .iter()
                .rposition(|e| matches!(e.kind, EvKind::TurnEnd { .. }))
                .map_or(0, |p| p + 1);
            events[after..]
                .iter()
                .position(|e| e.turn > 0 && !matches!(e.kind, EvKind::TileDiscarded { .. }))
                .map(|k| after + k)
        }
        false => None,
    };
    let mut game_end = false;
    let mut turn = u32::MAX;
    let mut i = 0;
    while i < events.len() {
        let e = &events[i];
        if final_from == Some(i) && !game_end {
            turn = e.turn;
            game_end = true;
            w.line(GAME_END);
        } else if e.turn != turn {
            turn = e.turn;
            game_end |= e.turn > 0 && e.player.is_none();
            w.turn_header(e, turn_player(&events[i..], e.turn));
        }
        if turn == 0 && !opts.verbose {
            let run = setup_chip_run(&events[i..]);
            if run >= SUMMARY_RUN {
                w.chip_summary(&events[i..i + run]);
                i += run;
                continue;
            }
        }
        w.event(e);
        i += 1;
    }
    // A final scoring that scored nothing still has its heading before the final scores.
    if game.is_over() && !game_end && !opts.stopped {
        w.line(GAME_END);
    }
    w.ending(opts.stopped);
    w.out
}

/// The heading of the final scoring.
const GAME_END: &str = "game end";

/// How many chip moves of the same kind (from, to, face) start the slice.
fn setup_chip_run(events: &[Event]) -> usize {
    let key = |e: &Event| match e.kind {
        EvKind::ChipMoved {
            from, to, face_up, ..
        } if e.turn == 0 => Some((place_group(from), place_group(to), face_up)),
        _ => None,
    };
    let Some(first) = events.first().and_then(key) else {
        return 0;
    };
    events.iter().take_while(|e| key(e) == Some(first)).count()
}

/// A place with the square forgotten: chips scattered over the map group together.
fn place_group(p: Place) -> Place {
    match p {
        Place::Square(_) => Place::Square(0),
        Place::Slot(..) => Place::Slot(0, 0),
        other => other,
    }
}

struct Writer<'a, H: Hooks> {
    n: Namer<'a, H>,
    game: &'a Game<H>,
    out: String,
    running: Vec<i64>,
    /// The scores as last printed.
    shown: Vec<i64>,
}

impl<H: Hooks> Writer<'_, H> {
    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn player(&self, p: u8) -> String {
        self.game
            .st
            .players
            .get(p as usize)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    }

    fn header(&mut self) {
        let g = self.game;
        let players: Vec<&str> = g.st.players.iter().map(|p| p.name.as_str()).collect();
        let text = format!(
            "game {} on {} · seed {} · players {}",
            g.cfg.variant,
            g.cfg
                .map
                .as_ref()
                .map(|m| m.name.as_str())
                .unwrap_or("the endless table"),
            g.seed,
            players.join(", ")
        );
        self.line(&text);
    }

    /// The heading of a turn: its player (`of`, the player its end names; else the player of its
    /// first event, which may be a player a rule asked before the turn's own began).
    fn turn_header(&mut self, e: &Event, of: Option<u8>) {
        let text = if e.turn == 0 {
            "setup".to_string()
        } else if let Some(p) = of.or(e.player) {
            format!("turn {} · {}", e.turn, self.player(p))
        } else {
            GAME_END.to_string()
        };
        self.line(&text);
    }

    fn place(&self, p: Place) -> String {
        match p {
            Place::Square(_) => "map squares".into(),
            Place::Slot(..) => "slots".into(),
            other => self.n.place(other),
        }
    }

    /// One line for a run of alike chip moves: how many, from where to where, and by colour and value.
    fn chip_summary(&mut self, run: &[Event]) {
        let st = &self.game.st;
        let mut counts: std::collections::BTreeMap<(u8, u8), u32> = Default::default();
        let mut key = None;
        for e in run {
            if let EvKind::ChipMoved {
                chip,
                from,
                to,
                face_up,
            } = e.kind
            {
                let c = st.chips[chip as usize];
                *counts.entry((c.colour, c.value)).or_default() += 1;
                key = Some((from, to, face_up));
            }
        }
        let Some((from, to, up)) = key else { return };
        let kinds: Vec<String> = counts
            .iter()
            .map(|(&(colour, value), &k)| {
                let name = format!("{} {value}", self.n.colour(colour));
                if k == 1 {
                    name
                } else {
                    format!("{name} ×{k}")
                }
            })
            .collect();
        let text = format!(
            "  {} chips {} -> {} face {}: {}",
            run.len(),
            self.place(from),
            self.place(to),
            if up { "up" } else { "down" },
            kinds.join(", ")
        );
        self.line(&text);
    }

    /// The line of one event, if it has one; a turn's end prints the scores when they changed.
    fn event(&mut self, e: &Event) {
        let st = &self.game.st;
        let n = &self.n;
        let text = match &e.kind {
            EvKind::Choice {
                options,
                taken,
                listed,
                asked,
            } => self.choice_line(e.player, *options, taken, listed, *asked),
            EvKind::TilePlaced { ty, cell, rot } if e.turn == 0 => {
                let (x, y) = st.board.xy(*cell);
                format!("  tile {} at {x},{y} r{}", n.tile(*ty), *rot as u32 * 90)
            }
            EvKind::TilePlaced { .. } | EvKind::FollowerPlaced { .. } => return,
            EvKind::TileDiscarded { ty } => {
                format!("  tile {} has no legal place: discarded", n.tile(*ty))
            }
            EvKind::FollowerReturned { f } => format!("  follower {} returns", st.follower_id(*f)),
            EvKind::FollowerMoved { f, from, to } => format!(
                "  follower {} moves {} -> {}",
                st.follower_id(*f),
                n.follower_place(*f, *from),
                n.follower_place(*f, *to)
            ),
            EvKind::FollowerStrength { f, strength } => {
                format!("  follower {} strength {strength}", st.follower_id(*f))
            }
            EvKind::ChipMoved {
                chip,
                from,
                to,
                face_up,
            } => self.chip_line(*chip, *from, *to, *face_up),
            EvKind::Score {
                player,
                points,
                rule,
                what,
                at,
            } => self.score_line(*player, *points, *rule, what.as_ref(), *at),
            EvKind::TurnEnd { .. } => {
                self.scores_if_changed();
                return;
            }
            EvKind::Note(text) => format!("  note: {text}"),
            EvKind::Counter {
                id,
                of,
                value,
                reset,
            } => match self.game.cfg.counters.get(*id as usize) {
                Some(d) => {
                    let of = of.map(|p| n.player(p));
                    format!("  {}", d.said(of.as_deref(), *value, *reset))
                }
                None => return,
            },
        };
        self.line(&text);
    }

    /// "  [3 options] follower city N   (pass | follower city N | …)"; a decision a rule asked of a
    /// player names that player.
    fn choice_line(
        &self,
        player: Option<u8>,
        options: u32,
        taken: &str,
        listed: &[String],
        asked: bool,
    ) -> String {
        if options == 0 {
            // A step skipped without a decision: "  follower step skipped: ann has no follower left".
            return format!("  {taken}");
        }
        let s = if options == 1 { "" } else { "s" };
        let who = match (asked, player) {
            (true, Some(p)) => format!("{} is asked: ", self.n.player(p)),
            _ => String::new(),
        };
        let mut t = format!("  {who}[{options} option{s}] {taken}");
        if listed.len() > 1 {
            t.push_str(&format!("   ({})", listed.join(" | ")));
        }
        t
    }

    /// "  chip 12 (blue 1) supply -> aside face down"
    fn chip_line(&self, chip: u16, from: Place, to: Place, face_up: bool) -> String {
        let c = self.game.st.chips[chip as usize];
        format!(
            "  chip {} ({} {}) {} -> {} face {}",
            chip,
            self.n.colour(c.colour),
            c.value,
            self.n.place(from),
            self.n.place(to),
            if face_up { "up" } else { "down" }
        )
    }

    /// Adds the points to the running scores and says who scored them, for what, by which rule:
    /// "  ann +3 for the completed road of 3 tiles at 0,-1 (rule road)".
    fn score_line(
        &mut self,
        player: u8,
        points: i64,
        rule: u16,
        what: Option<&ScoredFeature>,
        at: Option<u32>,
    ) -> String {
        if let Some(r) = self.running.get_mut(player as usize) {
            *r = r.saturating_add(points);
        }
        let word = self.game.rule_word(rule);
        let rule = self.game.rule_name(rule);
        let who = self.player(player);
        match what {
            Some(f) => format!(
                "  {who} {points:+} for {} ({word} {rule})",
                self.describe(f)
            ),
            None => {
                let place = at.map_or(String::new(), |c| {
                    let (x, y) = self.game.st.board.xy(c);
                    format!(" at {x},{y}")
                });
                format!("  {who} {points:+}{place} ({word} {rule})")
            }
        }
    }

    fn describe(&self, f: &ScoredFeature) -> String {
        describe_feature(self.game, f)
    }

    fn scores_text(&self) -> String {
        let s: Vec<String> = self
            .game
            .st
            .players
            .iter()
            .zip(&self.running)
            .map(|(p, s)| format!("{} {s}", p.name))
            .collect();
        s.join(", ")
    }

    fn scores_if_changed(&mut self) {
        if self.running != self.shown {
            self.shown = self.running.clone();
            let text = format!("  scores: {}", self.scores_text());
            self.line(&text);
        }
    }

    fn ending(&mut self, stopped: bool) {
        if stopped {
            let text = format!(
                "stopped by the error below · scores so far: {}",
                self.scores_text()
            );
            self.line(&text);
            return;
        }
        let text = match self.game.pending_decision() {
            Some(what) => format!(
                "game not finished: a decision is pending ({what})\nscores so far: {}",
                self.scores_text()
            ),
            None => format!("final scores: {}\n{}", self.scores_text(), self.winner()),
        };
        self.line(&text);
    }

    /// "ann wins with 8 points" or "ann and bob tie with 8 points".
    fn winner(&self) -> String {
        let players = &self.game.st.players;
        let best = self.running.iter().copied().max().unwrap_or(0);
        let top: Vec<&str> = players
            .iter()
            .zip(&self.running)
            .filter(|(_, &s)| s == best)
            .map(|(p, _)| p.name.as_str())
            .collect();
        let pts = if best == 1 { "point" } else { "points" };
        match top.as_slice() {
            [one] => format!("{one} wins with {best} {pts}"),
            many => {
                let (last, rest) = many.split_last().unwrap_or((&"", &[]));
                format!("{} and {last} tie with {best} {pts}", rest.join(", "))
            }
        }
    }
}

/// "the completed city of 3 tiles with 1 coat of arms at 0,-1"
pub(crate) fn describe_feature<H: Hooks>(game: &Game<H>, f: &ScoredFeature) -> String {
    let (x, y) = game.st.board.xy(f.cell);
    let plural = |k: u32, one: &str, many: &str| {
        if k == 1 {
            format!("1 {one}")
        } else {
            format!("{k} {many}")
        }
    };
    let state = if f.complete {
        "completed"
    } else {
        "incomplete"
    };
    let body = match f.kind {
        FeatureKind::Road => format!("{state} road of {}", plural(f.tiles, "tile", "tiles")),
        FeatureKind::City => {
            let mut s = format!("{state} city of {}", plural(f.tiles, "tile", "tiles"));
            if f.shields > 0 {
                s.push_str(&format!(
                    " with {}",
                    plural(f.shields, "coat of arms", "coats of arms")
                ));
            }
            s
        }
        FeatureKind::Monastery => format!(
            "{state} monastery with {} around it",
            plural(f.tiles.saturating_sub(1), "tile", "tiles")
        ),
        FeatureKind::Field => format!(
            "field of {} next to {}",
            plural(f.tiles, "tile", "tiles"),
            plural(f.cities, "completed city", "completed cities")
        ),
    };
    format!("the {body} at {x},{y}")
}

/// The player whose turn `turn` is, as its end names it (`turn_end`), looking from its first event.
fn turn_player(events: &[Event], turn: u32) -> Option<u8> {
    events
        .iter()
        .take_while(|e| e.turn == turn)
        .find(|e| matches!(e.kind, EvKind::TurnEnd { .. }))
        .and_then(|e| e.player)
}
