//! What a generated rules file may name from outside itself: the maps it can play on (with their square
//! attributes and the names of their towns and start squares) and the rules files it can import (with
//! their rules, for house rules, and their chip colours). Read at run time from the bundled `maps/` and
//! `rules/` through the normal loaders, so no map, attribute or variant is named in the generator.

use carto::diag::Source;
use carto::lang::builtins::{Trigger, Ty};
use carto::lang::check::attribute_types;
use carto::map::{parse_map, BundledResolver, MapBoard};
use carto::variant::{variant_from_source, InputError};
use std::sync::{Arc, OnceLock};

/// A map a generated file may name in its header.
#[derive(Clone, Debug)]
pub struct MapChoice {
    /// The name the header gives (`map = "NAME"`).
    pub name: String,
    /// The map, loaded.
    pub board: Arc<MapBoard>,
    /// Names of its start squares and towns (string literals worth comparing with).
    pub places: Vec<String>,
}

/// A rules file a generated file may import.
#[derive(Clone, Debug)]
pub struct ImportChoice {
    pub name: String,
    /// The rules it brings, with their triggers (for `remove`, `replace` and `change rule`).
    pub rules: Vec<(String, Trigger)>,
    /// The chip colours it declares (none: the generated file declares its own chips).
    pub colours: Vec<String>,
    /// The square attributes its rules read: a map it is played on must have them.
    pub attrs: Vec<String>,
}

impl MapChoice {
    /// Whether the map has every attribute the import reads.
    pub fn suits(&self, import: &ImportChoice) -> bool {
        let names = self.board.attr_names();
        import.attrs.iter().all(|a| names.contains_key(a))
    }

    /// Its square attributes with the types the checker gives them when `colours` are the chip
    /// colours, in name order (attributes of mixed types left out).
    pub fn attrs(&self, colours: &[String]) -> Vec<(String, Ty)> {
        attribute_types(&self.board, colours)
            .into_iter()
            .filter(|(_, t)| !t.is_any())
            .collect()
    }
}

/// Everything a generated file may name from outside itself.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub maps: Vec<MapChoice>,
    pub imports: Vec<ImportChoice>,
}

impl Catalog {
    /// The bundled maps and rules files, read once.
    pub fn bundled() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| Catalog {
            maps: carto::bundled::MAPS
                .iter()
                .filter_map(|(name, text)| map_choice(name, text))
                .collect(),
            imports: carto::bundled::RULES
                .iter()
                .filter_map(|(name, _)| import_choice(name))
                .collect(),
        })
    }
}

/// A map that loads and has a start square (parts of composite maps may have none).
fn map_choice(name: &str, text: &str) -> Option<MapChoice> {
    let board = parse_map(&Source::new(name, text), &BundledResolver).ok()?;
    if board.starts.is_empty() {
        return None;
    }
    Some(MapChoice {
        name: name.to_string(),
        places: places(&board),
        board: Arc::new(board),
    })
}

fn places(board: &MapBoard) -> Vec<String> {
    let starts = board.starts.iter().map(|s| s.name.clone());
    let towns = board
        .squares
        .iter()
        .filter(|s| s.town)
        .filter_map(|s| s.name.clone());
    let mut out: Vec<String> = Vec::new();
    for name in starts.chain(towns) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// A rules file that a variant of its own, on no map, can import: it checks and loads.
fn import_choice(name: &str) -> Option<ImportChoice> {
    let text = format!("import \"{name}\"\nvariant \"probe\" {{\n  title = \"Probe\"\n}}\n");
    let source = Source::new("probe.rules", text.as_str());
    let no_sets = |_: usize, e: String| InputError::new(carto::diag::Code::BadSet, e);
    let variant = variant_from_source(&source, "probe.rules", &[], &no_sets).ok()?;
    let p = &variant.program;
    Some(ImportChoice {
        name: name.to_string(),
        rules: p
            .rules
            .iter()
            .map(|r| (r.name.clone(), r.trigger))
            .collect(),
        colours: p.colours.clone(),
        attrs: p.attrs.iter().map(|a| a.name.clone()).collect(),
    })
}
