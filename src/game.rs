//! Game flow: the turn phases of spec §3 as a state machine that stops at every decision with a list
//! of named legal options. The rules (the interpreter) come in through [`Hooks`].

use crate::board::{Board, Refusal};
use crate::compiled::CompiledTile;
use crate::features::NONE;
use crate::geometry::{rotation_degrees, EdgeKind, FeatureKind, HALF_NAMES};
use crate::map::MapBoard;
use crate::state::{Chip, EvKind, FeatureInfo, Follower, FollowerAt, Place, Player, State};
use std::sync::Arc;

pub use crate::lang::builtins::{Phase, Trigger};

/// What a trigger is about.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ctx {
    pub player: u8,
    /// Placed-tile index.
    pub placed: u32,
    /// The square concerned (the tile's, or a neighbour's for `Adjacent`).
    pub cell: u32,
    /// `Adjacent`: the kind of the tile's side facing the square; `Abroad`: the feature connecting.
    pub edge: Option<EdgeKind>,
    pub chip: u16,
    pub follower: u16,
    pub feature: FeatureInfo,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// A rule failed while running (or ran over its operation budget).
    Rule { rule: String, message: String },
    /// The setup cannot be done with this map and these settings.
    Setup(String),
    /// A player's input could not be had (a person's answers ended before the game did).
    Input(String),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Rule { rule, message } => write!(f, "rule `{rule}`: {message}"),
            GameError::Setup(m) => write!(f, "setup: {m}"),
            GameError::Input(m) => write!(f, "input: {m}"),
        }
    }
}

/// The rules of a variant, as the engine sees them. Every method has a default that does nothing,
/// so the engine alone (tests, measurements) needs no rules at all.
pub trait Hooks {
    /// Runs the variant's setup (after start squares, before turn 1).
    fn setup(&mut self, _st: &mut State) -> Result<(), GameError> {
        Ok(())
    }
    /// Runs the rules for a trigger.
    fn fire(&mut self, _st: &mut State, _trigger: Trigger, _ctx: &Ctx) -> Result<(), GameError> {
        Ok(())
    }
    /// Appends the actions available to the current player now: `Opt::Action(handle)`.
    fn actions(
        &mut self,
        _st: &mut State,
        _phase: Phase,
        _out: &mut Vec<Opt>,
    ) -> Result<(), GameError> {
        Ok(())
    }
    /// Whether a rule asked a player for a decision that is not offered yet (`ask`).
    fn asking(&self) -> bool {
        false
    }
    /// Offers the next asked decision: appends its options to `out` and returns the asked player;
    /// `None` when no request is left.
    fn next_ask(&mut self, _st: &mut State, _out: &mut Vec<Opt>) -> Result<Option<u8>, GameError> {
        Ok(None)
    }
    /// Forced actions that apply now (the player must take one).
    fn forced(&mut self, _st: &mut State, _out: &mut Vec<Opt>) -> Result<(), GameError> {
        Ok(())
    }
    /// Runs an action offered by `actions` or `forced`.
    fn run(&mut self, _st: &mut State, _handle: u32) -> Result<(), GameError> {
        Ok(())
    }
    fn action_name(&self, _st: &State, _handle: u32) -> String {
        String::new()
    }
    /// Which of the rules' actions (their index in the program) an offered action is.
    fn action_index(&self, _handle: u32) -> Option<u16> {
        None
    }
    /// Names of the rules, indexed by the `rule` of score events.
    fn rule_name(&self, _rule: u16) -> &str {
        ""
    }
    /// Whether any rule listens to a trigger (lets the engine skip work).
    fn listens(&self, _trigger: Trigger) -> bool {
        false
    }
    /// Why the option `name`, which is not among the legal ones, is refused: which rule or limit.
    /// `now` is the phase whose actions are on offer (`None` for a forced decision or no actions).
    fn explain(&mut self, _st: &mut State, _now: Option<Phase>, _name: &str) -> Option<String> {
        None
    }
}

/// A legal option at a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    Draw,
    Place { cell: u32, rot: u8 },
    Follower { seg: u8 },
    Pass,
    Action(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    TurnStart,
    StartActions,
    Draw,
    Place,
    Follower,
    FollowerActions,
    Score,
    ScoreActions,
    TurnEnd,
    AfterActions,
    NextTurn,
    Final,
    Over,
}

