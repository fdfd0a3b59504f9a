//! The documents an editor has open, each checked as `carto check` checks it, and what the requests
//! read of them: the files of its variant (the document and what it imports, depth first, each
//! with its syntax tree and its names), the diagnostics, the map's attributes. No input or output:
//! the stdio loop (`server.rs`) and the playground's worker both drive it through `protocol.rs`.

use crate::diag::{Diagnostic, Source};
use crate::lang::ast;
use crate::lang::check::{check_source, BundledRules, RulesResolver, BUNDLED_RULES};
use crate::lang::symbols::{symbols, Def, SymKind, Symbols};
use crate::map::MapBoard;
use std::collections::BTreeMap;
use std::ops::Range;

/// What kind of file a document is, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    Rules,
    Script,
    Map,
}

impl DocKind {
    pub fn of(path: &str) -> DocKind {
        if path.ends_with(".script") {
            DocKind::Script
        } else if path.ends_with(".toml") {
            DocKind::Map
        } else {
            DocKind::Rules
        }
    }
}

/// One file of a variant as the requests read it.
pub struct FileInfo {
    /// The name the checker gives it: a path, or `rules/NAME.rules` for a bundled file.
    pub name: String,
    pub text: String,
    pub ast: ast::File,
    pub symbols: Symbols,
    /// A bundled rules file (not on the user's disk; never renamed in).
    pub bundled: bool,
}

/// What was found checking a document.
#[derive(Default)]
pub struct Analysis {
    /// Every diagnostic, with the name of its file.
    pub diagnostics: Vec<(String, Diagnostic)>,
    /// The document (first) and every file it imports, each once.
    pub files: Vec<FileInfo>,
    /// The map's square attributes and their types, when the header's map loaded.
    pub attrs: Vec<(String, String)>,
    /// The map's file (a path, or `maps/NAME.toml` for a bundled map), when it loaded.
    pub map_file: Option<String>,
}

/// An open document.
pub struct Doc {
    pub uri: String,
    pub text: String,
    pub version: i32,
    pub kind: DocKind,
    pub analysis: Analysis,
}

/// Every open document, by path.
#[derive(Default)]
pub struct Workspace {
    pub docs: BTreeMap<String, Doc>,
    /// The workspace's folder (where `rules/` holds the bundled files' sources when carto itself is
    /// open).
    pub root: Option<String>,
    /// Maps loaded, by name and the folder of the file naming them (a map is read once, not at each
    /// key pressed); dropped when a `.toml` document changes.
    maps: BTreeMap<(String, String), Result<MapBoard, String>>,
    /// Files the host holds that are on no disk, by path (the playground's bundled rules and maps
    /// under its root): read as if on the disk, after the open documents.
    pub given: BTreeMap<String, String>,
}

/// Finds an imported file among the open documents first (their text as edited), then as `carto
/// check` does.
struct Overlay<'a> {
    docs: &'a BTreeMap<String, Doc>,
    given: &'a BTreeMap<String, String>,
}

impl RulesResolver for Overlay<'_> {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        if name.contains('/') || name.ends_with(".rules") {
            if let Ok(path) = crate::paths::beside(&from.name, name, ".rules") {
                let path = normal(&path.display().to_string());
                if let Some(d) = self.docs.get(&path) {
                    return Ok(Source::new(path, d.text.as_str()));
                }
                if let Some(t) = self.given.get(&path) {
                    return Ok(Source::new(path, t.as_str()));
                }
            }
        }
        BundledRules.resolve(name, from)
    }
    fn tile_set(&self, path: &str, from: &Source) -> Option<Result<Source, String>> {
        BundledRules.tile_set(path, from)
    }
}

/// A path with its `.` and `..` parts resolved (without reading the disk).
pub fn normal(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "." | "" if !parts.is_empty() => {}
            ".." if parts.len() > 1 => {
                parts.pop();
            }
            _ => parts.push(p),
        }
    }
    parts.join("/")
}

impl Workspace {
    /// Opens or replaces a document, and checks it (and every open document that may import it).
    pub fn set(&mut self, uri: &str, path: &str, text: String, version: i32) {
        let kind = DocKind::of(path);
        if kind == DocKind::Map {
            self.maps.clear();
        }
        self.docs.insert(
            path.to_string(),
            Doc {
                uri: uri.to_string(),
                text,
                version,
                kind,
                analysis: Analysis::default(),
            },
        );
        self.reanalyse();
    }

    /// Closes a document.
    pub fn close(&mut self, path: &str) {
        self.docs.remove(path);
        self.reanalyse();
    }

