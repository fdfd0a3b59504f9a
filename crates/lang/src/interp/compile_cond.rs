//! Compiled conditions: every place the rules test something (a rule's or action's `when`, a choice's
//! `where`, an aggregate's `where`, an `if`, and `not`/`and`/`or` anywhere) is compiled to a closure
//! that returns the truth value itself rather than a [`Value`]. The common shapes are read in place:
//! `not`/`and`/`or` of conditions, a comparison (operands that are constants, parameters, locals or
//! a local's field are read without a call of their own; a number read in place compared with a
//! constant makes no value at all), a local, its field or its map attribute, and an `and` chain led
//! by tests of a local square (flags, `len(s.chips) OP k`) read in place one after another. Anything
//! else is a compiled expression (see `compile`) whose value is tested.
//!
//! The operation budget is counted coarsely here: a condition counts one operation each time it is
//! tested, whatever its shape, and the expressions inside it that are not read in place count as
//! they do everywhere. A condition is a finite tree, and every loop (aggregates, choices, `for`)
//! counts its rounds, so the budget still bounds every rules file. The values and errors are those
//! of [`Interp::truth`] on the compiled expression.

use super::compile::{compile, Code};
use super::fields::SquareFlag;
use super::query::{chip_count, Count};
use super::{Interp, R};
use crate::ast::BinOp;
use crate::builtins::{Builtin, Field};
use crate::ir::{Expr, Place as IrPlace, Value};
use crate::state::{Place, State};

/// A compiled condition: its truth value.
pub(super) type Cond = Box<dyn Fn(&mut Interp, &mut State) -> R<bool> + Send + Sync>;

/// Compiles a condition that is tested on its own: it counts one operation per test.
pub(super) fn compile_cond(e: &Expr, statics: &[usize]) -> Cond {
    cond(e, statics, true)
}

/// An operand of a comparison, read in place when it is a simple one.
enum Operand {
    Const(Value),
    Param(u16),
    Local(u16),
    LocalField(u16, Field),
    /// `len(x.chips)` for a local `x`: the count the state keeps, no list built.
    LocalChips(u16),
    /// `len(chips(hand(x)))` or `len(chips(at(x)))` for a local `x` (the builtin naming the place),
    /// counted like `LocalChips`; the compiled expression for a value that names no such place.
    PlaceChips(Builtin, u16, Code),
    Code(Code),
}

impl Operand {
    /// Whether the operand is a number read in place (compared with a constant without a value
    /// of its own: see `compare`).
    fn counted(&self) -> bool {
        matches!(
            self,
            Operand::LocalChips(_) | Operand::PlaceChips(..) | Operand::LocalField(..)
        )
    }
}

fn operand(e: &Expr, statics: &[usize]) -> Operand {
    match e {
        &Expr::Const(v) => Operand::Const(v),
        &Expr::Param(p) => Operand::Param(p),
        &Expr::Local(s) => Operand::Local(s),
        Expr::Field(x, f) => match x.as_ref() {
            &Expr::Local(s) => Operand::LocalField(s, *f),
            _ => Operand::Code(compile(e, statics)),
        },
        Expr::Call(Builtin::Len, args) => match chip_count(args) {
            Some(Count::Square(&Expr::Local(s))) => Operand::LocalChips(s),
            Some(Count::Place(Expr::Call(b @ (Builtin::Hand | Builtin::At), x))) => {
                match x.as_slice() {
                    [Expr::Local(s)] => Operand::PlaceChips(*b, *s, compile(e, statics)),
                    _ => Operand::Code(compile(e, statics)),
                }
            }
            _ => Operand::Code(compile(e, statics)),
        },
        _ => Operand::Code(compile(e, statics)),
    }
}

