//! Asked decisions (`ask WHO ACTION(ARGS)`, issue 8, C1): a rule queues a decision for a player (or
//! for each of a set, in turn order from the current player); the engine offers each in the order
//! asked, once the step that asked is over, to the asked player. Its options are the asked action's
//! offers (its `when` and choices read with `player` = the asked player and its parameters bound).

use super::{AskRequest, Chosen, Interp, R};
use crate::game::Fault;
use crate::game::Opt;
use crate::ir::Value;
use crate::state::State;

impl Interp {
    /// Runs `ask` for the evaluated `who`: one request per asked player, the arguments (`arg`
    /// evaluates argument `i` of `nargs`) evaluated now.
    pub(super) fn ask(
        &mut self,
        st: &mut State,
        who: Value,
        action: u32,
        nargs: usize,
        mut arg: impl FnMut(&mut Self, &mut State, usize) -> R<Value>,
    ) -> R<()> {
        let n = st.players.len().max(1) as u8;
        let players: Vec<u8> = match who {
            Value::Player(p) => vec![p],
            // A set: in turn order, starting with the current player.
            Value::Players(m) => (0..n)
                .map(|k| (st.current + k) % n)
                .filter(|p| m & (1 << p) != 0)
                .collect(),
            Value::List(_) => {
                let mut ps = Vec::new();
                for v in self.elems(who)? {
                    match v {
                        Value::Player(p) => ps.push(p),
                        v => {
                            return Err(self.fail(
                                Fault::BadValue,
                                format!("`ask` needs players, found {v:?}"),
                            ))
                        }
                    }
                }
                ps
            }
            v => {
                return Err(self.fail(Fault::BadValue, format!("`ask` needs players, found {v:?}")))
            }
        };
        let start = self.run.ask_vals.len() as u32;
        for i in 0..nargs {
            let v = arg(self, st, i)?;
            if matches!(v, Value::List(_)) {
                return Err(self.fail(
                    Fault::BadValue,
                    "an asked action's argument is one value, not a list",
                ));
            }
            self.run.ask_vals.push(v);
        }
        for p in players {
            self.tick()?;
            self.run.asks.push(AskRequest {
                action,
                player: p,
                start,
                len: nargs as u32,
            });
        }
        Ok(())
    }

    /// Whether a request waits to be offered.
    pub(super) fn asking(&self) -> bool {
        self.run.ask_next < self.run.asks.len()
    }

    /// Forgets every request (a new game).
    pub(super) fn clear_asks(&mut self) {
        self.run.asks.clear();
        self.run.ask_vals.clear();
        self.run.ask_next = 0;
    }

    /// Offers the next request that has an option: appends its offers to `out` and returns the asked
    /// player; `None` when no request is left (a request with no option is dropped: the action's
    /// `when` is false or no choice fits).
    pub(super) fn next_ask(&mut self, st: &mut State, out: &mut Vec<Opt>) -> R<Option<u8>> {
        while let Some(&req) = self.run.asks.get(self.run.ask_next) {
            self.run.ask_next += 1;
            let before = out.len();
            self.offer_asked(st, req, out)?;
            if out.len() > before {
                return Ok(Some(req.player));
            }
        }
        self.clear_asks();
        Ok(None)
    }

    fn offer_asked(&mut self, st: &mut State, req: AskRequest, out: &mut Vec<Opt>) -> R<()> {
        self.refresh_usage(st);
        self.run.clear_decision();
        let prog = self.prog.clone();
        let ai = req.action as usize;
        let Some(a) = prog.actions.get(ai) else {
            return Ok(());
        };
        self.begin((prog.rules.len() + ai) as u16, st.turn);
        let saved = self.enter(a.body.locals.max(2));
        let when = self.code.action_when[ai];
        let r = (|| {
            self.set(0, Value::Player(req.player))?;
            let mut chosen: Vec<Chosen> = Vec::new();
            for i in 0..req.len {
                let v = self
                    .run
                    .ask_vals
                    .get((req.start + i) as usize)
                    .copied()
                    .unwrap_or(Value::Unit);
                self.set(1 + i as u16, v)?;
                chosen.push(Chosen::Value(v));
            }
            let ok = match when {
                Some(w) => self.truth(st, w)?,
                None => true,
            };
            if ok {
                self.enumerate(st, req.action, req.player, a, 0, &mut chosen, out)?;
            }
            Ok(())
        })();
        self.leave(saved);
        r
    }
}
