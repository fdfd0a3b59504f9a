//! Loading a variant: its rules file (bundled or from disk), checked; the map and tile sets its header
//! names; parameters set on the command line; and the engine configuration built from all of that.

use crate::diag::{Code, Diagnostic, Source};
use crate::game::{compile_tiles, Config};
use crate::header::{game_config, naming_file, Loaded};
use crate::lang::builtins::HeaderKey;
use crate::lang::check::{check_source, render, BUNDLED_RULES};
use crate::lang::ir::{MapRef, Program, Value};
use crate::map::{bundled_map, parse_map, unknown_map, BundledResolver, MapBoard};
use crate::sources::{RecordingMaps, RecordingRules, Sources};
use crate::tiles::{bundled_tile_set, parse_tile_set};
use std::sync::Arc;

/// A problem with the user's input: the text is ready to print (diagnostics rendered), and says its
/// kind (`--format json`).
#[derive(Debug, Clone)]
pub struct InputError {
    /// For people: the diagnostics rendered (`file:line:col`, the line, a caret), or `error: …`
    /// for a problem without a place in a file.
    pub text: String,
    /// The kind of its (first) error: of a file it read, or of the command's own failure (an
    /// output that cannot be written, a combination of options).
    pub code: Code,
    /// Its problems with their files, when they have a place in one.
    pub diagnostics: Vec<(Source, Diagnostic)>,
}

impl InputError {
    /// A problem of kind `code` without a place in a file, ready to print (`error: …`).
    pub fn new(code: Code, text: impl Into<String>) -> Self {
        InputError {
            text: text.into(),
            code,
            diagnostics: Vec::new(),
        }
    }

    /// Problems in files (at least one error), rendered; the kind is the first error's.
    pub(crate) fn located(diagnostics: Vec<(Source, Diagnostic)>) -> Self {
        let mut text = String::new();
        for (src, d) in &diagnostics {
            text.push_str(&src.render(std::slice::from_ref(d)));
        }
        let first = diagnostics.iter().find(|(_, d)| d.is_error());
        InputError {
            text,
            code: first
                .or(diagnostics.first())
                .map_or(Code::Syntax, |(_, d)| d.code),
            diagnostics,
        }
    }

