//! A script's tile ids (`tiles U, U, E`, `place U at 0,1 r90`, `start_tile D`): hover tells the
//! tile, completion offers the ids of the bundled tile sets.

use lsp_types::{CompletionItem, CompletionItemKind};
use std::ops::Range;

/// One tile of a bundled tile set, as its file describes it.
struct Tile {
    set: &'static str,
    id: String,
    name: String,
    count: String,
    edges: String,
}

/// Every tile of every bundled tile set, read from their TOML (`id`, `name`, `count`, `edges` of
/// each `[[tile]]`).
fn tiles() -> Vec<Tile> {
    let mut out = Vec::new();
    for set in crate::tiles::bundled_tile_sets() {
        let Some(text) = crate::tiles::bundled_tile_set(set) else {
            continue;
        };
        for block in text.split("[[tile]]").skip(1) {
            let field = |key: &str| {
                block
                    .lines()
                    .find_map(|l| l.trim().strip_prefix(key)?.trim_start().strip_prefix('='))
                    .map(|v| {
                        v.split('#')
                            .next()
                            .unwrap_or("")
                            .trim()
                            .trim_matches('"')
                            .to_string()
                    })
                    .unwrap_or_default()
            };
            out.push(Tile {
                set,
                id: field("id"),
                name: field("name"),
                count: field("count"),
                edges: field("edges"),
            });
        }
    }
    out
}

/// Whether the word at `span` of a script's line stands where a tile id goes.
fn tile_place(line: &str, word_start: usize) -> bool {
    let before = line[..word_start].trim_end();
    let first = line.split_whitespace().next().unwrap_or("");
    match first {
        "place" | "start_tile" => before == first,
        "tiles" => true,
        _ => false,
    }
}

/// The hover of a tile id at byte `at` of a script.
pub fn hover(text: &str, at: usize) -> Option<(String, Range<usize>)> {
    let (word, span, _) = super::hover::word_at(text, at)?;
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[span.start..]
        .find('\n')
        .map_or(text.len(), |i| span.start + i);
    if !tile_place(&text[line_start..line_end], span.start - line_start) {
        return None;
    }
    let found: Vec<String> = tiles()
        .into_iter()
        .filter(|t| t.id == word)
        .map(|t| {
            format!(
                "tile `{}` of `{}`: {} ({} in the set; edges N E S W: {})",
                t.id, t.set, t.name, t.count, t.edges
            )
        })
        .collect();
    (!found.is_empty()).then(|| (found.join("\n\n"), span))
}

/// The tile ids, where a script's line takes one.
pub fn complete(text: &str, at: usize) -> Vec<CompletionItem> {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..at];
    let word = line.len()
        - line
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
            .len();
    if !tile_place(line, line.len() - word) {
        return Vec::new();
    }
    tiles()
        .into_iter()
        .map(|t| CompletionItem {
            label: t.id.clone(),
            kind: Some(CompletionItemKind::CONSTANT),
            detail: Some(format!("{}: {}", t.set, t.name)),
            ..CompletionItem::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_ids_in_scripts() {
        let text = "variant base\ntiles U, E\nplace E at 0,1 r90\nexpect score ann 2\n";
        let (md, span) = hover(text, text.find("E at").unwrap()).unwrap();
        assert_eq!(&text[span], "E");
        assert!(md.starts_with("tile `E` of `base`: "), "{md}");
        assert!(hover(text, text.find("ann").unwrap()).is_none());
        let ids = complete(text, text.find(" at").unwrap());
        assert!(
            ids.iter().any(|i| i.label == "U") && ids.len() >= 24,
            "{}",
            ids.len()
        );
        assert!(complete(text, text.len() - 1).is_empty());
    }
}
