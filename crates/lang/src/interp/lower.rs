//! Lowering: before play, the checked program (`ir::Expr` trees and statements) is lowered once to a
//! flat plan addressed by ids: value nodes ([`Code`], by [`CodeId`]), condition nodes ([`Test`], by
//! [`TestId`]) and statements ([`Op`], in blocks), each in one arena of the [`Plan`], their children
//! as ids or ranges of ids into side tables. One executor (`exec.rs`) runs it.
//!
//! The special shapes that pay are chosen here, in one place (see "Patterns" below): operands read in
//! place (constants, parameters, locals, a local's field), `len(x.chips)` and `len(chips(place))` from
//! the counts the state keeps, `contains(list, x)`, a local square's flags and `and` chains led by
//! tests of one local square, a comparison of a number read in place with a constant, and static
//! aggregates (a memo slot id, found once: see `analysis::statics::static_aggregates`).
//!
//! The operation budget: a value node counts one operation each time it is evaluated (a local's
//! field two); a condition counts one operation when it is tested on its own (`root`: not as part
//! of a `not`/`and`/`or` of another), whatever its shape, and the value nodes inside it that are not
//! read in place count as they do everywhere. A condition is a finite tree, and every loop
//! (aggregates, choices, `for`) counts its rounds, so the budget still bounds every rules file.
//!
//! Errors' places: beside the nodes (not in them: they are the hot path), `Plan::code_at` and
//! `Plan::test_at` keep where each node fails on its own (see "Where a node fails" below), and
//! `op_at`/`branch_at` where each statement and branch condition is written; the executor reads
//! them only when an error comes through.

use super::board::SquareFlag;
use crate::ast::{AggOp, BinOp};
use crate::builtins::{Builtin, Field, PlaceKind, ReadField, Role, Run, MAX_PARAMS};
use crate::ir::{At, ChoiceKind, Expr, Program, Slot, Stmt, Value};

/// A value node of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CodeId(pub u32);

/// A condition node of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TestId(pub u32);

/// A range of a side table of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Span {
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// A builtin query's implementation (its row in `builtins!`).
pub(super) type QueryFn = fn(&mut super::Cx, &[Value; MAX_PARAMS]) -> crate::builtins::Ran<Value>;

/// An operand of a value node: a local, a parameter or a constant is read in place (one
/// operation, as its own node would count), anything else is a node of its own.
#[derive(Clone, Copy)]
pub(super) enum Arg {
    Local(u16),
    Param(u16),
    /// Index into `Plan::consts`.
    Const(u32),
    Node(CodeId),
}

/// A value node: evaluates to a [`Value`].
#[derive(Clone, Copy)]
pub(super) enum Code {
    Local(u16),
    Param(u16),
    /// Index into `Plan::consts`.
    Const(u32),
    /// `x.f` for a local `x`: the local read in place (two operations).
    LocalField(u16, ReadField),
    Field(Arg, ReadField),
    /// A condition used as a value (`not`, `and`, `or`).
    Truth(TestId),
    /// An operator other than `and`/`or`.
    Binary(BinOp, Arg, Arg),
    /// `contains(list, x)`, without the general dispatch.
    Contains(Arg, Arg),
    /// `len(x.chips)`: the count the state keeps.
    SquareChipCount(Arg),
    /// `len(chips(place))`: the count the state keeps.
    PlaceChipCount(Arg),
    /// A query builtin on no argument, on one, or on more (a span of `Plan::args`).
    Query0(QueryFn),
    Query1(QueryFn, Arg),
    Query2(QueryFn, Arg, Arg),
    Query(QueryFn, Span),
    /// An effect used as an expression: it does its work and gives nothing.
    Call(Builtin, Span),
    /// Index into `Plan::aggs`.
    Aggregate(u32),
    List(Span),
    Range(Arg, Arg),
    Attr(Arg, u16),
    Index(Arg, Arg),
    Neg(Arg),
    ToPlayers(Arg),
    /// `if c then a else b`: the condition, then the value chosen.
    Cond(TestId, Arg, Arg),
}

