//! The tuner (`carto tune`): which value of a parameter (or point of a grid of them) brings a figure
//! of the games nearest a target. A race on paired seeds: every value still in the race plays the
//! same games, in rounds that double in length; after each round a value whose figure is, at 95%
//! confidence, further from the target than the best value's is at worst, leaves the race. Every
//! figure is an exact histogram, so the evidence of slices (`--first-game`) merges exactly, as
//! `carto sim merge` merges runs. Why racing and not NTBEA: docs/tune.md.

use super::ci::interval;
use super::hist::Hist;
use super::run::{add_range, Results};
use super::stats::{Layout, Stats, WIN_UNIT};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What a tuning run is: everything slices must share to be merged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneInfo {
    pub variant: String,
    /// The axes, as given (`k=0..8`).
    pub params: Vec<String>,
    pub target: Target,
    pub sets: Vec<String>,
    pub players: Vec<String>,
    pub agents: Vec<String>,
    pub seed: u64,
}

impl TuneInfo {
    /// The simulation of games `first..first + games` of every value in `settings`, on `threads`:
    /// the command line's slices and the playground's parts of a round play it alike.
    pub fn spec<'a>(
        &self,
        settings: &[&'a crate::variant::Variant],
        first: u64,
        games: u64,
        threads: usize,
    ) -> super::run::Spec<'a> {
        super::run::Spec {
            settings: settings.to_vec(),
            players: self.players.clone(),
            agents: self.agents.clone(),
            seed: self.seed,
            first,
            games,
            threads,
            report: false,
        }
    }
}

/// What the tuner brings a figure near.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// Every seat's win share at a fair share (1/players): the largest distance of one is measured.
    Balance,
    /// One seat's win share (seat from 0).
    Win { seat: usize, share: f64 },
    /// The mean length of a game in turns.
    Turns { mean: f64 },
    /// The mean score gap: the winner's lead over the runner-up.
    Gap { mean: f64 },
}

impl Target {
    /// Reads `balance`, `win:SEAT=SHARE` (a player's name or a seat from 1), `turns=N`, `gap=N`.
    pub fn parse(s: &str, players: &[String]) -> Result<Target, String> {
        let s = s.trim();
        let num = |v: &str, what: &str| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("`--target {s}`: the {what} `{}` is not a number", v.trim()))
        };
        if s == "balance" {
            return Ok(Target::Balance);
        }
        if let Some(rest) = s.strip_prefix("win:") {
            let (who, share) = rest.split_once('=').ok_or_else(|| {
                format!("`--target {s}`: expected win:SEAT=SHARE (e.g. win:bob=0.5)")
            })?;
            let who = who.trim();
            let seat = match players.iter().position(|p| p == who) {
                Some(i) => i,
                None => match who.parse::<usize>() {
                    Ok(n) if (1..=players.len()).contains(&n) => n - 1,
                    _ => {
                        return Err(format!(
                            "`--target {s}`: no seat `{who}` (the seats: {}, or 1 to {})",
                            players.join(", "),
                            players.len()
                        ))
                    }
                },
            };
            let share = num(share, "share")?;
            if !(0.0..=1.0).contains(&share) {
                return Err(format!("`--target {s}`: a win share is 0 to 1"));
            }
            return Ok(Target::Win { seat, share });
        }
        if let Some(v) = s.strip_prefix("turns=") {
            return Ok(Target::Turns {
                mean: num(v, "length")?,
            });
        }
        if let Some(v) = s.strip_prefix("gap=") {
            return Ok(Target::Gap {
                mean: num(v, "gap")?,
            });
        }
        Err(format!(
            "`--target {s}`: expected balance, win:SEAT=SHARE, turns=N or gap=N"
        ))
    }

    /// In words, for reports.
    pub fn describe(&self, players: &[String]) -> String {
        match self {
            Target::Balance => format!(
                "balance: every seat's win share at a fair {:.3}",
                1.0 / players.len().max(1) as f64
            ),
            Target::Win { seat, share } => format!(
                "{}'s win share at {share}",
                players.get(*seat).map(String::as_str).unwrap_or("?")
            ),
            Target::Turns { mean } => format!("a mean length of {mean} turns"),
            Target::Gap { mean } => format!("a mean score gap (the winner's lead) of {mean}"),
        }
    }
}

