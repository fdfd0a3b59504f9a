//! Compiled statement bodies: the setup blocks, every rule's body and every action's body, with their
//! expressions compiled (see `compile`), and running them. A compiled statement does what
//! [`Interp::exec`] does for the same statement (values, errors, operations counted).

use super::compile::{compile, Code};
use super::compile_cond::{compile_cond, Cond};
use super::{Interp, R};
use crate::builtins::Builtin;
use crate::ir::{Program, Slot, Stmt, Value};
use crate::state::State;

pub(super) enum CStmt {
    Let(Slot, Code),
    If(Vec<(Cond, Vec<CStmt>)>, Option<Vec<CStmt>>),
    For(Slot, Code, Vec<CStmt>),
    /// An effect on at most 4 arguments (as `exec` evaluates them).
    Effect(Builtin, Vec<Code>),
    Ask {
        who: Code,
        action: u32,
        args: Vec<Code>,
    },
}

/// The compiled bodies of a program, indexed like its setup blocks, rules and actions.
#[derive(Default)]
pub(super) struct Bodies {
    pub setup: Vec<Vec<CStmt>>,
    pub rules: Vec<Vec<CStmt>>,
    pub actions: Vec<Vec<CStmt>>,
}

pub(super) fn compile_bodies(prog: &Program, statics: &[usize]) -> Bodies {
    let c = |stmts: &[Stmt]| compile_stmts(stmts, statics);
    Bodies {
        setup: prog.setup.iter().map(|b| c(&b.stmts)).collect(),
        rules: prog.rules.iter().map(|r| c(&r.body.stmts)).collect(),
        actions: prog.actions.iter().map(|a| c(&a.body.stmts)).collect(),
    }
}

fn compile_stmts(stmts: &[Stmt], statics: &[usize]) -> Vec<CStmt> {
    let e = |x| compile(x, statics);
    stmts
        .iter()
        .map(|s| match s {
            Stmt::Let(slot, x) => CStmt::Let(*slot, e(x)),
            Stmt::If(branches, otherwise) => CStmt::If(
                branches
                    .iter()
                    .map(|(c, b)| (compile_cond(c, statics), compile_stmts(b, statics)))
                    .collect(),
                otherwise.as_deref().map(|b| compile_stmts(b, statics)),
            ),
            Stmt::For(slot, x, body) => CStmt::For(*slot, e(x), compile_stmts(body, statics)),
            Stmt::Effect(b, args, _) => CStmt::Effect(*b, args.iter().take(4).map(e).collect()),
            Stmt::Ask { who, action, args } => CStmt::Ask {
                who: e(who),
                action: *action,
                args: args.iter().map(e).collect(),
            },
        })
        .collect()
}

impl Interp {
    /// Runs compiled statements (see [`Interp::exec`]).
    pub(super) fn run_stmts(&mut self, st: &mut State, stmts: &[CStmt]) -> R<()> {
        for s in stmts {
            self.tick()?;
            match s {
                CStmt::Let(slot, x) => {
                    let v = x(self, st)?;
                    self.set(*slot, v)?;
                }
                CStmt::If(branches, otherwise) => {
                    let mut done = false;
                    for (c, body) in branches {
                        if c(self, st)? {
                            self.run_stmts(st, body)?;
                            done = true;
                            break;
                        }
                    }
                    if let (false, Some(body)) = (done, otherwise) {
                        self.run_stmts(st, body)?;
                    }
                }
                CStmt::For(slot, x, body) => {
                    let v = x(self, st)?;
                    for k in 0..self.len_of(v)? {
                        let item = self.elem_at(v, k);
                        self.set(*slot, item)?;
                        self.run_stmts(st, body)?;
                    }
                }
                CStmt::Effect(b, args) => {
                    let mut a = [Value::Unit; 4];
                    for (i, x) in args.iter().enumerate() {
                        a[i] = x(self, st)?;
                    }
                    self.effect(st, *b, &a[..args.len()])?;
                }
                CStmt::Ask { who, action, args } => {
                    let who = who(self, st)?;
                    self.ask(st, who, *action, args.len(), |me, st, i| args[i](me, st))?;
                }
            }
        }
        Ok(())
    }
}