/// An aggregate: its list, its `where` (a condition tested on its own), its `: map`, and its memo
/// slot when it is static.
#[derive(Clone, Copy)]
pub(super) struct Agg {
    pub(crate) op: AggOp,
    pub(crate) var: Slot,
    pub(crate) list: Arg,
    pub(crate) filter: Option<TestId>,
    pub(crate) map: Option<Arg>,
    pub(crate) memo: Option<u32>,
}

/// An operand of a comparison, read in place when it is a simple one.
#[derive(Clone, Copy)]
pub(super) enum Operand {
    /// Index into `Plan::consts`.
    Const(u32),
    /// A constant number (compared with a number read in place).
    Int(i64),
    Param(u16),
    Local(u16),
    LocalField(u16, Field),
    /// `len(x.chips)` for a local `x`: the count the state keeps, no list built.
    LocalChips(u16),
    /// `len(chips(hand(x)))` or `len(chips(at(x)))` for a local `x` (the kind of place),
    /// counted like `LocalChips`; the value node for a value that names no such place.
    PlaceChips(PlaceKind, u16, CodeId),
    Code(CodeId),
}

impl Operand {
    /// Whether the operand is a number read in place (compared with a constant without a value of
    /// its own).
    fn counted(&self) -> bool {
        matches!(
            self,
            Operand::LocalChips(_) | Operand::PlaceChips(..) | Operand::LocalField(..)
        )
    }
}

/// A test of a square read in place, with no value made: a flag (`s.covered`, `not s.land`) or the
/// count of its chips against a constant (`len(s.chips) == 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Atom {
    /// The flag, and whether it is negated.
    Flag(SquareFlag, bool),
    /// `len(s.chips) OP k`.
    Chips(BinOp, i64),
}

/// An `and` chain led by square tests of one local: the local, the tests (a span of
/// `Plan::atoms`), the parts after them (a span of `Plan::parts`), and the chain as written (its two
/// sides) for a value that is no square.
#[derive(Clone, Copy)]
pub(super) struct SquareChain {
    pub(crate) slot: u16,
    pub(crate) atoms: Span,
    pub(crate) rest: Span,
    pub(crate) written: (TestId, TestId),
}

/// A condition node: gives a truth value.
#[derive(Clone, Copy)]
pub(super) enum Test {
    Const(bool),
    /// `x.f` (or `not x.f`) for a local `x` and a square flag `f`.
    Flag {
        slot: u16,
        field: Field,
        flag: SquareFlag,
        negate: bool,
    },
    Not(TestId),
    /// Index into `Plan::chains`.
    SquareChain(u32),
    And(TestId, TestId),
    Or(TestId, TestId),
    /// A comparison of two operands read as values: index into `Plan::compares`.
    Compare(u32),
    /// A number read in place against a constant: index into `Plan::againsts`.
    Against(u32),
    Local(u16),
    LocalField(u16, Field),
    LocalAttr(u16, u16),
    /// Any other expression: its value, which must be true or false.
    Value(CodeId),
}

/// `a OP k` (`k OP a` when `swapped`), `a` a number read in place.
#[derive(Clone, Copy)]
pub(super) struct Against {
    pub(crate) op: BinOp,
    pub(crate) a: Operand,
    pub(crate) k: i64,
    pub(crate) swapped: bool,
}

/// A statement of a lowered body.
#[derive(Clone, Copy)]
pub(super) enum Op {
    Let(Slot, Arg),
    /// Branches: a span of `Plan::branches`; the `else` block.
    If(Span, Option<Span>),
    For(Slot, Arg, Span),
    /// An effect on at most 4 arguments (a span of `Plan::args`).
    Effect(Builtin, Span),
    Ask {
        who: Arg,
        action: u32,
        args: Span,
    },
}