    /// Problems in one file.
    pub(crate) fn in_file(src: &Source, diagnostics: Vec<Diagnostic>) -> Self {
        InputError::located(diagnostics.into_iter().map(|d| (src.clone(), d)).collect())
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// The bundled variants: every bundled rules file that declares a `variant` of its own (files without
/// one, such as `map-chips`, are shared rules that variants import).
pub fn bundled_variants() -> impl Iterator<Item = (&'static str, &'static str)> {
    BUNDLED_RULES
        .iter()
        .copied()
        .filter(|(n, text)| declares_variant(&Source::new(*n, *text)))
}

fn variant_names() -> Vec<&'static str> {
    bundled_variants().map(|(n, _)| n).collect()
}

/// Whether a rules file declares a variant of its own (not only through what it imports).
pub(crate) fn declares_variant(source: &Source) -> bool {
    let (file, _) = crate::lang::check::parse_once(source);
    file.items
        .iter()
        .any(|i| matches!(i.kind, crate::lang::ast::ItemKind::Variant { .. }))
}

/// `carto check`'s warning for a rules file without a `variant` header: `play` refuses it, though a
/// variant may import it.
pub fn not_a_variant(name: &str) -> crate::diag::Diagnostic {
    use crate::diag::{Code, Diagnostic};
    Diagnostic::warning(
        Code::NotAVariant,
        0..0,
        "this file declares no variant: `carto play` refuses it",
    )
    .with_label("no `variant \"name\" { … }` header")
    .with_note(format!(
        "it can be imported by a variant (`import \"{name}\"`); to play it, add a header `variant \"name\" {{ … }}`"
    ))
}

/// Reads a user's file as text, with a clear message for every way that can fail
/// ([`crate::files::read_text`]: regular files only, with a size limit).
pub fn read_text(path: &str) -> Result<String, InputError> {
    crate::files::read_text(std::path::Path::new(path))
        .map_err(|e| InputError::new(Code::Unreadable, format!("error: {e}")))
}

/// Whether `name` is a bundled rules file's name (not a path).
fn is_bundled_rules(name: &str) -> bool {
    BUNDLED_RULES.iter().any(|(n, _)| *n == name)
}

/// The rules source for a bundled variant name or a path.
pub fn rules_source(name_or_path: &str) -> Result<Source, InputError> {
    if let Some((n, text)) = BUNDLED_RULES.iter().find(|(n, _)| *n == name_or_path) {
        return Ok(Source::new(format!("rules/{n}.rules"), *text));
    }
    let looks_like_path = name_or_path.contains('/') || name_or_path.ends_with(".rules");
    if !looks_like_path && !std::path::Path::new(name_or_path).exists() {
        let names = variant_names();
        let hint = crate::diag::did_you_mean(name_or_path, names.iter().copied())
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        return Err(InputError::new(Code::Unreadable, format!(
            "error: no variant named `{name_or_path}`{hint}\n  bundled variants: {}\n  or give the path of a rules file",
            names.join(", ")
        )));
    }
    Ok(Source::new(name_or_path, read_text(name_or_path)?))
}

/// Loads a map the user typed on the command line (`--map`): a bundled name, or a path as typed,
/// absolute or relative to the current folder, `..` allowed. The rules for paths a file names
/// ([`crate::paths::beside`]) are for what files name, not for what the user types; the parts the
/// map names are read beside it under those rules.
pub fn load_map_typed(name: &str) -> Result<MapBoard, String> {
    if bundled_map(name).is_some() || !crate::header::looks_like_path(name) {
        return load_map(name, &Source::new("./", ""));
    }
    let path = std::path::Path::new(name);
    let text = crate::files::read_text(path).map_err(|e| {
        match crate::files::nearest_file(path).filter(|_| !path.exists()) {
            Some(n) => format!("{e}; did you mean `{n}`?"),
            None => e,
        }
    })?;
    let src = Source::new(name, text);
    parse_map(&src, &BundledResolver).map_err(|d| src.render(&d))
}

/// [`load_map_typed`] for a path typed on the command line whatever its name: one that is not UTF-8
/// is read as it is and shown lossily (with `�`).
pub fn load_map_at(path: &std::path::Path) -> Result<MapBoard, String> {
    if let Some(name) = path.to_str() {
        return load_map_typed(name);
    }
    let text = crate::files::read_text(path)?;
    let src = Source::new(&*path.to_string_lossy(), text);
    parse_map(&src, &BundledResolver).map_err(|d| src.render(&d))
}

/// Loads a map by bundled name or path (relative to the rules file that names it).
pub fn load_map(name: &str, from: &Source) -> Result<MapBoard, String> {
    load_map_recorded(name, from, None)
}

/// [`load_map`], recording the map and its parts in `sources` when given.
pub(crate) fn load_map_recorded(
    name: &str,
    from: &Source,
    sources: Option<&Sources>,
) -> Result<MapBoard, String> {
    load_map_given(name, from, sources, &[])
}

/// [`load_map_recorded`] with maps given as text (an editor's, a test's): a name that is not a
/// bundled map and equals one of `given`'s names, as written (in the header or a `[[part]]`), is
/// that text; nothing is read from where the name would point.
pub fn load_map_given(
    name: &str,
    from: &Source,
    sources: Option<&Sources>,
    given: &[Source],
) -> Result<MapBoard, String> {
    let maps = GivenMaps { given, sources };
    if let Some(text) = bundled_map(name) {
        let (map, parts) = parsed_bundled_map(name)?;
        if let Some(s) = sources {
            s.record(&Source::new(format!("maps/{name}.toml"), text), true);
            for p in parts {
                let text = bundled_map(&p).unwrap_or_default();
                s.record(&Source::new(format!("maps/{p}.toml"), text), true);
            }
        }
        return Ok(map);
    }
    let src = if let Some(g) = maps.given(name) {
        g
    } else {
        // A name that is not a path and not a bundled map is a misspelt bundled name.
        if !crate::header::looks_like_path(name) {
            return Err(unknown_map(name));
        }
        let path = crate::header::header_path(&from.name, name)?;
        let p = path.display().to_string();
        let text =
            crate::files::read_text(&path).map_err(|e| {
                match crate::files::nearest_file(&path).filter(|_| !path.exists()) {
                    Some(n) => format!("{e}; did you mean `{n}`?"),
                    None => e,
                }
            })?;
        Source::new(p, text)
    };
    if let Some(s) = sources {
        s.record(&src, false);
    }
    parse_map(&src, &maps).map_err(|d| src.render(&d))
}

/// Resolves map parts from the maps given as text first (recording them), then as
/// [`RecordingMaps`] (or [`BundledResolver`] when nothing is recorded) does.
struct GivenMaps<'a> {
    given: &'a [Source],
    sources: Option<&'a Sources>,
}

impl GivenMaps<'_> {
    /// The given map called `name`, unless a bundled map has that name.
    fn given(&self, name: &str) -> Option<Source> {
        let g = self.given.iter().find(|g| g.name == name)?;
        if bundled_map(name).is_some() {
            return None;
        }
        if let Some(s) = self.sources {
            s.record(g, false);
        }
        Some(g.clone())
    }
}

impl crate::map::MapResolver for GivenMaps<'_> {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        if let Some(g) = self.given(name) {
            return Ok(g);
        }
        match self.sources {
            Some(s) => RecordingMaps(s).resolve(name, from),
            None => BundledResolver.resolve(name, from),
        }
    }
}

