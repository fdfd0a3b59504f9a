//! Trigger dispatch: which rules a trigger reaches, decided without running the rule where a test
//! of the trigger's values settles it (skipping a rule is what evaluating its condition's first part
//! would decide: `and` stops at the first false part). Three kinds of tests are found once, before
//! play:
//! - a test of a trigger value's feature kind (`when feature.kind == city and …`, `when kind != road
//!   …`), checked against the trigger's values;
//! - a count of the chips on the trigger's square (`when count(c in chips(at(square)) where …) > 0`,
//!   `any(c in square.chips …)`, `len(chips(at(square))) > 0`), false while no chip lies there: the
//!   state's count per square says so without evaluating anything;
//! - parts that read only map facts of the trigger's square (`when square.island and …`: see
//!   `analysis::statics::is_static`), evaluated once per square and rule, then remembered for the
//!   interpreter's life (the map and the parameters do not change between its games).

use super::lower::{local_square_chips, Lower, TestId};
use super::{Interp, R};
use crate::ast::{AggOp, BinOp};
use crate::builtins::{Field, Role};
use crate::game::{Ctx, Origin, Trigger};
use crate::ir::{Expr, Program, Value};
use crate::state::{Place, State};

/// A test at the start of a rule's condition that the trigger's values settle.
#[derive(Clone, Copy, Debug)]
pub(super) enum Guard {
    /// A trigger value (or its feature's kind) compared with a constant.
    Kind {
        /// The trigger binding read (its slot).
        slot: u16,
        /// Whether the test reads `.kind` of the bound feature rather than the bound value itself.
        kind_of: bool,
        want: Value,
        /// `==` (true) or `!=` (false).
        equal: bool,
    },
    /// False while no chip lies on the square bound in `slot`.
    Chips { slot: u16 },
}

/// The leftmost part of an `and` chain.
fn first_part(e: &Expr) -> &Expr {
    match e {
        Expr::Binary(BinOp::And, a, _, _) => first_part(a),
        _ => e,
    }
}

/// A guard from a test `READ == CONST` or `CONST == READ` (or `!=`), READ a trigger slot or its
/// feature's kind, CONST a feature kind.
fn guard_of(e: &Expr, bound: u16) -> Option<Guard> {
    if let Some(slot) = chips_test(e).filter(|&s| s < bound) {
        return Some(Guard::Chips { slot });
    }
    let Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b, _) = e else {
        return None;
    };
    let (read, want) = match (a.as_ref(), b.as_ref()) {
        (r, Expr::Const(v @ Value::Kind(_))) | (Expr::Const(v @ Value::Kind(_)), r) => (r, *v),
        _ => return None,
    };
    let (slot, kind_of) = match read {
        Expr::Local(s) => (*s, false),
        Expr::Field(x, Field::FeatureKind, _) => match x.as_ref() {
            Expr::Local(s) => (*s, true),
            _ => return None,
        },
        _ => return None,
    };
    (slot < bound).then_some(Guard::Kind {
        slot,
        kind_of,
        want,
        equal: *op == BinOp::Eq,
    })
}

/// The slot of `s` when `e` is a test that is false while no chip lies on square `s`: `any` over
/// its chips, or a count, sum, min or max over them (0 for no chips) that must be above 0.
fn chips_test(e: &Expr) -> Option<u16> {
    let zero = |x: &Expr| matches!(x, Expr::Const(Value::Int(0)));
    let one = |x: &Expr| matches!(x, Expr::Const(Value::Int(1)));
    match e {
        Expr::Aggregate {
            op: AggOp::Any,
            list,
            ..
        } => local_square_chips(list),
        Expr::Binary(BinOp::Gt | BinOp::Ne, a, b, _) if zero(b) => counted(a),
        Expr::Binary(BinOp::Ge, a, b, _) if one(b) => counted(a),
        Expr::Binary(BinOp::Lt | BinOp::Ne, a, b, _) if zero(a) => counted(b),
        Expr::Binary(BinOp::Le, a, b, _) if one(a) => counted(b),
        _ => None,
    }
}

