//! `carto list`: the bundled variants, one a line.

use super::{emit_json, Failure, Format};
use carto::variant::load_variant;
use serde_json::{json, Value};

const EXAMPLES: &str = "\
Examples:
  carto list                  one variant a line: name, title, map, players
  carto list --format json    the same as a JSON array";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// `text` (one line a variant) or `json` (an array of objects: name, title, map, min_players,
    /// max_players).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// What `list` says of one bundled variant.
struct Entry {
    name: &'static str,
    title: String,
    /// The map's name; `None` on the endless table.
    map: Option<String>,
    players: (usize, usize),
}

impl Args {
    /// Asks for JSON: a failure is written as JSON too (with its code).
    pub(crate) fn json(&self) -> bool {
        self.format == Format::Json
    }
}

pub(crate) fn run(a: Args) -> Result<(), Failure> {
    let mut entries = Vec::new();
    for (name, _) in carto::variant::bundled_variants() {
        let v = load_variant(name, &[])?;
        entries.push(Entry {
            name,
            title: title(&v),
            map: v.map.as_ref().map(|m| m.name.clone()),
            players: v.players,
        });
    }
    match a.format {
        Format::Text => {
            for e in &entries {
                emitln!(
                    "{:<14} {} ({}, {}-{} players)",
                    e.name,
                    e.title,
                    e.map.as_deref().unwrap_or("endless table"),
                    e.players.0,
                    e.players.1
                );
            }
        }
        Format::Json => {
            let list: Vec<Value> = entries
                .iter()
                .map(|e| {
                    json!({
                        "name": e.name,
                        "title": e.title,
                        "map": e.map,
                        "min_players": e.players.0,
                        "max_players": e.players.1,
                    })
                })
                .collect();
            emit_json(&Value::Array(list));
        }
    }
    Ok(())
}

/// The `title` of a variant's header ("" when it has none).
fn title(v: &carto::variant::Variant) -> String {
    v.program
        .header
        .entries
        .iter()
        .find(|e| e.key == carto::lang::builtins::HeaderKey::Title)
        .and_then(|e| match &e.value {
            carto::lang::ir::Expr::Const(carto::lang::ir::Value::Str(s)) => {
                v.program.strings.get(*s as usize).cloned()
            }
            _ => None,
        })
        .unwrap_or_default()
}
