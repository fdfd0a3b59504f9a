//! The results of a run for people (a table), for spreadsheets (CSV, one row per figure and seat)
//! and for programs and `carto sim merge` (JSON with every histogram, so slices merge exactly).

use super::ci::{interval, Interval};
use super::hist::Hist;
use super::run::{game_seed, Results};
use super::stats::{Layout, Stats, WIN_UNIT};
use super::{csv, plot, RunInfo};
use serde_json::{json, Value};

/// The unit of a figure's observations: win shares are counted in 60ths.
pub(crate) fn scale(figure: &str) -> f64 {
    if figure == "win" {
        WIN_UNIT as f64
    } else {
        1.0
    }
}

/// One line of a report: a figure of one group.
struct Line<'a> {
    figure: &'a str,
    who: &'a str,
    /// Per setting.
    hists: Vec<&'a Hist>,
    /// Per setting after the first: its difference with the first.
    diffs: Vec<&'a Hist>,
}

/// The lines worth showing: figures that are not 0 in every game of every setting, for the groups
/// they apply to.
fn lines<'a>(layout: &'a Layout, r: &'a Results, all: bool) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    for (f, figure) in layout.figures.iter().enumerate() {
        let shown = all
            || f == 0
            || r.stats
                .iter()
                .any(|s| (0..layout.groups.len()).any(|g| !s.hists[layout.at(g, f)].all_zero()));
        if !shown {
            continue;
        }
        for (g, who) in layout.groups.iter().enumerate() {
            let i = layout.at(g, f);
            if r.stats.iter().all(|s| s.hists[i].n() == 0) {
                continue;
            }
            out.push(Line {
                figure,
                who,
                hists: r.stats.iter().map(|s| &s.hists[i]).collect(),
                diffs: r.diffs.iter().map(|d| &d.hists[i]).collect(),
            });
        }
    }
    out
}

/// What was played, and how to replay a game alone.
pub fn header(info: &RunInfo, r: &Results) -> String {
    let n = r.games();
    let seats: Vec<String> = info
        .players
        .iter()
        .zip(&info.agents)
        .map(|(p, a)| format!("{p} ({a})"))
        .collect();
    let mut s = format!(
        "{}: {n} game{} ({}), seats: {}\n",
        info.variant,
        if n == 1 { "" } else { "s" },
        ranges_text(info, &r.played),
        seats.join(", ")
    );
    if !info.sets.is_empty() {
        s.push_str(&format!("settings: {}\n", info.sets.join(" ")));
    }
    if !info.sweep.is_empty() {
        let labels = info.setting_labels();
        s.push_str(&format!(
            "sweep: {} ({} values, the same seeds under each; differences are from the first, {})\n",
            info.sweep.join(" "),
            labels.len(),
            labels[0]
        ));
    }
    if info.paired() {
        let mut b = Vec::new();
        if let Some(f) = &info.vs_rules {
            b.push(format!("rules {f}"));
        }
        b.extend(info.vs.iter().cloned());
        s.push_str(&format!(
            "a: as above; b: {} (the same seeds under both)\n",
            b.join(", ")
        ));
    }
    if r.interrupted {
        s.push_str("interrupted: the results of the games played so far\n");
    }
    let first = r.played.first().map(|p| p.0).unwrap_or(0);
    s.push_str(&format!(
        "game i has seed {}+i; replay one alone, e.g. game {first}: {}\n",
        info.seed,
        info.replay_command(0, first)
    ));
    if info.paired() {
        s.push_str(&format!("  under b: {}\n", info.replay_command(1, first)));
    }
    if let Some(last) = info
        .setting_labels()
        .len()
        .checked_sub(1)
        .filter(|&l| l > 0 && !info.sweep.is_empty())
    {
        s.push_str(&format!(
            "  under the last value: {}\n",
            info.replay_command(last, first)
        ));
    }
    s
}

