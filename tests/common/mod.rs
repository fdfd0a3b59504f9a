//! Shared helpers for the integration tests: running the built binary, scratch folders under the
//! system's temp dir, checking a rules file into the text the diagnostic snapshots hold (the
//! source, then the rendered diagnostics), and reading the bundled maps. A test file takes them with
//! `mod common;`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use carto::diag::Source;
use carto::lang::check::{check_source, render, BundledRules};
use carto::map::{parse_map, BundledResolver, MapBoard};

/// Runs `carto ARGS` from the repository root; (exit code, stdout, stderr).
pub fn carto(args: &[&str]) -> (i32, String, String) {
    carto_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Runs `carto ARGS` with `dir` as the current folder; (exit code, stdout, stderr).
pub fn carto_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_carto"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run carto");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The folder `carto-LABEL-PID` under the temp dir, created if missing (the test file's cases share
/// it: they write files of different names).
pub fn scratch_dir(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carto-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The folder `carto-LABEL-PID-CASE` under the temp dir, fresh and empty: one case's own.
pub fn fresh_dir(label: &str, case: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carto-{label}-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `NAME` in `dir` (making the folders it names) and returns its path.
pub fn write_file(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// Checks `src` as `test.rules` with bundled imports and maps: the source, then the rendered
/// diagnostics, as the check snapshots hold them.
pub fn check(src: &str) -> String {
    let source = Source::new("test.rules", src);
    let result = check_source(&source, &BundledRules, &carto::variant::load_map);
    source_and_diagnostics(src, &render(&result))
}

/// The text a diagnostic snapshot holds: the source, then the rendered diagnostics.
pub fn source_and_diagnostics(src: &str, diagnostics: &str) -> String {
    format!("----- SOURCE\n{src}\n----- DIAGNOSTICS\n{diagnostics}")
}

/// Reads `maps/<file>` from disk and parses it; on failure, panics with the rendered diagnostics.
pub fn load_map(file: &str) -> MapBoard {
    let path = format!("{}/maps/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let src = Source::new(path.as_str(), text);
    match parse_map(&src, &BundledResolver) {
        Ok(b) => b,
        Err(d) => panic!("{file} does not parse:\n{}", src.render(&d)),
    }
}

/// A map's large cities: at least two, every one named.
pub fn assert_large_cities_named(b: &MapBoard) {
    let named: Vec<&str> = b
        .large_cities
        .iter()
        .filter(|c| !c.name.is_empty())
        .map(|c| c.name.as_str())
        .collect();
    assert!(named.len() >= 2, "{}: named large cities {named:?}", b.name);
    assert_eq!(
        named.len(),
        b.large_cities.len(),
        "{}: every large city named",
        b.name
    );
}

/// A test that checks its source with `check` and snapshots the result, which must hold an error.
#[allow(unused_macros)]
macro_rules! error_snap {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            let out = $crate::common::check($src);
            assert!(out.contains("error"), "no error:\n{out}");
            insta::assert_snapshot!(stringify!($name), out);
        }
    };
}
#[allow(unused_imports)]
pub(crate) use error_snap;

/// A new game of the bundled variant `name` (seed `seed`, events recorded) for `seats` players named
/// ann, bob, cyd, dee and eve, in that order.
pub fn new_game(
    name: &str,
    seed: u64,
    seats: usize,
) -> carto::game::Game<carto::lang::interp::Interp> {
    let v = carto::variant::load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let names: Vec<String> = ["ann", "bob", "cyd", "dee", "eve"][..seats]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.new_game(v.config.clone(), &names, seed, true)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A copy of `game` in which what the deciding player may not see is shuffled: the draw stack, the
/// tiles under each tile stack's face-up top, the faces (colour and value) of the chips face down
/// outside the player's own area, the supply's order and the rules' generator.
pub fn shuffle_hidden(
    game: &carto::game::Game<carto::lang::interp::Interp>,
    rng: &mut carto::rng::Rng,
) -> carto::game::Game<carto::lang::interp::Interp> {
    let mut g = game.clone();
    let me = g.decider();
    rng.shuffle(&mut g.st.stack);
    for s in &mut g.st.tile_stacks {
        let n = s.tiles.len().saturating_sub(1);
        rng.shuffle(&mut s.tiles[..n]);
    }
    let hidden: Vec<usize> = (0..g.st.chips.len())
        .filter(|&i| !g.st.chips[i].face_up && g.st.chips[i].place != carto::state::Place::Hand(me))
        .collect();
    let mut faces: Vec<(u8, u8)> = hidden
        .iter()
        .map(|&i| (g.st.chips[i].colour, g.st.chips[i].value))
        .collect();
    rng.shuffle(&mut faces);
    for (&i, &(colour, value)) in hidden.iter().zip(&faces) {
        g.st.chips[i].colour = colour;
        g.st.chips[i].value = value;
    }
    rng.shuffle(&mut g.st.supply);
    g.st.rng = rng.fork();
    g.st.chips_changed();
    g
}