/// A number that is 0 when no chip lies on a square: the square's slot.
fn counted(e: &Expr) -> Option<u16> {
    match e {
        Expr::Aggregate {
            op: AggOp::Count | AggOp::Sum | AggOp::Min | AggOp::Max,
            list,
            ..
        } => local_square_chips(list),
        Expr::Call(b, args, _) if b.role() == Role::Count && args.len() == 1 => {
            local_square_chips(&args[0])
        }
        _ => None,
    }
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

/// The first parts of a rule's condition that read only map facts of the square in one trigger
/// slot (and parameters and constants), lowered into the program's plan.
pub(super) struct StaticPart {
    slot: u16,
    conds: Vec<TestId>,
}

/// Per rule, its static first parts if its condition starts with some, lowered by `lw`.
pub(super) fn static_parts(prog: &Program, lw: &mut Lower) -> Vec<Option<StaticPart>> {
    prog.rules
        .iter()
        .map(|r| {
            let w = r.when.as_ref()?;
            let bound = r.trigger.binds().len() as u16;
            let mut parts = Vec::new();
            w.conjuncts(&mut parts);
            let mut slot = None;
            let mut conds = Vec::new();
            for p in parts {
                let mut free = Vec::new();
                if !crate::analysis::statics::is_static(p, &mut Vec::new(), &mut free) {
                    break;
                }
                // Every outside variable it reads is the one trigger slot.
                let Some(s) = free.first().map(|k| k.slot()) else {
                    break;
                };
                if s >= bound || free.iter().any(|k| k.slot() != s) || slot.is_some_and(|t| t != s)
                {
                    break;
                }
                slot = Some(s);
                conds.push(lw.test(p, true));
            }
            Some(StaticPart { slot: slot?, conds })
        })
        .collect()
}

/// What the memo says of a rule's static parts for one trigger.
pub(super) enum Known {
    /// No static parts, or a value that is not a square.
    Nothing,
    Is(bool),
    /// Not worked out yet for this square: evaluate with [`Interp::learn_static`].
    Unknown(u32),
}

impl Interp {
    /// The value a trigger binds in `slot` (see [`Interp::bind_trigger`]), read where its row
    /// says (`Trigger::bindings`).
    #[inline]
    pub(super) fn trigger_value(st: &State, t: Trigger, ctx: &Ctx, slot: u16) -> Value {
        match t.bindings().get(slot as usize) {
            Some(b) => Self::bound_value(st, ctx, b.from),
            None => Value::Unit,
        }
    }

    /// The value of a binding that comes from `from`.
    #[inline]
    pub(super) fn bound_value(st: &State, ctx: &Ctx, from: Origin) -> Value {
        match from {
            Origin::Player => Value::Player(ctx.player),
            Origin::Current => Value::Player(st.current),
            Origin::Tile => Value::Tile(ctx.placed),
            Origin::Square => Value::Square(ctx.cell),
            Origin::Edge => ctx
                .edge
                .map(|e| Value::Kind(e.feature()))
                .unwrap_or(Value::Unit),
            Origin::Chip => Value::Chip(ctx.chip),
            Origin::Follower => Value::Follower(ctx.follower),
            Origin::Feature => Value::Feature(ctx.feature.root),
        }
    }

    /// Whether rule `r` can run for this trigger: false when its guard's test is false.
    pub(super) fn reaches(&mut self, st: &mut State, r: usize, t: Trigger, ctx: &Ctx) -> bool {
        let (slot, kind_of, want, equal) = match self.prep.guards.get(r).copied().flatten() {
            None => return true,
            Some(Guard::Chips { slot }) => {
                return match Self::trigger_value(st, t, ctx, slot) {
                    Value::Square(c) => st.chip_count(Place::Square(c)) != Some(0),
                    _ => true,
                }
            }
            Some(Guard::Kind {
                slot,
                kind_of,
                want,
                equal,
            }) => (slot, kind_of, want, equal),
        };
        let v = Self::trigger_value(st, t, ctx, slot);
        let got = match (kind_of, v) {
            (false, v) => v,
            (true, Value::Feature(root)) => match self.feature(st, root).kind {
                Some(k) => Value::Kind(k),
                None => Value::Unit,
            },
            // Not a feature: the condition's own evaluation reports it.
            (true, _) => return true,
        };
        (got == want) == equal
    }

    /// What the memo knows of rule `r`'s static parts for this trigger's square.
    pub(super) fn static_known(&self, st: &State, r: usize, t: Trigger, ctx: &Ctx) -> Known {
        let Some(Some(part)) = self.prep.static_parts.get(r) else {
            return Known::Nothing;
        };
        let Value::Square(c) = Self::trigger_value(st, t, ctx, part.slot) else {
            return Known::Nothing;
        };
        match self.caches.static_memo.get(r, c) {
            Some(known) => Known::Is(known),
            _ => Known::Unknown(c),
        }
    }

    /// Evaluates rule `r`'s static parts (its trigger values bound) and remembers the answer for
    /// square `cell`.
    pub(super) fn learn_static(&mut self, st: &mut State, r: usize, cell: u32) -> R<bool> {
        let all = self.static_parts_hold(st, r)?;
        self.caches
            .static_memo
            .set(r, cell, st.board.square.len(), all);
        Ok(all)
    }

    /// Whether rule `r`'s static parts hold (its trigger values bound), computed afresh.
    fn static_parts_hold(&mut self, st: &mut State, r: usize) -> R<bool> {
        let prep = self.prep.clone();
        let Some(Some(part)) = prep.static_parts.get(r) else {
            return Ok(true);
        };
        for &c in &part.conds {
            if !self.truth(st, c)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The checking mode: what the memo says of rule `r`'s static parts (`known`) against their
    /// value computed afresh, in a frame of their own.
    pub(super) fn check_static(
        &mut self,
        st: &mut State,
        r: usize,
        t: Trigger,
        ctx: &Ctx,
        known: bool,
    ) -> R<()> {
        let (current, locals) = (self.current, self.prog.rules[r].body.locals.max(4));
        self.current = r as u16;
        let saved = self.enter(locals);
        let fresh = self
            .bind_trigger(st, t, ctx)
            .and_then(|_| self.static_parts_hold(st, r));
        self.leave(saved);
        self.current = current;
        let fresh = fresh?;
        if fresh != known {
            super::caches::stale("static parts", &self.prep.names[r], &known, &fresh);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A variant of the endless table whose rules end with `rules`.
    fn probe(rules: &str) -> super::super::probe::Probe {
        super::super::probe::variant("red 1 x 2", rules)
    }

    /// Final scores of games played at random with `rules`, one game after another in one
    /// interpreter (as `bench` does), and the interpreter at the end.
    fn scores(rules: &str, seeds: u64) -> (Vec<Vec<i64>>, Interp) {
        super::super::probe::scores(&probe(rules), &["ann", "bob", "cyd"], seeds)
    }

    fn guard(when: &str) -> Option<Guard> {
        let v = probe(&format!(
            "rule r on placed when {when} {{ score(player, 1) }}"
        ));
        let r = v.program.rules.iter().position(|r| r.name == "r");
        guards(&v.program)[r.expect("rule r")]
    }

    #[test]
    fn chip_counts_on_the_trigger_square_are_guards() {
        for when in [
            "count(c in chips(at(square)) where c.face_up) > 0",
            "len(square.chips) >= 1",
            "0 < sum(c in square.chips: c.value) and player.score > 3",
            "any(c in chips(at(square)): c.value == 2)",
        ] {
            let g = guard(when);
            assert!(matches!(g, Some(Guard::Chips { slot: 2 })), "{when}: {g:?}");
        }
        // A count that may be true with no chip there, or counts chips elsewhere, is not one.
        for when in [
            "count(c in chips(at(square))) >= 0",
            "count(c in chips(hand(player))) > 0",
            "not (len(square.chips) > 0)",
        ] {
            let g = guard(when);
            assert!(g.is_none(), "{when}: {g:?}");
        }
    }

    /// Leading parts that read only map facts of the placed square are remembered per square, and
    /// the games are those that evaluating every condition gives (the same rules, each condition led
    /// by a part that is not static).
    #[test]
    fn remembered_map_facts_change_no_game() {
        let rules = |lead: &str| {
            format!(
                "rule s on placed when {lead}square.x > 1 and square.y < 1 and not square.covered \
                   {{ score(player, 5) }}\n\
                 rule t on placed when {lead}square.x < 0 and square.y > 0 {{ score(player, 7) }}\n\
                 rule u on placed when {lead}square.x > 0 and player.score > 20 {{ score(player, 1) }}"
            )
        };
        let (fast, interp) = scores(&rules(""), 4);
        let (slow, plain) = scores(&rules("tiles_left() >= 0 and "), 4);
        assert_eq!(fast, slow);
        assert!(fast.iter().flatten().any(|&s| s > 0));
        let at = |name: &str| {
            let r = interp.prog.rules.iter().position(|r| r.name == name);
            r.expect("a rule of the probe")
        };
        assert!(plain.prep.static_parts.iter().all(|p| p.is_none()));
        // `t` is static as a whole, `u` up to its score; `s` up to `covered`.
        let parts: Vec<usize> = ["s", "t", "u"]
            .iter()
            .map(|n| {
                interp.prep.static_parts[at(n)]
                    .as_ref()
                    .map_or(0, |p| p.conds.len())
            })
            .collect();
        assert_eq!(parts, vec![2, 2, 1]);
        // Squares were remembered both ways.
        for n in ["s", "t", "u"] {
            assert!(interp.caches.static_memo.known_both_ways(at(n)), "{n}");
        }
    }
}
