//! Combining the JSON results of slices of one run (`--first-game K --games N` on several machines)
//! into the results of the whole: histograms add, so every figure is exactly that of one run.

use super::run::{add_range, Results};
use super::RunInfo;

/// Merges slices given as (file name, run, results). They must be slices of the same run (same
/// variant, settings, players, agents and seed) and must not share a game.
pub fn merge(slices: Vec<(String, RunInfo, Results)>) -> Result<(RunInfo, Results), String> {
    let mut it = slices.into_iter();
    let Some((first_name, info, mut acc)) = it.next() else {
        return Err("nothing to merge".into());
    };
    for (name, i, r) in it {
        if i != info {
            return Err(format!(
                "`{name}` is not a slice of the same run as `{first_name}`: {}",
                difference(&info, &i)
            ));
        }
        for &(a, b) in &r.played {
            if let Some(&(c, d)) = acc.played.iter().find(|&&(c, d)| a < d && c < b) {
                let (lo, hi) = (a.max(c), b.min(d) - 1);
                return Err(format!(
                    "`{name}` and the files before it both played games {lo} to {hi}: \
                     give each slice its own `--first-game`"
                ));
            }
        }
        if r.layout != acc.layout {
            return Err(format!(
                "`{name}` measures other figures than `{first_name}` (another version of carto or of the rules?)"
            ));
        }
        for (s, o) in acc.stats.iter_mut().zip(&r.stats) {
            s.merge(o);
        }
        for (d, o) in acc.diffs.iter_mut().zip(&r.diffs) {
            d.merge(o);
        }
        for &p in &r.played {
            add_range(&mut acc.played, p);
        }
        acc.interrupted |= r.interrupted;
    }
    Ok((info, acc))
}

fn difference(a: &RunInfo, b: &RunInfo) -> String {
    let mut d = Vec::new();
    if a.variant != b.variant {
        d.push(format!("variant {} vs {}", a.variant, b.variant));
    }
    if a.sets != b.sets {
        d.push(format!("--set {:?} vs {:?}", a.sets, b.sets));
    }
    if a.sweep != b.sweep {
        d.push(format!("--sweep {:?} vs {:?}", a.sweep, b.sweep));
    }
    if a.vs != b.vs || a.vs_rules != b.vs_rules {
        d.push("a different comparison (--vs, --vs-rules)".into());
    }
    if a.players != b.players {
        d.push(format!(
            "players {} vs {}",
            a.players.join(","),
            b.players.join(",")
        ));
    }
    if a.agents != b.agents {
        d.push(format!(
            "agents {} vs {}",
            a.agents.join(","),
            b.agents.join(",")
        ));
    }
    if a.seed != b.seed {
        d.push(format!("seed {} vs {}", a.seed, b.seed));
    }
    d.join("; ")
}