/// A bundled map, parsed once per process (its text never changes), with the names of the bundled
/// maps it includes as parts, in the order they were read (to record them as a fresh parse does).
fn parsed_bundled_map(name: &str) -> Result<(MapBoard, Vec<String>), String> {
    use std::sync::OnceLock;
    type Parsed = Result<(MapBoard, Vec<String>), String>;
    static PARSED: OnceLock<Vec<OnceLock<Parsed>>> = OnceLock::new();
    /// Resolves parts as a bundled map's parts resolve, noting each name.
    struct Noting(std::cell::RefCell<Vec<String>>);
    impl crate::map::MapResolver for Noting {
        fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
            let src = crate::map::MapResolver::resolve(&BundledResolver, name, from)?;
            self.0.borrow_mut().push(name.to_string());
            Ok(src)
        }
    }
    let maps = crate::bundled::MAPS;
    let Some(i) = maps.iter().position(|(n, _)| *n == name) else {
        return Err(unknown_map(name));
    };
    let cells = PARSED.get_or_init(|| maps.iter().map(|_| OnceLock::new()).collect());
    cells[i]
        .get_or_init(|| {
            let src = Source::new(format!("maps/{name}.toml"), maps[i].1);
            let noting = Noting(Default::default());
            let map = parse_map(&src, &noting).map_err(|d| src.render(&d))?;
            Ok((map, noting.0.into_inner()))
        })
        .clone()
}

/// Most tiles in one game (the endless table is sized for a line of them in any direction).
pub(crate) const MAX_TILES: u64 = 1000;

/// A variant ready to play.
pub struct Variant {
    pub name: String,
    pub program: Arc<Program>,
    pub config: Arc<Config>,
    pub map: Option<Arc<MapBoard>>,
    pub players: (usize, usize),
    /// Warnings of the checker, rendered (empty when clean).
    pub warnings: String,
    /// The texts of the files the rules were read from, to point into them.
    pub(crate) texts: Vec<Source>,
}

impl Variant {
    /// This variant with parameters set (`name=value`, as `--set` takes them, on the values as
    /// loaded), without reading, parsing or checking its files again: the points of a sweep. The
    /// same as loading it with these `sets`; `set_error` as for [`load_variant_with`].
    pub fn with_sets(
        &self,
        sets: &[String],
        set_error: &dyn Fn(usize, String) -> InputError,
    ) -> Result<Variant, InputError> {
        let mut program = (*self.program).clone();
        apply_sets(&mut program, sets, set_error)?;
        let header = header_of(&program, self.map.as_deref())?;
        if header.tiles != header_of(&self.program, self.map.as_deref())?.tiles {
            // Parameters that choose the tile sets: loaded again as loading loads them, from the
            // texts read the first time (nothing is read twice, and the browser has no files).
            return self.again_with(sets, set_error);
        }
        let cfg = &self.config;
        let loaded = Loaded {
            name: cfg.variant.clone(),
            rules: cfg.rules.clone(),
            tiles: (*cfg.tiles).clone(),
            counts: cfg.counts.clone(),
            start_tile: cfg.start_tile,
            map: cfg.map.clone(),
            sources: cfg.sources.clone(),
        };
        let config = game_config(&program, &header, loaded);
        Ok(Variant {
            name: self.name.clone(),
            program: Arc::new(program),
            config: Arc::new(config),
            map: self.map.clone(),
            players: header.players,
            warnings: self.warnings.clone(),
            texts: self.texts.clone(),
        })
    }

    /// This variant loaded again with `sets`, from the texts it was read from (a file it did not
    /// read, such as a tile set the new values name, is read as loading reads it).
    fn again_with(
        &self,
        sets: &[String],
        set_error: &dyn Fn(usize, String) -> InputError,
    ) -> Result<Variant, InputError> {
        let rules = &self.config.rules;
        let bundled = format!("rules/{rules}.rules");
        match self
            .texts
            .iter()
            .find(|s| s.name == *rules || (is_bundled_rules(rules) && s.name == bundled))
        {
            Some(main) => variant_from_texts(main, rules, sets, set_error, &self.texts),
            None => load_variant_with(rules, sets, set_error),
        }
    }

    /// A new game of this variant, run by the interpreter; `cfg` is the variant's configuration,
    /// possibly with fixed tiles or start squares.
    pub fn new_game(
        &self,
        cfg: Arc<Config>,
        players: &[String],
        seed: u64,
        record: bool,
    ) -> Result<crate::game::Game<crate::lang::interp::Interp>, crate::game::GameError> {
        let board = match &self.map {
            Some(m) => crate::board::Board::from_map(m),
            None => crate::board::Board::unbounded(1),
        };
        let interp =
            crate::lang::interp::Interp::new(self.program.clone(), self.map.clone(), &board);
        crate::game::Game::new(cfg, interp, players, seed, record)
    }

    /// A problem of a running game, for people: a rule's failure (an overflow, the operation budget)
    /// points at the effect or expression that failed in its file, with the caret line (at the
    /// rule or action when the place is not known); anything else is said as is.
    pub fn explain(&self, e: &crate::game::GameError) -> String {
        self.locate(e).unwrap_or_else(|| format!("error: {e}\n"))
    }

