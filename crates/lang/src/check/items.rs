//! Setup blocks, rules and actions: each rule's trigger (which binds the first locals), each action's
//! phase, limits and choices, and the lowering of their bodies. Which rules and actions are in force
//! (after `remove`, `replace`, `change`) is the `house` room's.

use super::house::InForce;
use super::{Checker, MapKnowledge, Scope};
use crate::ast::{self, BinOp, ExprKind, ItemKind, UnOp};
use crate::builtins::{self, Base, Trigger, Ty, PHASES};
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir;

fn const_bool(e: &ast::Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Bool(b) => Some(*b),
        ExprKind::Unary(UnOp::Not, x) => const_bool(x).map(|b| !b),
        ExprKind::Binary(BinOp::And, a, b) => Some(const_bool(a)? && const_bool(b)?),
        ExprKind::Binary(BinOp::Or, a, b) => Some(const_bool(a)? || const_bool(b)?),
        _ => None,
    }
}

impl Checker {
    /// Lowers the setup blocks of every file and the rules and actions in force (see `house`), and
    /// indexes the rules by trigger.
    pub(super) fn lower_bodies(&mut self, order: &[usize], asts: &[ast::File]) {
        for &f in order {
            self.file = f;
            for item in &asts[f].items {
                if let ItemKind::Setup(block) = &item.kind {
                    let mut sc = Scope::default();
                    let stmts = self.block(block, &mut sc);
                    self.prog.setup.push(ir::Body {
                        stmts,
                        locals: sc.next,
                    });
                }
            }
        }
        let in_force = std::mem::take(&mut self.house.rules);
        let rules: Vec<ir::Rule> = in_force.iter().filter_map(|e| self.rule(e)).collect();
        self.house.rules = in_force;
        let in_force = std::mem::take(&mut self.house.actions);
        self.prog.actions = in_force.iter().filter_map(|e| self.action(e)).collect();
        self.house.actions = in_force;
        self.prog.by_trigger = vec![Vec::new(); Trigger::ALL.len()];
        for (i, r) in rules.iter().enumerate() {
            if let Some(v) = self.prog.by_trigger.get_mut(r.trigger as usize) {
                v.push(i as u32);
            }
        }
        self.prog.rules = rules;
        self.rule_action_clashes();
    }

    /// A rule and an action share a name: score lines, refusals and `carto doc` could not tell them
    /// apart. Reported at the action, naming the rule.
    fn rule_action_clashes(&mut self) {
        let mut clashes = Vec::new();
        for a in &self.prog.actions {
            if let Some(r) = self.prog.rules.iter().find(|r| r.name == a.name) {
                clashes.push((a.name.clone(), a.origin.clone(), r.origin.clone()));
            }
        }
        for (name, at, rule) in clashes {
            let first_line = |o: &ir::Origin| -> (usize, ast::Span) {
                let text = self
                    .files
                    .get(o.file as usize)
                    .map_or("", |f| f.text.as_str());
                let line = text
                    .get(o.span.clone())
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or("");
                (
                    o.file as usize,
                    o.span.start..o.span.start + line.trim_end().len(),
                )
            };
            let (file, span) = first_line(&at);
            let (rfile, rspan) = first_line(&rule);
            let (line, col) = self.files[rfile].line_col(rspan.start);
            let saved = std::mem::replace(&mut self.file, file);
            self.err(
                Diagnostic::error(
                    Code::DefinedTwice,
                    span,
                    format!("a rule and an action are both named `{name}`"),
                )
                .with_label("this action")
                .with_note(format!(
                    "the rule is at {}:{line}:{col}",
                    self.files[rfile].name
                ))
                .with_note(
                    "score lines and refusals name rules and actions: give one another name",
                ),
            );
            self.file = saved;
        }
    }

