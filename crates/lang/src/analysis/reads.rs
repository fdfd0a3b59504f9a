//! What the forced check reads, by kind of fact, worked out before play, so that a check that found
//! nothing is not run again while nothing it reads has changed.
//!
//! A forced action's condition and choices are walked once: map facts, parameters, constants and
//! the players read nothing that changes during a game; chips (where they lie, which way up) change
//! only when the state's chip counter moves; the board's tiles only when one more tile is placed;
//! anything else (scores, followers, features, turn facts) counts as unknown, and a check that reads
//! something unknown always runs. The current player is always part of what a check reads (it is
//! the action's `player`): a quiet check is remembered per current player, so that a player's next
//! turn finds it still quiet when no chip (or tile) it reads has changed since. An action with
//! limits reads the turn's facts too.

use super::visit::{each_child, each_choice_expr};
use crate::ir::{Action, Expr, Program};

pub(crate) use crate::builtins::Reads;

/// What evaluating `e` reads.
pub(crate) fn expr_reads(e: &Expr) -> Reads {
    // Map attributes never change: an attribute reads what its square's expression reads.
    let mut r = match e {
        Expr::Field(_, f, _) => f.info().reads,
        Expr::Call(b, _, _) => b.info().reads,
        _ => Reads::default(),
    };
    each_child(e, |x| r = r.with(expr_reads(x)));
    r
}

/// What an action's `when` reads, and what its `when`, limits and choices read together.
fn action_reads(a: &Action) -> (Reads, Reads) {
    let mut when = a.when.as_ref().map_or(Reads::default(), expr_reads);
    if !a.limits.is_empty() {
        when = when.with(Reads::TURN);
    }
    let mut all = when;
    for ch in &a.choices {
        each_choice_expr(ch, |x| all = all.with(expr_reads(x)));
    }
    (when, all)
}

/// What the forced check reads: when every forced `when` was false (`.0`), and otherwise (`.1`).
pub(crate) fn forced_reads(prog: &Program) -> (Reads, Reads) {
    prog.actions
        .iter()
        .filter(|a| a.phase.is_none())
        .map(action_reads)
        .fold((Reads::default(), Reads::default()), |(w, a), (w2, a2)| {
            (w.with(w2), a.with(a2))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::{Builtin, Field};
    use crate::ir::{Src, Value};

    use crate::interp::probe::{forced as probe, LAY};

    #[test]
    fn a_when_on_chips_and_choices_on_squares() {
        let v = probe(LAY);
        let both = Reads::CHIPS.with(Reads::TILES);
        assert_eq!(forced_reads(&v.program), (Reads::CHIPS, both));
    }

    #[test]
    fn scores_are_unknown() {
        let v = probe("forced pay when player.score > 3 { score(player, -1) }");
        let (when, all) = forced_reads(&v.program);
        assert!(when.has(Reads::UNKNOWN) && all == when);
    }

    #[test]
    fn no_forced_action_reads_nothing() {
        let v = probe("rule r on placed { score(player, 1) }");
        assert_eq!(
            forced_reads(&v.program),
            (Reads::default(), Reads::default())
        );
    }

    #[test]
    fn turn_facts_are_unknown_and_map_facts_constant() {
        let turn = Expr::Binary(
            crate::ast::BinOp::Gt,
            Box::new(Expr::Call(
                Builtin::from_name("turn_number").expect("a builtin"),
                vec![],
                Src::NONE,
            )),
            Box::new(Expr::Const(Value::Int(3))),
            Src::NONE,
        );
        assert!(expr_reads(&turn).has(Reads::UNKNOWN));
        let land = Expr::Field(Box::new(Expr::Local(1)), Field::SquareLand, Src::NONE);
        assert_eq!(expr_reads(&land), Reads::default());
    }
}
