//! The values the rules keep (`state NAME: TYPE [in LO..HI] [= START] [per player] [reset WHEN]`):
//! their declarations, their reads (`season`, `player.bid`) and the places `set` and `add` write
//! (the same two forms). See grammar/DESIGN.md, "State the rules keep".

use super::{Checker, Global, Scope};
use crate::ast::{self, ExprKind, ItemKind};
use crate::builtins::{self, Base, Builtin, Ty};
use crate::consts::{const_value, mismatch};
use crate::counters::Reset;
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir::{self, Expr, Origin, StateDef, Value};

/// The fields of a player a state kept per player may not be named like (`p.score` is the score).
fn player_field(name: &str) -> bool {
    builtins::field(Base::Player, name).is_some()
}

impl Checker {
    /// Declares every `state` item, imports first: its name, type, range, start and reset.
    pub(super) fn declare_states(&mut self, order: &[usize], asts: &[ast::File]) {
        for &f in order {
            self.file = f;
            for item in &asts[f].items {
                if let ItemKind::State(d) = &item.kind {
                    self.declare_state(d, f);
                }
            }
        }
    }

    fn declare_state(&mut self, d: &ast::StateDecl, file: usize) {
        let ty = self.resolve_type(&d.ty);
        let ok_ty = matches!(ty, Some(t) if t == Ty::INT || t == Ty::BOOL);
        if ty.is_some() && !ok_ty {
            self.err(
                Diagnostic::error(
                    Code::StateUse,
                    d.ty.span(),
                    format!("a state the rules keep is an int or a bool, not {}", ty.unwrap_or(Ty::ANY)),
                )
                .with_label("not int or bool")
                .with_note("a counter: `state season: int in 1..3 = 1`; a flag: `state traded: bool per player reset turn`"),
            );
        }
        let ty = if ok_ty {
            ty.unwrap_or(Ty::INT)
        } else {
            Ty::INT
        };
        let per_player = self.state_per(d);
        let reset = self.state_reset(d);
        let range = self.state_range(d, ty);
        let start = self.state_start(d, ty, range.as_ref());
        if per_player && player_field(&d.name.name) {
            self.err(
                Diagnostic::error(
                    Code::StateUse,
                    d.name.span.clone(),
                    format!("a player already has a field `{}`", d.name.name),
                )
                .with_label("kept per player, it would be read as `player.NAME`")
                .with_note(format!(
                    "the fields of a player are: {}; choose another name",
                    builtins::field_names(Base::Player)
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            );
            return;
        }
        let id = self.prog.states.len() as u16;
        if !self.declare(&d.name, Global::State(id)) {
            return;
        }
        self.prog.states.push(StateDef {
            name: d.name.name.clone(),
            ty,
            range,
            start,
            per_player,
            reset,
            doc: d.doc.as_ref().map_or(String::new(), |s| s.value.clone()),
            origin: Origin {
                file: file as u16,
                span: d.name.span.clone(),
            },
        });
    }

    /// `per player` (any other word is refused).
    fn state_per(&mut self, d: &ast::StateDecl) -> bool {
        let Some(w) = &d.per_player else {
            return false;
        };
        if w.name != "player" {
            self.err(
                Diagnostic::error(
                    Code::StateUse,
                    w.span.clone(),
                    format!(
                        "a state is kept for the game or `per player`, not per `{}`",
                        w.name
                    ),
                )
                .with_label("expected `player`")
                .with_note(
                    "write `per player` for one value per player, nothing for one for the game",
                ),
            );
        }
        true
    }

    /// `reset turn|round|never` (default never).
    fn state_reset(&mut self, d: &ast::StateDecl) -> Reset {
        let Some(w) = &d.reset else {
            return Reset::Never;
        };
        if let Some(r) = Reset::from_name(&w.name) {
            return r;
        }
        let names = Reset::ALL.map(|r| r.name());
        let mut diag = Diagnostic::error(
            Code::StateUse,
            w.span.clone(),
            format!(
                "a state resets each `turn`, each `round` or `never`, not `{}`",
                w.name
            ),
        )
        .with_label("unknown reset");
        if let Some(s) = did_you_mean(&w.name, names.iter().copied()) {
            diag = diag.with_note(format!("did you mean `{s}`?"));
        }
        self.err(diag);
        Reset::Never
    }

    /// `in LO..HI`: an int's allowed values, bounds of numbers and parameters.
    fn state_range(&mut self, d: &ast::StateDecl, ty: Ty) -> Option<ir::ParamRange> {
        let e = d.range.as_ref()?;
        if ty != Ty::INT {
            self.err(
                Diagnostic::error(Code::StateUse, e.span.clone(), "a flag takes no `in`")
                    .with_label("a bool is true or false")
                    .with_note("only a counter (`int`) has a range"),
            );
            return None;
        }
        let ExprKind::Range(a, b) = &e.kind else {
            self.err(
                Diagnostic::error(
                    Code::StateUse,
                    e.span.clone(),
                    "a counter's range is `LO..HI`",
                )
                .with_label("not a range")
                .with_note("e.g. `state season: int in 1..3 = 1`"),
            );
            return None;
        };
        let (lo, hi) = (self.state_bound(a)?, self.state_bound(b)?);
        let text = self.files[self.file]
            .text
            .get(e.span.clone())
            .unwrap_or("")
            .to_string();
        let range = ir::ParamRange::Ints(lo, hi, text.clone());
        if let Some((l, h)) = range.bounds(&self.prog) {
            if l > h {
                self.err(
                    Diagnostic::error(
                        Code::EmptyRange,
                        e.span.clone(),
                        format!("`{text}` is empty"),
                    )
                    .with_label("the lowest value comes first"),
                );
                return None;
            }
        }
        Some(range)
    }

    /// A bound of a counter's range: numbers and parameters only.
    fn state_bound(&mut self, x: &ast::Expr) -> Option<Expr> {
        let (e, t) = self.expr(x, &mut Scope::default());
        if !Ty::INT.accepts(t) {
            self.err(mismatch(x.span.clone(), Ty::INT, t).with_note("a range's bounds are ints"));
            return None;
        }
        if self.prog.limit_count(&e).is_none() {
            self.err(
                Diagnostic::error(
                    Code::NotConstant,
                    x.span.clone(),
                    "a range's bound is made of numbers and parameters only",
                )
                .with_label("not a number or a parameter"),
            );
            return None;
        }
        Some(e)
    }

    /// `= START`: a constant of the state's type, in its range (0 or false when not written).
    fn state_start(&mut self, d: &ast::StateDecl, ty: Ty, range: Option<&ir::ParamRange>) -> i64 {
        let (v, span) = match &d.start {
            None => (
                if ty == Ty::BOOL {
                    Value::Bool(false)
                } else {
                    Value::Int(0)
                },
                d.name.span.clone(),
            ),
            Some(e) => match const_value(&mut self.prog, e, ty) {
                Ok(v) => (v, e.span.clone()),
                Err(diag) => {
                    self.err(diag.with_note("a state starts at a constant: `= 0`, `= true`"));
                    return 0;
                }
            },
        };
        if let Some(why) = range.and_then(|r| r.refuses(v, &self.prog)) {
            let (msg, label) = match d.start {
                Some(_) => (
                    format!("the start of `{}` is not allowed: it {why}", d.name.name),
                    "the start",
                ),
                None => (
                    format!(
                        "`{}` starts at 0, which its range does not allow: it {why}",
                        d.name.name
                    ),
                    "starts at 0",
                ),
            };
            self.err(
                Diagnostic::error(Code::ValueNotAllowed, span, msg)
                    .with_label(label)
                    .with_note("give a start in the range: `state NAME: int in LO..HI = START`"),
            );
        }
        match v {
            Value::Int(i) => i,
            Value::Bool(b) => i64::from(b),
            _ => 0,
        }
    }

    /// The type of state `id`'s values.
    pub(super) fn state_ty(&self, id: u16) -> Ty {
        self.prog.states.get(id as usize).map_or(Ty::ANY, |s| s.ty)
    }

    /// A state read by its name (`season`): one kept per player needs its player.
    pub(super) fn state_name(&mut self, id: u16, span: ast::Span) -> (Expr, Ty) {
        let Some(s) = self.prog.states.get(id as usize) else {
            return (Expr::Const(Value::Unit), Ty::ANY);
        };
        if s.per_player {
            let name = s.name.clone();
            self.err(
                Diagnostic::error(
                    Code::StateUse,
                    span,
                    format!("`{name}` is kept per player: whose?"),
                )
                .with_label("one value per player")
                .with_note(format!(
                    "read a player's with `PLAYER.{name}` (e.g. `player.{name}`)"
                )),
            );
            return (Expr::Const(Value::Unit), Ty::ANY);
        }
        (Builtin::state_read(id, None), s.ty)
    }

    /// `p.NAME` where `NAME` is a state: a player's own value of a state kept per player.
    pub(super) fn state_field(&mut self, player: Expr, name: &ast::Ident) -> Option<(Expr, Ty)> {
        let Some(Global::State(id)) = self.globals.get(&name.name).copied() else {
            return None;
        };
        let s = self.prog.states.get(id as usize)?;
        if !s.per_player {
            self.err(
                Diagnostic::error(
                    Code::StateUse,
                    name.span.clone(),
                    format!("`{}` is kept for the game, not per player", name.name),
                )
                .with_label("one value for everyone")
                .with_note(format!("read it by its name: `{}`", name.name)),
            );
            return Some((Expr::Const(Value::Unit), Ty::ANY));
        }
        Some((Builtin::state_read(id, Some(player)), s.ty))
    }

    /// The state a `set` or `add` writes, named as it is read: `season` or `p.bid`. Returns the
    /// place and the state's index (`None` after an error).
    pub(super) fn state_place(
        &mut self,
        a: &ast::Expr,
        sc: &mut Scope,
        int_only: bool,
    ) -> (Expr, Option<u16>) {
        let bad = (Expr::Const(Value::Unit), None);
        let found = match &a.kind {
            ExprKind::Name(n) if sc.get(n).is_none() => match self.globals.get(n).copied() {
                Some(Global::State(id)) => Some((id, None, a.span.clone())),
                _ => None,
            },
            ExprKind::Field(obj, f) => match self.globals.get(&f.name).copied() {
                Some(Global::State(id)) => {
                    let (p, t) = self.expr(obj, sc);
                    if !Ty::of(Base::Player).accepts(t) {
                        self.err(
                            mismatch(obj.span.clone(), Ty::of(Base::Player), t)
                                .with_note(format!("`.{}` is a state kept per player", f.name)),
                        );
                        return bad;
                    }
                    Some((id, Some(p), f.span.clone()))
                }
                _ => None,
            },
            _ => None,
        };
        let Some((id, player, span)) = found else {
            return self.not_a_state(a, sc);
        };
        let Some(s) = self.prog.states.get(id as usize) else {
            return bad;
        };
        let name = s.name.clone();
        match (s.per_player, player.is_some()) {
            (true, false) => {
                self.err(
                    Diagnostic::error(
                        Code::StateUse,
                        span,
                        format!("`{name}` is kept per player: whose?"),
                    )
                    .with_label("one value per player")
                    .with_note(format!("name the player: `player.{name}`")),
                );
                return bad;
            }
            (false, true) => {
                self.err(
                    Diagnostic::error(
                        Code::StateUse,
                        span,
                        format!("`{name}` is kept for the game, not per player"),
                    )
                    .with_label("one value for everyone")
                    .with_note(format!("name it alone: `{name}`")),
                );
                return bad;
            }
            _ => {}
        }
        if int_only && s.ty != Ty::INT {
            self.err(
                Diagnostic::error(
                    Code::StateUse,
                    a.span.clone(),
                    format!("`{name}` is a flag: nothing to add to"),
                )
                .with_label("a bool")
                .with_note(format!("set it: `set({}, true)`", self.text_of(a))),
            );
            return bad;
        }
        (Builtin::state_place(id, player), Some(id))
    }

    /// The argument of `set`/`add` names no state: said, with the nearest state's name.
    fn not_a_state(&mut self, a: &ast::Expr, sc: &mut Scope) -> (Expr, Option<u16>) {
        let states: Vec<String> = self.prog.states.iter().map(|s| s.name.clone()).collect();
        let written = match &a.kind {
            ExprKind::Name(n) => Some(n.clone()),
            ExprKind::Field(_, f) => Some(f.name.clone()),
            _ => None,
        };
        let mut d = Diagnostic::error(
            Code::StateUse,
            a.span.clone(),
            format!("`{}` is not a state the rules keep", self.text_of(a)),
        )
        .with_label("expected a state, named as it is read");
        let other = written
            .as_deref()
            .filter(|_| matches!(a.kind, ExprKind::Name(_)))
            .and_then(|w| self.globals.get(w))
            .map(|g| g.what());
        match written
            .as_deref()
            .and_then(|w| did_you_mean(w, states.iter().map(|s| s.as_str())))
        {
            _ if other.is_some() => {
                d = d.with_note(format!(
                    "`{}` is {}; a rule sets only a state (`state NAME …`)",
                    self.text_of(a),
                    other.unwrap_or_default()
                ))
            }
            Some(s) => d = d.with_note(format!("did you mean `{s}`?")),
            None if states.is_empty() => {
                d = d.with_note(
                    "declare one: `state season: int in 1..3 = 1`, `state bid: int per player`",
                )
            }
            None => d = d.with_note(format!("the states are: {}", states.join(", "))),
        }
        self.err(d);
        // Its own errors (an unknown name inside it) are reported too.
        if !matches!(a.kind, ExprKind::Name(_)) {
            self.expr(a, sc);
        }
        (Expr::Const(Value::Unit), None)
    }

    /// A constant value set to a state outside its range (with the parameters' defaults): refused
    /// when checking, as it would be at run time.
    pub(super) fn check_state_value(&mut self, id: u16, value: &Expr, span: ast::Span) {
        let (Some(s), Expr::Const(v @ Value::Int(_))) = (self.prog.states.get(id as usize), value)
        else {
            return;
        };
        let Some(why) = s.range.as_ref().and_then(|r| r.refuses(*v, &self.prog)) else {
            return;
        };
        let name = s.name.clone();
        self.err(
            Diagnostic::error(Code::ValueNotAllowed, span, format!("`{name}` {why}"))
                .with_label("outside the state's range")
                .with_note("a value outside the range is refused, never clamped"),
        );
    }

    fn text_of(&self, e: &ast::Expr) -> String {
        self.files
            .get(self.file)
            .and_then(|f| f.text.get(e.span.clone()))
            .unwrap_or("")
            .to_string()
    }
}