/// Everything about a variant that does not change between games.
#[derive(Clone)]
pub struct Config {
    pub variant: String,
    /// The rules as the user named them (a bundled name or a path), for logs and replays.
    pub rules: String,
    pub tiles: Arc<Vec<CompiledTile>>,
    /// Copies of each tile type, start tile included.
    pub counts: Vec<u32>,
    pub start_tile: u16,
    pub map: Option<Arc<MapBoard>>,
    pub followers: u16,
    pub start_squares: usize,
    /// Start squares named by the game (a script or a parameter) instead of chosen at random.
    pub start_names: Vec<String>,
    pub border_fills_monastery: bool,
    pub colours: Vec<String>,
    /// The chip set: (colour, value) per chip, in id order.
    pub chip_set: Vec<(u8, u8)>,
    pub holdings: Vec<String>,
    /// A fixed draw order (tile type ids, first drawn first) instead of a shuffle.
    pub fixed_stack: Option<Vec<u16>>,
    /// The files the rules were read from, with their hashes, for the log (`game_start.sources`).
    pub sources: Vec<crate::sources::SourceFile>,
}

impl Config {
    pub fn tile_by_id(&self, id: &str) -> Option<u16> {
        self.tiles.iter().position(|t| t.id == id).map(|i| i as u16)
    }
}

/// One game in progress.
pub struct Game<H: Hooks> {
    pub cfg: Arc<Config>,
    pub st: State,
    pub hooks: H,
    step: Step,
    /// Options of the pending decision.
    pub options: Vec<Opt>,
    decided: bool,
    forced_pending: bool,
    /// The pending decision was asked of this player by a rule (`ask`), not the turn's.
    asked: Option<u8>,
    /// No forced action applied at the last check and nothing changed since (see `advance`).
    forced_clean: bool,
    /// The step that offered the pending actions (taking one comes back there).
    resume: Option<Step>,
    /// The phase whose actions the pending decision offers (for explaining refusals).
    offer_phase: Option<Phase>,
    completed: Vec<u32>,
    placements: Vec<(u32, u8)>,
    scratch: Vec<u16>,
    roots: Vec<u32>,
    pub seed: u64,
}

/// A copy of a game, for agents that look ahead: `clone_from` into a scratch game keeps its buffers
/// (no game is rebuilt from the variant per look-ahead).
impl<H: Hooks + Clone> Clone for Game<H> {
    fn clone(&self) -> Self {
        Game {
            cfg: self.cfg.clone(),
            st: self.st.clone(),
            hooks: self.hooks.clone(),
            step: self.step,
            options: self.options.clone(),
            decided: self.decided,
            forced_pending: self.forced_pending,
            asked: self.asked,
            forced_clean: self.forced_clean,
            resume: self.resume,
            offer_phase: self.offer_phase,
            completed: self.completed.clone(),
            placements: self.placements.clone(),
            scratch: self.scratch.clone(),
            roots: self.roots.clone(),
            seed: self.seed,
        }
    }

    fn clone_from(&mut self, src: &Self) {
        // Every field named, so that a new one cannot be forgotten here.
        let Game {
            cfg,
            st,
            hooks,
            step,
            options,
            decided,
            forced_pending,
            asked,
            forced_clean,
            resume,
            offer_phase,
            completed,
            placements,
            scratch,
            roots,
            seed,
        } = src;
        self.cfg.clone_from(cfg);
        self.st.clone_from(st);
        self.hooks.clone_from(hooks);
        self.step = *step;
        self.options.clone_from(options);
        self.decided = *decided;
        self.forced_pending = *forced_pending;
        self.asked = *asked;
        self.forced_clean = *forced_clean;
        self.resume = *resume;
        self.offer_phase = *offer_phase;
        self.completed.clone_from(completed);
        self.placements.clone_from(placements);
        self.scratch.clone_from(scratch);
        self.roots.clone_from(roots);
        self.seed = *seed;
    }
}

impl<H: Hooks> Game<H> {
    pub fn new(
        cfg: Arc<Config>,
        hooks: H,
        players: &[String],
        seed: u64,
        record: bool,
    ) -> Result<Self, GameError> {
        let total: u32 = cfg.counts.iter().sum();
        let board = match &cfg.map {
            Some(m) => Board::from_map(m),
            None => Board::unbounded(total as usize),
        };
        let st = State::new(board, cfg.tiles.clone(), seed);
        let mut g = Game {
            cfg,
            st,
            hooks,
            step: Step::Over,
            options: Vec::new(),
            decided: true,
            forced_pending: false,
            asked: None,
            forced_clean: false,
            resume: None,
            offer_phase: None,
            completed: Vec::new(),
            placements: Vec::new(),
            scratch: Vec::new(),
            roots: Vec::new(),
            seed,
        };
        g.reset(players, seed, record)?;
        Ok(g)
    }

