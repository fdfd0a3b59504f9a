//! Agents: a copy of a game (`clone_from` into a scratch game) plays on exactly like the original;
//! no agent ever picks an option outside the legal ones, in any bundled variant; `carto play
//! --agents` replays a game of `carto sim`; and a person plays a game through a pipe, with a bad
//! answer asked again.

use crate::common;
use carto::agent::{parse_agent, Agent, View};
use carto::game::Game;
use carto::lang::interp::Interp;
use carto::rng::Rng;
use carto::variant::{bundled_variants, load_variant};
use proptest::prelude::*;
use std::process::{Command, Stdio};

fn players() -> Vec<String> {
    vec!["ann".into(), "bob".into()]
}

fn new_game(name: &str, seed: u64) -> Game<Interp> {
    let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    v.new_game(v.config.clone(), &players(), seed, true)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Plays random choices from `rng` until the game is over; the scores and the whole event record.
fn finish(game: &mut Game<Interp>, rng: &mut Rng) -> (Vec<i64>, usize) {
    while game.advance().unwrap() {
        let i = rng.below(game.options.len() as u32) as usize;
        game.choose(i).unwrap();
    }
    let scores = game.st.players.iter().map(|p| p.score).collect();
    (scores, game.st.events.len())
}

#[test]
fn a_copy_plays_on_exactly_like_the_original_in_every_variant() {
    for (name, _) in bundled_variants() {
        let mut game = new_game(name, 7);
        // A scratch game that has already been used for another game, so `clone_from` reuses buffers
        // that hold stale content.
        let mut scratch = new_game(name, 99);
        let mut rng = Rng::new(5);
        finish(&mut scratch, &mut rng.clone());
        for _ in 0..40 {
            assert!(game.advance().unwrap(), "{name}: the game ended early");
            let i = rng.below(game.options.len() as u32) as usize;
            game.choose(i).unwrap();
        }
        scratch.clone_from(&game);
        let mut fresh = game.clone();
        let (a, b, c) = (rng.clone(), rng.clone(), rng.clone());
        let original = finish(&mut game, &mut { a });
        let copied = finish(&mut scratch, &mut { b });
        let cloned = finish(&mut fresh, &mut { c });
        assert_eq!(original, copied, "{name}: clone_from plays differently");
        assert_eq!(original, cloned, "{name}: clone plays differently");
        assert_eq!(game.st.events, scratch.st.events, "{name}: events differ");
    }
}

/// What play reads of two games, equal: the pending options, scores, chips (with the per-square
/// counts), hands, supply, draw stack, followers.
fn assert_same_play(a: &Game<Interp>, b: &Game<Interp>, at: &str) {
    assert_eq!(a.options, b.options, "{at}: options differ");
    let scores = |g: &Game<Interp>| g.st.players.iter().map(|p| p.score).collect::<Vec<_>>();
    assert_eq!(scores(a), scores(b), "{at}: scores differ");
    assert_eq!(a.st.chips, b.st.chips, "{at}: chips differ");
    assert_eq!(
        a.st.on_square, b.st.on_square,
        "{at}: chips counted on squares differ"
    );
    assert_eq!(a.st.hands, b.st.hands, "{at}: hands differ");
    assert_eq!(a.st.supply, b.st.supply, "{at}: supplies differ");
    assert_eq!(a.st.stack, b.st.stack, "{at}: draw stacks differ");
    assert_eq!(a.st.followers, b.st.followers, "{at}: followers differ");
    assert_eq!(a.st.turn, b.st.turn, "{at}: turns differ");
}

/// A playout's copy (`copy_unrecorded`), made at a pending decision into a scratch game left dirty
/// by another game (chips on other squares, longer work lists), takes every next step exactly like
/// the original, at every decision of a game in every variant; it records nothing, and now and
/// then it plays on to the end with the original's score.
#[test]
fn an_unrecorded_copy_at_a_pending_decision_plays_on_like_the_original_in_every_variant() {
    for (name, _) in bundled_variants() {
        let mut game = new_game(name, 11);
        let mut scratch = new_game(name, 12);
        finish(&mut scratch, &mut Rng::new(13));
        let mut rng = Rng::new(14);
        let mut k = 0;
        while game.advance().unwrap() {
            scratch.copy_unrecorded(&game);
            let at = format!("{name}, decision {k}");
            assert!(scratch.advance().unwrap(), "{at}: the copy has no decision");
            assert_same_play(&game, &scratch, &at);
            assert!(
                scratch.st.events.is_empty(),
                "{at}: the copy has an event log"
            );
            if k % 40 == 0 {
                let mut whole = game.clone();
                let mut copy = new_game(name, 15);
                finish(&mut copy, &mut Rng::new(16));
                copy.copy_unrecorded(&game);
                let (a, b) = (rng.clone(), rng.clone());
                let (sa, _) = finish(&mut whole, &mut { a });
                let (sb, events) = finish(&mut copy, &mut { b });
                assert_eq!(
                    sa, sb,
                    "{at}: played to the end, the copy scores differently"
                );
                assert_eq!(events, 0, "{at}: the copy recorded events");
                assert_same_play(&whole, &copy, &format!("{at}, at the end"));
            }
            let i = rng.below(game.options.len() as u32) as usize;
            game.choose(i).unwrap();
            scratch.choose(i).unwrap();
            let more = game.advance().unwrap();
            assert_eq!(more, scratch.advance().unwrap(), "{at}: one game ended");
            assert_same_play(&game, &scratch, &format!("{at}, after option {i}"));
            assert!(
                scratch.st.events.is_empty(),
                "{at}: the copy recorded events"
            );
            k += 1;
        }
        assert!(k > 40, "{name}: only {k} decisions");
    }
}

/// A look-ahead's copy made again from the game a turn later, after tiles were placed both in
/// the copy and in the game (`copy_unrecorded` then copies only the squares those placements
/// touched), and a copy of that copy, hold the game's position exactly as a fresh clone does,
/// at every decision of a game in every variant (maps with sea, ferries and large cities).
#[test]
fn a_copy_made_again_after_tiles_were_placed_in_it_and_in_the_game_holds_the_games_board() {
    for (name, _) in bundled_variants() {
        let mut game = new_game(name, 21);
        let mut copy = game.clone();
        let mut copy2 = game.clone();
        let mut rng = Rng::new(22);
        let mut k = 0;
        while game.advance().unwrap() {
            copy.copy_unrecorded(&game);
            copy2.copy_unrecorded(&copy);
            let fresh = game.clone();
            for (which, b) in [("copy", &copy), ("copy of the copy", &copy2)] {
                let at = format!("{name}, decision {k}, {which}");
                assert_eq!(b.st.board.differs_from(&game.st.board), None, "{at}");
                assert_eq!(fresh.st.board.differs_from(&b.st.board), None, "{at}");
            }
            // A turn or so played on in each copy (tiles placed in it), unlike the game's.
            for g in [&mut copy, &mut copy2] {
                for _ in 0..(k % 4) {
                    if !g.advance().unwrap() {
                        break;
                    }
                    let i = rng.below(g.options.len() as u32) as usize;
                    g.choose(i).unwrap();
                }
            }
            let i = rng.below(game.options.len() as u32) as usize;
            game.choose(i).unwrap();
            k += 1;
        }
        assert!(k > 40, "{name}: only {k} decisions");
    }
}

/// A game told to pass the phases' actions (`Game::pass_actions`, as the search's playouts are)
/// plays exactly like one whose players answer every offered action decision (`draw` or `pass`
/// first, then actions, not asked by a rule) with its `draw` or `pass`: the same other decisions
/// with the same options, the same state after each, the same scores at the end, in every variant.
/// The variants with actions must offer some (else the test could not fail).
#[test]
fn a_game_that_passes_the_actions_plays_like_players_who_pass_them() {
    use carto::game::Opt;
    let mut offered_somewhere = 0;
    for (name, _) in bundled_variants() {
        for seed in [21, 22] {
            let mut game = new_game(name, seed);
            let mut passing = new_game(name, seed);
            passing.pass_actions();
            let mut rng = Rng::new(seed);
            let mut k = 0;
            while game.advance().unwrap() {
                let at = format!("{name} seed {seed}, decision {k}");
                let o = &game.options;
                let offered = !game.is_asked()
                    && matches!(o[0], Opt::Pass | Opt::Draw)
                    && o.len() > 1
                    && o[1..].iter().all(|x| matches!(x, Opt::Action(_)));
                if offered {
                    offered_somewhere += 1;
                    game.choose(0).unwrap();
                    continue;
                }
                assert!(passing.advance().unwrap(), "{at}: the passing game ended");
                assert_same_play(&game, &passing, &at);
                let i = rng.below(game.options.len() as u32) as usize;
                game.choose(i).unwrap();
                passing.choose(i).unwrap();
                k += 1;
            }
            assert!(
                !passing.advance().unwrap(),
                "{name}: the passing game goes on"
            );
            // No decision pends: what is left in the options is stale.
            game.options.clear();
            passing.options.clear();
            assert_same_play(&game, &passing, &format!("{name} seed {seed}, at the end"));
            assert!(k > 40, "{name}: only {k} decisions");
        }
    }
    assert!(offered_somewhere > 10, "only {offered_somewhere} offers");
}

/// Plays a whole game with one agent per seat, asserting every choice is a legal option.
fn play_checked(name: &str, seed: u64, agents: &mut [Box<dyn Agent>]) {
    let mut game = new_game(name, seed);
    game.st.record = false;
    let mut rng = Rng::new(seed).fork();
    while game.advance().unwrap() {
        let who = game.decider() as usize;
        let agent = &mut agents[who % agents.len()];
        let i = agent
            .choose(&View::of(&game), &mut rng)
            .unwrap_or_else(|e| panic!("{name} seed {seed}: {}: {e}", agent.name()));
        assert!(
            i < game.options.len(),
            "{name} seed {seed}: {} chose option {i} of {}",
            agent.name(),
            game.options.len()
        );
        game.choose(i).unwrap();
    }
}

/// Games per variant the legality checks play: a few in `cargo test`; set `CARTO_LONG_TESTS=1` for a
/// long run (meant for a release build: `CARTO_LONG_TESTS=1 cargo test --release --test it agents::`).
fn games(short: u64, long: u64) -> u64 {
    if std::env::var_os("CARTO_LONG_TESTS").is_some() {
        long
    } else {
        short
    }
}

/// Seed `k` of a legality check: spread over the whole range, the same on every run.
fn spread(k: u64) -> u64 {
    k.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1)
}

