//! The analyses of a checked program that the agents use (issue 33): what the rules read that a
//! player may not see (`hidden`), where chips are read only to move chips (`blind`), what a forced
//! check reads (`reads`), what the rules on a trigger do (`quiet`), which aggregates are static
//! (`statics`), and whether scoring a feature nobody holds may change the game (`unheld`). Each
//! works on the lowered program alone (no game, no interpreter), and the properties of a builtin,
//! field or effect come from its row in `builtins.rs` (what it reads, what it changes, its role,
//! whether it is static), never from a list here. They walk the IR with one walker (`visit`),
//! saying what they do at the nodes they care about and leaving the rest to it. The interpreter
//! answers the agents' questions by calling them (`interp/analyses.rs`).

pub(crate) mod blind;
pub(crate) mod hidden;
pub(crate) mod quiet;
pub(crate) mod reads;
pub(crate) mod statics;
pub(crate) mod unheld;
pub(crate) mod visit;

use crate::game::Trigger;
use crate::ir::{Program, Rule};

/// The rules on every trigger but those in `exempt`: the rules an analysis asked "once nothing
/// fires the exempt triggers any more" speaks of.
pub(crate) fn rules_but<'p>(
    prog: &'p Program,
    exempt: &'p [Trigger],
) -> impl Iterator<Item = &'p Rule> + 'p {
    Trigger::ALL
        .iter()
        .filter(move |t| !exempt.contains(t))
        .flat_map(move |&t| {
            prog.rules_for(t)
                .iter()
                .map(move |&r| &prog.rules[r as usize])
        })
}
