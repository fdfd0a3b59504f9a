//! Aggregates (`count`, `sum`, `min`, `max`, `any`, `all`, `distinct`, `collect`), and the memo of
//! static aggregates: those whose value depends only on the map, the parameters and constants are
//! found before play and computed once per value of the outside variables they read.

use super::{Interp, R};
use crate::lang::ast::AggOp;
use crate::lang::builtins::{Builtin, Field};
use crate::lang::ir::{Expr, Program, Stmt, Value};
use crate::state::State;

#[derive(Clone, Debug)]
pub(super) enum StaticVal {
    Scalar(Value),
    List(Vec<Value>),
    /// Holds lists of lists, which live in the per-run arena: computed afresh each time.
    Uncached,
}

/// Whether an expression's value depends only on the map, the parameters, constants, the variables
/// of aggregates inside it, and the values of the outside variables it names (collected in `free`),
/// read only through properties that never change (a square's kind and attributes, a chip's colour
/// and value). Such an aggregate is computed once per value of its outside variables.
pub(super) fn is_static(e: &Expr, bound: &mut Vec<u16>, free: &mut Vec<u16>) -> bool {
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
            Stmt::Ask { who, args, .. } => {
                find_static(who, out);
                args.iter().for_each(|a| find_static(a, out));
            }
        }
    }
}

pub(super) fn static_aggregates(prog: &Program) -> Vec<(usize, Vec<u16>)> {
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

impl Interp {
    /// An aggregate, from the memo when it is static.
    pub(super) fn aggregate_memo(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        if self.static_aggs.is_empty() {
            return self.aggregate(st, e);
        }
        match self.static_aggs.binary_search(&(e as *const Expr as usize)) {
            Ok(i) => self.memoised(st, i, |me: &mut Self, st: &mut State| me.aggregate(st, e)),
            Err(_) => self.aggregate(st, e),
        }
    }

    /// Static aggregate `i`: its value for the current values of its outside variables. A hit
    /// allocates nothing: the key is compared in place and a list is copied into the arena.
    pub(super) fn memoised(
        &mut self,
        st: &mut State,
        i: usize,
        compute: impl Fn(&mut Self, &mut State) -> R<Value>,
    ) -> R<Value> {
        let frame = &self.frame[self.base.min(self.frame.len())..];
        let free = &self.static_free[i];
        let local = |slot: u16| frame.get(slot as usize).copied().unwrap_or(Value::Unit);
        // Lists (arena handles) are not a stable key: an aggregate reading one is computed afresh.
        if free.iter().any(|&s| matches!(local(s), Value::List(_))) {
            return compute(self, st);
        }
        let hit = self.static_vals[i].iter().position(|(k, _)| {
            k.len() == free.len() && free.iter().zip(k).all(|(&s, v)| local(s) == *v)
        });
        match hit.map(|h| &self.static_vals[i][h].1) {
            Some(StaticVal::Scalar(v)) => Ok(*v),
            Some(StaticVal::List(_)) => {
                let l = self.new_list();
                let (vals, lists) = (&self.static_vals, &mut self.lists);
                if let (Some((_, StaticVal::List(items))), Some(out)) =
                    (hit.and_then(|h| vals[i].get(h)), lists.get_mut(l as usize))
                {
                    out.extend_from_slice(items);
                }
                Ok(Value::List(l))
            }
            Some(StaticVal::Uncached) => compute(self, st),
            None => {
                let key: Vec<Value> = free.iter().map(|&s| local(s)).collect();
                let v = compute(self, st)?;
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
                Ok(v)
            }
        }
    }

    pub(super) fn aggregate(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        let Expr::Aggregate {
            op,
            var,
            list,
            filter,
            map,
        } = e
        else {
            return Ok(Value::Unit);
        };
        let lv = self.eval(st, list)?;
        let filter = filter
            .as_deref()
            .map(|f| move |me: &mut Self, st: &mut State| me.bool(st, f));
        let map = map
            .as_deref()
            .map(|m| move |me: &mut Self, st: &mut State| me.eval(st, m));
        self.aggregate_over(st, *op, *var, lv, filter, map)
    }

    /// An aggregate over the evaluated list `lv`: binds `var` to each element, tests `filter`,
    /// evaluates `map` (both given as functions, from the tree or compiled).
    pub(super) fn aggregate_over<F, M>(
        &mut self,
        st: &mut State,
        op: AggOp,
        var: u16,
        lv: Value,
        mut filter: Option<F>,
        mut map: Option<M>,
    ) -> R<Value>
    where
        F: FnMut(&mut Self, &mut State) -> R<bool>,
        M: FnMut(&mut Self, &mut State) -> R<Value>,
    {
        let op = &op;
        let n = self.len_of(lv)?;
        let mut count = 0i64;
        let mut sum = 0i64;
        let mut min: Option<i64> = None;
        let mut max: Option<i64> = None;
        let mut any = false;
        let mut all = true;
        // Work lists from a pool kept between runs: a hot aggregate allocates nothing.
        let mut seen = match op {
            AggOp::Distinct => self.scratch.pop().unwrap_or_default(),
            _ => Vec::new(),
        };
        let mut collected = match op {
            AggOp::Collect | AggOp::Sort => self.scratch.pop().unwrap_or_default(),
            _ => Vec::new(),
        };
        let mut keys: Vec<i64> = Vec::new();
        for k in 0..n {
            let item = self.elem_at(lv, k);
            self.set(var, item)?;
            if let Some(f) = filter.as_mut() {
                if !f(self, st)? {
                    // `all(x in L where c)` with no `: e` asks whether every element meets c.
                    if *op == AggOp::All && map.is_none() {
                        all = false;
                        break;
                    }
                    continue;
                }
            }
            let mapped = match map.as_mut() {
                Some(m) => m(self, st)?,
                None => item,
            };
            count += 1;
            match op {
                AggOp::Sum | AggOp::Min | AggOp::Max => {
                    let Value::Int(i) = mapped else {
                        return Err(
                            self.fail(format!("{} of something that is not a number", op.name()))
                        );
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
                    let b = match (map.is_some(), mapped) {
                        (true, Value::Bool(b)) => b,
                        (false, _) => true,
                        (true, v) => {
                            return Err(self.fail(format!("{} of {v:?}, not true/false", op.name())))
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
        let v = match op {
            AggOp::Count => Value::Int(count),
            AggOp::Sum => Value::Int(sum),
            AggOp::Min => Value::Int(min.unwrap_or(0)),
            AggOp::Max => Value::Int(max.unwrap_or(0)),
            AggOp::Any => Value::Bool(any),
            AggOp::All => Value::Bool(all),
            AggOp::Distinct => Value::Int(seen.len() as i64),
            AggOp::Collect => self.list_of(collected.iter().copied()),
            AggOp::Sort => {
                let mut order: Vec<usize> = (0..collected.len()).collect();
                order.sort_by_key(|&i| keys[i]);
                self.list_of(order.into_iter().map(|i| collected[i]))
            }
        };
        for mut w in [seen, collected] {
            if w.capacity() > 0 {
                w.clear();
                self.scratch.push(w);
            }
        }
        Ok(v)
    }
}
