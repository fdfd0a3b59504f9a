//! Where the rules read what a player may not see, for agents that play an option in a copy of the
//! game (`greedy`): a copy in which what the deciding player cannot see is dealt afresh (a sample)
//! plays as the game itself when the rules read none of it.
//!
//! What a sample deals afresh: the order of the tiles to draw and of the tiles under each tile
//! stack's top, the faces (colour and value) of the chips the player cannot see, the supply's
//! order, and the rules' own randomness. The rules read none of it when they read the faces of
//! chips taken from players' hands alone (`chips(hand(…))`; a chip is *from elsewhere* when it may
//! come from any other place, a square's chips, or a local bound from such a chip, which is this
//! module's taint, see `blind::Taint`), move no chip from elsewhere into a hand (it would come with
//! the face a sample dealt it), never list the supply's chips (their order), and run no effect
//! that draws, shuffles, scatters, deals or takes a tile (an effect whose row says
//! `Changes::DEALS`), nor ask anything. A builtin or field whose row says it reads
//! `Reads::FACES` reads the faces of the chips it is given. Then, while every chip in a player's hand lies face up or in the deciding
//! player's own hand, and no tile is drawn, a sample and the game play alike.

use super::blind::Taint;
use super::reads::Reads;
use super::visit::{any_child, any_choice_expr, any_part, Part};
use crate::builtins::{Base, Builtin, Changes, PTy, PlaceKind, Role};
use crate::game::Trigger;
use crate::ir::{Action, Expr, Place, Program, Rule, Stmt, Value};

/// The kind of place expression `e` names, when a builtin's row says (`Role::Place`).
fn place_kind(e: &Expr) -> Option<PlaceKind> {
    match e {
        Expr::Call(b, _, _) => match b.role() {
            Role::Place(k) => Some(k),
            _ => None,
        },
        _ => None,
    }
}

/// Whether place expression `e` is a player's hand.
fn a_hand(e: &Expr) -> bool {
    matches!(e, Expr::Const(Value::Place(Place::Hand(_)))) || place_kind(e) == Some(PlaceKind::Hand)
}

/// Whether place expression `e` is surely no player's hand.
fn off_hands(e: &Expr) -> bool {
    match e {
        Expr::Const(Value::Place(p)) => !matches!(p, Place::Hand(_)),
        _ => match place_kind(e) {
            Some(PlaceKind::Hand) | None => false,
            Some(
                PlaceKind::Square
                | PlaceKind::Slots
                | PlaceKind::Under
                | PlaceKind::Holding
                | PlaceKind::PlayerHolding,
            ) => true,
        },
    }
}

/// Whether place expression `e` may be the supply.
fn may_be_supply(e: &Expr) -> bool {
    match e {
        Expr::Const(Value::Place(p)) => *p == Place::Supply,
        _ => !(a_hand(e) || off_hands(e)),
    }
}

/// Whether query `b` may read the faces of the chips it is given: its row says `Reads::FACES`, or
/// it takes a chip (a row that forgets to say it reads faces is taken to, when it takes chips).
fn reads_faces(b: Builtin) -> bool {
    let i = b.info();
    i.reads.has(Reads::FACES) || (!i.effect && i.params.iter().any(|(_, t)| t.is_chips()))
}

/// Whether a call of `b` on `args` lists the chips of a place that may be the supply.
fn lists_supply(b: Builtin, args: &[Expr]) -> bool {
    b.role() == Role::ChipsIn && args.first().is_none_or(may_be_supply)
}

/// Whether `e` lists chips from elsewhere than a player's hand (anywhere inside it): the source
/// of this module's taint.
fn chips_from_elsewhere(e: &Expr) -> bool {
    match e {
        // A field giving chips (a square's) gives them from elsewhere than a hand.
        Expr::Field(x, f, _) => f.info().ty.base == Base::Chip || chips_from_elsewhere(x),
        Expr::Call(b, args, _) if b.role() == Role::ChipsIn => {
            !matches!(args.as_slice(), [p] if a_hand(p))
        }
        _ => any_child(e, chips_from_elsewhere),
    }
}

/// Whether evaluating `e` may read what a sample deals afresh: a face of a chip from elsewhere,
/// or the supply's chips.
fn expr_hidden(t: &Taint, e: &Expr) -> bool {
    match e {
        Expr::Field(x, f, _) => {
            (f.info().reads.has(Reads::FACES) && t.tainted(x)) || expr_hidden(t, x)
        }
        Expr::Call(b, args, _) => {
            lists_supply(*b, args)
                || (reads_faces(*b) && args.iter().any(|x| t.tainted(x)))
                || any_child(e, |x| expr_hidden(t, x))
        }
        _ => any_child(e, |x| expr_hidden(t, x)),
    }
}