/// The lowered program: every node in its arena, and where each part of the program starts.
#[derive(Default)]
pub(super) struct Plan {
    pub(crate) codes: Vec<Code>,
    pub(crate) tests: Vec<(Test, bool)>,
    pub(crate) consts: Vec<Value>,
    pub(crate) args: Vec<Arg>,
    pub(crate) parts: Vec<TestId>,
    pub(crate) aggs: Vec<Agg>,
    pub(crate) atoms: Vec<Atom>,
    pub(crate) chains: Vec<SquareChain>,
    pub(crate) compares: Vec<(BinOp, Operand, Operand)>,
    /// Where each operand of `compares` that is read in place fails (a local's field, a count):
    /// read on the error path only.
    pub(crate) compare_at: Vec<[Option<At>; 2]>,
    pub(crate) againsts: Vec<Against>,
    /// Where each value node of `codes` and each condition node of `tests` fails, when it can
    /// fail on its own (the expression it was lowered from: see `fails_at`): read on the error
    /// path only (`exec.rs`), the innermost place an error comes through wins.
    pub(crate) code_at: Vec<Option<At>>,
    pub(crate) test_at: Vec<Option<At>>,
    /// Statements; a block is a span of them.
    pub(crate) ops: Vec<Op>,
    /// Where each statement of `ops` is written (for the errors of a running rule).
    pub(crate) op_at: Vec<At>,
    /// The branches of `if`s: a condition and its block.
    pub(crate) branches: Vec<(TestId, Span)>,
    /// Where the condition of each branch of `branches` is written.
    pub(crate) branch_at: Vec<At>,
    pub(crate) rule_when: Vec<Option<TestId>>,
    pub(crate) action_when: Vec<Option<TestId>>,
    /// Per action, per choice: the list it chooses from, its `where`, and the `size` of a
    /// chip-subset choice.
    pub(crate) choice_from: Vec<Vec<CodeId>>,
    pub(crate) choice_filter: Vec<Vec<Option<TestId>>>,
    pub(crate) choice_size: Vec<Vec<Option<CodeId>>>,
    /// The setup blocks and the bodies of rules and actions.
    pub(crate) setup: Vec<Span>,
    pub(crate) rules: Vec<Span>,
    pub(crate) actions: Vec<Span>,
    /// Per node, the expression it was lowered from, kept while the oracle is on (`oracle.rs`).
    #[cfg(any(test, feature = "oracle"))]
    pub(crate) oracle: super::oracle::Sources,
}

/// Builds a [`Plan`]; `statics` are the addresses of the program's static aggregates, sorted (see
/// `analysis::statics::static_aggregates`): an aggregate found there gets that memo slot.
pub(super) struct Lower<'a> {
    statics: &'a [usize],
    pub(crate) plan: Plan,
    /// Whether each node keeps the expression it was lowered from (the oracle is on).
    #[cfg(any(test, feature = "oracle"))]
    keep: bool,
}

/// Lowers the whole program.
pub(super) fn lower_program<'a>(prog: &Program, statics: &'a [usize]) -> Lower<'a> {
    let mut lw = Lower::new(statics);
    let rule_when = prog
        .rules
        .iter()
        .map(|r| r.when.as_ref().map(|w| lw.test(w, true)))
        .collect();
    let action_when = prog
        .actions
        .iter()
        .map(|a| a.when.as_ref().map(|w| lw.test(w, true)))
        .collect();
    let mut choice_from = Vec::new();
    let mut choice_filter = Vec::new();
    let mut choice_size = Vec::new();
    for a in &prog.actions {
        choice_from.push(a.choices.iter().map(|ch| lw.code(&ch.from)).collect());
        choice_filter.push(
            a.choices
                .iter()
                .map(|ch| ch.filter.as_ref().map(|f| lw.test(f, true)))
                .collect(),
        );
        choice_size.push(
            a.choices
                .iter()
                .map(|ch| match &ch.kind {
                    ChoiceKind::Chips { size } => size.as_ref().map(|s| lw.code(s)),
                    ChoiceKind::One => None,
                })
                .collect(),
        );
    }
    let setup = prog.setup.iter().map(|b| lw.block(&b.stmts)).collect();
    let rules = prog.rules.iter().map(|r| lw.block(&r.body.stmts)).collect();
    let actions = prog
        .actions
        .iter()
        .map(|a| lw.block(&a.body.stmts))
        .collect();
    let p = &mut lw.plan;
    p.rule_when = rule_when;
    p.action_when = action_when;
    p.choice_from = choice_from;
    p.choice_filter = choice_filter;
    p.choice_size = choice_size;
    p.setup = setup;
    p.rules = rules;
    p.actions = actions;
    lw
}