/// `random` and `greedy`, seats swapped every other game, in every bundled variant: only legal
/// options. (Greedy reads the board in base and plays options in copies in the chip variants.)
fn random_and_greedy_choose_only_legal_options(short: u64, long: u64, chips: bool) {
    for (name, _) in bundled_variants() {
        if (name == "base") == chips {
            continue;
        }
        for k in 0..games(short, long) {
            let mut agents = vec![
                parse_agent("greedy").unwrap(),
                parse_agent("random").unwrap(),
            ];
            if k % 2 == 1 {
                agents.reverse();
            }
            play_checked(name, spread(k), &mut agents);
        }
    }
}

#[test]
fn random_and_greedy_choose_only_legal_options_in_base() {
    random_and_greedy_choose_only_legal_options(24, 1000, false);
}

#[test]
fn random_and_greedy_choose_only_legal_options_in_every_chip_variant() {
    random_and_greedy_choose_only_legal_options(2, 100, true);
}

#[test]
fn random_chooses_only_legal_options_in_every_variant() {
    for (name, _) in bundled_variants() {
        for k in 0..games(6, 300) {
            let mut agents = vec![parse_agent("random").unwrap()];
            play_checked(name, spread(1000 + k), &mut agents);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2, ..ProptestConfig::default() })]
    /// `mcts` with a small budget against `greedy`, every bundled variant, seeds chosen by
    /// proptest: only legal options.
    #[test]
    fn mcts_chooses_only_legal_options(seed in any::<u64>()) {
        for (name, _) in bundled_variants() {
            let mut agents = vec![
                parse_agent("greedy").unwrap(),
                parse_agent("mcts:2").unwrap(),
            ];
            play_checked(name, seed, &mut agents);
        }
    }
}

