//! Hover: what the name or word under the cursor is. A parameter shows its declaration and the
//! value in force; a rule or action its declaration, the comment above it and its sentence from the
//! documentation page (`carto doc`); an import what the file declares; a builtin, field or trigger
//! its row of the language's tables; a map attribute its type on the variant's map.

use super::analysis::{Analysis, FileInfo};
use super::words::{self, Role};
use crate::lang::ast::ItemKind;
use crate::lang::symbols::SymKind;
use std::ops::Range;

/// The hover at byte `at` of the document at `path` (its text `text`): Markdown and the span it
/// is about.
pub fn hover(a: &Analysis, path: &str, text: &str, at: usize) -> Option<(String, Range<usize>)> {
    if let Some((name, span)) = a
        .files
        .first()?
        .symbols
        .imports
        .iter()
        .find(|(_, s)| s.start <= at && at <= s.end)
    {
        return Some((import(a, path, name)?, span.clone()));
    }
    if let Some(f) = a.found(at) {
        if let Some(md) = name_hover(a, path, text, f.kind, f.name, f.local.as_ref()) {
            return Some((md, f.span));
        }
    }
    let (word, span, role) = word_at(text, at)?;
    if role == Role::Field {
        if let Some((_, ty)) = a.attrs.iter().find(|(n, _)| n == word) {
            return Some((
                format!("```carto\nsquare.{word}: {ty}\n```\nan attribute of the map's squares"),
                span,
            ));
        }
    }
    Some((words::hover(word, role)?, span))
}

/// The word of `text` around byte `at`, its span, and its role by what stands around it.
pub fn word_at(text: &str, at: usize) -> Option<(&str, Range<usize>, Role)> {
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let b = text.as_bytes();
    let at = at.min(b.len());
    let start = at - b[..at].iter().rev().take_while(|c| is_word(**c)).count();
    let end = at + b[at..].iter().take_while(|c| is_word(**c)).count();
    if start == end {
        return None;
    }
    let before = text[..start].trim_end();
    let after = text[end..].trim_start();
    let role = if before.ends_with('.') && !before.ends_with("..") {
        Role::Field
    } else if after.starts_with('(') {
        Role::Call
    } else if before.ends_with(" on") || before == "on" {
        Role::Trigger
    } else {
        Role::Plain
    };
    Some((&text[start..end], start..end, role))
}

/// A name the file defines or uses.
fn name_hover(
    a: &Analysis,
    path: &str,
    text: &str,
    kind: SymKind,
    name: &str,
    local: Option<&Range<usize>>,
) -> Option<String> {
    if kind == SymKind::Local {
        let at = local?;
        let line = text[..at.start].matches('\n').count() + 1;
        let stmt = line_of(text, at.start).trim();
        return Some(format!(
            "local `{name}`, bound on line {line}:\n```carto\n{stmt}\n```"
        ));
    }
    let (file, def) = *a.defs_of(kind, name).first()?;
    let decl = declaration(file, &def.item);
    let mut md = format!(
        "```carto\n{decl}\n```\n{} in {}",
        def.kind.word(),
        shown(path, &file.name)
    );
    let comment = comment_above(&file.text, def.item.start);
    if !comment.is_empty() && def.kind != SymKind::Param {
        md.push_str(&format!("\n\n{comment}"));
    }
    match def.kind {
        SymKind::Param => {
            if let Some((value, at)) = value_in_force(a, name) {
                md.push_str(&format!(
                    "\n\nvalue in force: `{value}` (`override` in {})",
                    shown(path, at)
                ));
            }
        }
        SymKind::Rule | SymKind::Action => {
            if let Some(s) = sentence(path, text, def.kind, name) {
                md.push_str(&format!("\n\n---\n{s}"));
            }
        }
        _ => {}
    }
    Some(md)
}

