//! `carto list`: the bundled variants, one a line.

use super::Failure;
use carto::variant::load_variant;

const EXAMPLES: &str = "\
Examples:
  carto list                  one variant a line: name, title, map, players
  carto list --format json    the same as a JSON array";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {}

pub fn run(_: Args) -> Result<(), Failure> {
    for (name, _) in carto::variant::bundled_variants() {
        let v = load_variant(name, &[])?;
        let title = v
            .program
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
            .unwrap_or_default();
        let map = v
            .map
            .as_ref()
            .map(|m| m.name.as_str())
            .unwrap_or("endless table");
        emitln!(
            "{name:<14} {title} ({map}, {}-{} players)",
            v.players.0,
            v.players.1
        );
    }
    Ok(())
}
