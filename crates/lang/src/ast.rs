//! The syntax tree of a rules file, as parsed. Every node carries the byte span of its text.

use std::ops::Range;

pub type Span = Range<usize>;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub kind: ItemKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    Import(StrLit),
    Variant {
        name: StrLit,
        entries: Vec<HeaderEntry>,
    },
    Param(ParamDecl),
    Override {
        name: Ident,
        value: Expr,
    },
    Chips(Vec<ChipEntry>),
    /// `holding NAME ["Title"] [per player]`: a holding area, shared or one per player, with the
    /// title people read ("Title") when it has one.
    Holding {
        name: Ident,
        title: Option<StrLit>,
        per_player: bool,
    },
    /// `state NAME: TYPE …`: a value the rules keep (a counter or a flag), for the game or per player.
    State(StateDecl),
    Setup(Block),
    Rule {
        name: Ident,
        trigger: Ident,
        when: Option<Expr>,
        body: Block,
    },
    Action(ActionDecl),
    /// `remove rule NAME`, `remove action NAME`: the imported definition is no longer in force.
    Remove {
        what: DefKind,
        name: Ident,
    },
    /// `replace rule …`, `replace action …`, `replace forced …`: a whole new definition (a `Rule` or
    /// an `Action`) in place of the imported one of the same name.
    Replace(Box<ItemKind>),
    /// `change rule NAME …`, `change action NAME …`: new parts for the imported definition.
    Change(Change),
}

/// What a house rule names: a rule, or an action (forced ones included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DefKind {
    Rule,
    Action,
}

impl DefKind {
    pub(crate) fn word(self) -> &'static str {
        match self {
            DefKind::Rule => "rule",
            DefKind::Action => "action",
        }
    }
    pub(crate) fn article(self) -> &'static str {
        match self {
            DefKind::Rule => "a",
            DefKind::Action => "an",
        }
    }
}

/// `change rule NAME [when C] [{ … }]` or `change action NAME [phase P] [limit …]* [when C]
/// [choose x: …]* [{ … }]`: each part written replaces that part of the imported definition (a limit
/// replaces the one of its kind, `limit none` drops them all; a choice replaces the one of its name).
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub(crate) what: DefKind,
    pub(crate) name: Ident,
    pub(crate) phase: Option<Ident>,
    pub(crate) limits: Vec<Limit>,
    pub(crate) when: Option<Expr>,
    pub(crate) choices: Vec<Choice>,
    pub body: Option<Block>,
}

impl Change {
    /// Whether it names no part to change.
    pub(crate) fn is_empty(&self) -> bool {
        self.phase.is_none()
            && self.limits.is_empty()
            && self.when.is_none()
            && self.choices.is_empty()
            && self.body.is_none()
    }
}

impl ItemKind {
    /// The kind and name of a rule or action definition (`replace` included).
    pub(crate) fn definition(&self) -> Option<(DefKind, &Ident)> {
        match self {
            ItemKind::Rule { name, .. } => Some((DefKind::Rule, name)),
            ItemKind::Action(a) => Some((DefKind::Action, &a.name)),
            ItemKind::Replace(inner) => inner.definition(),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct StrLit {
    pub value: String,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HeaderEntry {
    pub key: Ident,
    pub value: Expr,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub name: Ident,
    pub ty: TypeExpr,
    pub default: Expr,
    pub doc: Option<StrLit>,
    pub one_of: Option<Expr>,
    /// `in LO..HI` for an int; for a table, the keys it must have (`in 1..4` or `in [1, 2, 4]`).
    pub(crate) range: Option<Expr>,
}

/// `state NAME: TYPE [in RANGE] [= START] [per player] [reset WHEN] ["doc"]`.
#[derive(Clone, Debug, PartialEq)]
pub struct StateDecl {
    pub name: Ident,
    pub ty: TypeExpr,
    pub(crate) range: Option<Expr>,
    /// The value it starts with (and goes back to at each reset); 0 or false when not given.
    pub(crate) start: Option<Expr>,
    /// The word after `per` (checked: `player`).
    pub(crate) per_player: Option<Ident>,
    /// The word after `reset` (checked: `turn`, `round` or `never`).
    pub(crate) reset: Option<Ident>,
    pub doc: Option<StrLit>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeExpr {
    Named(Ident),
    List(Box<TypeExpr>, Span),
}

impl TypeExpr {
    pub(crate) fn span(&self) -> Span {
        match self {
            TypeExpr::Named(i) => i.span.clone(),
            TypeExpr::List(_, s) => s.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChipEntry {
    pub colour: Ident,
    pub value: i64,
    pub count: i64,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ActionDecl {
    /// `forced` rather than `action`.
    pub forced: bool,
    pub name: Ident,
    /// `action NAME(p: type, …)`: an asked action, offered only by `ask` (issue 8, C1).
    pub params: Option<Vec<(Ident, TypeExpr)>>,
    pub phase: Option<Ident>,
    pub limits: Vec<Limit>,
    pub when: Option<Expr>,
    pub choices: Vec<Choice>,
    pub body: Block,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LimitKind {
    /// `per turn N`, `per round N` (the unit is checked, not parsed); N is a number, a parameter or
    /// a parenthesised expression of them.
    Per { unit: Ident, count: Expr },
    /// `group NAME [N]`: at most N (default 1) actions of the group per turn.
    Group(Ident, Option<Expr>),
    /// `no_follower`, `not_extra`, … (checked, not parsed).
    Flag(Ident),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Limit {
    pub kind: LimitKind,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub name: Ident,
    /// `chips from EXPR` (a subset) rather than `EXPR` (one element).
    pub chips: bool,
    pub from: Expr,
    pub size: Option<Expr>,
    pub filter: Option<Expr>,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Let(Ident, Expr),
    /// `if c { } else if c { } else { }`: the branches in order, then the `else`.
    If(Vec<(Expr, Block)>, Option<Block>),
    For(Ident, Expr, Block),
    Call(Ident, Vec<Expr>),
    /// `ask WHO ACTION(ARGS)`: offers an asked action to a player or to each of a set, in turn order.
    Ask {
        who: Expr,
        action: Ident,
        args: Vec<Expr>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

/// Aggregates over a list: `count(x in L where C)`, `sum(x in L: E)`, and `[x in L where C: E]` (Collect).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggOp {
    Count,
    Sum,
    Any,
    All,
    Min,
    Max,
    Distinct,
    /// `sort(x in L where C: key)`: the elements, in ascending order of the key (stable).
    Sort,
    Collect,
}

impl AggOp {
    pub fn name(self) -> &'static str {
        match self {
            AggOp::Count => "count",
            AggOp::Sum => "sum",
            AggOp::Any => "any",
            AggOp::All => "all",
            AggOp::Min => "min",
            AggOp::Max => "max",
            AggOp::Distinct => "distinct",
            AggOp::Sort => "sort",
            AggOp::Collect => "[…]",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Str(String),
    Name(String),
    List(Vec<Expr>),
    Table(Vec<(Expr, Expr)>),
    Range(Box<Expr>, Box<Expr>),
    Field(Box<Expr>, Ident),
    Index(Box<Expr>, Box<Expr>),
    Call(Ident, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`: a value chosen by a condition.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Aggregate {
        op: AggOp,
        var: Ident,
        list: Box<Expr>,
        filter: Option<Box<Expr>>,
        map: Option<Box<Expr>>,
    },
}
