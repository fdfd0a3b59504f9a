//! The interpreter: runs a checked [`Program`] against the engine through [`Hooks`].
//!
//! Everything was resolved before play (names, parameters, map attributes); here values are small
//! `Copy` enums, lists live in an arena reused between runs, and every run has an operation budget so
//! no rules file can make a game hang.

use super::ast::{AggOp, BinOp};
use super::builtins::{Builtin, Field};
use super::ir::{Action, ChoiceKind, Expr, Face, Limit, Place as IrPlace, Program, Stmt, Value};
use crate::board::CellKind;
use crate::features::NONE;
use crate::game::{Ctx, GameError, Hooks, Opt, Phase, Trigger};
use crate::map::{AttrValue, MapBoard, SquareKind};
use crate::state::{FollowerAt, Place, State, TileStack};
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
    /// Range into `offer_vals`.
    start: u32,
    len: u32,
}

/// A chosen value, kept across a decision (chip subsets as their own range of chip ids).
#[derive(Clone, Copy, Debug)]
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
    used_turn: Vec<u32>,
    used_round: Vec<u32>,
    groups_used: Vec<bool>,
    seen_turn: u32,
    seen_round: (u32, u8),
    listens: [bool; 11],
    depth: u32,
    /// Aggregates that depend only on the map, parameters and constants, by the address of their
    /// node in the program: computed once, then reused in every game.
    static_aggs: Vec<usize>,
    /// For each, the outside variables it reads, and its values so far keyed by theirs.
    static_free: Vec<Vec<u16>>,
    static_vals: Vec<Vec<(Vec<Value>, StaticVal)>>,
}

#[derive(Clone, Debug)]
enum StaticVal {
    Scalar(Value),
    List(Vec<Value>),
    /// Holds lists of lists, which live in the per-run arena: computed afresh each time.
    Uncached,
}

/// Whether an expression's value depends only on the map, the parameters, constants, the variables
/// of aggregates inside it, and the values of the outside variables it names (collected in `free`),
/// read only through properties that never change (a square's kind and attributes, a chip's colour
/// and value). Such an aggregate is computed once per value of its outside variables.
fn is_static(e: &Expr, bound: &mut Vec<u16>, free: &mut Vec<u16>) -> bool {
    use Field as F;
    match e {
        Expr::Const(_) | Expr::Param(_) => true,
        Expr::Local(s) => {
            if !bound.contains(s) && !free.contains(s) {
                free.push(*s);
            }
            true
        }
        Expr::List(items) => items.iter().all(|x| is_static(x, bound, free)),
        Expr::Range(a, b) | Expr::Binary(_, a, b) | Expr::Index(a, b) => {
            is_static(a, bound, free) && is_static(b, bound, free)
        }
        Expr::Not(x) | Expr::Neg(x) | Expr::ToPlayers(x) | Expr::Attr(x, _) => {
            is_static(x, bound, free)
        }
        Expr::Field(x, f) => {
            matches!(
                f,
                F::SquareX
                    | F::SquareY
                    | F::SquareTown
                    | F::SquareLand
                    | F::SquareIsland
                    | F::SquareLargeCity
                    | F::ChipColour
                    | F::ChipValue
            ) && is_static(x, bound, free)
        }
        Expr::Call(b, args) => {
            matches!(
                b,
                Builtin::Squares
                    | Builtin::SquaresWith
                    | Builtin::SlotSquares
                    | Builtin::Neighbours
                    | Builtin::Near
                    | Builtin::Colours
                    | Builtin::Len
                    | Builtin::Contains
            ) && args.iter().all(|a| is_static(a, bound, free))
        }
        Expr::Aggregate {
            var,
            list,
            filter,
            map,
            ..
        } => {
            if !is_static(list, bound, free) {
                return false;
            }
            bound.push(*var);
            let ok = filter.as_deref().is_none_or(|f| is_static(f, bound, free))
                && map.as_deref().is_none_or(|m| is_static(m, bound, free));
            bound.pop();
            ok
        }
    }
}

/// Collects the outermost static aggregates of an expression.
fn find_static(e: &Expr, out: &mut Vec<(usize, Vec<u16>)>) {
    if let Expr::Aggregate { .. } = e {
        let mut free = Vec::new();
        if is_static(e, &mut Vec::new(), &mut free) {
            out.push((e as *const Expr as usize, free));
            return;
        }
    }
    match e {
        Expr::List(items) | Expr::Call(_, items) => items.iter().for_each(|x| find_static(x, out)),
        Expr::Range(a, b) | Expr::Binary(_, a, b) | Expr::Index(a, b) => {
            find_static(a, out);
            find_static(b, out);
        }
        Expr::Not(x) | Expr::Neg(x) | Expr::ToPlayers(x) | Expr::Attr(x, _) | Expr::Field(x, _) => {
            find_static(x, out)
        }
        Expr::Aggregate {
            list, filter, map, ..
        } => {
            find_static(list, out);
            if let Some(f) = filter {
                find_static(f, out);
            }
            if let Some(m) = map {
                find_static(m, out);
            }
        }
        Expr::Const(_) | Expr::Param(_) | Expr::Local(_) => {}
    }
}

fn find_static_stmts(stmts: &[Stmt], out: &mut Vec<(usize, Vec<u16>)>) {
    for s in stmts {
        match s {
            Stmt::Let(_, e) => find_static(e, out),
            Stmt::If(branches, other) => {
                for (c, b) in branches {
                    find_static(c, out);
                    find_static_stmts(b, out);
                }
                if let Some(b) = other {
                    find_static_stmts(b, out);
                }
            }
            Stmt::For(_, e, b) => {
                find_static(e, out);
                find_static_stmts(b, out);
            }
            Stmt::Effect(_, args, _) => args.iter().for_each(|a| find_static(a, out)),
        }
    }
}

fn static_aggregates(prog: &Program) -> Vec<(usize, Vec<u16>)> {
    let mut out = Vec::new();
    for b in &prog.setup {
        find_static_stmts(&b.stmts, &mut out);
    }
    for r in &prog.rules {
        if let Some(w) = &r.when {
            find_static(w, &mut out);
        }
        find_static_stmts(&r.body.stmts, &mut out);
    }
    for a in &prog.actions {
        if let Some(w) = &a.when {
            find_static(w, &mut out);
        }
        for c in &a.choices {
            find_static(&c.from, &mut out);
            if let Some(f) = &c.filter {
                find_static(f, &mut out);
            }
        }
        find_static_stmts(&a.body.stmts, &mut out);
    }
    out.sort_unstable();
    out.dedup_by_key(|(k, _)| *k);
    out
}

/// Results inside the interpreter: the error is boxed so that the common path moves little data.
type R<T> = Result<T, Box<GameError>>;

