//! The tree walker: evaluates an expression of the checked program by walking its tree. Play runs
//! the lowered plan (`lower`, `exec`); this stays, in tests only (and under the `oracle` feature),
//! as an oracle the executor is compared with (`oracle.rs`). It takes none of the lowering's
//! shortcuts (counts read from the state, square flags read in place, the static-aggregate memo
//! for an expression it was given a copy of): it is the plain meaning of each construct.

use super::{placed, Interp, R};
use crate::ast::BinOp;
use crate::builtins::{Builtin, MAX_PARAMS};
use crate::game::Fault;
use crate::ir::{Expr, Value};
use crate::state::State;

impl Interp {
    pub(super) fn int(&mut self, st: &mut State, e: &Expr) -> R<i64> {
        match self.eval(st, e)? {
            Value::Int(i) => Ok(i),
            v => Err(self.fail(Fault::BadValue, format!("expected a number, found {v:?}"))),
        }
    }

    pub(super) fn bool(&mut self, st: &mut State, e: &Expr) -> R<bool> {
        match self.eval(st, e)? {
            Value::Bool(b) => Ok(b),
            v => Err(self.fail(
                Fault::BadValue,
                format!("expected true or false, found {v:?}"),
            )),
        }
    }

    /// One expression's value; an error is placed where the expression is written when it can
    /// fail on its own and nothing inside it placed the error first (as the executor places it).
    pub(super) fn eval(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        self.eval_node(st, e).map_err(|x| match e.src() {
            Some(at) => placed(x, at),
            None => x,
        })
    }

    /// One expression's value. The common nodes are handled here in a small function; the rest
    /// (lists, ranges, indexing, map attributes, negation) in [`Self::eval_rest`], out of line, so
    /// that the hot path stays short.
    fn eval_node(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        self.tick()?;
        match e {
            Expr::Const(v) => Ok(*v),
            Expr::Local(s) => Ok(self.local(*s)),
            Expr::Param(p) => Ok(self.param(*p)),
            Expr::Field(x, f, _) => {
                let v = self.eval(st, x)?;
                self.field(st, v, *f)
            }
            Expr::Not(x) => Ok(Value::Bool(!self.bool(st, x)?)),
            Expr::Binary(op, a, b, _) => self.binary(st, *op, a, b),
            Expr::Call(b, args, _) => self.call(st, *b, args),
            Expr::Aggregate { .. } => self.aggregate_memo(st, e),
            _ => self.eval_rest(st, e),
        }
    }

    #[inline(never)]
    fn eval_rest(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        Ok(match e {
            Expr::List(items) => {
                // Straight into the arena: evaluating an item may add lists, never change this one.
                let l = self.new_list();
                for it in items {
                    let v = self.eval(st, it)?;
                    self.lists[l as usize].push(v);
                }
                Value::List(l)
            }
            Expr::Range(a, b, _) => {
                let (a, b) = (self.int(st, a)?, self.int(st, b)?);
                Value::Range(a, b)
            }
            Expr::Attr(x, a, _) => {
                let v = self.eval(st, x)?;
                self.attr(st, v, *a)?
            }
            Expr::Index(x, i, _) => {
                let v = self.eval(st, x)?;
                let i = self.int(st, i)?;
                self.index(v, i)?
            }
            Expr::Neg(x, _) => {
                let i = self.int(st, x)?;
                let Some(n) = i.checked_neg() else {
                    return Err(self.fail(Fault::Overflow, format!("`-({i})` overflows")));
                };
                Value::Int(n)
            }
            Expr::ToPlayers(x) => match self.eval(st, x)? {
                Value::Player(p) => Value::Players(1 << (p & 7)),
                v => v,
            },
            Expr::If(c, a, b) => {
                let chosen = if self.bool(st, c)? { a } else { b };
                self.eval(st, chosen)?
            }
            // Handled in `eval`.
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::Field(..)
            | Expr::Not(_)
            | Expr::Binary(..)
            | Expr::Call(..)
            | Expr::Aggregate { .. } => return self.eval(st, e),
        })
    }

    pub(super) fn binary(&mut self, st: &mut State, op: BinOp, a: &Expr, b: &Expr) -> R<Value> {
        match op {
            BinOp::And => return Ok(Value::Bool(self.bool(st, a)? && self.bool(st, b)?)),
            BinOp::Or => return Ok(Value::Bool(self.bool(st, a)? || self.bool(st, b)?)),
            _ => {}
        }
        let (x, y) = (self.eval(st, a)?, self.eval(st, b)?);
        self.binary_values(op, x, y)
    }

    /// Evaluates a builtin call: its arguments, then the query (an effect does its work, yielding
    /// nothing). `len(x.chips)` lists the chips and counts them: the executor's counts read from
    /// the state are compared with this.
    pub(super) fn call(&mut self, st: &mut State, b: Builtin, args: &[Expr]) -> R<Value> {
        let mut a = [Value::Unit; MAX_PARAMS];
        for (i, e) in args.iter().enumerate().take(MAX_PARAMS) {
            a[i] = self.eval(st, e)?;
        }
        self.call_values(st, b, &a, args.len())
    }
}