#[test]
fn agent_specs_are_read_and_bad_ones_refused() {
    for spec in ["random", "greedy", "mcts", "mcts:5", " greedy "] {
        assert!(parse_agent(spec).is_ok(), "{spec}");
    }
    assert_eq!(parse_agent("mcts").unwrap().name(), "mcts:16");
    for spec in ["mcts:0", "mcts:x", "mcts:", "best", ""] {
        let e = parse_agent(spec)
            .err()
            .unwrap_or_else(|| panic!("{spec} accepted"));
        assert!(e.contains(spec.trim()), "{spec}: {e}");
    }
}

fn carto(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carto"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_person_plays_a_game_through_a_pipe_and_a_bad_answer_is_asked_again() {
    let dir = std::env::temp_dir().join(format!("carto-agents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("human.jsonl");
    let log = log.to_str().unwrap();
    // ann is the person: a name that is no option, a number out of range, a place for a tile that
    // is not in hand, the first option by its name, then the first option at every decision after.
    let mut input = String::from("hello\n0\nplace Q at 5,5 r0\nplace U at 1,0 r0\n");
    input.push_str(&"1\n".repeat(400));
    let (code, out, err) = carto(
        &[
            "play",
            "base",
            "--seed",
            "2",
            "--agents",
            "human,greedy",
            "--log",
            log,
        ],
        &input,
    );
    assert_eq!(code, 0, "stderr: {err}");
    // What the person sees: the board with coordinates, the hand, the scores, numbered options.
    assert!(out.contains("== turn 1: ann to decide =="), "{out}");
    assert!(out.contains("tile in hand: U"), "{out}");
    // The tile is drawn as the board draws it, at each turning, and follower spots are named in
    // words (U is a straight road: west-east at r0, north-south at r90).
    assert!(
        out.contains("      r0     r90    r180   r270\n     ...    .|.    ...    .|.\n     -+-    .+.    -+-    .+.\n"),
        "{out}"
    );
    assert!(
        out.contains("   3. follower field Nw+Ne+En+Wn   (farmer on the field to the north)\n"),
        "{out}"
    );
    assert!(out.contains("scores: ann 0, bob 0"), "{out}");
    assert!(
        out.contains("   1. place U at 1,0 r0\n   2. place U at 0,1 r0\n"),
        "{out}"
    );
    // Each bad answer is refused with its reason, and asked again.
    assert!(out.contains(
        "not taken: `hello` is not a legal option here (turn 1, ann: placing the tile); try again"
    ));
    assert!(out.contains("not taken: there is no option 0: the options are 1 to 3; try again"));
    assert!(
        out.contains("the tile to place is U, not Q; try again"),
        "{out}"
    );
    assert!(out.contains("-> place U at 1,0 r0"), "{out}");
    // The other seat's choices are shown as they are taken, and the game runs to its end.
    assert!(out.contains("bob takes: place "), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("ann: ")) && out.lines().any(|l| l.starts_with("bob: "))
    );
    // The log is written as always and replays.
    let text = std::fs::read_to_string(log).unwrap();
    assert!(
        text.contains("\"place U at 1,0 r0\""),
        "the log names ann's first choice"
    );
    let (code, out, err) = carto(&["replay", log], "");
    assert_eq!(code, 0, "replay failed: {out}{err}");
    // Input that ends before the game does is an input problem (exit 1), said plainly.
    let (code, _, err) = carto(&["play", "base", "--agents", "human", "--quiet"], "1\n");
    assert_eq!(code, 1);
    assert!(err.contains("the input ended before the game did"), "{err}");
    // Input that never names a legal option (a pipe from `yes 9`) stops after 100 refusals at one
    // decision, exit 1, instead of asking forever.
    let (code, out, err) = carto(
        &["play", "base", "--agents", "human", "--quiet"],
        &"9\n".repeat(1000),
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.matches("not taken: there is no option 9").count(), 100);
    assert!(
        err.contains("100 answers in a row named no legal option (the last: there is no option 9: the options are 1 to 4); stopped"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_with_agents_replays_a_game_of_sim() {
    // Game 0 of a sim run with seed 3 is `carto play --seed 3` with the same agents: same scores.
    let (code, out, err) = carto(
        &[
            "sim",
            "base",
            "--games",
            "1",
            "--seed",
            "3",
            "--agents",
            "greedy,random",
            "--format",
            "csv",
            "--quiet",
            "--threads",
            "1",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (code2, played, err2) = carto(
        &[
            "play",
            "base",
            "--seed",
            "3",
            "--agents",
            "greedy,random",
            "--quiet",
        ],
        "",
    );
    assert_eq!(code2, 0, "{err2}");
    let ann: String = played.lines().find(|l| l.starts_with("ann: ")).unwrap()[5..].into();
    let bob: String = played.lines().find(|l| l.starts_with("bob: ")).unwrap()[5..].into();
    assert!(
        out.contains(&format!("\nscore,ann,1,{ann},0,{ann},{ann},{ann}\n"))
            && out.contains(&format!("\nscore,bob,1,{bob},0,{bob},{bob},{bob}\n")),
        "sim: {out}\nplay: {played}"
    );
    // Bad specs are usage errors.
    let (code, _, err) = carto(&["play", "base", "--agents", "clever"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown agent `clever`"), "{err}");
    let (code, _, err) = carto(&["play", "base", "--agents", "greedy,greedy,greedy"], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = carto(&["sim", "base", "--agents", "human", "--games", "1"], "");
    assert_eq!(code, 2);
    assert!(err.contains("sim plays without people"), "{err}");
}

/// Plays game `seed` of `name` with `make()` in every seat; the event record.
fn play_with(
    name: &str,
    seed: u64,
    seats: usize,
    make: impl Fn() -> Box<dyn Agent>,
) -> Vec<carto::state::Event> {
    let mut game = common::new_game(name, seed, seats);
    let mut agents: Vec<Box<dyn Agent>> = (0..seats).map(|_| make()).collect();
    let mut rng = Rng::new(seed).fork();
    while game.advance().unwrap() {
        let who = game.decider() as usize;
        let i = agents[who].choose(&View::of(&game), &mut rng).unwrap();
        game.choose(i).unwrap();
    }
    game.st.events
}

/// Seeds the preview check plays per variant: base, and each chip variant (whose copies are slow in
/// a debug build). More with `CARTO_LONG_TESTS=1`, meant for release builds.
fn preview_seeds(base: bool) -> u64 {
    match (std::env::var_os("CARTO_LONG_TESTS").is_some(), base) {
        (true, true) => 200,
        (true, false) => 40,
        (false, true) => 3,
        (false, false) => 1,
    }
}

/// Plays game `seed` of `name` both with `greedy` and with a greedy that plays every option in a
/// copy, with 2 to 4 players; the two games must be the same, event for event.
fn assert_greedy_reads_as_it_copies(name: &str, seed: u64) {
    let seats = 2 + (seed % 3) as usize;
    let read = play_with(name, seed, seats, || {
        Box::new(carto::agent::Greedy::default())
    });
    let copied = play_with(name, seed, seats, || {
        Box::new(carto::agent::Greedy::copying())
    });
    assert_eq!(
        read.len(),
        copied.len(),
        "{name} seed {seed}, {seats} players"
    );
    for (k, (a, b)) in read.iter().zip(&copied).enumerate() {
        assert_eq!(
            a, b,
            "{name} seed {seed}, {seats} players: event {k} differs"
        );
    }
}

/// `greedy` reads an option's value from the board (no copy of the game) where the option runs no
/// rule but the scoring of features; it must choose exactly as when it plays every option in a
/// copy: whole games, two to four players, event for event, in base and in every chip variant.
#[test]
fn greedy_reading_the_board_plays_exactly_as_greedy_playing_copies() {
    for seed in 0..preview_seeds(true) {
        assert_greedy_reads_as_it_copies("base", seed);
    }
}

#[test]
fn greedy_reading_the_board_plays_exactly_as_greedy_playing_copies_in_every_chip_variant() {
    for (name, _) in bundled_variants() {
        if name == "base" {
            continue;
        }
        for k in 0..preview_seeds(false) {
            assert_greedy_reads_as_it_copies(name, spread(k));
        }
    }
}

/// Agents see only what a player sees: at decisions of a game in every variant, each agent chooses
/// the same option in the game and in a copy where what the decider may not see is shuffled (the
/// order of the tiles to come, face-down chips' faces, the rules' generator). The shuffles do
/// change what a peeking agent would read (checked), so an agent that peeked would fail here.
#[test]
fn agents_choose_the_same_when_what_they_may_not_see_is_shuffled() {
    for (name, _) in bundled_variants() {
        for spec in ["random", "greedy", "mcts:6"] {
            let mut game = new_game(name, 21);
            game.st.record = false;
            let (mut seen, mut other) = (parse_agent(spec).unwrap(), parse_agent(spec).unwrap());
            let mut play = Rng::new(22);
            let (mut k, mut changed_order, mut changed_faces) = (0, 0, 0);
            while k < 60 && game.advance().unwrap() {
                if k % 6 == 0 {
                    let shuffled = common::shuffle_hidden(&game, &mut Rng::new(k));
                    changed_order += usize::from(shuffled.st.stack != game.st.stack);
                    changed_faces += usize::from(shuffled.st.chips != game.st.chips);
                    let a = seen
                        .choose(&View::of(&game), &mut Rng::new(100 + k))
                        .unwrap();
                    let b = other
                        .choose(&View::of(&shuffled), &mut Rng::new(100 + k))
                        .unwrap();
                    assert_eq!(
                        a, b,
                        "{name}, {spec}, decision {k}: the hidden changed its choice"
                    );
                }
                let i = play.below(game.options.len() as u32) as usize;
                game.choose(i).unwrap();
                k += 1;
            }
            assert!(
                changed_order > 0,
                "{name}: the shuffle never changed the draw order"
            );
            let hides_faces = game.st.chips.iter().any(|c| !c.face_up);
            if hides_faces && spec == "random" {
                assert!(
                    changed_faces > 0,
                    "{name}: the shuffle never changed a chip's face"
                );
            }
        }
    }
}
