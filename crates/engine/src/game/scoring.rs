//! Scoring features through the rules: a completed feature during play (its followers return), and
//! at the end every feature the engine scores: each one with followers, then each incomplete one
//! without (a feature completed during play was scored then).

use super::{Ctx, Game, GameError, Hooks, Step, Trigger};
use crate::geometry::FeatureKind;
use crate::state::FollowerAt;

impl<H: Hooks> Game<H> {
    /// Scores a feature through the rules, then returns its followers.
    pub(super) fn score_feature(
        &mut self,
        root: u32,
        return_followers: bool,
    ) -> Result<(), GameError> {
        let info = self.st.feature_info(root);
        let ctx = Ctx {
            feature: info,
            ..self.ctx()
        };
        if self.st.record {
            self.st.scoring = self.st.scored_feature(&info);
        }
        let fired = self.fire(Trigger::Scored, &ctx);
        self.st.scoring = None;
        fired?;
        if return_followers {
            let root = info.root;
            let mut fs = std::mem::take(&mut self.scratch);
            fs.clear();
            self.st.feature_followers(root, &mut fs);
            for &f in &fs {
                self.st.move_follower(f, FollowerAt::Supply);
                let ctx = Ctx {
                    follower: f,
                    player: self.st.followers[f as usize].owner,
                    ..self.ctx()
                };
                self.fire(Trigger::Returned, &ctx)?;
            }
            self.scratch = fs;
        }
        Ok(())
    }

    /// Ends the game now: final scoring of the board as it stands (the rest of the turn and the
    /// tiles left are not played), every decision it asks for declined. For a copy of a game in
    /// progress: "the scores if the game ended now" (`expect final score` in scripts).
    pub fn end_now(&mut self) -> Result<(), GameError> {
        if self.is_over() {
            return Ok(());
        }
        self.stop_here();
        while self.advance()? {
            // Only asked decisions come after final scoring begins: decline them (`pass`).
            self.choose(0)?;
        }
        Ok(())
    }

    /// Stops the game where it stands: the pending decision is dropped and final scoring comes
    /// next (`advance` runs it; decisions it asks for are offered as usual), after the features
    /// the tile placed this turn completed and the turn has not scored yet (as the turn would
    /// have, but their followers stay). For a game cut short on purpose: `end_now`, and the
    /// generated-rules trial, which thus reaches final scoring.
    pub fn stop_here(&mut self) {
        if self.is_over() {
            return;
        }
        if matches!(
            self.step,
            Step::Follower | Step::FollowerActions | Step::Score
        ) {
            let scored = (self.score_next as usize).min(self.completed.len());
            self.completed.drain(..scored);
        } else {
            self.completed.clear();
        }
        self.step = Step::Final;
        self.decided = true;
        self.asked = None;
        self.forced_pending = false;
        self.forced_clean = true;
        self.resume = None;
        self.hooks.clear_asks();
    }

    /// Final scoring begins: the features completed this turn and not scored yet (a game
    /// stopped in the middle of a turn: [`Self::stop_here`]), each feature with followers once, in
    /// follower order, then each incomplete feature without followers, in the order of its first
    /// segment on the board (skipped when the rules say scoring one changes nothing:
    /// [`Hooks::scores_unheld`]).
    pub(super) fn list_final_features(&mut self) {
        self.st.final_scoring = true;
        let mut roots = std::mem::take(&mut self.roots);
        roots.clear();
        for i in 0..self.completed.len() {
            let r = self.st.board.features.find(self.completed[i]);
            if !roots.contains(&r) {
                roots.push(r);
            }
        }
        self.completed.clear();
        for i in 0..self.st.followers.len() {
            if let FollowerAt::Board(node) = self.st.followers[i].at {
                let r = self.st.board.features.find(node);
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        if self.hooks.listens(Trigger::Scored) && self.hooks.scores_unheld() {
            let b = &self.st.board;
            let f = &b.features;
            for node in 0..f.len() as u32 {
                if f.root(node) != node || f.followers_at_root(node) > 0 {
                    continue;
                }
                let complete = match f.kind[node as usize] {
                    FeatureKind::Road | FeatureKind::City => f.open_at_root(node) == 0,
                    FeatureKind::Monastery => {
                        b.monastery_count(b.placed[f.tile[node as usize] as usize].cell) == 9
                    }
                    FeatureKind::Field => false,
                };
                if !complete {
                    roots.push(node);
                }
            }
        }
        self.roots = roots;
        self.score_next = 0;
    }

    /// Scores the next listed feature at the end (one per step, so that decisions asked while it is
    /// scored come before the next feature); the `game_end` rules come after the last.
    pub(super) fn score_final_feature(&mut self) -> Result<(), GameError> {
        match self.roots.get(self.score_next as usize).copied() {
            Some(r) => {
                self.score_next += 1;
                self.score_feature(r, false)
            }
            None => {
                self.score_next = 0;
                self.step = Step::GameEnd;
                Ok(())
            }
        }
    }
}
