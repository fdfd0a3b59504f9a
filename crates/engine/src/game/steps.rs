//! The step machine: runs the automatic steps of a turn (spec §3) until a decision is pending, and
//! offers each decision's options. Each step is a named function; `run_step` only dispatches.

use super::{Ctx, Game, GameError, Hooks, Opt, Phase, Step, Trigger};
use crate::features::NONE;
use crate::state::EvKind;

/// A placement as an option.
fn place(cell: u32, rot: u8) -> Opt {
    Opt::Place { cell, rot }
}

/// How many times the `answered` rules may run at one step (each time after the decisions they
/// asked, so an auction that asks again and again ends with an error instead of running away).
const MAX_ANSWERED_RUN: u32 = 1000;

impl<H: Hooks> Game<H> {
    /// Offers the next decision a rule asked for, if any: `pass` (declining) and the asked action's
    /// options, to the asked player.
    fn offer_asked(&mut self) -> Result<bool, GameError> {
        self.options.clear();
        self.options.push(Opt::Pass);
        match self.hooks.next_ask(&mut self.st, &mut self.options)? {
            Some(p) => {
                self.asked = Some(p);
                self.decided = false;
                self.offer_phase = None;
                Ok(true)
            }
            None => {
                self.options.clear();
                Ok(false)
            }
        }
    }

    /// Runs automatic steps until a decision is pending (its options in `self.options`) or the game
    /// is over (`Ok(false)`).
    pub fn advance(&mut self) -> Result<bool, GameError> {
        self.advance_until(false)
    }

    /// As [`Self::advance`], but also stops (`Ok(false)`) when the next turn is about to start
    /// (before its first step and the forced check before it): for look-aheads that value the
    /// position a turn leaves. [`Self::advance`] goes on from there as if it had not stopped.
    pub fn advance_in_turn(&mut self) -> Result<bool, GameError> {
        self.advance_until(true)
    }

    /// `advance`, stopping at the start of the next turn when `turn_end`.
    fn advance_until(&mut self, turn_end: bool) -> Result<bool, GameError> {
        loop {
            if !self.decided {
                return Ok(true);
            }
            // Decisions rules asked for come first, once the step that asked is over.
            if self.hooks.asking() {
                self.asks_open = true;
                if self.offer_asked()? {
                    return Ok(true);
                }
            }
            // Once they are all answered, the `answered` rules settle them (and may ask again).
            if std::mem::take(&mut self.asks_open) && self.hooks.listens(Trigger::Answered) {
                self.answered_run += 1;
                if self.answered_run > MAX_ANSWERED_RUN {
                    return Err(GameError::runaway(
                        "on answered",
                        format!(
                            "the rules `on answered` ran {MAX_ANSWERED_RUN} times at one step (do \
                             they ask again every time the asked decisions are answered?)"
                        ),
                    ));
                }
                let ctx = self.ctx();
                self.fire(Trigger::Answered, &ctx)?;
                self.forced_clean = false;
                continue;
            }
            if self.step == Step::Over || (turn_end && self.step == Step::TurnStart) {
                return Ok(false);
            }
            // Forced actions come first, whenever they apply. They are checked again only after
            // something may have changed: a decision other than pass/draw, or a step that fires
            // triggers or starts a turn (steps that only offer options or draw a tile change
            // nothing rules can see).
            if self.acts.forced && self.st.turn > 0 && !self.forced_clean && !self.mid_scoring() {
                self.options.clear();
                self.hooks.forced(&mut self.st, &mut self.options)?;
                if !self.options.is_empty() {
                    self.decided = false;
                    self.forced_pending = true;
                    return Ok(true);
                }
                self.forced_clean = true;
            }
            self.answered_run = 0;
            loop {
                let quiet = self.quiet_step();
                let plain = self.run_step()?;
                if !quiet {
                    self.forced_clean = false;
                }
                // A quiet step that only moved on (no rule ran, nothing was offered) leaves every
                // check above as it was, and leads to no turn's start nor the end: the next step
                // runs at once. (Asked decisions are looked at again all the same.)
                if !(plain && quiet) || self.hooks.asking() {
                    break;
                }
            }
        }
    }

