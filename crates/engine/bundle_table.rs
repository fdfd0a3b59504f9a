//! The one function both build scripts embed files with (`crates/lang/build.rs` for the rules, this crate's
//! `build.rs` for the maps and tile sets): every `*.EXT` file of a folder as a `NAME` table of
//! (file stem, contents), in name order.

use std::fmt::Write as _;
use std::path::Path;

pub fn table(out: &mut String, name: &str, dir: &Path, ext: &str) {
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
