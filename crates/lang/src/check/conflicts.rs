//! Two imports that change the same thing (issue 32 B.2). A file may import several files (a map
//! variant and an expansion: two `import` lines); each file is loaded
//! once, imported files before their importer. When two of them that do not import one another
//! both give the same thing (a header key with different values, the chip set, a parameter's
//! default, or a rule or action they define, replace, change or remove), neither wins silently: the
//! last file to give it must import every earlier file that gave it (a file that builds on another
//! knows what it changes); otherwise the first file that imports both is told so at its import, and
//! it settles the matter by giving the thing itself (its own header key, `override`, `chips`, or
//! `replace`/`change`/`remove`).

use super::Checker;
use crate::ast::Span;
use crate::diag::{Code, Diagnostic};

/// One file's giving of a thing: the file, where, and (for a header key) the value's text, so that
/// two files giving the same value do not conflict.
pub(super) type Given = (usize, Span, Option<String>);

impl Checker {
    /// Whether file `a` is file `b` or imports it, directly or not.
    pub(super) fn sees(&self, a: usize, b: usize) -> bool {
        let mut stack = vec![a];
        let mut seen = vec![false; self.files.len()];
        while let Some(x) = stack.pop() {
            if x == b {
                return true;
            }
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            stack.extend(self.imports.get(x).into_iter().flatten().map(|(t, _)| *t));
        }
        false
    }

    /// Reports `what` ("header key `map` is given") when files that do not see each other give it,
    /// `gives` listing them in load order; `settle` says how the importer settles it, `code` the
    /// kind of problem (a header key or chip set given twice, a rule defined twice).
    pub(super) fn report_conflict(
        &mut self,
        code: Code,
        what: &str,
        gives: &[Given],
        settle: &str,
    ) {
        let Some((last, last_span, last_text)) = gives.last().cloned() else {
            return;
        };
        let Some((other, other_span, _)) = gives
            .iter()
            .find(|(g, _, text)| {
                !self.sees(last, *g) && (last_text.is_none() || *text != last_text)
            })
            .cloned()
        else {
            return;
        };
        // The first file (imported before importer) that imports both settles it.
        let Some(&at) = self
            .order
            .iter()
            .find(|&&f| self.sees(f, last) && self.sees(f, other))
        else {
            return;
        };
        let span = self
            .imports
            .get(at)
            .into_iter()
            .flatten()
            .find(|(t, _)| self.sees(*t, last))
            .map_or(0..0, |(_, s)| s.clone());
        let name = |f: usize| self.files.get(f).map_or(String::new(), |s| s.name.clone());
        let d = Diagnostic::error(
            code,
            span,
            format!(
                "{what} by two imports, neither importing the other: `{}` and `{}`",
                name(other),
                name(last)
            ),
        )
        .with_label(format!("imports `{}`, the second", name(last)))
        .with_note(format!("the first at {}", self.at(other, &other_span)))
        .with_note(format!("the second at {}", self.at(last, &last_span)))
        .with_note(format!(
            "neither wins silently: say which here ({settle}); grammar/DESIGN.md, \"Two imports\""
        ));
        let saved = std::mem::replace(&mut self.file, at);
        self.err(d);
        self.file = saved;
    }

    fn at(&self, file: usize, span: &Span) -> String {
        let Some(src) = self.files.get(file) else {
            return String::new();
        };
        let (line, col) = src.line_col(span.start);
        format!("{}:{line}:{col}", src.name)
    }
}
