use crate::support;

use carto_engine::game::{play_random, Config, Game, NoRules};
use carto_engine::rng::Rng;
use carto_engine::state::FollowerAt;
use std::sync::Arc;
use support::{config, Tiles};

/// The base tiles, shuffled, 7 followers each.
fn base_config() -> Config {
    config(&Tiles::base(), &[], 7)
}

#[test]
fn random_games_on_the_endless_table_place_every_tile() {
    let cfg = Arc::new(base_config());
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut game = Game::new(cfg, NoRules, &players, 1, true).unwrap();
    for seed in 0..50u64 {
        game.reset(&players, seed, true).unwrap();
        let mut rng = Rng::new(seed + 1000);
        play_random(&mut game, &mut rng).unwrap();
        let discarded = game
            .st
            .events
            .iter()
            .filter(|e| matches!(e.kind, carto_engine::state::EvKind::TileDiscarded { .. }))
            .count();
        assert_eq!(game.st.board.placed.len() + discarded, 72, "seed {seed}");
        // Followers are on the board exactly when the board says a feature holds them.
        for f in &game.st.followers {
            if let FollowerAt::Board(node) = f.at {
                assert!(game.st.board.features.follower_count(node) >= 1);
            }
        }
    }
}

#[test]
fn a_random_game_ends() {
    let cfg = Arc::new(base_config());
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut game = Game::new(cfg, NoRules, &players, 3, true).unwrap();
    let mut rng = Rng::new(3);
    play_random(&mut game, &mut rng).unwrap();
    assert!(game.is_over());
}
