//! Pictures of games, through the built binary: `carto render` (SVG of a game at a turn, or of a map)
//! and `carto view` (the HTML replay page). The browser check of the page is `tests/browser/check.sh`.

use crate::common;

use common::carto;
use std::path::PathBuf;

fn scratch(case: &str) -> PathBuf {
    common::fresh_dir("render", case)
}

fn tiles_drawn(svg: &str) -> usize {
    // Every tile is drawn as a group named by its tile id.
    svg.matches(r##"<g data-tile=""##).count()
}

/// The tie script (tests/scripts/base/tie.script): the start tile and five placed tiles; ann's and
/// bob's followers returned after the shared city of 4 tiles scored 8 each. The SVG is pinned.
#[test]
fn render_a_scripted_game() {
    let (code, svg, err) = carto(&["render", "tests/scripts/base/tie.script"]);
    assert_eq!(code, 0, "{err}");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(tiles_drawn(&svg), 6, "1 start tile + 5 placed");
    assert!(
        svg.contains(">ann 8 ★<") && svg.contains(">bob 8 ★<"),
        "both win with 8"
    );
    assert!(svg.contains("7 followers left"), "the followers came home");
    // The last move, ann's R at 0,-1, is framed in her colour, and the city's 8 points each float
    // over the tile the city was scored from, each naming the rule that gave them (`city`).
    assert!(svg.contains(
        r#"<g class="last-tile" data-player="ann"><title>ann's last tile, at 0,-1</title>"#
    ));
    assert!(svg.contains(
        r#"<g class="points" data-player="ann" data-points="8" data-rule="city"><title>ann +8 (city)</title>"#
    ));
    assert!(svg.contains("<title>bob +8 (city)</title>"));
    insta::assert_snapshot!("tie_svg", svg);
}

/// At turn 4 of the tie script the city is open: 4 placed tiles + the start tile, no score yet,
/// and both followers stand on it.
#[test]
fn render_a_turn() {
    let (code, svg, err) = carto(&["render", "tests/scripts/base/tie.script", "--turn", "4"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(tiles_drawn(&svg), 5);
    assert!(svg.contains(">ann 0<") && svg.contains(">bob 0<"));
    assert!(svg.contains("turn 4 of 5"));
    assert_eq!(
        svg.matches(r#"<g class="meeple""#).count(),
        2 + 2,
        "two on the board, one per player in the panel"
    );
    // Turn 4 was bob's cap at 1,-1 with his knight on it: framed, ringed, named in a tooltip.
    assert!(svg.contains(
        r#"<g class="last-tile" data-player="bob"><title>bob's last tile, at 1,-1</title>"#
    ));
    assert_eq!(svg.matches(r#"<g class="last-follower">"#).count(), 1);
    assert!(svg.contains("<title>ann's knight on the city at -1,-1</title>"));
    assert!(svg.contains("<title>bob's knight on the city at 1,-1</title>"));
    assert!(!svg.contains(r#"class="points""#), "no points at turn 4");
    // At turn 0 the start tile alone: one tile, in the singular.
    let (code, svg, err) = carto(&["render", "tests/scripts/base/tie.script", "--turn", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(svg.contains(">1 tile on the board<"), "{svg}");
    assert!(svg.contains(">7 followers left<"));
    let (code, _, err) = carto(&["render", "tests/scripts/base/tie.script", "--turn", "9"]);
    assert_eq!(code, 1);
    assert!(err.contains("has turns 0 to 5, not 9"), "{err}");
}

/// The same board whether the game comes from a script or from its log, and the file written by -o.
#[test]
fn render_a_log() {
    let dir = scratch("log");
    let log = dir.join("tie.log");
    let (code, _, err) = carto(&[
        "run",
        "tests/scripts/base/tie.script",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let out = dir.join("tie.svg");
    let (code, _, err) = carto(&["render", log.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let from_log = std::fs::read_to_string(&out).unwrap();
    let (_, from_script, _) = carto(&["render", "tests/scripts/base/tie.script"]);
    assert_eq!(from_log, from_script);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A holding area is shown by its title (`holding isle "Isle of Man"`), not its name `isle`: the
/// players' panel row, the tooltip of each follower held there, the legend of the square marked
/// `isle`. The log keeps the name.
#[test]
fn holding_areas_are_shown_by_their_title() {
    let script = "tests/scripts/great-britain/isle_followers.script";
    let (code, svg, err) = carto(&["render", script]);
    assert_eq!(code, 0, "{err}");
    assert!(svg.contains(">Isle of Man<"), "the panel's row");
    assert!(svg.contains("<title>Isle of Man: ann's follower</title>"));
    assert!(svg.contains(">Isle of Man (isle)<"), "the legend");
    assert!(!svg.contains(">isle<"));
    // The replay page tells the turn with the title in the sentence.
    let dir = scratch("holding-view");
    let page = dir.join("isle.html");
    let (code, _, err) = carto(&["view", script, "-o", page.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&page).unwrap();
    assert!(page.contains("to the Isle of Man"), "{page}");
    let _ = std::fs::remove_dir_all(&dir);
    let dir = scratch("holding");
    let log = dir.join("isle.log");
    let (code, _, err) = carto(&["run", script, "--log", log.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains("\"isle\"") && !log.contains("Isle of Man"),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A map alone: France has 3 large cities with their names, 18 towns (each a house), start squares.
#[test]
fn render_a_map() {
    let (code, svg, err) = carto(&["render", "--map", "france"]);
    assert_eq!(code, 0, "{err}");
    for name in ["Paris", "Lyon", "Marseille", "Nancy", "Lille"] {
        assert!(svg.contains(&format!(">{name}<")), "{name} missing");
    }
    assert_eq!(
        svg.matches(r##"fill="#d9543c""##).count(),
        18 + 1,
        "18 towns and the legend's"
    );
    assert_eq!(tiles_drawn(&svg), 0);
    // The legend names only what France shows, each beside its swatch: no island, no slots.
    for item in [
        ">land<",
        ">sea<",
        ">large city<",
        ">town<",
        ">start square<",
        ">wine: blue<",
        ">wine: orange<",
        ">wine: purple<",
    ] {
        assert!(svg.contains(item), "{item} missing from the legend");
    }
    assert!(!svg.contains(">island<") && !svg.contains(">chip slot<"));
    // Coasts are round: Matsu, the island square at column 2 row 1 of Taiwan (x 142–198, y
    // 87.2–143.2 on the picture: 30 + 2 × 56, and 30 × 1.97 + 28 + 56), has sea to the north-east,
    // east and south-east, so its two east corners are cut by quarter circles of radius 22.4
    // (0.4 × 56); its west side faces off the map and stays square.
    let (code, svg, err) = carto(&["render", "--map", "taiwan"]);
    assert_eq!(code, 0, "{err}");
    for corner in [
        r##"<path d="M198.0 143.2H175.6A22.4 22.4 0 0 1 198.0 165.6Z" fill="#9ccbe8"/>"##,
        r##"<path d="M198.0 199.2H175.6A22.4 22.4 0 0 0 198.0 176.8Z" fill="#9ccbe8"/>"##,
    ] {
        assert!(svg.contains(corner), "{corner} missing");
    }
    assert!(
        !svg.contains("M142.0 143.2H"),
        "a corner cut toward off the map"
    );
    // A zero count is no badge: Taiwan's islands without coats of arms show no "sh0".
    assert!(!svg.contains(">sh0<") && svg.contains(">sh2<"));
    let (code, _, err) = carto(&["render", "--map", "base"]);
    assert_eq!(code, 1);
    assert!(err.contains("endless table"), "{err}");
    let (code, _, _) = carto(&["render"]);
    assert_eq!(code, 2);
}

/// The page is one file that fetches nothing; it holds every turn.
#[test]
fn view_is_self_contained() {
    let dir = scratch("view");
    let log = dir.join("g.log");
    let (code, _, err) = carto(&[
        "play",
        "france",
        "--seed",
        "3",
        "--quiet",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let page = dir.join("g.html");
    let (code, _, err) = carto(&["view", log.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    let outside: Vec<&str> = ["src=", "href=", "@import", "url(", "https:", "<link"]
        .into_iter()
        .filter(|p| html.contains(p))
        .collect();
    assert!(
        outside.is_empty(),
        "the page refers outside itself: {outside:?}"
    );
    let http: Vec<&str> = html
        .match_indices("http://")
        .map(|(i, _)| &html[i..i + 26])
        .collect();
    assert!(
        http.iter()
            .all(|h| h.starts_with("http://www.w3.org/2000/svg")),
        "{http:?}"
    );
    // France: 114 tiles, each drawn once, shown from its turn.
    assert_eq!(html.matches(r#"<g class="tile""#).count(), 114);
    let last: u32 = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .last()
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .and_then(|v| v["turn"].as_u64())
        .unwrap() as u32;
    assert!(html.contains(&format!("const LAST = {last};")));
    assert_eq!(
        html.matches(r#"<g class="panel""#).count(),
        last as usize + 1
    );
    // Every points pill says why: the rule's heading, its file and line, and its sentence, as the
    // rules page says them (France's roads are base's rule `road`, at its line in base.rules).
    let pills: Vec<&str> = html
        .split(r#"<g class="points""#)
        .skip(1)
        .map(|p| &p[p.find("<title>").unwrap() + 7..p.find("</title>").unwrap()])
        .collect();
    assert!(!pills.is_empty());
    for t in &pills {
        assert!(
            t.contains(" for ") && t.contains(".rules:") && t.contains("): "),
            "a pill without its rule's heading, place and sentence: {t}"
        );
    }
    let road = base_line("rule road ");
    assert!(
        pills.iter().any(|t| t.contains(&format!(
            "for Road (rules/base.rules:{road}): When a road is completed"
        ))),
        "{pills:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The line (from 1) of base.rules that starts with `start`.
fn base_line(start: &str) -> usize {
    std::fs::read_to_string("rules/base.rules")
        .unwrap()
        .lines()
        .position(|l| l.starts_with(start))
        .unwrap()
        + 1
}

/// The ASCII board of a scripted France game (tests/scripts/france/one_sale_per_turn.script):
/// coordinates 0..21 across and 0..19 down, the road of U tiles from Nancy (17,4) west to 15,4 and
/// north to Lille (15,0), ann's purple 2 collected from 15,1 (so no chip shows there), the chips
/// left on the map as letters, and the legend.
#[test]
fn ascii_board_has_coordinates_chips_and_a_legend() {
    let path = "tests/scripts/france/one_sale_per_turn.script";
    let src = carto::diag::Source::new(path, std::fs::read_to_string(path).unwrap());
    let run = carto::script::run_script(&src).unwrap();
    let board = carto::output::ascii_board(&run.game);
    let lines: Vec<&str> = board.lines().collect();
    assert!(lines[0].trim_start().starts_with("0  1  2"), "{}", lines[0]);
    assert!(lines[0].trim_end().ends_with("21"));
    // Row y = 4 is the middle text line of the fifth block of three lines.
    assert!(lines[1 + 3 * 4 + 1].trim_start().starts_with("4 "));
    // 30 chips scattered; bob took 3 into his hand, ann collected 1: 26 on the map, one letter each
    // (no square holds two), lower case (face down), in the chip corner.
    let chip_letters: usize = board
        .lines()
        .take_while(|l| !l.starts_with("legend"))
        .skip(1)
        .map(|l| l.chars().filter(|c| matches!(c, 'p' | 'b' | 'o')).count())
        .sum();
    assert_eq!(chip_letters, 26);
    assert!(board.contains("followers (top corners): 1 ann, 2 bob"));
    assert!(board.contains("p purple, b blue, o orange"));
    insta::assert_snapshot!("ascii_france", board);
}
