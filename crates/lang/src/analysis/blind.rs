//! Where chips are read only to move chips: a taint analysis of chip facts through the rules, for
//! agents that value options by playing them (`greedy`). Options that differ only in which chips
//! they move lead to positions that differ only in where chips lie; when nothing after them reads
//! where chips lie but to move chips again, they are worth the same.
//!
//! A value is *tainted* when it may depend on the chips: an expression that reads where chips lie
//! or which way up (`reads`: `Reads::CHIPS`), or that names a tainted local. A local is tainted when
//! any binding of its slot in the body (a `let`, a `for`, an aggregate's element, an action's
//! choice) is bound from a tainted expression; an action's choice from a tainted list (a subset of
//! the chips in a player's area, one of the chips paid) is tainted, and so is any choice listed from
//! it. The analysis is flow-insensitive (one set of tainted slots per body, grown to a fixed point),
//! so it can only over-taint.
//!
//! A body is *blind* when a tainted value reaches nothing but chips: every effect but moving,
//! drawing and shuffling chips and logging ([`chip_effect`]) is a [`blind_effect`] (scores,
//! a follower's strength, followers sent or recalled: nothing that adds a turn, a tile, a chip
//! scattered or dealt, or a question) and reads nothing tainted; a condition or a loop's list that
//! is tainted governs only chip effects. Then two runs of the body that differ only in where chips
//! lie (and in the tainted choices) change everything but the chips alike.

use super::reads::{expr_reads, Reads};
use super::visit::{
    all_parts, any_child, any_part, bound_slot, each_child, each_choice_expr, each_part, Part,
};
use crate::builtins::{Builtin, Changes};
use crate::game::{Moment, Trigger};
use crate::ir::{Action, Expr, Program, Rule, Stmt};

/// Whether effect `b` changes nothing but where chips lie (and the log): its row's
/// `Changes::CHIPS` and `LOG` (moving, drawing, shuffling chips; not scattering them on squares).
pub(crate) fn chip_effect(b: Builtin) -> bool {
    b.changes()
        .is_some_and(|c| c.within(Changes::CHIPS.with(Changes::LOG)))
}

/// Whether effect `b` is one a blind body may run with untainted arguments besides
/// [`chip_effect`]s: it changes only scores and followers (where they are, their strength).
fn blind_effect(b: Builtin) -> bool {
    b.changes().is_some_and(|c| {
        c.within(
            Changes::SCORES
                .with(Changes::STRENGTH)
                .with(Changes::FOLLOWERS),
        )
    })
}

/// Whether `e` reads where chips lie or which way up: the source of this module's taint.
fn reads_chips(e: &Expr) -> bool {
    expr_reads(e).has(Reads::CHIPS)
}

/// The tainted slots of one body, and what taints an expression by itself (`source`: for this
/// module, [`reads_chips`]).
pub(crate) struct Taint {
    slots: Vec<bool>,
    source: fn(&Expr) -> bool,
}

impl Taint {
    pub(crate) fn new(locals: u16, source: fn(&Expr) -> bool) -> Taint {
        Taint {
            slots: vec![false; usize::from(locals)],
            source,
        }
    }

    fn has(&self, s: u16) -> bool {
        self.slots.get(usize::from(s)).copied().unwrap_or(false)
    }

    /// Marks `s` tainted; whether it was not yet.
    fn add(&mut self, s: u16) -> bool {
        let s = usize::from(s);
        if self.slots.len() <= s {
            self.slots.resize(s + 1, false);
        }
        !std::mem::replace(&mut self.slots[s], true)
    }

    /// Whether `e` may be tainted: it is a source, or names a tainted local.
    pub(crate) fn tainted(&self, e: &Expr) -> bool {
        (self.source)(e) || self.names_tainted(e)
    }

    fn names_tainted(&self, e: &Expr) -> bool {
        match e {
            Expr::Local(s) => self.has(*s),
            Expr::Aggregate { var, .. } => {
                self.has(*var) || any_child(e, |x| self.names_tainted(x))
            }
            _ => any_child(e, |x| self.names_tainted(x)),
        }
    }

    /// Taints the element slot of every aggregate in `e` over a tainted list; whether any changed.
    pub(crate) fn grow_expr(&mut self, e: &Expr) -> bool {
        let mut changed = false;
        each_child(e, |x| changed |= self.grow_expr(x));
        if let Expr::Aggregate { var, list, .. } = e {
            if self.tainted(list) {
                changed |= self.add(*var);
            }
        }
        changed
    }

    /// Taints what `stmts` bind from tainted values; whether any slot changed.
    pub(crate) fn grow(&mut self, stmts: &[Stmt]) -> bool {
        let mut changed = false;
        for s in stmts {
            each_part(s, |p| {
                changed |= match p {
                    Part::Expr(e) => self.grow_expr(e),
                    Part::Body(b) => self.grow(b),
                }
            });
            if let Some((slot, e)) = bound_slot(s) {
                if self.tainted(e) {
                    changed |= self.add(slot);
                }
            }
        }
        changed
    }

    /// Taints an action's choices listed from tainted values; whether any slot changed.
    pub(crate) fn grow_choices(&mut self, a: &Action) -> bool {
        let mut changed = false;
        for ch in &a.choices {
            each_choice_expr(ch, |x| changed |= self.grow_expr(x));
            if self.tainted(&ch.from) {
                changed |= self.add(ch.slot);
            }
        }
        changed
    }