    fn never(&mut self, e: &ast::Expr, what: &str) {
        if const_bool(e) == Some(false) {
            self.err(
                Diagnostic::error(
                    Code::NeverApplies,
                    e.span.clone(),
                    format!("this {what} can never apply"),
                )
                .with_label("this condition is always false"),
            );
        }
    }

    /// Runs `f` with diagnostics going to `file` (a part written by a house rule's file).
    fn in_file<T>(&mut self, file: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.file, file);
        let out = f(self);
        self.file = saved;
        out
    }

    /// Where a definition in force came from, and the `change`s applied to it.
    fn origins(e: &InForce) -> (ir::Origin, Vec<ir::Origin>) {
        let origin = |f: usize, span: &ast::Span| ir::Origin {
            file: f as u16,
            span: span.clone(),
        };
        (
            origin(e.file, &e.span),
            e.changes.iter().map(|(f, s)| origin(*f, s)).collect(),
        )
    }

    /// Lowers a rule in force; `None` when its trigger is unknown (reported).
    fn rule(&mut self, e: &InForce) -> Option<ir::Rule> {
        let ItemKind::Rule {
            name,
            trigger,
            when,
            body,
        } = &e.def
        else {
            return None;
        };
        self.file = e.file;
        let t = self.trigger(trigger)?;
        let mut sc = Scope::default();
        for (n, bound) in t.binds() {
            sc.bind(n, Ty::from(*bound));
        }
        let when_at = when_at(e.parts.when, when.as_ref());
        let when = when.as_ref().map(|w| {
            self.in_file(e.parts.when, |c| {
                c.never(w, "rule");
                c.expect(w, &mut sc, Ty::BOOL)
            })
        });
        let stmts = self.in_file(e.parts.body, |c| c.block(body, &mut sc));
        let (origin, changes) = Self::origins(e);
        Some(ir::Rule {
            name: name.name.clone(),
            trigger: t,
            when,
            when_at,
            body: ir::Body {
                stmts,
                locals: sc.next,
            },
            origin,
            changes,
        })
    }

    /// A rule's trigger, reported when unknown or impossible on the map.
    fn trigger(&mut self, trigger: &ast::Ident) -> Option<Trigger> {
        let Some(t) = Trigger::from_name(&trigger.name) else {
            let mut d = Diagnostic::error(
                Code::UnknownTrigger,
                trigger.span.clone(),
                format!("unknown trigger `{}`", trigger.name),
            )
            .with_label("not a trigger");
            if let Some(s) = did_you_mean(&trigger.name, Trigger::ALL.iter().map(|t| t.name())) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            let all: Vec<&str> = Trigger::ALL.iter().map(|t| t.name()).collect();
            self.err(d.with_note(format!("the triggers are: {}", all.join(", "))));
            return None;
        };
        if t == Trigger::Adjacent && self.on_endless_table() {
            self.err(
                Diagnostic::warning(
                    Code::NoEffect,
                    trigger.span.clone(),
                    "this trigger can never apply",
                )
                .with_label("`map = unbounded`: the endless table has no map squares")
                .with_note(
                    "`adjacent` fires for each map square next to the placed tile; on the \
                         endless table there is none (use `placed` for the tile itself)",
                ),
            );
        }
        if t == Trigger::Abroad {
            if let Some(MapKnowledge::Known {
                name: m, exits: 0, ..
            }) = &self.map
            {
                let m = m.clone();
                self.err(
                    Diagnostic::warning(
                        Code::NoEffect,
                        trigger.span.clone(),
                        "this trigger can never apply",
                    )
                    .with_label(format!("the map `{m}` has no border exits")),
                );
            }
        }
        Some(t)
    }

    /// Lowers an action in force, each part in the file that wrote it.
    fn action(&mut self, e: &InForce) -> Option<ir::Action> {
        let ItemKind::Action(a) = &e.def else {
            return None;
        };
        self.file = e.file;
        self.reserved_action_name(&a.name);
        let mut sc = Scope::default();
        sc.bind("player", Ty::of(Base::Player));
        let params = self.action_params(a, &mut sc);
        let (phase, limits) = if a.params.is_some() && !a.forced {
            (Some(builtins::Phase::Asked), Vec::new())
        } else {
            let phase = self.in_file(e.parts.phase, |c| c.action_phase(a));
            (phase, self.action_limits(a, &e.parts.limits, phase))
        };
        self.in_file(e.parts.when, |c| c.forced_always_applies(a));
        let when = a.when.as_ref().map(|w| {
            self.in_file(e.parts.when, |c| {
                c.never(w, if a.forced { "forced action" } else { "action" });
                c.expect(w, &mut sc, Ty::BOOL)
            })
        });
        let choices = self.action_choices(a, &e.parts.choices, &mut sc);
        let stmts = self.in_file(e.parts.body, |c| c.block(&a.body, &mut sc));
        let text = self.files.get(e.parts.when).map_or("", |f| f.text.as_str());
        let mut parts = Vec::new();
        if let Some(w) = &a.when {
            ast_conjuncts(w, &mut parts);
        }
        let when_text = parts
            .iter()
            .map(|p| text.get(p.span.clone()).unwrap_or("").trim().to_string())
            .collect();
        let (origin, changes) = Self::origins(e);
        Some(ir::Action {
            name: a.name.name.clone(),
            phase,
            params,
            limits,
            when,
            when_at: when_at(e.parts.when, a.when.as_ref()),
            when_text,
            choices,
            body: ir::Body {
                stmts,
                locals: sc.next,
            },
            origin,
            changes,
        })
    }

    /// A forced action with no choices whose `when` always holds would be taken forever.
    /// An action's name is its option's name: the words option lists use for the engine's own
    /// options (`pass`, `draw`, `place …`, `follower …`) cannot name an action, or a decision would
    /// list two options of one name (or one a script could not tell from a placement).
    fn reserved_action_name(&mut self, name: &ast::Ident) {
        if let Some(word) = RESERVED_OPTION_WORDS.iter().find(|w| **w == name.name) {
            let what = match *word {
                "pass" => "`pass` is the option that declines a decision",
                "draw" => "`draw` is the option that draws the turn's tile",
                "place" => "`place …` names the placements of a tile",
                _ => "`follower …` names the follower placements",
            };
            self.err(
                Diagnostic::error(
                    Code::InvalidName,
                    name.span.clone(),
                    format!("an action cannot be named `{word}`: option lists use that name"),
                )
                .with_label(format!("{what}; choose another name")),
            );
        }
    }

    fn forced_always_applies(&mut self, a: &ast::ActionDecl) {
        if a.forced
            && a.choices.is_empty()
            && a.when.as_ref().is_none_or(|w| const_bool(w) == Some(true))
        {
            self.err(
                Diagnostic::error(
                    Code::EndlessForcedAction, a.name.span.clone(),
                    format!("forced action `{}` would be taken again and again", a.name.name),
                )
                .with_label("it always applies")
                .with_note("a forced action is taken whenever its condition holds: give it a `when` that its effect makes false"),
            );
        }
    }

    /// The phase an action is offered in (`score` when none is named); `None` for a forced action.
    fn action_phase(&mut self, a: &ast::ActionDecl) -> Option<builtins::Phase> {
        if a.forced {
            return None;
        }
        let Some(p) = &a.phase else {
            return Some(builtins::Phase::Score);
        };
        if let Some((_, ph)) = PHASES.iter().find(|(n, _)| *n == p.name) {
            return Some(*ph);
        }
        let mut d = Diagnostic::error(
            Code::UnknownPhase,
            p.span.clone(),
            format!("unknown phase `{}`", p.name),
        )
        .with_label("not a phase");
        if let Some(s) = did_you_mean(&p.name, PHASES.iter().map(|(n, _)| *n)) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        self.err(d.with_note("the phases are: start, follower, score, after"));
        Some(builtins::Phase::Score)
    }

    /// The choices of an action, each bound to the next slot after `player` and the earlier choices.
    fn action_choices(
        &mut self,
        a: &ast::ActionDecl,
        files: &[usize],
        sc: &mut Scope,
    ) -> Vec<ir::Choice> {
        let mut choices = Vec::new();
        let saved = self.file;
        for (i, c) in a.choices.iter().enumerate() {
            self.file = files.get(i).copied().unwrap_or(saved);
            if choices.iter().any(|x: &ir::Choice| x.name == c.name.name) || c.name.name == "player"
            {
                self.err(
                    Diagnostic::error(
                        Code::DefinedTwice,
                        c.name.span.clone(),
                        format!("choice `{}` is defined twice", c.name.name),
                    )
                    .with_label("this name is already bound in this action"),
                );
            }
            let (from, kind, ty) = if c.chips {
                let from = self.expect(&c.from, sc, Ty::list(Base::Chip));
                let size = c.size.as_ref().map(|s| {
                    let (e, t) = self.expr(s, sc);
                    if let ast::ExprKind::Range(a, b) = &s.kind {
                        if let (Some(a), Some(b)) = (int_literal(a), int_literal(b)) {
                            if a > b || b < 0 {
                                self.err(
                                    Diagnostic::error(
                                        Code::EmptyRange,
                                        s.span.clone(),
                                        format!("`size {a}..{b}` allows no number of chips"),
                                    )
                                    .with_label("an empty range")
                                    .with_note(
                                        "write the fewest, then the most, such as `size 1..3`",
                                    ),
                                );
                            }
                        }
                    }
                    if !(Ty::of(Base::Range).accepts(t) || t == Ty::INT) {
                        self.err(
                            Diagnostic::error(
                                Code::TypeMismatch,
                                s.span.clone(),
                                format!("expected a range or int, found {t}"),
                            )
                            .with_label("the size, like `1..4`"),
                        );
                    }
                    e
                });
                (from, ir::ChoiceKind::Chips { size }, Ty::list(Base::Chip))
            } else {
                let (from, t) = self.expr(&c.from, sc);
                let elem = self.elem_of(t, c.from.span.clone());
                (from, ir::ChoiceKind::One, elem)
            };
            let slot = sc.bind(&c.name.name, ty);
            let filter = c.filter.as_ref().map(|f| self.expect(f, sc, Ty::BOOL));
            let end = c.filter.as_ref().map_or(c.from.span.end, |f| f.span.end);
            choices.push(ir::Choice {
                name: c.name.name.clone(),
                slot,
                kind,
                from,
                filter,
                ty,
                at: ir::At::new(self.file, &(c.from.span.start..end)),
            });
        }
        self.file = saved;
        choices
    }
}

/// The `and`-joined parts of a condition, left to right.
fn ast_conjuncts<'a>(e: &'a ast::Expr, out: &mut Vec<&'a ast::Expr>) {
    match &e.kind {
        ast::ExprKind::Binary(ast::BinOp::And, a, b) => {
            ast_conjuncts(a, out);
            ast_conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// The first words of the engine's own options: no action may be named so.
const RESERVED_OPTION_WORDS: [&str; 4] = ["pass", "draw", "place", "follower"];

/// The value of an integer literal (`3`, `-3`), if the expression is one.
pub(super) fn int_literal(e: &ast::Expr) -> Option<i64> {
    match &e.kind {
        ast::ExprKind::Int(i) => Some(*i),
        ast::ExprKind::Unary(ast::UnOp::Neg, x) => match x.kind {
            ast::ExprKind::Int(i) => Some(-i),
            _ => None,
        },
        _ => None,
    }
}

/// Where a rule's or action's `when` is written, in file `file` (nowhere when it has none).
fn when_at(file: usize, when: Option<&ast::Expr>) -> ir::At {
    when.map_or(ir::At::default(), |w| ir::At::new(file, &w.span))
}
