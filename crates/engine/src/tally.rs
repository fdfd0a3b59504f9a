//! Counters kept while a game is played, for statistics over many games (`carto sim`): points by
//! rule, how often each rule fired, chips gained and spent, followers placed, per player. The state
//! (and the rules' interpreter, for a rule that fires) bumps them as effects
//! happen, so nothing has to record events or read them back; a new game clears them.

/// Most players a game can have (the counters are laid out per player slot).
pub(crate) const SLOTS: usize = 8;

#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Points by rule: `points[rule * SLOTS + player]` (the rule numbering of score events).
    pub(crate) points: Vec<i64>,
    /// Chips that came into each player's area.
    pub chips_gained: [u32; SLOTS],
    /// Chips that left each player's area.
    pub chips_spent: [u32; SLOTS],
    pub followers_placed: [u32; SLOTS],
    /// How often each rule fired (its `when` held and its body ran): `fired[rule]`.
    pub(crate) fired: Vec<u32>,
}

impl Tally {
    /// Makes these counters a copy of `src`, keeping the buffer.
    pub(crate) fn copy_from(&mut self, src: &Tally) {
        self.points.clone_from(&src.points);
        self.chips_gained = src.chips_gained;
        self.chips_spent = src.chips_spent;
        self.followers_placed = src.followers_placed;
        self.fired.clone_from(&src.fired);
    }

    /// Clears every counter, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        self.points.iter_mut().for_each(|p| *p = 0);
        self.chips_gained = [0; SLOTS];
        self.chips_spent = [0; SLOTS];
        self.followers_placed = [0; SLOTS];
        self.fired.iter_mut().for_each(|f| *f = 0);
    }

    #[inline]
    pub(crate) fn score(&mut self, player: u8, points: i64, rule: u16) {
        let i = rule as usize * SLOTS + (player as usize % SLOTS);
        if i >= self.points.len() {
            self.points.resize(i + SLOTS, 0);
        }
        self.points[i] = self.points[i].saturating_add(points);
    }

    /// Rule `rule` fired: its `when` held and its body ran.
    #[inline]
    pub fn rule_fired(&mut self, rule: usize) {
        if rule >= self.fired.len() {
            self.fired.resize(rule + 1, 0);
        }
        self.fired[rule] = self.fired[rule].saturating_add(1);
    }

    /// How often rule `rule` fired this game.
    pub fn fired_of(&self, rule: usize) -> u32 {
        self.fired.get(rule).copied().unwrap_or(0)
    }

    /// Points player `player` got from rule `rule` this game.
    pub fn points_of(&self, rule: usize, player: usize) -> i64 {
        self.points.get(rule * SLOTS + player).copied().unwrap_or(0)
    }
}