impl<'a> Lower<'a> {
    pub(crate) fn new(statics: &'a [usize]) -> Lower<'a> {
        Lower {
            statics,
            plan: Plan::default(),
            #[cfg(any(test, feature = "oracle"))]
            keep: super::oracle::enabled(),
        }
    }

    /// A value node lowered from `_e`.
    fn push(&mut self, c: Code, _e: &Expr) -> CodeId {
        self.plan.code_at.push(code_fails_at(&c, _e));
        self.plan.codes.push(c);
        #[cfg(any(test, feature = "oracle"))]
        if self.keep {
            let n = self.plan.codes.len();
            self.plan.oracle.codes.resize(n - 1, None);
            self.plan.oracle.codes.push(Some(_e.clone()));
        }
        CodeId(self.plan.codes.len() as u32 - 1)
    }

    /// A condition node lowered from `_e`.
    fn push_test(&mut self, t: Test, root: bool, _e: &Expr) -> TestId {
        self.plan.test_at.push(test_fails_at(&t, _e));
        self.plan.tests.push((t, root));
        #[cfg(any(test, feature = "oracle"))]
        if self.keep {
            let n = self.plan.tests.len();
            self.plan.oracle.tests.resize(n - 1, None);
            self.plan.oracle.tests.push(Some(_e.clone()));
        }
        TestId(self.plan.tests.len() as u32 - 1)
    }

    /// An operand: read in place when it is a local, a parameter or a constant.
    pub(crate) fn arg(&mut self, e: &Expr) -> Arg {
        match e {
            &Expr::Local(s) => Arg::Local(s),
            &Expr::Param(p) => Arg::Param(p),
            &Expr::Const(v) => {
                self.plan.consts.push(v);
                Arg::Const(self.plan.consts.len() as u32 - 1)
            }
            e => Arg::Node(self.code(e)),
        }
    }

    /// The operands `items`, as a span of `Plan::args`.
    fn args<'e>(&mut self, items: impl IntoIterator<Item = &'e Expr>) -> Span {
        let ids: Vec<Arg> = items.into_iter().map(|x| self.arg(x)).collect();
        span_of(&mut self.plan.args, &ids)
    }

