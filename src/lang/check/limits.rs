//! An action's limits: `per turn N`, `per round N`, `group NAME` and the flags `no_follower` and
//! `not_extra`, each lowered to an [`ir::Limit`].

use super::Checker;
use crate::diag::{did_you_mean, Diagnostic};
use crate::lang::ast::{self, LimitKind};
use crate::lang::builtins::{self, Phase};
use crate::lang::ir;

impl Checker {
    /// The limits of an action offered in `phase` (`None`: a forced action).
    pub(super) fn action_limits(
        &mut self,
        a: &ast::ActionDecl,
        phase: Option<Phase>,
    ) -> Vec<ir::Limit> {
        let mut limits = Vec::new();
        for l in &a.limits {
            let limit = match &l.kind {
                LimitKind::Per { unit, count } => self.limit_per(a, l, unit, *count),
                LimitKind::Group(g) => Some(self.limit_group(g)),
                LimitKind::Flag(f) => self.limit_flag(l, f, phase),
            };
            limits.extend(limit);
        }
        limits
    }

    /// `per turn N` or `per round N`.
    fn limit_per(
        &mut self,
        a: &ast::ActionDecl,
        l: &ast::Limit,
        unit: &ast::Ident,
        count: i64,
    ) -> Option<ir::Limit> {
        let per_turn = match unit.name.as_str() {
            "turn" => true,
            "round" => false,
            other => {
                let mut d =
                    Diagnostic::error(unit.span.clone(), format!("unknown limit unit `{other}`"))
                        .with_label("expected `turn` or `round`");
                if let Some(s) = did_you_mean(other, builtins::LIMIT_UNITS) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                self.err(d);
                return None;
            }
        };
        if count == 0 {
            self.err(
                Diagnostic::error(
                    l.span.clone(),
                    format!("action `{}` can never apply", a.name.name),
                )
                .with_label("zero times allowed")
                .with_note("remove the action, or allow it at least once"),
            );
        }
        let n = u32::try_from(count).unwrap_or(u32::MAX);
        Some(if per_turn {
            ir::Limit::PerTurn(n)
        } else {
            ir::Limit::PerRound(n)
        })
    }

    /// `group NAME`: the group's id, numbered as first named.
    fn limit_group(&mut self, g: &ast::Ident) -> ir::Limit {
        let id = match self.prog.groups.iter().position(|x| *x == g.name) {
            Some(i) => i,
            None => {
                self.prog.groups.push(g.name.clone());
                self.prog.groups.len() - 1
            }
        };
        ir::Limit::Group(id as u16)
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
                let mut d = Diagnostic::error(f.span.clone(), format!("unknown limit `{other}`"))
                    .with_label("not a limit");
                if let Some(s) = did_you_mean(other, builtins::LIMIT_FLAGS) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                self.err(d.with_note(
                    "the limits are: `per turn N`, `per round N`, `group NAME`, `no_follower`, `not_extra`",
                ));
                None
            }
        }
    }
}
