//! Statements and triggers: `let`, `if`, `for` and effects; binding a trigger's values and running
//! the rules that listen to it.

use super::{Interp, R};
use crate::game::{Ctx, Trigger};
use crate::lang::ir::{Stmt, Value};
use crate::state::State;

impl Interp {
    pub(super) fn exec(&mut self, st: &mut State, stmts: &[Stmt]) -> R<()> {
        for s in stmts {
            self.tick()?;
            match s {
                Stmt::Let(slot, e) => {
                    let v = self.eval(st, e)?;
                    self.set(*slot, v)?;
                }
                Stmt::If(branches, otherwise) => {
                    let mut done = false;
                    for (c, body) in branches {
                        if self.bool(st, c)? {
                            self.exec(st, body)?;
                            done = true;
                            break;
                        }
                    }
                    if let (false, Some(body)) = (done, otherwise) {
                        self.exec(st, body)?;
                    }
                }
                Stmt::For(slot, e, body) => {
                    let v = self.eval(st, e)?;
                    for k in 0..self.len_of(v)? {
                        let item = self.elem_at(v, k);
                        self.set(*slot, item)?;
                        self.exec(st, body)?;
                    }
                }
                Stmt::Effect(b, args, _) => {
                    let mut a = [Value::Unit; 4];
                    for (i, e) in args.iter().enumerate().take(4) {
                        a[i] = self.eval(st, e)?;
                    }
                    self.effect(st, *b, &a[..args.len().min(4)])?;
                }
                Stmt::Ask { who, action, args } => self.ask(st, who, *action, args)?,
            }
        }
        Ok(())
    }

    /// Sets the first slots to the values the trigger binds (in the order of `Trigger::binds`).
    pub(super) fn bind_trigger(&mut self, st: &State, t: Trigger, ctx: &Ctx) -> R<()> {
        for slot in 0..t.binds().len() as u16 {
            self.set(slot, Self::trigger_value(st, t, ctx, slot))?;
        }
        Ok(())
    }

    pub(super) fn fire_inner(&mut self, st: &mut State, t: Trigger, ctx: &Ctx) -> R<()> {
        if self.depth > 32 {
            return Err(self.fail("rules trigger each other more than 32 deep"));
        }
        let prog = self.prog.clone();
        let code = self.code.clone();
        for &r in prog.rules_for(t) {
            let rule = &prog.rules[r as usize];
            if !self.reaches(st, r as usize, t, ctx) {
                continue;
            }
            self.begin(r as u16, st.turn);
            let saved = self.enter(rule.body.locals.max(4));
            self.bind_trigger(st, t, ctx)?;
            let ok = match &code.rule_when[r as usize] {
                Some(w) => self.truth(st, w)?,
                None => true,
            };
            if ok {
                self.exec(st, &rule.body.stmts)?;
            }
            self.leave(saved);
        }
        Ok(())
    }
}