    /// Lowers one expression to a value node.
    pub(crate) fn code(&mut self, e: &Expr) -> CodeId {
        let c = match e {
            &Expr::Local(s) => Code::Local(s),
            &Expr::Param(p) => Code::Param(p),
            &Expr::Const(v) => {
                self.plan.consts.push(v);
                Code::Const(self.plan.consts.len() as u32 - 1)
            }
            Expr::Field(x, f, _) => match x.as_ref() {
                &Expr::Local(s) => Code::LocalField(s, f.read()),
                x => Code::Field(self.arg(x), f.read()),
            },
            Expr::Not(_) | Expr::Binary(BinOp::And | BinOp::Or, _, _, _) => {
                Code::Truth(self.test(e, true))
            }
            Expr::Binary(op, a, b, _) => Code::Binary(*op, self.arg(a), self.arg(b)),
            Expr::Call(b, args, _) => self.call(*b, args),
            Expr::Aggregate {
                op,
                var,
                list,
                filter,
                map,
                ..
            } => {
                let list = self.arg(list);
                let filter = filter.as_deref().map(|f| self.test(f, true));
                let map = map.as_deref().map(|m| self.arg(m));
                let memo = self
                    .statics
                    .binary_search(&(e as *const Expr as usize))
                    .ok()
                    .map(|i| i as u32);
                self.plan.aggs.push(Agg {
                    op: *op,
                    var: *var,
                    list,
                    filter,
                    map,
                    memo,
                });
                Code::Aggregate(self.plan.aggs.len() as u32 - 1)
            }
            Expr::List(items) => Code::List(self.args(items)),
            Expr::Range(a, b, _) => Code::Range(self.arg(a), self.arg(b)),
            Expr::Attr(x, a, _) => Code::Attr(self.arg(x), *a),
            Expr::Index(x, i, _) => Code::Index(self.arg(x), self.arg(i)),
            Expr::Neg(x, _) => Code::Neg(self.arg(x)),
            Expr::ToPlayers(x) => Code::ToPlayers(self.arg(x)),
            Expr::If(c, a, b) => Code::Cond(self.test(c, true), self.arg(a), self.arg(b)),
        };
        self.push(c, e)
    }

    /// A builtin call, through the patterns that pay.
    fn call(&mut self, b: Builtin, args: &[Expr]) -> Code {
        if let (Role::Member, [l, x]) = (b.role(), args) {
            return Code::Contains(self.arg(l), self.arg(x));
        }
        match chip_count(b, args) {
            Some(Count::Square(x)) => return Code::SquareChipCount(self.arg(x)),
            Some(Count::Place(p)) => return Code::PlaceChipCount(self.arg(p)),
            None => {}
        }
        match (b.run(), args) {
            (Run::Query(q), []) => Code::Query0(q),
            (Run::Query(q), [x]) => Code::Query1(q, self.arg(x)),
            (Run::Query(q), [x, y]) => Code::Query2(q, self.arg(x), self.arg(y)),
            // No row takes more than `MAX_PARAMS` (the table refuses it), nor a call more than
            // its row (the checker refuses it).
            (Run::Query(q), _) => Code::Query(q, self.args(args.iter().take(MAX_PARAMS))),
            (Run::Effect(_), _) => Code::Call(b, self.args(args.iter().take(MAX_PARAMS))),
        }
    }

    /// Lowers a condition; `root`: tested on its own (not inside `not`/`and`/`or` of another), so
    /// it counts the operation.
    pub(crate) fn test(&mut self, e: &Expr, root: bool) -> TestId {
        let t = match e {
            &Expr::Const(Value::Bool(b)) => Test::Const(b),
            Expr::Not(x) => match local_flag(x) {
                Some((slot, field, flag)) => Test::Flag {
                    slot,
                    field,
                    flag,
                    negate: true,
                },
                None => Test::Not(self.test(x, false)),
            },
            Expr::Binary(BinOp::And, a, b, _) => match leading_atoms(e) {
                Some((slot, atoms, rest)) => {
                    let rest: Vec<TestId> = rest.into_iter().map(|x| self.test(x, false)).collect();
                    let written = (self.test(a, false), self.test(b, false));
                    let atoms = span_of(&mut self.plan.atoms, &atoms);
                    let rest = span_of(&mut self.plan.parts, &rest);
                    self.plan.chains.push(SquareChain {
                        slot,
                        atoms,
                        rest,
                        written,
                    });
                    Test::SquareChain(self.plan.chains.len() as u32 - 1)
                }
                None => Test::And(self.test(a, false), self.test(b, false)),
            },
            Expr::Binary(BinOp::Or, a, b, _) => Test::Or(self.test(a, false), self.test(b, false)),
            Expr::Binary(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
                _,
            ) => {
                let at = [in_place_at(a), in_place_at(b)];
                let (a, b) = (self.operand(a), self.operand(b));
                self.compare(*op, a, b, at)
            }
            &Expr::Local(s) => Test::Local(s),
            Expr::Field(x, f, _) => match (local_flag(e), x.as_ref()) {
                (Some((slot, field, flag)), _) => Test::Flag {
                    slot,
                    field,
                    flag,
                    negate: false,
                },
                (None, &Expr::Local(s)) => Test::LocalField(s, *f),
                _ => Test::Value(self.code(e)),
            },
            Expr::Attr(x, a, _) => match x.as_ref() {
                &Expr::Local(s) => Test::LocalAttr(s, *a),
                _ => Test::Value(self.code(e)),
            },
            _ => Test::Value(self.code(e)),
        };
        self.push_test(t, root, e)
    }

