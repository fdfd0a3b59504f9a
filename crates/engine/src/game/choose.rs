//! Taking an option of the pending decision: recording the choice, placing the tile (and firing the
//! triggers a placement fires), placing a follower, running an action.

use super::{Ctx, Game, GameError, Hooks, Opt, Step, Trigger};
use crate::features::NONE;
use crate::geometry::EdgeKind;
use crate::state::EvKind;

impl<H: Hooks> Game<H> {
    /// Takes option `i` of the pending decision.
    pub fn choose(&mut self, i: usize) -> Result<(), GameError> {
        let Some(&opt) = self.options.get(i) else {
            return Ok(());
        };
        if self.st.record {
            self.record_choice(opt);
        }
        self.decided = true;
        self.follower_skipped = None;
        self.phase_end = None;
        self.acted_in = None;
        if !matches!(opt, Opt::Pass | Opt::Draw) {
            self.forced_clean = false;
        }
        if self.asked.take().is_some() {
            if let Opt::Action(h) = opt {
                self.hooks.run(&mut self.st, h)?;
            }
            return Ok(());
        }
        if self.forced_pending {
            self.forced_pending = false;
            if let Opt::Action(h) = opt {
                self.hooks.run(&mut self.st, h)?;
            }
            return Ok(());
        }
        match opt {
            Opt::Draw => {}
            Opt::Pass => {}
            Opt::Place { cell, rot } => self.do_place(cell, rot as usize)?,
            Opt::Follower { seg } => {
                let node =
                    self.st.board.placed[self.st.placed_now as usize].first_node + seg as u32;
                let p = self.st.current;
                if let Some(f) = self.st.place_follower(p, node) {
                    let ctx = Ctx {
                        follower: f,
                        ..self.ctx()
                    };
                    self.fire(Trigger::FollowerPlaced, &ctx)?;
                }
            }
            Opt::Action(h) => {
                self.acted_in = self.offer_phase;
                self.hooks.run(&mut self.st, h)?;
                if let Some(again) = self.resume {
                    self.step = again;
                }
            }
        }
        self.resume = None;
        Ok(())
    }

    /// Logs the choice taken: the turn's choices (and their deciders, once a rule asked someone)
    /// and a `choice` event.
    fn record_choice(&mut self, opt: Opt) {
        let name = self.option_name(opt);
        let listed = if self.options.len() <= 6 {
            self.option_names()
        } else {
            Vec::new()
        };
        let p = self.decider();
        self.st.turn_choices.push(name.clone());
        if self.asked.is_some() && self.st.turn_deciders.is_empty() {
            // From the first asked decision of a turn on, every choice names its decider.
            let current = self.st.current;
            let earlier = self.st.turn_choices.len() - 1;
            self.st
                .turn_deciders
                .extend(std::iter::repeat_n(current, earlier));
        }
        if self.asked.is_some() || !self.st.turn_deciders.is_empty() {
            self.st.turn_deciders.push(p);
        }
        self.st.push(
            Some(p),
            EvKind::Choice {
                options: self.options.len() as u32,
                taken: name,
                listed,
                asked: self.asked.is_some(),
            },
        );
    }

    /// Places the tile in hand and fires the placement's triggers.
    fn do_place(&mut self, cell: u32, rot: usize) -> Result<(), GameError> {
        let Some(ty) = self.st.current_tile else {
            return Ok(());
        };
        let tile = &self.cfg.tiles[ty as usize];
        let edges = tile.rot[rot].edges;
        self.completed.clear();
        let idx = self
            .st
            .board
            .place(cell, ty, tile, rot, &mut self.completed);
        self.st.placed_now = idx;
        let p = self.st.current;
        self.st.push(
            Some(p),
            EvKind::TilePlaced {
                ty,
                cell,
                rot: rot as u8,
            },
        );
        self.step = Step::Follower;
        let ctx = self.ctx();
        self.fire(Trigger::Placed, &ctx)?;
        self.fire_adjacent(&ctx, edges)?;
        self.fire_abroad(&ctx, edges)
    }

    /// `adjacent`: once for each map square next to the placed tile (`edges`: its sides, as placed).
    fn fire_adjacent(&mut self, ctx: &Ctx, edges: u8) -> Result<(), GameError> {
        if !self.hooks.listens(Trigger::Adjacent) {
            return Ok(());
        }
        for s in 0..4 {
            let n = self.st.board.neighbour(ctx.cell, s);
            if self.st.board.square[n as usize] != NONE {
                let c = Ctx {
                    cell: n,
                    edge: Some(EdgeKind::on_side(edges, s)),
                    ..*ctx
                };
                self.fire(Trigger::Adjacent, &c)?;
            }
        }
        Ok(())
    }

    /// `abroad`: once for each exit of the map at the placed tile's square that its side continues.
    fn fire_abroad(&mut self, ctx: &Ctx, edges: u8) -> Result<(), GameError> {
        if !self.hooks.listens(Trigger::Abroad) {
            return Ok(());
        }
        let at = self.st.board.xy(ctx.cell);
        let exits = self.cfg.map.as_ref().map_or(0, |m| m.exits.len());
        for i in 0..exits {
            let continued = self.cfg.map.as_ref().and_then(|m| {
                let e = &m.exits[i];
                (e.at == at && EdgeKind::on_side(edges, e.side as usize) == e.feature)
                    .then_some(e.feature)
            });
            if let Some(feature) = continued {
                let c = Ctx {
                    edge: Some(feature),
                    ..*ctx
                };
                self.fire(Trigger::Abroad, &c)?;
            }
        }
        Ok(())
    }
}
