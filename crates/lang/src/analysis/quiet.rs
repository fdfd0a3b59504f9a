//! For agents that value an option without playing it (`greedy`): what the rules listening to a
//! trigger do, and what the forced actions' conditions read, worked out from the program alone.

use super::reads::{expr_reads, Reads};
use super::visit::{all_children, all_parts, Part};
use crate::builtins::Changes;
use crate::game::Trigger;
use crate::ir::{Program, Stmt};

/// Whether every rule listening to `t` reads, in its condition and its body, nothing but chips
/// (where they lie, which way up, their faces), which squares are covered, map facts,
/// parameters, constants and the values it binds (`reads`: no score, follower, feature, tile or
/// turn fact), and does nothing but score, move, draw and shuffle chips and log (no follower,
/// tile or turn effect, no question). Fired for one square by one player, each such rule then
/// runs alike whatever tile covers the square and however it is turned, and changes nothing
/// but scores and chips.
pub(crate) fn rules_score_and_move_chips_by_square(prog: &Program, t: Trigger) -> bool {
    let settled = |e: &crate::ir::Expr| {
        let r = expr_reads(e);
        !r.has(Reads::UNKNOWN) && !r.has(Reads::TURN)
    };
    prog.rules_for(t).iter().all(|&r| {
        let rule = &prog.rules[r as usize];
        rule.when.as_ref().is_none_or(settled) && scores_and_moves_chips(&rule.body.stmts, &settled)
    })
}

/// Whether every forced action's `when` (`forced`: what they read, see
/// [`forced_reads`](super::reads::forced_reads)) reads chips only as the chips in players' areas
/// (`chips(hand(…))`: their number, faces and which way up) and otherwise only map facts,
/// parameters, constants and players. Then, while every chip in a player's area but the
/// decider's lies face up, `Interp::no_forced_while_chips_stay` answers in a copy of the game
/// with its chips as they lie (and its current player and turn) what it answers in a copy whose
/// hidden chips (face down, not in the decider's area) are dealt afresh: no chip it reads is
/// hidden.
pub(crate) fn forced_reads_only_hands(prog: &Program, (when, _): (Reads, Reads)) -> bool {
    if when.has(Reads::UNKNOWN) || when.has(Reads::TILES) || when.has(Reads::TURN) {
        return false;
    }
    prog.actions
        .iter()
        .filter(|a| a.phase.is_none())
        .all(|a| a.limits.is_empty() && a.when.as_ref().is_some_and(hand_chips_only))
}

/// Whether `stmts` do nothing but score, move, draw and shuffle chips and log, with every
/// expression `settled`.
fn scores_and_moves_chips(stmts: &[Stmt], settled: &dyn Fn(&crate::ir::Expr) -> bool) -> bool {
    stmts.iter().all(|s| match s {
        Stmt::Effect(b, args, _) => {
            b.changes()
                .is_some_and(|c| c.within(Changes::SCORES.with(Changes::CHIPS).with(Changes::LOG)))
                && args.iter().all(settled)
        }
        Stmt::Ask { .. } => false,
        _ => all_parts(s, |p| match p {
            Part::Expr(e) => settled(e),
            Part::Body(b) => scores_and_moves_chips(b, settled),
        }),
    })
}

/// Whether `e` reads chips only through `chips(hand(…))` and `face_up` (see
/// [`forced_reads_only_hands`]).
fn hand_chips_only(e: &crate::ir::Expr) -> bool {
    use crate::builtins::{Base, PlaceKind, Role};
    use crate::ir::Expr;
    match e {
        // A chip's own fields read only that chip (one from a hand, here).
        Expr::Field(x, f, _) => {
            (f.info().owner == Base::Chip || !f.info().reads.has(Reads::CHIPS))
                && hand_chips_only(x)
        }
        Expr::Call(b, args, _) if b.role() == Role::ChipsIn => match args.as_slice() {
            [Expr::Call(hand, who, _)] if hand.role() == Role::Place(PlaceKind::Hand) => {
                who.iter().all(hand_chips_only)
            }
            _ => false,
        },
        Expr::Call(b, _, _) => {
            !b.info().reads.has(Reads::CHIPS) && all_children(e, hand_chips_only)
        }
        _ => all_children(e, hand_chips_only),
    }
}
