//! What a seat sees, decided in one place (`carto::sight`, issue 33 A): what the terminal shows a
//! person, and the names of the options, are the same whatever the faces of the chips that person
//! may not see. Two rules files differ only in the order their chips are declared, so the same chip
//! ids (which the seed scatters on the same squares, or leaves in the supply) have other colours and
//! values; a person who sees only what they may see cannot tell the two games apart.

use crate::common::{fresh_dir, write_file};
use std::io::Write as _;
use std::process::{Command, Stdio};

/// Chips scattered face down over France's map, ten more face down in the supply; a player may take
/// one from the supply (face down, into their hand) once a turn.
const RULES: &str = r#"import "base"
variant "hidden" {
  title = "Hidden chips"
  doc = "Chips face down on the map and in the supply."
  map = "france"
  tiles = ["base"]
  players = 2..4
  followers = 7
  start_squares = 2
}
chips { CHIPS }
setup {
  shuffle(supply)
  draw(10, supply, aside, down)
  let spots = [s in squares() where s.land and not s.town]
  scatter(chips(supply), spots, true, down)
  for c in chips(aside) {
    move(c, supply, down)
  }
}
rule collect on placed when count(c in chips(at(square)) where not c.face_up) > 0 {
  for c in chips(at(square)) {
    score(player, c.value)
    move(c, hand(player), up)
  }
}
action harbour_trade phase score limit per turn 1 choose c: chips(supply) {
  move(c, hand(player), down)
}
"#;

/// The same chips (6 of value 1 and 4 of value 2 per colour, colours first seen in one order) in
/// two orders: but for chip 0 (purple 1 in both), each chip id has another colour in one than in
/// the other.
const CHIPS_A: &str =
    "purple 1 x 6, purple 2 x 4, blue 1 x 6, blue 2 x 4, orange 1 x 6, orange 2 x 4";
const CHIPS_B: &str =
    "purple 1 x 1, blue 1 x 6, blue 2 x 4, orange 1 x 6, orange 2 x 4, purple 1 x 5, purple 2 x 4";

