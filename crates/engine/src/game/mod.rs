//! Game flow: the turn phases of spec §3 as a state machine that stops at every decision with a list
//! of named legal options. The rules (the interpreter) come in through [`Hooks`].
//!
//! This room holds the game's types (the game, its options, its errors, a trigger's context) and the
//! small questions about a game in progress; its parts live beside it:
//! - `error`: how a running game fails;
//! - `hooks`: what the engine asks of the rules;
//! - `config`: what does not change between games of a variant;
//! - `setup`: a new game (players, followers, chips, the draw stack, start tiles, the rules' setup);
//! - `steps`: the step machine that runs automatic steps up to the next decision;
//! - `choose`: taking an option (placing a tile, a follower, running an action);
//! - `scoring`: scoring features through the rules, during play and at the end;
//! - `names`: options as people and scripts write them, and why a named move is refused.

mod choose;
mod config;
mod error;
mod hooks;
mod names;
mod scoring;
mod setup;
mod steps;
mod trigger;

pub use config::{compile_tiles, Config, LaidChip, SourceFile};
pub use error::{At, Fault, GameError, Running};
pub use hooks::Hooks;
pub use names::canonical_option;
pub use trigger::{Bound, Moment, Origin, Phase, Trigger};

use crate::features::NONE;
use crate::geometry::EdgeKind;
use crate::state::{FeatureInfo, State};
use std::sync::Arc;

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
    /// Final scoring begins: the features it scores are listed.
    Final,
    /// Final scoring: one listed feature per step (asked decisions come between features).
    FinalFeatures,
    /// Final scoring: the `game_end` rules, after every asked decision of the features.
    GameEnd,
    Over,
}

/// A player's phase of actions that ended because no action was legal any more (a limit reached,
/// say): who, on which turn, and why each action of the phase was refused then.
#[derive(Clone, Debug)]
pub(crate) struct PhaseEnd {
    pub(crate) player: u8,
    pub(crate) turn: u32,
    pub(crate) reasons: Vec<(String, String)>,
}

/// Which phases the rules may offer actions in, and whether any action may be forced (asked of
/// the rules once, when the game is made: see [`Hooks::may_offer`]).
#[derive(Clone, Copy, Debug)]
struct Acts {
    start: bool,
    follower: bool,
    score: bool,
    after: bool,
    forced: bool,
}

impl Acts {
    fn of<H: Hooks>(hooks: &H) -> Acts {
        Acts {
            start: hooks.may_offer(Some(Phase::Start)),
            follower: hooks.may_offer(Some(Phase::Follower)),
            score: hooks.may_offer(Some(Phase::Score)),
            after: hooks.may_offer(Some(Phase::After)),
            forced: hooks.may_offer(None),
        }
    }

    fn in_phase(&self, phase: Phase) -> bool {
        match phase {
            Phase::Start => self.start,
            Phase::Follower => self.follower,
            Phase::Score => self.score,
            Phase::After => self.after,
            Phase::Asked => true,
        }
    }
}

/// One game in progress.
pub struct Game<H: Hooks> {
    pub cfg: Arc<Config>,
    pub st: State,
    pub hooks: H,
    /// What `hooks` may offer.
    acts: Acts,
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
    /// The next feature to score in `completed` (`Score`) or `roots` (`FinalFeatures`): features
    /// are scored one per step, so that decisions asked while one is scored come before the next.
    score_next: u32,
    /// Since the last choice, a follower step offered nothing: this player had no follower left
    /// (a refused `pass` says so).
    follower_skipped: Option<u8>,
    /// Decisions were asked since the last `answered` (fired once they are all answered).
    asks_open: bool,
    /// How often the `answered` rules fired at this step (a guard against endless re-asking).
    answered_run: u32,
    /// The phase of the last action taken (not asked, not forced), until the next choice.
    acted_in: Option<Phase>,
    /// A player's phase of actions that ended after their last action, when recording: a move
    /// still aimed at it is explained for that player, not for whoever decides next.
    phase_end: Option<Box<PhaseEnd>>,
    /// The legal placements of the tile in hand, listed when it was drawn (as options): the first
    /// `n_placements` entries (the rest is room kept for the next listing).
    placements: Vec<Opt>,
    n_placements: usize,
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
            acts: self.acts,
            step: self.step,
            options: self.options.clone(),
            decided: self.decided,
            forced_pending: self.forced_pending,
            asked: self.asked,
            forced_clean: self.forced_clean,
            resume: self.resume,
            offer_phase: self.offer_phase,
            completed: self.completed.clone(),
            score_next: self.score_next,
            follower_skipped: self.follower_skipped,
            asks_open: self.asks_open,
            answered_run: self.answered_run,
            acted_in: self.acted_in,
            phase_end: self.phase_end.clone(),
            placements: self.placements.clone(),
            n_placements: self.n_placements,
            scratch: self.scratch.clone(),
            roots: self.roots.clone(),
            seed: self.seed,
        }
    }

    fn clone_from(&mut self, src: &Self) {
        self.copy(src, true, true);
    }
}

