//! Rules that can never run because a rule before them on the same trigger acts first: the
//! rules on one trigger run in the order of the program (an imported file's first), so a rule that
//! needs chips in a place that an earlier rule always empties, under a condition the later rule's
//! own implies, never finds them (a house rule's `placed` rule reading the chips a bundled `placed`
//! rule already collected). Warned where the checker can tell: each part of the earlier rule's
//! `when` is implied by a part of the later rule's (or it has none), its body moves every chip of
//! the place away, and the later rule's `when` needs a chip there. A part implies another when it
//! is the same, or when both ask for at least some elements of one list (`count(x in L where F) >
//! k`, `k < count(…)`, `len(L) >= k`, `count(…) == k` with k at least 1, `… != 0`, `any(x in L
//! where F)`) and the first asks for as many or more, of the same `where` or of any when the
//! second has none. Or the earlier rule sets a state the rules keep to a constant (`set(player.moved,
//! false)`), no other rule changes that state, and a part of the later `when` is false with that
//! value (`player.moved`, `season > 1`).

use super::Checker;
use crate::ast::{AggOp, BinOp};
use crate::builtins::{Builtin, Changes, PTy, Role, Trigger};
use crate::diag::{Code, Diagnostic};
use crate::ir::{Expr, Program, Rule, Slot, Stmt, Value};

impl Checker {
    /// Warns at each rule of the file checked that an earlier rule on its trigger keeps from ever
    /// running (see the module's comment).
    pub(super) fn warn_rules_run_before(&mut self) {
        if self.diags.iter().any(|(_, d)| d.is_error()) {
            return;
        }
        let mut found = Vec::new();
        for t in Trigger::ALL {
            let ids = self.prog.rules_for(t);
            for (k, &b) in ids.iter().enumerate() {
                let later = &self.prog.rules[b as usize];
                if later.origin.file != 0 || !later.changes.is_empty() {
                    continue;
                }
                let first = ids[..k].iter().find_map(|&a| {
                    let earlier = &self.prog.rules[a as usize];
                    keeps_from_running(&self.prog, earlier, later).map(|why| (earlier, why))
                });
                if let Some((earlier, why)) = first {
                    found.push((
                        later.origin.span.clone(),
                        later.name.clone(),
                        earlier.clone(),
                        why,
                    ));
                }
            }
        }
        for (span, name, earlier, why) in found {
            let file = self
                .files
                .get(earlier.origin.file as usize)
                .map_or("", |s| s.name.as_str());
            let line = self
                .files
                .get(earlier.origin.file as usize)
                .map_or(0, |s| s.line_col(earlier.origin.span.start).0);
            self.file = 0;
            self.err(
                Diagnostic::warning(
                    Code::NoEffect,
                    span,
                    format!(
                        "rule `{name}` never runs: rule `{}` ({file}:{line}) runs before it on `{}` \
                         and {}",
                        earlier.name,
                        earlier.trigger.name(),
                        why.what()
                    ),
                )
                .with_label("never runs")
                .with_note(format!(
                    "rules on one trigger run in the order of the program, an imported file's first; \
                     to act before `{}`, `replace` or `change` it (or read what it did: {})",
                    earlier.name,
                    why.where_it_is()
                )),
            );
        }
    }
}

/// Why an earlier rule keeps a later one from ever running.
enum Why {
    /// It takes every chip of a place the later rule's `when` needs one of.
    Chips,
    /// It sets a state the rules keep (named) to a value (written) the later `when` rules out.
    State(String, String),
}

impl Why {
    fn what(&self) -> String {
        match self {
            Why::Chips => "takes every chip it needs".into(),
            Why::State(name, v) => {
                format!(
                    "sets `{name}` to {v}, which its condition rules out (no other rule sets it)"
                )
            }
        }
    }

    fn where_it_is(&self) -> String {
        match self {
            Why::Chips => "the chips are where it moved them".into(),
            Why::State(name, v) => format!("`{name}` is {v}"),
        }
    }
}