/// `root`: the condition is tested on its own (not inside `not`/`and`/`or` of another), so it
/// counts the operation.
fn cond(e: &Expr, statics: &[usize], root: bool) -> Cond {
    match e {
        &Expr::Const(Value::Bool(b)) => Box::new(move |me, _| {
            if root {
                me.tick()?;
            }
            Ok(b)
        }),
        Expr::Not(x) if local_flag(x).is_some() => {
            let Some((s, f, fl)) = local_flag(x) else {
                unreachable!("matched above")
            };
            flag(s, (f, fl), true, root)
        }
        Expr::Not(x) => {
            let x = cond(x, statics, false);
            Box::new(move |me, st| {
                if root {
                    me.tick()?;
                }
                Ok(!x(me, st)?)
            })
        }
        Expr::Binary(BinOp::And, _, _) if leading_atoms(e).is_some() => {
            square_tests(e, statics, root)
        }
        Expr::Binary(BinOp::And, a, b) => {
            let (a, b) = (cond(a, statics, false), cond(b, statics, false));
            Box::new(move |me, st| {
                if root {
                    me.tick()?;
                }
                Ok(a(me, st)? && b(me, st)?)
            })
        }
        Expr::Binary(BinOp::Or, a, b) => {
            let (a, b) = (cond(a, statics, false), cond(b, statics, false));
            Box::new(move |me, st| {
                if root {
                    me.tick()?;
                }
                Ok(a(me, st)? || b(me, st)?)
            })
        }
        Expr::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => compare(*op, operand(a, statics), operand(b, statics), root),
        &Expr::Local(s) => Box::new(move |me, _| {
            if root {
                me.tick()?;
            }
            let v = me.local(s);
            me.as_bool(v)
        }),
        Expr::Field(_, _) if local_flag(e).is_some() => {
            let Some((s, f, fl)) = local_flag(e) else {
                unreachable!("matched above")
            };
            flag(s, (f, fl), false, root)
        }
        Expr::Field(x, f) if matches!(x.as_ref(), Expr::Local(_)) => {
            let (&Expr::Local(s), f) = (x.as_ref(), *f) else {
                unreachable!("matched above")
            };
            Box::new(move |me, st| {
                if root {
                    me.tick()?;
                }
                let v = me.local(s);
                let v = me.field(st, v, f)?;
                me.as_bool(v)
            })
        }
        Expr::Attr(x, a) if matches!(x.as_ref(), Expr::Local(_)) => {
            let (&Expr::Local(s), a) = (x.as_ref(), *a) else {
                unreachable!("matched above")
            };
            Box::new(move |me, st| {
                if root {
                    me.tick()?;
                }
                let v = me.local(s);
                let v = me.attr(st, v, a)?;
                me.as_bool(v)
            })
        }
        _ => {
            // The compiled expression counts its own operations.
            let c = compile(e, statics);
            Box::new(move |me, st| me.truth(st, &c))
        }
    }
}

/// A test of a square read in place, with no value made: a flag (`s.covered`, `not s.land`) or
/// the count of its chips against a constant (`len(s.chips) == 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Atom {
    /// The flag, and whether it is negated.
    Flag(SquareFlag, bool),
    /// `len(s.chips) OP k`.
    Chips(BinOp, i64),
}