    /// Checks every open rules document again (an edit in one may change what another imports).
    fn reanalyse(&mut self) {
        let paths: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| d.kind == DocKind::Rules)
            .map(|(p, _)| p.clone())
            .collect();
        for p in paths {
            let a = self.analyse(&p);
            if let Some(d) = self.docs.get_mut(&p) {
                d.analysis = a;
            }
        }
    }

    /// Checks the rules document at `path`.
    fn analyse(&mut self, path: &str) -> Analysis {
        let Some(doc) = self.docs.get(path) else {
            return Analysis::default();
        };
        let source = Source::new(path, doc.text.as_str());
        let overlay = Overlay {
            docs: &self.docs,
            given: &self.given,
        };
        let cache = std::cell::RefCell::new(std::mem::take(&mut self.maps));
        let loader = |m: &str, from: &Source| {
            let folder = from
                .name
                .rsplit_once('/')
                .map_or("", |(d, _)| d)
                .to_string();
            cache
                .borrow_mut()
                .entry((m.to_string(), folder.clone()))
                .or_insert_with(|| {
                    crate::variant::load_map_given(m, from, None, &self.maps_in(&folder))
                })
                .clone()
        };
        let result = check_source(&source, &overlay, &loader);
        let mut a = Analysis {
            diagnostics: result
                .diagnostics
                .into_iter()
                .map(|(s, d)| (s.name, d))
                .collect(),
            ..Analysis::default()
        };
        if let Some((naming, board)) = &result.map {
            let colours: Vec<String> = Vec::new();
            a.attrs = crate::lang::check::attribute_types(board, &colours)
                .into_iter()
                .map(|(k, t)| (k, t.to_string()))
                .collect();
            let _ = naming;
        }
        a.files = variant_files(&source, &overlay);
        if !a.attrs.is_empty() {
            a.map_file = map_file(&a.files);
        }
        self.maps = cache.into_inner();
        a
    }

    /// The rules document at `path`, if open.
    pub fn doc(&self, path: &str) -> Option<&Doc> {
        self.docs.get(path)
    }

    /// The maps of the open documents and the given files in `folder` and below, each named by its
    /// path from there (as a header in `folder` writes it): they are read instead of the disk.
    fn maps_in(&self, folder: &str) -> Vec<Source> {
        let prefix = if folder.is_empty() {
            String::new()
        } else {
            format!("{folder}/")
        };
        let open = self
            .docs
            .iter()
            .filter(|(_, d)| d.kind == DocKind::Map)
            .map(|(p, d)| (p, &d.text));
        open.chain(self.given.iter())
            .filter(|(p, _)| p.ends_with(".toml"))
            .filter_map(|(p, t)| Some(Source::new(p.strip_prefix(&prefix)?, t.as_str())))
            .collect()
    }

    /// The text of a file: an open document's (as edited), a given file's, or the disk's.
    pub fn text_of(&self, path: &str) -> Option<String> {
        if let Some(d) = self.docs.get(path) {
            return Some(d.text.clone());
        }
        if let Some(t) = self.given.get(path) {
            return Some(t.clone());
        }
        crate::files::read_text(std::path::Path::new(path)).ok()
    }

    /// The rules files beside `targets` (files of the user's) that are not open and import one
    /// of them, directly or through another such file, each with the files it imports (as the
    /// server resolves imports): who may use a name a target defines without being open. Only a
    /// file whose text names a target's (or such an importer's) stem is parsed.
    pub fn closed_importers(&self, targets: &[String]) -> Vec<Analysis> {
        let mut dirs: Vec<&str> = targets
            .iter()
            .map(|t| t.rsplit_once('/').map_or("", |(d, _)| d))
            .collect();
        dirs.sort();
        dirs.dedup();
        let mut files: Vec<(String, String)> = Vec::new();
        for dir in dirs {
            for p in self.rules_in(dir) {
                if !self.docs.contains_key(&p) && !targets.contains(&p) {
                    if let Some(text) = self.text_of(&p) {
                        files.push((p, text));
                    }
                }
            }
        }
        let stem = |p: &str| {
            let name = p.rsplit('/').next().unwrap_or(p);
            name.strip_suffix(".rules").unwrap_or(name).to_string()
        };
        let mut stems: Vec<String> = targets.iter().map(|t| stem(t)).collect();
        let mut chosen = vec![false; files.len()];
        let mut grew = true;
        while grew {
            grew = false;
            for (i, (p, text)) in files.iter().enumerate() {
                if !chosen[i] && stems.iter().any(|s| text.contains(s.as_str())) {
                    chosen[i] = true;
                    stems.push(stem(p));
                    grew = true;
                }
            }
        }
        let overlay = Overlay {
            docs: &self.docs,
            given: &self.given,
        };
        files
            .into_iter()
            .zip(chosen)
            .filter(|(_, c)| *c)
            .map(|((p, text), _)| Analysis {
                files: variant_files(&Source::new(p, text), &overlay),
                ..Analysis::default()
            })
            .filter(|a| a.files.iter().skip(1).any(|f| targets.contains(&f.name)))
            .collect()
    }

    /// A rough size of what the store holds (texts, trees' names, diagnostics), for the test that
    /// editing does not make it grow.
    pub fn footprint(&self) -> usize {
        self.docs
            .values()
            .map(|d| {
                d.text.len()
                    + d.analysis.diagnostics.len()
                    + d.analysis
                        .files
                        .iter()
                        .map(|f| f.text.len() + f.symbols.defs.len() + f.symbols.uses.len())
                        .sum::<usize>()
            })
            .sum::<usize>()
            + self.maps.len()
    }

    /// The paths of the rules files in the folder `dir` (given, and on the disk).
    fn rules_in(&self, dir: &str) -> Vec<String> {
        let in_dir = |p: &String| p.rsplit_once('/').map_or("", |(d, _)| d) == dir;
        let mut paths: Vec<String> = self.given.keys().filter(|p| in_dir(p)).cloned().collect();
        if let Ok(entries) = std::fs::read_dir(if dir.is_empty() { "." } else { dir }) {
            for e in entries.flatten().take(MAX_FOLDER_FILES) {
                let name = e.file_name().to_string_lossy().into_owned();
                paths.push(if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                });
            }
        }
        paths.retain(|p| p.ends_with(".rules"));
        paths.sort();
        paths.dedup();
        paths
    }
}

