//! Compiled expressions: before play, every expression of the program (a rule's `when`, an action's
//! `when`, each choice's list and `where`, and those of every body: see `compile_body`) is turned into
//! a tree of closures.
//! Each node knows its kind, its operator, its field and its builtin already, so evaluating it is a
//! call per node rather than a walk that matches on the syntax tree each time; the static-aggregate
//! memo slot of an aggregate is found once too. A compiled node does what [`Interp::eval`] does for
//! the same node (the same values, errors and operations counted), through the same helpers.

use super::compile_cond::{compile_cond, Cond};
use super::query::{chip_count, Count};
use super::{Interp, R};
use crate::ast::BinOp;
use crate::builtins::{Builtin, Field, Run};
use crate::ir::{ChoiceKind, Expr, Program, Value};
use crate::state::State;

/// A compiled expression: evaluates to the value [`Interp::eval`] would give.
pub(super) type Code = Box<dyn Fn(&mut Interp, &mut State) -> R<Value> + Send + Sync>;

/// The compiled conditions of a program, indexed like the program's rules and actions.
#[derive(Default)]
pub(super) struct Compiled {
    pub rule_when: Vec<Option<Cond>>,
    pub action_when: Vec<Option<Cond>>,
    /// Per action, per choice: the list it chooses from and its `where`.
    pub choice_from: Vec<Vec<Code>>,
    pub choice_filter: Vec<Vec<Option<Cond>>>,
    /// Per action, per choice: the `size` of a chip-subset choice.
    pub choice_size: Vec<Vec<Option<Code>>>,
    /// The setup blocks and the bodies of rules and actions.
    pub bodies: super::compile_body::Bodies,
}

/// Compiles the conditions of `prog`; `statics` are the addresses of its static aggregates, sorted
/// (see `aggregate::static_aggregates`).
pub(super) fn compile_program(prog: &Program, statics: &[usize]) -> Compiled {
    let c = |e: &Expr| compile(e, statics);
    let cond = |e: &Expr| compile_cond(e, statics);
    Compiled {
        rule_when: prog
            .rules
            .iter()
            .map(|r| r.when.as_ref().map(cond))
            .collect(),
        action_when: prog
            .actions
            .iter()
            .map(|a| a.when.as_ref().map(cond))
            .collect(),
        choice_from: prog
            .actions
            .iter()
            .map(|a| a.choices.iter().map(|ch| c(&ch.from)).collect())
            .collect(),
        choice_filter: prog
            .actions
            .iter()
            .map(|a| {
                a.choices
                    .iter()
                    .map(|ch| ch.filter.as_ref().map(cond))
                    .collect()
            })
            .collect(),
        choice_size: prog
            .actions
            .iter()
            .map(|a| {
                a.choices
                    .iter()
                    .map(|ch| match &ch.kind {
                        ChoiceKind::Chips { size } => size.as_ref().map(c),
                        ChoiceKind::One => None,
                    })
                    .collect()
            })
            .collect(),
        bodies: super::compile_body::compile_bodies(prog, statics),
    }
}

impl Interp {
    /// The truth value of a compiled condition (the error [`Interp::bool`] gives otherwise).
    #[inline]
    pub(super) fn truth(&mut self, st: &mut State, code: &Code) -> R<bool> {
        match code(self, st)? {
            Value::Bool(b) => Ok(b),
            v => Err(self.fail(format!("expected true or false, found {v:?}"))),
        }
    }

    fn number(&mut self, st: &mut State, code: &Code) -> R<i64> {
        match code(self, st)? {
            Value::Int(i) => Ok(i),
            v => Err(self.fail(format!("expected a number, found {v:?}"))),
        }
    }
}

/// Compiles one expression (see [`Interp::eval`] for what each node does).
pub(super) fn compile(e: &Expr, statics: &[usize]) -> Code {
    let c = |x: &Expr| compile(x, statics);
    match e {
        &Expr::Const(v) => Box::new(move |me, _| {
            me.tick()?;
            Ok(v)
        }),
        &Expr::Param(p) => Box::new(move |me, _| {
            me.tick()?;
            Ok(me.param(p))
        }),
        &Expr::Local(s) => Box::new(move |me, _| {
            me.tick()?;
            Ok(me.local(s))
        }),
        Expr::Field(x, f) => field(x, *f, statics),
        Expr::Not(_) | Expr::Binary(BinOp::And | BinOp::Or, _, _) => {
            let x = compile_cond(e, statics);
            Box::new(move |me, st| Ok(Value::Bool(x(me, st)?)))
        }
        Expr::Binary(op, a, b) => binary(*op, c(a), c(b)),
        Expr::Call(b, args) => call(*b, args, statics),
        Expr::Aggregate { .. } => aggregate(e, statics),
        Expr::List(items) => {
            let items: Vec<Code> = items.iter().map(c).collect();
            Box::new(move |me, st| {
                me.tick()?;
                let l = me.new_list();
                for it in &items {
                    let v = it(me, st)?;
                    me.lists[l as usize].push(v);
                }
                Ok(Value::List(l))
            })
        }
        Expr::Range(a, b) => {
            let (a, b) = (c(a), c(b));
            Box::new(move |me, st| {
                me.tick()?;
                let (a, b) = (me.number(st, &a)?, me.number(st, &b)?);
                Ok(Value::Range(a, b))
            })
        }
        Expr::Attr(x, a) => {
            let (x, a) = (c(x), *a);
            Box::new(move |me, st| {
                me.tick()?;
                let v = x(me, st)?;
                me.attr(st, v, a)
            })
        }
        Expr::Index(x, i) => {
            let (x, i) = (c(x), c(i));
            Box::new(move |me, st| {
                me.tick()?;
                let v = x(me, st)?;
                let i = me.number(st, &i)?;
                me.index(v, i)
            })
        }
        Expr::Neg(x) => {
            let x = c(x);
            Box::new(move |me, st| {
                me.tick()?;
                let i = me.number(st, &x)?;
                match i.checked_neg() {
                    Some(n) => Ok(Value::Int(n)),
                    None => Err(me.fail(format!("`-({i})` overflows"))),
                }
            })
        }
        Expr::ToPlayers(x) => {
            let x = c(x);
            Box::new(move |me, st| {
                me.tick()?;
                Ok(match x(me, st)? {
                    Value::Player(p) => Value::Players(1 << (p & 7)),
                    v => v,
                })
            })
        }
    }
}

