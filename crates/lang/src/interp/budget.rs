//! The operation budget of a turn: every rule, trigger, condition and action of a turn counts its
//! operations here, and the game stops with an error naming the rule when they pass
//! [`OP_BUDGET`], so no rules file can make a game hang.

use super::OP_BUDGET;

/// Operations counted in the turn the budget is for; its own type, so that only `spend`, `refund`
/// and a new turn change the count.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    ops: u64,
    /// The turn the count is for.
    turn: u32,
}

impl Budget {
    pub(super) fn new() -> Budget {
        Budget {
            ops: 0,
            turn: u32::MAX,
        }
    }

    /// A fresh count when `turn` is another turn than the one counted (the budget covers a whole
    /// turn, whatever runs in it).
    #[inline]
    pub(super) fn begin(&mut self, turn: u32) {
        if self.turn != turn {
            self.turn = turn;
            self.ops = 0;
        }
    }

    /// Counts `n` operations: whether the turn is still within its budget.
    #[inline]
    pub(super) fn spend(&mut self, n: u64) -> bool {
        self.ops += n;
        self.ops <= OP_BUDGET
    }

    /// Gives back `n` operations counted twice (a node read in place that its parent counted).
    #[inline]
    pub(super) fn refund(&mut self, n: u64) {
        self.ops -= n;
    }

    /// A count from nothing, for the same turn (the oracle's walker runs beside the executor
    /// without spending the game's budget; the caller puts the saved budget back).
    #[cfg(any(test, feature = "oracle"))]
    pub(super) fn restart(&mut self) {
        self.ops = 0;
    }
}
