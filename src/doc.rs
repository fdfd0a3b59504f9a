//! `carto doc`: a variant's documentation, read from its rules: the header's prose, the map, every
//! parameter with its default and doc string, and every rule and action with the comment above it.

use crate::diag::Source;
use crate::lang::builtins::HeaderKey;
use crate::lang::check::{BundledRules, RulesResolver};
use crate::lang::ir::{Expr, Origin, Value};
use crate::variant::{value_json, Variant};

fn header_str(v: &Variant, key: HeaderKey) -> Option<String> {
    let e = v.program.header.entries.iter().find(|e| e.key == key)?;
    match &e.value {
        Expr::Const(Value::Str(s)) => v.program.strings.get(*s as usize).cloned(),
        _ => None,
    }
}

/// The comment lines right above a span, without their `#`.
fn comment_above(text: &str, at: usize) -> String {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let line_start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let before = &text[..line_start];
    let mut lines: Vec<&str> = Vec::new();
    for line in before.lines().rev() {
        let t = line.trim();
        match t.strip_prefix('#') {
            Some(c) => lines.push(c.trim()),
            None => break,
        }
    }
    lines.reverse();
    lines.join(" ")
}

fn source_of(v: &Variant, o: &Origin, cache: &mut Vec<Option<Source>>) -> Option<Source> {
    let i = o.file as usize;
    if cache.len() <= i {
        cache.resize(i + 1, None);
    }
    if cache[i].is_none() {
        let name = v.program.files.get(i)?;
        let bundled = name
            .strip_prefix("rules/")
            .and_then(|n| n.strip_suffix(".rules"));
        let from = Source::new("", "");
        cache[i] = match bundled.map(|b| BundledRules.resolve(b, &from)) {
            Some(Ok(s)) => Some(s),
            _ => crate::files::read_text(std::path::Path::new(name))
                .ok()
                .map(|t| Source::new(name.clone(), t)),
        };
    }
    cache[i].clone()
}

fn dedent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect();
    body.join("\n").trim().to_string()
}

/// Words wrapped at 100 columns, each line indented.
fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > 100 {
            out.push_str(&format!("{indent}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{indent}{line}\n"));
    }
    out
}

/// The documentation of a variant, as text.
pub fn document(v: &Variant) -> String {
    let p = &v.program;
    let mut out = String::new();
    let title = header_str(v, HeaderKey::Title).unwrap_or_else(|| v.name.clone());
    out.push_str(&format!("{} ({})\n\n", title, v.name));
    if let Some(doc) = header_str(v, HeaderKey::Doc) {
        out.push_str(&dedent(&doc));
        out.push_str("\n\n");
    }
    match &v.map {
        Some(m) => {
            let starts: Vec<&str> = m.starts.iter().map(|s| s.name.as_str()).collect();
            out.push_str(&format!(
                "map: {} ({}×{}); start squares {} ({} used)\n",
                m.name,
                m.width,
                m.height,
                starts.join(", "),
                v.config.start_squares.min(starts.len())
            ));
        }
        None => out.push_str("map: the endless table\n"),
    }
    let total: u32 = v.config.counts.iter().sum();
    out.push_str(&format!(
        "players: {}–{}; followers each: {}; tiles: {}\n",
        v.players.0, v.players.1, v.config.followers, total
    ));
    if !p.chips.is_empty() {
        out.push_str(&format!(
            "chips: {} ({})\n",
            p.chips.len(),
            p.colours.join(", ")
        ));
    }
    out.push_str("\nparameters (change with --set name=value):\n");
    for par in &p.params {
        let value = match par.value {
            Value::Table(t) => {
                let rows: Vec<String> = p
                    .tables
                    .get(t as usize)
                    .map(|rows| rows.iter().map(|(k, v)| format!("{k}: {v}")).collect())
                    .unwrap_or_default();
                format!("{{{}}}", rows.join(", "))
            }
            v => value_json(p, v).to_string(),
        };
        let range = par
            .range
            .as_ref()
            .map(|r| format!(" in {}", r.text()))
            .unwrap_or_default();
        out.push_str(&format!("  {} : {}{range} = {}", par.name, par.ty, value));
        if !par.doc.is_empty() {
            out.push_str(&format!("  — {}", par.doc));
        }
        out.push('\n');
    }
    let mut cache = Vec::new();
    out.push_str("\nrules:\n");
    for r in &p.rules {
        let src = source_of(v, &r.origin, &mut cache);
        let (file, line, comment) = match &src {
            Some(s) => (
                s.name.clone(),
                s.line_col(r.origin.span.start).0,
                comment_above(&s.text, r.origin.span.start),
            ),
            None => (String::new(), 0, String::new()),
        };
        out.push_str(&format!(
            "  {} (on {}) {}:{}\n",
            r.name,
            r.trigger.name(),
            file,
            line
        ));
        out.push_str(&wrap(&comment, "      "));
    }
    if !p.actions.is_empty() {
        out.push_str("\nplayer actions:\n");
        for a in &p.actions {
            let src = source_of(v, &a.origin, &mut cache);
            let (file, line, comment) = match &src {
                Some(s) => (
                    s.name.clone(),
                    s.line_col(a.origin.span.start).0,
                    comment_above(&s.text, a.origin.span.start),
                ),
                None => (String::new(), 0, String::new()),
            };
            let when = match a.phase {
                None => "forced".to_string(),
                Some(ph) => format!("phase {ph:?}").to_lowercase(),
            };
            out.push_str(&format!("  {} ({when}) {}:{}\n", a.name, file, line));
            out.push_str(&wrap(&comment, "      "));
        }
    }
    out
}
