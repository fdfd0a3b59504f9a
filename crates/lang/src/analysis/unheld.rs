//! Whether scoring a feature that no follower stands on may change the game: the engine's final
//! scoring scores every incomplete feature, with followers or not, and skips those without when the
//! rules say it changes nothing ([`Hooks::scores_unheld`](crate::game::Hooks::scores_unheld)).

use super::visit::{all_parts, bound_slot, Part};
use crate::builtins::{Field, Trigger};
use crate::ir::{Expr, Program, Stmt};

/// The feature a `scored` rule is about is its first local.
const FEATURE: u16 = 0;

/// Whether a `scored` rule of `prog` may do anything for a feature without winners: one whose
/// body does more than `let`, `if`, `for` and `score(feature.winners, …)` (which scores nobody
/// there). Conditions and values change nothing, so they are not looked at.
pub(crate) fn scores_unheld(prog: &Program) -> bool {
    prog.rules_for(Trigger::Scored)
        .iter()
        .any(|&r| !prog.rules[r as usize].body.stmts.iter().all(winners_only))
}

fn winners_only(s: &Stmt) -> bool {
    match s {
        Stmt::Effect(b, args, _) if b.scores_only() => matches!(
            args.first(),
            Some(Expr::Field(x, Field::FeatureWinners, _)) if matches!(**x, Expr::Local(FEATURE))
        ),
        Stmt::Effect(..) | Stmt::Ask { .. } => false,
        // A `let` or `for` that binds the feature's slot anew makes `feature` another value.
        _ => {
            bound_slot(s).is_none_or(|(slot, _)| slot != FEATURE)
                && all_parts(s, |p| match p {
                    Part::Expr(_) => true,
                    Part::Body(b) => b.iter().all(winners_only),
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::probe::variant;

    fn unheld(rules: &str) -> bool {
        scores_unheld(&variant("", rules).program)
    }

    /// The bundled base game scores only the winners; any other effect, an `ask`, a score to
    /// someone else or a rebound `feature` may change the game for a feature nobody holds.
    #[test]
    fn only_scores_to_the_winners_change_nothing() {
        let base = "rule road on scored when feature.kind == road { score(feature.winners, feature.tiles) }";
        assert!(!unheld(base));
        assert!(!unheld(
            "rule r on scored { let n = feature.tiles if n > 2 { score(feature.winners, n) } else { for p in players() { score(feature.winners, 1) } } }"
        ));
        assert!(!unheld("rule t on turn_end { score(current_player(), 1) }"));
        assert!(unheld("rule r on scored { score(current_player(), 1) }"));
        assert!(unheld(
            "rule r on scored when not feature.complete { if feature.tiles > 1 { for p in players() { score(p, 1) } } }"
        ));
        assert!(unheld(
            "rule r on scored { extra_turn_for(current_player()) }"
        ));
    }
}
