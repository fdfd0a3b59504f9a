//! Parameters: their declarations (type, constant default, `one of` list), `override`s of an imported
//! file's defaults, and the warning for a parameter nothing reads.

use super::{Checker, Global};
use crate::ast::{self, ExprKind, ItemKind};
use crate::builtins::{Base, Ty};
use crate::consts::const_value;
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir::{self, Value};

impl Checker {
    /// Declares the parameters of every file, in load order.
    pub(super) fn declare_params(&mut self, order: &[usize], asts: &[ast::File]) {
        for &f in order {
            self.file = f;
            for item in &asts[f].items {
                if let ItemKind::Param(p) = &item.kind {
                    self.declare_param(p);
                }
            }
        }
    }

    /// Applies every `override`, in load order (the importing file's last).
    pub(super) fn apply_overrides(&mut self, order: &[usize], asts: &[ast::File]) {
        let mut gives: std::collections::BTreeMap<String, Vec<super::conflicts::Given>> =
            Default::default();
        for &f in order {
            self.file = f;
            for item in &asts[f].items {
                if let ItemKind::Override { name, value } = &item.kind {
                    self.override_param(name, value);
                    let text = self.files[f]
                        .text
                        .get(value.span.clone())
                        .map(str::to_string);
                    gives
                        .entry(name.name.clone())
                        .or_default()
                        .push((f, item.span.clone(), text));
                }
            }
        }
        for (name, of) in gives {
            let settle = format!("`override {name} = …` in this file");
            let what = format!("the default of parameter `{name}` is overridden");
            self.report_conflict(Code::GivenTwice, &what, &of, &settle);
        }
    }

    /// Warns of parameters nothing reads (not in a file with errors: those are often the cause), in
    /// the file checked only: an imported file's parameter may well go unread by one importer (a
    /// header that sets `followers = 3` leaves base's `followers` unread), and its author is not here.
    pub(super) fn warn_unused_params(&mut self) {
        for (i, used) in self.param_used.clone().into_iter().enumerate() {
            if used {
                continue;
            }
            let (Some(p), Some(&f)) = (self.prog.params.get(i), self.param_file.get(i)) else {
                continue;
            };
            if f != 0 || self.diags.iter().any(|(df, d)| *df == f && d.is_error()) {
                continue;
            }
            let span = p.origin.span.clone();
            let name = p.name.clone();
            self.file = f;
            self.err(
                Diagnostic::warning(
                    Code::UnusedParameter,
                    span,
                    format!("parameter `{name}` is never used"),
                )
                .with_label("declared here")
                .with_note("remove it, or use it in a rule or the header"),
            );
        }
    }

    /// Warns at a `remove` in the file checked that leaves an imported parameter unread: the removed
    /// rule or action read it, and nothing in force does now, so setting it changes nothing.
    pub(super) fn warn_params_left_unread(&mut self, asts: &[ast::File]) {
        let Some(checked) = asts.first() else {
            return;
        };
        if self.diags.iter().any(|(df, d)| *df == 0 && d.is_error()) {
            return;
        }
        for (i, used) in self.param_used.clone().into_iter().enumerate() {
            let (Some(p), Some(&f)) = (self.prog.params.get(i), self.param_file.get(i)) else {
                continue;
            };
            if used || f == 0 {
                continue;
            }
            let name = p.name.clone();
            for item in &checked.items {
                let ItemKind::Remove {
                    what,
                    name: removed,
                } = &item.kind
                else {
                    continue;
                };
                let read = asts.iter().enumerate().skip(1).any(|(k, file)| {
                    file.items.iter().any(|it| {
                        it.kind
                            .definition()
                            .is_some_and(|(w, n)| w == *what && n.name == removed.name)
                            && self
                                .files
                                .get(k)
                                .and_then(|s| s.text.get(it.span.clone()))
                                .is_some_and(|text| mentions(text, &name))
                    })
                });
                if read {
                    self.file = 0;
                    self.err(
                        Diagnostic::warning(
                            Code::UnusedParameter,
                            item.span.clone(),
                            format!("after this `remove`, nothing reads parameter `{name}`"),
                        )
                        .with_label(format!("`{}` read `{name}`", removed.name))
                        .with_note(format!(
                            "setting `{name}` (`--set`, `override`) no longer changes the game"
                        )),
                    );
                    break;
                }
            }
        }
    }

    pub(super) fn resolve_type(&mut self, t: &ast::TypeExpr) -> Option<Ty> {
        match t {
            ast::TypeExpr::Named(id) => match Base::from_name(&id.name) {
                Some(b) => Some(Ty::of(b)),
                None => {
                    let mut d = Diagnostic::error(
                        Code::UnknownType,
                        id.span.clone(),
                        format!("unknown type `{}`", id.name),
                    )
                    .with_label("not a type");
                    if let Some(s) = did_you_mean(&id.name, Base::NAMED.iter().map(|(n, _)| *n)) {
                        d = d.with_note(format!("did you mean `{s}`?"));
                    }
                    let all: Vec<&str> = Base::NAMED.iter().map(|(n, _)| *n).collect();
                    d = d.with_note(format!("the types are: {}, and `list<T>`", all.join(", ")));
                    self.err(d);
                    None
                }
            },
            ast::TypeExpr::List(inner, span) => {
                if matches!(**inner, ast::TypeExpr::List(..)) {
                    self.err(
                        Diagnostic::error(
                            Code::NestedList,
                            span.clone(),
                            "lists of lists are not supported",
                        )
                        .with_label("nested list type"),
                    );
                    return None;
                }
                self.resolve_type(inner).map(|t| Ty::list(t.base))
            }
        }
    }