    fn locate(&self, e: &crate::game::GameError) -> Option<String> {
        let (src, span, placed) = self.failed_at(e)?;
        let label = match placed {
            true => "failed here",
            false => "while running this",
        };
        let d = Diagnostic::error(e.code(), span, e.to_string()).with_label(label);
        Some(src.render(&[d]))
    }

    /// Where a rule's failure is: the file, the span, and whether it is the effect or expression
    /// that failed (else the first line of the rule or action).
    fn failed_at(
        &self,
        e: &crate::game::GameError,
    ) -> Option<(&Source, std::ops::Range<usize>, bool)> {
        let crate::game::GameError::Rule { rule, at, .. } = e else {
            return None;
        };
        if let Some(at) = at {
            let file = self.program.files.get(at.file as usize)?;
            let src = self.texts.iter().find(|s| s.name == *file)?;
            return Some((src, at.span(), true));
        }
        let (src, span) = self.rule_source(rule)?;
        Some((src, span, false))
    }

    /// Where a game error happened in the rules, said for a note under a move's error: `it
    /// failed at file:line:col` (the effect or expression), or `the rule is at file:line:col`.
    pub(crate) fn failure_note(&self, e: &crate::game::GameError) -> Option<String> {
        let (src, span, placed) = self.failed_at(e)?;
        let (line, col) = src.line_col(span.start);
        Some(match placed {
            true => format!("it failed at {}:{line}:{col}", src.name),
            false => format!("the rule is at {}:{line}:{col}", src.name),
        })
    }

    /// Where a house rule removes the action `name` (`file:line:col`), if one does.
    pub(crate) fn removal_of(&self, name: &str) -> Option<String> {
        let (_, origin) = self
            .program
            .removed_actions
            .iter()
            .find(|(n, _)| n == name)?;
        let file = self.program.files.get(origin.file as usize)?;
        let src = self.texts.iter().find(|s| s.name == *file)?;
        let (line, col) = src.line_col(origin.span.start.min(src.text.len()));
        Some(format!("{}:{line}:{col}", src.name))
    }

    /// The file of the rule or action `name` and the span of its first line.
    fn rule_source(&self, name: &str) -> Option<(&Source, std::ops::Range<usize>)> {
        let p = &self.program;
        let origin = p
            .rules
            .iter()
            .find(|r| r.name == name)
            .map(|r| &r.origin)
            .or_else(|| p.actions.iter().find(|a| a.name == name).map(|a| &a.origin))?;
        let file = p.files.get(origin.file as usize)?;
        let src = self.texts.iter().find(|s| s.name == *file)?;
        let start = origin.span.start.min(src.text.len());
        let end = src.text[start..]
            .find('\n')
            .map_or(src.text.len(), |i| start + i);
        Some((src, start..end))
    }

    /// Parameters in force, for the log.
    pub fn params(&self) -> Vec<(String, serde_json::Value)> {
        self.program
            .params
            .iter()
            .map(|p| (p.name.clone(), value_json(&self.program, p.value)))
            .collect()
    }
}

pub(crate) fn value_json(prog: &Program, v: Value) -> serde_json::Value {
    use serde_json::json;
    match v {
        Value::Int(i) => json!(i),
        Value::Bool(b) => json!(b),
        Value::Str(s) => json!(prog.strings.get(s as usize).cloned().unwrap_or_default()),
        Value::Colour(c) => json!(prog.colours.get(c as usize).cloned().unwrap_or_default()),
        Value::Kind(k) => json!(k.name()),
        Value::Range(a, b) => json!(format!("{a}..{b}")),
        Value::Table(t) => {
            let mut m = serde_json::Map::new();
            for (k, v) in prog.tables.get(t as usize).cloned().unwrap_or_default() {
                m.insert(k.to_string(), json!(v));
            }
            serde_json::Value::Object(m)
        }
        v => json!(format!("{v:?}")),
    }
}

/// Loads, checks and configures a variant. `sets` are `name=value` overrides of parameters.
pub fn load_variant(name_or_path: &str, sets: &[String]) -> Result<Variant, InputError> {
    load_variant_with(name_or_path, sets, &|i, e| {
        InputError::new(Code::BadSet, format!("error: `--set {}`: {e}", sets[i]))
    })
}

/// [`load_variant`], with the caller's rendering of a problem with a `name=value` override (given the
/// override's index in `sets` and the problem).
pub fn load_variant_with(
    name_or_path: &str,
    sets: &[String],
    set_error: &dyn Fn(usize, String) -> InputError,
) -> Result<Variant, InputError> {
    let source = rules_source(name_or_path)?;
    variant_from_source(&source, name_or_path, sets, set_error)
}

