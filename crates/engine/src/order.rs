//! The order of play, as the rules may change it: who each round starts with, which way play goes
//! round the table, regular turns to skip, and extra turns waiting after the one pending. The
//! default (the first seat starts, clockwise, nothing skipped) is the order of a game whose rules
//! change nothing.

use crate::state::{EvKind, State};

/// What the rules changed of the order of play.
#[derive(Clone, Debug, Default)]
pub struct Order {
    /// The player every round starts with: a round ends when play comes back to them.
    pub first: u8,
    /// Play goes the other way round the table (to the player before).
    pub reversed: bool,
    /// The player of the next regular turn, when the rules named them (`go_first` during play).
    pub next: Option<u8>,
    /// How many of each player's coming regular turns are skipped.
    pub skips: Vec<u32>,
    /// Extra turns asked for while one was already pending, in the order asked.
    pub queued: Vec<u8>,
    /// The first turn has begun (before it, `go_first` names the player of turn 1: from `setup`,
    /// or from decisions `setup` asked for).
    pub started: bool,
}

impl Order {
    /// The order of a new game of `players` players.
    pub(crate) fn reset(&mut self, players: usize) {
        self.first = 0;
        self.reversed = false;
        self.next = None;
        self.skips.clear();
        self.skips.resize(players, 0);
        self.queued.clear();
        self.started = false;
    }

    pub(crate) fn copy_from(&mut self, src: &Order) {
        self.first = src.first;
        self.reversed = src.reversed;
        self.next = src.next;
        self.skips.clone_from(&src.skips);
        self.queued.clone_from(&src.queued);
        self.started = src.started;
    }

    /// The seat after `p` in the direction of play, among `n`.
    #[inline]
    pub fn after(&self, p: u8, n: u8) -> u8 {
        if self.reversed {
            (p % n + n - 1) % n
        } else {
            (p + 1) % n
        }
    }
}

impl State {
    /// Takes from `src` (a state of a game of the same rules) where play stands and what the
    /// rules keep: the turn, the round, the current player, the extra turns (in one, pending,
    /// for whom, queued), the regular turn's player, the order of play and the kept values; for
    /// a copy that was loaded from an earlier moment of the game and answers questions about
    /// this one (`agent::quiet`'s probe). Keeps every buffer.
    pub fn copy_turn_from(&mut self, src: &State) {
        self.turn = src.turn;
        self.round = src.round;
        self.current = src.current;
        self.in_extra_turn = src.in_extra_turn;
        self.extra_turn_pending = src.extra_turn_pending;
        self.extra_turn_for = src.extra_turn_for;
        self.regular = src.regular;
        self.order.copy_from(&src.order);
        self.counters.copy_from(&src.counters);
    }

    fn who(&self, p: u8) -> &str {
        self.players
            .get(p as usize)
            .map_or("?", |x| x.name.as_str())
    }

    /// A line of the transcript (and a note of the log) saying what changed in the order of play.
    fn order_note(&mut self, text: impl FnOnce(&State) -> String) {
        if self.record {
            let t = text(self);
            let who = self.acting();
            self.push(who, EvKind::Note(t));
        }
    }

    /// `extra_turn_for(p)` (and `extra_turn()`): `p` plays one complete turn after this one. Asked
    /// for while one is pending, it waits after it (and after those already waiting).
    pub fn queue_extra_turn(&mut self, p: u8) {
        if self.extra_turn_pending {
            self.order.queued.push(p);
        } else {
            self.extra_turn_pending = true;
            self.extra_turn_for = p;
        }
    }

    /// The extra turn pending starts: the next one waiting, if any, becomes pending.
    pub(crate) fn extra_turn_taken(&mut self) {
        self.extra_turn_pending = !self.order.queued.is_empty();
        if self.extra_turn_pending {
            self.extra_turn_for = self.order.queued.remove(0);
        }
    }

    /// `go_first(p)`: `p` plays the next regular turn (before the first turn begins: the first
    /// turn) and every round starts with them from then on.
    pub fn go_first(&mut self, p: u8) {
        self.order.first = p;
        if !self.order.started {
            self.current = p;
            self.regular = p;
            self.order.next = None;
        } else {
            self.order.next = Some(p);
        }
        self.order_note(|st| format!("{} goes first: rounds start with them", st.who(p)));
    }

    /// `skip_turn(p)`: `p`'s next regular turn not skipped yet is skipped.
    pub fn skip_turn(&mut self, p: u8) {
        if let Some(s) = self.order.skips.get_mut(p as usize) {
            *s += 1;
            let n = *s;
            self.order_note(|st| match n {
                1 => format!("{}'s next turn will be skipped", st.who(p)),
                n => format!("{}'s next {n} turns will be skipped", st.who(p)),
            });
        }
    }

    /// `reverse_order()`: play goes the other way round the table from the next regular turn.
    pub fn reverse_order(&mut self) {
        self.order.reversed = !self.order.reversed;
        let way = if self.order.reversed {
            "the other way round"
        } else {
            "the first way round again"
        };
        self.order_note(|_| format!("the order of play turns: it goes {way}"));
    }

    /// Takes one skip of `p`'s, if they have one.
    pub(crate) fn take_skip(&mut self, p: u8) -> bool {
        match self.order.skips.get_mut(p as usize) {
            Some(s) if *s > 0 => {
                *s -= 1;
                true
            }
            _ => false,
        }
    }

    /// Says in the transcript (a note of the turn that comes instead) that `p`'s turn was skipped.
    pub(crate) fn note_skipped(&mut self, p: u8) {
        self.order_note(|st| format!("{}'s turn is skipped", st.who(p)));
    }

    /// Who plays the next turn, as things stand (extra turns first, then the next regular turn not
    /// skipped); changes nothing. For agents that look at the next player's position.
    pub fn next_player(&self) -> u8 {
        let n = self.players.len().clamp(1, 255) as u8;
        if self.extra_turn_pending {
            return self.extra_turn_for % n;
        }
        let mut skips = [0u32; 256];
        for (s, k) in skips.iter_mut().zip(&self.order.skips) {
            *s = *k;
        }
        let mut next = self.order.next;
        let mut at = self.regular;
        // Every skip is used up within `total + 1` steps round the table.
        let total: u32 = self.order.skips.iter().sum();
        for _ in 0..=(total.min(4096) + 1) * n as u32 {
            at = next
                .take()
                .map_or_else(|| self.order.after(at, n), |p| p % n);
            match skips.get_mut(at as usize) {
                Some(s) if *s > 0 => *s -= 1,
                _ => return at,
            }
        }
        at
    }
}