    /// Declares one parameter: its type, that its name is new, its default, `one of` list and
    /// range, each checked.
    fn declare_param(&mut self, p: &ast::ParamDecl) {
        let Some(ty) = self.param_type(p) else {
            return;
        };
        if self.param_defined_before(p) {
            return;
        }
        let default = match const_value(&mut self.prog, &p.default, ty) {
            Ok(v) => v,
            Err(d) => {
                self.err(d);
                Value::Unit
            }
        };
        let one_of = self.param_one_of(p, ty, default);
        let id = self.prog.params.len() as u16;
        let range = self.declared_range(p, ty, id, default);
        if let Some(r) = &range {
            self.default_in_range(p, r, default);
        }
        if !self.declare(&p.name, Global::Param(id)) {
            return;
        }
        self.prog.params.push(ir::ParamDef {
            name: p.name.name.clone(),
            ty,
            default,
            value: default,
            doc: p.doc.as_ref().map(|d| d.value.clone()).unwrap_or_default(),
            one_of,
            range,
            origin: ir::Origin {
                file: self.file as u16,
                span: p.name.span.clone(),
            },
        });
        self.param_file.push(self.file);
        self.param_used.push(false);
    }

    /// The parameter's type, when it is one a parameter can have.
    fn param_type(&mut self, p: &ast::ParamDecl) -> Option<Ty> {
        const PARAM_BASES: [Base; 7] = [
            Base::Int,
            Base::Bool,
            Base::Str,
            Base::Colour,
            Base::Kind,
            Base::Face,
            Base::Table,
        ];
        let ty = self.resolve_type(&p.ty)?;
        if ty.list || !PARAM_BASES.contains(&ty.base) {
            self.err(
                Diagnostic::error(
                    Code::ParameterType,
                    p.ty.span(),
                    format!("a parameter cannot be of type {ty}"),
                )
                .with_label("not a parameter type")
                .with_note("parameters are int, bool, string, colour, kind, face or table"),
            );
            return None;
        }
        Some(ty)
    }

    /// Whether a parameter of this name is already declared (reported; an imported one gets the
    /// hint to `override` its default).
    fn param_defined_before(&mut self, p: &ast::ParamDecl) -> bool {
        let Some(Global::Param(i)) = self.globals.get(&p.name.name).copied() else {
            return false;
        };
        let imported = self.param_file.get(i as usize).copied() != Some(self.file);
        let mut d = Diagnostic::error(
            Code::DefinedTwice,
            p.name.span.clone(),
            format!("parameter `{}` is already defined", p.name.name),
        )
        .with_label(if imported {
            "defined in an imported file"
        } else {
            "defined above"
        });
        if imported {
            d = d.with_note(format!(
                "to change its default, write `override {} = …`",
                p.name.name
            ));
        }
        self.err(d);
        true
    }

    /// The `one of` list's values; the default must be one of them.
    fn param_one_of(&mut self, p: &ast::ParamDecl, ty: Ty, default: Value) -> Vec<Value> {
        let mut one_of = Vec::new();
        let Some(list) = &p.one_of else {
            return one_of;
        };
        if let ExprKind::List(items) = &list.kind {
            for it in items {
                match const_value(&mut self.prog, it, ty) {
                    Ok(v) => one_of.push(v),
                    Err(d) => self.err(d),
                }
            }
        }
        if default != Value::Unit && !one_of.is_empty() && !one_of.contains(&default) {
            self.err(
                Diagnostic::error(
                    Code::ValueNotAllowed,
                    p.default.span.clone(),
                    "the default is not one of the allowed values",
                )
                .with_label("not in the `one of` list"),
            );
        }
        one_of
    }

    /// The values the parameter may take: its `in` (an int's range may read parameters declared
    /// anywhere, so it is resolved once all are declared and `None` here), or for a table declared
    /// without `in` the keys of its default (a `--set` table that lacks one is refused before play,
    /// not when a game first needs it).
    fn declared_range(
        &mut self,
        p: &ast::ParamDecl,
        ty: Ty,
        id: u16,
        default: Value,
    ) -> Option<ir::ParamRange> {
        let int_range = ty.base == Base::Int && p.range.is_some();
        if let (true, Some(r)) = (int_range, &p.range) {
            self.int_ranges
                .push((id, r.clone(), self.file, p.default.span.clone()));
        }
        let range = p
            .range
            .as_ref()
            .filter(|_| !int_range)
            .and_then(|r| self.param_range(r, ty));
        if let (None, None, Value::Table(t)) = (&range, &p.range, default) {
            let keys = self
                .prog
                .tables
                .get(t as usize)
                .map(|rows| rows.iter().map(|(k, _)| *k).collect());
            return keys.map(ir::ParamRange::Keys);
        }
        range
    }

