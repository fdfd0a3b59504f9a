//! Aggregates (`count`, `sum`, `min`, `max`, `any`, `all`, `distinct`, `collect`), and the memo of
//! static aggregates: those whose value depends only on the map, the parameters and constants are
//! found before play and computed once per value of what they read of the outside variables (the
//! variable itself, or only properties of it that never change: `[s in squares_with(ATTR,
//! chip.colour) …]` is computed once per colour, not once per chip; a list by its contents: the
//! scatter's free squares are computed once per set of start squares).

use super::{Interp, R};
use crate::analysis::statics::Key;
use crate::ast::AggOp;
use crate::game::Fault;
#[cfg(any(test, feature = "oracle"))]
use crate::ir::Expr;
use crate::ir::Value;
use crate::state::State;

#[derive(Clone, Debug)]
pub(super) enum StaticVal {
    Scalar(Value),
    List(Vec<Value>),
    /// Holds lists of lists, which live in the per-run arena: computed afresh each time.
    Uncached,
}

/// Stands for a list in a flat memo key (see `Interp::memoised_by_lists`): no key holds a list
/// handle otherwise.
const LIST_MARK: Value = Value::List(u32::MAX);

/// Lists read by a static aggregate are a memo key only from this many elements in all: shorter
/// ones cost less to go through than to look up.
const MIN_LIST_KEY: usize = 16;

impl Interp {
    /// An aggregate, from the memo when it is static.
    #[cfg(any(test, feature = "oracle"))]
    pub(super) fn aggregate_memo(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        if self.prep.static_aggs.is_empty() {
            return self.aggregate(st, e);
        }
        match self
            .prep
            .static_aggs
            .binary_search(&(e as *const Expr as usize))
        {
            Ok(i) => self.memoised(st, i, |me: &mut Self, st: &mut State| me.aggregate(st, e)),
            Err(_) => self.aggregate(st, e),
        }
    }

    /// Static aggregate `i`: its value for what it reads of its outside variables now. A hit
    /// allocates nothing: the key is worked out in place and a list is copied into the arena.
    pub(super) fn memoised(
        &mut self,
        st: &mut State,
        i: usize,
        compute: impl Fn(&mut Self, &mut State) -> R<Value>,
    ) -> R<Value> {
        const MAX_KEY: usize = 4;
        let n = self.prep.static_free[i].len();
        if n > MAX_KEY {
            return compute(self, st);
        }
        let mut now = [Value::Unit; MAX_KEY];
        for (k, slot) in now.iter_mut().enumerate().take(n) {
            *slot = match self.prep.static_free[i][k] {
                Key::Local(s) => self.local(s),
                Key::Field(s, f) => {
                    let v = self.local(s);
                    match self.field(st, v, f) {
                        Ok(x) => x,
                        // Evaluated in full, the aggregate reports it.
                        Err(_) => return compute(self, st),
                    }
                }
            };
        }
        let now = &now[..n];
        // Lists (arena handles) are not a stable key: an aggregate reading one is keyed by the
        // lists' contents.
        if now.iter().any(|v| matches!(v, Value::List(_))) {
            return self.memoised_by_lists(st, i, now, compute);
        }
        match self
            .caches
            .static_vals
            .of(i)
            .iter()
            .position(|(k, _)| k == now)
        {
            Some(h) => self.memo_hit(st, i, h, compute),
            None => {
                let key: Vec<Value> = now.to_vec();
                let v = compute(self, st)?;
                self.memo_store(i, key, v);
                Ok(v)
            }
        }
    }

