//! The results of a run for people (a table), for spreadsheets (CSV, one row per figure and seat)
//! and for programs and `carto sim merge` (JSON with every histogram, so slices merge exactly).

use super::ci::{interval, Interval};
use super::hist::Hist;
use super::run::{game_seed, Results};
use super::stats::{Layout, Stats, WIN_UNIT};
use super::RunInfo;
use serde_json::{json, Value};

/// The unit of a figure's observations: win shares are counted in 60ths.
pub fn scale(figure: &str) -> f64 {
    if figure == "win" {
        WIN_UNIT as f64
    } else {
        1.0
    }
}

const SETTINGS: [&str; 2] = ["a", "b"];

/// One line of a report: a figure of one group.
struct Line<'a> {
    figure: &'a str,
    who: &'a str,
    /// Per setting.
    hists: Vec<&'a Hist>,
    diff: Option<&'a Hist>,
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
                diff: r.diff.as_ref().map(|d| &d.hists[i]),
            });
        }
    }
    out
}

/// What was played, and how to replay a game alone.
fn header(info: &RunInfo, r: &Results) -> String {
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
    if let Some(_d) = &r.diff {
        s.push_str(&format!(
            "{:<fw$}  {:<ww$}  {:>10}  {:>10}  {:>10}  95% CI of b − a\n",
            "figure", "who", "a mean", "b mean", "b − a"
        ));
        for l in &ls {
            let (k, d) = (scale(l.figure), digits(l.figure));
            let i = interval(l.diff.expect("paired"), k);
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

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row per figure and group (and setting): for spreadsheets and data frames.
pub fn csv(_info: &RunInfo, r: &Results) -> String {
    let mut s = String::new();
    if r.diff.is_some() {
        s.push_str("figure,who,n,a_mean,b_mean,diff_mean,diff_sd,ci_lo,ci_hi,significant\n");
    } else {
        s.push_str("figure,who,n,mean,sd,median,min,max\n");
    }
    for l in lines(&r.layout, r, true) {
        let k = scale(l.figure);
        let h = l.hists[0];
        if let Some(dh) = l.diff {
            let i = interval(dh, k);
            s.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{}\n",
                csv_field(l.figure),
                csv_field(l.who),
                dh.n(),
                h.mean() / k,
                l.hists[1].mean() / k,
                i.mean,
                dh.sd() / k,
                i.lo,
                i.hi,
                i.significant
            ));
        } else {
            s.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                csv_field(l.figure),
                csv_field(l.who),
                h.n(),
                h.mean() / k,
                h.sd() / k,
                h.median() / k,
                h.min()
                    .map(|v| (v as f64 / k).to_string())
                    .unwrap_or_default(),
                h.max()
                    .map(|v| (v as f64 / k).to_string())
                    .unwrap_or_default(),
            ));
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
    let mut figures = Vec::new();
    for (f, figure) in r.layout.figures.iter().enumerate() {
        for (g, who) in r.layout.groups.iter().enumerate() {
            let i = r.layout.at(g, f);
            for (s, st) in r.stats.iter().enumerate() {
                figures.push(stat_json(figure, who, SETTINGS[s], &st.hists[i]));
            }
            if let Some(d) = &r.diff {
                let mut v = stat_json(figure, who, "b-a", &d.hists[i]);
                let iv = interval(&d.hists[i], scale(figure));
                v["ci95"] = json!([finite(iv.lo), finite(iv.hi)]);
                v["significant"] = json!(iv.significant);
                figures.push(v);
            }
        }
    }
    let first = r.played.first().map(|p| p.0).unwrap_or(0);
    let doc = json!({
        "format": "carto-sim-1",
        "run": info,
        "games": r.games(),
        "played": r.played,
        "interrupted": r.interrupted,
        "replay": info.replay_command(0, first),
        "figures": figures,
    });
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
    let settings = if info.paired() { 2 } else { 1 };
    let mut stats = vec![Stats::new(&layout); settings];
    let mut diff = info.paired().then(|| Stats::new(&layout));
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
        let target = match it["setting"].as_str() {
            Some("a") => &mut stats[0],
            Some("b") if settings == 2 => &mut stats[1],
            Some("b-a") => diff.as_mut().ok_or("a difference in an unpaired run")?,
            _ => return Err(format!("figure {}: unknown setting", layout.figures[f])),
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
            diff,
            played,
            interrupted,
        },
    ))
}