/// The local and the test when `e` is a square test of a local.
fn atom(e: &Expr) -> Option<(u16, Atom)> {
    let chips = |x: &Expr| match x {
        Expr::Call(Builtin::Len, args) => match chip_count(args) {
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
fn leading_atoms(e: &Expr) -> Option<(u16, Vec<Atom>, Vec<&Expr>)> {
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

/// An `and` chain led by square tests of one local (`not s.covered and len(s.chips) == 0 and …`):
/// while the local holds a square, the tests read it in place one after another and the parts
/// after them run as conditions; for any other value the chain runs as written.
fn square_tests(e: &Expr, statics: &[usize], root: bool) -> Cond {
    let Some((s, atoms, rest)) = leading_atoms(e) else {
        return cond(e, statics, root);
    };
    let rest: Vec<Cond> = rest.into_iter().map(|x| cond(x, statics, false)).collect();
    let Expr::Binary(_, a, b) = e else {
        return cond(e, statics, root);
    };
    let written = {
        let (a, b) = (cond(a, statics, false), cond(b, statics, false));
        move |me: &mut Interp, st: &mut State| -> R<bool> { Ok(a(me, st)? && b(me, st)?) }
    };
    Box::new(move |me, st| {
        if root {
            me.tick()?;
        }
        let Value::Square(c) = me.local(s) else {
            return written(me, st);
        };
        for a in &atoms {
            let holds = match *a {
                Atom::Flag(f, negate) => me.square_flag(st, c, f) != negate,
                Atom::Chips(op, k) => {
                    let n = st.chip_count(Place::Square(c)).unwrap_or(0);
                    int_compare(op, n as i64, k)
                }
            };
            if !holds {
                return Ok(false);
            }
        }
        for r in &rest {
            if !r(me, st)? {
                return Ok(false);
            }
        }
        Ok(true)
    })
}

/// A local's square flag (`s.covered`, `s.land`, …): the local's slot, the field and the flag.
fn local_flag(e: &Expr) -> Option<(u16, Field, SquareFlag)> {
    match e {
        Expr::Field(x, f) => match (x.as_ref(), SquareFlag::of(*f)) {
            (&Expr::Local(s), Some(flag)) => Some((s, *f, flag)),
            _ => None,
        },
        _ => None,
    }
}

/// `x.f` or `not x.f` for a local `x` and a square flag `f`: read in place when `x` holds a square
/// (anything else goes through `field`, which gives the error).
fn flag(s: u16, (f, flag): (Field, SquareFlag), negate: bool, root: bool) -> Cond {
    Box::new(move |me, st| {
        if root {
            me.tick()?;
        }
        let v = me.local(s);
        if let Value::Square(c) = v {
            return Ok(me.square_flag(st, c, flag) != negate);
        }
        let v = me.field(st, v, f)?;
        Ok(me.as_bool(v)? != negate)
    })
}

/// `x OP y` on two numbers.
#[inline]
fn int_compare(op: BinOp, x: i64, y: i64) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        _ => x >= y,
    }
}

/// `a OP b` for a comparison operator: numbers compared in place, anything else as `binary_values`.
fn compare(op: BinOp, a: Operand, b: Operand, root: bool) -> Cond {
    // A number read in place against a constant number (`len(s.chips) == 0`, `0 < x.value`).
    match (a, b) {
        (a, Operand::Const(Value::Int(k))) if a.counted() => against(op, a, k, false, root),
        (Operand::Const(Value::Int(k)), b) if b.counted() => against(op, b, k, true, root),
        (a, b) => compare_values(op, a, b, root),
    }
}

/// `a OP k` (`k OP a` when `swapped`), `a` a number read in place: compared without making values
/// when it is one (anything else as `binary_values`, the operands in their written order).
fn against(op: BinOp, a: Operand, k: i64, swapped: bool, root: bool) -> Cond {
    let test = move |me: &mut Interp, x: Value| -> R<bool> {
        match x {
            Value::Int(x) if swapped => Ok(int_compare(op, k, x)),
            Value::Int(x) => Ok(int_compare(op, x, k)),
            x => {
                let (l, r) = if swapped {
                    (Value::Int(k), x)
                } else {
                    (x, Value::Int(k))
                };
                let v = me.binary_values(op, l, r)?;
                me.as_bool(v)
            }
        }
    };
    let ints = move |x: i64| {
        if swapped {
            int_compare(op, k, x)
        } else {
            int_compare(op, x, k)
        }
    };
    match a {
        Operand::LocalChips(s) => Box::new(move |me, st| {
            if root {
                me.tick()?;
            }
            let v = me.local(s);
            // A square's count, read in place (as `count_square_chips` reads it).
            if let Value::Square(c) = v {
                me.tick()?;
                if let Some(n) = st.chip_count(Place::Square(c)) {
                    return Ok(ints(n as i64));
                }
            }
            let n = me.count_square_chips(st, v)? as i64;
            Ok(ints(n))
        }),
        Operand::PlaceChips(b, s, code) => Box::new(move |me, st| {
            if root {
                me.tick()?;
            }
            let place = match (b, me.local(s)) {
                (Builtin::Hand, Value::Player(p)) => IrPlace::Hand(p),
                (Builtin::At, Value::Square(c)) => IrPlace::At(c),
                _ => {
                    let x = code(me, st)?;
                    return test(me, x);
                }
            };
            let n = me.count_place_chips(st, Value::Place(place))? as i64;
            Ok(ints(n))
        }),
        Operand::LocalField(s, f) => Box::new(move |me, st| {
            if root {
                me.tick()?;
            }
            let v = me.local(s);
            let x = me.field(st, v, f)?;
            test(me, x)
        }),
        a => compare_values(op, a, Operand::Const(Value::Int(k)), root),
    }
}

/// `a OP b` for a comparison operator, each operand read as a value.
fn compare_values(op: BinOp, a: Operand, b: Operand, root: bool) -> Cond {
    Box::new(move |me, st| {
        if root {
            me.tick()?;
        }
        let x = me.operand(st, &a)?;
        let y = me.operand(st, &b)?;
        if let (Value::Int(x), Value::Int(y)) = (x, y) {
            return Ok(int_compare(op, x, y));
        }
        let v = me.binary_values(op, x, y)?;
        me.as_bool(v)
    })
}

impl Interp {
    fn operand(&mut self, st: &mut State, o: &Operand) -> R<Value> {
        match *o {
            Operand::Const(v) => Ok(v),
            Operand::Param(p) => Ok(self.param(p)),
            Operand::Local(s) => Ok(self.local(s)),
            Operand::LocalField(s, f) => {
                let v = self.local(s);
                self.field(st, v, f)
            }
            Operand::LocalChips(s) => {
                let v = self.local(s);
                Ok(Value::Int(self.count_square_chips(st, v)? as i64))
            }
            Operand::PlaceChips(_, _, ref c) | Operand::Code(ref c) => c(self, st),
        }
    }

    /// A value that must be true or false (the error [`Interp::truth`] gives otherwise).
    #[inline]
    pub(super) fn as_bool(&self, v: Value) -> R<bool> {
        match v {
            Value::Bool(b) => Ok(b),
            v => Err(self.fail(format!("expected true or false, found {v:?}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Expr as E;

    fn local_field(f: Field) -> Box<E> {
        Box::new(E::Field(Box::new(E::Local(1)), f))
    }

    fn and(a: E, b: E) -> E {
        E::Binary(BinOp::And, Box::new(a), Box::new(b))
    }

    /// `len(s.chips) OP k`.
    fn chips(op: BinOp, k: i64) -> E {
        let len = E::Call(Builtin::Len, vec![*local_field(Field::SquareChips)]);
        E::Binary(op, Box::new(len), Box::new(E::Const(Value::Int(k))))
    }

    /// Square tests read in place give what the tree-walking evaluator gives, on every cell of a
    /// finished game (covered or not, with or without chips) and for a value that is no square.
    #[test]
    fn square_tests_agree_with_the_evaluator() {
        let v = super::super::probe::variant("red 1 x 3", "");
        let players = ["ann".to_string(), "bob".to_string()];
        let mut g = v
            .new_game(v.config.clone(), &players, 3, false)
            .expect("a game starts");
        let mut rng = carto_engine::rng::Rng::new(3);
        crate::game::play_random(&mut g, &mut rng).expect("the game runs");
        // Chips on a covered cell and on a free one.
        let covered = g.st.board.placed[0].cell;
        g.st.move_chip(0, crate::state::Place::Square(covered), true);
        let free = (0..g.st.board.tile.len())
            .find(|&c| g.st.board.tile[c] == crate::features::NONE)
            .expect("a free cell") as u32;
        g.st.move_chip(1, crate::state::Place::Square(free), true);
        let x_pos = E::Binary(
            BinOp::Gt,
            local_field(Field::SquareX),
            Box::new(E::Const(Value::Int(0))),
        );
        let conds = [
            and(
                E::Not(local_field(Field::SquareCovered)),
                chips(BinOp::Eq, 0),
            ),
            and(*local_field(Field::SquareCovered), chips(BinOp::Ge, 1)),
            and(
                and(E::Not(local_field(Field::SquareLand)), chips(BinOp::Lt, 1)),
                x_pos,
            ),
            and(
                chips(BinOp::Ne, 0),
                E::Not(local_field(Field::SquareCovered)),
            ),
        ];
        let (mut st, me) = (g.st, &mut g.hooks);
        let cells = st.board.square.len().max(st.board.tile.len()) as u32;
        for e in &conds {
            assert!(leading_atoms(e).is_some());
            let fast = square_tests(e, &[], true);
            let saved = me.enter(2);
            let mut seen = [0usize; 2];
            for c in 0..cells {
                me.set(1, Value::Square(c)).expect("a slot");
                let want = me.bool(&mut st, e).expect("a square test");
                assert_eq!(
                    fast(me, &mut st).expect("a square test"),
                    want,
                    "{e:?} at {c}"
                );
                seen[want as usize] += 1;
            }
            assert!(seen[0] > 0 && seen[1] > 0, "{e:?}: {seen:?}");
            // Not a square: both report it.
            me.set(1, Value::Int(3)).expect("a slot");
            assert!(me.bool(&mut st, e).is_err() && fast(me, &mut st).is_err());
            me.leave(saved);
        }
    }
}