    /// Static aggregate `i` when what it reads of its outside variables includes lists: its value
    /// for the lists' contents (the scatter's `[s in spots where not contains(near_start, s)]` is
    /// computed once per set of start squares). A key is kept flat: each list as [`LIST_MARK`], its
    /// length and its elements. Lists of lists are not keyed, nor lists of fewer than
    /// [`MIN_LIST_KEY`] elements in all, nor lists once the memo holds 64 keys: computed afresh.
    fn memoised_by_lists(
        &mut self,
        st: &mut State,
        i: usize,
        now: &[Value],
        compute: impl Fn(&mut Self, &mut State) -> R<Value>,
    ) -> R<Value> {
        let nested = |me: &Self, v: Value| match v {
            Value::List(l) => me.lists[l as usize]
                .iter()
                .any(|x| matches!(x, Value::List(_))),
            _ => false,
        };
        // Short lists (chips chosen, …) are cheaper to go through again than to look up; a full
        // memo (lists that vary from run to run) is not searched again.
        let items: usize = now
            .iter()
            .map(|&v| match v {
                Value::List(l) => self.lists[l as usize].len(),
                _ => 0,
            })
            .sum();
        if items < MIN_LIST_KEY
            || self.caches.static_vals.full(i)
            || now.iter().any(|&v| nested(self, v))
        {
            return compute(self, st);
        }
        let hit = self
            .caches
            .static_vals
            .of(i)
            .iter()
            .position(|(k, _)| self.flat_key_is(k, now));
        match hit {
            Some(h) => self.memo_hit(st, i, h, compute),
            None => {
                let mut key = Vec::new();
                for &v in now {
                    match v {
                        Value::List(l) => {
                            let items = &self.lists[l as usize];
                            key.push(LIST_MARK);
                            key.push(Value::Int(items.len() as i64));
                            key.extend_from_slice(items);
                        }
                        v => key.push(v),
                    }
                }
                let v = compute(self, st)?;
                self.memo_store(i, key, v);
                Ok(v)
            }
        }
    }

    /// Whether a flat key (see [`Self::memoised_by_lists`]) is the one of `now`, compared in place.
    fn flat_key_is(&self, key: &[Value], now: &[Value]) -> bool {
        let mut at = 0;
        for &v in now {
            match v {
                Value::List(l) => {
                    let items = self.lists[l as usize].as_slice();
                    let head = [LIST_MARK, Value::Int(items.len() as i64)];
                    if key.get(at..at + 2) != Some(&head[..])
                        || key.get(at + 2..at + 2 + items.len()) != Some(items)
                    {
                        return false;
                    }
                    at += 2 + items.len();
                }
                v => {
                    if key.get(at) != Some(&v) {
                        return false;
                    }
                    at += 1;
                }
            }
        }
        at == key.len()
    }

    /// Memo entry `h` of static aggregate `i`: its value (a list copied into the arena).
    fn memo_hit(
        &mut self,
        st: &mut State,
        i: usize,
        h: usize,
        compute: impl Fn(&mut Self, &mut State) -> R<Value>,
    ) -> R<Value> {
        let v = match &self.caches.static_vals.of(i)[h].1 {
            StaticVal::Scalar(v) => *v,
            StaticVal::List(_) => {
                let l = self.new_list();
                let (vals, lists) = (&self.caches.static_vals, &mut self.lists);
                if let (StaticVal::List(items), Some(out)) =
                    (&vals.of(i)[h].1, lists.get_mut(l as usize))
                {
                    out.extend_from_slice(items);
                }
                Value::List(l)
            }
            StaticVal::Uncached => return compute(self, st),
        };
        if self.checking() {
            let fresh = compute(self, st)?;
            self.check_static_value(v, fresh);
        }
        Ok(v)
    }

    /// The checking mode: a static aggregate's memoized value against the one computed afresh
    /// (lists by their items).
    fn check_static_value(&self, cached: Value, fresh: Value) {
        let same = match (cached, fresh) {
            (Value::List(a), Value::List(b)) => self.lists[a as usize] == self.lists[b as usize],
            (a, b) => a == b,
        };
        if !same {
            let show = |v: Value| match v {
                Value::List(l) => format!("{:?}", self.lists[l as usize]),
                v => format!("{v:?}"),
            };
            super::caches::stale("static aggregate", self.name(), &show(cached), &show(fresh));
        }
    }

