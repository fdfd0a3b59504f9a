//! The story of one game, for `carto sim --report`: the scores after every turn and the decisions
//! each seat faced, kept as the game is played (no second pass, no event log), and the report's
//! per-game figures read from them (lead changes, when the winner took the lead for good, drama,
//! who was behind at half-time, decisions and options). Each figure is an integer per game, so it
//! goes into the run's exact histograms like any other figure: intervals, paired differences and
//! `carto sim merge` come for free. Definitions: docs/report.md.

/// Deficit bands at half-time (points behind the best other player): 1–5, 6–10, 11–20, 21 or more.
pub(crate) const BANDS: [(i64, i64); 4] = [(1, 5), (6, 10), (11, 20), (21, i64::MAX)];

/// The name of a band in figures and reports: `1-5`, `21+`.
pub(crate) fn band_name(b: usize) -> String {
    let (lo, hi) = BANDS[b];
    if hi == i64::MAX {
        format!("{lo}+")
    } else {
        format!("{lo}-{hi}")
    }
}

/// Per-mille: the unit of `decided at`.
pub(crate) const PER_MILLE: i64 = 1000;
/// Hundredths of a point: the unit of the mean deficit.
pub(crate) const HUNDREDTHS: i64 = 100;

/// What one game's story records.
#[derive(Clone, Debug, Default)]
pub(crate) struct Story {
    /// Whether it records at all (`--report`).
    pub(crate) on: bool,
    pub(crate) seats: usize,
    /// The scores after 0, 1, 2, … turns (taken before each turn's tile is placed), then the final
    /// scores: `scores[t * seats + s]`.
    pub(crate) scores: Vec<i64>,
    /// Per seat: decisions, decisions with more than one option, and the options of those.
    pub(crate) decisions: Vec<u32>,
    pub(crate) choices: Vec<u32>,
    pub(crate) options: Vec<u32>,
}

/// The per-game figures of a story (`None`: the figure does not apply to this game).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Figures {
    pub(crate) lead_changes: i64,
    /// 1 when the game had no lead change.
    pub(crate) no_lead_change: i64,
    /// Per mille of the turns: when the sole winner took the lead for good (`None` on a shared win).
    pub(crate) decided_at: Option<i64>,
    /// The sole winner's mean deficit behind the leader over the snapshots, in hundredths of a point.
    pub(crate) drama_mean: Option<i64>,
    /// The sole winner's largest deficit behind the leader.
    pub(crate) drama_max: Option<i64>,
    /// Per band: seats behind by that much at half-time, and how many of them won (a shared win
    /// counts).
    pub(crate) behind: [i64; 4],
    pub(crate) came_back: [i64; 4],
}

impl Story {
    /// Starts the story of a game of `seats` players.
    pub(crate) fn reset(&mut self, on: bool, seats: usize) {
        self.on = on;
        self.seats = seats;
        self.scores.clear();
        for v in [&mut self.decisions, &mut self.choices, &mut self.options] {
            v.clear();
            v.resize(seats, 0);
        }
    }

    /// A decision of seat `who` among `options` options.
    #[inline]
    pub(crate) fn decision(&mut self, who: usize, options: usize) {
        if !self.on {
            return;
        }
        self.decisions[who] += 1;
        if options > 1 {
            self.choices[who] += 1;
            self.options[who] += options as u32;
        }
    }

    /// The scores now (before a turn's tile is placed, and once at the end).
    #[inline]
    pub(crate) fn snapshot(&mut self, scores: impl Iterator<Item = i64>) {
        if self.on {
            self.scores.extend(scores);
        }
    }

    fn at(&self, t: usize) -> &[i64] {
        &self.scores[t * self.seats..(t + 1) * self.seats]
    }

    /// Snapshots taken (turns + 1 for the final scores).
    fn len(&self) -> usize {
        self.scores.len().checked_div(self.seats).unwrap_or(0)
    }

