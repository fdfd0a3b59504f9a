//! Asked actions and `ask` (issue 8, C1): an action with a parameter list is offered to a player only
//! when a rule (or another action) asks them, at any step, scoring included. This room knows, before
//! bodies are lowered, which actions are asked, their index and their parameter types, so an `ask`
//! anywhere in any file resolves to the definition in force; and it checks each `ask` statement.

use super::{Checker, Scope};
use crate::ast::{self, ItemKind};
use crate::builtins::{Base, Ty};
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir::{ActionId, Expr, Stmt};
use std::collections::BTreeMap;

/// What an `ask` needs to know of an action: its index, and its parameter types when it is asked.
#[derive(Clone, Debug)]
pub(super) struct AskSig {
    pub(crate) index: ActionId,
    /// `None`: an ordinary action (offered in a phase), which cannot be asked.
    pub(crate) params: Option<Vec<(String, Option<Ty>)>>,
}

/// A type written in a parameter list, without reporting (the action's own check reports).
fn quiet_type(t: &ast::TypeExpr) -> Option<Ty> {
    match t {
        ast::TypeExpr::Named(id) => Base::from_name(&id.name).map(Ty::of),
        ast::TypeExpr::List(inner, _) => match &**inner {
            ast::TypeExpr::Named(id) => Base::from_name(&id.name).map(Ty::list),
            ast::TypeExpr::List(..) => None,
        },
    }
}

impl Checker {
    /// Indexes every action in force as `lower_bodies` will, with its parameters.
    pub(super) fn declare_actions(&mut self) {
        let mut sigs = BTreeMap::new();
        let actions = self.house.actions.iter().filter_map(|e| match &e.def {
            ItemKind::Action(a) => Some(a),
            _ => None,
        });
        for (i, a) in actions.enumerate() {
            let params = a.params.as_ref().map(|ps| {
                ps.iter()
                    .map(|(n, t)| (n.name.clone(), quiet_type(t)))
                    .collect()
            });
            sigs.insert(
                a.name.name.clone(),
                AskSig {
                    index: i as ActionId,
                    params,
                },
            );
        }
        self.asked = sigs;
    }

    /// Binds an asked action's parameters after `player` (slots 1..); checks the action's shape:
    /// no phase, no limits (the rule that asks decides when and how often), no list parameters.
    pub(super) fn action_params(&mut self, a: &ast::ActionDecl, sc: &mut Scope) -> u16 {
        let Some(params) = &a.params else {
            return 0;
        };
        if a.forced {
            self.err(
                Diagnostic::error(
                    Code::ActionForm,
                    a.name.span.clone(),
                    "a forced action takes no parameters",
                )
                .with_label("forced")
                .with_note("an action with parameters is offered by `ask`; write `action`"),
            );
        }
        if let Some(p) = &a.phase {
            self.err(
                Diagnostic::error(
                    Code::ActionForm,
                    p.span.clone(),
                    "an asked action has no phase",
                )
                .with_label("not offered in a phase")
                .with_note(
                    "an action with parameters is offered only when a rule asks a player: \
                         `ask PLAYER ACTION(ARGS)`",
                ),
            );
        }
        if let Some(l) = a.limits.first() {
            self.err(
                Diagnostic::error(
                    Code::ActionForm,
                    l.span.clone(),
                    "an asked action has no limits",
                )
                .with_label("not a limit of an asked action")
                .with_note("it is offered once per `ask`: the rule that asks decides how often"),
            );
        }
        for (name, ty) in params {
            if name.name == "player" || sc.get(&name.name).is_some() {
                self.err(
                    Diagnostic::error(
                        Code::DefinedTwice,
                        name.span.clone(),
                        format!("parameter `{}` is defined twice", name.name),
                    )
                    .with_label(
                        "`player` (the asked player) and each parameter need their own name",
                    ),
                );
            }
            let t = self.resolve_type(ty).unwrap_or(Ty::ANY);
            if t.list {
                self.err(
                    Diagnostic::error(Code::ActionForm, ty.span(), "a parameter of an asked action is one value")
                        .with_label("a list")
                        .with_note("pass what the list is made from (a feature, a square, …) and compute the list in the action"),
                );
            }
            sc.bind(&name.name, t);
        }
        params.len() as u16
    }

