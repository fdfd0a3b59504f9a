//! Engine alone (no rules): random base games per second on one core.
use carto::diag::Source;
use carto::game::{compile_tiles, play_random, Config, Game, NoRules};
use carto::rng::Rng;
use carto::tiles::{bundled_tile_set, parse_tile_set};
use std::sync::Arc;

fn main() {
    let Some(text) = bundled_tile_set("base") else {
        return;
    };
    let Ok(set) = parse_tile_set("base", &Source::new("base.toml", text)) else {
        return;
    };
    let (tiles, counts, start) = compile_tiles(&[set]);
    let cfg = Arc::new(Config {
        variant: "engine".into(),
        rules: "engine".into(),
        tiles: Arc::new(tiles),
        counts,
        start_tile: start.unwrap_or(0),
        start_rot: 0,
        start_named: false,
        map: None,
        followers: 7,
        start_squares: 1,
        start_names: vec![],
        border_fills_monastery: true,
        colours: vec![],
        chip_set: vec![],
        holdings: vec![],
        holding_titles: vec![],
        holdings_per_player: vec![],
        fixed_stack: None,
        sources: Vec::new(),
        laid_chips: Vec::new(),
        counters: Default::default(),
    });
    let players = vec!["a".to_string(), "b".to_string()];
    let Ok(mut game) = Game::new(cfg, NoRules, &players, 0, false) else {
        return;
    };
    let n = 20000;
    let t = std::time::Instant::now();
    for seed in 0..n {
        if game.reset(&players, seed, false).is_err() {
            return;
        }
        let mut rng = Rng::new(seed ^ 0x9e37);
        if play_random(&mut game, &mut rng).is_err() {
            return;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("{n} games in {s:.2}s: {:.0} games/s", n as f64 / s);
}