/// How a hover names file `name` seen from the document at `doc`: "this file", a path from the
/// document's folder, or the bundled file's name (`rules/base.rules`), in backticks.
fn shown(doc: &str, name: &str) -> String {
    if name == doc {
        return "this file".into();
    }
    let folder = std::path::Path::new(doc).parent();
    match folder.and_then(|d| std::path::Path::new(name).strip_prefix(d).ok()) {
        Some(rel) => format!("`{}`", rel.display()),
        None => format!("`{name}`"),
    }
}

/// An item's declaration: its text up to its body's `{` (or all of it, when short), trimmed.
fn declaration(file: &FileInfo, item: &Range<usize>) -> String {
    let text = &file.text[item.clone()];
    let head = match text.find('{') {
        Some(i) if !text.starts_with("chips") && !text.starts_with("variant") => &text[..i],
        _ => text,
    };
    head.trim().to_string()
}

/// The `#` lines right above byte `at`, without their `#`.
fn comment_above(text: &str, at: usize) -> String {
    let mut lines: Vec<&str> = text[..at]
        .lines()
        .rev()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.trim_start().starts_with('#'))
        .map(|l| l.trim_start().trim_start_matches('#').trim())
        .collect();
    lines.reverse();
    lines.join(" ")
}

fn line_of(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    &text[start..end]
}

/// The last `override` of a parameter among the variant's files (the document's own last):
/// its value as written and its file.
fn value_in_force<'a>(a: &'a Analysis, name: &str) -> Option<(&'a str, &'a str)> {
    a.files.iter().find_map(|f| {
        f.ast.items.iter().rev().find_map(|i| match &i.kind {
            ItemKind::Override { name: n, value } if n.name == name => {
                Some((&f.text[value.span.clone()], f.name.as_str()))
            }
            _ => None,
        })
    })
}

/// The English sentence of a rule or action, from the documentation page of the document's
/// variant (when it loads: no error, and a `variant` header).
fn sentence(path: &str, text: &str, kind: SymKind, name: &str) -> Option<String> {
    let source = crate::diag::Source::new(path, text);
    let v = crate::variant::variant_from_source(&source, path, &[], &|_, e| {
        crate::variant::InputError::new(crate::diag::Code::BadSet, e)
    })
    .ok()?;
    let page = crate::doc::page(&v);
    let items = if kind == SymKind::Rule {
        &page.rules
    } else {
        &page.actions
    };
    items
        .iter()
        .find(|i| i.name == name)
        .map(|i| i.sentence.clone())
}

/// What an imported file declares.
fn import(a: &Analysis, path: &str, name: &str) -> Option<String> {
    let file = a.files.iter().skip(1).find(|f| {
        f.name == format!("rules/{name}.rules")
            || f.name
                .ends_with(&format!("/{}", name.trim_start_matches("./")))
    })?;
    let mut md = shown(path, &file.name);
    for kind in [
        SymKind::Param,
        SymKind::Rule,
        SymKind::Action,
        SymKind::Holding,
        SymKind::Colour,
    ] {
        let names: Vec<String> = file
            .symbols
            .defs
            .iter()
            .filter(|d| d.kind == kind)
            .map(|d| format!("`{}`", d.name))
            .collect();
        if !names.is_empty() {
            md.push_str(&format!("\n\n{}s: {}", kind.word(), names.join(", ")));
        }
    }
    let imports: Vec<String> = file
        .symbols
        .imports
        .iter()
        .map(|(n, _)| format!("`{n}`"))
        .collect();
    if !imports.is_empty() {
        md.push_str(&format!("\n\nimports: {}", imports.join(", ")));
    }
    Some(md)
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn a_hover_names_a_file_from_the_document_s_folder() {
        let doc = "/home/me/variants/my.rules";
        assert_eq!(shown(doc, doc), "this file");
        assert_eq!(
            shown(doc, "/home/me/variants/lib/extra.rules"),
            "`lib/extra.rules`"
        );
        assert_eq!(shown(doc, "rules/base.rules"), "`rules/base.rules`");
        assert_eq!(shown(doc, "/elsewhere/x.rules"), "`/elsewhere/x.rules`");
    }
}
