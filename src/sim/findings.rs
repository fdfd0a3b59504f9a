//! The report of `carto sim --report`: who wins (per seat, with the balance between seats), how
//! the game goes (lead changes, when it is decided, drama, length, decisions and options), coming
//! back from behind, and what was played and what scored; with `--vs` or `--vs-rules` every figure
//! as the paired difference "yours minus the original" with its interval and a sentence a player
//! reads. Everything is read from the run's histograms (the figures of [`super::story`]), so a
//! merged run reports exactly as one run. Definitions and sources: docs/report.md.

use super::ci::{interval, Interval};
use super::hist::Hist;
use super::run::Results;
use super::stats::{Layout, WIN_UNIT};
use super::story::{band_name, BANDS, HUNDREDTHS, PER_MILLE};
use super::RunInfo;
use serde_json::{json, Value};

/// The normal 97.5% quantile, for the intervals of shares (Wilson) and of the balance.
const Z: f64 = 1.959_963_984_540_054;

/// How a row's value is read from the histograms.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// The mean of a figure per game (in units of 1/scale), with its t interval.
    Mean { fig: usize, who: usize, scale: f64 },
    /// The share of games where a 0-or-1 figure is 1, with its Wilson interval.
    Share { fig: usize, who: usize },
    /// A ratio of two totals: the sum of `num` over the sum of `den` (no interval).
    Ratio { num: usize, den: usize, who: usize },
    /// A share of counts: `won` out of `of` over all games, with its Wilson interval.
    Chance { won: usize, of: usize, who: usize },
}

/// One line of the report.
#[derive(Clone, Debug)]
struct Row {
    section: &'static str,
    /// What it is, in words ("ann's win share").
    what: String,
    /// The figure and group it is read from (for JSON).
    figure: String,
    who: String,
    kind: Kind,
    percent: bool,
    digits: usize,
}

/// A value with its 95% interval (NaN bounds: none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Est {
    pub(crate) mean: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

impl Est {
    fn bare(mean: f64) -> Est {
        Est {
            mean,
            lo: f64::NAN,
            hi: f64::NAN,
        }
    }

    fn of(i: Interval) -> Est {
        Est {
            mean: i.mean,
            lo: i.lo,
            hi: i.hi,
        }
    }

