//! The checked program: everything resolved to indices, ready for the interpreter.
//!
//! Conventions for the interpreter:
//! - Locals are slots `0..locals` of the body being run. A rule's trigger bindings take the first slots
//!   (in the order of [`Trigger::binds`]); an action's `player` is slot 0 and its choices the next slots.
//! - `Value::Str` indexes `Program::strings`; `Value::Table` indexes `Program::tables`;
//!   `Value::Colour` indexes `Program::colours`; `Value::Chip` indexes `Program::chips`;
//!   `Value::Holding` indexes `Program::holdings`; `Value::List` is a handle into the interpreter's arena.
//! - A map attribute read (`Expr::Attr`) yields the square's attribute converted to `AttrDef::ty`; when that
//!   is `any` (no map was known when checking), a string naming a chip colour becomes `Value::Colour`, other
//!   strings are interned by the interpreter.
//! - `and`/`or` short-circuit. Aggregates bind `var` to each element, then test `filter`, then evaluate `map`.

use super::ast::{AggOp, BinOp, Span};
use super::builtins::{Builtin, Field, HeaderKey, Phase, Trigger, Ty};
pub use crate::game::At;
use crate::geometry::FeatureKind;

pub(crate) type ParamId = u16;
pub(crate) type Slot = u16;
pub(crate) type RuleId = u32;
pub(crate) type ActionId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    Up,
    Down,
}

/// Where chips can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Supply,
    Aside,
    Box,
    Hand(u8),
    At(u32),
    Slots(u32),
    Under(u16),
    Holding(u16),
    /// A player's own area of a per-player holding (`holding_of(bid, p)`).
    PlayerHolding(u16, u8),
}

/// A runtime value. Copy: lists live in an arena the interpreter owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Unit,
    Int(i64),
    Bool(bool),
    Str(u32),
    Colour(u8),
    Kind(FeatureKind),
    Player(u8),
    /// Bit `i` set: player `i` is in the set.
    Players(u8),
    Chip(u16),
    Square(u32),
    Follower(u16),
    Feature(u32),
    Tile(u32),
    Place(Place),
    Stack(u16),
    Face(Face),
    Table(u32),
    Holding(u16),
    Range(i64, i64),
    List(u32),
    /// A value the rules keep, as a place to set (`set(season, 2)`): its index into
    /// `Program::states`, and its player for one kept per player (`NO_PLAYER` otherwise).
    State(u16, u8),
}

/// The player of a `Value::State` kept for the game, not per player.
pub const NO_PLAYER: u8 = u8::MAX;

/// Where an expression that can fail on its own is written ([`Src::NONE`] for one the checker or an
/// analysis made up), for the errors of a running rule: the interpreter places an error at the
/// innermost expression it comes through that has a place.
///
/// Two expressions that differ only in where they are written are the same expression: a `Src`
/// compares equal to every other, so the analyses that compare expressions see no difference.
#[derive(Clone, Copy, Default)]
pub struct Src(pub Option<At>);

impl Src {
    /// No place: an expression that was not written in a rules file as it stands.
    pub const NONE: Src = Src(None);
}

impl PartialEq for Src {
    fn eq(&self, _: &Src) -> bool {
        true
    }
}

impl std::fmt::Debug for Src {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(at) => write!(f, "@{}:{}..{}", at.file, at.start, at.end),
            None => write!(f, "@-"),
        }
    }
}

/// An expression of the checked program. The kinds that can fail on their own (a field or an
/// attribute read, an index, a call, a negation, an operator, a range, an aggregate) keep where
/// they are written ([`Src`]); the others cannot fail but through a part.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(Value),
    Param(ParamId),
    Local(Slot),
    List(Vec<Expr>),
    Range(Box<Expr>, Box<Expr>, Src),
    Field(Box<Expr>, Field, Src),
    /// A map attribute of a square: index into `Program::attrs`.
    Attr(Box<Expr>, u16, Src),
    /// `table[int]` or `list[int]` (from 0).
    Index(Box<Expr>, Box<Expr>, Src),
    Call(Builtin, Vec<Expr>, Src),
    Not(Box<Expr>),
    Neg(Box<Expr>, Src),
    Binary(BinOp, Box<Expr>, Box<Expr>, Src),
    /// `if c then a else b`: only the value chosen is evaluated.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Aggregate {
        op: AggOp,
        var: Slot,
        list: Box<Expr>,
        filter: Option<Box<Expr>>,
        map: Option<Box<Expr>>,
        at: Src,
    },
    /// A single player used where a set of players is expected.
    ToPlayers(Box<Expr>),
}