impl<H: Hooks + Clone> Game<H> {
    /// Makes this game a copy of `src` that records nothing, for a look-ahead (a playout): no
    /// event log, no names of choices, and of the state only what play reads (see
    /// [`State::copy_unrecorded`]); every buffer is kept.
    pub fn copy_unrecorded(&mut self, src: &Self) {
        self.copy(src, false, true);
    }

    /// `copy_unrecorded` of all but the board, for a game whose board already is `src`'s (see
    /// [`State::copy_unrecorded_but_board`]): a look-ahead that played an option placing no tile
    /// and moving no follower, made a copy of `src` again.
    pub fn copy_unrecorded_but_board(&mut self, src: &Self) {
        self.copy(src, false, false);
    }

    /// `clone_from`, or without the record (`copy_unrecorded`); the board too when `with_board`.
    fn copy(&mut self, src: &Self, recorded: bool, with_board: bool) {
        // Every field named, so that a new one cannot be forgotten here.
        let Game {
            cfg,
            st,
            hooks,
            acts,
            step,
            options,
            decided,
            forced_pending,
            asked,
            forced_clean,
            resume,
            offer_phase,
            completed,
            score_next,
            follower_skipped,
            asks_open,
            answered_run,
            acted_in,
            phase_end,
            placements,
            n_placements,
            scratch,
            roots,
            seed,
        } = src;
        self.cfg.clone_from(cfg);
        if recorded {
            self.st.clone_from(st);
        } else if with_board {
            self.st.copy_unrecorded(st);
        } else {
            self.st.copy_unrecorded_but_board(st);
        }
        self.hooks.clone_from(hooks);
        self.acts = *acts;
        self.step = *step;
        self.options.clone_from(options);
        self.decided = *decided;
        self.forced_pending = *forced_pending;
        self.asked = *asked;
        self.forced_clean = *forced_clean;
        self.resume = *resume;
        self.offer_phase = *offer_phase;
        // Completed features wait for the scoring step across a follower decision.
        self.completed.clone_from(completed);
        self.score_next = *score_next;
        self.follower_skipped = *follower_skipped;
        self.asks_open = *asks_open;
        self.answered_run = *answered_run;
        self.acted_in = *acted_in;
        if recorded {
            self.phase_end.clone_from(phase_end);
        } else {
            // Only for explaining a refused move to a person.
            self.phase_end = None;
        }
        self.placements.clear();
        self.placements
            .extend_from_slice(&placements[..*n_placements]);
        self.n_placements = *n_placements;
        if recorded {
            self.scratch.clone_from(scratch);
            self.roots.clone_from(roots);
        } else {
            // Work lists: nothing in them outlives a step.
            self.scratch.clear();
            self.roots.clear();
        }
        self.seed = *seed;
    }
}

impl<H: Hooks> Game<H> {
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

    /// From now on, every phase's actions (start, follower, score, after) are passed without
    /// asking the rules for them, as if the rules had none: the game goes on exactly as when each
    /// such decision is answered with its `draw` or `pass`. Forced actions and decisions a rule
    /// asks for are offered as before. For a look-ahead whose players pass at those decisions
    /// anyway (a search's playouts): listing an action's options (every set of chips worth exactly
    /// so much, times every follower, …) can cost more than the rest of the turn. A game copied
    /// from this one (`clone_from`, `copy_unrecorded`) passes them too; copying from a game that
    /// offers them offers them again.
    pub fn pass_actions(&mut self) {
        self.acts.start = false;
        self.acts.follower = false;
        self.acts.score = false;
        self.acts.after = false;
    }

    /// Runs the rules for a trigger, when any rule listens to it.
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

    /// The context of a trigger about the current player and the tile placed this turn.
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

    pub fn rule_name(&self, rule: u16) -> &str {
        self.hooks.rule_name(rule)
    }
    /// `rule` or `action`: what score source `rule` is, for people.
    pub fn rule_word(&self, rule: u16) -> &'static str {
        if self.hooks.is_action(rule) {
            "action"
        } else {
            "rule"
        }
    }
}

/// Rules that do nothing: the engine alone (tests, and measuring the engine without scoring).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoRules;

impl Hooks for NoRules {
    fn may_offer(&self, _phase: Option<Phase>) -> bool {
        false
    }
}

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
