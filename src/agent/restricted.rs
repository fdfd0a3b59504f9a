//! `greedy-without:NAME[+NAME…]`: restricted play (Jaffe et al., 2012), greedy barred from some
//! options: every option of the action `NAME` (offered in a phase or asked by a rule), or only an
//! answer named in full (`pay_toll 2`: the options whose name is that or starts with it and a
//! space). Pitted against plain greedy, its win share says how much what it is barred from is
//! worth. Where every option of a decision is barred (an asked decision must be answered) it
//! chooses as greedy would.

use super::{Agent, Greedy, View};
use crate::game::{GameError, Opt};
use crate::rng::Rng;

/// Greedy that never takes the barred options while another is legal.
pub struct Restricted {
    greedy: Greedy,
    /// The spec, as written (`greedy-without:sell_town`).
    spec: String,
    barred: Vec<String>,
    allowed: Vec<bool>,
    best: Vec<usize>,
}

impl Restricted {
    pub(crate) fn new(spec: &str, barred: Vec<String>) -> Restricted {
        Restricted {
            greedy: Greedy::default(),
            spec: spec.to_string(),
            barred,
            allowed: Vec::new(),
            best: Vec::new(),
        }
    }

    /// Whether an option of this name is barred.
    fn bars(&self, name: &str) -> bool {
        self.barred.iter().any(|b| {
            name.strip_prefix(b.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
    }
}

/// The names a `…-without:` spec bars (empty for any other spec).
pub fn barred(spec: &str) -> Vec<String> {
    match spec.trim().split_once("-without:") {
        Some((_, names)) => names.split('+').map(|n| n.trim().to_string()).collect(),
        None => Vec::new(),
    }
}

/// Refuses an agent barred from an action that none of `programs` has (a misspelt name would
/// bar nothing, and the run would measure plain greedy): the same words on the command line and in
/// the playground.
pub fn check_barred(
    programs: &[&crate::lang::ir::Program],
    agents: &[String],
) -> Result<(), String> {
    for a in agents {
        for b in barred(a) {
            let action = b.split(' ').next().unwrap_or("");
            if programs
                .iter()
                .any(|p| p.actions.iter().any(|x| x.name == action))
            {
                continue;
            }
            let mut names: Vec<&str> = programs
                .first()
                .map(|p| p.actions.iter().map(|x| x.name.as_str()).collect())
                .unwrap_or_default();
            names.dedup();
            let known = if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            };
            return Err(format!(
                "`{a}`: the rules have no action `{action}` (their actions: {known})"
            ));
        }
    }
    Ok(())
}

impl Agent for Restricted {
    fn name(&self) -> &str {
        &self.spec
    }

    fn choose(&mut self, view: &View, rng: &mut Rng) -> Result<usize, GameError> {
        let opts = view.options();
        // Only actions carry names that can be barred; names are read only at their decisions.
        self.allowed.clear();
        for &o in opts {
            let ok = !matches!(o, Opt::Action(_)) || !self.bars(&view.option_name(o));
            self.allowed.push(ok);
        }
        let open = self.allowed.iter().filter(|&&a| a).count();
        if open == opts.len() || open == 0 {
            return self.greedy.choose(view, rng);
        }
        if open == 1 {
            return Ok(self.allowed.iter().position(|&a| a).unwrap_or(0));
        }
        let values = self.greedy.values(view)?;
        let mut best = f64::NEG_INFINITY;
        self.best.clear();
        for (i, &v) in values.iter().enumerate() {
            if !self.allowed[i] {
                continue;
            }
            if v > best {
                best = v;
                self.best.clear();
            }
            if v == best {
                self.best.push(i);
            }
        }
        Ok(self.best[rng.below(self.best.len() as u32) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_barred() {
        assert_eq!(
            barred("greedy-without:sell_town+pay 2"),
            ["sell_town", "pay 2"]
        );
        assert!(barred("greedy").is_empty());
        let r = Restricted::new(
            "greedy-without:sell_town+pay 2",
            barred("greedy-without:sell_town+pay 2"),
        );
        assert!(r.bars("sell_town blue2 lyon"));
        assert!(r.bars("sell_town"));
        assert!(!r.bars("sell_townhall"));
        assert!(r.bars("pay 2"));
        assert!(!r.bars("pay 20"));
        assert!(!r.bars("pay 1"));
    }
}
