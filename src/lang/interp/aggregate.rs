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
    /// evaluates `map` (both given as functions, from the tree or compiled). Each kind of aggregate
    /// folds in its own step: numbers (`count`, `sum`, `min`, `max`), truth (`any`, `all`) or lists
    /// (`distinct`, `collect`, `sort`), so that a number or a truth value needs no work list.
    pub(super) fn aggregate_over<F, M>(
        &mut self,
        st: &mut State,
        op: AggOp,
        var: u16,
        lv: Value,
        filter: Option<F>,
        map: Option<M>,
    ) -> R<Value>
    where
        F: FnMut(&mut Self, &mut State) -> R<bool>,
        M: FnMut(&mut Self, &mut State) -> R<Value>,
    {
        let each = Each {
            var,
            lv,
            n: self.len_of(lv)?,
        };
        match op {
            AggOp::Count | AggOp::Sum | AggOp::Min | AggOp::Max => {
                self.fold_numbers(st, op, each, filter, map)
            }
            AggOp::Any | AggOp::All => self.fold_truth(st, op, each, filter, map),
            AggOp::Distinct | AggOp::Collect | AggOp::Sort => {
                self.fold_list(st, op, each, filter, map)
            }
        }
    }

    /// Binds the aggregate's variable to element `k` and tests the filter: the element when it
    /// passes.
    #[inline]
    fn bind_passing<F>(
        &mut self,
        st: &mut State,
        each: Each,
        k: usize,
        filter: &mut Option<F>,
    ) -> R<Option<Value>>
    where
        F: FnMut(&mut Self, &mut State) -> R<bool>,
    {
        let item = self.elem_at(each.lv, k);
        self.set(each.var, item)?;
        if let Some(f) = filter.as_mut() {
            if !f(self, st)? {
                return Ok(None);
            }
        }
        Ok(Some(item))
    }

    /// `count`, `sum`, `min`, `max` (0 when nothing passes).
    fn fold_numbers<F, M>(
        &mut self,
        st: &mut State,
        op: AggOp,
        each: Each,
        mut filter: Option<F>,
        mut map: Option<M>,
    ) -> R<Value>
    where
        F: FnMut(&mut Self, &mut State) -> R<bool>,
        M: FnMut(&mut Self, &mut State) -> R<Value>,
    {
        let mut count = 0i64;
        let mut sum = 0i64;
        let mut min: Option<i64> = None;
        let mut max: Option<i64> = None;
        for k in 0..each.n {
            let Some(item) = self.bind_passing(st, each, k, &mut filter)? else {
                continue;
            };
            let mapped = match map.as_mut() {
                Some(m) => m(self, st)?,
                None => item,
            };
            count += 1;
            if op == AggOp::Count {
                continue;
            }
            let Value::Int(i) = mapped else {
                return Err(self.fail(format!("{} of something that is not a number", op.name())));
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
        Ok(Value::Int(match op {
            AggOp::Count => count,
            AggOp::Sum => sum,
            AggOp::Min => min.unwrap_or(0),
            _ => max.unwrap_or(0),
        }))
    }

    /// `any`, `all`: stops as soon as the answer is known, like `and`/`or`.
    fn fold_truth<F, M>(
        &mut self,
        st: &mut State,
        op: AggOp,
        each: Each,
        mut filter: Option<F>,
        mut map: Option<M>,
    ) -> R<Value>
    where
        F: FnMut(&mut Self, &mut State) -> R<bool>,
        M: FnMut(&mut Self, &mut State) -> R<Value>,
    {
        let mut any = false;
        let mut all = true;
        for k in 0..each.n {
            let Some(_) = self.bind_passing(st, each, k, &mut filter)? else {
                // `all(x in L where c)` with no `: e` asks whether every element meets c.
                if op == AggOp::All && map.is_none() {
                    all = false;
                    break;
                }
                continue;
            };
            let b = match map.as_mut() {
                None => true,
                Some(m) => match m(self, st)? {
                    Value::Bool(b) => b,
                    v => return Err(self.fail(format!("{} of {v:?}, not true/false", op.name()))),
                },
            };
            any |= b;
            all &= b;
            if (op == AggOp::Any && any) || (op == AggOp::All && !all) {
                break;
            }
        }
        Ok(Value::Bool(if op == AggOp::Any { any } else { all }))
    }

    /// `distinct` (how many different values), `collect` and `sort` (lists in the arena). The work
    /// lists come from a pool kept between runs: a hot aggregate allocates nothing.
    fn fold_list<F, M>(
        &mut self,
        st: &mut State,
        op: AggOp,
        each: Each,
        mut filter: Option<F>,
        mut map: Option<M>,
    ) -> R<Value>
    where
        F: FnMut(&mut Self, &mut State) -> R<bool>,
        M: FnMut(&mut Self, &mut State) -> R<Value>,
    {
        let mut found = self.scratch.pop().unwrap_or_default();
        let mut keys: Vec<i64> = Vec::new();
        let r = (|| {
            for k in 0..each.n {
                let Some(item) = self.bind_passing(st, each, k, &mut filter)? else {
                    continue;
                };
                let mapped = match map.as_mut() {
                    Some(m) => m(self, st)?,
                    None => item,
                };
                match op {
                    AggOp::Distinct => {
                        if !found.contains(&mapped) {
                            found.push(mapped);
                        }
                    }
                    AggOp::Sort => {
                        let Value::Int(key) = mapped else {
                            return Err(self.fail("sort by something that is not a number"));
                        };
                        keys.push(key);
                        found.push(item);
                    }
                    _ => found.push(mapped),
                }
            }
            Ok(match op {
                AggOp::Distinct => Value::Int(found.len() as i64),
                AggOp::Sort => {
                    let mut order: Vec<usize> = (0..found.len()).collect();
                    order.sort_by_key(|&i| keys[i]);
                    self.list_of(order.into_iter().map(|i| found[i]))
                }
                _ => self.list_of(found.iter().copied()),
            })
        })();
        found.clear();
        self.scratch.push(found);
        r
    }
}

/// The list an aggregate runs over: its variable's slot, the list and its length.
#[derive(Clone, Copy)]
struct Each {
    var: u16,
    lv: Value,
    n: usize,
}
