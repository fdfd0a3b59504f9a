//! Per rule, per square, what its static parts gave. Depends on the map only: never stale.

#[derive(Clone, Default)]
pub(in crate::interp) struct StaticMemo {
    /// Per rule, per square: 0 not known yet, 1 false, 2 true.
    per_rule: Vec<Vec<u8>>,
}

impl StaticMemo {
    /// What rule `r`'s static parts gave on square `cell`, if it is known.
    pub(in crate::interp) fn get(&self, r: usize, cell: u32) -> Option<bool> {
        match self.per_rule.get(r).and_then(|m| m.get(cell as usize)) {
            Some(1) => Some(false),
            Some(2) => Some(true),
            _ => None,
        }
    }

    /// Remembers that rule `r`'s static parts gave `all` on square `cell`, of `squares` squares.
    pub(in crate::interp) fn set(&mut self, r: usize, cell: u32, squares: usize, all: bool) {
        if self.per_rule.len() <= r {
            self.per_rule.resize(r + 1, Vec::new());
        }
        let memo = &mut self.per_rule[r];
        if memo.len() <= cell as usize {
            memo.resize(squares.max(cell as usize + 1), 0);
        }
        memo[cell as usize] = if all { 2 } else { 1 };
    }

    /// Whether rule `r` was found both true and false somewhere (for the tests).
    #[cfg(test)]
    pub(in crate::interp) fn known_both_ways(&self, r: usize) -> bool {
        let m = &self.per_rule[r];
        m.contains(&2) && m.contains(&1)
    }
}
