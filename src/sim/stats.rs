//! What is measured in each game, and the statistics over many: a layout of figures (score, win
//! share, margin, turns, followers, chips, points by rule, actions) for each seat and for the game
//! as a whole, each figure an exact [`Hist`].

use super::hist::Hist;
use super::story::{band_name, Story, BANDS};
use crate::game::Phase;
use crate::lang::ir::Program;

/// A win shared by k players counts 60/k (60 is divisible by every player count from 1 to 6), so
/// win shares stay integers and sum exactly.
pub const WIN_UNIT: i64 = 60;

/// The fixed figures, in order; points by rule and actions follow.
pub(crate) const FIXED: [&str; 7] = [
    "score",
    "win",
    "margin",
    "turns",
    "followers placed",
    "chips gained",
    "chips spent",
];
pub const SCORE: usize = 0;
pub const WIN: usize = 1;
const MARGIN: usize = 2;
pub const TURNS: usize = 3;
const FOLLOWERS: usize = 4;
const GAINED: usize = 5;
const SPENT: usize = 6;

/// The report's figures of seats and of the game (`--report`), after the fixed ones.
pub(crate) const REPORT_SEAT: [&str; 3] = [
    "decisions",
    "decisions with a choice",
    "options at a choice",
];
/// The report's figures of the game only; the bands of half-time deficits follow them.
pub(crate) const REPORT_GAME: [&str; 5] = [
    "lead changes",
    "no lead change",
    "decided at",
    "drama: mean deficit",
    "drama: largest deficit",
];

/// Every report figure's name, in layout order.
pub(crate) fn report_figures() -> Vec<String> {
    let mut out: Vec<String> = REPORT_SEAT
        .iter()
        .chain(&REPORT_GAME)
        .map(|s| s.to_string())
        .collect();
    for b in 0..BANDS.len() {
        out.push(format!("behind at half-time by {}", band_name(b)));
    }
    for b in 0..BANDS.len() {
        out.push(format!("won from behind by {}", band_name(b)));
    }
    out
}

/// Figure names and groups (one per seat, then the game as a whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub figures: Vec<String>,
    pub(crate) groups: Vec<String>,
}

/// Where one setting's rules and actions go in a [`Layout`].
#[derive(Clone, Debug)]
pub struct Mapping {
    /// By rule number (score events' numbering): the figure of its points.
    pub(crate) rule_fig: Vec<usize>,
    /// By action index: the figure of how often it was taken.
    pub(crate) action_fig: Vec<usize>,
    /// The first of the report's figures (`--report`), in [`report_figures`] order.
    pub(crate) report: Option<usize>,
    /// With `--report`, by rule index: the figure of how often it fired (else empty).
    pub(crate) fired_fig: Vec<usize>,
    /// With `--report`, by action index: the figure of how often it was asked (asked actions only).
    pub(crate) asked_fig: Vec<Option<usize>>,
}

/// The names score events use for a program's rules: its rules, then its actions, then the setup.
pub(crate) fn rule_names(prog: &Program) -> Vec<String> {
    let mut names: Vec<String> = prog.rules.iter().map(|r| r.name.clone()).collect();
    names.extend(prog.actions.iter().map(|a| a.name.clone()));
    names.push("setup".into());
    names
}

impl Layout {
    /// The layout for the players named, covering every program given (two for a comparison of
    /// rules files: figures by name, so a rule only one side has is 0 on the other).
    pub(crate) fn new(
        players: &[String],
        progs: &[&Program],
        report: bool,
    ) -> (Layout, Vec<Mapping>) {
        let mut figures: Vec<String> = FIXED.iter().map(|s| s.to_string()).collect();
        let report = report.then(|| {
            figures.extend(report_figures());
            FIXED.len()
        });
        let slot =
            |name: String, figures: &mut Vec<String>| match figures.iter().position(|f| *f == name)
            {
                Some(i) => i,
                None => {
                    figures.push(name);
                    figures.len() - 1
                }
            };
        let mut maps = Vec::new();
        for p in progs {
            let rule_fig = rule_names(p)
                .into_iter()
                .map(|n| slot(format!("points: {n}"), &mut figures))
                .collect();
            let action_fig = p
                .actions
                .iter()
                .map(|a| slot(format!("action: {}", a.name), &mut figures))
                .collect();
            let (mut fired_fig, mut asked_fig) = (Vec::new(), Vec::new());
            if report.is_some() {
                fired_fig = p
                    .rules
                    .iter()
                    .map(|r| slot(format!("fired: {}", r.name), &mut figures))
                    .collect();
                asked_fig = p
                    .actions
                    .iter()
                    .map(|a| {
                        (a.phase == Some(Phase::Asked))
                            .then(|| slot(format!("asked: {}", a.name), &mut figures))
                    })
                    .collect();
            }
            maps.push(Mapping {
                rule_fig,
                action_fig,
                report,
                fired_fig,
                asked_fig,
            });
        }
        let mut groups = players.to_vec();
        groups.push("game".into());
        (Layout { figures, groups }, maps)
    }

