//! The values the rules keep (`state NAME: int …` in a rules file): counters and flags, one per game
//! or one per player, each with a start value and a moment it goes back to it (never, at the start
//! of each turn, at the start of each round). The engine keeps them in slots of the state (no names
//! or maps in the hot path), resets them and records every change; what they mean is the rules'.

use crate::state::{EvKind, State};
use std::sync::Arc;

/// When a kept value goes back to its start value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reset {
    /// Never: it keeps its value for the whole game.
    Never,
    /// At the start of every turn (extra turns included), before the `turn_start` rules.
    Turn,
    /// At the start of every round (after the `round_end` rules), before that turn's reset.
    Round,
}

impl Reset {
    pub const ALL: [Reset; 3] = [Reset::Turn, Reset::Round, Reset::Never];
    pub fn name(self) -> &'static str {
        match self {
            Reset::Never => "never",
            Reset::Turn => "turn",
            Reset::Round => "round",
        }
    }
    pub fn from_name(s: &str) -> Option<Reset> {
        Reset::ALL.into_iter().find(|r| r.name() == s)
    }
}

/// One value the rules keep, as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterDef {
    pub name: String,
    /// One per player (`per player`) rather than one for the game.
    pub per_player: bool,
    /// A flag (true/false, kept as 1/0) rather than a number.
    pub flag: bool,
    /// Its value at the start of the game and after each reset.
    pub start: i64,
    pub reset: Reset,
}

/// The kept values of a game: the declarations (shared by every copy), each one's first slot, and
/// the values.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    pub defs: Arc<Vec<CounterDef>>,
    /// The first slot of each declaration (a per-player one has a slot per player from there).
    at: Vec<u32>,
    pub values: Vec<i64>,
    /// A round ended since the last turn started: the next turn's start resets the round's values.
    round_due: bool,
}

impl Counters {
    /// Every value at its start, for a game of `players` players.
    pub fn seat(&mut self, defs: &Arc<Vec<CounterDef>>, players: usize) {
        self.defs.clone_from(defs);
        self.at.clear();
        self.values.clear();
        self.round_due = false;
        for d in defs.iter() {
            self.at.push(self.values.len() as u32);
            let n = if d.per_player { players.max(1) } else { 1 };
            self.values.extend(std::iter::repeat_n(d.start, n));
        }
    }

    /// Takes another game's values (a copy for a look-ahead), keeping the buffers.
    pub fn copy_from(&mut self, src: &Counters) {
        if !Arc::ptr_eq(&self.defs, &src.defs) {
            self.defs.clone_from(&src.defs);
        }
        self.at.clone_from(&src.at);
        self.values.clone_from(&src.values);
        self.round_due = src.round_due;
    }

    /// The slot of declaration `id` (of `player`, for one kept per player).
    #[inline]
    fn slot(&self, id: u16, player: Option<u8>) -> Option<usize> {
        let at = *self.at.get(id as usize)? as usize;
        let per = self.defs.get(id as usize)?.per_player;
        let slot = match (per, player) {
            (true, Some(p)) => at + p as usize,
            (false, _) => at,
            (true, None) => return None,
        };
        (slot < self.values.len()).then_some(slot)
    }

    /// The value of declaration `id` (of `player` for one kept per player).
    #[inline]
    pub fn get(&self, id: u16, player: Option<u8>) -> Option<i64> {
        self.slot(id, player).map(|s| self.values[s])
    }

    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }
}

impl State {
    /// Sets a kept value; a change is recorded (`state_set` in the log). `false` when there is no
    /// such value (an id or player out of range).
    pub fn set_counter(&mut self, id: u16, player: Option<u8>, value: i64) -> bool {
        let Some(slot) = self.counters.slot(id, player) else {
            return false;
        };
        if self.counters.values[slot] != value {
            self.counters.values[slot] = value;
            let who = self.acting();
            let of = player.filter(|_| self.counters.defs[id as usize].per_player);
            self.push(
                who,
                EvKind::Counter {
                    id,
                    of,
                    value,
                    reset: None,
                },
            );
        }
        true
    }

    /// A round ended: the values reset each round go back to their start when the next turn starts.
    pub(crate) fn round_ended(&mut self) {
        self.counters.round_due = !self.counters.is_empty();
    }

    /// A turn starts (the game goes on): the values reset each round (when a round ended since the
    /// last turn started), then each turn, go back to their start.
    pub(crate) fn turn_started(&mut self) {
        if self.counters.is_empty() {
            return;
        }
        if std::mem::take(&mut self.counters.round_due) {
            self.reset_counters(Reset::Round);
        }
        self.reset_counters(Reset::Turn);
    }

    /// Puts back to their start the kept values that reset at `when`, recording each that changes.
    fn reset_counters(&mut self, when: Reset) {
        if self.counters.is_empty() {
            return;
        }
        let defs = self.counters.defs.clone();
        for (id, d) in defs.iter().enumerate().filter(|(_, d)| d.reset == when) {
            let at = self.counters.at[id] as usize;
            let n = if d.per_player {
                self.players.len().max(1)
            } else {
                1
            };
            for k in 0..n {
                if self
                    .counters
                    .values
                    .get(at + k)
                    .is_some_and(|&v| v != d.start)
                {
                    self.counters.values[at + k] = d.start;
                    let who = self.acting();
                    self.push(
                        who,
                        EvKind::Counter {
                            id: id as u16,
                            of: d.per_player.then_some(k as u8),
                            value: d.start,
                            reset: Some(when),
                        },
                    );
                }
            }
        }
    }
}

impl CounterDef {
    /// A value as people read it: a flag as true or false.
    pub fn shown(&self, v: i64) -> String {
        if self.flag {
            (v != 0).to_string()
        } else {
            v.to_string()
        }
    }

    /// A change as the transcript says it: "season is now 2", "ann's bid is now 3", "ann's traded
    /// is false again (reset each turn)".
    pub fn said(&self, of: Option<&str>, v: i64, reset: Option<Reset>) -> String {
        let whose = match of {
            Some(p) => format!("{p}'s {}", self.name),
            None => self.name.clone(),
        };
        match reset {
            Some(r) => format!(
                "{whose} is {} again (reset each {})",
                self.shown(v),
                r.name()
            ),
            None => format!("{whose} is now {}", self.shown(v)),
        }
    }
}
