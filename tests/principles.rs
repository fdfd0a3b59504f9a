//! Principle 1, "Rust knows tiles, not variants": no string literal in `src/` names a bundled map, a
//! bundled rules file or an attribute a bundled map gives its squares. The names are read from the
//! bundled data, so a new map or variant is covered at once. Words of the language itself (builtins,
//! fields, types) are allowed even when a map uses one as an attribute name (`slots`, `shields`), and so
//! is `base`, the engine's own tile set.

use carto::lang::builtins::{Base, Builtin, FIELDS};
use std::path::Path;

/// Every bundled map, rules file and square attribute name.
fn bundled_names() -> Vec<String> {
    let mut names: Vec<String> = carto::bundled::MAPS
        .iter()
        .chain(carto::bundled::RULES)
        .map(|(n, _)| n.to_string())
        .collect();
    for (name, text) in carto::bundled::MAPS {
        let src = carto::diag::Source::new(*name, *text);
        let board = carto::map::parse_map(&src, &carto::map::BundledResolver).unwrap();
        names.extend(board.attr_names().into_keys());
    }
    names.sort();
    names.dedup();
    names
}

/// Names the language gives meaning to.
fn language_words() -> Vec<&'static str> {
    let mut words: Vec<&str> = Builtin::ALL.iter().map(|b| b.info().name).collect();
    words.extend(FIELDS.iter().map(|(_, n, ..)| *n));
    words.extend(Base::NAMED.iter().map(|(n, _)| *n));
    words.push("base");
    words
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn src_names_no_bundled_map_variant_or_attribute() {
    let allowed = language_words();
    let names: Vec<String> = bundled_names()
        .into_iter()
        .filter(|n| !allowed.contains(&n.as_str()))
        .collect();
    assert!(
        names.iter().any(|n| n == "test"),
        "the names are read: {names:?}"
    );
    let mut files = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    rust_files(&root.join("src"), &mut files);
    for layer in ["engine", "lang", "gen"] {
        rust_files(&root.join("crates").join(layer).join("src"), &mut files);
    }
    files.sort();
    for below in ["crates/engine/src/state.rs", "crates/lang/src/parser.rs"] {
        assert!(
            files.iter().any(|f| f.ends_with(below)),
            "the lower layers' sources are read too ({below})"
        );
    }
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            for n in &names {
                if line.contains(&format!("\"{n}\"")) {
                    found.push(format!("{}:{}: \"{n}\"", f.display(), i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "src/ or crates/*/src/ names bundled data:\n{}",
        found.join("\n")
    );
}