/// [`load_variant_with`] for a path typed on the command line, whatever its name: a name that is not
/// UTF-8 (Linux names are bytes) is read as it is and shown lossily (with `�`) in messages and in
/// the game's configuration; the files it names are found relative to its folder as for any file.
pub fn load_variant_at(
    path: &std::path::Path,
    sets: &[String],
    set_error: &dyn Fn(usize, String) -> InputError,
) -> Result<Variant, InputError> {
    if let Some(name) = path.to_str() {
        return load_variant_with(name, sets, set_error);
    }
    let name = path.to_string_lossy();
    let text = crate::files::read_text(path)
        .map_err(|e| InputError::new(Code::Unreadable, format!("error: {e}")))?;
    variant_from_source(&Source::new(&*name, text), &name, sets, set_error)
}

/// [`load_variant_with`] for rules text already read (`name_or_path` names it in the game's
/// configuration). What the text names (imports, map, tile sets) is read as for a file: bundled names,
/// else paths relative to `source.name`.
pub fn variant_from_source(
    source: &Source,
    name_or_path: &str,
    sets: &[String],
    set_error: &dyn Fn(usize, String) -> InputError,
) -> Result<Variant, InputError> {
    variant_from_texts(source, name_or_path, sets, set_error, &[])
}

/// [`variant_from_source`] with maps given as text ([`load_map_given`]): the header's `map` (and
/// a map's parts) may name one of them.
pub fn variant_from_texts(
    source: &Source,
    name_or_path: &str,
    sets: &[String],
    set_error: &dyn Fn(usize, String) -> InputError,
    maps: &[Source],
) -> Result<Variant, InputError> {
    let source = source.clone();
    let sources = Sources::new(&source, is_bundled_rules(name_or_path));
    let checked = checked_program(&source, &sources, maps)?;
    let (mut program, warnings) = (checked.program, checked.warnings);
    apply_sets(&mut program, sets, set_error)?;
    // Paths in a header are relative to the file whose header names them (an imported file's own
    // folder), as the checker read them.
    let naming = |key| Source::new(naming_file(&program, key).unwrap_or(&source.name), "");
    let map = match &program.header.map {
        Some(MapRef::Named(m)) => Some(Arc::new(match checked.map {
            // The map the checker loaded (read once).
            Some((_, board)) => board,
            None => load_map_given(m, &naming(HeaderKey::Map), Some(&sources), maps)
                .map_err(|e| InputError::new(Code::MapNotLoaded, e))?,
        })),
        _ => None,
    };
    let header = header_of(&program, map.as_deref())?;
    let (tiles, counts, start_tile) = load_tile_sets(
        &header.tiles,
        &naming(HeaderKey::Tiles),
        &sources,
        &checked.tile_sets,
    )?;
    let name = if program.header.name.is_empty() {
        name_or_path.to_string()
    } else {
        program.header.name.clone()
    };
    let (files, texts) = sources.into_parts();
    let loaded = Loaded {
        name: name.clone(),
        rules: name_or_path.to_string(),
        tiles,
        counts,
        start_tile,
        map: map.clone(),
        sources: files,
    };
    let config = game_config(&program, &header, loaded);
    Ok(Variant {
        name,
        program: Arc::new(program),
        config: Arc::new(config),
        map,
        players: header.players,
        warnings,
        texts,
    })
}

/// A rules file checked: the program, the checker's warnings rendered, and the map and tile sets
/// the checker read (each file is read once).
struct Checked {
    program: Program,
    warnings: String,
    map: Option<(String, MapBoard)>,
    tile_sets: Vec<(Source, crate::tiles::TileSet)>,
}

/// The rules file checked (with everything it imports, the map and the tile sets it names,
/// recorded in `sources`) and lowered; a file that declares no variant of its own is refused (it is
/// shared rules, for variants to import).
fn checked_program(
    source: &Source,
    sources: &Sources,
    maps: &[Source],
) -> Result<Checked, InputError> {
    let loader = |name: &str, from: &Source| load_map_given(name, from, Some(sources), maps);
    let result = check_source(source, &RecordingRules(sources), &loader);
    if result.errors() > 0 {
        return Err(InputError::located(result.diagnostics));
    }
    let warnings = render(&result);
    let Some(program) = result.program else {
        return Err(InputError::located(result.diagnostics));
    };
    if !result.declares_variant {
        return Err(InputError::new(
            Code::SharedRules,
            format!(
                "error: `{}` declares no variant: it is shared rules for variants to import\n  \
             to play it, add a header `variant \"name\" {{ … }}`; bundled variants: {}",
                source.name,
                variant_names().join(", ")
            ),
        ));
    }
    Ok(Checked {
        program,
        warnings,
        map: result.map,
        tile_sets: result.tile_sets,
    })
}

