//! Expressions: names (locals, then globals), lists, tables, ranges, fields, indexing, operators and
//! aggregates, each typed and lowered to the IR. Calls are checked in `calls.rs`, map attributes in
//! `map.rs`.

use super::{Checker, Global, Scope};
use crate::ast::{self, AggOp, BinOp, ExprKind, UnOp};
use crate::builtins::{self, Base, Builtin, Ty};
use crate::consts::{const_value, mismatch};
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir::{Expr, Src, Value};

impl Checker {
    pub(super) fn expect(&mut self, e: &ast::Expr, sc: &mut Scope, want: Ty) -> Expr {
        let (x, t) = self.expr(e, sc);
        if !want.accepts(t) {
            self.err(mismatch(e.span.clone(), want, t));
            return x;
        }
        if want.base == Base::Players && !want.list && t.base == Base::Player && !t.list {
            return Expr::ToPlayers(Box::new(x));
        }
        x
    }

    fn visible_names(&self, sc: &Scope) -> Vec<String> {
        let mut v: Vec<String> = sc.vars.iter().map(|(n, ..)| n.clone()).collect();
        v.extend(self.globals.keys().cloned());
        v.extend(["true".to_string(), "false".to_string()]);
        v
    }

    /// `e` typed and lowered to the IR; an expression that can fail on its own keeps where `e` is
    /// written (see [`Src`]).
    pub(super) fn expr(&mut self, e: &ast::Expr, sc: &mut Scope) -> (Expr, Ty) {
        let (x, t) = self.expr_kind(e, sc);
        (x.written_at(self.site(&e.span)), t)
    }

