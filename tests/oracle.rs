//! Issue 21, target 2: the tree walker as an oracle of the executor over real games. With
//! `carto-lang`'s `oracle` feature (this crate's dev-dependency turns it on), every value and
//! condition the executor computes while these games run is computed again by the tree walker on
//! the same state and compared; so is each rule's whole `when` (however the trigger dispatch
//! decided it), and at every decision the part of each action's `when` a refusal names. A difference panics
//! naming the rule, the expression and both values (see `crates/lang/src/interp/oracle.rs`, whose
//! unit test plants a wrong result and sees it caught).

use crate::common;
use carto::agent::{parse_agent, Agent, View};
use carto::game::{Hooks, Phase};
use carto::lang::interp::oracle;
use carto::rng::Rng;
use carto::variant::{bundled_variants, load_variant};

/// Plays game `seed` of `name` with `seats` players, each seat by `agent`, the oracle on; asks at
/// every decision why each action is refused in the score phase (the executor's trace of its
/// `when` against the walker's first false part). The number of decisions.
fn play_beside_the_walker(name: &str, seed: u64, seats: usize, agent: &str) -> usize {
    oracle::enable(true);
    let mut game = common::new_game(name, seed, seats);
    oracle::enable(false);
    // Every action a phase offers: why each is refused is asked at every decision.
    let actions: Vec<String> = game
        .hooks
        .program()
        .actions
        .iter()
        .filter(|a| a.phase != Some(Phase::Asked))
        .map(|a| a.name.clone())
        .collect();
    let mut agents: Vec<Box<dyn Agent>> = (0..seats)
        .map(|_| parse_agent(agent).expect("an agent"))
        .collect();
    let mut rng = Rng::new(seed).fork();
    let mut decisions = 0;
    while game.advance().unwrap_or_else(|e| panic!("{name}: {e}")) {
        for a in &actions {
            game.hooks.explain(&mut game.st, Some(Phase::Score), a);
        }
        let who = game.decider() as usize;
        let i = agents[who]
            .choose(&View::of(&game), &mut rng)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        game.choose(i).unwrap_or_else(|e| panic!("{name}: {e}"));
        decisions += 1;
    }
    decisions
}

/// Every bundled variant, random players: seeds 0 to 5 with 2 to 5 players (fewer when the
/// variant takes no more).
#[test]
fn the_walker_agrees_with_the_executor_in_random_games_of_every_variant() {
    for (name, _) in bundled_variants() {
        let most = load_variant(name, &[])
            .expect("a bundled variant")
            .players
            .1;
        for (seed, seats) in [(0, 2), (1, 3), (2, 4), (3, 5), (4, 2), (5, 3)] {
            let seats = seats.min(most);
            let n = play_beside_the_walker(name, seed, seats, "random");
            assert!(n > 20, "{name} seed {seed}: {n} decisions");
        }
    }
}

/// Every bundled variant, greedy players, 2 and 4 of them (their look-ahead copies run beside the
/// walker too).
#[test]
fn the_walker_agrees_with_the_executor_in_greedy_games_of_every_variant() {
    for (name, _) in bundled_variants() {
        let most = load_variant(name, &[])
            .expect("a bundled variant")
            .players
            .1;
        for (seed, seats) in [(3, 2), (4, 4)] {
            let n = play_beside_the_walker(name, seed, seats.min(most), "greedy");
            assert!(n > 20, "{name} seed {seed}: {n} decisions");
        }
    }
}
