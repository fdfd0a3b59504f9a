//! What the agents ask of the rules' analyses (`crate::analysis`, which work on the program alone),
//! through the interpreter that holds the program, and which offers of a decision are alike.

use super::{Chosen, Interp};
use crate::analysis::{blind, hidden, quiet};
use crate::game::Trigger;

impl Interp {
    /// Whether every rule on a trigger outside `exempt` and every action (its condition, choices
    /// and body) read nothing a sample of the game deals afresh but the faces of chips in
    /// players' hands (see `crate::analysis::hidden`). Then, once nothing fires the exempt
    /// triggers any more and no tile is drawn, a copy of the game plays as a sample of it whose
    /// every chip in a player's hand was seen by the player the sample was dealt for.
    pub fn faces_read_only_in_hands(&self, exempt: &[Trigger]) -> bool {
        hidden::program_sees_but(&self.prog, exempt)
    }

    /// Whether every rule on a trigger outside `exempt` reads chips (where they lie, which way up,
    /// and the chips it binds) only to move chips (see `crate::analysis::blind`), and every forced
    /// action
    /// only moves chips. Then, once nothing fires the exempt triggers any more, two positions that
    /// differ only in where chips lie play on alike but for the chips: the same scores, followers
    /// and strengths, whatever quiet choices follow.
    pub fn chips_read_only_to_move_chips(&self, exempt: &[Trigger]) -> bool {
        blind::program_blind_but(&self.prog, exempt)
    }

    /// Per action of the program (by index), the choices (a bit per choice, in order) whose
    /// values reach nothing but chips moved (`0` where none does, or where the body reads a chip
    /// chosen in more than moving it): two offers of an action differing only in those choices
    /// change everything but the chips alike.
    pub fn chip_choices(&self) -> Vec<u64> {
        self.prog
            .actions
            .iter()
            .map(|a| blind::free_choices(a).unwrap_or(0))
            .collect()
    }

    /// Whether every rule listening to `t` scores and moves chips alone, reading only what one
    /// square settles (see [`quiet::rules_score_and_move_chips_by_square`]).
    pub fn rules_score_and_move_chips_by_square(&self, t: Trigger) -> bool {
        quiet::rules_score_and_move_chips_by_square(&self.prog, t)
    }

    /// Whether every forced action's `when` reads chips only in players' hands (see
    /// [`quiet::forced_reads_only_hands`]).
    pub fn forced_reads_only_hands(&self) -> bool {
        quiet::forced_reads_only_hands(&self.prog, self.prep.forced_reads)
    }

    /// Whether offers `a` and `b` of the pending decision are of the same action for the same
    /// player with the same values but in the choices marked in `free` (see
    /// [`Interp::chip_choices`]).
    pub fn offers_alike(&self, a: u32, b: u32, free: u64) -> bool {
        let d = &self.run.decision;
        let (Some(x), Some(y)) = (d.offers.get(a as usize), d.offers.get(b as usize)) else {
            return false;
        };
        if x.action != y.action || x.player != y.player || x.len != y.len {
            return false;
        }
        let params = self
            .prog
            .actions
            .get(x.action as usize)
            .map_or(0, |a| u32::from(a.params));
        (0..x.len).all(|i| {
            if i >= params && (i - params) < 64 && free >> (i - params) & 1 == 1 {
                return true;
            }
            let (u, v) = (
                d.offer_vals.get((x.start + i) as usize),
                d.offer_vals.get((y.start + i) as usize),
            );
            match (u, v) {
                (Some(Chosen::Value(p)), Some(Chosen::Value(q))) => p == q,
                (
                    Some(&Chosen::Chips { start: s, len: n }),
                    Some(&Chosen::Chips { start: t, len: m }),
                ) => {
                    let chips = |s: u32, n: u32| d.offer_chips.get(s as usize..(s + n) as usize);
                    n == m && chips(s, n) == chips(t, m)
                }
                _ => false,
            }
        })
    }
}
