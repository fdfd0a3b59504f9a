//! The interpreter: runs a checked [`Program`] against the engine through [`Hooks`].
//!
//! Everything was resolved before play (names, parameters, map attributes); here values are small
//! `Copy` enums, lists live in an arena reused between runs, and every run has an operation budget so
//! no rules file can make a game hang.

mod actions;
mod aggregate;
mod asks;
mod copy;
mod dispatch;
mod effect;
/// The tree walker: a test oracle for the executor (see `lower`/`exec`), not used in play.
#[cfg(test)]
mod eval;
mod exec;
mod fields;
mod fire;
mod lower;
#[cfg(test)]
mod probe;
mod query;
mod quiet;
mod reads;
mod subsets;
mod values;

use super::ir::{Program, Value};
use crate::features::NONE;
use crate::game::{Ctx, GameError, Hooks, Opt, Phase, Trigger};
use crate::map::{AttrValue, MapBoard};
use crate::state::State;
use aggregate::{static_aggregates, Key, StaticVal};
use std::sync::Arc;

/// Operations the rules may take in one turn (every rule, trigger, condition and action of the turn,
/// forced ones and extra decisions included) before the game is stopped with an error naming the rule.
pub const OP_BUDGET: u64 = 2_000_000;

/// Actions (forced or chosen) one turn may take: a forced action whose condition stays true after it
/// runs is stopped here, well before its decisions fill memory.
pub const MAX_ACTIONS_PER_TURN: u32 = 1000;

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

pub struct Interp {
    prog: Arc<Program>,
    map: Option<Arc<MapBoard>>,
    /// Per attribute, per map square: the attribute's value.
    attr_vals: Vec<Vec<Value>>,
    /// Per map square: its chip slots (the map's `slots` attribute, read whether or not rules name it).
    slot_counts: Vec<u8>,
    /// Every cell that is a map square, in map order.
    all_squares: Vec<Value>,
    /// The cells whose `slots` attribute is above 0, in map order.
    slot_squares: Vec<Value>,
    /// Every string a value can index: the program's, then those only the map spells (attribute
    /// values such as city names) and player names, so strings from maps are first-class values.
    strings: Vec<String>,
    /// `squares_with` results: (attribute name as a string index, value, squares), built on first use.
    attr_index: Vec<(u32, Value, Vec<Value>)>,
    frame: Vec<Value>,
    base: usize,
    lists: Vec<Vec<Value>>,
    n_lists: usize,
    ops: u64,
    /// The turn the operation budget was last reset in.
    budget_turn: u32,
    /// Actions taken in `seen_turn`.
    actions_this_turn: u32,
    current: u16,
    /// Names of rules, then of actions (score events refer to these).
    names: Vec<String>,
    feature_cache: crate::state::FeatureInfo,
    offers: Vec<Offer>,
    offer_vals: Vec<Chosen>,
    offer_chips: Vec<u16>,
    /// Asked decisions in the order they were asked; `asks[ask_next..]` are still to be offered.
    asks: Vec<AskRequest>,
    ask_vals: Vec<Value>,
    ask_next: usize,
    used_turn: Vec<u32>,
    used_round: Vec<u32>,
    /// Actions of each group taken this turn.
    groups_used: Vec<u32>,
    seen_turn: u32,
    seen_round: (u32, u8),
    listens: [bool; super::builtins::Trigger::ALL.len()],
    depth: u32,
    /// Aggregates that depend only on the map, parameters and constants, by the address of their
    /// node in the program: computed once, then reused in every game.
    static_aggs: Vec<usize>,
    /// For each, what it reads of outside variables, and its values so far keyed by those.
    static_free: Vec<Vec<Key>>,
    static_vals: Vec<Vec<(Vec<Value>, StaticVal)>>,
    /// Per rule, the test of a trigger value its condition starts with (see `dispatch`).
    guards: Vec<Option<dispatch::Guard>>,
    /// Per rule, the first parts of its condition that read only map facts of the trigger's square,
    /// compiled; and per rule, per cell, what they gave (0: not known yet, 1: false, 2: true), kept
    /// for the interpreter's life like the static aggregates (see `dispatch`).
    static_parts: Arc<Vec<Option<dispatch::StaticPart>>>,
    static_memo: Vec<Vec<u8>>,
    /// The program lowered before play: every condition, choice list and body (see `lower`), run
    /// by the executor (`exec`).
    code: Arc<lower::Plan>,
    /// Work lists of chip-subset choices, kept between runs (see `subsets`).
    subsets: Vec<subsets::Subsets>,
    /// The choices made so far while listing offers, kept between runs.
    chosen: Vec<Chosen>,
    /// Work lists of aggregates (`distinct`, `collect`, `sort`) and of the choices being listed, kept
    /// between runs.
    scratch: Vec<Vec<Value>>,
    /// What the forced check reads when every forced `when` is false, and otherwise (see `reads`).
    forced_reads: (reads::Reads, reads::Reads),
    /// The last forced check, when it found nothing and what it read is known.
    /// Per current player (the first 8 seats).
    forced_quiet: [Option<reads::Quiet>; 8],
}

