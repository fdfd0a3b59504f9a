//! Diagnostics of the other files the server serves: a script (played, as `carto check` plays it)
//! and a map or tile set (`.toml`, parsed as `carto check` parses it).

use super::analysis::{Doc, DocKind};
use crate::diag::{Diagnostic, Source};
use lsp_types as lt;

/// The diagnostics of a script or map document at `path`.
pub fn diagnostics(doc: &Doc, path: &str) -> Vec<lt::Diagnostic> {
    let source = Source::new(path, doc.text.as_str());
    let found: Vec<Diagnostic> = match doc.kind {
        DocKind::Script => match crate::script::run_script(&source) {
            Ok(run) => own(run.warnings, path),
            Err(e) if !e.diagnostics.is_empty() => own(e.diagnostics, path),
            Err(e) => vec![Diagnostic::error(
                e.code,
                0..0,
                e.text.trim_start_matches("error: ").trim(),
            )],
        },
        DocKind::Map if is_tile_set(&doc.text) => {
            let name = path
                .rsplit('/')
                .next()
                .unwrap_or(path)
                .trim_end_matches(".toml");
            crate::tiles::parse_tile_set(name, &source)
                .err()
                .unwrap_or_default()
        }
        DocKind::Map => crate::map::parse_map(&source, &crate::map::BundledResolver)
            .err()
            .unwrap_or_default(),
        DocKind::Rules => Vec::new(),
    };
    let ws = super::analysis::Workspace::default();
    found
        .iter()
        .map(|d| super::protocol::to_lsp(&ws, &doc.text, d, None))
        .collect()
}

fn own(diags: Vec<(Source, Diagnostic)>, path: &str) -> Vec<Diagnostic> {
    diags
        .into_iter()
        .filter(|(s, _)| s.name == path)
        .map(|(_, d)| d)
        .collect()
}

/// A tile set, as `carto check` tells one from a map: it has `[[tile]]` tables.
fn is_tile_set(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .any(|l| l == "[[tile]]" || l.starts_with("tile =") || l.starts_with("tile="))
}