    fn operand(&mut self, e: &Expr) -> Operand {
        match e {
            &Expr::Const(Value::Int(k)) => Operand::Int(k),
            &Expr::Const(v) => {
                self.plan.consts.push(v);
                Operand::Const(self.plan.consts.len() as u32 - 1)
            }
            &Expr::Param(p) => Operand::Param(p),
            &Expr::Local(s) => Operand::Local(s),
            Expr::Field(x, f, _) => match x.as_ref() {
                &Expr::Local(s) => Operand::LocalField(s, *f),
                _ => Operand::Code(self.code(e)),
            },
            Expr::Call(b, args, _) => match (chip_count(*b, args), local_place(*b, args)) {
                (Some(Count::Square(&Expr::Local(s))), _) => Operand::LocalChips(s),
                (_, Some((place, s))) => Operand::PlaceChips(place, s, self.code(e)),
                _ => Operand::Code(self.code(e)),
            },
            _ => Operand::Code(self.code(e)),
        }
    }

    /// `a OP b` for a comparison operator: a number read in place against a constant number
    /// (`len(s.chips) == 0`, `0 < x.value`) compared without making values.
    /// `at`: where each operand fails when it is read in place (see `Plan::compare_at`).
    fn compare(&mut self, op: BinOp, a: Operand, b: Operand, at: [Option<At>; 2]) -> Test {
        let against = match (a, b) {
            (a, Operand::Int(k)) if a.counted() => Some(Against {
                op,
                a,
                k,
                swapped: false,
            }),
            (Operand::Int(k), b) if b.counted() => Some(Against {
                op,
                a: b,
                k,
                swapped: true,
            }),
            _ => None,
        };
        match against {
            Some(x) => {
                self.plan.againsts.push(x);
                Test::Against(self.plan.againsts.len() as u32 - 1)
            }
            None => {
                self.plan.compares.push((op, a, b));
                self.plan.compare_at.push(at);
                Test::Compare(self.plan.compares.len() as u32 - 1)
            }
        }
    }

    /// Lowers statements to a block (a span of `Plan::ops`, and of `Plan::op_at` beside it).
    fn block(&mut self, stmts: &[Stmt]) -> Span {
        let (ops, at): (Vec<Op>, Vec<At>) = stmts.iter().map(|s| self.stmt(s)).unzip();
        span_of(&mut self.plan.op_at, &at);
        span_of(&mut self.plan.ops, &ops)
    }

    /// A statement lowered, and where it is written.
    fn stmt(&mut self, s: &Stmt) -> (Op, At) {
        match s {
            Stmt::Let(slot, x, at) => (Op::Let(*slot, self.arg(x)), *at),
            Stmt::If(branches, otherwise, at) => {
                let bs: Vec<(TestId, Span)> = branches
                    .iter()
                    .map(|(c, b)| (self.test(c, true), self.block(b)))
                    .collect();
                let otherwise = otherwise.as_deref().map(|b| self.block(b));
                span_of(&mut self.plan.branch_at, at);
                let first = at.first().copied().unwrap_or_default();
                (
                    Op::If(span_of(&mut self.plan.branches, &bs), otherwise),
                    first,
                )
            }
            Stmt::For(slot, x, body, at) => (Op::For(*slot, self.arg(x), self.block(body)), *at),
            Stmt::Effect(b, args, at) => {
                (Op::Effect(*b, self.args(args.iter().take(MAX_PARAMS))), *at)
            }
            Stmt::Ask {
                who,
                action,
                args,
                at,
            } => (
                Op::Ask {
                    who: self.arg(who),
                    action: *action,
                    args: self.args(args),
                },
                *at,
            ),
        }
    }
}