    /// Remembers value `v` of static aggregate `i` for `key`. A bounded memo: past 64 keys, values
    /// are computed afresh.
    fn memo_store(&mut self, i: usize, key: Vec<Value>, v: Value) {
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
        self.caches.static_vals.store(i, key, cached);
    }

    #[cfg(any(test, feature = "oracle"))]
    pub(super) fn aggregate(&mut self, st: &mut State, e: &Expr) -> R<Value> {
        let Expr::Aggregate {
            op,
            var,
            list,
            filter,
            map,
            ..
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
    // Always inlined: called once per element; out of line it cost usa about 2% (callgrind).
    #[inline(always)]
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
                return Err(self.fail(
                    Fault::BadValue,
                    format!("{} of something that is not a number", op.name()),
                ));
            };
            match op {
                // Only a sum can overflow: `max` and `min` of large numbers are no sum.
                AggOp::Sum => {
                    let Some(s) = sum.checked_add(i) else {
                        return Err(self.fail(
                            Fault::Overflow,
                            format!(
                                "the sum overflows (numbers run from {} to {})",
                                i64::MIN,
                                i64::MAX
                            ),
                        ));
                    };
                    sum = s;
                }
                AggOp::Min => min = Some(min.map_or(i, |m| m.min(i))),
                _ => max = Some(max.map_or(i, |m| m.max(i))),
            }
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
                    v => {
                        return Err(self.fail(
                            Fault::BadValue,
                            format!("{} of {v:?}, not true/false", op.name()),
                        ))
                    }
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
                            return Err(self
                                .fail(Fault::BadValue, "sort by something that is not a number"));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::Field;

    /// Final scores of random games on the endless table with `rules` added (a chip set of two
    /// values), played one after another in one interpreter, and the interpreter at the end.
    fn play(rules: &str, seeds: u64) -> (Vec<Vec<i64>>, super::super::Interp) {
        let v = super::super::probe::variant("red 1 x 3, red 2 x 2, blue 2 x 3", rules);
        super::super::probe::scores(&v, &["ann", "bob"], seeds)
    }

    /// Each tile placed scores, for each chip of the supply, a count that reads the chip only
    /// through its value.
    fn by_value(extra: &str) -> String {
        format!(
            "rule r on placed {{\n\
               for c in chips(supply) {{\n\
                 score(player, count(x in [1, 2, 3, 4] where x > c.value{extra}))\n}}\n}}"
        )
    }

    #[test]
    fn a_memo_keyed_by_a_property_gives_each_value_its_own_answer() {
        let (memo, interp) = play(&by_value(""), 3);
        // The same count, not static (it reads the tiles left): evaluated every time.
        let (plain, _) = play(&by_value(" and tiles_left() >= 0"), 3);
        assert_eq!(memo, plain);
        assert!(memo.iter().all(|s| s[0] > 0 && s[1] > 0));
        // Keyed by the value: one entry per value (1 and 2), though 8 chips were read.
        let by_value: Vec<usize> = (0..interp.prep.static_free.len())
            .filter(|&i| {
                let free = &interp.prep.static_free[i];
                free.len() == 1 && matches!(free[0], Key::Field(_, Field::ChipValue))
            })
            .collect();
        assert_eq!(by_value.len(), 1);
        assert_eq!(interp.caches.static_vals.of(by_value[0]).len(), 2);
    }

    /// Issue 21: `max` and `min` of numbers whose sum overflows are no sum: they were refused with
    /// "the sum overflows". Each player's first tile scores max / 10^18 = 9 and -min / 10^18 = 8.
    #[test]
    fn max_of_large_numbers_is_not_a_sum() {
        let rules = "rule r on placed when turn_number() <= 2 {\n\
                       score(player, max(x in [9000000000000000000, 9000000000000000000]: x) / 1000000000000000000)\n\
                       score(player, 0 - min(x in [-8000000000000000000, -8000000000000000000]: x) / 1000000000000000000)\n}";
        let (scores, _) = play(rules, 1);
        assert_eq!(scores, vec![vec![17, 17]]);
    }
}