    /// Starts a new game, reusing every buffer.
    pub fn reset(&mut self, players: &[String], seed: u64, record: bool) -> Result<(), GameError> {
        let cfg = self.cfg.clone();
        let st = &mut self.st;
        st.board.reset();
        st.board.border_fills_monastery = cfg.border_fills_monastery;
        st.rng = crate::rng::Rng::new(seed);
        self.seed = seed;
        st.record = record;
        st.events.clear();
        st.tally.clear();
        st.turn_choices.clear();
        st.turn_deciders.clear();
        st.players.clear();
        st.players.extend(players.iter().map(|n| Player {
            name: n.clone(),
            score: 0,
        }));
        st.per_player = cfg.followers;
        st.followers.clear();
        for p in 0..players.len() {
            for k in 0..cfg.followers {
                st.followers.push(Follower {
                    owner: p as u8,
                    num: k + 1,
                    at: FollowerAt::Supply,
                    strength: 1,
                    placed_turn: 0,
                    cell: NONE,
                    kind: FeatureKind::Road,
                });
            }
        }
        st.chips.clear();
        st.on_square.clear();
        st.on_square.resize(st.board.kind.len(), 0);
        st.in_hand.clear();
        st.in_hand.resize(players.len(), 0);
        st.supply.clear();
        for (i, &(colour, value)) in cfg.chip_set.iter().enumerate() {
            st.chips.push(Chip {
                colour,
                value,
                face_up: false,
                place: Place::Supply,
            });
            st.supply.push(i as u16);
        }
        st.tile_stacks.clear();
        st.turn = 0;
        st.round = 1;
        st.current = 0;
        st.in_extra_turn = false;
        st.final_scoring = false;
        st.extra_turn_pending = false;
        st.current_tile = None;
        st.placed_now = NONE;
        st.follower_placed_now = false;
        st.start_cells.clear();

        // The draw stack.
        st.stack.clear();
        match &cfg.fixed_stack {
            Some(order) => st.stack.extend(order.iter().rev()),
            None => {
                for (ty, &n) in cfg.counts.iter().enumerate() {
                    let n = if ty as u16 == cfg.start_tile {
                        n.saturating_sub(1)
                    } else {
                        n
                    };
                    for _ in 0..n {
                        st.stack.push(ty as u16);
                    }
                }
                let mut s = std::mem::take(&mut st.stack);
                st.rng.shuffle(&mut s);
                st.stack = s;
            }
        }
        self.place_start_tiles()?;
        // Every chip appears once in setup; chips the setup leaves in the supply are logged last.
        let mut moved = vec![false; self.st.chips.len()];
        let before = self.st.events.len();
        self.hooks.setup(&mut self.st)?;
        if record {
            for e in &self.st.events[before..] {
                if let EvKind::ChipMoved { chip, .. } = e.kind {
                    if let Some(m) = moved.get_mut(chip as usize) {
                        *m = true;
                    }
                }
            }
            for (i, m) in moved.iter().enumerate() {
                if !m && self.st.chips[i].place == Place::Supply {
                    self.st.push(
                        None,
                        EvKind::ChipMoved {
                            chip: i as u16,
                            from: Place::Supply,
                            to: Place::Supply,
                            face_up: false,
                        },
                    );
                }
            }
        }
        self.st.turn = 1;
        self.step = Step::TurnStart;
        self.decided = true;
        self.asked = None;
        self.forced_clean = false;
        Ok(())
    }

    fn place_start_tiles(&mut self) -> Result<(), GameError> {
        let cfg = self.cfg.clone();
        let start = cfg.start_tile;
        let Some(map) = &cfg.map else {
            let cell = self.st.board.cell_at(0, 0).unwrap_or(0);
            self.put_setup_tile(cell, start, 0);
            self.st.start_cells.push(cell);
            return Ok(());
        };
        let mut chosen: Vec<usize> = Vec::new();
        for name in &cfg.start_names {
            match map.starts.iter().position(|s| &s.name == name) {
                Some(i) if !chosen.contains(&i) => chosen.push(i),
                Some(_) => {
                    return Err(GameError::Setup(format!(
                        "start square `{name}` named twice"
                    )))
                }
                None => {
                    let names: Vec<&str> = map.starts.iter().map(|s| s.name.as_str()).collect();
                    return Err(GameError::Setup(format!(
                        "the map has no start square `{name}` (it has: {})",
                        names.join(", ")
                    )));
                }
            }
        }
        let want = cfg.start_squares.min(map.starts.len());
        if !chosen.is_empty() && chosen.len() != want {
            let n = chosen.len();
            let s = if n == 1 { "" } else { "s" };
            return Err(GameError::Setup(format!(
                "{n} start square{s} named, but this variant uses {want}"
            )));
        }
        if chosen.is_empty() {
            let mut idx = Vec::new();
            self.st.rng.sample_indices(map.starts.len(), want, &mut idx);
            chosen = idx;
        }
        for (k, &i) in chosen.iter().enumerate() {
            let (x, y) = map.starts[i].at;
            let Some(cell) = self.st.board.cell_at(x, y) else {
                return Err(GameError::Setup(format!(
                    "start square {} is outside the map",
                    map.starts[i].name
                )));
            };
            let (ty, rot) = if k == 0 {
                (start, 0)
            } else {
                let Some(ty) = self.st.stack.pop() else {
                    return Err(GameError::Setup(
                        "not enough tiles for the start squares".into(),
                    ));
                };
                (ty, self.st.rng.below(4) as usize)
            };
            self.put_setup_tile(cell, ty, rot);
            self.st.start_cells.push(cell);
        }
        Ok(())
    }

