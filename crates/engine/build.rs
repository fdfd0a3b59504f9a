//! Embeds every bundled map and tile set: whatever lies in `maps/*.toml` and `maps/tiles/*.toml` (at
//! the workspace's root) is bundled under its file name, in name order. The rules files are bundled
//! by the `carto` crate's own build script.

#[path = "bundle_table.rs"]
mod bundle_table;

use bundle_table::table;
use std::path::Path;

fn main() {
    let here = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let root = Path::new(&here).join("../..");
    let mut out = String::new();
    table(&mut out, "MAPS", &root.join("maps"), "toml");
    table(&mut out, "TILE_SETS", &root.join("maps/tiles"), "toml");
    let dest =
        Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("bundled.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}
