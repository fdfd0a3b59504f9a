//! Statements: `let`, `if`/`else if`/`else`, `for`, effect calls and `ask` (in `asks`), with block scoping of locals.

use super::{Checker, Scope};
use crate::ast::{self, StmtKind};
use crate::builtins::Ty;
use crate::ir::Stmt;

impl Checker {
    pub(super) fn block(&mut self, b: &ast::Block, sc: &mut Scope) -> Vec<Stmt> {
        let mark = sc.vars.len();
        let out = b.stmts.iter().filter_map(|s| self.stmt(s, sc)).collect();
        sc.vars.truncate(mark);
        out
    }

    fn stmt(&mut self, s: &ast::Stmt, sc: &mut Scope) -> Option<Stmt> {
        Some(match &s.kind {
            StmtKind::Let(name, e_ast) => {
                let (e, t) = self.expr(e_ast, sc);
                if t == Ty::UNIT {
                    return None;
                }
                Stmt::Let(sc.bind(&name.name, t), e, self.site(&e_ast.span))
            }
            StmtKind::If(branches, otherwise) => {
                let mut out = Vec::new();
                let mut at = Vec::new();
                for (c, b) in branches {
                    at.push(self.site(&c.span));
                    let c = self.expect(c, sc, Ty::BOOL);
                    out.push((c, self.block(b, sc)));
                }
                let otherwise = otherwise.as_ref().map(|b| self.block(b, sc));
                Stmt::If(out, otherwise, at)
            }
            StmtKind::For(var, list, body) => {
                let (l, t) = self.expr(list, sc);
                let elem = self.elem_of(t, list.span.clone());
                let mark = sc.vars.len();
                let slot = sc.bind(&var.name, elem);
                let body = self.block(body, sc);
                sc.vars.truncate(mark);
                Stmt::For(slot, l, body, self.site(&list.span))
            }
            StmtKind::Ask { who, action, args } => {
                return self.stmt_ask(who, action, args, s.span.clone(), sc)
            }
            StmtKind::Call(name, args) => {
                let (b, args, _) = self.call(name, args, s.span.clone(), sc, true)?;
                Stmt::Effect(b, args, self.site(&s.span))
            }
        })
    }

    /// Where `span` is in the file being checked.
    pub(super) fn site(&self, span: &crate::ast::Span) -> crate::ir::At {
        crate::ir::At::new(self.file, span)
    }
}