    /// Whether the current step changes nothing the forced actions' check reads (so that it need
    /// not be done again after it).
    #[inline]
    fn quiet_step(&self) -> bool {
        // Without forced actions, `forced_clean` is never read: no need to keep it.
        !self.acts.forced
            || match self.step {
                Step::StartActions
                | Step::Draw
                | Step::Place
                | Step::Follower
                | Step::FollowerActions
                | Step::ScoreActions
                | Step::AfterActions => true,
                // Followed by `TurnStart` (or the end), which is checked after.
                Step::NextTurn => !self.hooks.listens(Trigger::RoundEnd),
                Step::TurnEnd => !self.hooks.listens(Trigger::TurnEnd),
                _ => false,
            }
    }

    /// Offers the actions of a phase beside `with` (draw or pass). Taking an action comes back to
    /// `again`, so a player may take several (their limits permitting); `with` moves on.
    /// When the rules have no action for the phase, nothing is asked of them: no decision, and
    /// `Ok(true)` (the step only moved on; see [`Self::run_step`]).
    #[inline(always)]
    fn offer_actions(&mut self, phase: Phase, with: Opt, again: Step) -> Result<bool, GameError> {
        if !self.acts.in_phase(phase) {
            self.offer_phase = Some(phase);
            return Ok(true);
        }
        self.ask_actions(phase, with, again)?;
        Ok(false)
    }

    fn ask_actions(&mut self, phase: Phase, with: Opt, again: Step) -> Result<bool, GameError> {
        self.options.clear();
        self.options.push(with);
        self.hooks.actions(&mut self.st, phase, &mut self.options)?;
        self.offer_phase = Some(phase);
        if self.options.len() > 1 {
            self.decided = false;
            self.resume = Some(again);
            Ok(true)
        } else {
            if self.st.record && self.acted_in == Some(phase) {
                // The player's last action ended their phase: keep why each action is refused
                // now, for a move still aimed at it (explained for this player, not the next).
                let reasons = self.hooks.refusals(&mut self.st, phase);
                self.phase_end = Some(Box::new(super::PhaseEnd {
                    player: self.st.current,
                    turn: self.st.turn,
                    reasons,
                }));
            }
            Ok(false)
        }
    }

    /// Runs the current step; each step says which comes next. `Ok(true)`: the step only moved on
    /// to the next (an actions step whose phase the rules have no action for, never the start of a
    /// turn or the end): no rule ran, nothing was offered, nothing changed that rules can see.
    fn run_step(&mut self) -> Result<bool, GameError> {
        let moved = match self.step {
            Step::TurnStart => self.start_turn(),
            Step::StartActions => {
                self.step = Step::Draw;
                if self.st.current_tile.is_none() {
                    return self.offer_actions(Phase::Start, Opt::Draw, Step::StartActions);
                }
                return Ok(true);
            }
            Step::Draw => self.draw_tile(),
            Step::Place => self.offer_placements(),
            Step::Follower => self.offer_followers(),
            Step::FollowerActions => {
                self.step = Step::Score;
                return self.offer_actions(Phase::Follower, Opt::Pass, Step::FollowerActions);
            }
            Step::Score => self.score_completed(),
            Step::ScoreActions => {
                self.step = Step::TurnEnd;
                return self.offer_actions(Phase::Score, Opt::Pass, Step::ScoreActions);
            }
            Step::TurnEnd => {
                let ctx = self.ctx();
                self.fire(Trigger::TurnEnd, &ctx)?;
                self.step = Step::AfterActions;
                Ok(())
            }
            Step::AfterActions => {
                self.step = Step::NextTurn;
                return self.offer_actions(Phase::After, Opt::Pass, Step::AfterActions);
            }
            Step::NextTurn => self.next_turn(),
            Step::Final => {
                self.list_final_features();
                self.step = Step::FinalFeatures;
                Ok(())
            }
            Step::FinalFeatures => self.score_final_feature(),
            Step::GameEnd => {
                self.fire(Trigger::GameEnd, &Ctx::default())?;
                self.step = Step::Over;
                Ok(())
            }
            Step::Over => Ok(()),
        };
        moved.map(|()| false)
    }