/// Whether running `stmts` may read what a sample deals afresh (see the module comment).
fn stmts_hidden(t: &Taint, stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Effect(b, args, _) => {
            let changes = b.changes().unwrap_or(Changes::DEALS);
            // Chips from elsewhere moved to a place that may be a hand.
            let into_hand = changes.has(Changes::CHIPS)
                && b.args_of(args, PTy::is_chips).any(|c| t.tainted(c))
                && b.args_of(args, PTy::is_place).any(|to| !off_hands(to));
            changes.has(Changes::DEALS) || into_hand || args.iter().any(|x| expr_hidden(t, x))
        }
        Stmt::Ask { .. } => true,
        _ => any_part(s, |p| match p {
            Part::Expr(e) => expr_hidden(t, e),
            Part::Body(b) => stmts_hidden(t, b),
        }),
    })
}

/// Whether rule `r` reads nothing a sample deals afresh.
fn rule_sees(r: &Rule) -> bool {
    let mut t = Taint::new(r.body.locals, chips_from_elsewhere);
    if let Some(w) = &r.when {
        t.grow_expr(w);
    }
    while t.grow(&r.body.stmts) {}
    !(r.when.as_ref().is_some_and(|w| expr_hidden(&t, w)) || stmts_hidden(&t, &r.body.stmts))
}

/// Whether action `a` (its condition, its choices and its body) reads nothing a sample deals
/// afresh.
fn action_sees(a: &Action) -> bool {
    let mut t = Taint::new(a.body.locals, chips_from_elsewhere);
    loop {
        let c = t.grow_choices(a);
        if !(t.grow(&a.body.stmts) | c) {
            break;
        }
    }
    let choices = a
        .choices
        .iter()
        .any(|ch| any_choice_expr(ch, |x| expr_hidden(&t, x)));
    !(a.when.as_ref().is_some_and(|w| expr_hidden(&t, w))
        || choices
        || stmts_hidden(&t, &a.body.stmts))
}

/// See [`Interp::faces_read_only_in_hands`](crate::interp::Interp::faces_read_only_in_hands).
pub(crate) fn program_sees_but(prog: &Program, exempt: &[Trigger]) -> bool {
    super::rules_but(prog, exempt).all(rule_sees) && prog.actions.iter().all(action_sees)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the rules `rules` read nothing hidden but the faces of chips in hands, once tiles
    /// are placed.
    fn sees(rules: &str) -> bool {
        let prog = crate::interp::probe::variant("red 1 x 4, red 2 x 4", rules).program;
        program_sees_but(&prog, &[Trigger::Placed])
    }

    use crate::interp::probe::UPGRADE;

    #[test]
    fn faces_of_chips_in_hands_are_seen_and_others_are_not() {
        assert!(sees(UPGRADE));
        assert!(sees(&format!(
            "{UPGRADE}rule down on returned when follower.strength != 1 {{\n\
             move(chips(under(follower)), box, up)\nstrength(follower, 1)\n}}"
        )));
        // A set paid from the hand, followers recalled; an exempt trigger's rule reads faces.
        assert!(sees(
            "forced pay when distinct(c in chips(hand(player)): c.colour) == 2\n\
             choose set: chips from chips(hand(player)) size 2..2 \
             where distinct(c in set: c.colour) == 2 {\n\
             move(set, box, up)\nrecall(followers(player))\n}\n\
             rule take on placed { for c in chips(at(square)) { score(player, c.value) } }"
        ));
        // Faces of chips elsewhere, directly, through a local, a choice or an aggregate.
        for rules in [
            "rule r on returned { score(player, sum(c in chips(under(follower)): c.value)) }",
            "rule r on returned { for c in chips(box) { score(player, c.value) } }",
            "rule r on returned { let l = chips(aside)\nscore(player, first(l).value) }",
            "rule r on returned when count(c in chips(under(follower)) where c.value == 2) > 0 \
             { score(player, 1) }",
            "action a phase after choose c: chips(box) where c.value == 2 { move(c, aside, up) }",
        ] {
            assert!(!sees(rules), "{rules}");
        }
        // A chip from elsewhere moved into a hand, the supply listed, randomness, a question.
        for rules in [
            "rule r on returned { move(chips(under(follower)), hand(player), up) }",
            "rule r on returned when len(chips(supply)) > 0 { score(player, 1) }",
            "rule r on returned { draw(1, supply, hand(player), down) }",
            "rule r on returned { shuffle(box) }",
        ] {
            assert!(!sees(rules), "{rules}");
        }
        // Moving chips from elsewhere anywhere but a hand, and counting them, read no face.
        assert!(sees(
            "rule r on returned when len(chips(under(follower))) > 0 {\n\
             move(chips(under(follower)), box, up)\nscore(player, 1)\n}"
        ));
    }
}
