//! `carto check`: every problem in rules files, maps, tile sets and scripts.

use super::{emit_json, plural, Failure, Format};
use carto::diag::Code;
use carto::variant::InputError;
use serde_json::json;

const EXAMPLES: &str = "\
Examples:
  carto check my.rules                    every error and warning, with file:line:col
  carto check my-map.toml my.script game.log   a map (or a tile set), a script (played), a log (replayed)
  carto check my.rules --format json      one JSON object (files, diagnostics), for an editor or CI";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// The rules files to check (paths; a bundled variant's name checks the bundled file); a map or
    /// tile-set file (`.toml`) is checked as one, a script (`.script`) by playing it, and a game log
    /// (`.log`) by replaying it, as `carto replay` does.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Checks against this map (a bundled name or a path) instead of the one the header names.
    #[arg(long, value_name = "MAP")]
    map: Option<std::path::PathBuf>,
    /// `text` (for people: the problems on stderr, then one summary line per file on stdout, such
    /// as `my.rules: 0 errors, 1 warning`) or `json` (one object on stdout: `files` and
    /// `diagnostics`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

impl Args {
    /// Asks for JSON: a failure is written as JSON too (with its code).
    pub(crate) fn json(&self) -> bool {
        self.format == Format::Json
    }
}

pub(crate) fn run(a: Args) -> Result<(), Failure> {
    // A map given on the command line is read once, for every file; one that cannot load is its
    // own problem, not the header's.
    let map = match a.map.as_deref() {
        None => None,
        Some(path) => match carto::variant::load_map_at(path) {
            Ok(board) => Some(board),
            Err(e) => {
                let e = e.trim_end().trim_start_matches("error: ");
                return Err(Failure::Input(InputError::new(
                    Code::MapNotLoaded,
                    format!(
                        "error: cannot load map `{}` (given by --map): {e}",
                        path.display()
                    ),
                )));
            }
        },
    };
    let mut report = Report {
        format: a.format,
        failed: false,
        files: Vec::new(),
        diagnostics: Vec::new(),
    };
    // Every file is checked, a missing one included (it is one error among the others).
    for path in &a.files {
        // A name that is not UTF-8 (Linux names are bytes) is read as it is, shown with `�`.
        let f = &*path.to_string_lossy();
        if f.ends_with(".toml") {
            match carto::files::read_text(path) {
                Ok(text) => {
                    let source = carto::diag::Source::new(f, text);
                    report.checked(&source, &check_data_file(&source));
                }
                Err(e) => {
                    report.unreadable(f, &InputError::new(Code::Unreadable, format!("error: {e}")))
                }
            }
            continue;
        }
        if f.ends_with(".log") {
            match carto::files::read_text(path) {
                Ok(text) => {
                    let source = carto::diag::Source::new(f, text);
                    match carto::replay::replay(&source) {
                        Ok(_) => report.checked(&source, &found(Vec::new())),
                        Err(e) if e.diagnostics.is_empty() => report.unreadable(f, &e),
                        Err(e) => report.checked(&source, &found(e.diagnostics)),
                    }
                }
                Err(e) => {
                    report.unreadable(f, &InputError::new(Code::Unreadable, format!("error: {e}")))
                }
            }
            continue;
        }
        if f.ends_with(".script") {
            match carto::files::read_text(path) {
                Ok(text) => {
                    let source = carto::diag::Source::new(f, text);
                    match carto::script::run_script(&source) {
                        Ok(run) => report.checked(&source, &found(run.warnings)),
                        Err(e) if e.diagnostics.is_empty() => report.unreadable(f, &e),
                        Err(e) => report.checked(&source, &found(e.diagnostics)),
                    }
                }
                Err(e) => {
                    report.unreadable(f, &InputError::new(Code::Unreadable, format!("error: {e}")))
                }
            }
            continue;
        }
        let source = match path.to_str() {
            Some(name) => carto::variant::rules_source(name),
            None => carto::files::read_text(path)
                .map(|text| carto::diag::Source::new(f, text))
                .map_err(|e| InputError::new(Code::Unreadable, format!("error: {e}"))),
        };
        match source {
            Ok(source) => report.checked(&source, &check_file(f, &source, map.as_ref())),
            Err(e) => report.unreadable(f, &e),
        }
    }
    if a.format == Format::Json {
        emit_json(&json!({"files": report.files, "diagnostics": report.diagnostics}));
    }
    if report.failed {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

/// Problems found in a file (or the files it reads), as a check's result.
fn found(
    diagnostics: Vec<(carto::diag::Source, carto::diag::Diagnostic)>,
) -> carto::lang::check::CheckResult {
    carto::lang::check::CheckResult {
        diagnostics,
        ..Default::default()
    }
}

/// Checks one rules file (against `map` when given), with a warning when `play` would refuse it
/// for declaring no variant.
fn check_file(
    name: &str,
    source: &carto::diag::Source,
    map: Option<&carto::map::MapBoard>,
) -> carto::lang::check::CheckResult {
    let loader = |m: &str, from: &carto::diag::Source| match map {
        Some(given) => Ok(given.clone()),
        None => carto::variant::load_map(m, from),
    };
    let mut result =
        carto::lang::check::check_source(source, &carto::lang::check::BundledRules, &loader);
    if result.errors() == 0 && !result.declares_variant {
        result
            .diagnostics
            .push((source.clone(), carto::variant::not_a_variant(name)));
    }
    result
}

/// Checks a map or tile-set file (`.toml`): a file with `[[tile]]` tables (or `tile = …`) is a tile set, any other
/// a map (its parts are read beside it).
fn check_data_file(source: &carto::diag::Source) -> carto::lang::check::CheckResult {
    let is_tile_set = source
        .text
        .lines()
        .map(str::trim)
        .any(|l| l == "[[tile]]" || l.starts_with("tile =") || l.starts_with("tile="));
    let diagnostics = if is_tile_set {
        let name = std::path::Path::new(&source.name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match carto::tiles::parse_tile_set(&name, source) {
            Ok(_) => Vec::new(),
            Err(d) => d,
        }
    } else {
        match carto::map::parse_map(source, &carto::map::BundledResolver) {
            Ok(_) => Vec::new(),
            Err(d) => d,
        }
    };
    found(
        diagnostics
            .into_iter()
            .map(|d| (source.clone(), d))
            .collect(),
    )
}

/// What `check` has found so far, in the format asked for: text goes out file by file, JSON at the
/// end.
struct Report {
    format: Format,
    failed: bool,
    files: Vec<serde_json::Value>,
    diagnostics: Vec<serde_json::Value>,
}

impl Report {
    /// A file that could not be read, or a problem without a position: one error.
    fn unreadable(&mut self, f: &str, e: &InputError) {
        self.failed = true;
        match self.format {
            Format::Text => {
                eprintln!("{}", e.text.trim_end());
                emitln!("{f}: 1 error, 0 warnings");
            }
            Format::Json => {
                let d = carto::output::unlocated_json(Some(f), e.code, &e.text);
                self.diagnostics.push(d)
            }
        }
        self.files
            .push(json!({"file": f, "errors": 1, "warnings": 0}));
    }

    /// A file checked: its diagnostics and its count of errors and warnings.
    fn checked(&mut self, source: &carto::diag::Source, result: &carto::lang::check::CheckResult) {
        let (e, w) = (result.errors(), result.diagnostics.len() - result.errors());
        self.failed |= e > 0;
        match self.format {
            Format::Text => {
                let text = carto::lang::check::render(result);
                if !text.is_empty() {
                    eprint!("{text}");
                }
                emitln!(
                    "{}: {e} error{}, {w} warning{}",
                    source.name,
                    plural(e),
                    plural(w)
                );
            }
            Format::Json => {
                self.diagnostics.extend(
                    result
                        .diagnostics
                        .iter()
                        .map(|(src, d)| carto::output::diagnostic_json(src, d)),
                );
                self.files
                    .push(json!({"file": source.name, "errors": e, "warnings": w}));
            }
        }
    }
}
