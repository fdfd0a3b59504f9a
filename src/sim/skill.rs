//! Reports across runs: the seats' figures per player count (`carto sim --report --players
//! 2..4`) and per skill pairing (`--skill`: every seat random, greedy, then mcts at two budgets),
//! and the skill trace: mcts:2N against mcts:N over doubling N, "does thinking more keep paying?".
//! Each run is an ordinary run (its own report); this file puts their figures side by side.
//! Definitions and sources: docs/report.md.

use super::findings::{fin, show, show_ci, side, wilson, Est};
use super::run::Results;
use super::stats::{WIN, WIN_UNIT};
use super::RunInfo;
use serde_json::{json, Value};

/// The skill pairings of `--skill`: the agent every seat plays, weakest first. The two budgets of
/// mcts: its default (16 playouts a decision) and four times that.
pub const PAIRINGS: [&str; 4] = ["random", "greedy", "mcts:16", "mcts:64"];

/// The budgets N of the skill trace (mcts:2N against mcts:N). Doubling from 4 to 64: each step
/// costs about 3N playouts a decision, and with [`TRACE_GAMES`] games per seating the whole trace
/// takes about a minute of one core's time on base (docs/report.md, "Skill").
pub const TRACE: [u32; 5] = [4, 8, 16, 32, 64];

/// Games per seating of each step of the trace (the stronger agent takes every seat in turn).
pub const TRACE_GAMES: u64 = 100;

/// One of several runs: its label ("3 players", "greedy", "mcts:8 against mcts:4, seat 1"), what
/// it was, and its results.
pub struct Labelled {
    pub label: String,
    pub info: RunInfo,
    pub results: Results,
}

/// The agents of one seating of a step of the trace: mcts:2N at seat `stronger`, mcts:N at the
/// others.
pub fn trace_agents(n: u32, seats: usize, stronger: usize) -> Vec<String> {
    (0..seats)
        .map(|s| {
            let budget = if s == stronger { 2 * n } else { n };
            format!("mcts:{budget}")
        })
        .collect()
}

/// The stronger agent's win share over the seatings of a step: `runs[r]` has it at seat `r`. Its
/// wins (a tie shares the win) over every seating's games, so every seat counts alike and the first
/// player's edge favours neither; Wilson's interval of that share (pooling the seatings counts
/// them as one binomial, which can only overstate the variance when the seats differ).
pub(crate) fn stronger_share(runs: &[&Results]) -> Option<Est> {
    if runs.is_empty() {
        return None;
    }
    let (mut won, mut games) = (0.0, 0.0);
    for (r, res) in runs.iter().enumerate() {
        let h = &res.stats.first()?.hists[res.layout.at(r, WIN)];
        if h.n() == 0 {
            return None;
        }
        won += h.sum() as f64 / WIN_UNIT as f64;
        games += h.n() as f64;
    }
    Some(wilson(won, games))
}

/// The words for a step of the trace.
fn verdict(e: &Est, fair: f64) -> &'static str {
    if e.lo > fair {
        "thinking more pays"
    } else if e.hi < fair {
        "thinking more loses (!)"
    } else {
        "no gain the games can show at 95% confidence"
    }
}

/// The seat figures side by side, one line per run: each seat's win share with its interval (in
/// a comparison: yours minus the original), the balance, the length and the lead changes.
pub fn across_text(title: &str, runs: &[Labelled]) -> String {
    let mut s = format!("\n{}\n", title.to_uppercase());
    let lw = runs
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(5);
    let paired = runs.iter().any(|r| r.results.diff().is_some());
    for run in runs {
        let (info, r) = (&run.info, &run.results);
        let seats = r.layout.seats();
        let fair = show(1.0 / seats.max(1) as f64, true, 1);
        let mut cells = Vec::new();
        for seat in 0..seats {
            let Some(w) = side(info, r, "win", seat) else {
                continue;
            };
            let p = &info.players[seat];
            cells.push(match (w.yours, w.diff) {
                (Some(y), Some(d)) => format!(
                    "{p} {} → {} ({:+.1} points [{:.1}, {:.1}])",
                    show(w.value.mean, true, 1),
                    show(y.mean, true, 1),
                    d.mean * 100.0,
                    d.lo * 100.0,
                    d.hi * 100.0
                ),
                _ => format!(
                    "{p} {} {}",
                    show(w.value.mean, true, 1),
                    show_ci(&w.value, true, 1)
                ),
            });
        }
        s.push_str(&format!(
            "{:<lw$}  win share (fair {fair}{}): {}\n",
            run.label,
            if paired { "; original → yours" } else { "" },
            cells.join(", ")
        ));
        if !paired {
            if let Some((b, _)) = super::findings::balance_of(info, r, 0) {
                s.push_str(&format!("{:<lw$}  balance {b}", ""));
            }
            for (figure, what) in [("turns", "turns"), ("lead changes", "lead changes")] {
                if let Some(v) = side(info, r, figure, seats) {
                    s.push_str(&format!(
                        "; {what} {}",
                        show(v.value.mean, v.percent, v.digits)
                    ));
                }
            }
            s.push('\n');
        }
    }
    s
}