    pub(crate) fn len(&self) -> usize {
        self.figures.len() * self.groups.len()
    }

    pub fn seats(&self) -> usize {
        self.groups.len() - 1
    }

    /// The index of figure `f` of group `g` in a flat vector of observations.
    #[inline]
    pub fn at(&self, g: usize, f: usize) -> usize {
        g * self.figures.len() + f
    }
}

/// What one game gave, per seat, as the sim's driver and the state's counters collected it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outcome {
    pub(crate) scores: Vec<i64>,
    pub(crate) turns: Vec<u32>,
    pub(crate) followers: Vec<u32>,
    pub(crate) gained: Vec<u32>,
    pub(crate) spent: Vec<u32>,
    /// `points[seat * rules + rule]`.
    pub(crate) points: Vec<i64>,
    pub(crate) rules: usize,
    /// `actions[seat * n_actions + action]`.
    pub(crate) actions: Vec<u32>,
    pub(crate) n_actions: usize,
    /// With `--report`: how often each rule fired (by rule index), and each asked action was asked
    /// of each seat (`asked[seat * n_actions + action]`).
    pub(crate) fired: Vec<u32>,
    pub(crate) asked: Vec<u32>,
    /// The scores turn by turn and the decisions, for `--report`.
    pub(crate) story: Story,
}

impl Outcome {
    /// Clears it for a game of `seats` players with `rules` rule names and `actions` actions.
    pub(crate) fn reset(&mut self, seats: usize, rules: usize, actions: usize) {
        for v in [
            &mut self.turns,
            &mut self.followers,
            &mut self.gained,
            &mut self.spent,
        ] {
            v.clear();
            v.resize(seats, 0);
        }
        self.scores.clear();
        self.scores.resize(seats, 0);
        self.points.clear();
        self.points.resize(seats * rules, 0);
        self.rules = rules;
        self.actions.clear();
        self.actions.resize(seats * actions, 0);
        self.n_actions = actions;
        self.fired.clear();
        self.asked.clear();
        if self.story.on {
            self.asked.resize(seats * actions, 0);
        }
    }

    /// The seats sharing the best score, as a bit set, and how many they are.
    pub(crate) fn winners(&self) -> (u32, i64) {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let mut mask = 0;
        for (s, &v) in self.scores.iter().enumerate() {
            if v == best {
                mask |= 1 << s;
            }
        }
        (mask, mask.count_ones() as i64)
    }

