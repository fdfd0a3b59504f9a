//! What a player sees of a game in progress: the agents' window on it. A [`View`] shows the
//! pending decision and what is public (the board, the scores, the followers, the tiles left, the
//! face of every chip that is face up or in the player's own area); what the player may not see
//! (the order of the draw stack and of the tiles under a stack's top, the face of a face-down chip,
//! another player's hidden hand, the rules' own randomness) it gives only as a [`View::sample`]:
//! a copy of the game in which those are dealt afresh from what the player sees and a generator.
//! The game itself stays private to this room's agents, which read only public facts from it; a
//! test (tests/agents.rs) checks that no agent's choice changes when what it may not see does.

use super::lookahead::{sees, Scratch};
use crate::board::Board;
use crate::game::{Game, Opt};
use crate::lang::interp::Interp;
use crate::rng::Rng;
use crate::state::{Chip, Place};

/// The pending decision as the player who owns it sees the game.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub(super) game: &'a Game<Interp>,
    me: u8,
}

impl<'a> View<'a> {
    /// The view of the player who owns the pending decision (`game.decider()`).
    pub fn of(game: &'a Game<Interp>) -> View<'a> {
        View {
            game,
            me: game.decider(),
        }
    }

    /// The seat deciding.
    pub(crate) fn me(&self) -> u8 {
        self.me
    }

    /// The legal options of the pending decision.
    pub(crate) fn options(&self) -> &'a [Opt] {
        &self.game.options
    }

    /// An option's name, as scripts and logs write it.
    pub fn option_name(&self, opt: Opt) -> String {
        self.game.option_name(opt)
    }

    /// Whether a rule asked this player (`ask`) rather than the turn offering the decision.
    pub fn is_asked(&self) -> bool {
        self.game.is_asked()
    }

    /// The players' scores, in seat order.
    pub fn scores(&self) -> impl Iterator<Item = i64> + 'a {
        self.game.st.players.iter().map(|p| p.score)
    }

    /// How many players there are.
    pub fn seats(&self) -> usize {
        self.game.st.players.len()
    }

    /// The turn (1 is the first).
    pub(crate) fn turn(&self) -> u32 {
        self.game.st.turn
    }

    /// How many tiles are left to draw (not which, nor in what order).
    pub(crate) fn tiles_left(&self) -> usize {
        self.game.st.stack.len()
    }

    /// A state the rules keep (`state NAME …`), by name: the game's, or `player`'s for one kept
    /// per player. Public: every player sees every one.
    pub fn state(&self, name: &str, player: Option<u8>) -> Option<i64> {
        let id = self.game.cfg.counters.iter().position(|d| d.name == name)?;
        self.game.st.counters.get(id as u16, player)
    }

    /// Who plays the next turn, as things stand (extra turns, skips and the direction of play
    /// the rules set are public).
    pub fn next_player(&self) -> u8 {
        self.game.st.next_player()
    }

    /// The board: tiles, features and who stands on them.
    pub fn board(&self) -> &'a Board {
        &self.game.st.board
    }

    /// The tile in hand this turn, once drawn or taken.
    pub fn tile_in_hand(&self) -> Option<u16> {
        self.game.st.current_tile
    }

    /// Chip `id` where this player can see its face (face up, or face down in their own area);
    /// `None` when its face is hidden from them (then only where it lies is known).
    pub fn chip(&self, id: u16) -> Option<Chip> {
        let c = *self.game.st.chips.get(id as usize)?;
        sees(&c, self.me).then_some(c)
    }

    /// Where chip `id` lies (public even when its face is not).
    pub fn chip_place(&self, id: u16) -> Option<Place> {
        self.game.st.chips.get(id as usize).map(|c| c.place)
    }

    /// A copy of the game in `scratch` (recording nothing) that this player cannot tell from the
    /// real one: what they may not see is dealt afresh from `rng` (see [`Scratch::sample`]).
    pub(crate) fn sample<'s>(
        &self,
        scratch: &'s mut Scratch,
        rng: &mut Rng,
    ) -> &'s mut Game<Interp> {
        scratch.sample(self.game, self.me, rng)
    }
}