/// The same as JSON: per run its label, agents and the seats' win shares.
pub fn across_json(runs: &[Labelled]) -> Value {
    let est = |e: &Est| json!({"mean": fin(e.mean), "ci95": [fin(e.lo), fin(e.hi)]});
    Value::Array(
        runs.iter()
            .map(|run| {
                let (info, r) = (&run.info, &run.results);
                let seats = r.layout.seats();
                let shares: Vec<Value> = (0..seats)
                    .filter_map(|seat| side(info, r, "win", seat).map(|w| (seat, w)))
                    .map(|(seat, w)| {
                        let mut v = json!({"seat": info.players[seat], "win_share": est(&w.value)});
                        if let (Some(y), Some(d)) = (w.yours, w.diff) {
                            v["original"] = v["win_share"].take();
                            v["yours"] = est(&y);
                            v["difference"] = est(&d);
                            v.as_object_mut().map(|o| o.remove("win_share"));
                        }
                        v
                    })
                    .collect();
                json!({
                    "label": run.label,
                    "players": info.players,
                    "agents": info.agents,
                    "fair_share": 1.0 / seats.max(1) as f64,
                    "win_shares": shares,
                })
            })
            .collect(),
    )
}

/// One step of the trace: N and the runs of its seatings (`runs[r]`: mcts:2N at seat r).
pub struct Step<'a> {
    pub n: u32,
    pub runs: Vec<&'a Results>,
}

/// The skill trace for people: one line per N.
pub fn trace_text(steps: &[Step]) -> String {
    let mut s = String::from(
        "\nSKILL TRACE: mcts:2N against mcts:N, the stronger taking every seat in turn\n",
    );
    for st in steps {
        let seats = st.runs.first().map(|r| r.layout.seats()).unwrap_or(2);
        let fair = 1.0 / seats.max(1) as f64;
        let games: u64 = st.runs.iter().map(|r| r.games()).sum();
        let Some(e) = stronger_share(&st.runs) else {
            continue;
        };
        s.push_str(&format!(
            "mcts:{:<4} against mcts:{:<4} the stronger wins {:>6} {} (fair {}; {games} games): {}\n",
            2 * st.n,
            st.n,
            show(e.mean, true, 1),
            show_ci(&e, true, 1),
            show(fair, true, 1),
            verdict(&e, fair)
        ));
    }
    s
}

/// The skill trace as JSON.
pub fn trace_json(steps: &[Step]) -> Value {
    Value::Array(
        steps
            .iter()
            .filter_map(|st| {
                let seats = st.runs.first()?.layout.seats();
                let fair = 1.0 / seats.max(1) as f64;
                let e = stronger_share(&st.runs)?;
                Some(json!({
                    "n": st.n,
                    "stronger": format!("mcts:{}", 2 * st.n),
                    "weaker": format!("mcts:{}", st.n),
                    "games": st.runs.iter().map(|r| r.games()).sum::<u64>(),
                    "stronger_win_share": {"mean": e.mean, "ci95": [e.lo, e.hi]},
                    "fair_share": fair,
                    "verdict": verdict(&e, fair),
                }))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::stats::{Layout, Stats};

    /// Results of two seats whose win figures are the given per-game values (60 a win).
    fn results(ann: &[i64], bob: &[i64]) -> Results {
        let (layout, _) = Layout::new(&["ann".into(), "bob".into()], &[], false);
        let mut st = Stats::new(&layout);
        for (&a, &b) in ann.iter().zip(bob) {
            let mut obs = vec![None; layout.len()];
            obs[layout.at(0, WIN)] = Some(a);
            obs[layout.at(1, WIN)] = Some(b);
            st.add(&obs);
        }
        Results {
            layout,
            stats: vec![st],
            diffs: Vec::new(),
            played: vec![(0, ann.len() as u64)],
            interrupted: false,
        }
    }

    #[test]
    fn the_stronger_share_by_hand() {
        // Seating 1: mcts:2N is ann, wins 3 of 4; seating 2: mcts:2N is bob, wins 1 of 4. Pooled:
        // 4 of 8, p = 0.5. Wilson: z² = 3.8415, d = 1 + z²/8 = 1.48018, centre (0.5 + z²/16)/d =
        // 0.5, half 1.96·√(0.25/8 + z²/256)/d = 1.96·0.215073/1.48018 = 0.284784.
        let a = results(&[60, 60, 60, 0], &[0, 0, 0, 60]);
        let b = results(&[60, 60, 60, 0], &[0, 0, 0, 60]);
        let e = stronger_share(&[&a, &b]).unwrap();
        assert!((e.mean - 0.5).abs() < 1e-12, "{e:?}");
        assert!((e.lo - 0.215216).abs() < 1e-5, "{e:?}");
        assert!((e.hi - 0.784784).abs() < 1e-5, "{e:?}");
        assert_eq!(
            verdict(&e, 0.5),
            "no gain the games can show at 95% confidence"
        );
        // A shared win counts half (30): ann's shares 0.5 and 1 in seating 1 alone.
        let c = results(&[30, 60], &[30, 0]);
        assert!((stronger_share(&[&c]).unwrap().mean - 0.75).abs() < 1e-12);
        assert_eq!(
            verdict(
                &Est {
                    mean: 0.7,
                    lo: 0.6,
                    hi: 0.8
                },
                0.5
            ),
            "thinking more pays"
        );
        assert!(stronger_share(&[]).is_none());
    }

    #[test]
    fn trace_seatings_rotate_the_stronger() {
        assert_eq!(trace_agents(8, 3, 1), ["mcts:8", "mcts:16", "mcts:8"]);
        assert_eq!(trace_agents(4, 2, 0), ["mcts:8", "mcts:4"]);
    }
}
