//! Triggers: binding a trigger's values and running the rules that listen to it (those that
//! `dispatch` does not rule out).

use super::dispatch::Known;
use super::{Interp, R};
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

    pub(super) fn fire_inner(&mut self, st: &mut State, t: Trigger, ctx: &Ctx) -> R<()> {
        if self.depth > 32 {
            return Err(self.fail("rules trigger each other more than 32 deep"));
        }
        let prog = self.prog.clone();
        for &r in prog.rules_for(t) {
            let rule = &prog.rules[r as usize];
            if !self.reaches(st, r as usize, t, ctx) {
                #[cfg(any(test, feature = "oracle"))]
                self.rule_beside_walker(st, r as usize, t, ctx, false)?;
                continue;
            }
            let known = self.static_known(st, r as usize, t, ctx);
            if let (Known::Is(b), true) = (&known, self.checking()) {
                self.check_static(st, r as usize, t, ctx, *b)?;
            }
            if let Known::Is(false) = known {
                #[cfg(any(test, feature = "oracle"))]
                self.rule_beside_walker(st, r as usize, t, ctx, false)?;
                continue;
            }
            self.begin(r as u16, st.turn);
            let saved = self.enter(rule.body.locals.max(4));
            self.bind_trigger(st, t, ctx)?;
            let ok = match known {
                Known::Unknown(cell) => self.learn_static(st, r as usize, cell)?,
                _ => true,
            };
            let ok = ok
                && match self.code.rule_when[r as usize] {
                    Some(w) => self.truth(st, w)?,
                    None => true,
                };
            #[cfg(any(test, feature = "oracle"))]
            self.rule_beside_walker(st, r as usize, t, ctx, ok)?;
            if ok {
                let body = self.code.rules[r as usize];
                self.run_block(st, body)?;
            }
            self.leave(saved);
        }
        Ok(())
    }
}