/// Sets the parameters `name=value` of `sets`; a problem names the parameter's type, default and
/// allowed values.
fn apply_sets(
    program: &mut Program,
    sets: &[String],
    set_error: &dyn Fn(usize, String) -> InputError,
) -> Result<(), InputError> {
    for (i, s) in sets.iter().enumerate() {
        let Some((k, v)) = s.split_once('=') else {
            return Err(set_error(i, "write it as `name=value`".into()));
        };
        let (k, v) = (k.trim(), v.trim());
        program
            .set_param(k, v)
            .map_err(|e| match program.param_index(k) {
                Some(p) => set_error(i, format!("{e}{}", param_help(program, p as usize))),
                None => set_error(i, e),
            })?;
    }
    // Ranges that read other parameters (`in 0..max_x`), once every value is set: the blame goes to
    // the parameter's own `set`, or else to the last one (the defaults were checked).
    if let Some((p, why)) = program.check_ranges() {
        let name = &program.params[p].name;
        let own = sets
            .iter()
            .rposition(|s| s.split_once('=').is_some_and(|(k, _)| k.trim() == name));
        let at = own.unwrap_or(sets.len().saturating_sub(1));
        return Err(set_error(at, format!("{why}{}", param_help(program, p))));
    }
    Ok(())
}

/// What a parameter takes: its type and default, and its allowed values when it lists them.
fn param_help(program: &Program, p: usize) -> String {
    let p = &program.params[p];
    // Written as `--set` takes it: a table as `{1: 1, 2: 3}`, a string or range bare.
    let show = |v: Value| match (v, value_json(program, v)) {
        (Value::Table(t), _) => {
            let entries = program.tables.get(t as usize).cloned().unwrap_or_default();
            let parts: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            format!("{{{}}}", parts.join(", "))
        }
        (_, serde_json::Value::String(s)) => s,
        (_, j) => j.to_string(),
    };
    let k = &p.name;
    let mut e = format!(
        "\n  `{k}` takes a value of type {} (its default: `{k}={}`)",
        p.ty,
        show(p.default)
    );
    if !p.one_of.is_empty() {
        let allowed: Vec<String> = p.one_of.iter().map(|v| show(*v)).collect();
        e.push_str(&format!("; one of: {}", allowed.join(", ")));
    }
    e
}

/// The header's values (players, followers, start squares, tile sets) on the loaded map.
fn header_of(
    program: &Program,
    map: Option<&MapBoard>,
) -> Result<crate::header::HeaderValues, InputError> {
    crate::header::header_values(program, map.map(|m| m.starts.len())).map_err(|problems| {
        let lines: Vec<String> = problems
            .iter()
            .map(|p| {
                let note = p
                    .note
                    .as_ref()
                    .map(|n| format!("\n  {n}"))
                    .unwrap_or_default();
                format!("error: in the variant's header: {}{note}", p.message)
            })
            .collect();
        InputError::new(Code::HeaderRefused, lines.join("\n"))
    })
}

/// The tile sets the header names (bundled, or paths relative to `from`, the file whose header names
/// them), recorded in `sources`, compiled: the tile types, their counts and the start tile. A set
/// the checker has read and parsed (`read`, by path) is not read again.
fn load_tile_sets(
    names: &[String],
    from: &Source,
    sources: &Sources,
    read: &[(Source, crate::tiles::TileSet)],
) -> Result<(Vec<crate::compiled::CompiledTile>, Vec<u32>, u16), InputError> {
    let mut sets = Vec::new();
    for t in names {
        let bundled = bundled_tile_set(t);
        let mut checked = None;
        let src = match bundled {
            Some(text) => Source::new(format!("maps/tiles/{t}.toml"), text),
            None => {
                // As the checker reads it: a `.toml` file beside the rules, never an absolute path.
                let p = crate::header::header_path(&from.name, t)
                    .map_err(|e| {
                        InputError::new(Code::TileSetNotLoaded, format!("error: tile set: {e}"))
                    })?
                    .display()
                    .to_string();
                match read.iter().find(|(s, _)| s.name == p) {
                    Some((s, set)) => {
                        checked = Some(set.clone());
                        s.clone()
                    }
                    None => Source::new(p.clone(), read_text(&p)?),
                }
            }
        };
        sources.record(&src, bundled.is_some());
        let parsed = match (checked, crate::tiles::parse_bundled(t)) {
            (Some(set), _) => Ok(set),
            (None, Some(parsed)) => parsed,
            (None, None) => parse_tile_set(t, &src),
        };
        sets.push(parsed.map_err(|d| InputError::in_file(&src, d))?);
    }
    let (tiles, counts, start) = compile_tiles(&sets);
    let total: u64 = counts.iter().map(|&c| c as u64).sum();
    if total > MAX_TILES {
        return Err(InputError::new(
            Code::TooMany,
            format!(
                "error: the tile sets {} hold {total} tiles; a game takes at most {MAX_TILES}",
                names.join(", ")
            ),
        ));
    }
    let Some(start_tile) = start else {
        return Err(InputError::new(
            Code::HeaderRefused,
            "error: none of the tile sets has a start tile",
        ));
    };
    Ok((tiles, counts, start_tile))
}

/// Resolves imports and map parts by bundled name only, never reading the disk: for loading
/// untrusted text (the fuzz targets, the hostile-input tests).
pub struct BundledOnly;