fn ranges_text(info: &RunInfo, played: &[(u64, u64)]) -> String {
    let parts: Vec<String> = played
        .iter()
        .map(|&(a, b)| {
            format!(
                "games {a} to {}, seeds {} to {}",
                b - 1,
                game_seed(info.seed, a),
                game_seed(info.seed, b - 1)
            )
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join("; ")
    }
}

fn num(v: f64, digits: usize) -> String {
    if v.is_finite() {
        let s = format!("{v:.digits$}");
        // No "-0.00".
        if s.trim_start_matches('-')
            .chars()
            .all(|c| c == '0' || c == '.')
        {
            s.trim_start_matches('-').to_string()
        } else {
            s
        }
    } else {
        "-".into()
    }
}

fn digits(figure: &str) -> usize {
    if figure == "win" {
        3
    } else {
        2
    }
}

/// The table for people.
pub fn table(info: &RunInfo, r: &Results) -> String {
    let ls = lines(&r.layout, r, false);
    let fw = ls.iter().map(|l| l.figure.len()).max().unwrap_or(6).max(6);
    let ww = ls.iter().map(|l| l.who.len()).max().unwrap_or(3).max(3);
    let mut s = header(info, r);
    s.push('\n');
    if r.diff().is_some() {
        s.push_str(&format!(
            "{:<fw$}  {:<ww$}  {:>10}  {:>10}  {:>10}  95% CI of b − a\n",
            "figure", "who", "a mean", "b mean", "b − a"
        ));
        for l in &ls {
            let (k, d) = (scale(l.figure), digits(l.figure));
            let i = interval(l.diffs[0], k);
            s.push_str(&format!(
                "{:<fw$}  {:<ww$}  {:>10}  {:>10}  {:>10}  {}\n",
                l.figure,
                l.who,
                num(l.hists[0].mean() / k, d),
                num(l.hists[1].mean() / k, d),
                num(i.mean, d),
                ci_text(&i, d)
            ));
        }
        s.push_str("\n* the interval excludes 0: a difference the games show at 95% confidence\n");
    } else {
        s.push_str(&format!(
            "{:<fw$}  {:<ww$}  {:>10}  {:>10}  {:>10}  {:>8}  {:>8}\n",
            "figure", "who", "mean", "sd", "median", "min", "max"
        ));
        for l in &ls {
            let (k, d, h) = (scale(l.figure), digits(l.figure), l.hists[0]);
            s.push_str(&format!(
                "{:<fw$}  {:<ww$}  {:>10}  {:>10}  {:>10}  {:>8}  {:>8}\n",
                l.figure,
                l.who,
                num(h.mean() / k, d),
                num(h.sd() / k, d),
                num(h.median() / k, d),
                h.min()
                    .map(|v| num(v as f64 / k, whole(k)))
                    .unwrap_or_default(),
                h.max()
                    .map(|v| num(v as f64 / k, whole(k)))
                    .unwrap_or_default(),
            ));
        }
    }
    s.push_str(concat!(
        "\nwin: the share of games won (a tie shares the win); margin: the seat's score minus the best\n",
        "other score; game: the game as a whole (totals over seats; its margin is the winner's lead)\n"
    ));
    s
}

/// Digits for a single observation: none for integers, three for win shares.
fn whole(k: f64) -> usize {
    if k == 1.0 {
        0
    } else {
        3
    }
}

fn ci_text(i: &Interval, d: usize) -> String {
    format!(
        "[{}, {}]{}",
        num(i.lo, d),
        num(i.hi, d),
        if i.significant { " *" } else { "" }
    )
}

/// One row per figure and group (and setting): for spreadsheets and data frames.
pub fn csv(_info: &RunInfo, r: &Results) -> String {
    let mut s = String::new();
    if r.diff().is_some() {
        s.push_str("figure,who,n,a_mean,b_mean,diff_mean,diff_sd,ci_lo,ci_hi,significant\n");
    } else {
        s.push_str("figure,who,n,mean,sd,median,min,max\n");
    }
    for l in lines(&r.layout, r, true) {
        let k = scale(l.figure);
        let h = l.hists[0];
        if let Some(dh) = l.diffs.first().filter(|_| r.diff().is_some()) {
            let i = interval(dh, k);
            s.push_str(&csv::row(&[
                l.figure.to_string(),
                l.who.to_string(),
                dh.n().to_string(),
                (h.mean() / k).to_string(),
                (l.hists[1].mean() / k).to_string(),
                i.mean.to_string(),
                (dh.sd() / k).to_string(),
                i.lo.to_string(),
                i.hi.to_string(),
                i.significant.to_string(),
            ]));
        } else {
            s.push_str(&csv::row(&[
                l.figure.to_string(),
                l.who.to_string(),
                h.n().to_string(),
                (h.mean() / k).to_string(),
                (h.sd() / k).to_string(),
                (h.median() / k).to_string(),
                h.min()
                    .map(|v| (v as f64 / k).to_string())
                    .unwrap_or_default(),
                h.max()
                    .map(|v| (v as f64 / k).to_string())
                    .unwrap_or_default(),
            ]));
        }
    }
    s
}

fn stat_json(figure: &str, who: &str, setting: &str, h: &Hist) -> Value {
    let k = scale(figure);
    json!({
        "setting": setting,
        "figure": figure,
        "who": who,
        "n": h.n(),
        "mean": h.mean() / k,
        "sd": h.sd() / k,
        "median": h.median() / k,
        "min": h.min().map(|v| v as f64 / k),
        "max": h.max().map(|v| v as f64 / k),
        "unit": k as i64,
        "hist": h.entries(),
    })
}

/// Everything, histograms included: what `carto sim merge` reads back.
pub fn json(info: &RunInfo, r: &Results) -> String {
    let sweep = !info.sweep.is_empty();
    let labels = info.setting_labels();
    let diff_labels = diff_labels(info);
    let mut figures = Vec::new();
    for (f, figure) in r.layout.figures.iter().enumerate() {
        for (g, who) in r.layout.groups.iter().enumerate() {
            let i = r.layout.at(g, f);
            for (s, st) in r.stats.iter().enumerate() {
                let mut v = stat_json(figure, who, &labels[s], &st.hists[i]);
                if sweep {
                    let iv = interval(&st.hists[i], scale(figure));
                    v["ci95"] = json!([finite(iv.lo), finite(iv.hi)]);
                }
                figures.push(v);
            }
            for (s, d) in r.diffs.iter().enumerate() {
                let mut v = stat_json(figure, who, &diff_labels[s], &d.hists[i]);
                let iv = interval(&d.hists[i], scale(figure));
                v["ci95"] = json!([finite(iv.lo), finite(iv.hi)]);
                v["significant"] = json!(iv.significant);
                figures.push(v);
            }
        }
    }
    let first = r.played.first().map(|p| p.0).unwrap_or(0);
    let mut doc = json!({
        "format": "carto-sim-1",
        "run": info,
        "games": r.games(),
        "played": r.played,
        "interrupted": r.interrupted,
        "replay": info.replay_command(0, first),
        "figures": figures,
    });
    if info.report {
        doc["report"] = super::findings::json(info, r);
    }
    if sweep {
        doc["points"] = json!(labels);
        doc["balance"] = Value::Array(
            balance(r)
                .iter()
                .zip(&labels)
                .map(|(b, l)| {
                    json!({
                        "setting": l,
                        "first_seat_win_share": finite(b.share.mean),
                        "ci95": [finite(b.share.lo), finite(b.share.hi)],
                        "fair_share": b.fair,
                        "advantage": b.verdict(),
                    })
                })
                .collect(),
        );
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

fn finite(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

/// Reads back what [`json`] wrote.
pub fn from_json(text: &str) -> Result<(RunInfo, Results), String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if doc["format"] != "carto-sim-1" {
        return Err(
            "not the JSON of `carto sim --format json` (no `\"format\": \"carto-sim-1\"`)".into(),
        );
    }
    let info: RunInfo =
        serde_json::from_value(doc["run"].clone()).map_err(|e| format!("`run`: {e}"))?;
    let played: Vec<(u64, u64)> =
        serde_json::from_value(doc["played"].clone()).map_err(|e| format!("`played`: {e}"))?;
    let interrupted = doc["interrupted"].as_bool().unwrap_or(false);
    let items = doc["figures"].as_array().ok_or("no `figures` list")?;
    let mut figures: Vec<String> = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    for it in items {
        let f = it["figure"].as_str().ok_or("a figure without a name")?;
        let g = it["who"].as_str().ok_or("a figure without `who`")?;
        if !figures.iter().any(|x| x == f) {
            figures.push(f.into());
        }
        if !groups.iter().any(|x| x == g) {
            groups.push(g.into());
        }
    }
    let layout = Layout { figures, groups };
    info.points().map_err(|e| format!("`run`: {e}"))?;
    let labels = info.setting_labels();
    let diff_labels = diff_labels(&info);
    let mut stats = vec![Stats::new(&layout); labels.len()];
    let mut diffs = vec![Stats::new(&layout); diff_labels.len()];
    for it in items {
        let f = layout
            .figures
            .iter()
            .position(|x| it["figure"] == **x)
            .unwrap_or(0);
        let g = layout
            .groups
            .iter()
            .position(|x| it["who"] == **x)
            .unwrap_or(0);
        let entries: Vec<(i64, u64)> = serde_json::from_value(it["hist"].clone())
            .map_err(|e| format!("`hist` of {}: {e}", layout.figures[f]))?;
        let setting = it["setting"].as_str().unwrap_or_default();
        let target = if let Some(k) = labels.iter().position(|l| l == setting) {
            &mut stats[k]
        } else if let Some(k) = diff_labels.iter().position(|l| l == setting) {
            &mut diffs[k]
        } else {
            return Err(format!(
                "figure {}: unknown setting `{setting}`",
                layout.figures[f]
            ));
        };
        let h = &mut target.hists[layout.at(g, f)];
        for (v, c) in entries {
            h.add_n(v, c);
        }
    }
    Ok((
        info,
        Results {
            layout,
            stats,
            diffs,
            played,
            interrupted,
        },
    ))
}

/// The names of the differences in JSON: `b-a` for a comparison, `POINT - FIRST` for a sweep.
fn diff_labels(info: &RunInfo) -> Vec<String> {
    let labels = info.setting_labels();
    if info.sweep.is_empty() {
        if labels.len() == 2 {
            vec!["b-a".into()]
        } else {
            Vec::new()
        }
    } else {
        labels[1..]
            .iter()
            .map(|l| format!("{l} - {}", labels[0]))
            .collect()
    }
}

/// The first seat's win share at one setting, against a fair share (1 / seats).
pub(crate) struct Balance {
    pub(crate) share: Interval,
    pub(crate) fair: f64,
}

impl Balance {
    /// `"ahead"` or `"behind"` when the interval excludes the fair share, else `None`.
    pub(crate) fn verdict(&self) -> Option<&'static str> {
        if self.share.lo > self.fair {
            Some("ahead")
        } else if self.share.hi < self.fair {
            Some("behind")
        } else {
            None
        }
    }
}

/// The first seat's win share with its 95% interval, per setting.
pub(crate) fn balance(r: &Results) -> Vec<Balance> {
    let seats = r.layout.seats().max(1);
    let win = r
        .layout
        .figures
        .iter()
        .position(|f| f == "win")
        .unwrap_or(1);
    r.stats
        .iter()
        .map(|s| Balance {
            share: interval(&s.hists[r.layout.at(0, win)], WIN_UNIT as f64),
            fair: 1.0 / seats as f64,
        })
        .collect()
}

/// The balance line of a sweep: the first seat's win share, and the values where it is more or
/// less than a fair share at 95% confidence.
pub(crate) fn balance_line(info: &RunInfo, r: &Results) -> String {
    let labels = info.setting_labels();
    let b = balance(r);
    let first = info.players.first().map(String::as_str).unwrap_or("");
    let share = |b: &Balance| {
        format!(
            "{} [{}, {}]",
            num(b.share.mean, 2),
            num(b.share.lo, 2),
            num(b.share.hi, 2)
        )
    };
    let found: Vec<String> = b
        .iter()
        .zip(&labels)
        .filter_map(|(b, l)| b.verdict().map(|v| format!("{v} at {l} ({})", share(b))))
        .collect();
    let fair = b.first().map(|b| b.fair).unwrap_or(0.5);
    if found.is_empty() {
        let range = if b.len() > 1 {
            let lo = b.iter().map(|b| b.share.mean).fold(f64::INFINITY, f64::min);
            let hi = b
                .iter()
                .map(|b| b.share.mean)
                .fold(f64::NEG_INFINITY, f64::max);
            format!(" (from {} to {} over the values)", num(lo, 2), num(hi, 2))
        } else {
            String::new()
        };
        format!(
            "balance: first-seat ({first}) win share {} at {}{range}: no seat advantage detected (a fair share is {})\n",
            share(&b[0]),
            labels[0],
            num(fair, 2)
        )
    } else {
        format!(
            "balance: seat advantage detected, first seat ({first}) against a fair share of {}: {}{}\n",
            num(fair, 2),
            found.join(", "),
            if found.len() < b.len() {
                "; none at the other values"
            } else {
                ""
            }
        )
    }
}

/// The column head and the cell of each point: the values of a one-parameter sweep, else the
/// settings.
fn point_names(info: &RunInfo) -> (String, Vec<String>) {
    let labels = info.setting_labels();
    match crate::sim::sweep::parse_axes(&info.sweep) {
        Ok(axes) if axes.len() == 1 => (axes[0].name.clone(), axes[0].values.clone()),
        _ => ("setting".into(), labels),
    }
}

/// The table of a sweep: per figure and seat, each value's mean with its 95% interval, and its
/// difference with the first value (the same games) with that difference's interval.
pub fn sweep_table(info: &RunInfo, r: &Results) -> String {
    let ls = lines(&r.layout, r, false);
    let (head, names) = point_names(info);
    let fw = ls.iter().map(|l| l.figure.len()).max().unwrap_or(6).max(6);
    let ww = ls.iter().map(|l| l.who.len()).max().unwrap_or(3).max(3);
    let pw = names
        .iter()
        .map(|n| n.chars().count())
        .chain([head.chars().count()])
        .max()
        .unwrap_or(5);
    let mut s = header(info, r);
    s.push('\n');
    s.push_str(&format!(
        "{:<fw$}  {:<ww$}  {:<pw$}  {:>9}  {:<20}  {:>9}  95% CI of the difference\n",
        "figure", "who", head, "mean", "95% CI", "− first"
    ));
    for l in &ls {
        let (k, d) = (scale(l.figure), digits(l.figure));
        for (p, name) in names.iter().enumerate() {
            let m = interval(l.hists[p], k);
            let vs = if p == 0 {
                format!("{:>9}", "(ref)")
            } else {
                let i = interval(l.diffs[p - 1], k);
                format!("{:>9}  {}", num(i.mean, d), ci_text(&i, d))
            };
            s.push_str(&format!(
                "{:<fw$}  {:<ww$}  {:<pw$}  {:>9}  {:<20}  {}\n",
                l.figure,
                l.who,
                name,
                num(m.mean, d),
                format!("[{}, {}]", num(m.lo, d), num(m.hi, d)),
                vs
            ));
        }
    }
    s.push('\n');
    s.push_str(&balance_line(info, r));
    s.push_str(concat!(
        "\n* the interval excludes 0: a difference from the first value the games show at 95% confidence\n",
        "win: the share of games won (a tie shares the win); margin: the seat's score minus the best\n",
        "other score; game: the game as a whole (totals over seats; its margin is the winner's lead)\n"
    ));
    s
}

/// The CSV of a sweep: one row per figure, group and point, with the difference from the first
/// point (empty on the first point's rows).
pub fn sweep_csv(info: &RunInfo, r: &Results) -> String {
    let labels = info.setting_labels();
    let mut s = String::from(
        "figure,who,setting,n,mean,sd,ci_lo,ci_hi,diff_mean,diff_ci_lo,diff_ci_hi,significant\n",
    );
    for l in lines(&r.layout, r, true) {
        let k = scale(l.figure);
        for (p, label) in labels.iter().enumerate() {
            let h = l.hists[p];
            let m = interval(h, k);
            let mut cols = vec![
                l.figure.to_string(),
                l.who.to_string(),
                label.clone(),
                h.n().to_string(),
                m.mean.to_string(),
                (h.sd() / k).to_string(),
                m.lo.to_string(),
                m.hi.to_string(),
            ];
            if p == 0 {
                cols.extend(["", "", "", ""].map(String::from));
            } else {
                let i = interval(l.diffs[p - 1], k);
                cols.extend([
                    i.mean.to_string(),
                    i.lo.to_string(),
                    i.hi.to_string(),
                    i.significant.to_string(),
                ]);
            }
            s.push_str(&csv::row(&cols));
        }
    }
    s
}

/// The chart of a sweep: score per seat, win share per seat, and the first seat's advantage (its
/// win share minus a fair share), each against the value with 95% intervals.
pub fn sweep_chart(info: &RunInfo, r: &Results) -> plot::Chart {
    let (head, names) = point_names(info);
    let numeric = crate::sim::sweep::parse_axes(&info.sweep)
        .ok()
        .filter(|a| a.len() == 1 && a[0].numeric())
        .map(|a| {
            a[0].values
                .iter()
                .map(|v| v.parse::<i64>().unwrap_or(0) as f64)
                .collect()
        });
    let seats = r.layout.seats();
    let fig = |name: &str| r.layout.figures.iter().position(|f| f == name);
    let series = |f: Option<usize>, k: f64| -> Vec<plot::Series> {
        let Some(f) = f else { return Vec::new() };
        (0..seats)
            .map(|g| plot::Series {
                name: format!("{} ({})", info.players[g], info.agents[g]),
                points: r
                    .stats
                    .iter()
                    .map(|s| {
                        let i = interval(&s.hists[r.layout.at(g, f)], k);
                        plot::Est {
                            mean: i.mean,
                            lo: i.lo,
                            hi: i.hi,
                        }
                    })
                    .collect(),
            })
            .collect()
    };
    let fair = 1.0 / seats.max(1) as f64;
    let advantage = balance(r)
        .iter()
        .map(|b| plot::Est {
            mean: b.share.mean - fair,
            lo: b.share.lo - fair,
            hi: b.share.hi - fair,
        })
        .collect();
    let games = r.games();
    plot::Chart {
        title: format!(
            "{}: {games} game{} per value, {}",
            info.variant,
            if games == 1 { "" } else { "s" },
            info.agents.join(" vs ")
        ),
        x_label: head,
        x_labels: names,
        x_values: numeric,
        panels: vec![
            plot::Panel {
                title: "Final score per seat".into(),
                y_label: "mean score".into(),
                series: series(fig("score"), 1.0),
                reference: None,
            },
            plot::Panel {
                title: "Win share per seat (a tie shares the win)".into(),
                y_label: "win share".into(),
                series: series(fig("win"), WIN_UNIT as f64),
                reference: Some((fair, format!("fair share {}", num(fair, 2)))),
            },
            plot::Panel {
                title: format!(
                    "First-seat advantage: {}'s win share minus {}",
                    info.players.first().map(String::as_str).unwrap_or(""),
                    num(fair, 2)
                ),
                y_label: "advantage".into(),
                series: vec![plot::Series {
                    name: format!(
                        "first seat ({})",
                        info.players.first().map(String::as_str).unwrap_or("")
                    ),
                    points: advantage,
                }],
                reference: Some((0.0, "no advantage".into())),
            },
        ],
    }
}
