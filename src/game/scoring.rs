//! Scoring features through the rules: a completed feature during play (its followers return), and
//! every feature with followers at the end.

use super::{Ctx, Game, GameError, Hooks, Trigger};
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

    pub(super) fn final_scoring(&mut self) -> Result<(), GameError> {
        self.st.final_scoring = true;
        // Each feature with followers once, in follower order.
        let mut roots = std::mem::take(&mut self.roots);
        roots.clear();
        for i in 0..self.st.followers.len() {
            if let FollowerAt::Board(node) = self.st.followers[i].at {
                let r = self.st.board.features.find(node);
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        for &r in &roots {
            self.score_feature(r, false)?;
        }
        self.roots = roots;
        let ctx = Ctx::default();
        self.fire(Trigger::GameEnd, &ctx)?;
        Ok(())
    }
}
