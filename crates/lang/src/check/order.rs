//! Rules that can never run because a rule before them on the same trigger acts first: the
//! rules on one trigger run in the order of the program (an imported file's first), so a rule that
//! needs chips in a place that an earlier rule always empties, under a condition the later rule's
//! own implies, never finds them (a house rule's `placed` rule reading the chips a bundled `placed`
//! rule already collected). Warned where the checker can tell: the earlier rule's `when` is a part
//! of the later rule's (or it has none), its body moves every chip of the place away, and the later
//! rule's `when` needs a chip there.

use super::Checker;
use crate::ast::{AggOp, BinOp};
use crate::builtins::{Builtin, Changes, PTy, Role, Trigger};
use crate::diag::{Code, Diagnostic};
use crate::ir::{Expr, Rule, Stmt, Value};

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
                let first = ids[..k]
                    .iter()
                    .map(|&a| &self.prog.rules[a as usize])
                    .find(|earlier| keeps_from_running(earlier, later));
                if let Some(earlier) = first {
                    found.push((
                        later.origin.span.clone(),
                        later.name.clone(),
                        earlier.clone(),
                    ));
                }
            }
        }
        for (span, name, earlier) in found {
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
                         and takes every chip it needs",
                        earlier.name,
                        earlier.trigger.name()
                    ),
                )
                .with_label("never runs")
                .with_note(format!(
                    "rules on one trigger run in the order of the program, an imported file's first; \
                     to act before `{}`, `replace` or `change` it (or read what it did: the chips are \
                     where it moved them)",
                    earlier.name
                )),
            );
        }
    }
}

/// Whether `earlier` keeps `later` (on the same trigger, after it) from ever running.
fn keeps_from_running(earlier: &Rule, later: &Rule) -> bool {
    let Some(needs) = later.when.as_ref() else {
        return false;
    };
    let mut later_parts = Vec::new();
    needs.conjuncts(&mut later_parts);
    // Whenever `later`'s condition holds, `earlier`'s held before it ran.
    if let Some(w) = &earlier.when {
        let mut parts = Vec::new();
        w.conjuncts(&mut parts);
        if !parts.iter().all(|p| later_parts.contains(p)) {
            return false;
        }
    }
    let emptied: Vec<&Expr> = earlier.body.stmts.iter().filter_map(empties).collect();
    later_parts
        .iter()
        .filter_map(|p| needs_chips_in(p))
        .any(|place| emptied.contains(&place))
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
/// `move(chips(P), Q, …)`, or `for c in chips(P) { … move(c, Q, …) … }`, Q not P.
fn empties(s: &Stmt) -> Option<&Expr> {
    match s {
        Stmt::Effect(b, args, _) => {
            let (chips, to) = moved(*b, args)?;
            chips_place(chips).filter(|p| *p != to)
        }
        Stmt::For(slot, list, body, _) => {
            let place = chips_place(list)?;
            body.iter()
                .any(|s| match s {
                    Stmt::Effect(b, args, _) => moved(*b, args).is_some_and(|(chips, to)| {
                        matches!(chips, Expr::Local(c) if c == slot) && to != place
                    }),
                    _ => false,
                })
                .then_some(place)
        }
        _ => None,
    }
}

/// `chips(P)`: the place P.
fn chips_place(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Call(b, args) if b.role() == Role::ChipsIn => args.first(),
        _ => None,
    }
}

/// The place whose chips a condition needs: `len(chips(P)) > 0` (`>= 1`, `!= 0`), `count(c in
/// chips(P) …) > 0`, `any(c in chips(P) …)`.
fn needs_chips_in(e: &Expr) -> Option<&Expr> {
    let some = |op: BinOp, k: &Expr| {
        matches!(
            (op, k),
            (BinOp::Gt | BinOp::Ne, Expr::Const(Value::Int(0)))
                | (BinOp::Ge, Expr::Const(Value::Int(1)))
        )
    };
    match e {
        Expr::Binary(op, counted, k) if some(*op, k) => match counted.as_ref() {
            Expr::Call(b, args) if b.role() == Role::Count => args.first().and_then(chips_place),
            Expr::Aggregate {
                op: AggOp::Count,
                list,
                ..
            } => chips_place(list),
            _ => None,
        },
        Expr::Aggregate {
            op: AggOp::Any,
            list,
            ..
        } => chips_place(list),
        _ => None,
    }
}