    /// A turn starts: nothing drawn or placed yet; the game ends when the stack is empty.
    fn start_turn(&mut self) -> Result<(), GameError> {
        self.st.current_tile = None;
        self.st.placed_now = NONE;
        self.st.follower_placed_now = false;
        if self.st.stack.is_empty() {
            self.step = Step::Final;
            return Ok(());
        }
        self.st.turn_started();
        self.st.order.started = true;
        let ctx = self.ctx();
        self.fire(Trigger::TurnStart, &ctx)?;
        self.step = Step::StartActions;
        Ok(())
    }

    /// Lists the placements of the tile in hand (one an action gave), or draws until a tile can be
    /// placed, discarding those that cannot; the game ends when the stack runs out.
    fn draw_tile(&mut self) -> Result<(), GameError> {
        let tiles = &self.cfg.tiles;
        let mut drawn = None;
        if let Some(ty) = self.st.current_tile {
            self.n_placements = self.st.board.legal_placements_into(
                &tiles[ty as usize],
                &mut self.placements,
                place,
            );
        } else {
            loop {
                let Some(ty) = self.st.stack.pop() else {
                    self.step = Step::Final;
                    return Ok(());
                };
                self.n_placements = self.st.board.legal_placements_into(
                    &tiles[ty as usize],
                    &mut self.placements,
                    place,
                );
                if self.n_placements > 0 {
                    self.st.current_tile = Some(ty);
                    drawn = Some(ty);
                    break;
                }
                let p = self.st.current;
                self.st.push(Some(p), EvKind::TileDiscarded { ty });
            }
        }
        self.step = Step::Place;
        if let Some(ty) = drawn {
            // `tile_drawn`: the tile is the one this turn places, the next on the board.
            let ctx = Ctx {
                placed: self.st.board.placed.len() as u32,
                ..self.ctx()
            };
            self.fire(Trigger::TileDrawn, &ctx)?;
            // A rule gave the player another tile (`take_tile`): its placements are listed.
            if self.st.current_tile != Some(ty) {
                self.step = Step::Draw;
            }
        }
        Ok(())
    }

    /// Offers the tile's placements; a tile in hand with none is discarded and the player draws.
    fn offer_placements(&mut self) -> Result<(), GameError> {
        let Some(ty) = self.st.current_tile else {
            self.step = Step::Draw;
            return Ok(());
        };
        self.options.clear();
        self.options
            .extend_from_slice(&self.placements[..self.n_placements]);
        if self.options.is_empty() {
            // A taken tile with no placement is discarded like a drawn one.
            let p = self.st.current;
            self.st.push(Some(p), EvKind::TileDiscarded { ty });
            self.st.current_tile = None;
            self.step = Step::Draw;
        } else {
            self.decided = false;
        }
        Ok(())
    }

    /// Offers a follower on each unoccupied feature of the placed tile, or passing; no decision
    /// when the player has no follower in supply or every feature is occupied.
    fn offer_followers(&mut self) -> Result<(), GameError> {
        self.step = Step::FollowerActions;
        let p = self.st.current;
        if !self.st.has_follower_in_supply(p) {
            self.follower_skipped = Some(p);
            if self.st.record {
                let who = &self.st.players[p as usize].name;
                let taken = format!("follower step skipped: {who} has no follower left");
                self.st.push(
                    Some(p),
                    EvKind::Choice {
                        options: 0,
                        taken,
                        listed: Vec::new(),
                        asked: false,
                    },
                );
            }
            return Ok(());
        }
        let Some(placed) = self
            .st
            .board
            .placed
            .get(self.st.placed_now as usize)
            .copied()
        else {
            return Ok(());
        };
        let n = self.cfg.tiles[placed.ty as usize].kinds.len();
        self.options.clear();
        self.options.push(Opt::Pass);
        for seg in 0..n {
            let node = placed.first_node + seg as u32;
            if self.st.board.features.follower_count(node) == 0 {
                self.options.push(Opt::Follower { seg: seg as u8 });
            }
        }
        if self.options.len() > 1 {
            self.decided = false;
        }
        Ok(())
    }

