//! Snapshots of past turns are rebuilt from the events: the last one must be the game's real end
//! state, and each one the same whether built alone or in one pass.

use carto::game::play_random;
use carto::rng::Rng;
use carto::state::FollowerAt;

#[test]
fn snapshots_agree_with_the_game() {
    for (variant, seed) in [
        ("base", 1),
        ("france", 2),
        ("great-britain", 3),
        ("ukraine", 4),
    ] {
        let v = carto::variant::load_variant(variant, &[]).unwrap();
        let players = vec!["ann".to_string(), "bob".to_string()];
        let mut game = v.new_game(v.config.clone(), &players, seed, true).unwrap();
        play_random(&mut game, &mut Rng::new(seed).fork()).unwrap();
        let all = carto::render::timeline::every_turn(&game);
        let end = all.last().unwrap();
        let st = &game.st;
        assert_eq!(end.tiles.len(), st.board.placed.len(), "{variant}");
        let scores: Vec<i64> = st.players.iter().map(|p| p.score).collect();
        assert_eq!(end.scores, scores, "{variant}");
        for (i, c) in st.chips.iter().enumerate() {
            assert_eq!(
                (end.chips[i].place, end.chips[i].face_up),
                (c.place, c.face_up),
                "{variant} chip {i}"
            );
        }
        for (i, f) in st.followers.iter().enumerate() {
            assert_eq!(end.followers[i].at, f.at, "{variant} follower {i}");
            assert_eq!(
                end.followers[i].strength, f.strength,
                "{variant} follower {i}"
            );
            if let FollowerAt::Board(_) = f.at {
                assert_eq!(end.followers[i].cell, f.cell);
            }
        }
        for (t, s) in all.iter().enumerate() {
            let alone = carto::render::timeline::at_turn(&game, Some(t as u32));
            assert_eq!(alone.tiles, s.tiles);
            assert_eq!(alone.scores, s.scores);
            assert_eq!(alone.chips, s.chips);
            assert_eq!(alone.followers, s.followers);
        }
    }
}
