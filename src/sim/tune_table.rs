//! The table of a tuning run for people (`carto tune`, and the playground's Measure tab): the
//! target, who played, the best value with its interval, the values the games cannot rule out, and
//! every value's figure, distance and the evidence that put it out of the race.

use super::tune::{Race, Target, TuneInfo};

/// The table `carto tune` prints.
pub fn table(info: &TuneInfo, race: &Race) -> String {
    let m = race.measures();
    let games: u64 = race.candidates.iter().map(|c| c.games()).sum();
    let seats: Vec<String> = info
        .players
        .iter()
        .zip(&info.agents)
        .map(|(p, a)| format!("{p} ({a})"))
        .collect();
    let what = match info.target {
        Target::Balance => "first seat's win share",
        Target::Win { .. } => "win share",
        Target::Turns { .. } => "turns",
        Target::Gap { .. } => "gap",
    };
    let mut s = format!(
        "tune: {} {} ({} values), target: {}\nplayed by: {}; {games} games in {} round{} (every value in a round plays the same seeds, from {})\n",
        info.variant,
        info.params.join(" "),
        race.candidates.len(),
        info.target.describe(&info.players),
        seats.join(", "),
        race.rounds,
        if race.rounds == 1 { "" } else { "s" },
        info.seed
    );
    if let Some(b) = race.best() {
        let (e, d) = (m[b].0, m[b].1);
        s.push_str(&format!(
            "\nbest: {}: {what} {:.3} [{:.3}, {:.3}], {:.3} from the target (at most {:.3}), over {} games\n",
            race.candidates[b].point.join(" "),
            e.mean,
            e.lo,
            e.hi,
            d.est,
            d.most,
            race.candidates[b].games()
        ));
    }
    let open: Vec<String> = race
        .not_ruled_out()
        .iter()
        .map(|&c| race.candidates[c].point.join(" "))
        .collect();
    s.push_str(&format!(
        "the games cannot rule out: {} (the values whose 95% interval holds the target)\n",
        if open.is_empty() {
            "none".to_string()
        } else {
            open.join(", ")
        }
    ));
    s.push_str(&format!(
        "\n{:<16}  {:>7}  {:>8}  {:<16}  {:>8}  evidence\n",
        "value", "games", what, "95% CI", "distance"
    ));
    for (c, cand) in race.candidates.iter().enumerate() {
        let (e, d) = m[c];
        let status = match cand.out {
            Some((r, by)) => format!(
                "out after round {r}: at least {:.3} from the target, more than {}'s {:.3} at most",
                d.least,
                race.candidates[by].point.join(" "),
                m[by].1.most
            ),
            None if Some(c) == race.best() => "best".into(),
            None => "still in the race".into(),
        };
        s.push_str(&format!(
            "{:<16}  {:>7}  {:>8.3}  {:<16}  {:>8.3}  {status}\n",
            cand.point.join(" "),
            cand.games(),
            e.mean,
            format!("[{:.3}, {:.3}]", e.lo, e.hi),
            d.est
        ));
    }
    s.push_str("\nhow the race runs and why: docs/tune.md\n");
    s
}
