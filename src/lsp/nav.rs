//! Going to a definition, finding references and renaming: parameters, rules, actions, holding
//! areas and chip colours across the variant's files (a document, what it imports, and the open
//! documents that import it), locals within their item, imports to their file, and a map attribute
//! into the map's TOML.

use super::analysis::{Analysis, FileInfo, Workspace};
use super::hover::word_at;
use super::words::Role;
use crate::lang::check::BUNDLED_RULES;
use crate::lang::symbols::SymKind;
use std::ops::Range;

/// A place: a file's name (as the checker names it) and a span of its text.
pub type Place = (String, Range<usize>);

/// Where the name (or import, or map attribute) under byte `at` is defined.
pub fn definition(ws: &Workspace, path: &str, at: usize) -> Vec<Place> {
    let Some(doc) = ws.doc(path) else {
        return Vec::new();
    };
    let a = &doc.analysis;
    let Some(first) = a.files.first() else {
        return Vec::new();
    };
    if let Some((name, _)) = first
        .symbols
        .imports
        .iter()
        .find(|(_, s)| s.start <= at && at <= s.end)
    {
        return imported(a, name)
            .map(|f| vec![(f.name.clone(), 0..0)])
            .unwrap_or_default();
    }
    if let Some(f) = a.found(at) {
        if let Some(b) = f.local {
            return vec![(path.to_string(), b)];
        }
        let defs: Vec<Place> = a
            .defs_of(f.kind, f.name)
            .into_iter()
            .map(|(file, d)| (file.name.clone(), d.span.clone()))
            .collect();
        if !defs.is_empty() {
            return defs;
        }
    }
    match word_at(&doc.text, at) {
        Some((word, _, Role::Field)) if a.attrs.iter().any(|(n, _)| n == word) => {
            attribute(ws, a, word).into_iter().collect()
        }
        _ => Vec::new(),
    }
}

/// The imported file an `import "NAME"` reads.
fn imported<'a>(a: &'a Analysis, name: &str) -> Option<&'a FileInfo> {
    a.files.iter().skip(1).find(|f| {
        f.name == format!("rules/{name}.rules")
            || f.name
                .ends_with(&format!("/{}", name.trim_start_matches("./")))
    })
}

/// Where the map's TOML first gives a square the attribute `word` (`attrs = { word = … }`).
fn attribute(ws: &Workspace, a: &Analysis, word: &str) -> Option<Place> {
    let file = a.map_file.clone()?;
    let text = match ws.doc(&file) {
        Some(d) => d.text.clone(),
        None => match file.strip_prefix("maps/") {
            Some(n) => crate::bundled::MAPS
                .iter()
                .find(|(m, _)| format!("{m}.toml") == n)
                .map(|(_, t)| t.to_string())?,
            None => ws.text_of(&file)?,
        },
    };
    let mut at = 0;
    let mut in_doc = false;
    for line in text.split_inclusive('\n') {
        let quotes = line.matches("\"\"\"").count() + line.matches("'''").count();
        if !in_doc && !line.trim_start().starts_with('#') {
            for pat in [format!("{word} ="), format!("{word}=")] {
                if let Some(i) = line.find(&pat) {
                    let bounded = i == 0 || !line.as_bytes()[i - 1].is_ascii_alphanumeric();
                    if bounded {
                        return Some((file, at + i..at + i + word.len()));
                    }
                }
            }
        }
        in_doc ^= quotes % 2 == 1;
        at += line.len();
    }
    None
}

/// Every place naming what byte `at` names (its definitions included when `decl`), in the open
/// documents' variants and in the rules files beside the definitions that import them.
pub fn references(ws: &Workspace, path: &str, at: usize, decl: bool) -> Vec<Place> {
    places(ws, path, at, decl, true)
}

/// The places in the document `path` naming what byte `at` names (the folder is not read: an
/// editor asks at every move of the cursor).
pub fn highlights(ws: &Workspace, path: &str, at: usize) -> Vec<Place> {
    let mut out = places(ws, path, at, true, false);
    out.retain(|(f, _)| f == path);
    out
}

