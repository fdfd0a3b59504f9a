//! The interpreter: runs a checked [`Program`] against the engine through [`Hooks`].
//!
//! Everything was resolved before play (names, parameters, map attributes); here values are small
//! `Copy` enums, lists live in an arena reused between runs, and every run has an operation budget so
//! no rules file can make a game hang.

mod actions;
mod aggregate;
mod analyses;
mod arena;
mod asks;
mod board;
mod budget;
mod caches;
mod call;
mod copy;
mod cx;
mod dispatch;
pub(crate) mod effect;
/// The tree walker: a test oracle for the executor (see `lower`/`exec`, `oracle`), not used in play.
#[cfg(any(test, feature = "oracle"))]
mod eval;
mod exec;
pub(crate) mod fields;
mod fire;
mod frame;
pub(crate) mod kept;
mod lower;
mod memo;
#[cfg(any(test, feature = "oracle"))]
pub mod oracle;
#[cfg(test)]
mod places;
mod prepared;
#[cfg(test)]
pub(crate) mod probe;
pub(crate) mod query;
mod quiet;
mod reads;
mod run;
mod subsets;
mod tile_attrs;
mod values;

use super::ir::{Program, Value};
use crate::game::{At, Ctx, Fault, GameError, Hooks, Opt, Phase, Running, Trigger};
use crate::map::MapBoard;
use crate::state::State;
use board::SquareFlag;
use caches::{Caches, Event};
pub use cx::Cx;
use memo::MapMemo;
use prepared::Prepared;
use run::RunState;
use std::sync::Arc;

/// Operations the rules may take in one turn (every rule, trigger, condition and action of the turn,
/// forced ones and extra decisions included) before the game is stopped with an error naming the rule.
pub(crate) const OP_BUDGET: u64 = 2_000_000;

/// Actions (forced or chosen) one turn may take: a forced action whose condition stays true after it
/// runs is stopped here, well before its decisions fill memory.
pub(crate) const MAX_ACTIONS_PER_TURN: u32 = 1000;

#[derive(Clone, Debug)]
struct Offer {
    action: u32,
    /// Who takes it: the current player, or the asked one.
    player: u8,
    /// Range into `offer_vals`: an asked action's parameters, then the choices.
    start: u32,
    len: u32,
}

/// A decision a rule asked for and that is not offered yet (`ask`).
#[derive(Clone, Copy, Debug)]
struct AskRequest {
    action: u32,
    player: u8,
    /// Range into `ask_vals`: the action's arguments.
    start: u32,
    len: u32,
}

/// A chosen value, kept across a decision (chip subsets as their own range of chip ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chosen {
    Value(Value),
    Chips { start: u32, len: u32 },
}

/// The interpreter of one program on one map, for one game at a time.
///
/// Its parts, by owner and lifetime (ARCHITECTURE.md, "Caches"):
/// - the program and its lowered code (`lower::Plan`) and [`Prepared`] facts: shared by `Arc`,
///   built once, never written;
/// - the [`MapMemo`]: shared by `Arc`, built once per map, never written;
/// - the [`RunState`]: this game's offers, asks and limits used, written by the game's flow;
/// - the [`Caches`]: derived values kept for later reads, each invalidated by events of the game;
/// - the working state of the run in progress (frame, arena, budget, work lists).
pub struct Interp {
    prog: Arc<Program>,
    /// The program lowered before play: every condition, choice list and body (see `lower`), run
    /// by the executor (`exec`).
    code: Arc<lower::Plan>,
    prep: Arc<Prepared>,
    memo: Arc<MapMemo>,
    run: RunState,
    caches: Caches,
    frame: frame::Frame,
    lists: arena::Arena,
    budget: budget::Budget,
    /// The rule or action running (an index into `Prepared::names`).
    current: u16,
    depth: u32,
    /// Work lists of chip-subset choices, kept between runs (see `subsets`).
    subsets: Vec<subsets::Subsets>,
    /// The choices made so far while listing offers, kept between runs.
    chosen: Vec<Chosen>,
    /// Work lists of aggregates (`distinct`, `collect`, `sort`) and of the choices being listed, kept
    /// between runs.
    scratch: Vec<Vec<Value>>,
}

/// Results inside the interpreter: the error is boxed so that the common path moves little data.
type R<T> = Result<T, Box<GameError>>;

/// `e` placed at `at` in the rules, unless it has a place already (an error is placed by the
/// innermost expression, condition or statement with a place that it comes through: the
/// expression that failed, else the effect or statement it comes from).
#[cold]
#[inline(never)]
pub(crate) fn placed(mut e: Box<GameError>, at: At) -> Box<GameError> {
    if let GameError::Rule {
        at: place @ None, ..
    } = e.as_mut()
    {
        *place = Some(at);
    }
    e
}