    /// Scores the next feature the placement completed, in the order the board found them: one
    /// feature per step, so that decisions asked while it is scored are offered (after its
    /// followers return) before the next feature is scored.
    fn score_completed(&mut self) -> Result<(), GameError> {
        match self.completed.get(self.score_next as usize).copied() {
            Some(root) => {
                self.score_next += 1;
                self.score_feature(root, true)
            }
            None => {
                self.completed.clear();
                self.score_next = 0;
                self.step = Step::ScoreActions;
                Ok(())
            }
        }
    }

    /// Whether the step machine is between two features of one scoring (or between final scoring
    /// and the `game_end` rules): forced actions wait until the scoring is over.
    fn mid_scoring(&self) -> bool {
        match self.step {
            Step::Score => self.score_next > 0,
            Step::FinalFeatures | Step::GameEnd => true,
            _ => false,
        }
    }

    /// Ends the turn (logging its choices) and passes to the next player, or to the same player
    /// for an extra turn; a round ends when the first player's turn comes again.
    fn next_turn(&mut self) -> Result<(), GameError> {
        if self.st.record {
            let p = self.st.current;
            let choices = std::mem::take(&mut self.st.turn_choices);
            let deciders = std::mem::take(&mut self.st.turn_deciders);
            self.st.push(Some(p), EvKind::TurnEnd { choices, deciders });
        }
        self.st.turn += 1;
        let n = self.st.players.len().max(1) as u8;
        if self.st.extra_turn_pending {
            // An extra turn, the current player's or another's (`extra_turn_for`); play goes on
            // after the last regular turn's player (after any other extra turns waiting).
            self.st.in_extra_turn = true;
            self.st.current = self.st.extra_turn_for % n;
            self.st.extra_turn_taken();
        } else {
            self.st.in_extra_turn = false;
            self.next_regular_turn(n)?;
        }
        self.step = Step::TurnStart;
        Ok(())
    }

    /// Passes to the next regular turn: the player the rules named (`go_first`), else the next in
    /// the direction of play; a round ends whenever play comes to the player rounds start with
    /// (the first seat unless the rules said otherwise); a player with a turn to skip is passed.
    fn next_regular_turn(&mut self, n: u8) -> Result<(), GameError> {
        let mut skipped: Vec<u8> = Vec::new();
        for _ in 0..MAX_SKIPPED {
            let at = match self.st.order.next.take() {
                Some(p) => p % n,
                None => self.st.order.after(self.st.regular, n),
            };
            self.st.current = at;
            self.st.regular = at;
            if at == self.st.order.first % n {
                let ctx = self.ctx();
                self.fire(Trigger::RoundEnd, &ctx)?;
                self.st.round += 1;
                self.st.round_ended();
            }
            if !self.st.take_skip(at) {
                for p in skipped {
                    self.st.note_skipped(p);
                }
                return Ok(());
            }
            if self.st.record {
                skipped.push(at);
            }
        }
        Err(GameError::runaway(
            "skip_turn",
            format!(
                "{MAX_SKIPPED} turns in a row were skipped (do the rules skip every player's turn \
                 again and again?)"
            ),
        ))
    }
}

/// How many regular turns in a row may be skipped before the game stops with an error.
const MAX_SKIPPED: u32 = 1000;
