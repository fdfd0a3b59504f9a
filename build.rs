//! Embeds every bundled rules file: whatever lies in `rules/*.rules` is bundled under its file name, in
//! name order. The maps and tile sets are bundled by the engine crate (`crates/engine/build.rs`).

use std::fmt::Write as _;
use std::path::Path;

fn table(out: &mut String, name: &str, dir: &Path, ext: &str) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<(String, String)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().and_then(|x| x.to_str()) == Some(ext) && p.is_file() {
                if let Some(stem) = p.file_stem().and_then(|s| s.to_str()) {
                    println!("cargo:rerun-if-changed={}", p.display());
                    files.push((stem.to_string(), p.display().to_string()));
                }
            }
        }
    }
    files.sort();
    let _ = writeln!(out, "pub const {name}: &[(&str, &str)] = &[");
    for (stem, path) in files {
        let _ = writeln!(out, "    ({stem:?}, include_str!({path:?})),");
    }
    let _ = writeln!(out, "];");
}

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let root = Path::new(&root);
    let mut out = String::new();
    table(&mut out, "RULES", &root.join("rules"), "rules");
    let dest =
        Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("bundled.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}