fn places(ws: &Workspace, path: &str, at: usize, decl: bool, folder: bool) -> Vec<Place> {
    let Some(a) = ws.doc(path).map(|d| &d.analysis) else {
        return Vec::new();
    };
    let Some(f) = a.found(at) else {
        return Vec::new();
    };
    let mut out: Vec<Place> = Vec::new();
    if f.kind == SymKind::Local {
        let Some(bind) = f.local.clone().or_else(|| Some(f.span.clone())) else {
            return out;
        };
        let syms = &a.files[0].symbols;
        if decl {
            out.push((path.to_string(), bind.clone()));
        }
        for u in &syms.uses {
            if u.local.as_ref() == Some(&bind) {
                out.push((path.to_string(), u.span.clone()));
            }
        }
        return out;
    }
    let defs: Vec<(String, Range<usize>)> = a
        .defs_of(f.kind, f.name)
        .iter()
        .map(|(file, d)| (file.name.clone(), d.span.clone()))
        .collect();
    // The variant's files of every open document that reads one of the definitions' files, and of
    // every rules file beside a definition (of the user's) that is not open but imports it.
    let mut targets: Vec<String> = defs
        .iter()
        .map(|(n, _)| n.clone())
        .filter(|n| !n.starts_with("rules/"))
        .collect();
    targets.dedup();
    let closed = if folder && !targets.is_empty() {
        ws.closed_importers(&targets)
    } else {
        Vec::new()
    };
    let open = ws.docs.values().map(|d| &d.analysis);
    for da in open.chain(&closed) {
        let reads = da.files.iter().any(|file| {
            defs.iter().any(|(n, _)| *n == file.name) || (defs.is_empty() && file.name == path)
        });
        if !reads {
            continue;
        }
        for (file, span) in da.places_of(f.kind, f.name) {
            let place = (file.name.clone(), span);
            let is_def = defs.contains(&place);
            if (decl || !is_def) && !out.contains(&place) {
                out.push(place);
            }
        }
    }
    out.sort_by(|a, b| (&a.0, a.1.start).cmp(&(&b.0, b.1.start)));
    out
}

/// The span of the name `at` stands on, when it may be renamed; else why not.
pub fn prepare_rename(ws: &Workspace, path: &str, at: usize) -> Result<Range<usize>, String> {
    let a = ws
        .doc(path)
        .map(|d| &d.analysis)
        .ok_or("the document is not open")?;
    let f = a.found(at).ok_or(
        "only a parameter, rule, action, holding area, chip colour or local name can be renamed",
    )?;
    if f.kind != SymKind::Local {
        let defs = a.defs_of(f.kind, f.name);
        let Some((file, _)) = defs.first() else {
            return Err(format!(
                "`{}` is the language's own (no file of this variant defines it)",
                f.name
            ));
        };
        if file.bundled {
            return Err(format!(
                "`{}` is defined in the bundled rules file `{}`, which cannot be edited",
                f.name, file.name
            ));
        }
    }
    Ok(f.span)
}

/// The edits renaming what `at` names to `new`.
pub fn rename(ws: &Workspace, path: &str, at: usize, new: &str) -> Result<Vec<Place>, String> {
    prepare_rename(ws, path, at)?;
    let valid = new
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && new.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !crate::lang::lex::is_keyword(new);
    if !valid {
        return Err(format!(
            "`{new}` is not a name: names are ASCII letters, digits and `_`, do not start with a \
             digit, and are not keywords"
        ));
    }
    let places = references(ws, path, at, true);
    let bundled = places.iter().find(|(n, _)| {
        BUNDLED_RULES
            .iter()
            .any(|(b, _)| n.strip_prefix("rules/") == Some(&format!("{b}.rules")))
    });
    if let Some((file, _)) = bundled {
        return Err(format!(
            "the name is also used in the bundled rules file `{file}`, which cannot be edited"
        ));
    }
    Ok(places)
}
