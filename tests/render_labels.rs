//! The board's labels and floated points stay apart: on the final board of a game of every bundled
//! variant at 2 to 6 players (`carto play --seed 3`, drawn by `carto render`), no two labels
//! (`text.label`: names, coordinates, badges) overlap, and no points (`g.points`) lie over a label, a
//! chip, other points or outside the board's squares. Boxes are estimated from a label's size and
//! length as the renderer's own estimate is (0.66 of the size a character); the browser audit
//! (`tests/browser/check.sh`) measures the text as Chromium lays it out.

use crate::common;

use common::carto;

type Box4 = [f64; 4];

/// The value of attribute `name` in tag `tag` (the text between `<` and `>`).
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    tag[at..].split('"').next()
}

fn num(tag: &str, name: &str) -> f64 {
    attr(tag, name).and_then(|v| v.parse().ok()).unwrap_or(0.0)
}

/// What the board shows, outside the groups drawn scaled (the players' panel).
#[derive(Default, Debug)]
struct Drawn {
    /// (text, box) of every label.
    labels: Vec<(String, Box4)>,
    /// (title, box) of every points pill.
    points: Vec<(String, Box4)>,
    /// Every chip's disc.
    chips: Vec<Box4>,
}

fn text_box(tag: &str, s: &str) -> Box4 {
    let (x, y, size) = (num(tag, "x"), num(tag, "y"), num(tag, "font-size"));
    let w = 0.66 * size * s.chars().count() as f64;
    let left = match attr(tag, "text-anchor") {
        Some("middle") => x - w / 2.0,
        Some("end") => x - w,
        _ => x,
    };
    [left, y - size * 0.9, left + w, y + size * 0.25]
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

fn drawn(svg: &str) -> Drawn {
    let mut d = Drawn::default();
    // For each open <g>: whether it (or one around it) is scaled, and whether it is a points pill.
    let mut groups: Vec<(bool, bool)> = Vec::new();
    let mut rest = svg;
    let mut pill_title = String::new();
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        let tag = &rest[open + 1..open + close];
        let after = &rest[open + close + 1..];
        let scaled = groups.last().is_some_and(|g| g.0);
        let in_pill = groups.iter().any(|g| g.1);
        if tag.starts_with("/g") {
            groups.pop();
        } else if tag.starts_with("g ") || tag == "g" {
            let self_closing = tag.ends_with('/');
            if !self_closing {
                groups.push((
                    scaled || attr(tag, "transform").is_some(),
                    attr(tag, "class") == Some("points"),
                ));
            }
        } else if tag.starts_with("title") && in_pill {
            pill_title = unescape(after.split('<').next().unwrap_or(""));
        } else if !scaled && tag.starts_with("text ") && attr(tag, "class") == Some("label") {
            let s = unescape(after.split('<').next().unwrap_or(""));
            d.labels.push((s.clone(), text_box(tag, &s)));
        } else if !scaled && in_pill && tag.starts_with("rect ") {
            let (x, y) = (num(tag, "x"), num(tag, "y"));
            let b = [x, y, x + num(tag, "width"), y + num(tag, "height")];
            d.points.push((pill_title.clone(), b));
        } else if !scaled
            && tag.starts_with("circle ")
            && attr(tag, "stroke") == Some("#222")
            && attr(tag, "fill") != Some("none")
        {
            let (x, y, r) = (num(tag, "cx"), num(tag, "cy"), num(tag, "r"));
            d.chips.push([x - r, y - r, x + r, y + r]);
        }
        rest = after;
    }
    d
}

fn overlap(a: &Box4, b: &Box4) -> bool {
    a[0].max(b[0]) + 0.5 < a[2].min(b[2]) && a[1].max(b[1]) + 0.5 < a[3].min(b[3])
}

/// The board's squares, from the coordinates (the column numbers 6 above it, centred on their
/// column; the row numbers beside it, 5 below the middle of their row): left, top, right, bottom.
fn board_box(svg: &str) -> Box4 {
    let half = 28.0; // half a square
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for part in svg.split("<text ").skip(1) {
        let tag = format!(" {}", part.split('>').next().unwrap_or(""));
        if attr(&tag, "class") != Some("label") || attr(&tag, "fill") != Some("#555") {
            continue;
        }
        let (x, y) = (num(&tag, "x"), num(&tag, "y"));
        match attr(&tag, "text-anchor") {
            Some("middle") => {
                b = [
                    b[0].min(x - half),
                    b[1].min(y + 6.0),
                    b[2].max(x + half),
                    b[3],
                ];
            }
            Some("end") => b[3] = b[3].max(y - 5.0 + half),
            _ => {}
        }
    }
    b
}

