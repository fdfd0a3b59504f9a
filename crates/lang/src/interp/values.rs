//! Values every part of the interpreter uses: the elements, length and element at of lists and
//! ranges, indexing, map attributes, and the operators on two values.

use super::{Interp, R};
use crate::ast::BinOp;
use crate::features::NONE;
use crate::game::Fault;
use crate::ir::Value;
use crate::state::State;

impl Interp {
    /// The elements of a list or range value.
    pub(super) fn elems(&mut self, v: Value) -> R<Vec<Value>> {
        match v {
            Value::List(i) => Ok(self.lists.get(i as usize).cloned().unwrap_or_default()),
            Value::Range(a, b) => {
                if b.saturating_sub(a) > 100_000 {
                    return Err(self.fail(Fault::LongRange, "a range of more than 100000 numbers"));
                }
                Ok((a..=b).map(Value::Int).collect())
            }
            Value::Players(m) => Ok((0..8)
                .filter(|p| m & (1 << p) != 0)
                .map(Value::Player)
                .collect()),
            v => Err(self.fail(Fault::BadValue, format!("expected a list, found {v:?}"))),
        }
    }

    /// Number of elements of a list, range or player set.
    #[inline]
    pub(crate) fn len_of(&self, v: Value) -> R<usize> {
        match v {
            Value::List(i) => Ok(self.lists.get(i as usize).map_or(0, |l| l.len())),
            Value::Range(a, b) => {
                if b.saturating_sub(a) > 100_000 {
                    return Err(self.fail(Fault::LongRange, "a range of more than 100000 numbers"));
                }
                Ok(if b < a { 0 } else { (b - a + 1) as usize })
            }
            Value::Players(m) => Ok(m.count_ones() as usize),
            v => Err(self.fail(Fault::BadValue, format!("expected a list, found {v:?}"))),
        }
    }

    /// Element `k` of a list, range or player set (see [`Self::len_of`]).
    #[inline]
    pub(crate) fn elem_at(&self, v: Value, k: usize) -> Value {
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

    /// A map attribute of a square (`square.band`).
    pub(super) fn attr(&mut self, st: &State, v: Value, a: u16) -> R<Value> {
        let of = self.prog.attrs.get(a as usize).map(|d| &d.of);
        if matches!(of, Some(crate::ir::AttrOf::Tiles { .. })) {
            // A tile set's attribute (rare: only rules that read one): the program is shared.
            let prog = std::sync::Arc::clone(&self.prog);
            if let Some(crate::ir::AttrOf::Tiles { values, .. }) =
                prog.attrs.get(a as usize).map(|d| &d.of)
            {
                return self.tile_attr(st, v, values);
            }
        }
        match v {
            Value::Square(c) => {
                let sq = st.board.square.get(c as usize).copied().unwrap_or(NONE);
                Ok(self
                    .memo
                    .attr_vals
                    .get(a as usize)
                    .and_then(|vals| vals.get(sq as usize))
                    .copied()
                    .unwrap_or(Value::Unit))
            }
            v => Err(self.fail(
                Fault::BadValue,
                format!("a map attribute of {v:?}, which is not a square"),
            )),
        }
    }

    /// `table[i]` or `list[i]`.
    pub(super) fn index(&self, v: Value, i: i64) -> R<Value> {
        match v {
            Value::Table(t) => {
                let row = self
                    .prog
                    .tables
                    .get(t as usize)
                    .and_then(|t| t.iter().find(|(k, _)| *k == i));
                match row {
                    Some(&(_, v)) => Ok(Value::Int(v)),
                    None => Err(self.fail(
                        Fault::NoSuchElement,
                        format!("the table has no entry for {i}"),
                    )),
                }
            }
            Value::List(l) => match self.lists.get(l as usize).and_then(|l| l.get(i as usize)) {
                Some(v) => Ok(*v),
                None => Err(self.fail(
                    Fault::NoSuchElement,
                    format!("index {i} is past the end of the list"),
                )),
            },
            v => Err(self.fail(Fault::BadValue, format!("cannot index {v:?}"))),
        }
    }

    /// An operator other than `and`/`or` on two evaluated operands.
    pub(super) fn binary_values(&self, op: BinOp, x: Value, y: Value) -> R<Value> {
        if let (BinOp::Eq | BinOp::Ne, true) =
            (op, !matches!((x, y), (Value::Int(_), Value::Int(_))))
        {
            let eq = self.values_equal(x, y);
            return Ok(Value::Bool(if op == BinOp::Eq { eq } else { !eq }));
        }
        let (Value::Int(x), Value::Int(y)) = (x, y) else {
            return Err(self.fail(
                Fault::BadValue,
                format!("`{}` needs numbers, found {x:?} and {y:?}", op.symbol()),
            ));
        };
        let overflow = || {
            self.fail(
                Fault::Overflow,
                format!(
                    "`{x} {} {y}` overflows (numbers run from {} to {})",
                    op.symbol(),
                    i64::MIN,
                    i64::MAX
                ),
            )
        };
        Ok(match op {
            BinOp::Add => Value::Int(x.checked_add(y).ok_or_else(overflow)?),
            BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(overflow)?),
            BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(overflow)?),
            BinOp::Div | BinOp::Rem => {
                if y == 0 {
                    return Err(self.fail(Fault::DivisionByZero, "division by zero"));
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

    pub(super) fn values_equal(&self, x: Value, y: Value) -> bool {
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
}