impl Expr {
    /// The `and`-joined parts of this condition, left to right.
    pub(crate) fn conjuncts<'a>(&'a self, out: &mut Vec<&'a Expr>) {
        match self {
            Expr::Binary(BinOp::And, a, b, _) => {
                a.conjuncts(out);
                b.conjuncts(out);
            }
            _ => out.push(self),
        }
    }

    /// Where it is written, when it is a kind that can fail on its own and has a place.
    pub(crate) fn src(&self) -> Option<At> {
        match self {
            Expr::Range(_, _, s)
            | Expr::Field(_, _, s)
            | Expr::Attr(_, _, s)
            | Expr::Index(_, _, s)
            | Expr::Call(_, _, s)
            | Expr::Neg(_, s)
            | Expr::Binary(_, _, _, s)
            | Expr::Aggregate { at: s, .. } => s.0,
            _ => None,
        }
    }

    /// Itself written at `at`: the place of a kind that can fail on its own and has none yet (the
    /// checker gives each expression the span of the source text it comes from).
    pub(crate) fn written_at(mut self, at: At) -> Expr {
        if let Expr::Range(_, _, s)
        | Expr::Field(_, _, s)
        | Expr::Attr(_, _, s)
        | Expr::Index(_, _, s)
        | Expr::Call(_, _, s)
        | Expr::Neg(_, s)
        | Expr::Binary(_, _, _, s)
        | Expr::Aggregate { at: s, .. } = &mut self
        {
            s.0 = s.0.or(Some(at));
        }
        self
    }
}

/// Each statement keeps where it is written ([`At`]: the file and the span of the expression or
/// effect that may fail), for the errors of a running rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `let`: the slot, the value, where the value is written.
    Let(Slot, Expr, At),
    /// The branches, the `else`, and where each branch's condition is written.
    If(Vec<(Expr, Vec<Stmt>)>, Option<Vec<Stmt>>, Vec<At>),
    /// `for`: the slot, the list, the body, where the list is written.
    For(Slot, Expr, Vec<Stmt>, At),
    /// An effect, and where its call is written.
    Effect(Builtin, Vec<Expr>, At),
    /// `ask WHO ACTION(ARGS)`: queues a decision of the asked action (index into `Program::actions`)
    /// for a player, or for each player of a set (in turn order from the current player) or a list.
    Ask {
        who: Expr,
        action: ActionId,
        args: Vec<Expr>,
        at: At,
    },
}

/// Where an item came from: index into `Program::files`, and its span there.
#[derive(Clone, Debug, PartialEq)]
pub struct Origin {
    pub file: u16,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParamDef {
    pub name: String,
    pub ty: Ty,
    pub default: Value,
    /// The value in force: the default, an `override`, or `set_param`.
    pub value: Value,
    pub doc: String,
    /// Allowed values, if restricted (`one of [...]`).
    pub one_of: Vec<Value>,
    /// `in …`: the allowed ints, or the keys a table must have.
    pub range: Option<ParamRange>,
    pub(crate) origin: Origin,
}

/// What a parameter allows beyond its type, declared with `in`.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamRange {
    /// An int from the first bound to the second, inclusive. A bound is made of numbers and
    /// parameters (`0..max_x`, `1..(n + 1)`), read with the values in force; the text as written.
    Ints(Expr, Expr, String),
    /// A table that has (at least) these keys.
    Keys(Vec<i64>),
}

impl ParamRange {
    /// The bounds of an int range with the parameters' values in force (`None`: not an int range,
    /// or a bound that cannot be computed, such as an overflow).
    pub(crate) fn bounds(&self, prog: &Program) -> Option<(i64, i64)> {
        match self {
            ParamRange::Ints(lo, hi, _) => Some((prog.limit_count(lo)?, prog.limit_count(hi)?)),
            ParamRange::Keys(_) => None,
        }
    }

    /// Whether a bound reads a parameter (so the range moves when parameters are set).
    pub(crate) fn reads_params(&self) -> bool {
        fn reads(e: &Expr) -> bool {
            match e {
                Expr::Param(_) => true,
                Expr::Neg(x, _) => reads(x),
                Expr::Binary(_, a, b, _) => reads(a) || reads(b),
                _ => false,
            }
        }
        matches!(self, ParamRange::Ints(lo, hi, _) if reads(lo) || reads(hi))
    }