    /// The default must be allowed by the parameter's own range.
    fn default_in_range(&mut self, p: &ast::ParamDecl, r: &ir::ParamRange, default: Value) {
        if let Some(why) = r.refuses(default, &self.prog) {
            self.err(
                Diagnostic::error(
                    Code::ValueNotAllowed,
                    p.default.span.clone(),
                    format!("the default of `{}` is not allowed: it {why}", p.name.name),
                )
                .with_label("the default")
                .with_note(format!(
                    "`{}` is declared `in {}`",
                    p.name.name,
                    r.text()
                )),
            );
        }
    }

    /// Reports an int's `in` that is not `LO..HI`.
    pub(super) fn param_range_shape(&mut self, e: &ast::Expr) {
        let _ = self.param_range(e, Ty::INT);
    }

    /// The keys (`in 1..4`, `in [1, 2]`) a table must have.
    fn param_range(&mut self, e: &ast::Expr, ty: Ty) -> Option<ir::ParamRange> {
        let int = |this: &mut Self, x: &ast::Expr| match const_value(&mut this.prog, x, Ty::INT) {
            Ok(Value::Int(i)) => Some(i),
            Ok(_) => None,
            Err(d) => {
                this.err(d);
                None
            }
        };
        let range = match (&e.kind, ty.base) {
            (ExprKind::Range(a, b), Base::Table) => {
                let (a, b) = (int(self, a)?, int(self, b)?);
                if b.saturating_sub(a) > 1000 {
                    self.err(
                        Diagnostic::error(Code::TooMany, e.span.clone(), "at most 1000 keys")
                            .with_label("too many keys"),
                    );
                    return None;
                }
                ir::ParamRange::Keys((a..=b).collect())
            }
            (ExprKind::List(items), Base::Table) => {
                let mut keys = Vec::new();
                for it in items {
                    keys.push(int(self, it)?);
                }
                ir::ParamRange::Keys(keys)
            }
            _ => {
                self.err(
                    Diagnostic::error(Code::ParameterType, e.span.clone(), format!("a parameter of type {ty} takes no `in`"))
                        .with_label("not allowed here")
                        .with_note("an int takes `in LO..HI`; a table takes the keys it must have: `in 1..4` or `in [1, 2, 4]`; other types take `one of [...]`"),
                );
                return None;
            }
        };
        Some(range)
    }

    fn override_param(&mut self, name: &ast::Ident, value: &ast::Expr) {
        let Some(Global::Param(i)) = self.globals.get(&name.name).copied() else {
            let params: Vec<String> = self.prog.params.iter().map(|p| p.name.clone()).collect();
            let mut d = Diagnostic::error(
                Code::UnknownParameter,
                name.span.clone(),
                format!("`override` of unknown parameter `{}`", name.name),
            )
            .with_label("no parameter has this name");
            if let Some(s) = did_you_mean(&name.name, params.iter().map(|s| s.as_str())) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            self.err(d);
            return;
        };
        let Some(ty) = self.prog.params.get(i as usize).map(|p| p.ty) else {
            return;
        };
        match const_value(&mut self.prog, value, ty) {
            Ok(v) => {
                let p = &mut self.prog.params[i as usize];
                if !p.one_of.is_empty() && !p.one_of.contains(&v) {
                    self.err(
                        Diagnostic::error(
                            Code::ValueNotAllowed,
                            value.span.clone(),
                            "not one of the allowed values",
                        )
                        .with_label("not allowed"),
                    );
                    return;
                }
                // A constant range refuses at once (the value is not set); one that reads other
                // parameters is checked once every override is applied (`check_param_ranges`).
                let p = &self.prog.params[i as usize];
                let constant = p.range.as_ref().filter(|r| !r.reads_params());
                if let Some(why) = constant.and_then(|r| r.refuses(v, &self.prog)) {
                    let r = constant.map(|r| r.text()).unwrap_or_default();
                    self.err(
                        Diagnostic::error(
                            Code::ValueNotAllowed,
                            value.span.clone(),
                            format!("`{}` {why}", name.name),
                        )
                        .with_label("outside the parameter's range")
                        .with_note(format!("`{}` takes values in {r}", name.name)),
                    );
                    return;
                }
                let p = &mut self.prog.params[i as usize];
                p.default = v;
                p.value = v;
                self.overridden
                    .insert(i, (self.file, name.name.clone(), value.span.clone()));
            }
            Err(d) => self.err(d),
        }
    }

    // ------------------------------------------------------------ rules and actions
}

/// Whether `text` has `name` as a whole word.
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name)
        .any(|(at, _)| !text[..at].ends_with(word) && !text[at + name.len()..].starts_with(word))
}
