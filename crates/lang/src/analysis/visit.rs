//! The one walker over the lowered IR that the analyses share: what lies directly inside an
//! expression ([`any_child`]) and a statement ([`any_part`]), in the order it is written. An
//! analysis says what it does at the nodes it cares about (a field, a call, an effect, a slot
//! bound) and hands every other node to the walker, so a new kind of expression or statement is
//! added here once, not in each analysis.

use crate::ir::{Choice, ChoiceKind, Expr, Stmt};

/// Whether `f` holds for an expression directly inside `e` (an aggregate's list, then its filter
/// and map), tried in order until one does.
pub(crate) fn any_child(e: &Expr, mut f: impl FnMut(&Expr) -> bool) -> bool {
    match e {
        Expr::Const(_) | Expr::Param(_) | Expr::Local(_) => false,
        Expr::List(items) | Expr::Call(_, items, _) => items.iter().any(f),
        Expr::Range(a, b, _) | Expr::Index(a, b, _) | Expr::Binary(_, a, b, _) => f(a) || f(b),
        Expr::If(c, a, b) => f(c) || f(a) || f(b),
        Expr::Field(x, _, _)
        | Expr::Attr(x, _, _)
        | Expr::Not(x)
        | Expr::Neg(x, _)
        | Expr::ToPlayers(x) => f(x),
        Expr::Aggregate {
            list, filter, map, ..
        } => f(list) || filter.iter().chain(map.iter()).any(|x| f(x)),
    }
}

/// Whether `f` holds for every expression directly inside `e`.
pub(crate) fn all_children(e: &Expr, mut f: impl FnMut(&Expr) -> bool) -> bool {
    !any_child(e, |x| !f(x))
}

/// Calls `f` on every expression directly inside `e`, in order.
pub(crate) fn each_child(e: &Expr, mut f: impl FnMut(&Expr)) {
    any_child(e, |x| {
        f(x);
        false
    });
}

/// A part of a statement: an expression it evaluates itself, or a body it runs.
#[derive(Clone, Copy)]
pub(crate) enum Part<'a> {
    Expr(&'a Expr),
    Body(&'a [Stmt]),
}

/// Whether `f` holds for a part of `s`, tried in the order written until one does: a `let`'s
/// value; each `if` branch's condition then body, then the `else`; a `for`'s list then body; an
/// effect's arguments; an `ask`'s player then arguments.
pub(crate) fn any_part(s: &Stmt, mut f: impl FnMut(Part) -> bool) -> bool {
    match s {
        Stmt::Let(_, e, _) => f(Part::Expr(e)),
        Stmt::If(arms, other, _) => {
            arms.iter()
                .any(|(c, b)| f(Part::Expr(c)) || f(Part::Body(b)))
                || other.as_deref().is_some_and(|b| f(Part::Body(b)))
        }
        Stmt::For(_, e, b, _) => f(Part::Expr(e)) || f(Part::Body(b)),
        Stmt::Effect(_, args, _) => args.iter().any(|x| f(Part::Expr(x))),
        Stmt::Ask { who, args, .. } => f(Part::Expr(who)) || args.iter().any(|x| f(Part::Expr(x))),
    }
}

/// Whether `f` holds for every part of `s`.
pub(crate) fn all_parts(s: &Stmt, mut f: impl FnMut(Part) -> bool) -> bool {
    !any_part(s, |p| !f(p))
}

/// Calls `f` on every part of `s`, in order.
pub(crate) fn each_part(s: &Stmt, mut f: impl FnMut(Part)) {
    any_part(s, |p| {
        f(p);
        false
    });
}

/// The slot `s` binds for its body or what follows (`let`, `for`), if any.
pub(crate) fn bound_slot(s: &Stmt) -> Option<(u16, &Expr)> {
    match s {
        Stmt::Let(slot, e, _) | Stmt::For(slot, e, _, _) => Some((*slot, e)),
        _ => None,
    }
}

/// Whether `f` holds for an expression of choice `ch`, tried in order until one does: the list
/// it is made from, its `where`, and the size of a subset of chips.
pub(crate) fn any_choice_expr(ch: &Choice, mut f: impl FnMut(&Expr) -> bool) -> bool {
    f(&ch.from)
        || ch.filter.as_ref().is_some_and(&mut f)
        || matches!(&ch.kind, ChoiceKind::Chips { size: Some(s) } if f(s))
}

/// Calls `f` on every expression of choice `ch`, in order.
pub(crate) fn each_choice_expr(ch: &Choice, mut f: impl FnMut(&Expr)) {
    any_choice_expr(ch, |x| {
        f(x);
        false
    });
}