/// Whether `earlier` keeps `later` (on the same trigger, after it) from ever running, and why.
fn keeps_from_running(prog: &Program, earlier: &Rule, later: &Rule) -> Option<Why> {
    let needs = later.when.as_ref()?;
    let mut later_parts = Vec::new();
    needs.conjuncts(&mut later_parts);
    // Whenever `later`'s condition holds, `earlier`'s held before it ran.
    if let Some(w) = &earlier.when {
        let mut parts = Vec::new();
        w.conjuncts(&mut parts);
        if !parts
            .iter()
            .all(|q| later_parts.iter().any(|p| implies(p, q)))
        {
            return None;
        }
    }
    let emptied: Vec<&Expr> = earlier.body.stmts.iter().filter_map(empties).collect();
    if later_parts
        .iter()
        .filter_map(|p| needs_chips_in(p))
        .any(|place| emptied.contains(&place))
    {
        return Some(Why::Chips);
    }
    state_ruled_out(prog, earlier, &later_parts)
}

/// [`Why::State`]: a top-level `set(S, V)` of `earlier` (V a constant; S the game's or the
/// trigger's player's), no other write of S in any rule (actions run at decisions, never between
/// the rules of one trigger), and a part of the later `when` false when S is V: `S` (V false),
/// `not S` (V true), `S OP k` either way round.
fn state_ruled_out(prog: &Program, earlier: &Rule, later_parts: &[&Expr]) -> Option<Why> {
    let bound = earlier.trigger.bindings().len();
    earlier.body.stmts.iter().find_map(|s| {
        let Stmt::Effect(b, args, _) = s else {
            return None;
        };
        let (place, Expr::Const(v)) = set_of(*b, args)? else {
            return None;
        };
        let (id, player) = kept_place(place, bound)?;
        let writes: usize = prog
            .rules
            .iter()
            .map(|r| writes_of(&r.body.stmts, id))
            .sum();
        if writes != 1 {
            return None;
        }
        let read = Builtin::state_read(id, player.cloned());
        later_parts.iter().any(|p| rules_out(p, &read, v)).then(|| {
            let v = match v {
                Value::Bool(b) => b.to_string(),
                Value::Int(i) => i.to_string(),
                _ => "it".into(),
            };
            let name = prog
                .states
                .get(id as usize)
                .map_or("?", |d| d.name.as_str());
            Why::State(name.to_string(), v)
        })
    })
}

/// `set(S, V)`: a change of a kept state whose value argument has the state's type (`add`'s
/// amount is an int).
fn set_of(b: Builtin, args: &[Expr]) -> Option<(&Expr, &Expr)> {
    if b.changes() != Some(Changes::STATE) {
        return None;
    }
    let state = b.args_of(args, |p| matches!(p, PTy::State(_))).next()?;
    let value = b.args_of(args, |p| matches!(p, PTy::OfState)).next()?;
    Some((state, value))
}

/// A kept state named as a place (`season`, `player.bid` with `player` bound by the trigger: a
/// slot below `bound`): its id and its player.
fn kept_place(place: &Expr, bound: usize) -> Option<(u16, Option<&Expr>)> {
    match place {
        Expr::Const(Value::State(id, _)) => Some((*id, None)),
        Expr::Call(_, args, _) => match args.as_slice() {
            [Expr::Const(Value::State(id, _)), p @ Expr::Local(k)] if (*k as usize) < bound => {
                Some((*id, Some(p)))
            }
            _ => None,
        },
        _ => None,
    }
}