/// `carto play` of the rules with `chips`, ann a person answering `answers` (then the input ends),
/// bob random: what ann was shown, up to the end of her input.
fn person_sees(case: &str, chips: &str, seed: &str, answers: &str) -> (String, String) {
    let dir = fresh_dir("seats", case);
    write_file(&dir, "hidden.rules", RULES.replace("CHIPS", chips));
    let mut child = Command::new(env!("CARGO_BIN_EXE_carto"))
        .args([
            "play",
            "hidden.rules",
            "--agents",
            "human,random",
            "--seed",
            seed,
        ])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answers.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The person's screens: every decision shown, the options named, bob's choices as ann sees them.
/// The game stops when her answers run out (before any chip of hers is turned up).
#[test]
fn the_terminal_shows_the_same_whatever_the_hidden_faces() {
    let answers = "1\n".repeat(6);
    let (a, err_a) = person_sees("a", CHIPS_A, "3", &answers);
    let (b, err_b) = person_sees("b", CHIPS_B, "3", &answers);
    assert!(err_a.contains("the input ended"), "{err_a}");
    assert!(err_b.contains("the input ended"), "{err_b}");
    // The screens are there, with face-down chips on the map and the trade named by where it takes.
    assert!(a.matches("to decide ==").count() >= 6, "{a}");
    assert!(a.contains(", * face down"), "{a}");
    let board_rows = a.lines().filter(|l| l.contains('*')).count();
    assert!(board_rows > 5, "face-down chips on the map: {a}");
    // Every option to take a chip from the supply, offered to ann or taken by bob, is named by the
    // place it takes from: one option, whatever faces lie there.
    let trades: Vec<&str> = a.lines().filter(|l| l.contains("harbour_trade")).collect();
    assert!(trades.len() >= 2, "{a}");
    for t in &trades {
        assert!(t.ends_with("harbour_trade down@supply"), "{t}");
    }
    // The options of each decision have distinct names (chips hidden from ann in one place are one
    // option, not one per face).
    for block in a.split("options:\n").skip(1) {
        let names: Vec<&str> = block
            .lines()
            .take_while(|l| !l.starts_with("your choice"))
            .collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup_by(|x, y| x.split_once(". ").map(|p| p.1) == y.split_once(". ").map(|p| p.1));
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }
    assert_eq!(
        a, b,
        "what ann sees must not depend on faces she may not see"
    );
}

/// The same games seen by everyone (the log): the faces differ, so the test above compares games
/// that differ in what ann may not see.
#[test]
fn the_two_games_differ_in_what_is_hidden() {
    let log = |case: &str, chips: &str| {
        let dir = fresh_dir("seats", case);
        write_file(&dir, "hidden.rules", RULES.replace("CHIPS", chips));
        let (code, out, err) =
            crate::common::carto_in(&dir, &["play", "hidden.rules", "--seed", "3", "--log", "-"]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let (a, b) = (log("log-a", CHIPS_A), log("log-b", CHIPS_B));
    let setup = |log: &str| -> Vec<String> {
        log.lines()
            .filter(|l| l.contains("\"chip_moved\"") && l.contains("\"turn\":0"))
            .map(String::from)
            .collect()
    };
    assert_ne!(
        setup(&a),
        setup(&b),
        "the chips' faces differ between the two games"
    );
}

/// Great Britain prints each chip's colour on its spot (the map's `face_down_colour = "spot"`): a
/// person sees the colour of a face-down chip there, never its value; on France's map a face-down
/// chip shows only its back (`*`).
#[test]
fn a_printed_spot_shows_its_colour() {
    let board = |variant: &str| {
        let dir = fresh_dir("seats", variant);
        let mut child = Command::new(env!("CARGO_BIN_EXE_carto"))
            .args(["play", variant, "--agents", "human,random", "--seed", "1"])
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.split("legend:").next().unwrap().to_string()
    };
    // The corner marks of chips: the third character of a square's last row.
    let marks = |b: &str| -> Vec<char> {
        b.lines()
            .filter(|l| l.starts_with("     "))
            .flat_map(|l| {
                let row: Vec<char> = l[5..].chars().collect();
                row.chunks(3)
                    .filter_map(|c| c.get(2).copied())
                    .filter(|c| c.is_ascii_alphabetic() || *c == '*')
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let gb = marks(&board("great-britain"));
    assert_eq!(gb.len(), 30, "every chip on its spot: {gb:?}");
    for colour in ['b', 'o', 'p'] {
        assert_eq!(gb.iter().filter(|&&c| c == colour).count(), 10, "{gb:?}");
    }
    let france = marks(&board("france"));
    assert!(
        !france.is_empty() && france.iter().all(|&c| c == '*'),
        "{france:?}"
    );
}

/// The points an action is shown to give (the Play tab's "Sell town …: 9 points") are found in
/// copies of the game where what the person may not see is dealt afresh: France's sales say their
/// 9 and 5 points though the chips on the map lie face down, and shuffling what the person may not
/// see never changes what is said of any option.
#[test]
fn the_points_an_action_shows_are_the_same_whatever_is_hidden() {
    use carto::agent::points_as_seen;
    let (mut sales, mut shuffled) = (0, 0);
    for seed in 1..=6 {
        let mut g = crate::common::new_game("france", seed, 2);
        let mut rng = carto::rng::Rng::new(seed);
        while g.advance().unwrap() {
            let names: Vec<String> = g.options.iter().map(|&o| g.option_name(o)).collect();
            if names.iter().any(|n| n.starts_with("sell_")) {
                let said: Vec<Option<i64>> =
                    (0..names.len()).map(|i| points_as_seen(&g, i)).collect();
                for (n, p) in names.iter().zip(&said) {
                    let want = match n.split(' ').next() {
                        Some("sell_town") => Some(9),
                        Some("sell_abroad") => Some(5),
                        _ => continue,
                    };
                    assert_eq!(*p, want, "{n}");
                    sales += 1;
                }
                for _ in 0..3 {
                    let other = crate::common::shuffle_hidden(&g, &mut rng);
                    let again: Vec<Option<i64>> = (0..names.len())
                        .map(|i| points_as_seen(&other, i))
                        .collect();
                    assert_eq!(said, again, "{names:?}");
                    shuffled += 1;
                }
            }
            let k = rng.below(g.options.len() as u32) as usize;
            g.choose(k).unwrap();
        }
    }
    assert!(
        sales > 3 && shuffled > 3,
        "{sales} sales, {shuffled} shuffles"
    );
}

/// An action whose points hang on a face-down chip (scoring the value of a chip taken from the
/// supply) is shown without points: the copies disagree; and what is shown is the same whatever the
/// hidden faces are.
#[test]
fn points_that_hang_on_a_hidden_face_are_not_said() {
    use carto::agent::points_as_seen;
    let dir = fresh_dir("seats", "peek");
    let text = RULES.replace("CHIPS", CHIPS_A)
        + "action peek phase score limit per turn 1 choose c: chips(supply) {\n  score(player, c.value)\n}\n";
    let path = write_file(&dir, "peek.rules", text);
    let v = carto::variant::load_variant(path.to_str().unwrap(), &[]).unwrap();
    let names = ["ann".to_string(), "bob".to_string()];
    let mut g = v.new_game(v.config.clone(), &names, 4, true).unwrap();
    let mut rng = carto::rng::Rng::new(4);
    let mut peeks = 0;
    while g.advance().unwrap() && peeks < 20 {
        let names: Vec<String> = g.options.iter().map(|&o| g.option_name(o)).collect();
        for (i, n) in names
            .iter()
            .enumerate()
            .filter(|(_, n)| n.starts_with("peek"))
        {
            assert_eq!(points_as_seen(&g, i), None, "{n}");
            let other = crate::common::shuffle_hidden(&g, &mut rng);
            assert_eq!(points_as_seen(&other, i), None, "{n}");
            peeks += 1;
        }
        let k = rng.below(g.options.len() as u32) as usize;
        g.choose(k).unwrap();
    }
    assert!(peeks > 5, "{peeks} peeks");
}