    fn put_setup_tile(&mut self, cell: u32, ty: u16, rot: usize) {
        let tiles = self.cfg.tiles.clone();
        let Some(t) = tiles.get(ty as usize) else {
            return;
        };
        self.completed.clear();
        self.st.board.place(cell, ty, t, rot, &mut self.completed);
        self.st.push(
            None,
            EvKind::TilePlaced {
                ty,
                cell,
                rot: rot as u8,
            },
        );
    }

    pub fn is_over(&self) -> bool {
        self.step == Step::Over && self.decided
    }

    /// The seat that owns the pending decision (an agent decides for this player): the player a rule
    /// asked (`ask`), else the turn's.
    pub fn decider(&self) -> u8 {
        self.asked.unwrap_or(self.st.current)
    }

    /// Whether the pending decision was asked of a player by a rule (`ask`).
    pub fn is_asked(&self) -> bool {
        self.asked.is_some()
    }

    /// Offers the next decision a rule asked for, if any: `pass` (declining) and the asked action's
    /// options, to the asked player.
    fn offer_asked(&mut self) -> Result<bool, GameError> {
        self.options.clear();
        self.options.push(Opt::Pass);
        match self.hooks.next_ask(&mut self.st, &mut self.options)? {
            Some(p) => {
                self.asked = Some(p);
                self.decided = false;
                self.offer_phase = None;
                Ok(true)
            }
            None => {
                self.options.clear();
                Ok(false)
            }
        }
    }

    /// Runs automatic steps until a decision is pending (its options in `self.options`) or the game
    /// is over (`Ok(false)`).
    pub fn advance(&mut self) -> Result<bool, GameError> {
        loop {
            if !self.decided {
                return Ok(true);
            }
            // Decisions rules asked for come first, once the step that asked is over.
            if self.hooks.asking() && self.offer_asked()? {
                return Ok(true);
            }
            if self.step == Step::Over {
                return Ok(false);
            }
            // Forced actions come first, whenever they apply. They are checked again only after
            // something may have changed: a decision other than pass/draw, or a step that fires
            // triggers or starts a turn (steps that only offer options or draw a tile change
            // nothing rules can see).
            if self.st.turn > 0 && !self.forced_clean {
                self.options.clear();
                self.hooks.forced(&mut self.st, &mut self.options)?;
                if !self.options.is_empty() {
                    self.decided = false;
                    self.forced_pending = true;
                    return Ok(true);
                }
                self.forced_clean = true;
            }
            let quiet = match self.step {
                Step::StartActions
                | Step::Draw
                | Step::Place
                | Step::Follower
                | Step::FollowerActions
                | Step::ScoreActions
                | Step::AfterActions => true,
                // Followed by `TurnStart` (or the end), which is checked after.
                Step::NextTurn => !self.hooks.listens(Trigger::RoundEnd),
                Step::TurnEnd => !self.hooks.listens(Trigger::TurnEnd),
                _ => false,
            };
            self.run_step()?;
            if !quiet {
                self.forced_clean = false;
            }
        }
    }