/// How many changes of kept state `id` (`set`, `add`, of any player's) `stmts` hold, at any depth.
fn writes_of(stmts: &[Stmt], id: u16) -> usize {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::Effect(b, args, _) if b.changes() == Some(Changes::STATE) => {
                let state = b.args_of(args, |p| matches!(p, PTy::State(_))).next();
                let of = |e: &Expr| match e {
                    Expr::Const(Value::State(i, _)) => Some(*i),
                    Expr::Call(_, a, _) => match a.first() {
                        Some(Expr::Const(Value::State(i, _))) => Some(*i),
                        _ => None,
                    },
                    _ => None,
                };
                // A write whose state the checker cannot name may be this one.
                usize::from(state.and_then(of).is_none_or(|i| i == id))
            }
            Stmt::If(branches, otherwise, _) => {
                branches
                    .iter()
                    .map(|(_, b)| writes_of(b, id))
                    .sum::<usize>()
                    + otherwise.as_deref().map_or(0, |b| writes_of(b, id))
            }
            Stmt::For(_, _, b, _) => writes_of(b, id),
            _ => 0,
        })
        .sum()
}

/// Whether condition `p` is false when the state read by `read` has value `v`.
fn rules_out(p: &Expr, read: &Expr, v: &Value) -> bool {
    match p {
        p if p == read => *v == Value::Bool(false),
        Expr::Not(x) if x.as_ref() == read => *v == Value::Bool(true),
        Expr::Binary(op, a, b, _) => {
            let (op, k) = match (a.as_ref(), b.as_ref()) {
                (x, Expr::Const(k)) if x == read => (*op, k),
                (Expr::Const(k), x) if x == read => match flipped(*op) {
                    Some(op) => (op, k),
                    None => return false,
                },
                _ => return false,
            };
            match (v, k) {
                (Value::Int(v), Value::Int(k)) => !match op {
                    BinOp::Eq => v == k,
                    BinOp::Ne => v != k,
                    BinOp::Lt => v < k,
                    BinOp::Le => v <= k,
                    BinOp::Gt => v > k,
                    BinOp::Ge => v >= k,
                    _ => return false,
                },
                (Value::Bool(v), Value::Bool(k)) => match op {
                    BinOp::Eq => v != k,
                    BinOp::Ne => v == k,
                    _ => false,
                },
                _ => false,
            }
        }
        _ => false,
    }
}

/// A condition that holds only when at least `min` (1 or more) elements of `list` pass `filter`
/// (the element bound to `var`; no filter: any element).
struct AtLeast<'a> {
    list: &'a Expr,
    var: Slot,
    filter: Option<&'a Expr>,
    min: i64,
}

/// Whether condition `p` holding means that `q` holds (see the module's comment).
fn implies(p: &Expr, q: &Expr) -> bool {
    if p == q {
        return true;
    }
    let (Some(p), Some(q)) = (at_least(p), at_least(q)) else {
        return false;
    };
    let filter_implied = match q.filter {
        None => true,
        Some(f) => p.var == q.var && p.filter == Some(f),
    };
    p.list == q.list && filter_implied && p.min >= q.min
}

/// `count(x in L where F) > k` and the other forms of "at least so many elements" (see the
/// module's comment), as an [`AtLeast`].
fn at_least(e: &Expr) -> Option<AtLeast<'_>> {
    match e {
        Expr::Aggregate {
            op: AggOp::Any,
            var,
            list,
            filter,
            map: None,
            ..
        } => Some(AtLeast {
            list,
            var: *var,
            filter: filter.as_deref(),
            min: 1,
        }),
        Expr::Binary(op, a, b, _) => {
            let (op, counted, k) = match (a.as_ref(), b.as_ref()) {
                (_, Expr::Const(Value::Int(k))) => (*op, a.as_ref(), *k),
                (Expr::Const(Value::Int(k)), _) => (flipped(*op)?, b.as_ref(), *k),
                _ => return None,
            };
            let min = match op {
                BinOp::Gt => k.checked_add(1)?,
                BinOp::Ge | BinOp::Eq => k,
                BinOp::Ne if k == 0 => 1,
                _ => return None,
            };
            let (list, var, filter) = counted_elements(counted)?;
            (min >= 1).then_some(AtLeast {
                list,
                var,
                filter,
                min,
            })
        }
        _ => None,
    }
}

/// `k OP x` as `x OP' k`.
fn flipped(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        BinOp::Eq | BinOp::Ne => op,
        _ => return None,
    })
}