    fn has_interval(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// Whether the interval excludes 0 (a difference the games show).
    fn sure(&self) -> bool {
        self.has_interval() && (self.lo > 0.0 || self.hi < 0.0)
    }

    fn negated(self) -> Est {
        Est {
            mean: -self.mean,
            lo: -self.hi,
            hi: -self.lo,
        }
    }
}

/// The Wilson score interval of a share of `k` out of `n`.
pub(crate) fn wilson(k: f64, n: f64) -> Est {
    if n <= 0.0 {
        return Est::bare(f64::NAN);
    }
    let p = k / n;
    let z2 = Z * Z;
    let d = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / d;
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / d;
    Est {
        mean: p,
        lo: centre - half,
        hi: centre + half,
    }
}

/// The balance: the largest gap between two seats' win shares, with a 95% interval from the
/// normal approximation of a multinomial (the variance of a difference of two shares p and q of
/// one set of games is (p(1−p) + q(1−q) + 2pq)/n), and the two seats.
pub(crate) fn balance(shares: &[f64], n: u64) -> Option<(Est, usize, usize)> {
    let hi = (0..shares.len()).max_by(|&a, &b| shares[a].total_cmp(&shares[b]).then(b.cmp(&a)))?;
    let lo = (0..shares.len()).min_by(|&a, &b| shares[a].total_cmp(&shares[b]).then(a.cmp(&b)))?;
    let (p, q) = (shares[hi], shares[lo]);
    let gap = p - q;
    let half = if n > 0 {
        Z * ((p * (1.0 - p) + q * (1.0 - q) + 2.0 * p * q) / n as f64).sqrt()
    } else {
        f64::NAN
    };
    Some((
        Est {
            mean: gap,
            lo: (gap - half).max(0.0),
            hi: gap + half,
        },
        hi,
        lo,
    ))
}

/// The rows of "how the game goes" read as means: what, figure, unit, in percent, digits.
const HOW: [(&str, &str, f64, bool, usize); 7] = [
    ("lead changes per game", "lead changes", 1.0, false, 2),
    (
        "the share of games with no lead change",
        "no lead change",
        1.0,
        true,
        1,
    ),
    (
        "when the winner took the lead for good (share of the turns)",
        "decided at",
        PER_MILLE as f64,
        true,
        1,
    ),
    (
        "drama: the winner's mean deficit behind the leader (points)",
        "drama: mean deficit",
        HUNDREDTHS as f64,
        false,
        2,
    ),
    (
        "drama: the winner's largest deficit behind the leader (points)",
        "drama: largest deficit",
        1.0,
        false,
        2,
    ),
    ("the game's length in turns", "turns", 1.0, false, 1),
    (
        "decisions with more than one option per game",
        "decisions with a choice",
        1.0,
        false,
        1,
    ),
];

/// The rows of the report for a run's layout (the figures it has).
fn rows(info: &RunInfo, r: &Results) -> Vec<Row> {
    let l = &r.layout;
    let fig = |name: &str| l.figures.iter().position(|f| f == name);
    let game = l.seats();
    let mut out = Vec::new();
    let mean = |section, what: String, name: &str, who: usize, scale: f64, percent, digits| {
        fig(name).map(|f| Row {
            section,
            what,
            figure: name.into(),
            who: l.groups[who].clone(),
            kind: Kind::Mean { fig: f, who, scale },
            percent,
            digits,
        })
    };
    let win = WIN_UNIT as f64;
    for s in 0..game {
        let p = &info.players[s];
        out.extend(mean(
            "who wins",
            format!("{p}'s win share"),
            "win",
            s,
            win,
            true,
            1,
        ));
    }
    for s in 0..game {
        let p = &info.players[s];
        out.extend(mean(
            "who wins",
            format!("{p}'s score"),
            "score",
            s,
            1.0,
            false,
            2,
        ));
    }
    for s in 0..game {
        let p = &info.players[s];
        let what = format!("{p}'s margin (score minus the best other score)");
        out.extend(mean("who wins", what, "margin", s, 1.0, false, 2));
    }
    let g = game;
    let how = "how the game goes";
    for &(what, name, scale, percent, digits) in &HOW {
        let row = mean(how, what.into(), name, g, scale, percent, digits);
        out.extend(row.map(|mut row| {
            // A 0-or-1 figure: its share has Wilson's interval.
            if let (Kind::Mean { fig, who, .. }, true) = (row.kind, name == "no lead change") {
                row.kind = Kind::Share { fig, who };
            }
            row
        }));
    }
    if let (Some(num), Some(den)) = (fig("options at a choice"), fig("decisions with a choice")) {
        out.push(Row {
            section: how,
            what: "options per decision with more than one option".into(),
            figure: "options per decision".into(),
            who: "game".into(),
            kind: Kind::Ratio { num, den, who: g },
            percent: false,
            digits: 2,
        });
    }
    for b in 0..BANDS.len() {
        let (behind, won) = (
            fig(&format!("behind at half-time by {}", band_name(b))),
            fig(&format!("won from behind by {}", band_name(b))),
        );
        if let (Some(of), Some(won)) = (behind, won) {
            out.push(Row {
                section: "coming back",
                what: format!(
                    "the chance to win when {} points behind at half-time",
                    band_name(b)
                ),
                figure: format!("won from behind by {}", band_name(b)),
                who: "game".into(),
                kind: Kind::Chance { won, of, who: g },
                percent: true,
                digits: 1,
            });
        }
    }
    out.extend(played_and_scored(r));
    out
}

/// The rows of what was played, what fired and what scored: every action taken and asked, every
/// rule fired, and every rule's points per game, where not 0 in every game.
fn played_and_scored(r: &Results) -> Vec<Row> {
    let l = &r.layout;
    let g = l.seats();
    let mut out = Vec::new();
    for (f, name) in l.figures.iter().enumerate() {
        let (what, section) = if let Some(a) = name.strip_prefix("action: ") {
            (format!("`{a}` taken per game"), "what was played")
        } else if let Some(a) = name.strip_prefix("asked: ") {
            (format!("`{a}` asked per game"), "what was played")
        } else if let Some(r) = name.strip_prefix("fired: ") {
            (format!("`{r}` fired per game"), "what fired")
        } else if let Some(p) = name.strip_prefix("points: ") {
            (format!("points from `{p}` per game"), "what scored")
        } else {
            continue;
        };
        let idx = l.at(g, f);
        if r.stats.iter().all(|s| s.hists[idx].all_zero()) {
            continue;
        }
        out.push(Row {
            section,
            what,
            figure: name.clone(),
            who: "game".into(),
            kind: Kind::Mean {
                fig: f,
                who: g,
                scale: 1.0,
            },
            percent: false,
            digits: 2,
        });
    }
    // What was played, then the rules that fired, then what they scored.
    out.sort_by_key(|row| match row.section {
        "what was played" => 0,
        "what fired" => 1,
        _ => 2,
    });
    out
}

/// The sum of a histogram, as a float.
fn total(h: &Hist) -> f64 {
    h.sum() as f64
}

/// A row's value under setting `k`.
fn value(row: &Row, l: &Layout, r: &Results, k: usize) -> Est {
    let st = &r.stats[k];
    match row.kind {
        Kind::Mean { fig, who, scale } => {
            let h = &st.hists[l.at(who, fig)];
            if h.n() == 0 {
                return Est::bare(f64::NAN);
            }
            Est::of(interval(h, scale))
        }
        Kind::Share { fig, who } => {
            let h = &st.hists[l.at(who, fig)];
            wilson(total(h), h.n() as f64)
        }
        Kind::Ratio { num, den, who } => {
            let d = total(&st.hists[l.at(who, den)]);
            Est::bare(if d > 0.0 {
                total(&st.hists[l.at(who, num)]) / d
            } else {
                f64::NAN
            })
        }
        Kind::Chance { won, of, who } => wilson(
            total(&st.hists[l.at(who, won)]),
            total(&st.hists[l.at(who, of)]),
        ),
    }
}

/// Which setting is yours and which the original: with `--vs NAME=V`, the original is the
/// variant and yours the changed one (b); with `--vs-rules FILE`, yours is the variant and the
/// original FILE (as `carto sim my.rules --vs-rules original.rules` is written).
fn yours_is_b(info: &RunInfo) -> bool {
    info.vs_rules.is_none()
}

/// The names of the original and of yours, in reports.
pub(crate) fn names(info: &RunInfo) -> (String, String) {
    match &info.vs_rules {
        Some(f) if info.vs.is_empty() => (f.clone(), info.variant.clone()),
        Some(f) => (
            format!("{f} with {}", info.vs.join(" ")),
            info.variant.clone(),
        ),
        None => (
            info.variant.clone(),
            format!("{} with {}", info.variant, info.vs.join(" ")),
        ),
    }
}

/// A row's paired difference, yours minus the original (an interval where the games give one).
fn difference(row: &Row, l: &Layout, r: &Results, info: &RunInfo) -> Est {
    let (o, y) = if yours_is_b(info) { (0, 1) } else { (1, 0) };
    let paired = match row.kind {
        Kind::Mean { fig, who, scale } => Some((fig, who, scale)),
        Kind::Share { fig, who } => Some((fig, who, 1.0)),
        _ => None,
    };
    match row.kind {
        _ if paired.is_some() => {
            let (fig, who, scale) = paired.unwrap_or((0, 0, 1.0));
            let d = &r.diffs[0].hists[l.at(who, fig)];
            if d.n() == 0 {
                return Est::bare(f64::NAN);
            }
            let e = Est::of(interval(d, scale));
            if yours_is_b(info) {
                e
            } else {
                e.negated()
            }
        }
        Kind::Ratio { .. } => Est::bare(value(row, l, r, y).mean - value(row, l, r, o).mean),
        Kind::Mean { .. } | Kind::Share { .. } | Kind::Chance { .. } => {
            // Two shares of different sets of seats: the normal interval of independent shares.
            let (a, b) = (value(row, l, r, o), value(row, l, r, y));
            let se = |e: &Est| ((e.hi - e.lo) / (2.0 * Z)).powi(2);
            let half = Z * (se(&a) + se(&b)).sqrt();
            let d = b.mean - a.mean;
            Est {
                mean: d,
                lo: d - half,
                hi: d + half,
            }
        }
    }
}

/// A value as people read it: a percentage or a number.
pub(crate) fn show(v: f64, percent: bool, digits: usize) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    let s = if percent {
        format!("{:.digits$}%", v * 100.0)
    } else {
        format!("{v:.digits$}")
    };
    if s.trim_start_matches('-').chars().all(|c| "0.%".contains(c)) {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// A value's interval as `[lo, hi]`, or nothing.
pub(crate) fn show_ci(e: &Est, percent: bool, digits: usize) -> String {
    if e.has_interval() {
        format!(
            "[{}, {}]",
            show(e.lo, percent, digits),
            show(e.hi, percent, digits)
        )
    } else {
        String::new()
    }
}

/// A difference with its half-width: `+4.2 (±1.1)`, percentages in points (`-5.0 points (±2.1)`).
pub(crate) fn show_diff(d: &Est, percent: bool, digits: usize) -> String {
    let k = if percent { 100.0 } else { 1.0 };
    let unit = if percent { " points" } else { "" };
    let v = d.mean * k;
    let mut s = format!("{v:+.digits$}{unit}");
    if s.trim_start_matches(['-', '+'])
        .chars()
        .all(|c| "0. points".contains(c))
    {
        s = s.trim_start_matches(['-', '+']).to_string();
    }
    if d.has_interval() {
        let half = (d.hi - d.lo) / 2.0 * k;
        s.push_str(&format!(" (±{half:.digits$})"));
    }
    s
}

/// The sentence for a row of a comparison: what your rule changes and how sure that is.
pub(crate) fn sentence(
    what: &str,
    o: f64,
    y: f64,
    d: &Est,
    percent: bool,
    digits: usize,
) -> String {
    let (os, ys) = (show(o, percent, digits), show(y, percent, digits));
    let what = capital(what);
    if !o.is_finite() || !y.is_finite() {
        return format!("{what}: {os} under the original, {ys} under yours.");
    }
    if !d.has_interval() {
        return format!("{what}: {os} under the original, {ys} under yours (no interval).");
    }
    let by = show_diff(d, percent, digits);
    if d.mean == 0.0 && d.lo == 0.0 && d.hi == 0.0 {
        return format!("{what} is the same in every game under both ({os}).");
    }
    if d.sure() {
        let way = if d.mean > 0.0 { "rises" } else { "falls" };
        format!("{what} {way} from {os} to {ys} ({by}): the games show it at 95% confidence.")
    } else {
        format!(
            "{what} stays at {os} against {ys} ({by}): no change the games can show at 95% confidence."
        )
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The seats' win shares under setting `k`.
fn shares(info: &RunInfo, r: &Results, k: usize) -> Vec<f64> {
    let l = &r.layout;
    let Some(w) = l.figures.iter().position(|f| f == "win") else {
        return Vec::new();
    };
    (0..info.players.len().min(l.seats()))
        .map(|s| r.stats[k].hists[l.at(s, w)].mean() / WIN_UNIT as f64)
        .collect()
}

/// The balance line under setting `k`, and its JSON.
pub(crate) fn balance_of(info: &RunInfo, r: &Results, k: usize) -> Option<(String, Value)> {
    let (b, hi, lo) = balance(&shares(info, r, k), r.games())?;
    let text = format!(
        "{} {} (between {} and {})",
        show(b.mean, true, 1),
        show_ci(&b, true, 1),
        info.players[hi],
        info.players[lo]
    );
    let v = json!({"gap": b.mean, "ci95": [b.lo, b.hi], "most": info.players[hi], "least": info.players[lo]});
    Some((text, v))
}

/// Who played: the agents of the seats, and a warning when a seat plays at random.
fn agents_line(info: &RunInfo) -> String {
    let seats: Vec<String> = info
        .players
        .iter()
        .zip(&info.agents)
        .map(|(p, a)| format!("{p} ({a})"))
        .collect();
    let mut s = format!("played by: {}\n", seats.join(", "));
    for (p, a) in info.players.iter().zip(&info.agents) {
        let barred = crate::agent::barred(a);
        if !barred.is_empty() {
            s.push_str(&format!(
                "restricted play: {p} is greedy barred from {}: {p}'s win share against full \
                 agents says what that is worth (Jaffe et al., 2012)\n",
                barred.join(" and ")
            ));
        }
    }
    if info.agents.iter().any(|a| a == "random") {
        s.push_str(
            "note: a `random` seat plays without aim: its figures say little about the rules \
             (try --agents greedy or mcts)\n",
        );
    }
    s
}

/// The report for people (`carto sim --report`).
pub fn text(info: &RunInfo, r: &Results) -> String {
    let rows = rows(info, r);
    let paired = r.diff().is_some();
    let mut s = format!(
        "report: {} games, {} players\n",
        r.games(),
        info.players.len()
    );
    s.push_str(&agents_line(info));
    let ww = rows
        .iter()
        .map(|r| r.what.chars().count())
        .max()
        .unwrap_or(10);
    if paired {
        let (on, yn) = names(info);
        s.push_str(&format!(
            "the original: {on}; yours: {yn} (the same seeds under both; differences are yours minus the original)\n"
        ));
    }
    let mut section = "";
    let mut words = Vec::new();
    for row in &rows {
        if row.section != section {
            section = row.section;
            s.push_str(&format!("\n{}\n", section.to_uppercase()));
            if paired {
                s.push_str(&format!(
                    "{:<ww$}  {:>10}  {:>10}  {:>22}  95% CI of the difference\n",
                    "", "original", "yours", "yours − original"
                ));
            } else {
                s.push_str(&format!("{:<ww$}  {:>10}  95% CI\n", "", "mean"));
            }
        }
        line(&mut s, row, info, r, ww, &mut words);
    }
    s.push('\n');
    let (o, y) = if yours_is_b(info) { (0, 1) } else { (1, 0) };
    if paired {
        if let (Some((bo, _)), Some((by, _))) = (balance_of(info, r, o), balance_of(info, r, y)) {
            s.push_str(&format!(
                "balance (the largest gap between seats' win shares): the original {bo}; yours {by}\n"
            ));
        }
        s.push_str("\nIN A PLAYER'S WORDS\n");
        let (same, changed): (Vec<String>, Vec<String>) = words
            .into_iter()
            .partition(|w| w.contains(" is the same in every game under both"));
        for w in headline(info, r).into_iter().chain(changed) {
            s.push_str(&format!("- {w}\n"));
        }
        if !same.is_empty() {
            s.push_str(&format!(
                "- The same in every game under both: {}.\n",
                same.iter()
                    .filter_map(|w| w.split(" is the same").next())
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
        s.push_str("\n* the interval excludes 0: a difference the games show at 95% confidence (shares: in percentage points)\n");
    } else if let Some((b, _)) = balance_of(info, r, 0) {
        s.push_str(&format!(
            "balance (the largest gap between seats' win shares): {b}\n"
        ));
    }
    s.push_str("definitions and sources of every figure: docs/report.md\n");
    s
}

/// One row of the text report (`ww`: the width of the first column); in a comparison, its
/// sentence goes to `words`.
fn line(
    s: &mut String,
    row: &Row,
    info: &RunInfo,
    r: &Results,
    ww: usize,
    words: &mut Vec<String>,
) {
    let l = &r.layout;
    let (p, dg) = (row.percent, row.digits);
    if r.diff().is_none() {
        let v = value(row, l, r, 0);
        s.push_str(&format!(
            "{:<ww$}  {:>10}  {}\n",
            row.what,
            show(v.mean, p, dg),
            show_ci(&v, p, dg)
        ));
        return;
    }
    let (o, y) = if yours_is_b(info) { (0, 1) } else { (1, 0) };
    let (a, b) = (value(row, l, r, o), value(row, l, r, y));
    let d = difference(row, l, r, info);
    let mut ci = String::new();
    if d.has_interval() {
        let k = if p { 100.0 } else { 1.0 };
        ci = format!(
            "[{}, {}]",
            show(d.lo * k, false, dg),
            show(d.hi * k, false, dg)
        );
        if d.sure() {
            ci.push_str(" *");
        }
    }
    s.push_str(&format!(
        "{:<ww$}  {:>10}  {:>10}  {:>22}  {ci}\n",
        row.what,
        show(a.mean, p, dg),
        show(b.mean, p, dg),
        show_diff(&Est::bare(d.mean), p, dg),
    ));
    words.push(sentence(&row.what, a.mean, b.mean, &d, p, dg));
}

/// The first sentences of a comparison: the points your rule moves between seats (the seat whose
/// margin changes most) and the first player's edge.
fn headline(info: &RunInfo, r: &Results) -> Vec<String> {
    let l = &r.layout;
    let mut out = Vec::new();
    let rows = rows(info, r);
    let margin = rows
        .iter()
        .filter(|row| row.figure == "margin")
        .map(|row| (row, difference(row, l, r, info)))
        .max_by(|a, b| a.1.mean.abs().total_cmp(&b.1.mean.abs()));
    if let Some((row, d)) = margin {
        let half = (d.hi - d.lo) / 2.0;
        let to = if d.mean >= 0.0 { "to" } else { "away from" };
        let sure = if d.sure() {
            "the games show it at 95% confidence"
        } else {
            "not a change the games can show at 95% confidence"
        };
        out.push(format!(
            "Your rule moves {:.1} points (±{half:.1}) {to} {} against the best other player: {sure}.",
            d.mean.abs(),
            row.who
        ));
    }
    if let Some(row) = rows.iter().find(|row| row.figure == "win") {
        let (o, y) = if yours_is_b(info) { (0, 1) } else { (1, 0) };
        let fair = 1.0 / l.seats().max(1) as f64;
        let (a, b) = (value(row, l, r, o).mean, value(row, l, r, y).mean);
        let d = difference(row, l, r, info);
        let half = (d.hi - d.lo) / 2.0 * 100.0;
        out.push(format!(
            "The first player's ({}) win share goes from {} to {} (±{half:.1} points; a fair share is {}).",
            row.who,
            show(a, true, 1),
            show(b, true, 1),
            show(fair, true, 1)
        ));
    }
    out
}

/// A figure of one report for the table across runs (`--players 2..4`, `--skill`): its value
/// (the original's in a comparison), and in a comparison yours and the difference.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side {
    pub(crate) value: Est,
    pub(crate) yours: Option<Est>,
    pub(crate) diff: Option<Est>,
    pub(crate) percent: bool,
    pub(crate) digits: usize,
}

/// The report's figure `figure` of group `who` (a seat, or the game: `seats`), if the run has it.
pub(crate) fn side(info: &RunInfo, r: &Results, figure: &str, who: usize) -> Option<Side> {
    let l = &r.layout;
    let group = l.groups.get(who)?;
    let rows = rows(info, r);
    let row = rows
        .iter()
        .find(|row| row.figure == figure && &row.who == group)?;
    let (o, y) = if yours_is_b(info) { (0, 1) } else { (1, 0) };
    let paired = r.diff().is_some();
    Some(Side {
        value: value(row, l, r, if paired { o } else { 0 }),
        yours: paired.then(|| value(row, l, r, y)),
        diff: paired.then(|| difference(row, l, r, info)),
        percent: row.percent,
        digits: row.digits,
    })
}

/// The report as JSON: one object per row (per setting and, in a comparison, the difference and
/// the sentence), the balance and the agents.
pub fn json(info: &RunInfo, r: &Results) -> Value {
    let l = &r.layout;
    let paired = r.diff().is_some();
    let (o, y) = if yours_is_b(info) { (0, 1) } else { (1, 0) };
    let est = |e: &Est| json!({"mean": fin(e.mean), "ci95": if e.has_interval() { json!([e.lo, e.hi]) } else { Value::Null }});
    let figures: Vec<Value> = rows(info, r)
        .iter()
        .map(|row| {
            let mut v = json!({
                "section": row.section,
                "what": row.what,
                "figure": row.figure,
                "who": row.who,
                "percent": row.percent,
            });
            if paired {
                let (a, b) = (value(row, l, r, o), value(row, l, r, y));
                let d = difference(row, l, r, info);
                v["original"] = est(&a);
                v["yours"] = est(&b);
                v["difference"] = est(&d);
                v["significant"] = json!(d.sure());
                v["sentence"] = json!(sentence(
                    &row.what,
                    a.mean,
                    b.mean,
                    &d,
                    row.percent,
                    row.digits
                ));
            } else {
                v["value"] = est(&value(row, l, r, 0));
            }
            v
        })
        .collect();
    let mut doc = json!({
        "games": r.games(),
        "players": info.players,
        "agents": info.agents,
        "figures": figures,
    });
    if paired {
        let (on, yn) = names(info);
        doc["original"] = json!(on);
        doc["yours"] = json!(yn);
        doc["headline"] = json!(headline(info, r));
        doc["balance"] = json!({
            "original": balance_of(info, r, o).map(|b| b.1),
            "yours": balance_of(info, r, y).map(|b| b.1),
        });
    } else {
        doc["balance"] = balance_of(info, r, 0).map(|b| b.1).unwrap_or(Value::Null);
    }
    doc
}

pub(crate) fn fin(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_by_hand() {
        // 3 of 10: p 0.3, z² 3.8415; centre (0.3 + 0.19207)/1.38415 = 0.35550; half
        // 1.96·√(0.021 + 0.0096037)/1.38415 = 0.24771: [0.1078, 0.6032].
        let e = wilson(3.0, 10.0);
        assert!((e.mean - 0.3).abs() < 1e-12);
        assert!((e.lo - 0.1078).abs() < 1e-3, "{e:?}");
        assert!((e.hi - 0.6032).abs() < 1e-3, "{e:?}");
        assert!(wilson(0.0, 0.0).mean.is_nan());
    }

    #[test]
    fn balance_by_hand() {
        // Shares 0.5, 0.3, 0.2 of 100 games: gap 0.3 between seats 0 and 2; variance
        // (0.25 + 0.16 + 2·0.1)/100 = 0.0061, half 1.96·0.078102 = 0.15308.
        let (b, hi, lo) = balance(&[0.5, 0.3, 0.2], 100).unwrap();
        assert_eq!((hi, lo), (0, 2));
        assert!((b.mean - 0.3).abs() < 1e-12);
        assert!((b.hi - 0.45308).abs() < 1e-4, "{b:?}");
        assert!((b.lo - 0.14692).abs() < 1e-4, "{b:?}");
        // Two seats alike: no gap, and the interval does not go below 0.
        let (b, _, _) = balance(&[0.5, 0.5], 100).unwrap();
        assert_eq!((b.mean, b.lo), (0.0, 0.0));
    }

    #[test]
    fn sentences_say_how_sure() {
        let sure = Est {
            mean: -0.05,
            lo: -0.07,
            hi: -0.03,
        };
        assert_eq!(
            sentence("ann's win share", 0.56, 0.51, &sure, true, 1),
            "Ann's win share falls from 56.0% to 51.0% (-5.0 points (±2.0)): the games show it at 95% confidence."
        );
        let unsure = Est {
            mean: 0.3,
            lo: -0.5,
            hi: 1.1,
        };
        assert_eq!(
            sentence("lead changes per game", 2.1, 2.4, &unsure, false, 2),
            "Lead changes per game stays at 2.10 against 2.40 (+0.30 (±0.80)): no change the games can show at 95% confidence."
        );
    }
}
