//! The ranges of int parameters (`param x: int in LO..HI`): each bound is made of numbers and
//! parameters (`0..max_x`, `1..(n + 1)`), resolved once every parameter is declared, so a bound may
//! name a parameter declared anywhere. A range that depends on itself (`x in 0..y`, `y in 0..x`) is an
//! error, and so is a bound read from anything else (a builtin, a map attribute). Defaults and
//! `override`s are checked once every override is applied; `--set` and a script's `set` are checked
//! by [`crate::ir::Program::check_ranges`] once every value is set.

use super::{Checker, Scope};
use crate::ast::{self, ExprKind};
use crate::builtins::Ty;
use crate::consts::mismatch;
use crate::diag::{Code, Diagnostic};
use crate::ir::{self, Expr};
use std::collections::BTreeMap;

/// The parameters an expression reads.
fn params_read(e: &Expr, out: &mut Vec<u16>) {
    match e {
        Expr::Param(p) => out.push(*p),
        Expr::Neg(x, _) => params_read(x, out),
        Expr::Binary(_, a, b, _) => {
            params_read(a, out);
            params_read(b, out);
        }
        _ => {}
    }
}

/// A chain of ranges from `start` back to itself, if there is one (`[start, …, start]`).
fn cycle(start: u16, reads: &BTreeMap<u16, Vec<u16>>) -> Option<Vec<u16>> {
    let mut path = vec![start];
    let mut seen = vec![start];
    fn walk(
        at: u16,
        start: u16,
        reads: &BTreeMap<u16, Vec<u16>>,
        path: &mut Vec<u16>,
        seen: &mut Vec<u16>,
    ) -> bool {
        for &next in reads.get(&at).map_or(&[][..], |v| v.as_slice()) {
            if next == start {
                path.push(start);
                return true;
            }
            if seen.contains(&next) {
                continue;
            }
            seen.push(next);
            path.push(next);
            if walk(next, start, reads, path, seen) {
                return true;
            }
            path.pop();
        }
        false
    }
    walk(start, start, reads, &mut path, &mut seen).then_some(path)
}

impl Checker {
    /// Lowers every int parameter's range, reports ranges that depend on themselves, and ranges
    /// empty with the defaults.
    pub(super) fn resolve_int_ranges(&mut self) {
        let pending = std::mem::take(&mut self.int_ranges);
        let mut reads: BTreeMap<u16, Vec<u16>> = BTreeMap::new();
        for (id, e, file, _) in &pending {
            self.file = *file;
            let ExprKind::Range(a, b) = &e.kind else {
                // Reports "an int takes `in LO..HI`".
                self.param_range_shape(e);
                continue;
            };
            let (Some(lo), Some(hi)) = (self.bound(a), self.bound(b)) else {
                continue;
            };
            let mut read = Vec::new();
            params_read(&lo, &mut read);
            params_read(&hi, &mut read);
            reads.insert(*id, read);
            let text = self.files[*file]
                .text
                .get(e.span.clone())
                .unwrap_or("")
                .to_string();
            if let Some(p) = self.prog.params.get_mut(*id as usize) {
                p.range = Some(ir::ParamRange::Ints(lo, hi, text));
            }
        }
        let mut reported: Vec<u16> = Vec::new();
        for (id, e, file, _) in &pending {
            self.file = *file;
            if reported.contains(id) {
                self.drop_range(*id);
                continue;
            }
            if let Some(chain) = cycle(*id, &reads) {
                reported.extend(&chain);
                let names: Vec<String> = chain
                    .iter()
                    .map(|p| format!("`{}`", self.param_name(*p)))
                    .collect();
                self.err(
                    Diagnostic::error(
                        Code::RangeCycle,
                        e.span.clone(),
                        format!("the range of `{}` depends on itself", self.param_name(*id)),
                    )
                    .with_label("a bound reads a parameter whose range reads this one")
                    .with_note(format!("the chain of ranges: {}", names.join(" -> ")))
                    .with_note("bound one of them by numbers, or by a parameter without a range"),
                );
                self.drop_range(*id);
            } else {
                self.empty_range(*id, e);
            }
        }
        self.int_ranges = pending;
    }

