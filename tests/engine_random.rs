use carto::diag::Source;
use carto::game::{compile_tiles, play_random, Config, Game, NoRules};
use carto::rng::Rng;
use carto::state::FollowerAt;
use carto::tiles::{bundled_tile_set, parse_tile_set};
use std::sync::Arc;

fn base_config() -> Config {
    let src = Source::new("base.toml", bundled_tile_set("base").unwrap());
    let set = parse_tile_set("base", &src).unwrap();
    let (tiles, counts, start) = compile_tiles(&[set]);
    Config {
        variant: "engine".into(),
        rules: "engine".into(),
        tiles: Arc::new(tiles),
        counts,
        start_tile: start.unwrap(),
        map: None,
        followers: 7,
        start_squares: 1,
        start_names: vec![],
        border_fills_monastery: true,
        colours: vec![],
        chip_set: vec![],
        holdings: vec![],
        fixed_stack: None,
        sources: Vec::new(),
    }
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
            .filter(|e| matches!(e.kind, carto::state::EvKind::TileDiscarded { .. }))
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
fn show_one_game() {
    let cfg = Arc::new(base_config());
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut game = Game::new(cfg, NoRules, &players, 3, true).unwrap();
    let mut rng = Rng::new(3);
    play_random(&mut game, &mut rng).unwrap();
    if std::env::var("SHOW").is_ok() {
        println!("{}", carto::output::ascii_board(&game));
        println!("{}", carto::output::transcript(&game));
        println!("{}", carto::output::json_log(&game, &[]));
    }
}