    fn expr_kind(&mut self, e: &ast::Expr, sc: &mut Scope) -> (Expr, Ty) {
        let bad = (Expr::Const(Value::Unit), Ty::ANY);
        match &e.kind {
            ExprKind::Int(i) => (Expr::Const(Value::Int(*i)), Ty::INT),
            ExprKind::Bool(b) => (Expr::Const(Value::Bool(*b)), Ty::BOOL),
            ExprKind::Str(s) => (Expr::Const(Value::Str(self.prog.intern(s))), Ty::STR),
            ExprKind::Name(n) => self.expr_name(e, n, sc),
            ExprKind::List(items) => self.expr_list(items, sc),
            ExprKind::Table(_) => match const_value(&mut self.prog, e, Ty::of(Base::Table)) {
                Ok(v) => (Expr::Const(v), Ty::of(Base::Table)),
                Err(_) => {
                    self.err(
                        Diagnostic::error(
                            Code::NotConstant,
                            e.span.clone(),
                            "a table's keys and values must be constant numbers",
                        )
                        .with_label("not a constant table"),
                    );
                    bad
                }
            },
            ExprKind::Range(a, b) => {
                let a = self.expect(a, sc, Ty::INT);
                let b = self.expect(b, sc, Ty::INT);
                (
                    Expr::Range(Box::new(a), Box::new(b), Src::NONE),
                    Ty::of(Base::Range),
                )
            }
            ExprKind::Field(obj, name) => self.expr_field(obj, name, sc),
            ExprKind::Index(obj, idx) => self.expr_index(obj, idx, sc),
            ExprKind::Call(name, args) => match self.call(name, args, e.span.clone(), sc, false) {
                Some((b, args, t)) => (Expr::Call(b, args, Src::NONE), t),
                None => bad,
            },
            ExprKind::Unary(op, x) => match op {
                UnOp::Not => (Expr::Not(Box::new(self.expect(x, sc, Ty::BOOL))), Ty::BOOL),
                UnOp::Neg => (
                    Expr::Neg(Box::new(self.expect(x, sc, Ty::INT)), Src::NONE),
                    Ty::INT,
                ),
            },
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, sc),
            ExprKind::If(c, a, b) => self.if_value(c, a, b, sc),
            ExprKind::Aggregate {
                op,
                var,
                list,
                filter,
                map,
            } => self.expr_aggregate(*op, var, list, filter.as_deref(), map.as_deref(), sc),
        }
    }

    /// A name: a local (innermost first), else a global; unknown names get the nearest suggestion.
    fn expr_name(&mut self, e: &ast::Expr, n: &str, sc: &mut Scope) -> (Expr, Ty) {
        let bad = (Expr::Const(Value::Unit), Ty::ANY);
        if let Some((t, slot)) = sc.get(n) {
            return (Expr::Local(slot), t);
        }
        if let Some(g) = self.globals.get(n).copied() {
            if let Global::State(id) = g {
                return self.state_name(id, e.span.clone());
            }
            let ty = g.ty(&self.prog);
            let x = match g {
                Global::Param(i) => {
                    if let Some(u) = self.param_used.get_mut(i as usize) {
                        *u = true;
                    }
                    Expr::Param(i)
                }
                Global::Colour(c) => Expr::Const(Value::Colour(c)),
                Global::Kind(k) => Expr::Const(Value::Kind(k)),
                Global::Place(p) => Expr::Const(Value::Place(p)),
                Global::Face(f) => Expr::Const(Value::Face(f)),
                Global::Holding(h) => Expr::Const(Value::Holding(h)),
                Global::State(_) => Expr::Const(Value::Unit),
            };
            return (x, ty);
        }
        let mut d = Diagnostic::error(
            Code::UnknownName,
            e.span.clone(),
            format!("unknown name `{n}`"),
        )
        .with_label("not defined");
        let names = self.visible_names(sc);
        if let Some(s) = did_you_mean(n, names.iter().map(|s| s.as_str())) {
            d = d.with_note(format!("did you mean `{s}`?"));
        } else if let Some(b) = Builtin::from_name(n) {
            d = d.with_note(format!("`{n}` is a builtin; call it: `{}`", b.signature()));
        } else if n == "unbounded" {
            d = d.with_note("`unbounded` is only a value of the header key `map`");
        }
        self.err(d);
        bad
    }

    /// A list literal: every element of one type, no lists of lists.
    fn expr_list(&mut self, items: &[ast::Expr], sc: &mut Scope) -> (Expr, Ty) {
        let mut elem = Ty::ANY;
        let mut out = Vec::new();
        for it in items {
            let (x, t) = self.expr(it, sc);
            if t.list {
                self.err(
                    Diagnostic::error(
                        Code::NestedList,
                        it.span.clone(),
                        "lists of lists are not supported",
                    )
                    .with_label("a list"),
                );
            } else if elem.is_any() {
                elem = t;
            } else if !elem.accepts(t) {
                self.err(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        it.span.clone(),
                        format!("expected {elem}, found {t}"),
                    )
                    .with_label("all elements of a list have one type"),
                );
            }
            out.push(x);
        }
        (Expr::List(out), Ty::list(elem.base))
    }

    /// `obj.name`: a builtin field of the object's type, or a map attribute of a square.
    fn expr_field(&mut self, obj: &ast::Expr, name: &ast::Ident, sc: &mut Scope) -> (Expr, Ty) {
        let bad = (Expr::Const(Value::Unit), Ty::ANY);
        let (x, t) = self.expr(obj, sc);
        if t.is_any() {
            return bad;
        }
        if t.list {
            self.err(
                Diagnostic::error(
                    Code::UnknownField,
                    name.span.clone(),
                    format!("a {t} has no fields"),
                )
                .with_label("field of a list")
                .with_note(format!(
                    "use an aggregate, e.g. `sum(x in … : x.{})`",
                    name.name
                )),
            );
            return bad;
        }
        if let Some((f, ft)) = builtins::field(t.base, &name.name) {
            return (Expr::Field(Box::new(x), f, Src::NONE), ft);
        }
        if t.base == Base::Square {
            return self.attr(x, name);
        }
        if t.base == Base::Player && matches!(self.globals.get(&name.name), Some(Global::State(_)))
        {
            if let Some(read) = self.state_field(x, name) {
                return read;
            }
            return bad;
        }
        if matches!(t.base, Base::Tile | Base::Feature) {
            if let Some(read) = self.tile_attr(&x, name, t.base == Base::Feature) {
                return read;
            }
        }
        let fields: Vec<&str> = builtins::field_names(t.base).collect();
        let attrs = self.tile_attr_names(t.base);
        let mut d = Diagnostic::error(
            Code::UnknownField,
            name.span.clone(),
            format!("{t} has no field `{}`", name.name),
        )
        .with_label("unknown field");
        let cands = fields
            .iter()
            .copied()
            .chain(attrs.iter().map(|s| s.as_str()));
        if let Some(s) = did_you_mean(&name.name, cands) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        if !attrs.is_empty() {
            d = d.with_note(format!(
                "the tile sets' attributes are: {}",
                attrs.join(", ")
            ));
        }
        if fields.is_empty() {
            d = d.with_note(format!("{t} has no fields"));
        } else {
            d = d.with_note(format!("the fields of {t} are: {}", fields.join(", ")));
        }
        self.err(d);
        bad
    }

    /// `obj[idx]`: a table by key or a list by position.
    fn expr_index(&mut self, obj: &ast::Expr, idx: &ast::Expr, sc: &mut Scope) -> (Expr, Ty) {
        let bad = (Expr::Const(Value::Unit), Ty::ANY);
        let (x, t) = self.expr(obj, sc);
        let i = self.expect(idx, sc, Ty::INT);
        let rt = if t.is_any() {
            Ty::ANY
        } else if t == Ty::of(Base::Table) {
            Ty::INT
        } else if t.list {
            Ty::of(t.base)
        } else {
            self.err(
                Diagnostic::error(
                    Code::TypeMismatch,
                    obj.span.clone(),
                    format!("cannot index {t}"),
                )
                .with_label("not a table or list"),
            );
            return bad;
        };
        (Expr::Index(Box::new(x), Box::new(i), Src::NONE), rt)
    }

    /// `op(var in list where filter : map)`: binds `var` for the filter and the map only.
    fn expr_aggregate(
        &mut self,
        op: AggOp,
        var: &ast::Ident,
        list: &ast::Expr,
        filter: Option<&ast::Expr>,
        map: Option<&ast::Expr>,
        sc: &mut Scope,
    ) -> (Expr, Ty) {
        let (l, lt) = self.expr(list, sc);
        let elem = self.elem_of(lt, list.span.clone());
        let mark = sc.vars.len();
        let slot = sc.bind(&var.name, elem);
        let filter = filter.map(|f| Box::new(self.expect(f, sc, Ty::BOOL)));
        let (map_x, map_t) = match map {
            Some(m) => {
                let (x, t) = self.expr(m, sc);
                (Some(Box::new(x)), Some((t, m.span.clone())))
            }
            None => (None, None),
        };
        sc.vars.truncate(mark);
        let rt = self.aggregate_type(op, elem, map_t.as_ref(), list.span.clone());
        let x = Expr::Aggregate {
            op,
            var: slot,
            list: Box::new(l),
            filter,
            map: map_x,
            at: Src::NONE,
        };
        (x, rt)
    }

    /// The type of an aggregate's result, checking its values (`elem`, or the map's type and span).
    fn aggregate_type(
        &mut self,
        op: AggOp,
        elem: Ty,
        map_t: Option<&(Ty, ast::Span)>,
        list_span: ast::Span,
    ) -> Ty {
        let value_t = map_t.map_or(elem, |(t, _)| *t);
        let value_span = map_t.map_or(list_span, |(_, s)| s.clone());
        match op {
            AggOp::Count => {
                if let Some((_, s)) = map_t {
                    self.err(
                        Diagnostic::error(
                            Code::AggregateForm,
                            s.clone(),
                            "`count` takes no `:` part",
                        )
                        .with_label("nothing to map")
                        .with_note("count the elements that pass a test with `where`"),
                    );
                }
                Ty::INT
            }
            AggOp::Sum | AggOp::Min | AggOp::Max => {
                if !Ty::INT.accepts(value_t) {
                    let mut d = mismatch(value_span, Ty::INT, value_t);
                    if map_t.is_none() {
                        d = d.with_label(format!("the elements of this list are {value_t}"));
                    }
                    self.err(d.with_note(format!(
                        "`{}` needs numbers: add `: x.value` or similar",
                        op.name()
                    )));
                }
                Ty::INT
            }
            AggOp::Any | AggOp::All => {
                if map_t.is_some() && !Ty::BOOL.accepts(value_t) {
                    self.err(mismatch(value_span, Ty::BOOL, value_t));
                }
                Ty::BOOL
            }
            AggOp::Distinct => Ty::INT,
            AggOp::Sort => {
                if !Ty::INT.accepts(value_t) {
                    let mut d = mismatch(value_span, Ty::INT, value_t);
                    if map_t.is_none() {
                        d = d.with_label(format!("the elements of this list are {value_t}"));
                    }
                    self.err(d.with_note(
                        "`sort` orders by a number: add `: x.value` or similar (`: -x.value` for the largest first)",
                    ));
                }
                Ty::list(elem.base)
            }
            AggOp::Collect => {
                if value_t.list {
                    self.err(
                        Diagnostic::error(
                            Code::NestedList,
                            value_span,
                            "lists of lists are not supported",
                        )
                        .with_label("a list"),
                    );
                }
                Ty::list(value_t.base)
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, sc: &mut Scope) -> (Expr, Ty) {
        let bx = |op, x, y| Expr::Binary(op, Box::new(x), Box::new(y), Src::NONE);
        match op {
            BinOp::And | BinOp::Or => {
                let x = self.expect(a, sc, Ty::BOOL);
                let y = self.expect(b, sc, Ty::BOOL);
                (bx(op, x, y), Ty::BOOL)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                if matches!(op, BinOp::Div | BinOp::Rem) && super::items::int_literal(b) == Some(0)
                {
                    self.err(
                        Diagnostic::error(Code::DivisionByZero, b.span.clone(), "division by zero")
                            .with_label("this is 0")
                            .with_note("play would stop here with an error"),
                    );
                }
                let x = self.expect(a, sc, Ty::INT);
                let y = self.expect(b, sc, Ty::INT);
                (bx(op, x, y), Ty::INT)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let x = self.expect(a, sc, Ty::INT);
                let y = self.expect(b, sc, Ty::INT);
                (bx(op, x, y), Ty::BOOL)
            }
            BinOp::Eq | BinOp::Ne => {
                let ((x, ta), (y, tb)) = self.comparands(a, b, sc);
                if !(ta.accepts(tb) || tb.accepts(ta)) {
                    let mut d = Diagnostic::error(
                        Code::TypeMismatch,
                        a.span.start..b.span.end,
                        format!("cannot compare {ta} with {tb}"),
                    )
                    .with_label(format!("{ta} {} {tb}", op.symbol()));
                    let colour = Ty::of(Base::Colour);
                    let other = if ta == colour {
                        Some(b)
                    } else if tb == colour {
                        Some(a)
                    } else {
                        None
                    };
                    if let Some(note) = other.and_then(|e| self.attribute_not_colour(e)) {
                        d = d.with_note(note);
                    }
                    self.err(d);
                }
                (bx(op, x, y), Ty::BOOL)
            }
        }
    }

    /// `if c then a else b`: a condition, and two values of one type (a player and a set of players
    /// give a set).
    fn if_value(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        sc: &mut Scope,
    ) -> (Expr, Ty) {
        let c = self.expect(c, sc, Ty::BOOL);
        let (x, ta) = self.expr(a, sc);
        let (y, tb) = self.expr(b, sc);
        let players = Ty::of(Base::Players);
        let widen = |e: Expr, t: Ty| {
            if t == Ty::of(Base::Player) {
                Expr::ToPlayers(Box::new(e))
            } else {
                e
            }
        };
        let (x, y, t) = if ta.is_any() {
            (x, y, tb)
        } else if tb.is_any() || ta == tb {
            (x, y, ta)
        } else if players.accepts(ta) && players.accepts(tb) {
            (widen(x, ta), widen(y, tb), players)
        } else if ta.accepts(tb) {
            (x, y, ta)
        } else if tb.accepts(ta) {
            (x, y, tb)
        } else {
            self.err(
                Diagnostic::error(
                    Code::TypeMismatch,
                    a.span.start..b.span.end,
                    format!("the two values of `if … then … else …` differ: {ta} and {tb}"),
                )
                .with_label(format!("{ta} here, {tb} after `else`"))
                .with_note("both values must have the same type"),
            );
            (x, y, Ty::ANY)
        };
        (Expr::If(Box::new(c), Box::new(x), Box::new(y)), t)
    }

    /// The two sides of `==` or `!=`. A side that is a name declared nowhere is checked last, and
    /// when the other side is a colour it is reported as an unknown colour, with the colours there are.
    fn comparands(
        &mut self,
        a: &ast::Expr,
        b: &ast::Expr,
        sc: &mut Scope,
    ) -> ((Expr, Ty), (Expr, Ty)) {
        let swap = self.undeclared(a, sc).is_some() && self.undeclared(b, sc).is_none();
        let (first, second) = if swap { (b, a) } else { (a, b) };
        let one = self.expr(first, sc);
        let two = match self.undeclared(second, sc) {
            Some(name) if one.1 == Ty::of(Base::Colour) => {
                self.unknown_colour(second.span.clone(), name);
                (Expr::Const(Value::Unit), Ty::ANY)
            }
            _ => self.expr(second, sc),
        };
        if swap {
            (two, one)
        } else {
            (one, two)
        }
    }

    /// Why a map attribute read (`square.hue`) compared with a colour is no colour: its values that
    /// name none of the chips' colours.
    fn attribute_not_colour(&self, e: &ast::Expr) -> Option<String> {
        let ExprKind::Field(_, attr) = &e.kind else {
            return None;
        };
        let Some(super::MapKnowledge::Known { not_colours, .. }) = &self.map else {
            return None;
        };
        let strays = not_colours.get(&attr.name).filter(|s| !s.is_empty())?;
        let colours = &self.prog.colours;
        let named: Vec<String> = strays
            .iter()
            .map(
                |s| match did_you_mean(s, colours.iter().map(|c| c.as_str())) {
                    Some(c) => format!("`{s}` (did you mean `{c}`?)"),
                    None => format!("`{s}`"),
                },
            )
            .collect();
        let list: Vec<String> = colours.iter().map(|c| format!("`{c}`")).collect();
        Some(format!(
            "the map's `{}` reads as a string, not a colour: {} {} no colour of the chips ({})",
            attr.name,
            named.join(", "),
            if named.len() == 1 { "names" } else { "name" },
            if list.is_empty() {
                "none declared".to_string()
            } else {
                list.join(", ")
            }
        ))
    }

    /// The name `e` is, when no local or global declares it.
    fn undeclared<'e>(&self, e: &'e ast::Expr, sc: &Scope) -> Option<&'e str> {
        match &e.kind {
            ExprKind::Name(n) if sc.get(n).is_none() && !self.globals.contains_key(n) => Some(n),
            _ => None,
        }
    }

    /// A name compared with a colour that is not a colour of the variant: the colours it declares.
    fn unknown_colour(&mut self, span: ast::Span, name: &str) {
        let colours = &self.prog.colours;
        let mut d = Diagnostic::error(
            Code::UnknownColour,
            span,
            format!("unknown colour `{name}`"),
        )
        .with_label("not a colour of this variant");
        if let Some(s) = did_you_mean(name, colours.iter().map(|c| c.as_str())) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        d = if colours.is_empty() {
            d.with_note(
                "the variant declares no chip colours (`chips { COLOUR VALUE x COUNT, … }`)",
            )
        } else {
            let list: Vec<String> = colours.iter().map(|c| format!("`{c}`")).collect();
            d.with_note(format!("its chip colours are {}", list.join(", ")))
        };
        self.err(d);
    }

    /// The element type of a list type (reported when `t` is not a list).
    pub(super) fn elem_of(&mut self, t: Ty, span: ast::Span) -> Ty {
        match t.elem() {
            Some(e) => e,
            None => {
                self.err(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        span,
                        format!("expected a list, found {t}"),
                    )
                    .with_label("not a list")
                    .with_note(
                        "lists come from queries like `squares()`, `[a, b]` or ranges `1..4`",
                    ),
                );
                Ty::ANY
            }
        }
    }
}