    /// Fills `obs` (one value per figure and group; `None` where a figure does not apply) from this
    /// game, the figures placed by `map` in `layout`.
    pub(crate) fn observe(&self, layout: &Layout, map: &Mapping, obs: &mut Vec<Option<i64>>) {
        obs.clear();
        obs.resize(layout.len(), None);
        let seats = self.scores.len();
        let game = seats;
        for g in 0..=seats {
            for f in 0..layout.figures.len() {
                if g < seats || f != WIN {
                    obs[layout.at(g, f)] = Some(0);
                }
            }
        }
        let (mask, k) = self.winners();
        for s in 0..seats {
            let best_other = (0..seats)
                .filter(|&o| o != s)
                .map(|o| self.scores[o])
                .max()
                .unwrap_or(self.scores[s]);
            let fixed = [
                (SCORE, self.scores[s]),
                (
                    WIN,
                    if mask & (1 << s) != 0 {
                        WIN_UNIT / k
                    } else {
                        0
                    },
                ),
                (MARGIN, self.scores[s].saturating_sub(best_other)),
                (TURNS, self.turns[s] as i64),
                (FOLLOWERS, self.followers[s] as i64),
                (GAINED, self.gained[s] as i64),
                (SPENT, self.spent[s] as i64),
            ];
            for (f, v) in fixed {
                add(obs, layout.at(s, f), v);
                if f != WIN && f != MARGIN {
                    add(obs, layout.at(game, f), v);
                }
            }
            for r in 0..self.rules {
                let v = self.points[s * self.rules + r];
                let f = map.rule_fig[r];
                add(obs, layout.at(s, f), v);
                add(obs, layout.at(game, f), v);
            }
            for a in 0..self.n_actions {
                let v = self.actions[s * self.n_actions + a] as i64;
                let f = map.action_fig[a];
                add(obs, layout.at(s, f), v);
                add(obs, layout.at(game, f), v);
            }
        }
        // The game's margin: the winner's lead over the runner-up (0 when the win is shared).
        let (mut first, mut second) = (i64::MIN, i64::MIN);
        for &v in &self.scores {
            if v > first {
                (first, second) = (v, first);
            } else if v > second {
                second = v;
            }
        }
        let lead = if seats < 2 {
            0
        } else {
            first.saturating_sub(second)
        };
        obs[layout.at(game, MARGIN)] = Some(lead);
        self.observe_fired_and_asked(layout, map, obs);
        if let Some(at) = map.report {
            self.observe_story(layout, at, mask, obs);
        }
    }

    /// With `--report`: how often each rule fired (a figure of the game only) and each asked
    /// action was asked (per seat asked, and for the game).
    fn observe_fired_and_asked(&self, layout: &Layout, map: &Mapping, obs: &mut [Option<i64>]) {
        let game = self.scores.len();
        for (r, &f) in map.fired_fig.iter().enumerate() {
            for s in 0..game {
                obs[layout.at(s, f)] = None;
            }
            add(
                obs,
                layout.at(game, f),
                self.fired.get(r).copied().unwrap_or(0) as i64,
            );
        }
        for (a, f) in map.asked_fig.iter().enumerate() {
            let Some(f) = *f else { continue };
            for s in 0..game {
                let v = self.asked.get(s * self.n_actions + a).copied().unwrap_or(0) as i64;
                add(obs, layout.at(s, f), v);
                add(obs, layout.at(game, f), v);
            }
        }
    }

    /// The report's figures (from `at` in the layout): decisions per seat and for the game, and
    /// the game's story (`None` where a figure does not apply to the game).
    fn observe_story(&self, layout: &Layout, at: usize, winners: u32, obs: &mut [Option<i64>]) {
        let st = &self.story;
        let game = self.scores.len();
        for s in 0..game {
            for (k, v) in [st.decisions[s], st.choices[s], st.options[s]]
                .into_iter()
                .enumerate()
            {
                obs[layout.at(s, at + k)] = Some(v as i64);
                add(obs, layout.at(game, at + k), v as i64);
            }
        }
        let f = st.figures(winners);
        let story = [
            Some(f.lead_changes),
            Some(f.no_lead_change),
            f.decided_at,
            f.drama_mean,
            f.drama_max,
        ];
        let bands = f.behind.iter().chain(&f.came_back).map(|&v| Some(v));
        for (k, v) in story.into_iter().chain(bands).enumerate() {
            let fig = at + REPORT_SEAT.len() + k;
            for s in 0..game {
                obs[layout.at(s, fig)] = None;
            }
            obs[layout.at(game, fig)] = v;
        }
    }
}

#[inline]
fn add(obs: &mut [Option<i64>], i: usize, v: i64) {
    if let Some(x) = &mut obs[i] {
        *x = x.saturating_add(v);
    }
}

/// Statistics over many games: one histogram per figure and group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stats {
    pub(crate) hists: Vec<Hist>,
}

impl Stats {
    pub(crate) fn new(layout: &Layout) -> Stats {
        Stats {
            hists: vec![Hist::default(); layout.len()],
        }
    }

    /// Adds one game's observations.
    #[inline]
    pub(crate) fn add(&mut self, obs: &[Option<i64>]) {
        for (h, o) in self.hists.iter_mut().zip(obs) {
            if let Some(v) = *o {
                h.add(v);
            }
        }
    }