/// `x.f`; a local's field (the common case) reads the local in place.
fn field(x: &Expr, f: Field, statics: &[usize]) -> Code {
    let read = f.read();
    if let &Expr::Local(s) = x {
        return Box::new(move |me, st| {
            me.tick()?;
            me.tick()?;
            let v = me.local(s);
            read(me, st, v)
        });
    }
    let x = compile(x, statics);
    Box::new(move |me, st| {
        me.tick()?;
        let v = x(me, st)?;
        read(me, st, v)
    })
}

/// An operator other than `and`/`or` (those are conditions: see `compile_cond`).
fn binary(op: BinOp, a: Code, b: Code) -> Code {
    Box::new(move |me, st| {
        me.tick()?;
        let (x, y) = (a(me, st)?, b(me, st)?);
        me.binary_values(op, x, y)
    })
}

/// A builtin call; `len(s.chips)` and `len(chips(place))` read the counts the state keeps.
fn call(b: Builtin, args: &[Expr], statics: &[usize]) -> Code {
    // `contains(list, x)` (a filter's common test): searched without the general dispatch.
    if let (Builtin::Contains, [l, x]) = (b, args) {
        let (l, x) = (compile(l, statics), compile(x, statics));
        return Box::new(move |me, st| {
            me.tick()?;
            let lv = l(me, st)?;
            let xv = x(me, st)?;
            me.contains(lv, xv)
        });
    }
    if b == Builtin::Len {
        match chip_count(args) {
            Some(Count::Square(x)) => {
                let x = compile(x, statics);
                return Box::new(move |me, st| {
                    me.tick()?;
                    let v = x(me, st)?;
                    Ok(Value::Int(me.count_square_chips(st, v)? as i64))
                });
            }
            Some(Count::Place(p)) => {
                let p = compile(p, statics);
                return Box::new(move |me, st| {
                    me.tick()?;
                    let v = p(me, st)?;
                    Ok(Value::Int(me.count_place_chips(st, v)? as i64))
                });
            }
            None => {}
        }
    }
    let args: Vec<Code> = args.iter().take(4).map(|a| compile(a, statics)).collect();
    let n = args.len();
    // A query's implementation is chosen here, once (its row in `builtins!`).
    if let Run::Query(query) = b.run() {
        return Box::new(move |me, st| {
            me.tick()?;
            let mut a = [Value::Unit; 4];
            for (i, code) in args.iter().enumerate() {
                a[i] = code(me, st)?;
            }
            query(me, st, &a)
        });
    }
    Box::new(move |me, st| {
        me.tick()?;
        let mut a = [Value::Unit; 4];
        for (i, code) in args.iter().enumerate() {
            a[i] = code(me, st)?;
        }
        me.call_values(st, b, &a, n)
    })
}

/// An aggregate, through the static-aggregate memo when it is one.
fn aggregate(e: &Expr, statics: &[usize]) -> Code {
    let Expr::Aggregate {
        op,
        var,
        list,
        filter,
        map,
    } = e
    else {
        return Box::new(|_, _| Ok(Value::Unit));
    };
    let (op, var) = (*op, *var);
    let list = compile(list, statics);
    let filter = filter.as_deref().map(|f| compile_cond(f, statics));
    let map = map.as_deref().map(|m| compile(m, statics));
    let memo = statics.binary_search(&(e as *const Expr as usize)).ok();
    let run = move |me: &mut Interp, st: &mut State| -> R<Value> {
        let lv = list(me, st)?;
        let f = filter
            .as_ref()
            .map(|f| move |me: &mut Interp, st: &mut State| f(me, st));
        let m = map
            .as_ref()
            .map(|m| move |me: &mut Interp, st: &mut State| m(me, st));
        me.aggregate_over(st, op, var, lv, f, m)
    };
    Box::new(move |me, st| {
        me.tick()?;
        match memo {
            Some(i) => me.memoised(st, i, &run),
            None => run(me, st),
        }
    })
}
