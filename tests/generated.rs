//! Issue 8, D: generated, well-typed rules files are checked and *played* a few turns each
//! (`carto_gen::trial`, the body of the `play` fuzz target in `fuzz/`): no panic, and no runaway (the
//! interpreter's operation budget ends a rule that keeps going with an error; the trial stops after
//! a few turns).
//!
//! - `sweep`: files from seeded bytes (our ChaCha generator), so the run is the same everywhere; it
//!   also asserts the generator is worth running: most files pass the checker and get played.
//!   `CARTO_GENERATED=N` runs N files instead of the default (long local runs).
//! - `proptest_smoke`: random bytes from proptest, which shrinks a failing case to a short file.

use carto::rng::Rng;
use carto_gen::trial::{play_generated, Trial};
use carto_gen::Catalog;
use proptest::prelude::*;

fn bytes(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let len = 64 + rng.below(2048) as usize;
    (0..len).map(|_| rng.below(256) as u8).collect()
}

fn files() -> u64 {
    std::env::var("CARTO_GENERATED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
}

/// Runs one trial; a panic is reported with the generated file.
fn trial(data: &[u8]) -> Trial {
    let data = data.to_vec();
    match std::panic::catch_unwind(|| play_generated(&data)) {
        Ok(t) => t,
        Err(_) => panic!(
            "panicked on the generated file:\n{}",
            carto_gen::rules_file(Catalog::bundled(), &data)
        ),
    }
}

#[test]
fn sweep() {
    let n = files();
    let (mut checked, mut played, mut errors, mut on_attributes) = (0, 0, 0, 0);
    for seed in 0..n {
        let t = trial(&bytes(seed));
        if t.checked {
            checked += 1;
        }
        if t.decisions > 0 {
            played += 1;
            if t.attributes_read {
                on_attributes += 1;
            }
        }
        if t.error.is_some() {
            errors += 1;
        }
    }
    eprintln!(
        "{n} files: {checked} passed the checker, {played} played ({on_attributes} reading map \
         attributes), {errors} stopped on a game error"
    );
    // The generator writes well-typed files: most pass the checker and are played.
    assert!(checked * 2 > n, "only {checked} of {n} passed the checker");
    assert!(played * 3 > n, "only {played} of {n} were played");
    // Maps and their attributes come from the loaded map data (`gen::Catalog`): files on maps with
    // attributes, reading them, are among those played.
    assert!(
        on_attributes * 10 > n,
        "only {on_attributes} of {n} played files read a map attribute"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn proptest_smoke(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        trial(&data);
    }
}

/// The catalog the generator names maps, attributes and imports from is read from the bundled data:
/// every bundled map with a start square and every bundled rules file that can be imported is in it,
/// and each map's attributes are those its squares carry.
#[test]
fn catalog_is_read_from_the_bundled_data() {
    let c = Catalog::bundled();
    for (name, text) in carto::bundled::MAPS {
        let src = carto::diag::Source::new(*name, *text);
        let board = carto::map::parse_map(&src, &carto::map::BundledResolver).unwrap();
        let listed = c.maps.iter().find(|m| m.name == *name);
        assert_eq!(listed.is_some(), !board.starts.is_empty(), "map {name}");
        if let Some(m) = listed {
            let names: Vec<String> = m.attrs(&[]).into_iter().map(|(a, _)| a).collect();
            let want: Vec<String> = board.attr_names().into_keys().collect();
            assert_eq!(names, want, "attributes of {name}");
        }
    }
    assert_eq!(c.imports.len(), carto::bundled::RULES.len());
    assert!(c.maps.iter().any(|m| !m.attrs(&[]).is_empty()));
    assert!(c.imports.iter().any(|i| i.colours.is_empty()));
    assert!(c.imports.iter().any(|i| !i.colours.is_empty()));
}