/// The most files of a folder that [`Workspace::closed_rules`] reads.
const MAX_FOLDER_FILES: usize = 500;

/// The file of the header's map (`map = "NAME"`, the document's own header first, then its
/// imports'): `maps/NAME.toml` for a bundled map, else the path relative to the file naming it.
fn map_file(files: &[FileInfo]) -> Option<String> {
    let (name, naming) = files.iter().find_map(|f| {
        f.ast.items.iter().find_map(|i| match &i.kind {
            ast::ItemKind::Variant { entries, .. } => {
                entries.iter().find_map(|e| match &e.value.kind {
                    ast::ExprKind::Str(v) if e.key.name == "map" => {
                        Some((v.clone(), f.name.clone()))
                    }
                    _ => None,
                })
            }
            _ => None,
        })
    })?;
    if crate::bundled::MAPS.iter().any(|(n, _)| *n == name) {
        return Some(format!("maps/{name}.toml"));
    }
    let path = crate::header::header_path(&naming, &name).ok()?;
    Some(normal(&path.display().to_string()))
}

/// The document and every file it imports (depth first, each once), parsed, with their names.
fn variant_files(source: &Source, resolver: &dyn RulesResolver) -> Vec<FileInfo> {
    let mut files: Vec<FileInfo> = Vec::new();
    let mut todo = vec![source.clone()];
    while let Some(src) = todo.pop() {
        if files.iter().any(|f| f.name == src.name) || files.len() > 64 {
            continue;
        }
        let (ast, _) = crate::lang::check::parse_once(&src);
        let syms = symbols(&ast);
        for (name, _) in syms.imports.iter().rev() {
            if let Ok(s) = resolver.resolve(name, &src) {
                todo.push(s);
            }
        }
        let bundled = BUNDLED_RULES
            .iter()
            .any(|(n, _)| src.name == format!("rules/{n}.rules"));
        files.push(FileInfo {
            name: src.name,
            text: src.text,
            ast,
            symbols: syms,
            bundled,
        });
    }
    files
}

/// A name's definition or use at a place: its kind, name, and the span of the name.
pub struct Found<'a> {
    pub kind: SymKind,
    pub name: &'a str,
    pub span: Range<usize>,
    /// A local's binding.
    pub local: Option<Range<usize>>,
}

impl Analysis {
    /// The name under byte `at` of the document.
    pub fn found(&self, at: usize) -> Option<Found<'_>> {
        let f = self.files.first()?;
        let (kind, name, span, local) = f.symbols.at(at)?;
        Some(Found {
            kind,
            name,
            span: span.clone(),
            local: local.cloned(),
        })
    }

    /// The definitions a name of this kind may refer to, in the variant's files: (file, definition).
    pub fn defs_of(&self, kind: SymKind, name: &str) -> Vec<(&FileInfo, &Def)> {
        self.files
            .iter()
            .flat_map(|f| f.symbols.defs.iter().map(move |d| (f, d)))
            .filter(|(_, d)| d.kind != SymKind::Local && kind.names(d.kind) && d.name == name)
            .collect()
    }

    /// Every place in the variant's files that names this global (definitions and uses).
    pub fn places_of(&self, kind: SymKind, name: &str) -> Vec<(&FileInfo, Range<usize>)> {
        let mut out = Vec::new();
        for f in &self.files {
            for d in &f.symbols.defs {
                if d.kind != SymKind::Local && kind.names(d.kind) && d.name == name {
                    out.push((f, d.span.clone()));
                }
            }
            for u in &f.symbols.uses {
                if u.kind != SymKind::Local && kind.names(u.kind) && u.name == name {
                    out.push((f, u.span.clone()));
                }
            }
        }
        out
    }
}