    /// Why `v` is refused, or `None` when it is allowed (bounds read with the values in force).
    pub(crate) fn refuses(&self, v: Value, prog: &Program) -> Option<String> {
        match (self, v) {
            (ParamRange::Ints(_, _, text), Value::Int(i)) => {
                let Some((lo, hi)) = self.bounds(prog) else {
                    return Some(format!("has a range `{text}` that cannot be computed"));
                };
                if lo > hi {
                    return Some(format!("has an empty range: `{text}` is {lo}..{hi}"));
                }
                let written = if *text == format!("{lo}..{hi}") {
                    String::new()
                } else {
                    format!(" (`{text}`)")
                };
                (i < lo || i > hi)
                    .then(|| format!("takes values from {lo} to {hi}{written}, not {i}"))
            }
            (ParamRange::Keys(keys), Value::Table(t)) => {
                let have = prog.tables.get(t as usize)?;
                let missing: Vec<String> = keys
                    .iter()
                    .filter(|k| !have.iter().any(|(hk, _)| hk == *k))
                    .map(|k| k.to_string())
                    .collect();
                (!missing.is_empty()).then(|| {
                    let all: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                    format!(
                        "must be a table with the keys {}: {} {} missing",
                        all.join(", "),
                        missing.join(", "),
                        if missing.len() == 1 { "is" } else { "are" }
                    )
                })
            }
            _ => None,
        }
    }

    /// `in …` as written.
    pub fn text(&self) -> String {
        match self {
            ParamRange::Ints(_, _, text) => text.clone(),
            ParamRange::Keys(keys) => {
                let k: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                format!("[{}]", k.join(", "))
            }
        }
    }
}

/// A value the rules keep (`state NAME: TYPE …`): a counter (int) or a flag (bool), for the game
/// or one per player, with its allowed values, its start and when it goes back to it.
#[derive(Clone, Debug, PartialEq)]
pub struct StateDef {
    pub name: String,
    /// `int` or `bool`.
    pub ty: Ty,
    /// An int's allowed values (`in LO..HI`), bounds read with the parameters in force; `None`:
    /// any int.
    pub range: Option<ParamRange>,
    /// Its start value (a bool as 0 or 1).
    pub start: i64,
    pub per_player: bool,
    pub reset: crate::counters::Reset,
    pub doc: String,
    pub origin: Origin,
}

impl StateDef {
    /// A value of it, as the rules read it.
    pub(crate) fn value(&self, v: i64) -> Value {
        if self.ty == Ty::BOOL {
            Value::Bool(v != 0)
        } else {
            Value::Int(v)
        }
    }

