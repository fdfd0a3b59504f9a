//! Chip-subset choices (`choose pay: chips from LIST size 1..4 where …`): every subset of the list of
//! the allowed size, counted by kind (chips of one colour, value and face are interchangeable, so a
//! subset is how many of each kind). The work lists are kept between runs in a pool, one per nesting
//! level (a subset choice may choose again from the chosen subset), so enumerating allocates nothing
//! once the pool is warm.

use super::actions::Choosing;
use super::lower::{CodeId, TestId};
use super::{Chosen, Interp, R};
use crate::game::Opt;
use crate::ir::Value;
use crate::state::State;

/// What one chip-subset enumeration works in.
#[derive(Clone, Debug, Default)]
pub(super) struct Subsets {
    /// The chips of the list and their kind (colour, value, face up), sorted by kind; within a kind
    /// in the list's order.
    chips: Vec<((u8, u8, bool), u16)>,
    /// Per kind, in kind order: where its chips start in `chips`, and how many there are.
    kinds: Vec<(usize, usize)>,
    /// How many chips of each kind the current subset takes (an odometer over `kinds`).
    counts: Vec<usize>,
    /// The chips of the current subset.
    ids: Vec<u16>,
}

impl Subsets {
    /// Groups the chips of `list` (a list value's elements; other values are skipped) by kind, as
    /// `player` sees them: the chips whose face it may not see are one kind.
    fn group(&mut self, st: &State, player: u8, list: impl Iterator<Item = Value>) {
        self.chips.clear();
        self.kinds.clear();
        for v in list {
            if let Value::Chip(c) = v {
                let ch = st.chips[c as usize];
                let kind = if super::actions::seen(st, c, crate::sight::Seat::Player(player)) {
                    (ch.colour, ch.value, ch.face_up)
                } else {
                    (u8::MAX, u8::MAX, false)
                };
                self.chips.push((kind, c));
            }
        }
        // Stable: the chips of a kind stay in the list's order.
        self.chips.sort_by_key(|&(k, _)| k);
        let mut i = 0;
        while i < self.chips.len() {
            let key = self.chips[i].0;
            let n = self.chips[i..]
                .iter()
                .take_while(|(k, _)| *k == key)
                .count();
            self.kinds.push((i, n));
            i += n;
        }
        self.counts.clear();
        self.counts.resize(self.kinds.len(), 0);
    }

    /// The chips the current counts take: the first ones of each kind.
    fn fill_ids(&mut self) {
        self.ids.clear();
        for (&(start, _), &n) in self.kinds.iter().zip(&self.counts) {
            self.ids
                .extend(self.chips[start..start + n].iter().map(|&(_, c)| c));
        }
    }

    /// The next choice of how many chips of each kind, at most `hi` chips in all; false when every
    /// combination has been seen.
    fn next_counts(&mut self, hi: usize) -> bool {
        let mut i = 0;
        loop {
            if i == self.counts.len() {
                return false;
            }
            if self.counts[i] < self.kinds[i].1 && self.counts.iter().sum::<usize>() < hi {
                self.counts[i] += 1;
                return true;
            }
            self.counts[i] = 0;
            i += 1;
        }
    }
}

impl Interp {
    /// `choose x: chips from LIST size …`: each subset of the size that passes (chips of one colour,
    /// value and face are interchangeable: how many of each kind), then the next choices.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn enumerate_chips(
        &mut self,
        st: &mut State,
        at: Choosing,
        from: Value,
        size: Option<CodeId>,
        filter: Option<TestId>,
        chosen: &mut Vec<Chosen>,
        out: &mut Vec<Opt>,
    ) -> R<()> {
        let slot = at.action.choices[at.k].slot;
        let n = self.len_of(from)?;
        let (lo, hi) = match size {
            Some(e) => match self.value(st, e)? {
                Value::Range(a, b) => (a.max(0) as usize, b.max(0) as usize),
                Value::Int(n) => (n.max(0) as usize, n.max(0) as usize),
                _ => (1, 4),
            },
            None => (1, n),
        };
        let mut s = self.subsets.pop().unwrap_or_default();
        s.group(st, at.player, (0..n).map(|k| self.elem_at(from, k)));
        loop {
            self.tick()?;
            let total: usize = s.counts.iter().sum();
            if total >= lo.max(1) && total <= hi {
                s.fill_ids();
                let list = self.list_of(s.ids.iter().map(|&c| Value::Chip(c)));
                self.set(slot, list)?;
                let pass = match filter {
                    Some(f) => self.truth(st, f)?,
                    None => true,
                };
                if pass {
                    let start = self.run.push_chips(&s.ids);
                    chosen.push(Chosen::Chips {
                        start,
                        len: s.ids.len() as u32,
                    });
                    self.enumerate(st, at.ai, at.player, at.action, at.k + 1, chosen, out)?;
                    chosen.pop();
                }
            }
            if !s.next_counts(hi) {
                break;
            }
        }
        self.subsets.push(s);
        Ok(())
    }
}