/// What is wrong on one board.
fn problems(svg: &str) -> Vec<String> {
    let mut d = drawn(svg);
    let inside = board_box(svg);
    // The board's labels and the title (the legend below the board is laid out by itself).
    d.labels.retain(|(_, b)| b[1] < inside[3]);
    let mut out = Vec::new();
    for (i, (a, ra)) in d.labels.iter().enumerate() {
        for (b, rb) in &d.labels[i + 1..] {
            if overlap(ra, rb) {
                out.push(format!("labels {a:?} and {b:?} overlap"));
            }
        }
    }
    for (i, (p, rp)) in d.points.iter().enumerate() {
        for (l, rl) in &d.labels {
            if overlap(rp, rl) {
                out.push(format!("points {p:?} over the label {l:?}"));
            }
        }
        if d.chips.iter().any(|c| overlap(rp, c)) {
            out.push(format!("points {p:?} over a chip"));
        }
        for (q, rq) in &d.points[i + 1..] {
            if overlap(rp, rq) {
                out.push(format!("points {p:?} and {q:?} overlap"));
            }
        }
        if rp[0] < inside[0] - 0.5
            || rp[1] < inside[1] - 0.5
            || rp[2] > inside[2] + 0.5
            || rp[3] > inside[3] + 0.5
        {
            out.push(format!("points {p:?} outside the board"));
        }
    }
    out
}

fn variants() -> Vec<String> {
    let (code, out, err) = carto(&["list"]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

/// Every bundled variant's final board at 2, 3, 4, 5 and 6 players (seed 3).
#[test]
fn labels_and_points_stay_apart_on_every_final_board() {
    let dir = common::fresh_dir("render-labels", "final");
    let seats = ["ann", "bob", "cy", "dee", "eve", "fay"];
    let games: Vec<(String, usize)> = variants()
        .into_iter()
        .flat_map(|v| (2..=6).map(move |n| (v.clone(), n)))
        .collect();
    let dir = &dir;
    let found: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = games
            .chunks(games.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    let mut found = Vec::new();
                    for (v, n) in chunk {
                        let log = dir.join(format!("{v}-{n}.log"));
                        let log = log.to_str().unwrap();
                        let players = seats[..*n].join(",");
                        let (code, _, err) = carto(&[
                            "play",
                            v,
                            "--seed",
                            "3",
                            "--players",
                            &players,
                            "--log",
                            log,
                            "--quiet",
                        ]);
                        assert_eq!(code, 0, "{v} with {n} players: {err}");
                        let (code, svg, err) = carto(&["render", log, "-o", "-"]);
                        assert_eq!(code, 0, "{v} with {n} players: {err}");
                        let d = drawn(&svg);
                        assert!(!d.labels.is_empty(), "{v}: no labels found");
                        found.extend(
                            problems(&svg)
                                .into_iter()
                                .map(|p| format!("{v}, {n} players: {p}")),
                        );
                    }
                    found
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The checker finds what it looks for: a pill moved onto a label, a chip or outside the board.
#[test]
fn the_label_check_sees_an_overlap() {
    let svg = r##"<svg><text x="58.0" y="52.0" font-size="13" text-anchor="middle" class="label" fill="#555">0</text>
<text x="114.0" y="52.0" font-size="13" text-anchor="middle" class="label" fill="#555">1</text>
<text x="25.0" y="91.0" font-size="13" text-anchor="end" class="label" fill="#555">0</text>
<text x="40.0" y="80.0" font-size="10" text-anchor="start" class="label">sh1</text>
<circle cx="120" cy="100" r="9" fill="#f00" stroke="#222"/>
<g class="points"><title>ann +9</title><rect x="35" y="70" width="34" height="22"/></g>
<g class="points"><title>bob +4</title><rect x="100" y="90" width="34" height="22"/></g>
<g class="points"><title>cy +2</title><rect x="100" y="40" width="34" height="22"/></g>
<g transform="scale(2)"><text x="40.0" y="80.0" font-size="10" class="label">sh1</text></g></svg>"##;
    assert_eq!(
        problems(svg),
        [
            r#"points "ann +9" over the label "sh1""#,
            r#"points "bob +4" over a chip"#,
            r#"points "cy +2" over the label "1""#,
            r#"points "cy +2" outside the board"#,
        ]
    );
}