/// A figure's mean with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Est {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

/// How far a value's figure is from the target: the estimate, and the least and the most the 95%
/// interval allows.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Distance {
    pub est: f64,
    pub least: f64,
    pub most: f64,
}

/// The distance from `t` of a mean with interval `e`.
pub(crate) fn distance(e: Est, t: f64) -> Distance {
    let least = if e.lo <= t && t <= e.hi {
        0.0
    } else {
        (e.lo - t).abs().min((e.hi - t).abs())
    };
    Distance {
        est: (e.mean - t).abs(),
        least,
        most: (e.lo - t).abs().max((e.hi - t).abs()),
    }
}

fn est(h: &Hist, scale: f64) -> Est {
    let i = interval(h, scale);
    Est {
        mean: i.mean,
        lo: i.lo,
        hi: i.hi,
    }
}

/// The figure measured for the target (for `balance`, the first seat's win share), and the
/// distance from the target.
pub(crate) fn measure(t: &Target, layout: &Layout, s: &Stats) -> (Est, Distance) {
    let fig = |name: &str| layout.figures.iter().position(|f| f == name).unwrap_or(0);
    let game = layout.seats();
    let win = |seat: usize| est(&s.hists[layout.at(seat, fig("win"))], WIN_UNIT as f64);
    match *t {
        Target::Balance => {
            let fair = 1.0 / game.max(1) as f64;
            let mut d = Distance {
                est: 0.0,
                least: 0.0,
                most: 0.0,
            };
            for seat in 0..game {
                let e = distance(win(seat), fair);
                d.est = d.est.max(e.est);
                d.least = d.least.max(e.least);
                d.most = d.most.max(e.most);
            }
            (win(0), d)
        }
        Target::Win { seat, share } => {
            let e = win(seat);
            (e, distance(e, share))
        }
        Target::Turns { mean } => {
            let e = est(&s.hists[layout.at(game, fig("turns"))], 1.0);
            (e, distance(e, mean))
        }
        Target::Gap { mean } => {
            let e = est(&s.hists[layout.at(game, fig("margin"))], 1.0);
            (e, distance(e, mean))
        }
    }
}

/// One value (a point of the grid) in the race.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Its settings: `NAME=VALUE` for each axis.
    pub point: Vec<String>,
    /// Its games' statistics.
    pub(crate) stats: Stats,
    /// The game numbers it played.
    pub played: Vec<(u64, u64)>,
    /// The round after which it left the race, and the value that put it out.
    pub out: Option<(usize, usize)>,
}

impl Candidate {
    pub fn games(&self) -> u64 {
        self.played.iter().map(|(a, b)| b - a).sum()
    }

    /// Adds one setting's statistics of a run of games `played`.
    pub(crate) fn add(&mut self, s: &Stats, played: &[(u64, u64)]) {
        self.stats.merge(s);
        for &p in played {
            add_range(&mut self.played, p);
        }
    }
}

/// The race: its values, the target and the figures' layout.
#[derive(Clone, Debug)]
pub struct Race {
    pub target: Target,
    pub layout: Layout,
    pub candidates: Vec<Candidate>,
    pub rounds: usize,
}

impl Race {
    pub fn new(target: Target, layout: Layout, points: Vec<Vec<String>>) -> Race {
        let candidates = points
            .into_iter()
            .map(|point| Candidate {
                point,
                stats: Stats::new(&layout),
                played: Vec::new(),
                out: None,
            })
            .collect();
        Race {
            target,
            layout,
            candidates,
            rounds: 0,
        }
    }

