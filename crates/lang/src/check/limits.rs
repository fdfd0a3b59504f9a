//! An action's limits: `per turn N`, `per round N`, `group NAME` and the flags `no_follower` and
//! `not_extra`, each lowered to an [`ir::Limit`].

use super::{Checker, Scope};
use crate::ast::{self, LimitKind};
use crate::builtins::Ty;
use crate::builtins::{self, Phase};
use crate::consts::mismatch;
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir;

impl Checker {
    /// The limits of an action offered in `phase` (`None`: a forced action); `files[i]` wrote limit i.
    pub(super) fn action_limits(
        &mut self,
        a: &ast::ActionDecl,
        files: &[usize],
        phase: Option<Phase>,
    ) -> Vec<ir::Limit> {
        let mut limits = Vec::new();
        let saved = self.file;
        for (i, l) in a.limits.iter().enumerate() {
            self.file = files.get(i).copied().unwrap_or(saved);
            let limit = match &l.kind {
                LimitKind::Per { unit, count } => self.limit_per(a, l, unit, count),
                LimitKind::Group(g, count) => self.limit_group(a, l, g, count.as_ref()),
                LimitKind::Flag(f) => self.limit_flag(l, f, phase),
            };
            limits.extend(limit);
        }
        self.file = saved;
        limits
    }

    /// `per turn N` or `per round N`.
    fn limit_per(
        &mut self,
        a: &ast::ActionDecl,
        l: &ast::Limit,
        unit: &ast::Ident,
        count: &ast::Expr,
    ) -> Option<ir::Limit> {
        let per_turn = match unit.name.as_str() {
            "turn" => true,
            "round" => false,
            other => {
                let mut d = Diagnostic::error(
                    Code::UnknownLimit,
                    unit.span.clone(),
                    format!("unknown limit unit `{other}`"),
                )
                .with_label("expected `turn` or `round`");
                if let Some(s) = did_you_mean(other, builtins::LIMIT_UNITS) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                self.err(d);
                return None;
            }
        };
        let n = self.limit_count(a, l, count)?;
        Some(if per_turn {
            ir::Limit::PerTurn(n)
        } else {
            ir::Limit::PerRound(n)
        })
    }

    /// A limit's count: an int made of numbers and parameters only (it is read when actions are
    /// offered, with the parameters in force); at least 1 with the defaults.
    fn limit_count(
        &mut self,
        a: &ast::ActionDecl,
        l: &ast::Limit,
        count: &ast::Expr,
    ) -> Option<ir::Expr> {
        let (x, t) = self.expr(count, &mut Scope::default());
        if !Ty::INT.accepts(t) {
            self.err(mismatch(count.span.clone(), Ty::INT, t).with_note("a limit counts actions"));
            return None;
        }
        let Some(n) = self.prog.limit_count(&x) else {
            self.err(
                Diagnostic::error(
                    Code::NotConstant,
                    count.span.clone(),
                    "a limit's count is made of numbers and parameters only",
                )
                .with_label("not a number or a parameter")
                .with_note(
                    "write a number, a parameter, or `(expression)` of them, such as `(sales + 1)`",
                ),
            );
            return None;
        };
        if n <= 0 {
            self.err(
                Diagnostic::error(
                    Code::NeverApplies,
                    l.span.clone(),
                    format!("action `{}` can never apply", a.name.name),
                )
                .with_label(format!("{n} times allowed"))
                .with_note("remove the action, or allow it at least once"),
            );
        }
        Some(x)
    }

    /// `group NAME [N]`: the group's id, numbered as first named, and its count.
    fn limit_group(
        &mut self,
        a: &ast::ActionDecl,
        l: &ast::Limit,
        g: &ast::Ident,
        count: Option<&ast::Expr>,
    ) -> Option<ir::Limit> {
        let count = match count {
            Some(c) => Some(self.limit_count(a, l, c)?),
            None => None,
        };
        let id = match self.prog.groups.iter().position(|x| *x == g.name) {
            Some(i) => i,
            None => {
                self.prog.groups.push(g.name.clone());
                self.prog.groups.len() - 1
            }
        };
        Some(ir::Limit::Group(id as u16, count))
    }

    /// `no_follower` or `not_extra`.
    fn limit_flag(
        &mut self,
        l: &ast::Limit,
        f: &ast::Ident,
        phase: Option<Phase>,
    ) -> Option<ir::Limit> {
        match f.name.as_str() {
            "no_follower" => {
                if phase == Some(Phase::Start) {
                    self.err(
                        Diagnostic::warning(
                            Code::NoEffect,
                            l.span.clone(),
                            "`limit no_follower` has no effect in phase `start`",
                        )
                        .with_label("no follower can have been placed yet")
                        .with_note("use it in phase `follower`, `score` or `after`"),
                    );
                }
                Some(ir::Limit::NoFollower)
            }
            "not_extra" => Some(ir::Limit::NotExtra),
            other => {
                let mut d = Diagnostic::error(
                    Code::UnknownLimit,
                    f.span.clone(),
                    format!("unknown limit `{other}`"),
                )
                .with_label("not a limit");
                if let Some(s) = did_you_mean(other, builtins::LIMIT_FLAGS) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                self.err(d.with_note(
                    "the limits are: `per turn N`, `per round N`, `group NAME [N]`, `no_follower`, `not_extra`",
                ));
                None
            }
        }
    }
}
