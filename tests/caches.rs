//! The interpreter's caches in their checking mode (`carto-lang`'s `check-caches` feature, on for
//! these tests): random games of every bundled variant, 2, 3 and 5 players, in which every cached
//! value read is also computed afresh and compared (a difference panics, naming the cache). At each
//! decision a look-ahead copy (`clone_from`, as greedy and mcts make) also takes a random option, so
//! the caches a copy carries over are checked too.

use carto::game::Game;
use carto::lang::interp::Interp;
use carto::rng::Rng;
use carto::variant::{bundled_variants, load_variant};

#[test]
fn every_cached_read_agrees_with_a_fresh_computation_in_every_variant() {
    let names = ["ann", "bob", "cy", "dee", "eve"].map(String::from);
    let mut decisions = 0u64;
    for (name, _) in bundled_variants() {
        let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (seed, n) in [(1u64, 2usize), (2, 3), (3, 5)] {
            let what = format!("{name} seed {seed}, {n} players");
            let mut game = v
                .new_game(v.config.clone(), &names[..n], seed, false)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            game.hooks.check_caches(true);
            let mut copy: Option<Game<Interp>> = None;
            let mut rng = Rng::new(seed + 101);
            while game.advance().unwrap_or_else(|e| panic!("{what}: {e}")) {
                // A look-ahead copy plays one option of its own, then is dropped back to the game.
                match &mut copy {
                    Some(c) => c.clone_from(&game),
                    None => copy = Some(game.clone()),
                }
                let c = copy.as_mut().expect("a copy");
                let i = rng.below(c.options.len() as u32) as usize;
                c.choose(i).unwrap_or_else(|e| panic!("{what}, copy: {e}"));
                c.advance().unwrap_or_else(|e| panic!("{what}, copy: {e}"));
                let i = rng.below(game.options.len() as u32) as usize;
                game.choose(i).unwrap_or_else(|e| panic!("{what}: {e}"));
                decisions += 1;
            }
        }
    }
    assert!(decisions > 1000, "{decisions} decisions");
}