/// Appends `items` to a side table of the plan: their span there. Items are lowered into a list
/// first (lowering one may append to the same table), then appended together.
fn span_of<T: Copy>(table: &mut Vec<T>, items: &[T]) -> Span {
    let start = table.len() as u32;
    table.extend_from_slice(items);
    Span {
        start,
        len: items.len() as u32,
    }
}

// Where a node fails: what an error of a running rule points at.

/// Where value node `c`, lowered from `e`, fails on its own (see [`read_at`]). A node that cannot
/// fail but through a node of its own (a condition as a value, `if`, a list, a local) has no place.
fn code_fails_at(c: &Code, e: &Expr) -> Option<At> {
    match c {
        Code::Truth(_) | Code::Cond(..) | Code::List(_) | Code::ToPlayers(_) => None,
        _ => read_at(e),
    }
}

/// Where condition node `t`, lowered from `e`, fails on its own: a field or an attribute read in
/// place (`x.f`, `not x.f`), a comparison (an operand read in place has its own place:
/// `Plan::compare_at`), a number read in place against a constant (at the number). The others
/// fail only through a node of their own, which places the error itself.
fn test_fails_at(t: &Test, e: &Expr) -> Option<At> {
    match (t, e) {
        (Test::Flag { .. }, Expr::Not(x)) => x.src(),
        (Test::Flag { .. } | Test::LocalField(..) | Test::LocalAttr(..) | Test::Compare(_), _) => {
            e.src()
        }
        (Test::Against(_), Expr::Binary(_, a, b, _)) => {
            read_at(if read_in_place(a) { a } else { b })
        }
        _ => None,
    }
}

/// Where `e` fails on its own: where it is written, or for a count read from the state
/// (`len(x.chips)`, `len(chips(p))`) where the read it stands for is (the field or the call that
/// fails on a value with no chips).
fn read_at(e: &Expr) -> Option<At> {
    match e {
        Expr::Call(b, args, _) if chip_count(*b, args).is_some() => {
            args.first().and_then(Expr::src)
        }
        _ => e.src(),
    }
}

/// Where a comparison's operand fails when the condition node reads it in place (see
/// [`read_in_place`]); `None` for one that is a node of its own (it places its errors itself) or
/// cannot fail.
fn in_place_at(e: &Expr) -> Option<At> {
    if read_in_place(e) {
        read_at(e)
    } else {
        None
    }
}

/// Whether a comparison's operand is read in place by the condition node (not a node of its own)
/// and can fail: a local's field, a count of chips (see `Lower::operand`).
fn read_in_place(e: &Expr) -> bool {
    match e {
        Expr::Field(x, ..) => matches!(x.as_ref(), Expr::Local(_)),
        Expr::Call(b, args, _) => match chip_count(*b, args) {
            Some(Count::Square(x)) => matches!(x, Expr::Local(_)),
            Some(Count::Place(_)) => local_place(*b, args).is_some(),
            None => false,
        },
        _ => false,
    }
}

// Patterns: the shapes the lowering (and the trigger dispatch) recognise, each in one place.

/// What a `len(…)` call counts from the counts the state keeps.
pub(super) enum Count<'a> {
    /// `len(x.chips)`: the chips on square `x`.
    Square(&'a Expr),
    /// `len(chips(p))`: the chips in place `p`.
    Place(&'a Expr),
}

/// `len(x.chips)` or `len(chips(p))` (the builtins whose rows say `Role::Count` and
/// `Role::ChipsIn`).
pub(super) fn chip_count(b: Builtin, args: &[Expr]) -> Option<Count<'_>> {
    if b.role() != Role::Count {
        return None;
    }
    match args {
        [Expr::Field(x, Field::SquareChips, _)] => Some(Count::Square(x)),
        [Expr::Call(c, p, _)] if c.role() == Role::ChipsIn && p.len() == 1 => {
            Some(Count::Place(&p[0]))
        }
        _ => None,
    }
}

