//! Trigger dispatch: which rules a trigger reaches. A rule whose condition starts with a test of a
//! trigger value's feature kind (`when feature.kind == city and …`, `when kind != road …`) is only
//! run for that kind: the test is found once, before play, and checked against the trigger's values
//! without evaluating the condition. Skipping it is what evaluating the condition's first part would
//! decide (`and` stops at the first false part).

use super::Interp;
use crate::game::{Ctx, Trigger};
use crate::lang::ast::BinOp;
use crate::lang::builtins::Field;
use crate::lang::ir::{Expr, Program, Value};
use crate::state::State;

/// The first part of a rule's condition, when it compares a trigger value (or its feature's kind)
/// with a constant.
#[derive(Clone, Copy, Debug)]
pub(super) struct Guard {
    /// The trigger binding read (its slot).
    slot: u16,
    /// Whether the test reads `.kind` of the bound feature rather than the bound value itself.
    kind_of: bool,
    want: Value,
    /// `==` (true) or `!=` (false).
    equal: bool,
}

/// The leftmost part of an `and` chain.
fn first_part(e: &Expr) -> &Expr {
    match e {
        Expr::Binary(BinOp::And, a, _) => first_part(a),
        _ => e,
    }
}

/// A guard from a test `READ == CONST` or `CONST == READ` (or `!=`), READ a trigger slot or its
/// feature's kind, CONST a feature kind.
fn guard_of(e: &Expr, bound: u16) -> Option<Guard> {
    let Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) = e else {
        return None;
    };
    let (read, want) = match (a.as_ref(), b.as_ref()) {
        (r, Expr::Const(v @ Value::Kind(_))) | (Expr::Const(v @ Value::Kind(_)), r) => (r, *v),
        _ => return None,
    };
    let (slot, kind_of) = match read {
        Expr::Local(s) => (*s, false),
        Expr::Field(x, Field::FeatureKind) => match x.as_ref() {
            Expr::Local(s) => (*s, true),
            _ => return None,
        },
        _ => return None,
    };
    (slot < bound).then_some(Guard {
        slot,
        kind_of,
        want,
        equal: *op == BinOp::Eq,
    })
}

/// Per rule, its guard if its condition starts with one.
pub(super) fn guards(prog: &Program) -> Vec<Option<Guard>> {
    prog.rules
        .iter()
        .map(|r| {
            let w = r.when.as_ref()?;
            guard_of(first_part(w), r.trigger.binds().len() as u16)
        })
        .collect()
}

impl Interp {
    /// The value a trigger binds in `slot` (see [`Interp::bind_trigger`]).
    pub(super) fn trigger_value(st: &State, t: Trigger, ctx: &Ctx, slot: u16) -> Value {
        let kind = || {
            ctx.edge
                .map(|e| Value::Kind(e.feature()))
                .unwrap_or(Value::Unit)
        };
        match (t, slot) {
            (Trigger::Scored, 0) => Value::Feature(ctx.feature.root),
            (Trigger::TurnStart | Trigger::TurnEnd, 0) => Value::Player(st.current),
            (Trigger::RoundEnd | Trigger::GameEnd, _) => Value::Unit,
            (_, 0) => Value::Player(ctx.player),
            (Trigger::Gained, 1) => Value::Chip(ctx.chip),
            (Trigger::FollowerPlaced | Trigger::Returned, 1) => Value::Follower(ctx.follower),
            (Trigger::Placed | Trigger::Adjacent | Trigger::Abroad, 1) => Value::Tile(ctx.placed),
            (Trigger::Placed | Trigger::Adjacent | Trigger::Abroad, 2) => Value::Square(ctx.cell),
            (Trigger::Adjacent | Trigger::Abroad, 3) => kind(),
            _ => Value::Unit,
        }
    }

    /// Whether rule `r` can run for this trigger: false when its guard's test is false.
    pub(super) fn reaches(&mut self, st: &mut State, r: usize, t: Trigger, ctx: &Ctx) -> bool {
        let Some(g) = self.guards.get(r).copied().flatten() else {
            return true;
        };
        let v = Self::trigger_value(st, t, ctx, g.slot);
        let got = match (g.kind_of, v) {
            (false, v) => v,
            (true, Value::Feature(root)) => match self.feature(st, root).kind {
                Some(k) => Value::Kind(k),
                None => Value::Unit,
            },
            // Not a feature: the condition's own evaluation reports it.
            (true, _) => return true,
        };
        (got == g.want) == g.equal
    }
}
