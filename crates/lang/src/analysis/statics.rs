//! Which aggregates are static (their value depends only on the map, the parameters, constants and
//! what they read of the outside variables they name), found once per program: the interpreter
//! computes each once per value of what it reads and keeps it (`interp/aggregate.rs`, the cache
//! `StaticVals`). Whether a builtin or field may be part of one is its row's `static` column.

use super::visit::{all_children, each_child, each_part, Part};
use crate::builtins::Field;
use crate::ir::{Expr, Program, Stmt};

/// What a static aggregate reads of an outside variable: the variable's value, or one of its
/// properties that never change (`chip.colour`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    Local(u16),
    Field(u16, Field),
}

impl Key {
    pub(crate) fn slot(self) -> u16 {
        match self {
            Key::Local(s) | Key::Field(s, _) => s,
        }
    }
}

/// Whether an expression's value depends only on the map, the parameters, constants, the variables
/// of aggregates inside it, and what it reads of the outside variables it names (collected in
/// `free`: a variable itself, or a property of it that never changes). Such an aggregate is computed
/// once per value of what it reads of its outside variables.
pub(crate) fn is_static(e: &Expr, bound: &mut Vec<u16>, free: &mut Vec<Key>) -> bool {
    let mut note = |k: Key| {
        if !bound.contains(&k.slot()) && !free.contains(&k) {
            free.push(k);
        }
    };
    match e {
        Expr::Local(s) => {
            note(Key::Local(*s));
            true
        }
        // An outside variable read only through a property that never changes: the property is
        // what the value depends on.
        Expr::Field(x, f, _) if f.info().stat && matches!(x.as_ref(), Expr::Local(_)) => {
            if let Expr::Local(s) = x.as_ref() {
                note(Key::Field(*s, *f));
            }
            true
        }
        Expr::Field(_, f, _) if !f.info().stat => false,
        Expr::Call(b, _, _) if !b.info().stat => false,
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
        _ => all_children(e, |x| is_static(x, bound, free)),
    }
}

/// Collects the outermost static aggregates of an expression.
fn find_static(e: &Expr, out: &mut Vec<(usize, Vec<Key>)>) {
    if let Expr::Aggregate { .. } = e {
        let mut free = Vec::new();
        if is_static(e, &mut Vec::new(), &mut free) {
            out.push((e as *const Expr as usize, free));
            return;
        }
    }
    each_child(e, |x| find_static(x, out));
}

fn find_static_stmts(stmts: &[Stmt], out: &mut Vec<(usize, Vec<Key>)>) {
    for s in stmts {
        each_part(s, |p| match p {
            Part::Expr(e) => find_static(e, out),
            Part::Body(b) => find_static_stmts(b, out),
        });
    }
}

pub(crate) fn static_aggregates(prog: &Program) -> Vec<(usize, Vec<Key>)> {
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
    out.sort_unstable_by_key(|(k, _)| *k);
    out.dedup_by_key(|(k, _)| *k);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Src;

    #[test]
    fn a_variable_read_itself_is_the_key() {
        let c = Expr::Local(3);
        let colour = Expr::Field(Box::new(c.clone()), Field::ChipColour, Src::NONE);
        let both = Expr::Binary(
            crate::ast::BinOp::Eq,
            Box::new(Expr::List(vec![c])),
            Box::new(colour.clone()),
            Src::NONE,
        );
        let mut free = Vec::new();
        assert!(is_static(&colour, &mut Vec::new(), &mut free));
        assert_eq!(free, vec![Key::Field(3, Field::ChipColour)]);
        let mut free = Vec::new();
        assert!(is_static(&both, &mut Vec::new(), &mut free));
        assert_eq!(free, vec![Key::Local(3), Key::Field(3, Field::ChipColour)]);
        // Bound by an aggregate inside: not a key.
        let mut free = Vec::new();
        assert!(is_static(&colour, &mut vec![3], &mut free));
        assert!(free.is_empty());
    }
}
