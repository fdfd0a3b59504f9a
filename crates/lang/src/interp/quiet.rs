//! For agents that value an option without playing it (`greedy`): whether a trigger would run no
//! rule at all, and whether no forced action can apply while the chips stay as they are. Both are
//! answered by the tests play itself uses to pass rules over (`dispatch`: a guard the trigger's
//! values settle, or a part that reads only the map facts of the trigger's square) and by what a
//! forced action's `when` reads (`reads`); anything they cannot settle counts as "may run".

use super::fire::Gate;
use super::{Interp, R};
use crate::analysis::reads::{expr_reads, Reads};
use crate::game::{Ctx, GameError, Trigger};
use crate::ir::Value;
use crate::state::State;

impl Interp {
    /// Whether firing `t` with `ctx` now would run no rule but those marked in `allowed` (by index):
    /// every other rule listening to it is passed over by its guard or by the map facts of the
    /// trigger's square (learnt now if need be, as firing would). Changes nothing in `st`.
    pub fn runs_nothing_but(
        &mut self,
        st: &mut State,
        t: Trigger,
        ctx: &Ctx,
        allowed: &[bool],
    ) -> Result<bool, GameError> {
        self.runs_nothing_inner(st, t, ctx, allowed).map_err(|e| *e)
    }

    fn runs_nothing_inner(
        &mut self,
        st: &mut State,
        t: Trigger,
        ctx: &Ctx,
        allowed: &[bool],
    ) -> R<bool> {
        let prog = self.prog.clone();
        for &r in prog.rules_for(t) {
            let r = r as usize;
            if allowed.get(r).copied().unwrap_or(false) {
                continue;
            }
            let cell = match self.gate(st, r, t, ctx)? {
                Gate::Passed => continue,
                Gate::Learn(cell) => cell,
                Gate::Open => return Ok(false),
            };
            // As `fire_inner` learns it (`enter_rule`): the trigger's values bound, the static
            // parts evaluated.
            let (saved, learnt) = self.enter_rule(st, r, t, ctx, Some(cell))?;
            self.leave(saved);
            if learnt {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether [`Interp::runs_nothing_but`] for `t` answers alike (for one `allowed`) in any two
    /// contexts with the same square and side whose square holds chips alike (none, or some),
    /// whatever the player, the tile, the turn and the rest of the game: every rule listening to
    /// it is passed over by its guard, a test of a trigger value that is no feature (settled by
    /// the context's side, or by the kind of value alone) or of the chips on the trigger's square,
    /// or by its static parts (map facts of the square), or else may run. So an answer can be
    /// remembered per square, side and whether chips lie on the square.
    pub fn runs_nothing_by_square(&self, t: Trigger) -> bool {
        use super::dispatch::Guard;
        use crate::game::Origin;
        let binds = t.bindings();
        self.prog.rules_for(t).iter().all(|&r| {
            match self.prep.guards.get(r as usize).copied().flatten() {
                None => true,
                Some(Guard::Chips { slot } | Guard::Kind { slot, .. }) => binds
                    .get(slot as usize)
                    .is_some_and(|b| b.from != Origin::Feature),
            }
        })
    }

    /// Whether no forced action can apply to the current player while the chips stay as they are
    /// (tiles, scores and followers may change): every forced action has a `when`, no limit, and a
    /// `when` that reads nothing but chips, map facts, parameters and the player, and that `when`
    /// is false now.
    pub fn no_forced_while_chips_stay(&mut self, st: &mut State) -> Result<bool, GameError> {
        self.no_forced_inner(st).map_err(|e| *e)
    }

    fn no_forced_inner(&mut self, st: &mut State) -> R<bool> {
        let prog = self.prog.clone();
        let code = self.code.clone();
        // What every forced `when` reads together (worked out once): when that has neither, no
        // single one has, and each need not be looked at again.
        let all = self.prep.forced_reads.0;
        let each = all.has(Reads::UNKNOWN) || all.has(Reads::TILES);
        for (ai, a) in prog.actions.iter().enumerate() {
            if a.phase.is_some() {
                continue;
            }
            let Some(when) = &a.when else {
                return Ok(false);
            };
            if !a.limits.is_empty() {
                return Ok(false);
            }
            if each {
                let reads = expr_reads(when);
                if reads.has(Reads::UNKNOWN) || reads.has(Reads::TILES) {
                    return Ok(false);
                }
            }
            let Some(w) = code.action_when[ai] else {
                return Ok(false);
            };
            // As `collect` evaluates it for the current player.
            self.begin((prog.rules.len() + ai) as u16, st.turn);
            let saved = self.enter(a.body.locals.max(2));
            let holds = self
                .set(0, Value::Player(st.current))
                .and_then(|_| self.truth(st, w));
            self.leave(saved);
            if holds? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    /// Whether the forced check of a variant whose rules end with `forced` reads only chips in
    /// players' areas.
    fn only_hands(forced: &str) -> bool {
        let v = crate::interp::probe::variant("red 1 x 2, red 2 x 2", forced);
        let g = v
            .new_game(v.config.clone(), &["ann".into(), "bob".into()], 1, false)
            .expect("a game starts");
        g.hooks.forced_reads_only_hands()
    }

    const BODY: &str = "choose chip: chips(hand(player)) { move(chip, box, up) }";

    #[test]
    fn a_forced_check_on_hands_reads_no_hidden_chip_and_one_elsewhere_may() {
        assert!(only_hands("rule r on placed { score(player, 1) }"));
        assert!(only_hands(&format!(
            "forced f when len(chips(hand(player))) > 1\n{BODY}"
        )));
        assert!(only_hands(&format!(
            "forced f when sum(c in chips(hand(player)): c.value) >= 3 \
             and all(c in chips(hand(player)): c.face_up)\n{BODY}"
        )));
        // The supply's chips lie face down: their faces are hidden.
        assert!(!only_hands(&format!(
            "forced f when count(c in chips(supply) where c.value == 2) > 0\n{BODY}"
        )));
        // Anything but chips, map facts, parameters and players.
        assert!(!only_hands(&format!(
            "forced f when len(chips(hand(player))) > 0 and tiles_left() > 3\n{BODY}"
        )));
        assert!(!only_hands(&format!("forced f\n{BODY}")));
    }
}