    /// Whether a tainted value in `stmts` reaches nothing but chips (see the module comment).
    fn blind(&self, stmts: &[Stmt]) -> bool {
        stmts.iter().all(|s| match s {
            Stmt::Effect(b, args, _) => {
                chip_effect(*b) || (blind_effect(*b) && args.iter().all(|x| !self.tainted(x)))
            }
            Stmt::Ask { .. } => false,
            // A tainted condition (or loop list) governs only chip effects; an untainted one,
            // blind bodies.
            _ => {
                let governs = any_part(s, |p| matches!(p, Part::Expr(e) if self.tainted(e)));
                all_parts(s, |p| match p {
                    Part::Expr(_) => true,
                    Part::Body(b) if governs => chips_only(b),
                    Part::Body(b) => self.blind(b),
                })
            }
        })
    }
}

/// Whether `stmts` do nothing but move, draw and shuffle chips and log.
fn chips_only(stmts: &[Stmt]) -> bool {
    stmts.iter().all(|s| match s {
        Stmt::Effect(b, _, _) => chip_effect(*b),
        Stmt::Ask { .. } => false,
        _ => all_parts(s, |p| match p {
            Part::Expr(_) => true,
            Part::Body(b) => chips_only(b),
        }),
    })
}

/// Whether rule `r` reads chips only to move chips: it does nothing but that, or its condition is
/// untainted and its body blind. A rule on a chip gained (which fires as often as chips move into
/// players' areas) must do nothing but move chips.
fn rule_blind(r: &Rule) -> bool {
    if chips_only(&r.body.stmts) {
        return true;
    }
    if r.trigger.moment() == Moment::ChipGained {
        return false;
    }
    let mut t = Taint::new(r.body.locals, reads_chips);
    if let Some(w) = &r.when {
        t.grow_expr(w);
    }
    while t.grow(&r.body.stmts) {}
    r.when.as_ref().is_none_or(|w| !t.tainted(w)) && t.blind(&r.body.stmts)
}

/// For action `a`, the choices (a bit per choice, in order) whose values reach nothing but chips:
/// those listed from tainted values, when the body is blind with them tainted. `None` when the
/// body is not blind (or has more than 64 choices).
pub(crate) fn free_choices(a: &Action) -> Option<u64> {
    if a.choices.len() > 64 {
        return None;
    }
    let mut t = Taint::new(a.body.locals, reads_chips);
    loop {
        let c = t.grow_choices(a);
        if !(t.grow(&a.body.stmts) | c) {
            break;
        }
    }
    if !t.blind(&a.body.stmts) {
        return None;
    }
    Some(
        a.choices
            .iter()
            .enumerate()
            .filter(|(_, ch)| t.has(ch.slot))
            .fold(0, |m, (i, _)| m | 1 << i),
    )
}

/// See [`Interp::chips_read_only_to_move_chips`](crate::interp::Interp::chips_read_only_to_move_chips).
pub(crate) fn program_blind_but(prog: &Program, exempt: &[Trigger]) -> bool {
    super::rules_but(prog, exempt).all(rule_blind)
        && prog
            .actions
            .iter()
            .filter(|a| a.phase.is_none())
            .all(|a| chips_only(&a.body.stmts))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The program of a variant whose rules are `rules`.
    fn program(rules: &str) -> std::sync::Arc<Program> {
        crate::interp::probe::variant("red 1 x 4, red 2 x 4", rules).program
    }

    use crate::interp::probe::UPGRADE;

    #[test]
    fn chips_paid_and_kept_are_free_and_the_follower_is_not() {
        let p = program(UPGRADE);
        assert_eq!(free_choices(&p.actions[0]), Some(0b101));
        // What the chips are worth reaching a score, a strength or a condition makes the body read them.
        for body in [
            "score(player, len(pay))",
            "strength(target, first(keep).value)",
            "if len(keep) > 0 { score(player, 1) }",
            "for c in keep { strength(target, 2) }",
            "let n = sum(c in pay: c.value)\nscore(player, n)",
        ] {
            let p = program(&UPGRADE.replace("strength(target, 2)", body));
            assert_eq!(free_choices(&p.actions[0]), None, "{body}");
        }
        // Chips read only to move chips (a condition, a loop) keep the body blind.
        let body = "if len(keep) > 0 { move(pay, box, up) }\nfor c in pay { move(c, box, up) }";
        let p = program(&UPGRADE.replace("strength(target, 2)", body));
        assert_eq!(free_choices(&p.actions[0]), Some(0b101));
    }

    #[test]
    fn rules_that_read_chips_only_to_move_them_are_blind() {
        let exempt = [Trigger::Placed];
        let blind = |rules: &str| program_blind_but(&program(rules), &exempt);
        assert!(blind(UPGRADE));
        assert!(blind(&format!(
            "{UPGRADE}rule down on returned when follower.strength != 1 {{\n\
             move(chips(under(follower)), box, up)\nstrength(follower, 1)\n}}"
        )));
        // An exempt trigger's rule may read chips to score.
        assert!(blind(
            "rule take on placed { for c in chips(at(square)) { score(player, c.value) } }"
        ));
        // Elsewhere, chips reaching a score, a condition on scoring, or a rule on a chip gained
        // that scores, are read.
        assert!(!blind(
            "rule r on returned { score(player, len(chips(hand(player)))) }"
        ));
        assert!(!blind(
            "rule r on returned when len(chips(under(follower))) > 0 { score(player, 1) }"
        ));
        assert!(!blind("rule r on gained { score(player, 1) }"));
        assert!(blind("rule r on gained { move(chip, box, up) }"));
        // A forced action that does more than move chips.
        assert!(!blind(
            "forced f when len(chips(hand(player))) > 3 { score(player, -1) }"
        ));
    }
}