/// Results inside the interpreter: the error is boxed so that the common path moves little data.
type R<T> = Result<T, Box<GameError>>;

fn err(rule: &str, action: bool, message: impl Into<String>) -> Box<GameError> {
    Box::new(GameError::Rule {
        rule: rule.to_string(),
        action,
        message: message.into(),
    })
}

impl Interp {
    pub fn new(
        prog: Arc<Program>,
        map: Option<Arc<MapBoard>>,
        board: &crate::board::Board,
    ) -> Interp {
        let mut names: Vec<String> = prog.rules.iter().map(|r| r.name.clone()).collect();
        names.extend(prog.actions.iter().map(|a| a.name.clone()));
        names.push("setup".into());
        let mut prog_strings = prog.strings.clone();
        // A square without a string attribute reads as "": the empty string is always a value.
        intern_into(&mut prog_strings, "");
        let attr_vals = map.as_ref().map_or(Vec::new(), |m| {
            attribute_values(&prog, m, &mut prog_strings)
        });
        let slot_counts = map.as_ref().map_or(Vec::new(), |m| slot_counts(m));
        let (all_squares, slot_squares) = square_lists(board, &slot_counts);
        let mut listens = [false; super::builtins::Trigger::ALL.len()];
        for t in super::builtins::Trigger::ALL {
            listens[t as usize] = !prog.rules_for(t).is_empty();
        }
        let n_actions = prog.actions.len();
        let n_groups = prog.groups.len();
        let found = static_aggregates(&prog);
        let static_aggs: Vec<usize> = found.iter().map(|(k, _)| *k).collect();
        let static_free: Vec<Vec<Key>> = found.into_iter().map(|(_, f)| f).collect();
        let static_vals = vec![Vec::new(); static_aggs.len()];
        let mut lowered = lower::lower_program(&prog, &static_aggs);
        let static_parts = Arc::new(dispatch::static_parts(&prog, &mut lowered));
        let code = Arc::new(lowered.plan);
        Interp {
            code,
            forced_reads: reads::forced_reads(&prog),
            forced_quiet: [None; 8],
            guards: dispatch::guards(&prog),
            static_parts,
            static_memo: Vec::new(),
            static_aggs,
            static_free,
            static_vals,
            prog,
            map,
            attr_vals,
            slot_counts,
            all_squares,
            slot_squares,
            attr_index: Vec::new(),
            strings: prog_strings,
            frame: Vec::new(),
            base: 0,
            lists: Vec::new(),
            n_lists: 0,
            ops: 0,
            budget_turn: u32::MAX,
            actions_this_turn: 0,
            current: 0,
            names,
            feature_cache: Default::default(),
            offers: Vec::new(),
            offer_vals: Vec::new(),
            asks: Vec::new(),
            ask_vals: Vec::new(),
            ask_next: 0,
            offer_chips: Vec::new(),
            used_turn: vec![0; n_actions],
            used_round: Vec::new(),
            groups_used: vec![0; n_groups],
            seen_turn: u32::MAX,
            seen_round: (u32::MAX, 0),
            listens,
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
        self.names
            .get(self.current as usize)
            .map(|s| s.as_str())
            .unwrap_or("?")
    }

    pub(crate) fn fail(&self, message: impl Into<String>) -> Box<GameError> {
        // The setup blocks run last in `names`: the setup is not an action.
        if self.current as usize + 1 == self.names.len() {
            return Box::new(GameError::Setup(message.into()));
        }
        let action = self.current as usize >= self.prog.rules.len();
        err(self.name(), action, message)
    }

    #[inline]
    pub(crate) fn tick(&mut self) -> R<()> {
        self.ops += 1;
        if self.ops > OP_BUDGET {
            return Err(self.over_budget());
        }
        Ok(())
    }

    /// Two operations at once (as two `tick`s: the error is the same).
    #[inline]
    pub(crate) fn tick2(&mut self) -> R<()> {
        self.ops += 2;
        if self.ops > OP_BUDGET {
            return Err(self.over_budget());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn over_budget(&self) -> Box<GameError> {
        self.fail(format!(
            "the rules ran over the operation budget of a turn ({OP_BUDGET} operations) here: does it loop over a very long list, or do rules keep triggering each other?"
        ))
    }

    /// The index of a string among [`Interp::strings`], added if new (player names: a handful).
    fn intern(&mut self, text: &str) -> u32 {
        intern_into(&mut self.strings, text)
    }

    pub(crate) fn new_list(&mut self) -> u32 {
        if self.n_lists == self.lists.len() {
            self.lists.push(Vec::new());
        }
        let i = self.n_lists;
        self.lists[i].clear();
        self.n_lists += 1;
        i as u32
    }

    pub(crate) fn list_of(&mut self, vals: impl IntoIterator<Item = Value>) -> Value {
        let i = self.new_list();
        self.lists[i as usize].extend(vals);
        Value::List(i)
    }

    /// Starts a top-level run (a trigger, an action, the setup): a fresh arena, and a fresh operation
    /// budget when a new turn has begun (the budget covers the whole turn).
    fn begin(&mut self, name: u16, turn: u32) {
        if self.depth == 0 {
            if self.budget_turn != turn {
                self.budget_turn = turn;
                self.ops = 0;
            }
            self.n_lists = 0;
        }
        self.current = name;
    }

    fn enter(&mut self, locals: u16) -> usize {
        let saved = self.base;
        self.base = self.frame.len();
        self.frame
            .resize(self.base + locals as usize + 1, Value::Unit);
        saved
    }

    fn leave(&mut self, saved: usize) {
        self.frame.truncate(self.base);
        self.base = saved;
    }

    #[inline]
    fn set(&mut self, slot: u16, v: Value) -> R<()> {
        let i = self.base + slot as usize;
        if i >= self.frame.len() {
            self.frame.resize(i + 1, Value::Unit);
        }
        self.frame[i] = v;
        Ok(())
    }

    /// The value in a local slot of the running body.
    #[inline]
    fn local(&self, slot: u16) -> Value {
        self.frame
            .get(self.base + slot as usize)
            .copied()
            .unwrap_or(Value::Unit)
    }

    fn param(&self, p: u16) -> Value {
        self.prog
            .params
            .get(p as usize)
            .map(|p| p.value)
            .unwrap_or(Value::Unit)
    }

    /// Runs the setup blocks.
    pub fn run_setup(&mut self, st: &mut State) -> R<()> {
        let prog = self.prog.clone();
        let code = self.code.clone();
        for (body, &block) in prog.setup.iter().zip(&code.setup) {
            self.begin((self.names.len() - 1) as u16, st.turn);
            let saved = self.enter(body.locals.max(1));
            let r = self.run_block(st, block);
            self.leave(saved);
            r?;
        }
        Ok(())
    }
}

/// Per attribute of the program, per map square: the attribute's value. Strings only the map spells
/// are added to `strings`.
fn attribute_values(prog: &Program, m: &MapBoard, strings: &mut Vec<String>) -> Vec<Vec<Value>> {
    // A square without a string attribute reads as "" (like 0 and false for ints and bools).
    let empty = intern_into(strings, "");
    let value = |strings: &mut Vec<String>, a: &super::ir::AttrDef, v: Option<&AttrValue>| match v {
        // A square without the attribute reads as the type's zero.
        None => match (a.ty.list, a.ty.base) {
            (false, super::builtins::Base::Int) => Value::Int(0),
            (false, super::builtins::Base::Bool) => Value::Bool(false),
            (false, super::builtins::Base::Str) => Value::Str(empty),
            _ => Value::Unit,
        },
        Some(AttrValue::Int(i)) => Value::Int(*i),
        Some(AttrValue::Bool(b)) => Value::Bool(*b),
        Some(AttrValue::Str(t)) => match prog.colours.iter().position(|c| c == t) {
            Some(c) => Value::Colour(c as u8),
            None => Value::Str(intern_into(strings, t)),
        },
    };
    prog.attrs
        .iter()
        .map(|a| {
            m.squares
                .iter()
                .map(|s| value(strings, a, s.attrs.get(&a.name)))
                .collect()
        })
        .collect()
}

/// The index of `text` in `strings`, added at the end if new.
fn intern_into(strings: &mut Vec<String>, text: &str) -> u32 {
    match strings.iter().position(|x| x == text) {
        Some(i) => i as u32,
        None => {
            strings.push(text.to_string());
            (strings.len() - 1) as u32
        }
    }
}

/// Per map square: its chip slots (the map's `slots` attribute, read whether or not rules name it).
fn slot_counts(m: &MapBoard) -> Vec<u8> {
    m.squares
        .iter()
        .map(|s| match s.attrs.get("slots") {
            Some(AttrValue::Int(n)) => (*n).clamp(0, i64::from(crate::map::MAX_SLOTS)) as u8,
            _ => 0,
        })
        .collect()
}

/// Every cell that is a map square, in map order; and those of them with slots.
fn square_lists(board: &crate::board::Board, slot_counts: &[u8]) -> (Vec<Value>, Vec<Value>) {
    let mut cells = Vec::new();
    for (c, &sq) in board.square.iter().enumerate() {
        if sq != NONE {
            cells.push((sq, c as u32));
        }
    }
    cells.sort();
    let with_slots = cells
        .iter()
        .filter(|&&(sq, _)| slot_counts.get(sq as usize).is_some_and(|&n| n > 0))
        .map(|&(_, c)| Value::Square(c))
        .collect();
    let all = cells.into_iter().map(|(_, c)| Value::Square(c)).collect();
    (all, with_slots)
}

impl Hooks for Interp {
    fn setup(&mut self, st: &mut State) -> Result<(), GameError> {
        self.seen_turn = u32::MAX;
        self.seen_round = (u32::MAX, 0);
        self.feature_cache = Default::default();
        self.forced_quiet = [None; 8];
        self.clear_asks();
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
        self.feature_cache = Default::default();
        Interp::next_ask(self, st, out).map_err(|e| *e)
    }

    fn fire(&mut self, st: &mut State, trigger: Trigger, ctx: &Ctx) -> Result<(), GameError> {
        // Feature facts are cached for one entry from the engine only: anything may have changed
        // the board since (a tile placed, a follower moved), so each entry starts afresh.
        self.feature_cache = if trigger == Trigger::Scored {
            ctx.feature
        } else {
            Default::default()
        };
        self.fire_inner(st, trigger, ctx).map_err(|e| *e)
    }

    fn actions(
        &mut self,
        st: &mut State,
        phase: Phase,
        out: &mut Vec<Opt>,
    ) -> Result<(), GameError> {
        self.feature_cache = Default::default();
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
            self.clear_offers();
            return Ok(());
        }
        self.forget_forced_quiet(st);
        self.feature_cache = Default::default();
        let before = out.len();
        let any_when = self.collect(st, None, out).map_err(|e| *e)?;
        if out.len() == before {
            self.note_forced_quiet(st, !any_when);
        }
        Ok(())
    }

    fn run(&mut self, st: &mut State, handle: u32) -> Result<(), GameError> {
        self.feature_cache = Default::default();
        // An action taken changes the limits used (and may change anything it reads).
        self.forced_quiet = [None; 8];
        self.run_offer(st, handle).map_err(|e| *e)
    }

    fn action_name(&self, st: &State, handle: u32) -> String {
        let Some(o) = self.offers.get(handle as usize) else {
            return "?".into();
        };
        let action = self.prog.actions.get(o.action as usize);
        let mut s = action.map(|a| a.name.clone()).unwrap_or_default();
        // An asked action's parameters are not choices: the name lists the choices only.
        let params = action.map_or(0, |a| a.params as u32);
        for i in params..o.len {
            if let Some(&v) = self.offer_vals.get((o.start + i) as usize) {
                s.push(' ');
                s.push_str(&self.value_name_apart(st, o, i, v));
            }
        }
        s
    }

    fn action_index(&self, handle: u32) -> Option<u16> {
        self.offers.get(handle as usize).map(|o| o.action as u16)
    }

    fn rule_name(&self, rule: u16) -> &str {
        self.names
            .get(rule as usize)
            .map(|s| s.as_str())
            .unwrap_or("?")
    }

    fn is_action(&self, rule: u16) -> bool {
        rule as usize >= self.prog.rules.len()
    }

    fn listens(&self, trigger: Trigger) -> bool {
        self.listens[trigger as usize]
    }

    fn explain(&mut self, st: &mut State, now: Option<Phase>, name: &str) -> Option<String> {
        self.feature_cache = Default::default();
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