    /// The figures of the game, given its winners (a bit set of seats).
    pub(crate) fn figures(&self, winners: u32) -> Figures {
        let mut f = Figures::default();
        let n = self.len();
        if n == 0 || self.seats == 0 {
            return f;
        }
        // Lead changes: the sole leader differs from the last sole leader (a tie keeps the lead).
        let mut last = None;
        for t in 0..n {
            if let Some(l) = sole_leader(self.at(t)) {
                if last.is_some_and(|p| p != l) {
                    f.lead_changes += 1;
                }
                last = Some(l);
            }
        }
        f.no_lead_change = (f.lead_changes == 0) as i64;
        let winner = (winners.count_ones() == 1).then(|| winners.trailing_zeros() as usize);
        if let Some(w) = winner {
            let turns = (n - 1) as i64;
            // The first snapshot from which the winner leads alone to the end.
            let mut k = n - 1;
            while k > 0 && sole_leader(self.at(k - 1)) == Some(w) {
                k -= 1;
            }
            if turns > 0 {
                f.decided_at = Some(k as i64 * PER_MILLE / turns);
            }
            let deficits = (0..n).map(|t| {
                let s = self.at(t);
                s.iter().copied().max().unwrap_or(0) - s[w]
            });
            let (sum, max) = deficits.fold((0i64, 0i64), |(a, m), d| (a + d, m.max(d)));
            f.drama_mean = Some((sum * HUNDREDTHS + n as i64 / 2) / n as i64);
            f.drama_max = Some(max);
        }
        // Half-time: the scores after half the turns (rounded down).
        let half = self.at((n - 1) / 2);
        for s in 0..self.seats {
            let best_other = (0..self.seats)
                .filter(|&o| o != s)
                .map(|o| half[o])
                .max()
                .unwrap_or(half[s]);
            let behind = best_other - half[s];
            if let Some(b) = BANDS
                .iter()
                .position(|&(lo, hi)| behind >= lo && behind <= hi)
            {
                f.behind[b] += 1;
                f.came_back[b] += (winners & (1 << s) != 0) as i64;
            }
        }
        f
    }
}

/// The seat with the best score alone, if one has it.
fn sole_leader(scores: &[i64]) -> Option<usize> {
    let best = *scores.iter().max()?;
    let mut at = scores.iter().enumerate().filter(|(_, &v)| v == best);
    let (first, _) = at.next()?;
    at.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A story of two seats from their scores after each turn (the last pair: the final scores).
    fn story(snapshots: &[[i64; 2]]) -> Story {
        let mut s = Story::default();
        s.reset(true, 2);
        for p in snapshots {
            s.snapshot(p.iter().copied());
        }
        s
    }

    #[test]
    fn a_comeback_by_hand() {
        // Turns 0..4 then the final scores: ann leads at 1 and 2, bob from 3 on and wins 20–15.
        let s = story(&[[0, 0], [4, 0], [8, 2], [8, 12], [9, 14], [15, 20]]);
        let f = s.figures(0b10);
        // Leaders: -, ann, ann, bob, bob, bob: one change.
        assert_eq!((f.lead_changes, f.no_lead_change), (1, 0));
        // Bob leads alone from snapshot 3 of 5 turns: 3/5 = 600 per mille.
        assert_eq!(f.decided_at, Some(600));
        // Bob's deficits: 0, 4, 6, 0, 0, 0: mean 10/6 = 1.67 (167 hundredths), largest 6.
        assert_eq!((f.drama_mean, f.drama_max), (Some(167), Some(6)));
        // Half-time: snapshot (6−1)/2 = 2, scores 8–2: bob behind by 6 (band 6-10) and won.
        assert_eq!(f.behind, [0, 1, 0, 0]);
        assert_eq!(f.came_back, [0, 1, 0, 0]);
    }

    #[test]
    fn a_tie_keeps_the_lead_and_a_shared_win_has_no_winner_figures() {
        // ann, tie, ann, tie, bob, tie(final): ann → bob is one change; ties keep the lead.
        let s = story(&[[1, 0], [2, 2], [5, 2], [5, 5], [5, 9], [9, 9]]);
        let f = s.figures(0b11);
        assert_eq!(f.lead_changes, 1);
        assert_eq!(
            (f.decided_at, f.drama_mean, f.drama_max),
            (None, None, None)
        );
        // Half-time (snapshot 2: 5–2): bob behind by 3 (band 1-5); a shared win counts.
        assert_eq!((f.behind[0], f.came_back[0]), (1, 1));
    }

    #[test]
    fn a_wire_to_wire_win() {
        let s = story(&[[0, 0], [3, 0], [3, 1], [30, 1]]);
        let f = s.figures(0b01);
        assert_eq!((f.lead_changes, f.no_lead_change), (0, 1));
        // Ann leads alone from snapshot 1 of 3 turns: 333 per mille; never behind.
        assert_eq!(f.decided_at, Some(333));
        assert_eq!((f.drama_mean, f.drama_max), (Some(0), Some(0)));
        // Half-time snapshot 1 (3–0): bob behind by 3, lost.
        assert_eq!((f.behind[0], f.came_back[0]), (1, 0));
    }

    #[test]
    fn decisions_and_options() {
        let mut s = Story::default();
        s.reset(true, 2);
        s.decision(0, 1);
        s.decision(0, 5);
        s.decision(1, 3);
        s.decision(0, 2);
        assert_eq!(
            (s.decisions, s.choices, s.options),
            (vec![3, 1], vec![2, 1], vec![7, 3])
        );
        let mut off = Story::default();
        off.reset(false, 2);
        off.decision(0, 4);
        off.snapshot([1, 2].into_iter());
        assert_eq!((off.decisions, off.scores.len()), (vec![0, 0], 0));
    }
}