    /// Adds the paired differences `b − a` of one game.
    pub(crate) fn add_diff(&mut self, a: &[Option<i64>], b: &[Option<i64>]) {
        for ((h, x), y) in self.hists.iter_mut().zip(a).zip(b) {
            if let (Some(x), Some(y)) = (x, y) {
                h.add(y.saturating_sub(*x));
            }
        }
    }

    pub fn merge(&mut self, other: &Stats) {
        for (h, o) in self.hists.iter_mut().zip(&other.hists) {
            h.merge(o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_game_observed_by_hand() {
        let layout = Layout {
            figures: FIXED
                .iter()
                .map(|s| s.to_string())
                .chain(["points: road".to_string(), "action: sell".to_string()])
                .collect(),
            groups: vec!["a".into(), "b".into(), "c".into(), "game".into()],
        };
        let map = Mapping {
            rule_fig: vec![7],
            action_fig: vec![8],
            report: None,
            fired_fig: Vec::new(),
            asked_fig: Vec::new(),
        };
        let mut o = Outcome::default();
        o.reset(3, 1, 1);
        o.scores = vec![30, 30, 12]; // a and b tie for the win
        o.turns = vec![5, 5, 4];
        o.points = vec![4, 0, 6];
        o.actions = vec![1, 2, 0];
        let mut obs = Vec::new();
        o.observe(&layout, &map, &mut obs);
        let v = |g: usize, f: usize| obs[layout.at(g, f)];
        // A shared win: 60/2 each, 0 for c; the game has no win figure.
        assert_eq!(
            (v(0, WIN), v(1, WIN), v(2, WIN), v(3, WIN)),
            (Some(30), Some(30), Some(0), None)
        );
        // Margins: a 30−30, b 30−30, c 12−30; the game's lead 30−30.
        assert_eq!(
            (v(0, MARGIN), v(2, MARGIN), v(3, MARGIN)),
            (Some(0), Some(-18), Some(0))
        );
        // Totals: score 72, turns 14, road 10, sell 3.
        assert_eq!(
            (v(3, SCORE), v(3, TURNS), v(3, 7), v(3, 8)),
            (Some(72), Some(14), Some(10), Some(3))
        );
        o.scores = vec![10, 25, 19];
        o.observe(&layout, &map, &mut obs);
        let v = |g: usize, f: usize| obs[layout.at(g, f)];
        assert_eq!(
            (v(1, WIN), v(1, MARGIN), v(0, MARGIN), v(3, MARGIN)),
            (Some(60), Some(6), Some(-15), Some(6))
        );
    }

    #[test]
    fn rules_fired_and_asks_observed_by_hand() {
        // Two rules (road, settle) and two actions (sell, bid: bid is asked).
        let layout = Layout {
            figures: FIXED
                .iter()
                .map(|s| s.to_string())
                .chain(
                    [
                        "fired: road",
                        "fired: settle",
                        "asked: bid",
                        "action: sell",
                        "action: bid",
                    ]
                    .iter()
                    .map(|s| s.to_string()),
                )
                .collect(),
            groups: vec!["a".into(), "b".into(), "game".into()],
        };
        let map = Mapping {
            rule_fig: Vec::new(),
            action_fig: vec![10, 11],
            report: None,
            fired_fig: vec![7, 8],
            asked_fig: vec![None, Some(9)],
        };
        let mut o = Outcome::default();
        o.story.on = true;
        o.reset(2, 0, 2);
        o.actions = vec![0, 1, 0, 1];
        o.scores = vec![3, 4];
        o.fired = vec![5, 1];
        // a was asked for a bid twice, b once; `sell` is no asked action.
        o.asked = vec![7, 2, 7, 1];
        let mut obs = Vec::new();
        o.observe(&layout, &map, &mut obs);
        let v = |g: usize, f: usize| obs[layout.at(g, f)];
        // A rule fires for the game, not for a seat.
        assert_eq!((v(0, 7), v(1, 7), v(2, 7)), (None, None, Some(5)));
        assert_eq!(v(2, 8), Some(1));
        // Asks per seat asked, and their sum for the game; `sell` counts nowhere.
        assert_eq!((v(0, 9), v(1, 9), v(2, 9)), (Some(2), Some(1), Some(3)));
        // Taken (answered with a bid) is another figure.
        assert_eq!((v(0, 11), v(2, 11)), (Some(1), Some(2)));
    }
}
