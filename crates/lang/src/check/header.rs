//! The `variant` header: one per file, merged over the imports (the importing file's keys win), each
//! key known and given once, each value of its key's type. The `map` key is read by `map.rs`.

use super::{Checker, MapKnowledge, Scope};
use crate::ast::{self, ItemKind};
use crate::builtins::{HeaderKey, Ty, HEADER_KEYS};
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir;

/// A header entry in force: the file that gave it, the entry, and its key.
pub(super) type HeaderUse<'a> = (usize, &'a ast::HeaderEntry, HeaderKey);

impl Checker {
    /// The header entries in force, from every file in load order (a later file replaces a key).
    pub(super) fn merge_headers<'a>(
        &mut self,
        order: &[usize],
        asts: &'a [ast::File],
    ) -> Vec<HeaderUse<'a>> {
        let mut header: Vec<HeaderUse<'a>> = Vec::new();
        let mut gives: Vec<(HeaderKey, super::conflicts::Given)> = Vec::new();
        for &f in order {
            self.file = f;
            let mut seen_variant = false;
            for item in &asts[f].items {
                let ItemKind::Variant { name, entries } = &item.kind else {
                    continue;
                };
                if seen_variant {
                    self.err(
                        Diagnostic::error(
                            Code::GivenTwice,
                            name.span.clone(),
                            "a second `variant` header in this file",
                        )
                        .with_label("one header per file"),
                    );
                    continue;
                }
                seen_variant = true;
                if let Some(why) = crate::paths::not_a_name(&name.value) {
                    self.err(
                        Diagnostic::error(
                            Code::InvalidName,
                            name.span.clone(),
                            format!("a variant's name must be a name: {why}"),
                        )
                        .with_label("not a name")
                        .with_note(format!(
                            "a name is 1 to {} letters, digits, `-` and `_` (it names files, such \
                             as the page `carto doc --out` writes)",
                            crate::paths::MAX_NAME
                        )),
                    );
                }
                self.prog.header.name = name.value.clone();
                self.merge_header_entries(f, entries, &mut header);
                for e in entries {
                    if let Some((key, ..)) = HEADER_KEYS.iter().find(|(_, n, ..)| *n == e.key.name)
                    {
                        let text = self.files[f]
                            .text
                            .get(e.value.span.clone())
                            .map(str::to_string);
                        gives.push((*key, (f, e.key.span.clone(), text)));
                    }
                }
            }
        }
        for (key, name, ..) in HEADER_KEYS {
            let of: Vec<super::conflicts::Given> = gives
                .iter()
                .filter(|(k, _)| k == key)
                .map(|(_, g)| g.clone())
                .collect();
            let what = format!("header key `{name}` is given");
            let settle = format!("give `{name} = …` in this file's `variant` header");
            self.report_conflict(Code::GivenTwice, &what, &of, &settle);
        }
        header
    }

    /// Adds one file's header entries, reporting unknown and repeated keys.
    fn merge_header_entries<'a>(
        &mut self,
        f: usize,
        entries: &'a [ast::HeaderEntry],
        header: &mut Vec<HeaderUse<'a>>,
    ) {
        let mut keys: Vec<&str> = Vec::new();
        for e in entries {
            let Some((key, ..)) = HEADER_KEYS.iter().find(|(_, n, ..)| *n == e.key.name) else {
                self.unknown_header_key(e);
                continue;
            };
            if keys.contains(&e.key.name.as_str()) {
                self.err(
                    Diagnostic::error(
                        Code::GivenTwice,
                        e.key.span.clone(),
                        format!("header key `{}` given twice", e.key.name),
                    )
                    .with_label("already given above"),
                );
                continue;
            }
            keys.push(&e.key.name);
            header.retain(|(_, _, k)| k != key);
            header.push((f, e, *key));
        }
    }

    fn unknown_header_key(&mut self, e: &ast::HeaderEntry) {
        let mut d = Diagnostic::error(
            Code::UnknownHeaderKey,
            e.key.span.clone(),
            format!("unknown header key `{}`", e.key.name),
        )
        .with_label("not a header key");
        if let Some(s) = did_you_mean(&e.key.name, HEADER_KEYS.iter().map(|(_, n, ..)| *n)) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        let all: Vec<&str> = HEADER_KEYS.iter().map(|(_, n, ..)| *n).collect();
        self.err(d.with_note(format!("the keys are: {}", all.join(", "))));
    }

    /// Checks and lowers every header value but the map's, against its key's type.
    pub(super) fn lower_header_values(&mut self, header: &[HeaderUse<'_>]) {
        for (f, e, key) in header {
            if *key == HeaderKey::Map {
                continue;
            }
            self.file = *f;
            let want = HEADER_KEYS
                .iter()
                .find(|(k, ..)| k == key)
                .map_or(Ty::ANY, |(_, _, t, _)| *t);
            let mut sc = Scope::default();
            let value = self.expect(&e.value, &mut sc, want);
            self.prog.header.entries.push(ir::HeaderEntry {
                key: *key,
                value,
                origin: ir::Origin {
                    file: *f as u16,
                    span: e.span.clone(),
                },
            });
        }
    }

    /// Reports header values play would refuse (`crate::header`), at their entries.
    /// Reads and parses the tile sets the header names by path (when the resolver reads files), and
    /// reports a missing or broken one at the `tiles` entry, with the tile file's own diagnostics.
    pub(super) fn check_tile_files(&mut self, resolver: &dyn super::RulesResolver) {
        let Some(e) = self
            .prog
            .header
            .entries
            .iter()
            .find(|e| e.key == HeaderKey::Tiles)
        else {
            return;
        };
        let (file, span) = (e.origin.file as usize, e.origin.span.clone());
        let Some(from) = self.files.get(file).cloned() else {
            return;
        };
        let span =
            span.start..span.start + from.text.get(span.clone()).unwrap_or("").trim_end().len();
        // Whether some set has a start tile; `None` once a set cannot be read (nothing to say then).
        let mut has_start = Some(false);
        let names = crate::header::header_strings(&self.prog, HeaderKey::Tiles);
        for name in &names {
            if let Some(parsed) = crate::tiles::parse_bundled(name) {
                if let (Ok(set), Some(h)) = (parsed, &mut has_start) {
                    *h |= set.tiles.iter().any(|t| t.start > 0);
                }
                continue;
            }
            if !crate::header::looks_like_path(name) {
                has_start = None;
                continue;
            }
            let problem = match resolver.tile_set(name, &from) {
                None => {
                    has_start = None;
                    continue;
                }
                Some(Err(e)) => {
                    let dir = std::path::Path::new(&from.name)
                        .parent()
                        .unwrap_or(std::path::Path::new(""));
                    match crate::files::nearest_file(&dir.join(name)) {
                        Some(n) => format!("{e}; did you mean `{n}`?"),
                        None => e,
                    }
                }
                Some(Ok(src)) => match crate::tiles::parse_tile_set(name, &src) {
                    Ok(set) => {
                        if let Some(h) = &mut has_start {
                            *h |= set.tiles.iter().any(|t| t.start > 0);
                        }
                        // Kept for loading: the file is read once.
                        self.tile_sets.push((src, set));
                        continue;
                    }
                    Err(d) => src.render(&d),
                },
            };
            has_start = None;
            let saved = std::mem::replace(&mut self.file, file);
            self.err(
                Diagnostic::error(
                    Code::TileSetNotLoaded,
                    span.clone(),
                    format!("cannot load tile set `{name}`"),
                )
                .with_label("refused by play")
                .with_note(problem.trim_end().to_string()),
            );
            self.file = saved;
        }
        if has_start == Some(false) && !names.is_empty() {
            let saved = std::mem::replace(&mut self.file, file);
            self.err(
                Diagnostic::error(Code::HeaderRefused, span, "none of these tile sets has a start tile")
                    .with_label("refused by play")
                    .with_note(
                        "mark one tile of a set `start = 1` (one of its `count` is then the start tile), \
                         or add a set that has one, such as `base`",
                    ),
            );
            self.file = saved;
        }
    }

    pub(super) fn check_header_values(&mut self) {
        let starts = match &self.map {
            Some(MapKnowledge::Known { starts, .. }) => *starts,
            _ => None,
        };
        let Err(problems) = crate::header::header_values(&self.prog, starts) else {
            return;
        };
        for p in problems {
            let Some(e) = self.prog.header.entries.iter().find(|e| e.key == p.key) else {
                continue;
            };
            let (file, mut span) = (e.origin.file as usize, e.origin.span.clone());
            // The entry's span, without the blanks that follow it.
            if let Some(text) = self.files.get(file).and_then(|f| f.text.get(span.clone())) {
                span.end = span.start + text.trim_end().len();
            }
            let saved = std::mem::replace(&mut self.file, file);
            let mut d = Diagnostic::error(Code::HeaderRefused, span, p.message)
                .with_label("refused by play");
            if let Some(n) = p.note {
                d = d.with_note(n);
            }
            self.err(d);
            self.file = saved;
        }
    }
}
