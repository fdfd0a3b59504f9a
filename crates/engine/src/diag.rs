//! Diagnostics for people: every problem in a user's file carries a byte span, and is rendered with
//! `file:line:col`, the source line, a caret and a hint (codespan-reporting, no colour).

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::termcolor::{Ansi, NoColor, WriteColor};
use codespan_reporting::term::{self, Config};

/// Whether diagnostics are rendered in colour (off unless the command line turns it on).
static COLOUR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Turns colour on or off for every diagnostic rendered after (`--color`, `NO_COLOR`).
pub fn set_colour(on: bool) {
    COLOUR.store(on, std::sync::atomic::Ordering::Relaxed);
}
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem in one source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Byte range in the source text.
    pub span: Range<usize>,
    /// What is wrong, one line.
    pub message: String,
    /// Text shown under the caret (what was expected there).
    pub label: String,
    /// Extra lines: hints such as "did you mean `city`?".
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
            label: String::new(),
            notes: Vec::new(),
        }
    }
    pub fn warning(span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A source file as the user named it, with its text.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Source {
            name: name.into(),
            text: text.into(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(&self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// Renders diagnostics (in the order given) as text: plain, or with the terminal's colours when
    /// [`set_colour`] turned them on.
    pub fn render(&self, diags: &[Diagnostic]) -> String {
        if COLOUR.load(std::sync::atomic::Ordering::Relaxed) {
            let mut out = Ansi::new(Vec::new());
            self.render_into(diags, &mut out);
            String::from_utf8_lossy(&out.into_inner()).into_owned()
        } else {
            let mut out = NoColor::new(Vec::new());
            self.render_into(diags, &mut out);
            String::from_utf8_lossy(&out.into_inner()).into_owned()
        }
    }

    fn render_into(&self, diags: &[Diagnostic], out: &mut dyn WriteColor) {
        let mut files = SimpleFiles::new();
        let id = files.add(self.name.clone(), self.text.clone());
        let config = Config::default();
        for d in diags {
            let start = floor_char_boundary(&self.text, d.span.start);
            let end = floor_char_boundary(&self.text, d.span.end.max(d.span.start));
            let cs = match d.severity {
                Severity::Error => CsDiagnostic::error(),
                Severity::Warning => CsDiagnostic::warning(),
            }
            .with_message(&d.message)
            .with_labels(vec![Label::primary(id, start..end).with_message(&d.label)])
            .with_notes(d.notes.clone());
            // Writing into a Vec cannot fail; a failure here would only lose text.
            let _ = term::emit(out, &config, &files, &cs);
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The closest of `candidates` to `name`, if it is close enough to be a likely typo: about one edit
/// in three letters (`scoring` for `score`), and only one in a name of four letters or fewer (`blue`
/// is two from `true`: another word, not a typo).
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(name, c);
        let len = name.chars().count().max(c.chars().count());
        let limit = if len <= 4 { 1 } else { len.div_ceil(3) };
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Edit distance where swapping two neighbouring letters counts as one edit (optimal string
/// alignment), so the likeliest typo ranks first: `titel` is 1 from `title`, 2 from `tiles`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let s = Source::new("f", "ab\ncdé f\n");
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(3), (2, 1));
        assert_eq!(s.line_col(8), (2, 5));
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("ctiy", ["city", "road", "field"]),
            Some("city")
        );
        assert_eq!(did_you_mean("zzzzzz", ["city", "road"]), None);
        // A swap of two neighbouring letters is one edit: `titel` is nearer `title` than `tiles`.
        let keys = ["title", "doc", "map", "tiles", "players"];
        assert_eq!(did_you_mean("titel", keys), Some("title"));
        assert_eq!(did_you_mean("tiels", keys), Some("tiles"));
        assert_eq!(did_you_mean("raod", ["road", "river"]), Some("road"));
        // Two edits in four letters is another word, not a typo.
        assert_eq!(did_you_mean("blue", ["true", "false"]), None);
        assert_eq!(did_you_mean("tabel", ["table", "tile"]), Some("table"));
        assert_eq!(did_you_mean("scoring", ["score", "start"]), Some("score"));
    }

    #[test]
    fn renders_file_line_col_and_caret() {
        let s = Source::new("x.rules", "let a = 1\nlet b = c\n");
        let out = s.render(&[Diagnostic::error(18..19, "unknown name `c`")
            .with_label("not defined")
            .with_note("did you mean `a`?")]);
        assert!(out.contains("x.rules:2:9"), "{out}");
        assert!(out.contains('^'), "{out}");
    }
}