impl crate::lang::check::RulesResolver for BundledOnly {
    fn resolve(&self, name: &str, _from: &Source) -> Result<Source, String> {
        BUNDLED_RULES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, t)| Source::new(format!("rules/{n}.rules"), *t))
            .ok_or_else(|| format!("no bundled rules `{name}`"))
    }
}

impl crate::map::MapResolver for BundledOnly {
    fn resolve(&self, name: &str, _from: &Source) -> Result<Source, String> {
        bundled_map(name)
            .map(|t| Source::new(name, t))
            .ok_or_else(|| format!("no bundled map `{name}`"))
    }
}

impl BundledOnly {
    /// Loads a bundled map by name (the checker's map loader, without the disk).
    pub fn load_map(name: &str, _from: &Source) -> Result<MapBoard, String> {
        if bundled_map(name).is_none() {
            return Err(format!("no bundled map `{name}`"));
        }
        parsed_bundled_map(name).map(|(map, _)| map)
    }
}

#[cfg(test)]
mod given_maps {
    use super::*;

    const RULES: &str = "variant \"v\" {\n  map = \"mine.toml\"\n  tiles = [\"base\"]\n}\n";
    const MAP: &str = "name = \"Given\"\ngrid = \"\"\"\n~~~~\n~..~\n~..~\n~~~~\n\"\"\"\n[legend]\n\"~\" = \"sea\"\n\".\" = \"land\"\n";

    fn no_sets(_: usize, e: String) -> InputError {
        InputError::new(Code::BadSet, e)
    }

    /// A bundled map's name and board (whichever is first: tests in src/ name no bundled data).
    fn some_bundled_map() -> (&'static str, MapBoard) {
        let name = crate::map::bundled_maps().next().unwrap();
        (name, load_map(name, &Source::new("./", "")).unwrap())
    }

    /// A map given as text (with a given part and a bundled part) is the header's map, and is
    /// recorded as a file beside the rules, with its hash; nothing is read from the disk.
    #[test]
    fn a_map_given_as_text_is_the_headers_map() {
        let (bundled, board) = some_bundled_map();
        let half = "grid = \"\"\"\n~.~\n\"\"\"\n[legend]\n\"~\" = \"sea\"\n\".\" = \"land\"\n";
        let composite = format!("[[part]]\nmap = \"half.toml\"\noffset = [0, 0]\n\n[[part]]\nmap = \"{bundled}\"\noffset = [0, 1]\n");
        let maps = [
            Source::new("mine.toml", composite),
            Source::new("half.toml", half),
        ];
        let rules = Source::new("my.rules", RULES);
        let v = variant_from_texts(&rules, "my.rules", &[], &no_sets, &maps).unwrap();
        let keys: Vec<&str> = v.config.sources.iter().map(|f| f.key.as_str()).collect();
        let bundled_key = format!("bundled:maps/{bundled}.toml");
        for k in ["my.rules", "mine.toml", "half.toml", bundled_key.as_str()] {
            assert!(keys.contains(&k), "{k} in {keys:?}");
        }
        let mine = v.map.as_deref().unwrap();
        assert_eq!(
            (mine.width, mine.height),
            (board.width.max(3), board.height + 1),
            "the bundled map below the given part"
        );
        // Without the texts, the same rules name a file that is not there.
        let e = variant_from_source(&rules, "my.rules", &[], &no_sets)
            .err()
            .unwrap();
        assert!(e.text.contains("cannot load map `mine.toml`"), "{}", e.text);
    }

    /// A map given under a bundled map's name does not replace the bundled map.
    #[test]
    fn a_given_map_never_shadows_a_bundled_one() {
        let (bundled, board) = some_bundled_map();
        let maps = [Source::new(bundled, MAP)];
        let rules = Source::new("my.rules", RULES.replace("mine.toml", bundled));
        let v = variant_from_texts(&rules, "my.rules", &[], &no_sets, &maps).unwrap();
        assert_eq!(v.map.as_deref().unwrap().name, board.name);
        assert_ne!(board.name, "Given");
    }
}

#[cfg(test)]
mod read_once {
    use super::*;

    fn no_sets(_: usize, e: String) -> InputError {
        InputError::new(Code::BadSet, e)
    }

    const RULES: &str = "variant \"v\" {\n  map = \"mine.toml\"\n  tiles = [\"extra.toml\"]\n}\n";
    const MAP: &str = "name = \"Mine\"\ngrid = \"\"\"\n~~~~\n~..~\n~..~\n~~~~\n\"\"\"\n[legend]\n\"~\" = \"sea\"\n\".\" = \"land\"\n[[start]]\nname = \"Home\"\nat = [1, 1]\n";
    const TILES: &str = "[[tile]]\nid = \"A\"\ncount = 3\nstart = 1\nedges = \"FFFF\"\nfields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Es\", \"Se\", \"Sw\", \"Ws\", \"Wn\"] }]\n";

