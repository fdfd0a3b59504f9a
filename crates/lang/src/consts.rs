//! Constant folding: the value of a constant expression (a parameter's default, an `override`, a
//! table literal, a value set by name on the command line). Both the checker and
//! [`Program::set_param`] use it; it depends only on the AST and the IR, so neither depends on the other.

use super::ast::{self, ExprKind, UnOp};
use super::builtins::{Base, Ty};
use super::ir::{Face, Program, Value};
use super::parser::parse_expr_text;
use crate::diag::{Code, Diagnostic};
use crate::geometry::FeatureKind;

/// The error for a value of the wrong type: "expected WANT, found FOUND".
pub(crate) fn mismatch(span: ast::Span, want: Ty, found: Ty) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        span,
        format!("expected {want}, found {found}"),
    )
    .with_label(format!("this is {found}"))
}

/// Evaluates a constant (a parameter's default or a value set by name) to a value of type `ty`.
pub(crate) fn const_value(prog: &mut Program, e: &ast::Expr, ty: Ty) -> Result<Value, Diagnostic> {
    let (v, found) = match &e.kind {
        ExprKind::Int(i) => (Value::Int(*i), Ty::INT),
        ExprKind::Unary(UnOp::Neg, x) => match x.kind {
            ExprKind::Int(i) => (Value::Int(-i), Ty::INT),
            _ => return Err(not_const(e)),
        },
        ExprKind::Bool(b) => (Value::Bool(*b), Ty::BOOL),
        ExprKind::Str(s) => (Value::Str(prog.intern(s)), Ty::STR),
        ExprKind::Name(n) => {
            if let Some(i) = prog.colours.iter().position(|c| c == n) {
                (Value::Colour(i as u8), Ty::of(Base::Colour))
            } else if let Some(k) = FeatureKind::from_name(n) {
                (Value::Kind(k), Ty::of(Base::Kind))
            } else if n == "up" || n == "down" {
                (
                    Value::Face(if n == "up" { Face::Up } else { Face::Down }),
                    Ty::of(Base::Face),
                )
            } else {
                return Err(Diagnostic::error(
                    Code::UnknownName,
                    e.span.clone(),
                    format!("unknown name `{n}`"),
                )
                .with_label("not a colour, kind or face"));
            }
        }
        ExprKind::Table(entries) => {
            let mut t = Vec::new();
            for (ke, v) in entries {
                let k = const_value(prog, ke, Ty::INT)?;
                let v = const_value(prog, v, Ty::INT)?;
                if let (Value::Int(k), Value::Int(v)) = (k, v) {
                    if t.iter().any(|(x, _)| *x == k) {
                        return Err(Diagnostic::error(
                            Code::GivenTwice,
                            ke.span.clone(),
                            format!("key {k} is given twice in this table"),
                        )
                        .with_label("a second value for this key")
                        .with_note("a table gives each key one value"));
                    }
                    t.push((k, v));
                }
            }
            prog.tables.push(t);
            (
                Value::Table((prog.tables.len() - 1) as u32),
                Ty::of(Base::Table),
            )
        }
        ExprKind::Range(a, b) => {
            let a = const_value(prog, a, Ty::INT)?;
            let b = const_value(prog, b, Ty::INT)?;
            match (a, b) {
                (Value::Int(a), Value::Int(b)) => (Value::Range(a, b), Ty::of(Base::Range)),
                _ => return Err(not_const(e)),
            }
        }
        _ => return Err(not_const(e)),
    };
    if found != ty && !ty.is_any() {
        return Err(mismatch(e.span.clone(), ty, found));
    }
    Ok(v)
}

fn not_const(e: &ast::Expr) -> Diagnostic {
    Diagnostic::error(
        Code::NotConstant,
        e.span.clone(),
        "a parameter's value must be a constant",
    )
    .with_label("not a constant")
    .with_note(
        "use a number, `true`/`false`, a string, a colour, a kind, a face or a table `{1: 2}`",
    )
}

impl Program {
    /// Sets a parameter by name from text (as on a command line), before play.
    pub fn set_param(&mut self, name: &str, text: &str) -> Result<(), String> {
        let Some(id) = self.param_index(name) else {
            let names: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
            let hint = crate::diag::did_you_mean(name, names.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_else(|| match names.is_empty() {
                    true => "; these rules have no parameters".into(),
                    false => format!("; the parameters are: {}", names.join(", ")),
                });
            if name.trim().is_empty() {
                return Err(format!("the parameter's name is missing before `=`{hint}"));
            }
            return Err(format!("unknown parameter `{name}`{hint}"));
        };
        let ty = self.params[id as usize].ty;
        let value = if ty.base == Base::Str && !text.trim_start().starts_with('"') {
            Value::Str(self.intern(text))
        } else {
            let not_a_value =
                |why: String| format!("`{}` is not a value of type {ty}: {why}", text.trim());
            let expr = parse_expr_text(text).map_err(|d| not_a_value(d.message))?;
            const_value(self, &expr, ty).map_err(|d| not_a_value(d.message))?
        };
        let p = &self.params[id as usize];
        if !p.one_of.is_empty() && !p.one_of.contains(&value) {
            return Err(format!(
                "`{text}` is not one of the allowed values of `{name}`"
            ));
        }
        // A range that reads other parameters is checked once all are set (`check_ranges`).
        if let Some(why) = p
            .range
            .as_ref()
            .filter(|r| !r.reads_params())
            .and_then(|r| r.refuses(value, self))
        {
            return Err(format!("`{name}` {why}"));
        }
        self.params[id as usize].value = value;
        Ok(())
    }

    /// The first parameter whose value in force its range refuses (a range may read other
    /// parameters: `in 0..max_x`), and why.
    pub fn check_ranges(&self) -> Option<(usize, String)> {
        self.params.iter().enumerate().find_map(|(i, p)| {
            let why = p.range.as_ref()?.refuses(p.value, self)?;
            Some((i, format!("`{}` {why}", p.name)))
        })
    }
}