/// `len(chips(hand(x)))` or `len(chips(at(x)))` for a local `x`: the kind of place and the local.
fn local_place(b: Builtin, args: &[Expr]) -> Option<(PlaceKind, u16)> {
    let Count::Place(Expr::Call(place, x, _)) = chip_count(b, args)? else {
        return None;
    };
    match (place.role(), x.as_slice()) {
        (Role::Place(k @ (PlaceKind::Hand | PlaceKind::Square)), [Expr::Local(s)]) => Some((k, *s)),
        _ => None,
    }
}

/// `chips(at(s))` or `s.chips` for a local `s`: the chips on the square in a local (the trigger
/// dispatch's guards).
pub(super) fn local_square_chips(e: &Expr) -> Option<u16> {
    match e {
        Expr::Call(c, args, _) if c.role() == Role::ChipsIn => match args.as_slice() {
            [Expr::Call(at, x, _)] if at.role() == Role::Place(PlaceKind::Square) => {
                match x.as_slice() {
                    [Expr::Local(s)] => Some(*s),
                    _ => None,
                }
            }
            _ => None,
        },
        Expr::Field(x, Field::SquareChips, _) => match x.as_ref() {
            Expr::Local(s) => Some(*s),
            _ => None,
        },
        _ => None,
    }
}

/// A local's square flag (`s.covered`, `s.land`, …): the local's slot, the field and the flag.
pub(super) fn local_flag(e: &Expr) -> Option<(u16, Field, SquareFlag)> {
    match e {
        Expr::Field(x, f, _) => match (x.as_ref(), SquareFlag::of(*f)) {
            (&Expr::Local(s), Some(flag)) => Some((s, *f, flag)),
            _ => None,
        },
        _ => None,
    }
}

/// The local and the test when `e` is a square test of a local.
fn atom(e: &Expr) -> Option<(u16, Atom)> {
    let chips = |x: &Expr| match x {
        Expr::Call(b, args, _) => match chip_count(*b, args) {
            Some(Count::Square(&Expr::Local(s))) => Some(s),
            _ => None,
        },
        _ => None,
    };
    match e {
        Expr::Not(x) => local_flag(x).map(|(s, _, f)| (s, Atom::Flag(f, true))),
        Expr::Field(..) => local_flag(e).map(|(s, _, f)| (s, Atom::Flag(f, false))),
        Expr::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
            _,
        ) => match (chips(a), a.as_ref(), chips(b), b.as_ref()) {
            (Some(s), _, _, &Expr::Const(Value::Int(k))) => Some((s, Atom::Chips(*op, k))),
            (_, &Expr::Const(Value::Int(k)), Some(s), _) => Some((s, Atom::Chips(mirror(*op), k))),
            _ => None,
        },
        _ => None,
    }
}

/// `b OP a` written as `a OP' b`.
fn mirror(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        op => op,
    }
}

/// When an `and` chain starts with square tests of one local: the local, the tests, and the parts
/// after them.
pub(super) fn leading_atoms(e: &Expr) -> Option<(u16, Vec<Atom>, Vec<&Expr>)> {
    let mut parts = Vec::new();
    e.conjuncts(&mut parts);
    let mut slot = None;
    let mut atoms = Vec::new();
    for p in &parts {
        match (atom(p), slot) {
            (Some((s, a)), None) => {
                slot = Some(s);
                atoms.push(a);
            }
            (Some((s, a)), Some(t)) if s == t => atoms.push(a),
            _ => break,
        }
    }
    let rest = parts.split_off(atoms.len());
    Some((slot?, atoms, rest))
}
