//! Hostile input never panics a loader (issue 5).
//!
//! - `regressions`: every file under `tests/regressions/{rules,map,tiles,script}/` (inputs the fuzz
//!   targets once crashed on) goes through its loader.
//! - The proptest smoke: random bytes, and random mutations (byte flips, insertions, deletions, line
//!   swaps) of every bundled rules file, map and tile set and of every script under `tests/scripts/`,
//!   go through the same loaders. A panic fails the test; an error is the expected outcome.
//!
//! The loaders are those of the fuzz targets (`fuzz/fuzz_targets/`): imports and maps resolve only to
//! bundled names, and scripts always run the bundled `base` variant, so nothing reads the disk.

use carto::diag::Source;
use carto::lang::check::{check_source, render};
use carto::map::parse_map;
use proptest::prelude::*;
use std::path::Path;

use carto::variant::BundledOnly as Bundled;

fn load_rules(text: &str) {
    let src = Source::new("hostile.rules", text);
    let result = check_source(&src, &Bundled, &Bundled::load_map);
    let _ = render(&result);
}

fn load_map(text: &str) {
    let src = Source::new("hostile.toml", text);
    match parse_map(&src, &Bundled) {
        Ok(map) => {
            let _ = carto::board::Board::from_map(&map);
        }
        Err(d) => {
            let _ = src.render(&d);
        }
    }
}

fn load_tiles(text: &str) {
    let src = Source::new("hostile.toml", text);
    match carto::tiles::parse_tile_set("hostile", &src) {
        Ok(set) => {
            let _ = carto::game::compile_tiles(&[set]);
        }
        Err(d) => {
            let _ = src.render(&d);
        }
    }
}

/// Runs a script with the bundled `base` variant: `variant` lines are dropped (kept as empty lines, so
/// line numbers hold) and `variant base` comes first.
fn load_script(text: &str) {
    let mut script = String::from("variant base\n");
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("variant") {
            script.push('\n');
        } else {
            script.push_str(line);
        }
    }
    let src = Source::new("hostile.script", script);
    if let Ok(run) = carto::script::run_script(&src) {
        let _ = carto::output::transcript(&run.game);
    }
}

/// The `play` target's body: the bytes steer the generator (they are not text).
fn load_play(bytes: &[u8]) {
    let _ = carto_gen::trial::play_generated(bytes);
}

fn loader(kind: &str) -> fn(&str) {
    match kind {
        "rules" => load_rules,
        "map" => load_map,
        "tiles" => load_tiles,
        "script" => load_script,
        _ => panic!("no loader for `{kind}`"),
    }
}

const KINDS: [&str; 5] = ["rules", "map", "tiles", "script", "play"];

#[test]
fn regressions() {
    for kind in KINDS {
        let dir = Path::new("tests/regressions").join(kind);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            if f.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let bytes = std::fs::read(&f).unwrap();
            eprintln!("{}", f.display());
            if kind == "play" {
                load_play(&bytes);
                continue;
            }
            let text = String::from_utf8_lossy(&bytes);
            loader(kind)(&text);
        }
    }
}

// ------------------------------------------------------------------ the proptest smoke

fn scripts(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scripts(&p, out);
        } else if p.extension().is_some_and(|e| e == "script") {
            out.push(std::fs::read_to_string(&p).unwrap());
        }
    }
}

/// Every seed file, with its kind.
fn seeds() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for (_, t) in carto::bundled::RULES {
        out.push(("rules", t.to_string()));
    }
    for (_, t) in carto::bundled::MAPS {
        out.push(("map", t.to_string()));
    }
    for (_, t) in carto::bundled::TILE_SETS {
        out.push(("tiles", t.to_string()));
    }
    let mut s = Vec::new();
    scripts(Path::new("tests/scripts"), &mut s);
    out.extend(s.into_iter().map(|t| ("script", t)));
    out
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    SwapLines(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Inserted bytes favour the characters that matter to the parsers.
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"(){}[]\"'=,.:#\n -+*/<>!0129azAZ_\\".to_vec()),
    ];
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(i, b)| Mutation::Flip(i, 1 << b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1usize..16).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
    ]
}

fn mutate(text: &str, muts: &[Mutation]) -> String {
    let mut b = text.as_bytes().to_vec();
    for m in muts {
        match *m {
            Mutation::Flip(i, bit) if !b.is_empty() => {
                let i = i % b.len();
                b[i] ^= bit;
            }
            Mutation::Insert(i, x) => {
                let i = i % (b.len() + 1);
                b.insert(i, x);
            }
            Mutation::Delete(i, n) if !b.is_empty() => {
                let i = i % b.len();
                let end = (i + n).min(b.len());
                b.drain(i..end);
            }
            Mutation::SwapLines(x, y) => {
                let mut lines: Vec<Vec<u8>> =
                    b.split(|&c| c == b'\n').map(<[u8]>::to_vec).collect();
                let n = lines.len();
                lines.swap(x % n, y % n);
                b = lines.join(&b'\n');
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(kind in 0usize..4, bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        loader(KINDS[kind])(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_files_never_panic(seed in any::<prop::sample::Index>(), muts in prop::collection::vec(mutation(), 1..6)) {
        let all = seeds();
        let (kind, text) = &all[seed.index(all.len())];
        loader(kind)(&mutate(text, &muts));
    }
}

/// Every seed file, a few mutations each: each file is covered whatever the random draws.
#[test]
fn every_file_mutated() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let strat = prop::collection::vec(mutation(), 1..6);
    for (kind, text) in seeds() {
        for _ in 0..4 {
            let muts = strat.new_tree(&mut runner).unwrap().current();
            loader(kind)(&mutate(&text, &muts));
        }
    }
}
