//! The values the rules keep (`state NAME …`): reading one, naming a player's own, and the effects
//! `set` and `add`. The values live in the engine's slots (`State::counters`); a value outside the
//! state's range stops the game with its own error (E0804), never clamped.

use super::{Interp, R};
use crate::game::Fault;
use crate::game::GameError;
use crate::ir::{StateDef, Value, NO_PLAYER};
use crate::state::State;

impl Interp {
    /// The declaration a `Value::State` names, and its player (`None` for one kept for the game).
    fn kept(&self, v: Value) -> R<(u16, Option<u8>, &StateDef)> {
        let Value::State(id, p) = v else {
            return Err(self.fail(Fault::BadValue, "expected a state the rules keep"));
        };
        let def = self
            .prog
            .states
            .get(id as usize)
            .ok_or_else(|| self.fail(Fault::BadValue, "no such state"))?;
        let player = (p != NO_PLAYER).then_some(p);
        if def.per_player && player.is_none() {
            return Err(self.fail(
                Fault::BadValue,
                format!("`{}` is kept per player: whose?", def.name),
            ));
        }
        Ok((id, player, def))
    }

    /// `season`, `p.bid`: the state's value.
    pub(crate) fn state_value(&mut self, st: &mut State, a: &[Value; 4]) -> R<Value> {
        let (id, player, def) = self.kept(a[0])?;
        match st.counters.get(id, player) {
            Some(v) => Ok(def.value(v)),
            None => Err(self.fail(
                Fault::BadValue,
                format!("`{}` has no value for this player", def.name),
            )),
        }
    }

    /// `p.bid` as a place to set: the state with its player.
    pub(crate) fn state_of(&mut self, _: &mut State, a: &[Value; 4]) -> R<Value> {
        match (a[0], a[1]) {
            (Value::State(id, _), Value::Player(p)) => Ok(Value::State(id, p)),
            _ => Err(self.fail(Fault::BadValue, "expected a state and a player")),
        }
    }

    /// `set(STATE, VALUE)`.
    pub(crate) fn set_state(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        let v = match a.get(1) {
            Some(Value::Int(i)) => *i,
            Some(Value::Bool(b)) => i64::from(*b),
            _ => return Err(self.fail(Fault::BadValue, "`set` needs an int or a bool")),
        };
        self.put_state(st, a.first().copied().unwrap_or(Value::Unit), v, None)
    }

    /// `add(STATE, AMOUNT)`.
    pub(crate) fn add_state(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        let handle = a.first().copied().unwrap_or(Value::Unit);
        let Some(&Value::Int(n)) = a.get(1) else {
            return Err(self.fail(Fault::BadValue, "`add` needs an int"));
        };
        let (id, player, def) = self.kept(handle)?;
        let now = st.counters.get(id, player).unwrap_or(def.start);
        let Some(v) = now.checked_add(n) else {
            return Err(self.fail(
                Fault::Overflow,
                format!(
                    "`{}` overflows: {now} + {n} does not fit in 64 bits",
                    def.name
                ),
            ));
        };
        self.put_state(st, handle, v, Some((now, n)))
    }

    /// Sets a state, refusing a value outside its range (`added`: the sum that gave it, for the
    /// message).
    fn put_state(
        &mut self,
        st: &mut State,
        handle: Value,
        v: i64,
        added: Option<(i64, i64)>,
    ) -> R<()> {
        let (id, player, def) = self.kept(handle)?;
        if let Some(why) = def
            .range
            .as_ref()
            .and_then(|r| r.refuses(Value::Int(v), &self.prog))
        {
            let whose = match player.and_then(|p| st.players.get(p as usize)) {
                Some(p) => format!("{}'s `{}`", p.name, def.name),
                None => format!("`{}`", def.name),
            };
            let how = match added {
                Some((now, n)) => format!(" ({now} + {n})"),
                None => String::new(),
            };
            let message = format!("{whose} {why}{how}: the value is refused, not clamped");
            return Err(self.fail(Fault::StateOutOfRange, message));
        }
        if !st.set_counter(id, player, v) {
            return Err(self.fail(
                Fault::BadValue,
                format!("`{}` has no value for this player", def.name),
            ));
        }
        Ok(())
    }

    /// Every state's start in its range, with the parameters in force (a parameter set from
    /// outside may move a bound): checked once per game, at setup.
    pub(crate) fn check_state_starts(&self) -> R<()> {
        for def in &self.prog.states {
            if let Some(why) = def
                .range
                .as_ref()
                .and_then(|r| r.refuses(Value::Int(def.start), &self.prog))
            {
                return Err(Box::new(GameError::Setup(format!(
                    "the start of `{}` is not allowed: it {why}",
                    def.name
                ))));
            }
        }
        Ok(())
    }
}
