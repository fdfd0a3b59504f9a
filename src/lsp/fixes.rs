//! Code actions: the fixes the diagnostics suggest (each "did you mean `x`?"), and for a rule or
//! action already defined in an imported file, `replace`, `change` or `remove` it.

use super::analysis::Analysis;
use crate::diag::{Code, Diagnostic};
use crate::lang::ast::ItemKind;
use std::ops::Range;

/// A fix: its title and its edits to the document (span, new text).
pub struct Fix {
    pub title: String,
    pub edits: Vec<(Range<usize>, String)>,
    /// The diagnostic it fixes.
    pub diagnostic: Diagnostic,
}

/// The fixes for the document's diagnostics that touch `span`.
pub fn fixes(a: &Analysis, path: &str, span: &Range<usize>) -> Vec<Fix> {
    let mut out = Vec::new();
    for (file, d) in &a.diagnostics {
        let touches = d.span.start <= span.end && span.start <= d.span.end;
        if file != path || !touches {
            continue;
        }
        for note in &d.notes {
            if let Some(s) = suggested(note) {
                out.push(Fix {
                    title: format!("Change to `{s}`"),
                    edits: vec![(d.span.clone(), s.to_string())],
                    diagnostic: d.clone(),
                });
            }
        }
        if d.code == Code::DefinedTwice && d.message.contains("imported file") {
            out.extend(house_rules(a, d));
        }
    }
    out
}

/// The name a "did you mean `x`?" note suggests.
fn suggested(note: &str) -> Option<&str> {
    let rest = &note[note.find("did you mean `")? + "did you mean `".len()..];
    let s = &rest[..rest.find('`')?];
    (!s.is_empty()).then_some(s)
}

/// `replace`, `change` and `remove` for a definition whose name an imported file defines.
fn house_rules(a: &Analysis, d: &Diagnostic) -> Vec<Fix> {
    let Some(item) = a.files.first().and_then(|f| {
        f.ast
            .items
            .iter()
            .find(|i| i.span.start <= d.span.start && d.span.end <= i.span.end)
    }) else {
        return Vec::new();
    };
    let (word, name, head_end) = match &item.kind {
        ItemKind::Rule { name, trigger, .. } => ("rule", &name.name, trigger.span.end),
        ItemKind::Action(act) if act.params.is_none() => {
            ("action", &act.name.name, act.name.span.end)
        }
        _ => return Vec::new(),
    };
    let start = item.span.start;
    let fix = |title: String, edits| Fix {
        title,
        edits,
        diagnostic: d.clone(),
    };
    vec![
        fix(
            format!("Replace the imported {word} `{name}` with this one (`replace`)"),
            vec![(start..start, "replace ".to_string())],
        ),
        fix(
            format!("Change only the parts written here (`change {word} {name}`)"),
            vec![(start..head_end, format!("change {word} {name}"))],
        ),
        fix(
            format!("Remove the imported {word} `{name}` instead (`remove`)"),
            vec![(item.span.clone(), format!("remove {word} {name}"))],
        ),
    ]
}