impl Interp {
    pub fn new(
        prog: Arc<Program>,
        map: Option<Arc<MapBoard>>,
        board: &crate::board::Board,
    ) -> Interp {
        let mut strings = prog.strings.clone();
        // A square without a string attribute reads as "": the empty string is always a value.
        intern_into(&mut strings, "");
        let memo = MapMemo::new(&prog, map, board, &mut strings);
        let (prep, code) = Prepared::new(&prog);
        let caches = Caches::new(prep.static_aggs.len());
        let run = RunState::new(strings, prog.actions.len(), prog.groups.len());
        Interp {
            code: Arc::new(code),
            prep: Arc::new(prep),
            memo: Arc::new(memo),
            run,
            caches,
            prog,
            frame: frame::Frame::default(),
            lists: arena::Arena::default(),
            budget: budget::Budget::new(),
            current: 0,
            depth: 0,
            subsets: Vec::new(),
            chosen: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }

    fn name(&self) -> &str {
        self.prep
            .names
            .get(self.current as usize)
            .map(|s| s.as_str())
            .unwrap_or("?")
    }

    /// An error of kind `fault` of the rule, action or setup block running; its place in the rules
    /// is put on it by the statement or condition it comes through first ([`placed`]).
    pub(crate) fn fail(&self, fault: Fault, message: impl Into<String>) -> Box<GameError> {
        // The setup blocks run last in `names`: the setup is not an action.
        let what = if self.current as usize + 1 == self.prep.names.len() {
            Running::Setup
        } else if self.current as usize >= self.prog.rules.len() {
            Running::Action
        } else {
            Running::Rule
        };
        Box::new(GameError::Rule {
            rule: self.name().to_string(),
            what,
            fault,
            message: message.into(),
            at: None,
        })
    }

    #[inline]
    pub(crate) fn tick(&mut self) -> R<()> {
        if !self.budget.spend(1) {
            return Err(self.over_budget());
        }
        Ok(())
    }

    /// Two operations at once (as two `tick`s: the error is the same).
    #[inline]
    pub(crate) fn tick2(&mut self) -> R<()> {
        if !self.budget.spend(2) {
            return Err(self.over_budget());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn over_budget(&self) -> Box<GameError> {
        self.fail(Fault::OverBudget, format!(
            "the rules ran over the operation budget of a turn ({OP_BUDGET} operations) here: does it loop over a very long list, or do rules keep triggering each other?"
        ))
    }

    /// The index of a string among [`Interp::strings`], added if new (player names: a handful).
    fn intern(&mut self, text: &str) -> u32 {
        match self.run.strings.iter().position(|x| x == text) {
            Some(i) => i as u32,
            None => intern_into(Arc::make_mut(&mut self.run.strings), text),
        }
    }

    pub(crate) fn new_list(&mut self) -> u32 {
        self.lists.new_list()
    }

    pub(crate) fn list_of(&mut self, vals: impl IntoIterator<Item = Value>) -> Value {
        let i = self.new_list();
        self.lists[i as usize].extend(vals);
        Value::List(i)
    }

    /// List `l` of the arena, to add to.
    #[inline]
    fn list_mut(&mut self, l: u32) -> &mut Vec<Value> {
        &mut self.lists[l as usize]
    }

    /// The elements of a list value (none for another value).
    #[inline]
    fn list(&self, v: Value) -> &[Value] {
        match v {
            Value::List(l) => self.lists.get(l as usize).map_or(&[][..], |l| l.as_slice()),
            _ => &[],
        }
    }

    /// The text of string value `s` ("" for an unknown one).
    fn string(&self, s: u32) -> &str {
        self.run.strings.get(s as usize).map_or("", String::as_str)
    }

    /// Starts a top-level run (a trigger, an action, the setup): a fresh arena, and a fresh operation
    /// budget when a new turn has begun (the budget covers the whole turn).
    fn begin(&mut self, name: u16, turn: u32) {
        if self.depth == 0 {
            self.budget.begin(turn);
            self.lists.reset();
        }
        self.current = name;
    }

    fn enter(&mut self, locals: u16) -> usize {
        self.frame.enter(locals)
    }

    fn leave(&mut self, saved: usize) {
        self.frame.leave(saved)
    }

    #[inline]
    fn set(&mut self, slot: u16, v: Value) -> R<()> {
        self.frame.set(slot, v);
        Ok(())
    }

    /// The value in a local slot of the running body.
    #[inline]
    fn local(&self, slot: u16) -> Value {
        self.frame.get(slot)
    }

    fn param(&self, p: u16) -> Value {
        self.prog
            .params
            .get(p as usize)
            .map(|p| p.value)
            .unwrap_or(Value::Unit)
    }

    /// Runs the setup blocks.
    pub(crate) fn run_setup(&mut self, st: &mut State) -> R<()> {
        let prog = self.prog.clone();
        let code = self.code.clone();
        for (body, &block) in prog.setup.iter().zip(&code.setup) {
            self.begin((self.prep.names.len() - 1) as u16, st.turn);
            let saved = self.enter(body.locals.max(1));
            let r = self.run_block(st, block);
            self.leave(saved);
            r?;
        }
        Ok(())
    }
}

impl Interp {
    /// The checking mode: a forced check the cache calls quiet, run afresh, must find nothing.
    fn check_forced_quiet(&mut self, st: &mut State) -> R<()> {
        let mut found = Vec::new();
        self.collect(st, None, &mut found)?;
        if !found.is_empty() {
            let names: Vec<String> = (0..found.len() as u32)
                .map(|h| Hooks::action_name(self, st, h))
                .collect();
            caches::stale("forced check quiet", "forced actions", &"nothing", &names);
        }
        Ok(())
    }
}

/// The index of `text` in `strings`, added at the end if new.
pub(super) fn intern_into(strings: &mut Vec<String>, text: &str) -> u32 {
    match strings.iter().position(|x| x == text) {
        Some(i) => i as u32,
        None => {
            strings.push(text.to_string());
            (strings.len() - 1) as u32
        }
    }
}

impl Hooks for Interp {
    fn setup(&mut self, st: &mut State) -> Result<(), GameError> {
        self.run.seen_turn = u32::MAX;
        self.run.seen_round = (u32::MAX, 0);
        self.caches.invalidate(Event::GameBegun);
        self.clear_asks();
        kept::check_starts(&self.prog)?;
        self.run_setup(st).map_err(|e| *e)
    }

    fn may_offer(&self, phase: Option<Phase>) -> bool {
        self.prog.actions.iter().any(|a| a.phase == phase)
    }

    fn asking(&self) -> bool {
        Interp::asking(self)
    }

    fn clear_asks(&mut self) {
        Interp::clear_asks(self)
    }

    fn next_ask(&mut self, st: &mut State, out: &mut Vec<Opt>) -> Result<Option<u8>, GameError> {
        self.caches.invalidate(Event::EngineStep);
        Interp::next_ask(self, st, out).map_err(|e| *e)
    }

    fn fire(&mut self, st: &mut State, trigger: Trigger, ctx: &Ctx) -> Result<(), GameError> {
        self.caches.invalidate(if trigger == Trigger::Scored {
            Event::FeatureScored(ctx.feature)
        } else {
            Event::EngineStep
        });
        self.fire_inner(st, trigger, ctx).map_err(|e| *e)
    }

    fn actions(
        &mut self,
        st: &mut State,
        phase: Phase,
        out: &mut Vec<Opt>,
    ) -> Result<(), GameError> {
        self.caches.invalidate(Event::EngineStep);
        self.collect(st, Some(phase), out)
            .map(|_| ())
            .map_err(|e| *e)
    }

    fn forced(&mut self, st: &mut State, out: &mut Vec<Opt>) -> Result<(), GameError> {
        if !self.prog.actions.iter().any(|a| a.phase.is_none()) {
            return Ok(());
        }
        // Found nothing last time, and nothing it read has changed: it would find nothing again.
        if self.forced_still_quiet(st) {
            if self.checking() {
                self.check_forced_quiet(st).map_err(|e| *e)?;
            }
            self.clear_offers();
            return Ok(());
        }
        self.forget_forced_quiet(st);
        self.caches.invalidate(Event::EngineStep);
        let before = out.len();
        let any_when = self.collect(st, None, out).map_err(|e| *e)?;
        if out.len() == before {
            self.note_forced_quiet(st, !any_when);
        }
        Ok(())
    }

    fn run(&mut self, st: &mut State, handle: u32) -> Result<(), GameError> {
        self.caches.invalidate(Event::ActionTaken);
        self.run_offer(st, handle).map_err(|e| *e)
    }

    fn action_name(&self, st: &State, handle: u32) -> String {
        self.action_name_seen(st, handle, None)
    }

    fn action_name_for(&self, st: &State, handle: u32, seat: crate::sight::Seat) -> String {
        self.action_name_seen(st, handle, Some(seat))
    }

    fn action_index(&self, handle: u32) -> Option<u16> {
        self.run
            .decision
            .offers
            .get(handle as usize)
            .map(|o| o.action as u16)
    }

    fn rule_name(&self, rule: u16) -> &str {
        self.prep
            .names
            .get(rule as usize)
            .map(|s| s.as_str())
            .unwrap_or("?")
    }

    fn is_action(&self, rule: u16) -> bool {
        rule as usize >= self.prog.rules.len()
    }

    fn listens(&self, trigger: Trigger) -> bool {
        self.prep.listens[trigger as usize]
    }

    fn scores_unheld(&self) -> bool {
        self.prep.scores_unheld
    }

    fn explain(&mut self, st: &mut State, now: Option<Phase>, name: &str) -> Option<String> {
        self.caches.invalidate(Event::EngineStep);
        match self.why_refused(st, now, name) {
            Ok(w) => w,
            Err(e) => Some(e.to_string()),
        }
    }

    fn refusals(&mut self, st: &mut State, phase: Phase) -> Vec<(String, String)> {
        let names: Vec<String> = self
            .prog
            .actions
            .iter()
            .filter(|a| a.phase == Some(phase))
            .map(|a| a.name.clone())
            .collect();
        names
            .into_iter()
            .filter_map(|n| {
                let why = self.explain(st, Some(phase), &n)?;
                Some((n, why))
            })
            .collect()
    }
}