    /// `` `most` = 1, `n` = 3 ``: the values in force of the parameters a range reads.
    fn values_read(&self, range: &ir::ParamRange) -> Option<String> {
        let ir::ParamRange::Ints(lo, hi, _) = range else {
            return None;
        };
        let mut read = Vec::new();
        params_read(lo, &mut read);
        params_read(hi, &mut read);
        read.dedup();
        let parts: Vec<String> = read
            .iter()
            .filter_map(|p| self.prog.params.get(*p as usize))
            .map(|p| match p.value {
                ir::Value::Int(i) => format!("`{}` = {i}", p.name),
                _ => format!("`{}`", p.name),
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    fn param_name(&self, p: u16) -> String {
        self.prog
            .params
            .get(p as usize)
            .map_or(String::new(), |p| p.name.clone())
    }

    fn drop_range(&mut self, p: u16) {
        if let Some(p) = self.prog.params.get_mut(p as usize) {
            p.range = None;
        }
    }

    /// A range with no value, with the defaults: `5..2`, or `0..max_x` with `max_x` = -1.
    fn empty_range(&mut self, id: u16, e: &ast::Expr) {
        let Some(range) = self
            .prog
            .params
            .get(id as usize)
            .and_then(|p| p.range.clone())
        else {
            return;
        };
        let Some((lo, hi)) = range.bounds(&self.prog) else {
            return;
        };
        if lo > hi {
            let text = range.text();
            let with = if text == format!("{lo}..{hi}") {
                String::new()
            } else {
                format!(" with the defaults ({lo}..{hi})")
            };
            self.err(
                Diagnostic::error(
                    Code::EmptyRange,
                    e.span.clone(),
                    format!("`{text}` is empty{with}"),
                )
                .with_label("the lowest value comes first"),
            );
            self.drop_range(id);
        }
    }

    /// A bound: an int made of numbers and parameters only.
    fn bound(&mut self, x: &ast::Expr) -> Option<Expr> {
        let (e, t) = self.expr(x, &mut Scope::default());
        if !Ty::INT.accepts(t) {
            self.err(mismatch(x.span.clone(), Ty::INT, t).with_note("a range's bounds are ints"));
            return None;
        }
        if self.prog.limit_count(&e).is_none() {
            self.err(
                Diagnostic::error(
                    Code::NotConstant, x.span.clone(),
                    "a range's bound is made of numbers and parameters only",
                )
                .with_label("not a number or a parameter")
                .with_note(
                    "it is read whenever parameters are set (`--set`, a script's `set`), before play",
                ),
            );
            return None;
        }
        Some(e)
    }

    /// Every int parameter's value (its default, or its `override`) against its range, with the
    /// values in force.
    pub(super) fn check_param_ranges(&mut self) {
        let ranged: Vec<(u16, ast::Span, usize)> = self
            .int_ranges
            .iter()
            .map(|(id, _, file, default)| (*id, default.clone(), *file))
            .collect();
        for (id, default, file) in ranged {
            let Some(p) = self.prog.params.get(id as usize) else {
                continue;
            };
            let Some(range) = &p.range else {
                continue;
            };
            let Some(why) = range.refuses(p.value, &self.prog) else {
                continue;
            };
            let (name, text) = (p.name.clone(), range.text());
            let values = self.values_read(range);
            let d = match self.overridden.get(&id).cloned() {
                Some((f, _, span)) => {
                    self.file = f;
                    Diagnostic::error(Code::ValueNotAllowed, span, format!("`{name}` {why}"))
                        .with_label("outside the parameter's range")
                        .with_note(format!("`{name}` takes values in {text}"))
                }
                None => {
                    self.file = file;
                    Diagnostic::error(
                        Code::ValueNotAllowed,
                        default,
                        format!("the default of `{name}` is not allowed: it {why}"),
                    )
                    .with_label("the default")
                    .with_note(format!("`{name}` is declared `in {text}`"))
                }
            };
            let d = match values {
                Some(v) => d.with_note(format!("read with {v}")),
                None => d,
            };
            self.err(d);
        }
    }
}
