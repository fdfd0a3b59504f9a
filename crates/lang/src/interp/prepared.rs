//! What the interpreter derives from the program alone, besides the lowered code (`lower::Plan`).
//!
//! Owner: every interpreter of one program shares one [`Prepared`] through an `Arc` (copies made for
//! agents' look-ahead share it too). Lifetime: the program's. Nothing invalidates it: it is built
//! once in [`Interp::new`](super::Interp::new) and never written again.

use super::{dispatch, lower};
use crate::analysis::reads;
use crate::analysis::statics::{static_aggregates, Key};
use crate::builtins::Trigger;
use crate::ir::Program;

pub(super) struct Prepared {
    /// Names of rules, then of actions, then "setup" (score events refer to these).
    pub(super) names: Vec<String>,
    /// Per trigger: whether any rule listens to it.
    pub(super) listens: [bool; Trigger::ALL.len()],
    /// Whether scoring a feature without followers may change the game (see `unheld`).
    pub(super) scores_unheld: bool,
    /// Per rule, the test of a trigger value its condition starts with (see `dispatch`).
    pub(super) guards: Vec<Option<dispatch::Guard>>,
    /// Per rule, the first parts of its condition that read only map facts of the trigger's square,
    /// lowered (see `dispatch`); what they gave is memoized in [`Caches`](super::caches::Caches).
    pub(super) static_parts: Vec<Option<dispatch::StaticPart>>,
    /// What the forced check reads when every forced `when` is false, and otherwise (see `reads`).
    pub(super) forced_reads: (reads::Reads, reads::Reads),
    /// Aggregates that depend only on the map, parameters and constants, by the address of their
    /// node in the program (sorted); their values are memoized in `Caches::static_vals`.
    pub(super) static_aggs: Vec<usize>,
    /// For each, what it reads of outside variables (the memo's key).
    pub(super) static_free: Vec<Vec<Key>>,
}

impl Prepared {
    /// Derives everything from the program, and lowers it: the lowered code is returned beside.
    pub(super) fn new(prog: &Program) -> (Prepared, lower::Plan) {
        let mut names: Vec<String> = prog.rules.iter().map(|r| r.name.clone()).collect();
        names.extend(prog.actions.iter().map(|a| a.name.clone()));
        names.push("setup".into());
        let mut listens = [false; Trigger::ALL.len()];
        for t in Trigger::ALL {
            listens[t as usize] = !prog.rules_for(t).is_empty();
        }
        let found = static_aggregates(prog);
        let static_aggs: Vec<usize> = found.iter().map(|(k, _)| *k).collect();
        let static_free: Vec<Vec<Key>> = found.into_iter().map(|(_, f)| f).collect();
        let mut lowered = lower::lower_program(prog, &static_aggs);
        let static_parts = dispatch::static_parts(prog, &mut lowered);
        let plan = lowered.plan;
        let prep = Prepared {
            names,
            listens,
            scores_unheld: crate::analysis::unheld::scores_unheld(prog),
            guards: dispatch::guards(prog),
            static_parts,
            forced_reads: reads::forced_reads(prog),
            static_aggs,
            static_free,
        };
        (prep, plan)
    }
}
