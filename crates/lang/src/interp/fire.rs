//! Triggers: binding a trigger's values and running the rules that listen to it (those that
//! `dispatch` does not rule out).

use super::dispatch::Known;
use super::{placed, Interp, R};
use crate::game::Fault;
use crate::game::{Ctx, Trigger};
use crate::state::State;

impl Interp {
    /// Sets the first slots to the values the trigger binds (in the order of `Trigger::binds`).
    pub(super) fn bind_trigger(&mut self, st: &State, t: Trigger, ctx: &Ctx) -> R<()> {
        for (slot, b) in t.bindings().iter().enumerate() {
            self.set(slot as u16, Self::bound_value(st, ctx, b.from))?;
        }
        Ok(())
    }

    /// The one place that decides whether rule `r`, fired on `t` with `ctx`, is passed over before
    /// its `when` is evaluated: by its guard (`reaches`), or by its static parts known false for
    /// the trigger's square (`static_known`; in the checking mode, a known answer is checked
    /// afresh). Firing (`fire_inner`) and the agents' question whether firing would run a rule
    /// (`runs_nothing_but`, `quiet.rs`) both ask it.
    pub(super) fn gate(&mut self, st: &mut State, r: usize, t: Trigger, ctx: &Ctx) -> R<Gate> {
        if !self.reaches(st, r, t, ctx) {
            return Ok(Gate::Passed);
        }
        let known = self.static_known(st, r, t, ctx);
        if let (Known::Is(b), true) = (&known, self.checking()) {
            self.check_static(st, r, t, ctx, *b)?;
        }
        Ok(match known {
            Known::Is(false) => Gate::Passed,
            Known::Is(true) | Known::Nothing => Gate::Open,
            Known::Unknown(cell) => Gate::Learn(cell),
        })
    }

    /// Enters rule `r`'s frame as firing it does, after [`Interp::gate`] left it open: the
    /// trigger's values bound and, for `Gate::Learn(cell)`, its static parts learnt for the square.
    /// The caller's frame (for `leave`), and whether the static parts hold (true when there were
    /// none to learn); on an error, the frame is left already. Firing and the agents' question whether firing would run a rule both enter
    /// a rule here, so they cannot decide it apart.
    pub(super) fn enter_rule(
        &mut self,
        st: &mut State,
        r: usize,
        t: Trigger,
        ctx: &Ctx,
        cell: Option<u32>,
    ) -> R<(usize, bool)> {
        self.begin(r as u16, st.turn);
        let saved = self.enter(self.prog.rules[r].body.locals.max(4));
        let holds = self.bind_trigger(st, t, ctx).and_then(|()| match cell {
            Some(cell) => self.learn_static(st, r, cell),
            None => Ok(true),
        });
        match holds {
            Ok(holds) => Ok((saved, holds)),
            Err(e) => {
                self.leave(saved);
                Err(e)
            }
        }
    }

    pub(super) fn fire_inner(&mut self, st: &mut State, t: Trigger, ctx: &Ctx) -> R<()> {
        if self.depth > 32 {
            return Err(self.fail(Fault::TooDeep, "rules trigger each other more than 32 deep"));
        }
        let prog = self.prog.clone();
        for &r in prog.rules_for(t) {
            let rule = &prog.rules[r as usize];
            let cell = match self.gate(st, r as usize, t, ctx)? {
                Gate::Passed => {
                    #[cfg(any(test, feature = "oracle"))]
                    self.rule_beside_walker(st, r as usize, t, ctx, false)?;
                    continue;
                }
                Gate::Open => None,
                Gate::Learn(cell) => Some(cell),
            };
            let (saved, ok) = self.enter_rule(st, r as usize, t, ctx, cell)?;
            let ok = ok
                && match self.code.rule_when[r as usize] {
                    Some(w) => self.truth(st, w).map_err(|e| placed(e, rule.when_at))?,
                    None => true,
                };
            #[cfg(any(test, feature = "oracle"))]
            self.rule_beside_walker(st, r as usize, t, ctx, ok)?;
            if ok {
                st.tally.rule_fired(r as usize);
                let body = self.code.rules[r as usize];
                self.run_block(st, body)?;
            }
            self.leave(saved);
        }
        Ok(())
    }
}

/// What [`Interp::gate`] says of a rule before its `when`.
pub(super) enum Gate {
    /// Passed over: by its guard, or by its static parts known false.
    Passed,
    /// Not passed over: its static parts hold, or it has none.
    Open,
    /// Its static parts are not known yet for this square: they are learnt (`learn_static`) once
    /// the rule's frame is entered with the trigger's values bound.
    Learn(u32),
}