    /// `ask WHO ACTION(ARGS)`.
    pub(super) fn stmt_ask(
        &mut self,
        who: &ast::Expr,
        action: &ast::Ident,
        args: &[ast::Expr],
        span: ast::Span,
        sc: &mut Scope,
    ) -> Option<Stmt> {
        let who_x = self.asked_players(who, sc);
        let Some(sig) = self.asked.get(&action.name).cloned() else {
            let d = self.unknown_action(action);
            self.err(d);
            for a in args {
                self.expr(a, sc);
            }
            return None;
        };
        let Some(params) = sig.params else {
            self.err(
                Diagnostic::error(
                    Code::ActionForm,
                    action.span.clone(),
                    format!("action `{}` is not an asked action", action.name),
                )
                .with_label("offered in a phase, not by `ask`")
                .with_note(format!(
                    "give it a parameter list to make it asked: `action {}(…)` (`()` for none)",
                    action.name
                )),
            );
            return None;
        };
        if args.len() != params.len() {
            let d = ask_arity(action, &params, args.len(), span);
            self.err(d);
            return None;
        }
        let mut out = Vec::new();
        for (a, (_, t)) in args.iter().zip(&params) {
            out.push(match t {
                Some(t) => self.expect(a, sc, *t),
                None => self.expr(a, sc).0,
            });
        }
        Some(Stmt::Ask {
            who: who_x,
            action: sig.index,
            args: out,
            at: self.site(&span),
        })
    }

    /// Who an `ask` asks, lowered: a player, a set of players or a list of players (reported if not).
    fn asked_players(&mut self, who: &ast::Expr, sc: &mut Scope) -> Expr {
        let (who_x, who_t) = self.expr(who, sc);
        let player_ok = !who_t.list
            && matches!(who_t.base, Base::Player | Base::Players | Base::Any)
            || who_t.list && matches!(who_t.base, Base::Player | Base::Any);
        if !player_ok {
            self.err(
                Diagnostic::error(
                    Code::TypeMismatch,
                    who.span.clone(),
                    format!("expected a player, found {who_t}"),
                )
                .with_label("who is asked")
                .with_note(
                    "ask a player, a set of players (`feature.winners`) or a list of players",
                ),
            );
        }
        who_x
    }

    /// An `ask` of an action not in force: removed by a house rule, or misspelt.
    fn unknown_action(&self, action: &ast::Ident) -> Diagnostic {
        let removed = self
            .house
            .removed
            .get(&(ast::DefKind::Action, action.name.clone()));
        if let Some((f, at)) = removed {
            let src = &self.files[*f];
            let (line, col) = src.line_col(at.start);
            return Diagnostic::error(
                Code::RemovedAction,
                action.span.clone(),
                format!(
                    "action `{}` is asked here, but a house rule removed it",
                    action.name
                ),
            )
            .with_label("removed")
            .with_note(format!("it is removed at {}:{line}:{col}", src.name))
            .with_note(
                "remove or change what asks it too (`remove rule …`, `change rule … { … }`)",
            );
        }
        let mut d = Diagnostic::error(
            Code::UnknownAction,
            action.span.clone(),
            format!("unknown action `{}`", action.name),
        )
        .with_label("no action has this name");
        if let Some(s) = did_you_mean(&action.name, self.asked.keys().map(|s| s.as_str())) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        d
    }
}

/// An `ask` with too many or too few arguments: the action's parameter list.
fn ask_arity(
    action: &ast::Ident,
    params: &[(String, Option<Ty>)],
    given: usize,
    span: ast::Span,
) -> Diagnostic {
    let want: Vec<String> = params
        .iter()
        .map(|(n, t)| match t {
            Some(t) => format!("{n}: {t}"),
            None => n.clone(),
        })
        .collect();
    Diagnostic::error(
        Code::ArgumentCount,
        span,
        format!(
            "`{}` takes {} argument{}, {} given",
            action.name,
            params.len(),
            if params.len() == 1 { "" } else { "s" },
            given
        ),
    )
    .with_label("this ask")
    .with_note(format!("`action {}({})`", action.name, want.join(", ")))
}
