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

use super::Interp;
use crate::ir::{Action, ChoiceKind, Expr, Program};
use crate::state::State;

pub(super) use crate::builtins::Reads;

/// What evaluating `e` reads.
pub(super) fn expr_reads(e: &Expr) -> Reads {
    let all = |xs: &[&Expr]| {
        xs.iter()
            .fold(Reads::default(), |r, x| r.with(expr_reads(x)))
    };
    match e {
        Expr::Const(_) | Expr::Param(_) | Expr::Local(_) => Reads::default(),
        Expr::List(items) => items
            .iter()
            .fold(Reads::default(), |r, x| r.with(expr_reads(x))),
        Expr::Range(a, b) | Expr::Index(a, b) | Expr::Binary(_, a, b) => all(&[a, b]),
        Expr::If(c, a, b) => all(&[c, a, b]),
        Expr::Field(x, f) => expr_reads(x).with(f.info().reads),
        // Map attributes never change.
        Expr::Attr(x, _) | Expr::Not(x) | Expr::Neg(x) | Expr::ToPlayers(x) => expr_reads(x),
        Expr::Call(b, args) => args
            .iter()
            .fold(b.info().reads, |r, x| r.with(expr_reads(x))),
        Expr::Aggregate {
            list, filter, map, ..
        } => {
            let mut r = expr_reads(list);
            for x in filter.iter().chain(map.iter()) {
                r = r.with(expr_reads(x));
            }
            r
        }
    }
}

/// What an action's `when` reads, and what its `when`, limits and choices read together.
fn action_reads(a: &Action) -> (Reads, Reads) {
    let mut when = a.when.as_ref().map_or(Reads::default(), expr_reads);
    if !a.limits.is_empty() {
        when = when.with(Reads::TURN);
    }
    let mut all = when;
    for ch in &a.choices {
        all = all.with(expr_reads(&ch.from));
        if let Some(f) = &ch.filter {
            all = all.with(expr_reads(f));
        }
        if let ChoiceKind::Chips { size: Some(s) } = &ch.kind {
            all = all.with(expr_reads(s));
        }
    }
    (when, all)
}

/// What the forced check reads: when every forced `when` was false (`.0`), and otherwise (`.1`).
pub(super) fn forced_reads(prog: &Program) -> (Reads, Reads) {
    prog.actions
        .iter()
        .filter(|a| a.phase.is_none())
        .map(action_reads)
        .fold((Reads::default(), Reads::default()), |(w, a), (w2, a2)| {
            (w.with(w2), a.with(a2))
        })
}

/// The changing facts of a game a check may read, as they stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Facts {
    current: u8,
    chips: u32,
    tiles: usize,
    turn: (u32, u32, bool, bool),
}

impl Facts {
    pub(crate) fn now(st: &State) -> Facts {
        Facts {
            current: st.current,
            chips: st.chip_changes,
            tiles: st.board.placed.len(),
            turn: (st.turn, st.round, st.follower_placed_now, st.in_extra_turn),
        }
    }

    /// Whether every fact of the kinds `reads` is as in `then`.
    fn same(&self, then: &Facts, reads: Reads) -> bool {
        self.current == then.current
            && (!reads.has(Reads::CHIPS) || self.chips == then.chips)
            && (!reads.has(Reads::TILES) || self.tiles == then.tiles)
            && (!reads.has(Reads::TURN) || self.turn == then.turn)
    }
}

/// A forced check that found nothing: the facts it saw and the kinds of facts it read.
#[derive(Clone, Copy, Debug)]
pub(super) struct Quiet {
    pub(crate) facts: Facts,
    pub(crate) reads: Reads,
}

impl Interp {
    /// Whether the last forced check with this current player found nothing and nothing it read
    /// has changed since.
    pub(super) fn forced_still_quiet(&self, st: &State) -> bool {
        self.caches
            .forced_quiet
            .get(st.current)
            .is_some_and(|q| Facts::now(st).same(&q.facts, q.reads))
    }

    /// Forgets the quiet check of the current player (a check runs again).
    pub(super) fn forget_forced_quiet(&mut self, st: &State) {
        self.caches.forced_quiet.set(st.current, None);
    }

    /// Remembers a forced check that found nothing (`when_only`: every forced `when` was false), if
    /// what it read is known.
    pub(super) fn note_forced_quiet(&mut self, st: &State, when_only: bool) {
        let reads = if when_only {
            self.prep.forced_reads.0
        } else {
            self.prep.forced_reads.1
        };
        let quiet = (!reads.has(Reads::UNKNOWN)).then(|| Quiet {
            facts: Facts::now(st),
            reads,
        });
        self.caches.forced_quiet.set(st.current, quiet);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::{Builtin, Field};
    use crate::ir::Value;

    /// A variant of the endless table whose rules end with `forced`.
    fn probe(forced: &str) -> crate::interp::probe::Probe {
        crate::interp::probe::variant("red 1 x 2", forced)
    }

    /// A chip in hand must be laid on a free square: the `when` reads chips, the squares offered
    /// read tiles too.
    const LAY: &str = "forced lay when len(chips(hand(player))) > 0\n\
        choose chip: chips(hand(player))\n\
        choose at_square: [s in squares() where s.land]\n\
        where not at_square.covered and len(at_square.chips) == 0 {\n\
          move(chip, at(at_square), up)\n}";

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
            )),
            Box::new(Expr::Const(Value::Int(3))),
        );
        assert!(expr_reads(&turn).has(Reads::UNKNOWN));
        let land = Expr::Field(Box::new(Expr::Local(1)), Field::SquareLand);
        assert_eq!(expr_reads(&land), Reads::default());
    }

    #[test]
    fn a_check_is_quiet_only_while_what_it_read_stays() {
        let v = probe(LAY);
        let mut g = v
            .new_game(v.config.clone(), &["ann".into(), "bob".into()], 1, false)
            .expect("a game starts");
        g.hooks.note_forced_quiet(&g.st, true);
        assert!(g.hooks.forced_still_quiet(&g.st));
        // Tiles are not read while the `when` alone decided.
        let first = g.st.board.placed[0];
        g.st.board.placed.push(first);
        assert!(g.hooks.forced_still_quiet(&g.st));
        g.st.chips_changed();
        assert!(!g.hooks.forced_still_quiet(&g.st));
        // Once the choices were listed, a tile placed counts.
        g.hooks.note_forced_quiet(&g.st, false);
        g.st.board.placed.push(first);
        assert!(!g.hooks.forced_still_quiet(&g.st));
        // The current player always counts: each player's quiet check is their own, and holds
        // on their next turn while what it read stays.
        g.hooks.note_forced_quiet(&g.st, true);
        g.st.current ^= 1;
        assert!(!g.hooks.forced_still_quiet(&g.st));
        g.hooks.note_forced_quiet(&g.st, true);
        g.st.current ^= 1;
        assert!(g.hooks.forced_still_quiet(&g.st));
        g.st.chips_changed();
        g.st.current ^= 1;
        assert!(!g.hooks.forced_still_quiet(&g.st));
    }
}
