//! For the interpreter's unit tests: a small variant on the endless table from a few lines of
//! rules, and its random games played one after another in one interpreter (as `bench` does).

use super::Interp;
use crate::variant::Variant;

/// A variant named "probe" with `chips` (the inside of a `chips { … }` block) and `rules`.
pub(super) fn variant(chips: &str, rules: &str) -> Variant {
    let text = format!(
        "variant \"probe\" {{\n  title = \"Probe\"\n  doc = \"unit tests\"\n}}\n\
         chips {{ {chips} }}\n{rules}\n"
    );
    let source = crate::diag::Source::new("probe.rules", text);
    let no_sets = |_: usize, e: String| crate::variant::InputError(e);
    match crate::variant::variant_from_source(&source, "probe.rules", &[], &no_sets) {
        Ok(v) => v,
        Err(e) => panic!("probe rules: {}", e.0),
    }
}

/// The final scores of random games with seeds `0..seeds`, and the interpreter at the end.
pub(super) fn scores(v: &Variant, players: &[&str], seeds: u64) -> (Vec<Vec<i64>>, Interp) {
    let players: Vec<String> = players.iter().map(|p| (*p).to_string()).collect();
    let mut g = v
        .new_game(v.config.clone(), &players, 0, false)
        .expect("a game starts");
    let mut out = Vec::new();
    for seed in 0..seeds {
        g.reset(&players, seed, false).expect("a game resets");
        let mut rng = crate::rng::Rng::new(seed);
        crate::game::play_random(&mut g, &mut rng).expect("the game runs");
        out.push(g.st.players.iter().map(|p| p.score).collect());
    }
    (out, g.hooks)
}