    /// Loading a variant from files reads each of them once: the rules file, the map and the tile
    /// set its header names (the checker's reads are the loader's).
    #[test]
    fn each_file_is_read_once() {
        let dir = std::env::temp_dir().join(format!("carto-read-once-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in [
            ("my.rules", RULES),
            ("mine.toml", MAP),
            ("extra.toml", TILES),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let rules = dir.join("my.rules").display().to_string();
        let v = load_variant(&rules, &[]).unwrap();
        assert_eq!(v.map.as_deref().map(|m| m.name.as_str()), Some("Mine"));
        assert_eq!(v.config.counts, [3]);
        for name in ["my.rules", "mine.toml", "extra.toml"] {
            assert_eq!(crate::files::times_read(&dir.join(name)), 1, "{name}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A variant loaded once and given parameters (a sweep's points) is the variant loaded with
    /// them, and its rules file is read once.
    #[test]
    fn with_sets_is_loading_with_sets_without_reading_again() {
        let dir = std::env::temp_dir().join(format!("carto-with-sets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rules = RULES
            .replace(
                "variant",
                "param bonus: int in 0..9 = 1\nparam most: int in 1..6 = 4\nvariant",
            )
            .replace(
                "}\n",
                "  players = 2..most\n}\nrule r on placed { score(player, bonus) }\n",
            );
        for (name, text) in [
            ("p.rules", rules.as_str()),
            ("mine.toml", MAP),
            ("extra.toml", TILES),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let path = dir.join("p.rules").display().to_string();
        let loaded = load_variant(&path, &[]).unwrap_or_else(|e| panic!("{}", e.text));
        let sets = ["bonus=7".to_string(), "most=3".to_string()];
        let set = loaded.with_sets(&sets, &no_sets).unwrap();
        assert_eq!(crate::files::times_read(&dir.join("p.rules")), 1);
        let again = load_variant(&path, &sets).unwrap();
        assert_eq!(set.players, (2, 3));
        assert_eq!(set.players, again.players);
        let values = |v: &Variant| {
            v.program
                .params
                .iter()
                .map(|p| format!("{}={:?}", p.name, p.value))
                .collect::<Vec<_>>()
        };
        assert_eq!(values(&set), ["bonus=Int(7)", "most=Int(3)"]);
        assert_eq!(values(&set), values(&again));
        assert_eq!(
            values(&loaded),
            ["bonus=Int(1)", "most=Int(4)"],
            "the loaded variant is unchanged"
        );
        assert_eq!(set.config.counts, again.config.counts);
        let e = loaded
            .with_sets(&["most=9".to_string()], &no_sets)
            .err()
            .unwrap();
        assert!(e.text.contains("most"), "{}", e.text);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A parameter that chooses the tile sets, given new values: the variant is loaded again from
    /// the texts it was read from, so rules that were never a file (the playground's) take them too.
    #[test]
    fn with_sets_choosing_tile_sets_needs_no_file() {
        let rules = "import \"base\"\nparam second: string = \"base\"\nvariant \"ts\" {\n  tiles = [\"base\", second]\n}\n";
        let src = Source::new("not-a-file.rules", rules);
        let loaded = variant_from_texts(&src, "not-a-file.rules", &[], &no_sets, &[])
            .unwrap_or_else(|e| panic!("{}", e.text));
        // Another bundled tile set than the base set, whichever it is.
        let other = crate::tiles::bundled_tile_sets()
            .find(|n| *n != "base")
            .unwrap();
        let sets = [format!("second={other}")];
        let set = loaded
            .with_sets(&sets, &no_sets)
            .unwrap_or_else(|e| panic!("{}", e.text));
        let again = variant_from_texts(&src, "not-a-file.rules", &sets, &no_sets, &[]).unwrap();
        assert_eq!(set.config.counts, again.config.counts);
        assert_ne!(set.config.counts, loaded.config.counts);
        assert_eq!(set.config.sources, again.config.sources);
    }

    /// A house rule imports a variant from another folder whose header names its map and a tile
    /// set relatively: they are beside the imported file (where the checker finds them), not beside
    /// the house rule, and each is read once.
    #[test]
    fn a_header_names_its_files_relative_to_itself() {
        let dir = std::env::temp_dir().join(format!("carto-header-paths-{}", std::process::id()));
        let lib = dir.join("lib");
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::write(
            dir.join("house.rules"),
            "import \"lib/my.rules\"\nvariant \"house\" {\n  title = \"House\"\n}\n",
        )
        .unwrap();
        for (name, text) in [
            ("my.rules", RULES),
            ("mine.toml", MAP),
            ("extra.toml", TILES),
        ] {
            std::fs::write(lib.join(name), text).unwrap();
        }
        let house = dir.join("house.rules").display().to_string();
        let v = load_variant(&house, &[]).unwrap_or_else(|e| panic!("{}", e.text));
        assert_eq!(v.map.as_deref().map(|m| m.name.as_str()), Some("Mine"));
        assert_eq!(v.config.counts, [3]);
        for name in ["mine.toml", "extra.toml"] {
            assert_eq!(crate::files::times_read(&lib.join(name)), 1, "{name}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