fn err(rule: &str, message: impl Into<String>) -> Box<GameError> {
    Box::new(GameError::Rule {
        rule: rule.to_string(),
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
        let mut attr_vals = Vec::new();
        let mut prog_strings = prog.strings.clone();
        // A square without a string attribute reads as "" (like 0 and false for ints and bools).
        let empty = match prog_strings.iter().position(|x| x.is_empty()) {
            Some(i) => i as u32,
            None => {
                prog_strings.push(String::new());
                (prog_strings.len() - 1) as u32
            }
        };
        if let Some(m) = &map {
            for a in &prog.attrs {
                let vals = m
                    .squares
                    .iter()
                    .map(|s| match s.attrs.get(&a.name) {
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
                            None => match prog_strings.iter().position(|x| x == t) {
                                Some(i) => Value::Str(i as u32),
                                None => {
                                    prog_strings.push(t.clone());
                                    Value::Str((prog_strings.len() - 1) as u32)
                                }
                            },
                        },
                    })
                    .collect();
                attr_vals.push(vals);
            }
        }
        let slot_counts: Vec<u8> = map.as_ref().map_or(Vec::new(), |m| {
            m.squares
                .iter()
                .map(|s| match s.attrs.get("slots") {
                    Some(AttrValue::Int(n)) => (*n).clamp(0, 16) as u8,
                    _ => 0,
                })
                .collect()
        });
        let mut all_squares = Vec::new();
        for (c, &sq) in board.square.iter().enumerate() {
            if sq != NONE {
                all_squares.push((sq, c as u32));
            }
        }
        all_squares.sort();
        let slot_squares = all_squares
            .iter()
            .filter(|&&(sq, _)| slot_counts.get(sq as usize).is_some_and(|&n| n > 0))
            .map(|&(_, c)| Value::Square(c))
            .collect();
        let all_squares = all_squares
            .into_iter()
            .map(|(_, c)| Value::Square(c))
            .collect();
        let mut listens = [false; 11];
        for t in super::builtins::Trigger::ALL {
            listens[t as usize] = !prog.rules_for(t).is_empty();
        }
        let n_actions = prog.actions.len();
        let n_groups = prog.groups.len();
        let found = static_aggregates(&prog);
        let static_aggs: Vec<usize> = found.iter().map(|(k, _)| *k).collect();
        let static_free: Vec<Vec<u16>> = found.into_iter().map(|(_, f)| f).collect();
        let static_vals = vec![Vec::new(); static_aggs.len()];
        Interp {
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
            offer_chips: Vec::new(),
            used_turn: vec![0; n_actions],
            used_round: Vec::new(),
            groups_used: vec![false; n_groups],
            seen_turn: u32::MAX,
            seen_round: (u32::MAX, 0),
            listens,
            depth: 0,
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

    fn fail(&self, message: impl Into<String>) -> Box<GameError> {
        err(self.name(), message)
    }

    #[inline]
    fn tick(&mut self) -> R<()> {
        self.ops += 1;
        if self.ops > OP_BUDGET {
            return Err(self.fail(format!(
                "the rules ran over the operation budget of a turn ({OP_BUDGET} operations) here: does it loop over a very long list, or do rules keep triggering each other?"
            )));
        }
        Ok(())
    }

    /// The index of a string among [`Interp::strings`], added if new (player names: a handful).
    fn intern(&mut self, text: &str) -> u32 {
        match self.strings.iter().position(|x| x == text) {
            Some(i) => i as u32,
            None => {
                self.strings.push(text.to_string());
                (self.strings.len() - 1) as u32
            }
        }
    }

    fn new_list(&mut self) -> u32 {
        if self.n_lists == self.lists.len() {
            self.lists.push(Vec::new());
        }
        let i = self.n_lists;
        self.lists[i].clear();
        self.n_lists += 1;
        i as u32
    }

    fn list_of(&mut self, vals: impl IntoIterator<Item = Value>) -> Value {
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

    fn param(&self, p: u16) -> Value {
        self.prog
            .params
            .get(p as usize)
            .map(|p| p.value)
            .unwrap_or(Value::Unit)
    }

    // ------------------------------------------------------------------ expressions

    fn int(&mut self, st: &mut State, e: &Expr) -> R<i64> {
        match self.eval(st, e)? {
            Value::Int(i) => Ok(i),
            v => Err(self.fail(format!("expected a number, found {v:?}"))),
        }
    }

    fn bool(&mut self, st: &mut State, e: &Expr) -> R<bool> {
        match self.eval(st, e)? {
            Value::Bool(b) => Ok(b),
            v => Err(self.fail(format!("expected true or false, found {v:?}"))),
        }
    }

    /// The elements of a list or range value.
    fn elems(&mut self, v: Value) -> R<Vec<Value>> {
        match v {
            Value::List(i) => Ok(self.lists.get(i as usize).cloned().unwrap_or_default()),
            Value::Range(a, b) => {
                if b.saturating_sub(a) > 100_000 {
                    return Err(self.fail("a range of more than 100000 numbers"));
                }
                Ok((a..=b).map(Value::Int).collect())
            }
            Value::Players(m) => Ok((0..8)
                .filter(|p| m & (1 << p) != 0)
                .map(Value::Player)
                .collect()),
            v => Err(self.fail(format!("expected a list, found {v:?}"))),
        }
    }

    /// Number of elements of a list, range or player set.
    fn len_of(&self, v: Value) -> R<usize> {
        match v {
            Value::List(i) => Ok(self.lists.get(i as usize).map_or(0, |l| l.len())),
            Value::Range(a, b) => {
                if b.saturating_sub(a) > 100_000 {
                    return Err(self.fail("a range of more than 100000 numbers"));
                }
                Ok(if b < a { 0 } else { (b - a + 1) as usize })
            }
            Value::Players(m) => Ok(m.count_ones() as usize),
            v => Err(self.fail(format!("expected a list, found {v:?}"))),
        }
    }

    /// Element `k` of a list, range or player set (see [`Self::len_of`]).
    fn elem_at(&self, v: Value, k: usize) -> Value {
        match v {
            Value::List(i) => self
                .lists
                .get(i as usize)
                .and_then(|l| l.get(k))
                .copied()
                .unwrap_or(Value::Unit),
            Value::Range(a, _) => Value::Int(a + k as i64),
            Value::Players(m) => (0..8u8)
                .filter(|p| m & (1 << p) != 0)
                .nth(k)
                .map_or(Value::Unit, Value::Player),
            _ => Value::Unit,
        }
    }

    fn eval(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        self.tick()?;
        Ok(match e {
            Expr::Const(v) => *v,
            Expr::Param(p) => self.param(*p),
            Expr::Local(s) => self
                .frame
                .get(self.base + *s as usize)
                .copied()
                .unwrap_or(Value::Unit),
            Expr::List(items) => {
                let mut vals = Vec::with_capacity(items.len());
                for it in items {
                    vals.push(self.eval(st, it)?);
                }
                self.list_of(vals)
            }
            Expr::Range(a, b) => {
                let (a, b) = (self.int(st, a)?, self.int(st, b)?);
                Value::Range(a, b)
            }
            Expr::Field(x, f) => {
                let v = self.eval(st, x)?;
                self.field(st, v, *f)?
            }
            Expr::Attr(x, a) => {
                let v = self.eval(st, x)?;
                match v {
                    Value::Square(c) => {
                        let sq = st.board.square.get(c as usize).copied().unwrap_or(NONE);
                        self.attr_vals
                            .get(*a as usize)
                            .and_then(|vals| vals.get(sq as usize))
                            .copied()
                            .unwrap_or(Value::Unit)
                    }
                    v => {
                        return Err(
                            self.fail(format!("a map attribute of {v:?}, which is not a square"))
                        )
                    }
                }
            }
            Expr::Index(x, i) => {
                let v = self.eval(st, x)?;
                let i = self.int(st, i)?;
                match v {
                    Value::Table(t) => {
                        let row = self
                            .prog
                            .tables
                            .get(t as usize)
                            .and_then(|t| t.iter().find(|(k, _)| *k == i));
                        match row {
                            Some(&(_, v)) => Value::Int(v),
                            None => {
                                return Err(self.fail(format!("the table has no entry for {i}")))
                            }
                        }
                    }
                    Value::List(l) => {
                        match self.lists.get(l as usize).and_then(|l| l.get(i as usize)) {
                            Some(v) => *v,
                            None => {
                                return Err(
                                    self.fail(format!("index {i} is past the end of the list"))
                                )
                            }
                        }
                    }
                    v => return Err(self.fail(format!("cannot index {v:?}"))),
                }
            }
            Expr::Call(b, args) => self.call(st, *b, args)?,
            Expr::Not(x) => Value::Bool(!self.bool(st, x)?),
            Expr::Neg(x) => {
                let i = self.int(st, x)?;
                let Some(n) = i.checked_neg() else {
                    return Err(self.fail(format!("`-({i})` overflows")));
                };
                Value::Int(n)
            }
            Expr::ToPlayers(x) => match self.eval(st, x)? {
                Value::Player(p) => Value::Players(1 << (p & 7)),
                v => v,
            },
            Expr::Binary(op, a, b) => self.binary(st, *op, a, b)?,
            Expr::Aggregate { .. } if !self.static_aggs.is_empty() => {
                let key = e as *const Expr as usize;
                match self.static_aggs.binary_search(&key) {
                    Ok(i) => {
                        // The values of the outside variables are the key; lists (arena handles) are
                        // not a stable key, so an aggregate reading one is computed afresh.
                        let mut key = Vec::with_capacity(self.static_free[i].len());
                        for &slot in &self.static_free[i] {
                            key.push(
                                self.frame
                                    .get(self.base + slot as usize)
                                    .copied()
                                    .unwrap_or(Value::Unit),
                            );
                        }
                        if key.iter().any(|v| matches!(v, Value::List(_))) {
                            self.aggregate(st, e)?
                        } else {
                            match self.static_vals[i]
                                .iter()
                                .find(|(k, _)| *k == key)
                                .map(|(_, v)| v.clone())
                            {
                                Some(StaticVal::Scalar(v)) => v,
                                Some(StaticVal::List(items)) => self.list_of(items),
                                Some(StaticVal::Uncached) => self.aggregate(st, e)?,
                                None => {
                                    let v = self.aggregate(st, e)?;
                                    let cached = match v {
                                        Value::List(l) => {
                                            let items = &self.lists[l as usize];
                                            if items.iter().any(|x| matches!(x, Value::List(_))) {
                                                StaticVal::Uncached
                                            } else {
                                                StaticVal::List(items.clone())
                                            }
                                        }
                                        v => StaticVal::Scalar(v),
                                    };
                                    // A bounded memo: past 64 keys, values are computed afresh.
                                    if self.static_vals[i].len() < 64 {
                                        self.static_vals[i].push((key, cached));
                                    }
                                    v
                                }
                            }
                        }
                    }
                    Err(_) => self.aggregate(st, e)?,
                }
            }
            Expr::Aggregate { .. } => self.aggregate(st, e)?,
        })
    }

    fn aggregate(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        Ok(match e {
            Expr::Aggregate {
                op,
                var,
                list,
                filter,
                map,
            } => {
                let lv = self.eval(st, list)?;
                let n = self.len_of(lv)?;
                let mut count = 0i64;
                let mut sum = 0i64;
                let mut min: Option<i64> = None;
                let mut max: Option<i64> = None;
                let mut any = false;
                let mut all = true;
                let mut seen: Vec<Value> = Vec::new();
                let mut collected: Vec<Value> = Vec::new();
                let mut keys: Vec<i64> = Vec::new();
                for k in 0..n {
                    let item = self.elem_at(lv, k);
                    self.set(*var, item)?;
                    if let Some(f) = filter {
                        if !self.bool(st, f)? {
                            // `all(x in L where c)` with no `: e` asks whether every element meets c.
                            if *op == AggOp::All && map.is_none() {
                                all = false;
                                break;
                            }
                            continue;
                        }
                    }
                    let mapped = match map {
                        Some(m) => self.eval(st, m)?,
                        None => item,
                    };
                    count += 1;
                    match op {
                        AggOp::Sum | AggOp::Min | AggOp::Max => {
                            let Value::Int(i) = mapped else {
                                return Err(self.fail(format!(
                                    "{} of something that is not a number",
                                    op.name()
                                )));
                            };
                            let Some(s) = sum.checked_add(i) else {
                                return Err(self.fail(format!(
                                    "the sum overflows (numbers run from {} to {})",
                                    i64::MIN,
                                    i64::MAX
                                )));
                            };
                            sum = s;
                            min = Some(min.map_or(i, |m| m.min(i)));
                            max = Some(max.map_or(i, |m| m.max(i)));
                        }
                        AggOp::Any | AggOp::All => {
                            let b = match (map, mapped) {
                                (Some(_), Value::Bool(b)) => b,
                                (None, _) => true,
                                (Some(_), v) => {
                                    return Err(self
                                        .fail(format!("{} of {v:?}, not true/false", op.name())))
                                }
                            };
                            any |= b;
                            all &= b;
                            // The answer is known: stop early, like `and`/`or`.
                            if (*op == AggOp::Any && any) || (*op == AggOp::All && !all) {
                                break;
                            }
                        }
                        AggOp::Distinct => {
                            if !seen.contains(&mapped) {
                                seen.push(mapped);
                            }
                        }
                        AggOp::Collect => collected.push(mapped),
                        AggOp::Sort => {
                            let Value::Int(key) = mapped else {
                                return Err(self.fail("sort by something that is not a number"));
                            };
                            keys.push(key);
                            collected.push(item);
                        }
                        AggOp::Count => {}
                    }
                }
                match op {
                    AggOp::Count => Value::Int(count),
                    AggOp::Sum => Value::Int(sum),
                    AggOp::Min => Value::Int(min.unwrap_or(0)),
                    AggOp::Max => Value::Int(max.unwrap_or(0)),
                    AggOp::Any => Value::Bool(any),
                    AggOp::All => Value::Bool(all),
                    AggOp::Distinct => Value::Int(seen.len() as i64),
                    AggOp::Collect => self.list_of(collected),
                    AggOp::Sort => {
                        let mut order: Vec<usize> = (0..collected.len()).collect();
                        order.sort_by_key(|&i| keys[i]);
                        let sorted: Vec<Value> = order.into_iter().map(|i| collected[i]).collect();
                        self.list_of(sorted)
                    }
                }
            }
            _ => Value::Unit,
        })
    }

    fn binary(&mut self, st: &mut State, op: BinOp, a: &Expr, b: &Expr) -> R<Value> {
        match op {
            BinOp::And => return Ok(Value::Bool(self.bool(st, a)? && self.bool(st, b)?)),
            BinOp::Or => return Ok(Value::Bool(self.bool(st, a)? || self.bool(st, b)?)),
            _ => {}
        }
        let (x, y) = (self.eval(st, a)?, self.eval(st, b)?);
        if let (BinOp::Eq | BinOp::Ne, true) =
            (op, !matches!((x, y), (Value::Int(_), Value::Int(_))))
        {
            let eq = self.values_equal(x, y);
            return Ok(Value::Bool(if op == BinOp::Eq { eq } else { !eq }));
        }
        let (Value::Int(x), Value::Int(y)) = (x, y) else {
            return Err(self.fail(format!(
                "`{}` needs numbers, found {x:?} and {y:?}",
                op.symbol()
            )));
        };
        let overflow = || {
            self.fail(format!(
                "`{x} {} {y}` overflows (numbers run from {} to {})",
                op.symbol(),
                i64::MIN,
                i64::MAX
            ))
        };
        Ok(match op {
            BinOp::Add => Value::Int(x.checked_add(y).ok_or_else(overflow)?),
            BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(overflow)?),
            BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(overflow)?),
            BinOp::Div | BinOp::Rem => {
                if y == 0 {
                    return Err(self.fail("division by zero"));
                }
                Value::Int(
                    if op == BinOp::Div {
                        x.checked_div(y)
                    } else {
                        x.checked_rem(y)
                    }
                    .ok_or_else(overflow)?,
                )
            }
            BinOp::Eq => Value::Bool(x == y),
            BinOp::Ne => Value::Bool(x != y),
            BinOp::Lt => Value::Bool(x < y),
            BinOp::Le => Value::Bool(x <= y),
            BinOp::Gt => Value::Bool(x > y),
            BinOp::Ge => Value::Bool(x >= y),
            BinOp::And | BinOp::Or => Value::Bool(false),
        })
    }

    fn values_equal(&self, x: Value, y: Value) -> bool {
        match (x, y) {
            (Value::List(a), Value::List(b)) => {
                self.lists.get(a as usize) == self.lists.get(b as usize)
            }
            (Value::Player(p), Value::Players(m)) | (Value::Players(m), Value::Player(p)) => {
                m == 1 << (p & 7)
            }
            _ => x == y,
        }
    }

    fn feature(&mut self, st: &mut State, root: u32) -> crate::state::FeatureInfo {
        if self.feature_cache.kind.is_some()
            && st.board.features.find(self.feature_cache.root) == root
        {
            return self.feature_cache;
        }
        let info = st.feature_info(root);
        self.feature_cache = info;
        info
    }

    fn field(&mut self, st: &mut State, v: Value, f: Field) -> R<Value> {
        use Field as F;
        Ok(match (v, f) {
            (Value::Chip(c), _) => {
                let Some(ch) = st.chips.get(c as usize).copied() else {
                    return Err(self.fail("no such chip"));
                };
                match f {
                    F::ChipColour => Value::Colour(ch.colour),
                    F::ChipValue => Value::Int(ch.value as i64),
                    F::ChipFaceUp => Value::Bool(ch.face_up),
                    _ => return Err(self.fail("not a field of a chip")),
                }
            }
            (Value::Square(c), _) => {
                let cu = c as usize;
                let sq = self.map_square(st, c);
                match f {
                    F::SquareX => Value::Int(st.board.xy(c).0 as i64),
                    F::SquareY => Value::Int(st.board.xy(c).1 as i64),
                    F::SquareTown => Value::Bool(sq.is_some_and(|s| s.town)),
                    F::SquareStart => Value::Bool(st.start_cells.contains(&c)),
                    F::SquareCovered => {
                        Value::Bool(st.board.tile.get(cu).is_some_and(|&t| t != NONE))
                    }
                    F::SquareLand => Value::Bool(st.board.kind.get(cu) == Some(&CellKind::Land)),
                    F::SquareIsland => {
                        Value::Bool(sq.is_some_and(|s| s.kind == SquareKind::Island))
                    }
                    F::SquareLargeCity => {
                        Value::Bool(st.board.kind.get(cu) == Some(&CellKind::LargeCity))
                    }
                    F::SquareChips => {
                        let mut ids = Vec::new();
                        st.chips_at(Place::Square(c), &mut ids);
                        self.list_of(ids.into_iter().map(Value::Chip))
                    }
                    F::SquareFreeSlots => Value::Int(self.free_slots(st, c).len() as i64),
                    _ => return Err(self.fail("not a field of a square")),
                }
            }
            (Value::Feature(root), _) => {
                let info = self.feature(st, root);
                match f {
                    F::FeatureKind => match info.kind {
                        Some(k) => Value::Kind(k),
                        None => Value::Unit,
                    },
                    F::FeatureComplete => Value::Bool(info.complete),
                    F::FeatureTiles => Value::Int(info.tiles as i64),
                    F::FeatureShields => Value::Int(info.shields as i64),
                    F::FeatureCities => Value::Int(info.cities as i64),
                    F::FeatureWinners => Value::Players(info.winners),
                    F::FeatureFollowers => {
                        let mut fs = Vec::new();
                        st.feature_followers(info.root, &mut fs);
                        self.list_of(fs.into_iter().map(Value::Follower))
                    }
                    F::FeatureSquares => {
                        let mut cells: Vec<u32> = Vec::new();
                        let f = &st.board.features;
                        f.for_each_member(info.root, |m| {
                            let t = f.tile[m as usize] as usize;
                            if let Some(p) = st.board.placed.get(t) {
                                if !cells.contains(&p.cell) {
                                    cells.push(p.cell);
                                }
                            }
                        });
                        self.list_of(cells.into_iter().map(Value::Square))
                    }
                    _ => return Err(self.fail("not a field of a feature")),
                }
            }
            (Value::Follower(fo), _) => {
                let Some(x) = st.followers.get(fo as usize).copied() else {
                    return Err(self.fail("no such follower"));
                };
                match f {
                    F::FollowerOwner => Value::Player(x.owner),
                    F::FollowerStrength => Value::Int(x.strength as i64),
                    F::FollowerPlacedTurn => Value::Int(x.placed_turn as i64),
                    F::FollowerFeature => match x.at {
                        FollowerAt::Board(node) => Value::Feature(st.board.features.find(node)),
                        _ => return Err(self.fail("the follower is not on the board")),
                    },
                    F::FollowerSquare => match x.at {
                        FollowerAt::Board(_) => Value::Square(x.cell),
                        _ => return Err(self.fail("the follower is not on the board")),
                    },
                    _ => return Err(self.fail("not a field of a follower")),
                }
            }
            (Value::Player(p), _) => {
                let Some(pl) = st.players.get(p as usize) else {
                    return Err(self.fail("no such player"));
                };
                match f {
                    F::PlayerScore => Value::Int(pl.score),
                    F::PlayerFollowersLeft => Value::Int(st.followers_in_supply(p) as i64),
                    F::PlayerName => {
                        let name = pl.name.clone();
                        Value::Str(self.intern(&name))
                    }
                    _ => return Err(self.fail("not a field of a player")),
                }
            }
            (Value::Tile(t), _) => {
                let Some(p) = st.board.placed.get(t as usize).copied() else {
                    return Err(self.fail("no such tile"));
                };
                match f {
                    F::TileSquare => Value::Square(p.cell),
                    F::TileShields => Value::Int(st.tiles[p.ty as usize].total_shields as i64),
                    _ => return Err(self.fail("not a field of a tile")),
                }
            }
            (Value::Stack(s), _) => {
                let Some(stack) = st.tile_stacks.get(s as usize) else {
                    return Err(self.fail("no such stack"));
                };
                match f {
                    F::StackSquare => Value::Square(stack.cell),
                    F::StackSize => Value::Int(stack.tiles.len() as i64),
                    _ => return Err(self.fail("not a field of a stack")),
                }
            }
            (v, _) => return Err(self.fail(format!("{v:?} has no fields"))),
        })
    }

    fn map_square<'a>(&'a self, st: &State, cell: u32) -> Option<&'a crate::map::Square> {
        let sq = *st.board.square.get(cell as usize)?;
        self.map.as_ref()?.squares.get(sq as usize)
    }

    fn free_slots(&self, st: &State, cell: u32) -> Vec<u8> {
        let n = st
            .board
            .square
            .get(cell as usize)
            .and_then(|&sq| self.slot_counts.get(sq as usize))
            .copied()
            .unwrap_or(0);
        if st.board.tile.get(cell as usize).is_some_and(|&t| t != NONE) {
            return Vec::new();
        }
        (0..n.min(16))
            .filter(|&i| !st.chips.iter().any(|c| c.place == Place::Slot(cell, i)))
            .collect()
    }

    fn place(&self, p: IrPlace) -> Place {
        match p {
            IrPlace::Supply => Place::Supply,
            IrPlace::Aside => Place::Aside,
            IrPlace::Box => Place::Box,
            IrPlace::Hand(p) => Place::Hand(p),
            IrPlace::At(c) => Place::Square(c),
            IrPlace::Slots(c) => Place::Slot(c, 0),
            IrPlace::Under(f) => Place::Under(f),
            IrPlace::Holding(h) => Place::Holding(h as u8),
        }
    }

    fn chips_in(&self, st: &State, p: IrPlace) -> Vec<Value> {
        let mut out = Vec::new();
        match p {
            IrPlace::Slots(c) => {
                for (i, ch) in st.chips.iter().enumerate() {
                    if matches!(ch.place, Place::Slot(cc, _) if cc == c) {
                        out.push(Value::Chip(i as u16));
                    }
                }
            }
            p => {
                let mut ids = Vec::new();
                st.chips_at(self.place(p), &mut ids);
                out.extend(ids.into_iter().map(Value::Chip));
            }
        }
        out
    }

    fn call(&mut self, st: &mut State, b: Builtin, args: &[Expr]) -> R<Value> {
        let mut a = [Value::Unit; 4];
        for (i, e) in args.iter().enumerate().take(4) {
            a[i] = self.eval(st, e)?;
        }
        let player_of = |v: Value| match v {
            Value::Player(p) => p,
            _ => 0,
        };
        Ok(match b {
            Builtin::Hand => Value::Place(IrPlace::Hand(player_of(a[0]))),
            Builtin::At => match a[0] {
                Value::Square(c) => Value::Place(IrPlace::At(c)),
                _ => Value::Unit,
            },
            Builtin::Slots => match a[0] {
                Value::Square(c) => Value::Place(IrPlace::Slots(c)),
                _ => Value::Unit,
            },
            Builtin::Under => match a[0] {
                Value::Follower(f) => Value::Place(IrPlace::Under(f)),
                _ => Value::Unit,
            },
            Builtin::HoldingPlace => match a[0] {
                Value::Holding(h) => Value::Place(IrPlace::Holding(h)),
                _ => Value::Unit,
            },
            Builtin::Chips => match a[0] {
                Value::Place(IrPlace::Slots(c)) => {
                    let v = self.chips_in(st, IrPlace::Slots(c));
                    self.list_of(v)
                }
                // Other places are filled straight into the arena (this runs in many `when`s).
                Value::Place(p) => {
                    let place = self.place(p);
                    let i = self.new_list();
                    let out = &mut self.lists[i as usize];
                    match place {
                        Place::Supply => {
                            out.extend(st.supply.iter().rev().map(|&c| Value::Chip(c)))
                        }
                        place => out.extend(
                            (0..st.chips.len())
                                .filter(|&c| st.chips[c].place == place)
                                .map(|c| Value::Chip(c as u16)),
                        ),
                    }
                    Value::List(i)
                }
                _ => self.list_of([]),
            },
            Builtin::Squares => {
                let v = self.all_squares.clone();
                self.ops += v.len() as u64 / 8;
                self.list_of(v)
            }
            Builtin::SlotSquares => {
                let v = self.slot_squares.clone();
                self.list_of(v)
            }
            Builtin::SquaresWith => {
                let Value::Str(name) = a[0] else {
                    return Err(self.fail("squares_with needs an attribute name"));
                };
                let i = match self
                    .attr_index
                    .iter()
                    .position(|(n, v, _)| *n == name && *v == a[1])
                {
                    Some(i) => i,
                    None => {
                        let cells = self.index_attr(st, name, a[1])?;
                        self.attr_index.push((name, a[1], cells));
                        self.attr_index.len() - 1
                    }
                };
                let v = self.attr_index[i].2.clone();
                self.ops += v.len() as u64 / 8;
                self.list_of(v)
            }
            Builtin::Neighbours => {
                let mut v = Vec::new();
                if let Value::Square(c) = a[0] {
                    for s in 0..4 {
                        let n = st.board.neighbour(c, s);
                        if st.board.square.get(n as usize).is_some_and(|&q| q != NONE) {
                            v.push(Value::Square(n));
                        }
                    }
                }
                self.list_of(v)
            }
            Builtin::Near => {
                let mut v: Vec<Value> = Vec::new();
                for k in 0..self.len_of(a[0])? {
                    if let Value::Square(c) = self.elem_at(a[0], k) {
                        for side in 0..4 {
                            let n = st.board.neighbour(c, side);
                            let sq = Value::Square(n);
                            if st.board.square.get(n as usize).is_some_and(|&q| q != NONE)
                                && !v.contains(&sq)
                            {
                                v.push(sq);
                            }
                        }
                    }
                }
                self.tick()?;
                self.list_of(v)
            }
            Builtin::Players => {
                let n = st.players.len() as u8;
                self.list_of((0..n).map(Value::Player))
            }
            Builtin::Followers | Builtin::Reserve => {
                let p = player_of(a[0]);
                let want_board = b == Builtin::Followers;
                let v: Vec<Value> = st
                    .player_followers(p)
                    .filter(|&f| {
                        let at = st.followers[f as usize].at;
                        if want_board {
                            matches!(at, FollowerAt::Board(_))
                        } else {
                            at == FollowerAt::Supply
                        }
                    })
                    .map(Value::Follower)
                    .collect();
                self.list_of(v)
            }
            Builtin::Held => {
                let h = match a[0] {
                    Value::Holding(h) => h as u8,
                    _ => 0,
                };
                let v: Vec<Value> = (0..st.followers.len())
                    .filter(|&f| st.followers[f].at == FollowerAt::Holding(h))
                    .map(|f| Value::Follower(f as u16))
                    .collect();
                self.list_of(v)
            }
            Builtin::Stacks => {
                let v: Vec<Value> = (0..st.tile_stacks.len())
                    .filter(|&s| !st.tile_stacks[s].tiles.is_empty())
                    .map(|s| Value::Stack(s as u16))
                    .collect();
                self.list_of(v)
            }
            Builtin::Colours => {
                let n = self.prog.colours.len() as u8;
                self.list_of((0..n).map(Value::Colour))
            }
            Builtin::Len => Value::Int(self.len_of(a[0])? as i64),
            Builtin::First => match self.elems(a[0])?.first() {
                Some(v) => *v,
                None => return Err(self.fail("`first` of an empty list")),
            },
            Builtin::Contains => {
                let items = self.elems(a[0])?;
                Value::Bool(items.iter().any(|&x| self.values_equal(x, a[1])))
            }
            Builtin::Take => {
                let Value::Int(k) = a[1] else {
                    return Err(self.fail("`take` needs a number"));
                };
                let items = self.elems(a[0])?;
                let k = usize::try_from(k).unwrap_or(0).min(items.len());
                self.list_of(items[..k].iter().copied())
            }
            Builtin::Min2 | Builtin::Max2 => match (a[0], a[1]) {
                (Value::Int(x), Value::Int(y)) => Value::Int(if b == Builtin::Min2 {
                    x.min(y)
                } else {
                    x.max(y)
                }),
                _ => return Err(self.fail("`min`/`max` need numbers")),
            },
            Builtin::Has => {
                let (Value::Square(c), Value::Str(name)) = (a[0], a[1]) else {
                    return Err(self.fail("`has` needs a square and an attribute name"));
                };
                let name = self
                    .strings
                    .get(name as usize)
                    .map(String::as_str)
                    .unwrap_or("");
                Value::Bool(
                    self.map_square(st, c)
                        .is_some_and(|sq| sq.attrs.contains_key(name)),
                )
            }
            Builtin::CurrentPlayer => Value::Player(st.current),
            Builtin::TurnTile => Value::Tile(st.placed_now),
            Builtin::TurnFollowersPlaced => Value::Int(i64::from(st.follower_placed_now)),
            Builtin::IsExtraTurn => Value::Bool(st.in_extra_turn),
            Builtin::TurnNumber => Value::Int(st.turn as i64),
            Builtin::TilesLeft => Value::Int(st.stack.len() as i64),
            Builtin::RoundNumber => Value::Int(st.round as i64),
            Builtin::ConnectsAbroad => Value::Bool(match a[0] {
                Value::Tile(t) => self.connects_abroad(st, t),
                _ => false,
            }),
            Builtin::Placeable => Value::Bool(match a[0] {
                Value::Stack(s) => st
                    .tile_stacks
                    .get(s as usize)
                    .and_then(|k| k.tiles.last())
                    .is_some_and(|&ty| st.board.has_placement(&st.tiles[ty as usize])),
                _ => false,
            }),
            // Effects used as expressions do their work and yield nothing.
            _ => {
                self.effect(st, b, &a[..args.len().min(4)])?;
                Value::Unit
            }
        })
    }

    /// The squares whose map attribute `name` (a string index) equals `want`, in map order.
    fn index_attr(&self, st: &State, name: u32, want: Value) -> R<Vec<Value>> {
        let name = self.strings.get(name as usize).cloned().unwrap_or_default();
        let Some(map) = &self.map else {
            return Err(self.fail("squares_with: the endless table has no map attributes"));
        };
        if !map.squares.iter().any(|s| s.attrs.contains_key(&name)) {
            return Err(self.fail(format!("the map has no square attribute `{name}`")));
        }
        let mut out = Vec::new();
        for &v in &self.all_squares {
            let Value::Square(c) = v else { continue };
            let Some(sq) = st
                .board
                .square
                .get(c as usize)
                .and_then(|&q| map.squares.get(q as usize))
            else {
                continue;
            };
            let got = match sq.attrs.get(&name) {
                Some(AttrValue::Int(i)) => Value::Int(*i),
                Some(AttrValue::Bool(b)) => Value::Bool(*b),
                Some(AttrValue::Str(t)) => match self.prog.colours.iter().position(|c| c == t) {
                    Some(i) => Value::Colour(i as u8),
                    None => match self.strings.iter().position(|x| x == t) {
                        Some(i) => Value::Str(i as u32),
                        None => continue,
                    },
                },
                None => continue,
            };
            if got == want {
                out.push(v);
            }
        }
        Ok(out)
    }

    fn connects_abroad(&self, st: &State, t: u32) -> bool {
        let (Some(map), Some(p)) = (&self.map, st.board.placed.get(t as usize)) else {
            return false;
        };
        let (x, y) = st.board.xy(p.cell);
        let tile = &st.tiles[p.ty as usize];
        map.exits
            .iter()
            .any(|e| e.at == (x, y) && tile.edge(p.rot as usize, e.side as usize) == e.feature)
    }

    // ------------------------------------------------------------------ effects

    fn chip_list(&mut self, v: Value) -> R<Vec<u16>> {
        Ok(match v {
            Value::Chip(c) => vec![c],
            v => self
                .elems(v)?
                .into_iter()
                .filter_map(|x| match x {
                    Value::Chip(c) => Some(c),
                    _ => None,
                })
                .collect(),
        })
    }

    fn move_chips(&mut self, st: &mut State, chips: &[u16], to: IrPlace, up: bool) -> R<()> {
        for &c in chips {
            let dest = match to {
                IrPlace::Slots(cell) => match self.free_slots(st, cell).first() {
                    Some(&i) => Place::Slot(cell, i),
                    None => return Err(self.fail("no free slot left on that square")),
                },
                p => self.place(p),
            };
            st.move_chip(c, dest, up);
            if let (Place::Hand(p), true) = (dest, self.listens[Trigger::Gained as usize]) {
                let ctx = Ctx {
                    player: p,
                    chip: c,
                    ..Ctx::default()
                };
                let saved = self.current;
                self.depth += 1;
                let r = self.fire_inner(st, Trigger::Gained, &ctx);
                self.depth -= 1;
                self.current = saved;
                r?;
            }
        }
        Ok(())
    }

    fn effect(&mut self, st: &mut State, b: Builtin, a: &[Value]) -> R<()> {
        // An effect may move followers or change strengths: cached feature facts are stale.
        self.feature_cache = Default::default();
        let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
        let face_up = |v: Value| matches!(v, Value::Face(Face::Up));
        match b {
            Builtin::Score => {
                let (who, pts) = (arg(0), arg(1));
                let Value::Int(pts) = pts else {
                    return Err(self.fail("score needs a number of points"));
                };
                let mask = match who {
                    Value::Players(m) => m,
                    Value::Player(p) => 1 << (p & 7),
                    _ => 0,
                };
                for p in 0..st.players.len() as u8 {
                    if mask & (1 << p) == 0 {
                        continue;
                    }
                    let have = st.players[p as usize].score;
                    if have.checked_add(pts).is_none() {
                        return Err(self.fail(format!(
                            "scoring {pts} for {} overflows their score of {have}",
                            st.players[p as usize].name
                        )));
                    }
                    st.score(p, pts, self.current);
                }
            }
            Builtin::Move => {
                let chips = self.chip_list(arg(0))?;
                let Value::Place(to) = arg(1) else {
                    return Err(self.fail("move needs a place"));
                };
                self.move_chips(st, &chips, to, face_up(arg(2)))?;
            }
            Builtin::Draw => {
                let Value::Int(n) = arg(0) else {
                    return Err(self.fail("draw needs a count"));
                };
                let (Value::Place(from), Value::Place(to)) = (arg(1), arg(2)) else {
                    return Err(self.fail("draw needs two places"));
                };
                let mut avail: Vec<u16> = self
                    .chips_in(st, from)
                    .into_iter()
                    .filter_map(|v| match v {
                        Value::Chip(c) => Some(c),
                        _ => None,
                    })
                    .collect();
                if from != IrPlace::Supply {
                    st.rng.shuffle(&mut avail);
                }
                avail.truncate(n.clamp(0, 1000) as usize);
                self.move_chips(st, &avail, to, face_up(arg(3)))?;
            }
            Builtin::Shuffle => {
                if let Value::Place(IrPlace::Supply) = arg(0) {
                    st.shuffle_supply();
                }
            }
            Builtin::Strength => {
                if let (Value::Follower(f), Value::Int(s)) = (arg(0), arg(1)) {
                    st.set_strength(f, s.clamp(0, 255) as u8);
                }
            }
            Builtin::Send => {
                if let (Value::Follower(f), Value::Holding(h)) = (arg(0), arg(1)) {
                    st.move_follower(f, FollowerAt::Holding(h as u8));
                }
            }
            Builtin::Recall => {
                for v in self.elems(arg(0))? {
                    if let Value::Follower(f) = v {
                        st.move_follower(f, FollowerAt::Supply);
                    }
                }
            }
            Builtin::ExtraTurn => st.extra_turn_pending = true,
            Builtin::TakeTile => {
                if let Value::Stack(s) = arg(0) {
                    if let Some(ty) = st
                        .tile_stacks
                        .get_mut(s as usize)
                        .and_then(|k| k.tiles.pop())
                    {
                        st.current_tile = Some(ty);
                    }
                }
            }
            Builtin::TurnUp => {}
            Builtin::Scatter => {
                let chips = self.chip_list(arg(0))?;
                let squares: Vec<u32> = self
                    .elems(arg(1))?
                    .into_iter()
                    .filter_map(|v| match v {
                        Value::Square(c) => Some(c),
                        _ => None,
                    })
                    .collect();
                let apart = matches!(arg(2), Value::Bool(true));
                self.scatter(st, &chips, &squares, apart, face_up(arg(3)));
            }
            Builtin::Deal => {
                let Value::Int(n) = arg(1) else {
                    return Err(self.fail("deal needs a count"));
                };
                for v in self.elems(arg(0))? {
                    if let Value::Square(c) = v {
                        let mut tiles = Vec::new();
                        for _ in 0..n.clamp(0, 1000) {
                            if let Some(t) = st.stack.pop() {
                                tiles.push(t);
                            }
                        }
                        if st.record {
                            let (x, y) = st.board.xy(c);
                            let ids: Vec<&str> = tiles
                                .iter()
                                .map(|&t| st.tiles[t as usize].id.as_str())
                                .collect();
                            let text = format!(
                                "a stack of {} tiles at {x},{y}, top last: {}",
                                ids.len(),
                                ids.join(" ")
                            );
                            let who = st.acting();
                            st.push(who, crate::state::EvKind::Note(text));
                        }
                        st.tile_stacks.push(TileStack { cell: c, tiles });
                    }
                }
            }
            Builtin::Log => {
                if let Value::Str(s) = arg(0) {
                    let text = self.strings.get(s as usize).cloned().unwrap_or_default();
                    let who = st.acting();
                    st.push(who, crate::state::EvKind::Note(text));
                }
            }
            _ => return Err(self.fail(format!("`{}` is not an effect", b.info().name))),
        }
        Ok(())
    }

    /// Spreads chips over squares at random, one per square; with `apart`, no two orthogonally
    /// adjacent. Squares are taken region by region in turn (the map cut into a 3×3 grid of regions)
    /// so chips spread evenly instead of clumping. Chips that find no square go aside.
    fn scatter(&mut self, st: &mut State, chips: &[u16], squares: &[u32], apart: bool, up: bool) {
        let mut pool: Vec<u32> = squares.to_vec();
        st.rng.shuffle(&mut pool);
        // Regions: a 3x3 grid over the squares' bounding box.
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for &c in &pool {
            let (x, y) = st.board.xy(c);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        let region = |st: &State, c: u32| {
            let (x, y) = st.board.xy(c);
            let rx = ((x - x0) * 3 / (x1 - x0 + 1).max(1)).clamp(0, 2);
            let ry = ((y - y0) * 3 / (y1 - y0 + 1).max(1)).clamp(0, 2);
            (ry * 3 + rx) as usize
        };
        let mut by_region: Vec<Vec<u32>> = vec![Vec::new(); 9];
        for &c in &pool {
            by_region[region(st, c)].push(c);
        }
        let mut taken: Vec<u32> = Vec::new();
        let mut chip_i = 0;
        let mut cursor = [0usize; 9];
        'outer: while chip_i < chips.len() {
            let mut progressed = false;
            for r in 0..9 {
                if chip_i >= chips.len() {
                    break 'outer;
                }
                while cursor[r] < by_region[r].len() {
                    let c = by_region[r][cursor[r]];
                    cursor[r] += 1;
                    let blocked =
                        apart && (0..4).any(|s| taken.contains(&st.board.neighbour(c, s)));
                    if !blocked && !taken.contains(&c) {
                        taken.push(c);
                        st.move_chip(chips[chip_i], Place::Square(c), up);
                        chip_i += 1;
                        progressed = true;
                        break;
                    }
                }
            }
            if !progressed {
                break;
            }
        }
        if chip_i < chips.len() {
            let n = chips.len() - chip_i;
            let who = st.acting();
            st.push(
                who,
                crate::state::EvKind::Note(format!(
                    "only {chip_i} of {} chips found a square; {n} put aside",
                    chips.len()
                )),
            );
            for &c in &chips[chip_i..] {
                st.move_chip(c, Place::Aside, false);
            }
        }
    }

    // ------------------------------------------------------------------ statements

    fn exec(&mut self, st: &mut State, stmts: &[Stmt]) -> R<()> {
        for s in stmts {
            self.tick()?;
            match s {
                Stmt::Let(slot, e) => {
                    let v = self.eval(st, e)?;
                    self.set(*slot, v)?;
                }
                Stmt::If(branches, otherwise) => {
                    let mut done = false;
                    for (c, body) in branches {
                        if self.bool(st, c)? {
                            self.exec(st, body)?;
                            done = true;
                            break;
                        }
                    }
                    if let (false, Some(body)) = (done, otherwise) {
                        self.exec(st, body)?;
                    }
                }
                Stmt::For(slot, e, body) => {
                    let v = self.eval(st, e)?;
                    for k in 0..self.len_of(v)? {
                        let item = self.elem_at(v, k);
                        self.set(*slot, item)?;
                        self.exec(st, body)?;
                    }
                }
                Stmt::Effect(b, args, _) => {
                    let mut a = [Value::Unit; 4];
                    for (i, e) in args.iter().enumerate().take(4) {
                        a[i] = self.eval(st, e)?;
                    }
                    self.effect(st, *b, &a[..args.len().min(4)])?;
                }
            }
        }
        Ok(())
    }

    fn bind_trigger(&mut self, st: &State, t: Trigger, ctx: &Ctx) -> R<()> {
        let p = Value::Player(ctx.player);
        let tile = Value::Tile(ctx.placed);
        let sq = Value::Square(ctx.cell);
        let kind = ctx
            .edge
            .map(|e| Value::Kind(e.feature()))
            .unwrap_or(Value::Unit);
        match t {
            Trigger::Placed => {
                self.set(0, p)?;
                self.set(1, tile)?;
                self.set(2, sq)?;
            }
            Trigger::Adjacent | Trigger::Abroad => {
                self.set(0, p)?;
                self.set(1, tile)?;
                self.set(2, sq)?;
                self.set(3, kind)?;
            }
            Trigger::Gained => {
                self.set(0, p)?;
                self.set(1, Value::Chip(ctx.chip))?;
            }
            Trigger::FollowerPlaced | Trigger::Returned => {
                self.set(0, p)?;
                self.set(1, Value::Follower(ctx.follower))?;
            }
            Trigger::Scored => self.set(0, Value::Feature(ctx.feature.root))?,
            Trigger::TurnStart | Trigger::TurnEnd => self.set(0, Value::Player(st.current))?,
            Trigger::RoundEnd | Trigger::GameEnd => {}
        }
        Ok(())
    }

    fn fire_inner(&mut self, st: &mut State, t: Trigger, ctx: &Ctx) -> R<()> {
        if self.depth > 32 {
            return Err(self.fail("rules trigger each other more than 32 deep"));
        }
        let prog = self.prog.clone();
        for &r in prog.rules_for(t) {
            let rule = &prog.rules[r as usize];
            self.begin(r as u16, st.turn);
            let saved = self.enter(rule.body.locals.max(4));
            self.bind_trigger(st, t, ctx)?;
            let ok = match &rule.when {
                Some(w) => self.bool(st, w)?,
                None => true,
            };
            if ok {
                self.exec(st, &rule.body.stmts)?;
            }
            self.leave(saved);
        }
        Ok(())
    }

    // ------------------------------------------------------------------ actions

    fn refresh_usage(&mut self, st: &State) {
        if self.seen_turn != st.turn {
            self.seen_turn = st.turn;
            self.actions_this_turn = 0;
            self.used_turn.iter_mut().for_each(|u| *u = 0);
            self.groups_used.iter_mut().for_each(|g| *g = false);
        }
        let n = self.prog.actions.len() * st.players.len().max(1);
        if self.used_round.len() != n {
            self.used_round = vec![0; n];
        }
        if self.seen_round != (st.round, st.current) {
            if self.seen_round.0 != st.round {
                self.used_round.iter_mut().for_each(|u| *u = 0);
            }
            self.seen_round = (st.round, st.current);
        }
    }

    fn allowed(&self, st: &State, ai: usize, a: &Action) -> bool {
        a.limits.iter().all(|l| match l {
            Limit::PerTurn(n) => self.used_turn[ai] < *n,
            Limit::PerRound(n) => {
                let k = st.current as usize * self.prog.actions.len() + ai;
                self.used_round.get(k).copied().unwrap_or(0) < *n
            }
            Limit::Group(g) => !self.groups_used.get(*g as usize).copied().unwrap_or(false),
            Limit::NoFollower => !st.follower_placed_now,
            Limit::NotExtra => !st.in_extra_turn,
        })
    }

    /// Why an action named at the start of `name` is not on offer now.
    fn why_refused(&mut self, st: &mut State, now: Option<Phase>, name: &str) -> R<Option<String>> {
        let word = name.split_whitespace().next().unwrap_or("");
        let prog = self.prog.clone();
        let Some((ai, a)) = prog
            .actions
            .iter()
            .enumerate()
            .find(|(_, a)| a.name == word)
        else {
            return Ok(None);
        };
        let phase_name = |p: Option<Phase>| match p {
            None => "forced".to_string(),
            Some(p) => format!("phase {}", format!("{p:?}").to_lowercase()),
        };
        self.refresh_usage(st);
        for l in &a.limits {
            let refused = match l {
                Limit::PerTurn(n) => (self.used_turn[ai] >= *n).then(|| {
                    format!(
                        "`limit per turn {n}`: already taken {} time(s) this turn",
                        self.used_turn[ai]
                    )
                }),
                Limit::PerRound(n) => {
                    let k = st.current as usize * prog.actions.len() + ai;
                    let used = self.used_round.get(k).copied().unwrap_or(0);
                    (used >= *n).then(|| {
                        format!("`limit per round {n}`: already taken {used} time(s) this round")
                    })
                }
                Limit::Group(g) => self
                    .groups_used
                    .get(*g as usize)
                    .copied()
                    .unwrap_or(false)
                    .then(|| {
                        let group = prog
                            .groups
                            .get(*g as usize)
                            .map(|s| s.as_str())
                            .unwrap_or("?");
                        format!(
                            "`limit group {group}`: an action of that group was taken this turn"
                        )
                    }),
                Limit::NoFollower => st
                    .follower_placed_now
                    .then(|| "`limit no_follower`: a follower was placed this turn".to_string()),
                Limit::NotExtra => st
                    .in_extra_turn
                    .then(|| "`limit not_extra`: this is an extra turn".to_string()),
            };
            if let Some(r) = refused {
                return Ok(Some(format!("action `{word}` is refused by its {r}")));
            }
        }
        if a.phase != now {
            return Ok(Some(format!(
                "action `{word}` is offered in {}, and this decision is not that",
                phase_name(a.phase)
            )));
        }
        if let Some(w) = &a.when {
            self.begin((prog.rules.len() + ai) as u16, st.turn);
            let saved = self.enter(a.body.locals.max(2));
            self.set(0, Value::Player(st.current))?;
            let ok = self.bool(st, w);
            self.leave(saved);
            if !ok? {
                return Ok(Some(format!(
                    "action `{word}`: its `when` condition is false now"
                )));
            }
        }
        let names: Vec<String> = a.choices.iter().map(|c| format!("`{}`", c.name)).collect();
        Ok(Some(format!(
            "action `{word}`: those choices do not meet its `where` conditions (choices: {})",
            names.join(", ")
        )))
    }

    /// Lists the offers of every action of `phase` (`None`: forced actions).
    fn collect(&mut self, st: &mut State, phase: Option<Phase>, out: &mut Vec<Opt>) -> R<()> {
        self.refresh_usage(st);
        self.offers.clear();
        self.offer_vals.clear();
        self.offer_chips.clear();
        let prog = self.prog.clone();
        for (ai, a) in prog.actions.iter().enumerate() {
            if a.phase != phase {
                continue;
            }
            if !self.allowed(st, ai, a) {
                continue;
            }
            self.begin((prog.rules.len() + ai) as u16, st.turn);
            let saved = self.enter(a.body.locals.max(2));
            self.set(0, Value::Player(st.current))?;
            let ok = match &a.when {
                Some(w) => self.bool(st, w)?,
                None => true,
            };
            if ok {
                let mut chosen: Vec<Chosen> = Vec::new();
                self.enumerate(st, ai as u32, a, 0, &mut chosen, out)?;
            }
            self.leave(saved);
        }
        Ok(())
    }

    fn enumerate(
        &mut self,
        st: &mut State,
        ai: u32,
        a: &Action,
        k: usize,
        chosen: &mut Vec<Chosen>,
        out: &mut Vec<Opt>,
    ) -> R<()> {
        let Some(ch) = a.choices.get(k) else {
            let start = self.offer_vals.len() as u32;
            self.offer_vals.extend(chosen.iter().copied());
            self.offers.push(Offer {
                action: ai,
                start,
                len: chosen.len() as u32,
            });
            out.push(Opt::Action((self.offers.len() - 1) as u32));
            return Ok(());
        };
        let from = self.eval(st, &ch.from)?;
        let items = self.elems(from)?;
        match &ch.kind {
            ChoiceKind::One => {
                for item in items {
                    self.tick()?;
                    self.set(ch.slot, item)?;
                    if let Some(f) = &ch.filter {
                        if !self.bool(st, f)? {
                            continue;
                        }
                    }
                    chosen.push(Chosen::Value(item));
                    self.enumerate(st, ai, a, k + 1, chosen, out)?;
                    chosen.pop();
                }
            }
            ChoiceKind::Chips { size } => {
                let (lo, hi) = match size {
                    Some(e) => match self.eval(st, e)? {
                        Value::Range(a, b) => (a.max(0) as usize, b.max(0) as usize),
                        Value::Int(n) => (n.max(0) as usize, n.max(0) as usize),
                        _ => (1, 4),
                    },
                    None => (1, items.len()),
                };
                // Chips of one colour, value and face are interchangeable: choose how many of each kind.
                let mut kinds: Vec<((u8, u8, bool), Vec<u16>)> = Vec::new();
                for v in items {
                    if let Value::Chip(c) = v {
                        let ch = st.chips[c as usize];
                        let key = (ch.colour, ch.value, ch.face_up);
                        match kinds.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, ids)) => ids.push(c),
                            None => kinds.push((key, vec![c])),
                        }
                    }
                }
                kinds.sort();
                let mut counts = vec![0usize; kinds.len()];
                loop {
                    self.tick()?;
                    let total: usize = counts.iter().sum();
                    if total >= lo.max(1) && total <= hi {
                        let ids: Vec<u16> = kinds
                            .iter()
                            .zip(&counts)
                            .flat_map(|((_, ids), &n)| ids[..n].iter().copied())
                            .collect();
                        let list = self.list_of(ids.iter().map(|&c| Value::Chip(c)));
                        self.set(ch.slot, list)?;
                        let pass = match &ch.filter {
                            Some(f) => self.bool(st, f)?,
                            None => true,
                        };
                        if pass {
                            let start = self.offer_chips.len() as u32;
                            self.offer_chips.extend(&ids);
                            chosen.push(Chosen::Chips {
                                start,
                                len: ids.len() as u32,
                            });
                            self.enumerate(st, ai, a, k + 1, chosen, out)?;
                            chosen.pop();
                        }
                    }
                    // Next combination (odometer), bounded by `hi` chips in all.
                    let mut i = 0;
                    loop {
                        if i == counts.len() {
                            return Ok(());
                        }
                        if counts[i] < kinds[i].1.len() && counts.iter().sum::<usize>() < hi {
                            counts[i] += 1;
                            break;
                        }
                        counts[i] = 0;
                        i += 1;
                    }
                }
            }
        }
        Ok(())
    }

    fn run_offer(&mut self, st: &mut State, h: u32) -> R<()> {
        let Some(offer) = self.offers.get(h as usize).cloned() else {
            return Ok(());
        };
        let prog = self.prog.clone();
        let Some(a) = prog.actions.get(offer.action as usize) else {
            return Ok(());
        };
        let ai = offer.action as usize;
        self.refresh_usage(st);
        self.actions_this_turn += 1;
        if self.actions_this_turn > MAX_ACTIONS_PER_TURN {
            self.current = (prog.rules.len() + ai) as u16;
            return Err(self.fail(format!(
                "taken {} times in turn {}: a turn takes at most {MAX_ACTIONS_PER_TURN} actions \
                 (does its condition stay true after it runs?)",
                self.used_turn[ai], st.turn
            )));
        }
        self.used_turn[ai] += 1;
        let k = st.current as usize * prog.actions.len() + ai;
        if let Some(u) = self.used_round.get_mut(k) {
            *u += 1;
        }
        for l in &a.limits {
            if let Limit::Group(g) = l {
                if let Some(x) = self.groups_used.get_mut(*g as usize) {
                    *x = true;
                }
            }
        }
        self.begin((prog.rules.len() + ai) as u16, st.turn);
        let saved = self.enter(a.body.locals.max(2));
        self.set(0, Value::Player(st.current))?;
        for (i, ch) in a.choices.iter().enumerate() {
            let v = match self.offer_vals.get(offer.start as usize + i) {
                Some(Chosen::Value(v)) => *v,
                Some(Chosen::Chips { start, len }) => {
                    let ids: Vec<u16> =
                        self.offer_chips[*start as usize..(*start + *len) as usize].to_vec();
                    self.list_of(ids.into_iter().map(Value::Chip))
                }
                None => Value::Unit,
            };
            self.set(ch.slot, v)?;
        }
        let r = self.exec(st, &a.body.stmts);
        self.leave(saved);
        r
    }

    fn value_name(&self, st: &State, v: Chosen) -> String {
        match v {
            Chosen::Chips { start, len } => {
                let ids = &self.offer_chips[start as usize..(start + len) as usize];
                let parts: Vec<String> = ids
                    .iter()
                    .map(|&c| {
                        let ch = st.chips[c as usize];
                        let col = self
                            .prog
                            .colours
                            .get(ch.colour as usize)
                            .map(|s| s.as_str())
                            .unwrap_or("?");
                        format!("{col}{}", ch.value)
                    })
                    .collect();
                parts.join("+")
            }
            Chosen::Value(v) => match v {
                Value::Square(c) => {
                    let (x, y) = st.board.xy(c);
                    format!("{x},{y}")
                }
                Value::Follower(f) => st.follower_id(f),
                Value::Player(p) => st
                    .players
                    .get(p as usize)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                Value::Stack(s) => match st.tile_stacks.get(s as usize) {
                    Some(k) => {
                        let (x, y) = st.board.xy(k.cell);
                        let top = k
                            .tiles
                            .last()
                            .map(|&t| st.tiles[t as usize].id.as_str())
                            .unwrap_or("-");
                        format!("stack@{x},{y}:{top}")
                    }
                    None => "stack".into(),
                },
                Value::Chip(c) => {
                    let ch = st.chips[c as usize];
                    let col = self
                        .prog
                        .colours
                        .get(ch.colour as usize)
                        .map(|s| s.as_str())
                        .unwrap_or("?");
                    format!("{col}{}", ch.value)
                }
                Value::Int(i) => i.to_string(),
                Value::Str(i) => self.strings.get(i as usize).cloned().unwrap_or_default(),
                Value::Colour(c) => self
                    .prog
                    .colours
                    .get(c as usize)
                    .cloned()
                    .unwrap_or_default(),
                Value::Kind(k) => k.name().to_string(),
                v => format!("{v:?}"),
            },
        }
    }

    /// Runs the setup blocks.
    pub fn run_setup(&mut self, st: &mut State) -> R<()> {
        let prog = self.prog.clone();
        for body in &prog.setup {
            self.begin((self.names.len() - 1) as u16, st.turn);
            let saved = self.enter(body.locals.max(1));
            let r = self.exec(st, &body.stmts);
            self.leave(saved);
            r?;
        }
        Ok(())
    }
}

