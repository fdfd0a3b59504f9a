//! The last forced check, when it found nothing and what it read is known, per current player (the
//! first 8 seats). It carries the facts it saw (chip moves, tiles placed, the turn) and is checked
//! against them on each read; `GameBegun` and `ActionTaken` forget it.

use crate::interp::reads::Quiet;

#[derive(Clone, Copy, Default)]
pub(in crate::interp) struct ForcedQuiet {
    per_seat: [Option<Quiet>; 8],
}

impl ForcedQuiet {
    /// The quiet check kept for seat `current` (none past the first 8 seats).
    pub(in crate::interp) fn get(&self, current: u8) -> Option<Quiet> {
        self.per_seat.get(current as usize).copied().flatten()
    }

    /// Keeps (or forgets, with `None`) the quiet check of seat `current`.
    pub(in crate::interp) fn set(&mut self, current: u8, quiet: Option<Quiet>) {
        if let Some(q) = self.per_seat.get_mut(current as usize) {
            *q = quiet;
        }
    }

    /// Forgets every seat's check.
    pub(in crate::interp) fn forget(&mut self) {
        self.per_seat = [None; 8];
    }
}