    /// Its range in force (`None`: any int; a bool has none).
    pub fn bounds(&self, prog: &Program) -> Option<(i64, i64)> {
        self.range.as_ref().and_then(|r| r.bounds(prog))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChipDef {
    pub(crate) colour: u8,
    pub(crate) value: i64,
}

/// An attribute read `x.NAME` that is no builtin field: of a square (the map's), of a tile or of a
/// feature (the tile sets').
#[derive(Clone, Debug, PartialEq)]
pub struct AttrDef {
    pub name: String,
    /// The type of the read (`feature.inn` of a bool attribute counts tiles: an int).
    pub ty: Ty,
    /// What it is read from, and for tiles and features the tile sets' values.
    pub of: AttrOf,
}

/// What an attribute is read from.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrOf {
    /// A map attribute of a square (values in the interpreter's map memo).
    Square,
    /// A tile set's attribute read on a tile (`turn_tile().inn`) or a feature (`feature.goods`).
    Tiles { feature: bool, values: TileAttr },
}

/// A tile set's attribute as the rules read it: its type, whether it is written on segments (else
/// on tiles), and its value on each tile type of the game (in play order: the header's sets, each
/// in file order): one value for a tile's own attribute, one per segment for a segment attribute
/// (the type's default where the tile gives none: false, 0, "").
#[derive(Clone, Debug, PartialEq)]
pub struct TileAttr {
    pub ty: crate::tiles::AttrType,
    pub segment: bool,
    pub values: Vec<Vec<Value>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MapRef {
    Unbounded,
    Named(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct HeaderEntry {
    pub key: HeaderKey,
    pub value: Expr,
    pub(crate) origin: Origin,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Header {
    /// The name after `variant` in the file that was checked (or the last import that had one).
    pub name: String,
    pub map: Option<MapRef>,
    /// Each key at most once; the importing file's entry wins.
    pub entries: Vec<HeaderEntry>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    pub stmts: Vec<Stmt>,
    /// Number of local slots the body needs.
    pub(crate) locals: u16,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub name: String,
    pub trigger: Trigger,
    pub when: Option<Expr>,
    /// Where `when` is written (for the errors of a running rule).
    pub(crate) when_at: At,
    pub body: Body,
    pub origin: Origin,
    /// The house rules (`change rule …`) applied to the definition at `origin`, in order.
    pub changes: Vec<Origin>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Limit {
    /// The count: constants and parameters only (`LimitCount`), read when offering.
    PerTurn(Expr),
    PerRound(Expr),
    /// At most N (default 1) actions of the group per turn: index into `Program::groups`.
    Group(u16, Option<Expr>),
    NoFollower,
    NotExtra,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ChoiceKind {
    /// A subset of chips from a `list<chip>`; size bounds inclusive. `filter` sees the chosen list in `slot`.
    Chips { size: Option<Expr> },
    /// One element of a list; `filter` sees the element in `slot`.
    One,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Choice {
    pub name: String,
    pub(crate) slot: Slot,
    pub(crate) kind: ChoiceKind,
    pub from: Expr,
    pub filter: Option<Expr>,
    pub(crate) ty: Ty,
    /// Where the choice is written (for the errors of listing its options).
    pub(crate) at: At,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub name: String,
    /// `None` for a `forced` action; `Phase::Asked` for an action offered only by `ask`.
    pub phase: Option<Phase>,
    /// An asked action's parameters: slots `1..=params`, after `player`, before the choices.
    pub(crate) params: u16,
    pub limits: Vec<Limit>,
    pub(crate) when: Option<Expr>,
    /// Where `when` is written (for the errors of a running action).
    pub(crate) when_at: At,
    /// The source text of each `and`-joined part of `when`, to say which part refuses the action.
    pub(crate) when_text: Vec<String>,
    pub(crate) choices: Vec<Choice>,
    /// Slot 0 is `player` (the deciding player); parameters, then choices follow.
    pub body: Body,
    pub origin: Origin,
    /// The house rules (`change action …`) applied to the definition at `origin`, in order.
    pub changes: Vec<Origin>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// Names of the files the program was built from, in load order (`Origin::file` indexes this).
    pub files: Vec<String>,
    pub header: Header,
    pub params: Vec<ParamDef>,
    pub strings: Vec<String>,
    pub tables: Vec<Vec<(i64, i64)>>,
    pub colours: Vec<String>,
    /// Every chip, by id.
    pub chips: Vec<ChipDef>,
    pub holdings: Vec<String>,
    /// Each holding area's title (`holding NAME "Title"`), if it has one: what pages and
    /// boards call it (the log keeps the name).
    pub holding_titles: Vec<Option<String>>,
    /// Whether each holding area is one per player (`holding bid per player`).
    pub holdings_per_player: Vec<bool>,
    /// The values the rules keep (`state NAME …`), in declaration order (imports first).
    pub states: Vec<StateDef>,
    pub(crate) groups: Vec<String>,
    pub attrs: Vec<AttrDef>,
    /// Each tile type's id and name (strings), in play order (`tile.id`, `tile.name`); empty when the
    /// checker could not read the tile sets.
    pub tile_names: Vec<(Value, Value)>,
    /// Setup blocks, imports first.
    pub(crate) setup: Vec<Body>,
    pub rules: Vec<Rule>,
    /// Rules per trigger, indexed by `Trigger as usize`, in source order.
    pub(crate) by_trigger: Vec<Vec<RuleId>>,
    pub actions: Vec<Action>,
    /// The actions a house rule removed (`remove action NAME`), with where it removes each: a script
    /// that names one is told so.
    pub removed_actions: Vec<(String, Origin)>,
}

impl Program {
    pub fn rules_for(&self, t: Trigger) -> &[RuleId] {
        self.by_trigger
            .get(t as usize)
            .map_or(&[], |v| v.as_slice())
    }

    /// The value of a limit's count: a constant, a parameter (its value in force) or arithmetic of
    /// them; `None` for anything else (the checker refuses it) or on overflow.
    pub fn limit_count(&self, e: &Expr) -> Option<i64> {
        match e {
            Expr::Const(Value::Int(i)) => Some(*i),
            Expr::Param(p) => match self.params.get(*p as usize)?.value {
                Value::Int(i) => Some(i),
                _ => None,
            },
            Expr::Neg(x, _) => self.limit_count(x)?.checked_neg(),
            Expr::Binary(op, a, b, _) => {
                let (a, b) = (self.limit_count(a)?, self.limit_count(b)?);
                match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div => a.checked_div(b),
                    BinOp::Rem => a.checked_rem(b),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub fn param_index(&self, name: &str) -> Option<ParamId> {
        self.params
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as ParamId)
    }

    pub(crate) fn intern(&mut self, s: &str) -> u32 {
        match self.strings.iter().position(|x| x == s) {
            Some(i) => i as u32,
            None => {
                self.strings.push(s.to_string());
                (self.strings.len() - 1) as u32
            }
        }
    }
}