impl Hooks for Interp {
    fn setup(&mut self, st: &mut State) -> Result<(), GameError> {
        self.seen_turn = u32::MAX;
        self.seen_round = (u32::MAX, 0);
        self.feature_cache = Default::default();
        self.run_setup(st).map_err(|e| *e)
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
        if self.prog.actions.is_empty() {
            return Ok(());
        }
        self.feature_cache = Default::default();
        self.collect(st, Some(phase), out).map_err(|e| *e)
    }

    fn forced(&mut self, st: &mut State, out: &mut Vec<Opt>) -> Result<(), GameError> {
        if !self.prog.actions.iter().any(|a| a.phase.is_none()) {
            return Ok(());
        }
        self.feature_cache = Default::default();
        self.collect(st, None, out).map_err(|e| *e)
    }

    fn run(&mut self, st: &mut State, handle: u32) -> Result<(), GameError> {
        self.feature_cache = Default::default();
        self.run_offer(st, handle).map_err(|e| *e)
    }

    fn action_name(&self, st: &State, handle: u32) -> String {
        let Some(o) = self.offers.get(handle as usize) else {
            return "?".into();
        };
        let mut s = self
            .prog
            .actions
            .get(o.action as usize)
            .map(|a| a.name.clone())
            .unwrap_or_default();
        for i in 0..o.len {
            if let Some(&v) = self.offer_vals.get((o.start + i) as usize) {
                s.push(' ');
                s.push_str(&self.value_name(st, v));
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
}