    /// The values still in the race.
    pub fn alive(&self) -> Vec<usize> {
        (0..self.candidates.len())
            .filter(|&i| self.candidates[i].out.is_none())
            .collect()
    }

    /// Adds a round's results: setting k of `r` is value `alive[k]`.
    pub fn add_round(&mut self, alive: &[usize], r: &Results) {
        self.add_games(alive, r);
        self.rounds += 1;
    }

    /// Adds the results of some of a round's games (a round played in parts, as the playground
    /// plays it to show its progress: the histograms merge exactly, so the parts of a round give
    /// what the round played at once gives); [`Race::end_round`] closes the round.
    pub fn add_games(&mut self, alive: &[usize], r: &Results) {
        for (k, &c) in alive.iter().enumerate() {
            self.candidates[c].add(&r.stats[k], &r.played);
        }
    }

    /// Closes a round played in parts: counts it and puts out the values surely further.
    pub fn end_round(&mut self) {
        self.rounds += 1;
        self.eliminate();
    }

    /// The next round under a budget of `games` in all (every value's games count), the first
    /// round playing `first_round` games per value: the values in it, its first game and its games
    /// per value; `None` when the race is over (the budget is spent, or one value is left).
    pub fn next_round(&self, games: u64, first_round: u64) -> Option<(Vec<usize>, u64, u64)> {
        let alive = self.alive();
        let used: u64 = self.candidates.iter().map(Candidate::games).sum();
        let next = self
            .candidates
            .iter()
            .flat_map(|c| c.played.iter().map(|p| p.1))
            .max()
            .unwrap_or(0);
        let left = games.saturating_sub(used) / alive.len().max(1) as u64;
        let n = round_games(first_round.max(1), self.rounds).min(left);
        if n == 0 || alive.len() < 2 && self.rounds > 0 {
            return None;
        }
        Some((alive, next, n))
    }

    /// Each value's figure and distance.
    pub fn measures(&self) -> Vec<(Est, Distance)> {
        self.candidates
            .iter()
            .map(|c| measure(&self.target, &self.layout, &c.stats))
            .collect()
    }

    /// The best value still in the race: the least estimated distance (ties: the first).
    pub fn best(&self) -> Option<usize> {
        let m = self.measures();
        self.alive()
            .into_iter()
            .min_by(|&a, &b| m[a].1.est.total_cmp(&m[b].1.est).then(a.cmp(&b)))
    }

    /// Puts out of the race every value whose distance is surely (at 95%) more than the best
    /// value's distance at worst; returns how many left.
    pub fn eliminate(&mut self) -> usize {
        let m = self.measures();
        let Some(best) = self.best() else { return 0 };
        let bar = m[best].1.most;
        let mut gone = 0;
        for c in self.alive() {
            if c != best && m[c].1.least > bar {
                self.candidates[c].out = Some((self.rounds, best));
                gone += 1;
            }
        }
        gone
    }

    /// The values the games cannot rule out: those whose figure's interval holds the target
    /// (for `balance`: every seat's), among those still in the race.
    pub fn not_ruled_out(&self) -> Vec<usize> {
        let m = self.measures();
        self.alive()
            .into_iter()
            .filter(|&c| m[c].1.least == 0.0)
            .collect()
    }
}

impl Race {
    /// Adds the games of a slice of the same run (its values in the same order); refuses games
    /// played twice.
    pub fn merge(&mut self, other: &Race) -> Result<(), String> {
        if self.candidates.len() != other.candidates.len() || self.layout != other.layout {
            return Err("not a slice of the same tuning run".into());
        }
        for (a, b) in self.candidates.iter_mut().zip(&other.candidates) {
            let twice = a
                .played
                .iter()
                .any(|&(x, y)| b.played.iter().any(|&(c, d)| x < d && c < y));
            if twice || a.point != b.point {
                return Err(
                    "it plays games the files before it played: give each slice its own --first-game"
                        .into(),
                );
            }
            a.add(&b.stats, &b.played);
        }
        self.rounds += other.rounds;
        Ok(())
    }
}

