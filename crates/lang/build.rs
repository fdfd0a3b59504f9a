//! Embeds every bundled rules file: whatever lies in the repository's `rules/*.rules` is bundled under
//! its file name, in name order. The maps and tile sets are bundled by the engine crate
//! (`crates/engine/build.rs`).

#[path = "../engine/bundle_table.rs"]
mod bundle_table;

use bundle_table::table;
use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let root = Path::new(&root).join("../..");
    let mut out = String::new();
    table(&mut out, "RULES", &root.join("rules"), "rules");
    let dest =
        Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("bundled.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}
