//! Rules skipped without running (the interpreter's dispatch: a count of the chips on the placed
//! square while none lies there, leading parts that read only map facts of the square remembered
//! per square) and static aggregates memoised by a chip's colour give the games that evaluating
//! every condition gives: the same rules with each condition led by a part that is neither a
//! guard nor static, and each aggregate reading something that changes.

use carto::variant::{variant_from_source, InputError};

/// Final scores of random games on the Iberia map (chips scattered) with `rules` added, played one
/// after another in one game value (as `bench` does).
fn scores(rules: &str, seeds: u64) -> Vec<Vec<i64>> {
    let text = format!(
        "import \"scatter\"\n\
         variant \"probe\" {{\n  title = \"Probe\"\n  doc = \"skips\"\n  map = \"iberia\"\n  \
         tiles = [\"base\"]\n  players = 2..4\n  followers = followers\n  start_squares = 3\n}}\n\
         {rules}\n"
    );
    let source = carto::diag::Source::new("probe.rules", text);
    let no_sets = |_: usize, e: String| InputError::new(carto::diag::Code::BadSet, e);
    let v = match variant_from_source(&source, "probe.rules", &[], &no_sets) {
        Ok(v) => v,
        Err(e) => panic!("probe rules: {}", e.text),
    };
    let players = ["ann".to_string(), "bob".to_string(), "cyd".to_string()];
    let mut g = v
        .new_game(v.config.clone(), &players, 0, false)
        .expect("a game starts");
    let mut out = Vec::new();
    for seed in 0..seeds {
        g.reset(&players, seed, false).expect("a game resets");
        let mut rng = carto::rng::Rng::new(seed);
        carto::game::play_random(&mut g, &mut rng).expect("the game runs");
        out.push(g.st.players.iter().map(|p| p.score).collect());
    }
    out
}

#[test]
fn skipped_rules_and_memoised_bands_change_no_game() {
    // `lead` goes before each condition, `tail` into the band aggregate's `where`.
    let rules = |lead: &str, tail: &str| {
        format!(
            "change rule collect {{\n\
               for c in chips(at(square)) {{\n\
                 score(player, count(s in squares_with(\"band\", c.colour) where s.land{tail}))\n}}\n}}\n\
             rule r on placed when {lead}count(c in chips(at(square)) where not c.face_up) > 0 {{\n\
               score(player, 100)\n\
               for c in chips(at(square)) {{ move(c, box, up) }}\n}}\n\
             rule s on placed when {lead}square.island and square.shields > 0 \
               and not square.covered {{ score(player, 5) }}\n\
             rule t on placed when {lead}not square.island and square.x > 10 {{ score(player, 1) }}\n\
             rule u on placed when {lead}square.y > 8 and player.score > 20 {{ score(player, 2) }}"
        )
    };
    let fast = scores(&rules("", ""), 8);
    let slow = scores(
        &rules("tiles_left() >= 0 and ", " and tiles_left() >= 0"),
        8,
    );
    assert_eq!(fast, slow);
    // Chips were taken (100 each) in some games.
    assert!(fast.iter().flatten().any(|&s| s >= 100));
}