/// What a count counts: `len(L)` and `len([x in L where F])` (a list and its filter), `count(x in
/// L where F)`.
fn counted_elements(e: &Expr) -> Option<(&Expr, Slot, Option<&Expr>)> {
    match e {
        Expr::Call(b, args, _) if b.role() == Role::Count => list_elements(args.first()?),
        Expr::Aggregate {
            op: AggOp::Count,
            var,
            list,
            filter,
            map: None,
            ..
        } => Some((list.as_ref(), *var, filter.as_deref())),
        _ => None,
    }
}

/// A list and its filter: `[x in L where F]`, or any other list whole.
fn list_elements(l: &Expr) -> Option<(&Expr, Slot, Option<&Expr>)> {
    match l {
        Expr::Aggregate {
            op: AggOp::Collect,
            var,
            list,
            filter,
            map: None,
            ..
        } => Some((list.as_ref(), *var, filter.as_deref())),
        Expr::Aggregate { .. } => None,
        l => Some((l, Slot::MAX, None)),
    }
}

/// The chips an effect moves and where to, when it moves the chips its arguments name to the place
/// they name and does nothing else (`move(chips, to, face)`: its row's role).
fn moved(b: Builtin, args: &[Expr]) -> Option<(&Expr, &Expr)> {
    if b.changes() != Some(Changes::CHIPS) {
        return None;
    }
    let chips = b.args_of(args, PTy::is_chips).next()?;
    let mut places = b.args_of(args, PTy::is_place);
    match (places.next(), places.next()) {
        (Some(to), None) => Some((chips, to)),
        _ => None,
    }
}

/// The place (a place expression) a top-level statement moves every chip of away:
/// `move(chips(P), Q, …)`, or `for c in chips(P) { … move(c, Q, …) … }` (the move at the loop's
/// top level, or in every branch of an `if … else`), Q not P, and nothing in the loop moves a chip
/// to P.
fn empties(s: &Stmt) -> Option<&Expr> {
    match s {
        Stmt::Effect(b, args, _) => {
            let (chips, to) = moved(*b, args)?;
            chips_place(chips).filter(|p| *p != to)
        }
        Stmt::For(slot, list, body, _) => {
            let place = chips_place(list)?;
            (moves_away(body, *slot, place) && !moves_to(body, place)).then_some(place)
        }
        _ => None,
    }
}

/// Whether `stmts` always move the chip bound to `slot` to a place other than `place`: a move of
/// it among them, or an `if … else` each of whose branches does.
fn moves_away(stmts: &[Stmt], slot: Slot, place: &Expr) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Effect(b, args, _) => moved(*b, args).is_some_and(|(chips, to)| {
            matches!(chips, Expr::Local(c) if *c == slot) && to != place
        }),
        Stmt::If(branches, Some(otherwise), _) => {
            branches.iter().all(|(_, b)| moves_away(b, slot, place))
                && moves_away(otherwise, slot, place)
        }
        _ => false,
    })
}

/// Whether a move among `stmts` (at any depth) puts chips in `place`.
fn moves_to(stmts: &[Stmt], place: &Expr) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Effect(b, args, _) => moved(*b, args).is_some_and(|(_, to)| to == place),
        Stmt::If(branches, otherwise, _) => {
            branches.iter().any(|(_, b)| moves_to(b, place))
                || otherwise.as_deref().is_some_and(|b| moves_to(b, place))
        }
        Stmt::For(_, _, b, _) => moves_to(b, place),
        _ => false,
    })
}

/// `chips(P)`: the place P.
fn chips_place(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Call(b, args, _) if b.role() == Role::ChipsIn => args.first(),
        _ => None,
    }
}

/// The place whose chips a condition needs: `chips(P)` as the list of an [`AtLeast`]
/// (`len(chips(P)) > 0`, `count(c in chips(P) …) >= 1`, `any(c in chips(P) …)`, `0 < len(…)`).
fn needs_chips_in(e: &Expr) -> Option<&Expr> {
    chips_place(at_least(e)?.list)
}