    /// Offers the actions of a phase beside `with` (draw or pass). Taking an action comes back to
    /// `again`, so a player may take several (their limits permitting); `with` moves on.
    fn offer_actions(&mut self, phase: Phase, with: Opt, again: Step) -> Result<bool, GameError> {
        self.options.clear();
        self.options.push(with);
        self.hooks.actions(&mut self.st, phase, &mut self.options)?;
        self.offer_phase = Some(phase);
        if self.options.len() > 1 {
            self.decided = false;
            self.resume = Some(again);
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn fire(&mut self, t: Trigger, ctx: &Ctx) -> Result<(), GameError> {
        if self.hooks.listens(t) {
            // Points given by a rule about a square are recorded with it (transcripts only).
            let about_square = self.st.record
                && matches!(t, Trigger::Placed | Trigger::Adjacent | Trigger::Abroad);
            if about_square {
                self.st.scoring_at = Some(ctx.cell);
            }
            let fired = self.hooks.fire(&mut self.st, t, ctx);
            if about_square {
                self.st.scoring_at = None;
            }
            fired?;
        }
        Ok(())
    }

    fn ctx(&self) -> Ctx {
        Ctx {
            player: self.st.current,
            placed: self.st.placed_now,
            cell: self
                .st
                .board
                .placed
                .get(self.st.placed_now as usize)
                .map(|p| p.cell)
                .unwrap_or(NONE),
            ..Ctx::default()
        }
    }

    fn run_step(&mut self) -> Result<(), GameError> {
        match self.step {
            Step::TurnStart => {
                self.st.current_tile = None;
                self.st.placed_now = NONE;
                self.st.follower_placed_now = false;
                if self.st.stack.is_empty() {
                    self.step = Step::Final;
                    return Ok(());
                }
                let ctx = self.ctx();
                self.fire(Trigger::TurnStart, &ctx)?;
                self.step = Step::StartActions;
            }
            Step::StartActions => {
                self.step = Step::Draw;
                if self.st.current_tile.is_none() {
                    self.offer_actions(Phase::Start, Opt::Draw, Step::StartActions)?;
                }
            }
            Step::Draw => {
                let tiles = self.cfg.tiles.clone();
                if let Some(ty) = self.st.current_tile {
                    self.placements.clear();
                    self.st
                        .board
                        .legal_placements(&tiles[ty as usize], &mut self.placements);
                } else {
                    loop {
                        let Some(ty) = self.st.stack.pop() else {
                            self.step = Step::Final;
                            return Ok(());
                        };
                        self.placements.clear();
                        self.st
                            .board
                            .legal_placements(&tiles[ty as usize], &mut self.placements);
                        if !self.placements.is_empty() {
                            self.st.current_tile = Some(ty);
                            break;
                        }
                        let p = self.st.current;
                        self.st.push(Some(p), EvKind::TileDiscarded { ty });
                    }
                }
                self.step = Step::Place;
            }
            Step::Place => {
                let Some(ty) = self.st.current_tile else {
                    self.step = Step::Draw;
                    return Ok(());
                };
                self.options.clear();
                self.options.extend(
                    self.placements
                        .iter()
                        .map(|&(cell, rot)| Opt::Place { cell, rot }),
                );
                if self.options.is_empty() {
                    // A taken tile with no placement is discarded like a drawn one.
                    let p = self.st.current;
                    self.st.push(Some(p), EvKind::TileDiscarded { ty });
                    self.st.current_tile = None;
                    self.step = Step::Draw;
                } else {
                    self.decided = false;
                }
            }
            Step::Follower => {
                self.step = Step::FollowerActions;
                let p = self.st.current;
                if self.st.followers_in_supply(p) == 0 {
                    return Ok(());
                }
                let Some(placed) = self
                    .st
                    .board
                    .placed
                    .get(self.st.placed_now as usize)
                    .copied()
                else {
                    return Ok(());
                };
                let n = self.cfg.tiles[placed.ty as usize].kinds.len();
                self.options.clear();
                self.options.push(Opt::Pass);
                for seg in 0..n {
                    let node = placed.first_node + seg as u32;
                    if self.st.board.features.follower_count(node) == 0 {
                        self.options.push(Opt::Follower { seg: seg as u8 });
                    }
                }
                if self.options.len() > 1 {
                    self.decided = false;
                }
            }
            Step::FollowerActions => {
                self.step = Step::Score;
                self.offer_actions(Phase::Follower, Opt::Pass, Step::FollowerActions)?;
            }
            Step::Score => {
                let completed = std::mem::take(&mut self.completed);
                for &root in &completed {
                    self.score_feature(root, true)?;
                }
                self.completed = completed;
                self.completed.clear();
                self.step = Step::ScoreActions;
            }
            Step::ScoreActions => {
                self.step = Step::TurnEnd;
                self.offer_actions(Phase::Score, Opt::Pass, Step::ScoreActions)?;
            }
            Step::TurnEnd => {
                let ctx = self.ctx();
                self.fire(Trigger::TurnEnd, &ctx)?;
                self.step = Step::AfterActions;
            }
            Step::AfterActions => {
                self.step = Step::NextTurn;
                self.offer_actions(Phase::After, Opt::Pass, Step::AfterActions)?;
            }
            Step::NextTurn => {
                if self.st.record {
                    let p = self.st.current;
                    let choices = std::mem::take(&mut self.st.turn_choices);
                    let deciders = std::mem::take(&mut self.st.turn_deciders);
                    self.st.push(Some(p), EvKind::TurnEnd { choices, deciders });
                }
                self.st.turn += 1;
                if self.st.extra_turn_pending {
                    self.st.extra_turn_pending = false;
                    self.st.in_extra_turn = true;
                } else {
                    self.st.in_extra_turn = false;
                    let n = self.st.players.len().max(1) as u8;
                    self.st.current = (self.st.current + 1) % n;
                    if self.st.current == 0 {
                        let ctx = self.ctx();
                        self.fire(Trigger::RoundEnd, &ctx)?;
                        self.st.round += 1;
                    }
                }
                self.step = Step::TurnStart;
            }
            Step::Final => {
                self.final_scoring()?;
                self.step = Step::Over;
            }
            Step::Over => {}
        }
        Ok(())
    }

    /// Scores a feature through the rules, then returns its followers.
    fn score_feature(&mut self, root: u32, return_followers: bool) -> Result<(), GameError> {
        let info = self.st.feature_info(root);
        let ctx = Ctx {
            feature: info,
            ..self.ctx()
        };
        if self.st.record {
            self.st.scoring = self.st.scored_feature(&info);
        }
        let fired = self.fire(Trigger::Scored, &ctx);
        self.st.scoring = None;
        fired?;
        if return_followers {
            let root = info.root;
            let mut fs = std::mem::take(&mut self.scratch);
            fs.clear();
            self.st.feature_followers(root, &mut fs);
            for &f in &fs {
                self.st.move_follower(f, FollowerAt::Supply);
                let ctx = Ctx {
                    follower: f,
                    player: self.st.followers[f as usize].owner,
                    ..self.ctx()
                };
                self.fire(Trigger::Returned, &ctx)?;
            }
            self.scratch = fs;
        }
        Ok(())
    }

    fn final_scoring(&mut self) -> Result<(), GameError> {
        self.st.final_scoring = true;
        // Each feature with followers once, in follower order.
        let mut roots = std::mem::take(&mut self.roots);
        roots.clear();
        for i in 0..self.st.followers.len() {
            if let FollowerAt::Board(node) = self.st.followers[i].at {
                let r = self.st.board.features.find(node);
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        for &r in &roots {
            self.score_feature(r, false)?;
        }
        self.roots = roots;
        let ctx = Ctx::default();
        self.fire(Trigger::GameEnd, &ctx)?;
        Ok(())
    }

    /// Takes option `i` of the pending decision.
    pub fn choose(&mut self, i: usize) -> Result<(), GameError> {
        let Some(&opt) = self.options.get(i) else {
            return Ok(());
        };
        if self.st.record {
            let name = self.option_name(opt);
            let listed = if self.options.len() <= 6 {
                self.option_names()
            } else {
                Vec::new()
            };
            let p = self.decider();
            self.st.turn_choices.push(name.clone());
            if self.asked.is_some() && self.st.turn_deciders.is_empty() {
                // From the first asked decision of a turn on, every choice names its decider.
                let current = self.st.current;
                let earlier = self.st.turn_choices.len() - 1;
                self.st
                    .turn_deciders
                    .extend(std::iter::repeat_n(current, earlier));
            }
            if self.asked.is_some() || !self.st.turn_deciders.is_empty() {
                self.st.turn_deciders.push(p);
            }
            self.st.push(
                Some(p),
                EvKind::Choice {
                    options: self.options.len() as u32,
                    taken: name,
                    listed,
                    asked: self.asked.is_some(),
                },
            );
        }
        self.decided = true;
        if !matches!(opt, Opt::Pass | Opt::Draw) {
            self.forced_clean = false;
        }
        if self.asked.take().is_some() {
            if let Opt::Action(h) = opt {
                self.hooks.run(&mut self.st, h)?;
            }
            return Ok(());
        }
        if self.forced_pending {
            self.forced_pending = false;
            if let Opt::Action(h) = opt {
                self.hooks.run(&mut self.st, h)?;
            }
            return Ok(());
        }
        match opt {
            Opt::Draw => {}
            Opt::Pass => {}
            Opt::Place { cell, rot } => self.do_place(cell, rot as usize)?,
            Opt::Follower { seg } => {
                let node =
                    self.st.board.placed[self.st.placed_now as usize].first_node + seg as u32;
                let p = self.st.current;
                if let Some(f) = self.st.place_follower(p, node) {
                    let ctx = Ctx {
                        follower: f,
                        ..self.ctx()
                    };
                    self.fire(Trigger::FollowerPlaced, &ctx)?;
                }
            }
            Opt::Action(h) => {
                self.hooks.run(&mut self.st, h)?;
                if let Some(again) = self.resume {
                    self.step = again;
                }
            }
        }
        self.resume = None;
        Ok(())
    }

    fn do_place(&mut self, cell: u32, rot: usize) -> Result<(), GameError> {
        let Some(ty) = self.st.current_tile else {
            return Ok(());
        };
        let tiles = self.cfg.tiles.clone();
        let t = &tiles[ty as usize];
        self.completed.clear();
        let idx = self.st.board.place(cell, ty, t, rot, &mut self.completed);
        self.st.placed_now = idx;
        let p = self.st.current;
        self.st.push(
            Some(p),
            EvKind::TilePlaced {
                ty,
                cell,
                rot: rot as u8,
            },
        );
        self.step = Step::Follower;
        let ctx = self.ctx();
        self.fire(Trigger::Placed, &ctx)?;
        if self.hooks.listens(Trigger::Adjacent) {
            for s in 0..4 {
                let n = self.st.board.neighbour(cell, s);
                if self.st.board.square[n as usize] != NONE {
                    let c = Ctx {
                        cell: n,
                        edge: Some(t.edge(rot, s)),
                        ..ctx
                    };
                    self.fire(Trigger::Adjacent, &c)?;
                }
            }
        }
        if let (true, Some(map)) = (self.hooks.listens(Trigger::Abroad), self.cfg.map.clone()) {
            let (x, y) = self.st.board.xy(cell);
            for e in map.exits.iter().filter(|e| e.at == (x, y)) {
                if t.edge(rot, e.side as usize) == e.feature {
                    let c = Ctx {
                        edge: Some(e.feature),
                        ..ctx
                    };
                    self.fire(Trigger::Abroad, &c)?;
                }
            }
        }
        Ok(())
    }

    /// The name of an option, as scripts, transcripts and people write it.
    pub fn option_name(&self, opt: Opt) -> String {
        match opt {
            Opt::Draw => "draw".into(),
            Opt::Pass => "pass".into(),
            Opt::Place { cell, rot } => {
                let id = self
                    .st
                    .current_tile
                    .map(|t| self.cfg.tiles[t as usize].id.as_str())
                    .unwrap_or("?");
                let (x, y) = self.st.board.xy(cell);
                format!("place {id} at {x},{y} r{}", rotation_degrees(rot as usize))
            }
            Opt::Follower { seg } => {
                let Some(p) = self.st.board.placed.get(self.st.placed_now as usize) else {
                    return "follower".into();
                };
                let t = &self.cfg.tiles[p.ty as usize];
                let s = seg as usize;
                format!("follower {}", segment_name(t, s, p.rot as usize))
            }
            Opt::Action(h) => self.hooks.action_name(&self.st, h),
        }
    }

    /// Finds an option by name; when none has it, says why (which rule refused the move).
    pub fn find_option(&mut self, name: &str) -> Result<usize, String> {
        let want = canonical_option(name);
        if let Some(i) = self
            .options
            .iter()
            .position(|&o| canonical_option(&self.option_name(o)) == want)
        {
            return Ok(i);
        }
        let mut why = String::new();
        let now = if self.forced_pending || self.decided {
            None
        } else {
            self.offer_phase
        };
        if let Some(w) = self.hooks.explain(&mut self.st, now, name) {
            why = w;
        } else if let Some(rest) = name.strip_prefix("place ") {
            why = self.why_not_place(rest);
        } else if name.starts_with("follower") {
            if !self
                .options
                .iter()
                .any(|o| matches!(o, Opt::Follower { .. }))
            {
                why = "follower placement: no follower can be placed now (none left, or this is not the follower step)".into();
            } else {
                why = "follower placement: that feature is already occupied or is not on this tile"
                    .into();
            }
        }
        let names: Vec<String> = self
            .options
            .iter()
            .take(12)
            .map(|&o| self.option_name(o))
            .collect();
        let more = if self.options.len() > 12 {
            format!(" … ({} in all)", self.options.len())
        } else {
            String::new()
        };
        Err(format!(
            "`{name}` is not a legal option here ({}){}{}\n  legal: {}{more}",
            self.decision_label(now),
            if why.is_empty() { "" } else { ": " },
            why,
            names.join(" | ")
        ))
    }

    /// The pending decision, for people (turn, player and step), or `None` when the game is over
    /// or no decision is pending.
    pub fn pending_decision(&self) -> Option<String> {
        if self.decided {
            return None;
        }
        let now = if self.forced_pending {
            None
        } else {
            self.offer_phase
        };
        Some(self.decision_label(now))
    }

    /// What the pending decision is, for people: turn, player and step.
    fn decision_label(&self, now: Option<Phase>) -> String {
        let who = self
            .st
            .players
            .get(self.decider() as usize)
            .map(|p| p.name.as_str())
            .unwrap_or("?");
        let what = match (self.options.first(), now) {
            _ if self.decided => "the game is over".to_string(),
            _ if self.asked.is_some() => {
                let action = self.options.iter().find_map(|&o| match o {
                    Opt::Action(_) => self.option_name(o).split(' ').next().map(String::from),
                    _ => None,
                });
                format!("asked by a rule: `{}` or pass", action.unwrap_or_default())
            }
            _ if self.forced_pending => "a forced action".to_string(),
            (Some(Opt::Place { .. }), _) => "placing the tile".to_string(),
            (Some(Opt::Draw), _) => "drawing a tile or an action instead".to_string(),
            _ if self
                .options
                .iter()
                .any(|o| matches!(o, Opt::Follower { .. })) =>
            {
                "placing a follower".to_string()
            }
            (_, Some(p)) => format!("the actions of phase {}", format!("{p:?}").to_lowercase()),
            _ => "placing a follower".to_string(),
        };
        format!("turn {}, {who}: {what}", self.st.turn)
    }

    fn why_not_place(&self, rest: &str) -> String {
        // rest: "ID at X,Y rDEG"
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let (Some(id), Some(at), Some(r)) = (parts.first(), parts.get(2), parts.get(3)) else {
            return "write it as `place TILE at X,Y rDEG`".into();
        };
        let Some(ty) = self.st.current_tile else {
            return "no tile is to be placed now".into();
        };
        let tile = &self.cfg.tiles[ty as usize];
        if tile.id != *id {
            return format!("the tile to place is {}, not {id}", tile.id);
        }
        let xy: Vec<i32> = at.split(',').filter_map(|v| v.parse().ok()).collect();
        let rot = match r.strip_prefix('r').map(str::parse::<u32>) {
            Some(Ok(d @ (0 | 90 | 180 | 270))) => Some(d as usize / 90),
            Some(Ok(_)) => return format!("rotations are r0, r90, r180 and r270, not `{r}`"),
            _ => None,
        };
        let (Some(&x), Some(&y), Some(rot)) = (xy.first(), xy.get(1), rot) else {
            return "write it as `place TILE at X,Y rDEG`".into();
        };
        let Some(cell) = self.st.board.cell_at(x, y) else {
            return Refusal::OffBoard.to_string();
        };
        match self.st.board.check(cell, tile, rot) {
            Err(e) => e.to_string(),
            Ok(()) => "that rotation is the same placement as another one listed".into(),
        }
    }

    /// The decision's option names (for transcripts and people).
    pub fn option_names(&self) -> Vec<String> {
        self.options.iter().map(|&o| self.option_name(o)).collect()
    }

    pub fn rule_name(&self, rule: u16) -> &str {
        self.hooks.rule_name(rule)
    }
}

/// An option name with the parts of every `a+b+c` word in one order, so that a set of chips (or of
/// sides) may be written in any order: `upgrade purple1+orange1` names `upgrade orange1+purple1`.
pub fn canonical_option(name: &str) -> String {
    let words: Vec<String> = name
        .split_whitespace()
        .map(|w| {
            let mut parts: Vec<&str> = w.split('+').collect();
            parts.sort_unstable();
            parts.join("+")
        })
        .collect();
    words.join(" ")
}

/// A segment named by its kind and the sides or halves it touches, e.g. `city N`, `road E+W`.
pub fn segment_name(t: &CompiledTile, seg: usize, rot: usize) -> String {
    let kind = t.kinds[seg];
    let mut parts: Vec<&str> = Vec::new();
    match kind {
        FeatureKind::Road | FeatureKind::City => {
            let m = t.seg_sides[seg][rot];
            for (s, name) in ["N", "E", "S", "W"].iter().enumerate() {
                if m & (1 << s) != 0 {
                    parts.push(name);
                }
            }
        }
        FeatureKind::Field => {
            let m = t.seg_halves[seg][rot];
            for (h, name) in HALF_NAMES.iter().enumerate() {
                if m & (1 << h) != 0 {
                    parts.push(name);
                }
            }
        }
        FeatureKind::Monastery => return "monastery".into(),
    }
    if parts.is_empty() {
        kind.name().to_string()
    } else {
        format!("{} {}", kind.name(), parts.join("+"))
    }
}

/// Compiles tile sets into one table: tile types in set order, their counts, and the start tile
/// (the first type any set marks as a start tile).
pub fn compile_tiles(sets: &[crate::tiles::TileSet]) -> (Vec<CompiledTile>, Vec<u32>, Option<u16>) {
    let mut tiles = Vec::new();
    let mut counts = Vec::new();
    let mut start = None;
    for set in sets {
        for t in &set.tiles {
            if t.start > 0 && start.is_none() {
                start = Some(tiles.len() as u16);
            }
            tiles.push(CompiledTile::new(t));
            counts.push(t.count);
        }
    }
    (tiles, counts, start)
}

/// Rules that do nothing: the engine alone (tests, and measuring the engine without scoring).
pub struct NoRules;

impl Hooks for NoRules {}

/// Plays the game to its end, every choice uniformly at random from `rng`.
pub fn play_random<H: Hooks>(
    game: &mut Game<H>,
    rng: &mut crate::rng::Rng,
) -> Result<(), GameError> {
    while game.advance()? {
        let n = game.options.len() as u32;
        let i = rng.below(n) as usize;
        game.choose(i)?;
    }
    Ok(())
}
