//! Completion: what may be written at the cursor, by what stands before it: fields and map
//! attributes after `.`, triggers after `on`, phases after `phase`, bundled rules in an `import`,
//! and elsewhere the names in scope (the variant's parameters, holding areas and chip colours, the
//! item's locals, what triggers bind), keywords, builtins and aggregates.

use super::analysis::Analysis;
use super::words::KEYWORDS;
use crate::lang::builtins::{Builtin, Trigger, FIELDS, PHASES};
use crate::lang::symbols::SymKind;
use lsp_types::{CompletionItem, CompletionItemKind};

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: (!detail.is_empty()).then(|| detail.to_string()),
        ..CompletionItem::default()
    }
}

/// The completions at byte `at` of `text`; `typed` is the character whose typing asked for them
/// (a trigger character: after a space only triggers and phases are offered, after a `"` only the
/// bundled rules of an `import`, so typing a sentence brings no list at each space).
pub fn complete(a: &Analysis, text: &str, at: usize, typed: Option<&str>) -> Vec<CompletionItem> {
    let at = at.min(text.len());
    let word = text[..at]
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let before = &text[..at - word];
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let import = line.trim_start().starts_with("import") && line.matches('"').count() == 1;
    if typed == Some("\"") && !import {
        return Vec::new();
    }
    if import {
        return crate::lang::check::BUNDLED_RULES
            .iter()
            .map(|(n, _)| item(n, CompletionItemKind::MODULE, "bundled rules"))
            .collect();
    }
    if before.ends_with('.') && !before.ends_with("..") {
        return fields(a);
    }
    let prev = before
        .trim_end()
        .rsplit(|c: char| c.is_whitespace())
        .next()
        .unwrap_or("");
    match prev {
        "on" => {
            return Trigger::ALL
                .iter()
                .map(|t| item(t.name(), CompletionItemKind::EVENT, t.phrase()))
                .collect()
        }
        "phase" => {
            return PHASES
                .iter()
                .map(|(p, _)| item(p, CompletionItemKind::ENUM_MEMBER, "phase"))
                .collect()
        }
        _ if typed == Some(" ") => return Vec::new(),
        _ => {}
    }
    names(a, at)
}

/// Every field of the language and the map's attributes.
fn fields(a: &Analysis) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = Vec::new();
    for (owner, name, _, ty, doc) in FIELDS {
        if let Some(prev) = out.iter_mut().find(|i| i.label == *name) {
            let d = prev.detail.get_or_insert_with(String::new);
            d.push_str(&format!(", {}.{name}", owner.name()));
            continue;
        }
        let mut i = item(
            name,
            CompletionItemKind::FIELD,
            &format!("{}.{name}: {ty}", owner.name()),
        );
        i.documentation = Some(lsp_types::Documentation::String(doc.to_string()));
        out.push(i);
    }
    for (name, ty) in &a.attrs {
        if !out.iter().any(|i| i.label == *name) {
            out.push(item(
                name,
                CompletionItemKind::PROPERTY,
                &format!("map attribute: {ty}"),
            ));
        }
    }
    out
}

/// Names in scope, keywords, builtins.
fn names(a: &Analysis, at: usize) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = Vec::new();
    let push = |i: CompletionItem, out: &mut Vec<CompletionItem>| {
        if !out.iter().any(|o| o.label == i.label) {
            out.push(i);
        }
    };
    if let Some(doc) = a.files.first() {
        // The locals bound earlier in the item the cursor is in.
        let item_span = doc
            .ast
            .items
            .iter()
            .find(|i| i.span.start <= at && at <= i.span.end);
        for d in &doc.symbols.defs {
            let inside =
                item_span.is_some_and(|i| i.span.start <= d.span.start && d.span.end <= at);
            if d.kind == SymKind::Local && inside {
                push(
                    item(&d.name, CompletionItemKind::VARIABLE, "local"),
                    &mut out,
                );
            }
        }
    }
    for f in &a.files {
        for d in f.symbols.defs.iter().filter(|d| d.kind.global()) {
            let kind = match d.kind {
                SymKind::Param => CompletionItemKind::CONSTANT,
                SymKind::Colour => CompletionItemKind::ENUM_MEMBER,
                _ => CompletionItemKind::STRUCT,
            };
            push(
                item(&d.name, kind, &format!("{} ({})", d.kind.word(), f.name)),
                &mut out,
            );
        }
    }
    for t in Trigger::ALL {
        for (n, b) in t.binds() {
            let ty = crate::lang::builtins::Ty::from(*b);
            push(
                item(
                    n,
                    CompletionItemKind::VARIABLE,
                    &format!("{n}: {ty} (bound by the trigger)"),
                ),
                &mut out,
            );
        }
    }
    // Only what a rules file calls by name (a kept state's reads are written as its name).
    for b in Builtin::all().filter(|b| b.written()) {
        let i = b.info();
        let mut c = item(i.name, CompletionItemKind::FUNCTION, &b.signature());
        c.documentation = Some(lsp_types::Documentation::String(i.doc.to_string()));
        push(c, &mut out);
    }
    for agg in [
        "count", "sum", "any", "all", "min", "max", "distinct", "sort",
    ] {
        push(
            item(
                agg,
                CompletionItemKind::FUNCTION,
                &format!("{agg}(x in LIST where C: VALUE)"),
            ),
            &mut out,
        );
    }
    for (k, doc) in KEYWORDS {
        push(item(k, CompletionItemKind::KEYWORD, doc), &mut out);
    }
    out
}