/// The JSON of a tuning run: the run, the race's outcome and every value's histograms (what
/// `carto tune merge` reads back).
pub fn to_json(info: &TuneInfo, race: &Race) -> Value {
    let m = race.measures();
    let candidates: Vec<Value> = race
        .candidates
        .iter()
        .enumerate()
        .map(|(c, cand)| {
            json!({
                "point": cand.point,
                "games": cand.games(),
                "played": cand.played,
                "figure": m[c].0,
                "distance": m[c].1,
                "out": cand.out.map(|(r, by)| json!({"round": r, "by": race.candidates[by].point})),
                "hists": cand.stats.hists.iter().map(|h| h.entries()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let open: Vec<&Vec<String>> = race
        .not_ruled_out()
        .iter()
        .map(|&c| &race.candidates[c].point)
        .collect();
    json!({
        "format": "carto-tune-1",
        "run": info,
        "rounds": race.rounds,
        "figures": race.layout.figures,
        "groups": race.layout.groups,
        "best": race.best().map(|b| &race.candidates[b].point),
        "not_ruled_out": open,
        "candidates": candidates,
    })
}

/// Reads back what [`to_json`] wrote: the run and its race (the values put out are back in).
pub fn from_json(text: &str) -> Result<(TuneInfo, Race), String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if doc["format"] != "carto-tune-1" {
        return Err("not the JSON of `carto tune --format json`".into());
    }
    let field = |k: &str| doc[k].clone();
    let info: TuneInfo = serde_json::from_value(field("run")).map_err(|e| format!("`run`: {e}"))?;
    let layout = Layout {
        figures: serde_json::from_value(field("figures")).map_err(|e| format!("`figures`: {e}"))?,
        groups: serde_json::from_value(field("groups")).map_err(|e| format!("`groups`: {e}"))?,
    };
    let cands = doc["candidates"].as_array().ok_or("no `candidates`")?;
    let points = cands
        .iter()
        .map(|c| serde_json::from_value(c["point"].clone()))
        .collect::<Result<Vec<Vec<String>>, _>>()
        .map_err(|e| format!("`point`: {e}"))?;
    let mut race = Race::new(info.target.clone(), layout.clone(), points);
    for (cand, c) in race.candidates.iter_mut().zip(cands) {
        let hists: Vec<Vec<(i64, u64)>> =
            serde_json::from_value(c["hists"].clone()).map_err(|e| format!("`hists`: {e}"))?;
        let played: Vec<(u64, u64)> =
            serde_json::from_value(c["played"].clone()).map_err(|e| format!("`played`: {e}"))?;
        if hists.len() != layout.len() {
            return Err("`hists`: not one per figure and group".into());
        }
        let mut stats = Stats::new(&layout);
        for (h, entries) in stats.hists.iter_mut().zip(hists) {
            for (v, n) in entries {
                h.add_n(v, n);
            }
        }
        cand.add(&stats, &played);
    }
    race.rounds = doc["rounds"].as_u64().unwrap_or(1) as usize;
    Ok((info, race))
}

/// The games each value plays in round `r` (from 0): `first` doubled every round.
pub fn round_games(first: u64, r: usize) -> u64 {
    first.saturating_mul(1u64 << r.min(40))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        let players = vec!["ann".to_string(), "bob".to_string()];
        Layout::new(&players, &[], false).0
    }

    /// Stats of `n` two-player games in which ann wins `wins` and bob the rest.
    fn stats(l: &Layout, n: u64, wins: u64) -> Stats {
        let mut s = Stats::new(l);
        let w = l.figures.iter().position(|f| f == "win").unwrap();
        for i in 0..n {
            let a = if i < wins { WIN_UNIT } else { 0 };
            s.hists[l.at(0, w)].add(a);
            s.hists[l.at(1, w)].add(WIN_UNIT - a);
        }
        s
    }

    #[test]
    fn distance_by_hand() {
        let d = distance(
            Est {
                mean: 0.56,
                lo: 0.52,
                hi: 0.60,
            },
            0.5,
        );
        assert!((d.est - 0.06).abs() < 1e-12);
        assert!((d.least - 0.02).abs() < 1e-12);
        assert!((d.most - 0.10).abs() < 1e-12);
        let d = distance(
            Est {
                mean: 0.51,
                lo: 0.48,
                hi: 0.54,
            },
            0.5,
        );
        assert_eq!(d.least, 0.0);
    }

    #[test]
    fn targets_are_read() {
        let p = vec!["ann".to_string(), "bob".to_string()];
        assert_eq!(Target::parse("balance", &p), Ok(Target::Balance));
        assert_eq!(
            Target::parse("win:bob=0.5", &p),
            Ok(Target::Win {
                seat: 1,
                share: 0.5
            })
        );
        assert_eq!(
            Target::parse("win:1=0.4", &p),
            Ok(Target::Win {
                seat: 0,
                share: 0.4
            })
        );
        assert_eq!(
            Target::parse("turns=70", &p),
            Ok(Target::Turns { mean: 70.0 })
        );
        assert_eq!(Target::parse("gap=5.5", &p), Ok(Target::Gap { mean: 5.5 }));
        for bad in ["win:cyd=0.5", "win:ann=2", "turns=x", "fair", "win:ann"] {
            assert!(Target::parse(bad, &p).is_err(), "{bad}");
        }
    }

    #[test]
    fn rounds_double_within_the_budget() {
        let l = layout();
        let points = (0..3).map(|k| vec![format!("k={k}")]).collect();
        let mut race = Race::new(Target::Balance, l.clone(), points);
        // A budget of 100 games, 10 per value first: games 0..10 under all three values.
        assert_eq!(race.next_round(100, 10), Some((vec![0, 1, 2], 0, 10)));
        for c in 0..3 {
            race.candidates[c].add(&stats(&l, 10, 5), &[(0, 10)]);
        }
        race.end_round();
        // 70 games left for 3 values: round 1 plays 20 each, from game 10.
        assert_eq!(race.next_round(100, 10), Some((vec![0, 1, 2], 10, 20)));
        race.candidates[0].out = Some((1, 1));
        for c in 1..3 {
            race.candidates[c].add(&stats(&l, 20, 10), &[(10, 30)]);
        }
        race.end_round();
        // 30 left for the 2 still in: 15 each (not the 40 the round would play), from game 30.
        assert_eq!(race.next_round(100, 10), Some((vec![1, 2], 30, 15)));
        // Spent: over.
        assert_eq!(race.next_round(70, 10), None);
    }

    #[test]
    fn a_race_puts_out_the_values_surely_further() {
        let l = layout();
        let points = (0..3).map(|k| vec![format!("k={k}")]).collect();
        let mut race = Race::new(
            Target::Win {
                seat: 0,
                share: 0.5,
            },
            l.clone(),
            points,
        );
        // k=0: ann wins 700 of 1000 (far); k=1: 510 (near); k=2: 480 (near, the other side).
        for (c, wins) in [(0, 700), (1, 510), (2, 480)] {
            race.candidates[c].add(&stats(&l, 1000, wins), &[(0, 1000)]);
        }
        race.rounds = 1;
        assert_eq!(race.best(), Some(1));
        // 0.7 ± 0.028 is at least 0.17 away; k=1's 0.51 ± 0.031 at most 0.041: out.
        assert_eq!(race.eliminate(), 1);
        assert_eq!(race.candidates[0].out, Some((1, 1)));
        assert_eq!(race.alive(), vec![1, 2]);
        assert_eq!(race.not_ruled_out(), vec![1, 2]);
        // Balance measures the seat furthest from a fair share.
        let (_, d) = measure(&Target::Balance, &l, &race.candidates[2].stats);
        assert!((d.est - 0.02).abs() < 1e-9, "{d:?}");
        assert_eq!(round_games(100, 3), 800);
    }
}
