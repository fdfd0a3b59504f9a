//! The values the rules keep (`state NAME …`): reading one, naming a player's own, and the effects
//! `set` and `add`. The values live in the engine's slots (`State::counters`); a value outside the
//! state's range stops the game with its own error (E0804), never clamped.

use super::cx::Cx;
use super::R;
use crate::game::Fault;
use crate::game::GameError;
use crate::ir::{Program, StateDef, Value, NO_PLAYER};

/// The declaration a `Value::State` names, and its player (`None` for one kept for the game).
fn kept<'p>(cx: &'p Cx, v: Value) -> R<(u16, Option<u8>, &'p StateDef)> {
    let Value::State(id, p) = v else {
        return Err(cx.fail(Fault::BadValue, "expected a state the rules keep"));
    };
    let def = cx
        .prog()
        .states
        .get(id as usize)
        .ok_or_else(|| cx.fail(Fault::BadValue, "no such state"))?;
    let player = (p != NO_PLAYER).then_some(p);
    if def.per_player && player.is_none() {
        return Err(cx.fail(
            Fault::BadValue,
            format!("`{}` is kept per player: whose?", def.name),
        ));
    }
    Ok((id, player, def))
}

/// `season`, `p.bid`: the state's value.
pub(crate) fn state_value(cx: &mut Cx, a: &[Value; 4]) -> R<Value> {
    let (id, player, def) = kept(cx, a[0])?;
    match cx.st.counters.get(id, player) {
        Some(v) => Ok(def.value(v)),
        None => Err(cx.fail(
            Fault::BadValue,
            format!("`{}` has no value for this player", def.name),
        )),
    }
}

/// `p.bid` as a place to set: the state with its player.
pub(crate) fn state_of(cx: &mut Cx, a: &[Value; 4]) -> R<Value> {
    match (a[0], a[1]) {
        (Value::State(id, _), Value::Player(p)) => Ok(Value::State(id, p)),
        _ => Err(cx.fail(Fault::BadValue, "expected a state and a player")),
    }
}

/// `set(STATE, VALUE)`.
pub(crate) fn set_state(cx: &mut Cx, a: &[Value]) -> R<()> {
    let v = match a.get(1) {
        Some(Value::Int(i)) => *i,
        Some(Value::Bool(b)) => i64::from(*b),
        _ => return Err(cx.fail(Fault::BadValue, "`set` needs an int or a bool")),
    };
    put_state(cx, a.first().copied().unwrap_or(Value::Unit), v, None)
}

/// `add(STATE, AMOUNT)`.
pub(crate) fn add_state(cx: &mut Cx, a: &[Value]) -> R<()> {
    let handle = a.first().copied().unwrap_or(Value::Unit);
    let Some(&Value::Int(n)) = a.get(1) else {
        return Err(cx.fail(Fault::BadValue, "`add` needs an int"));
    };
    let (id, player, def) = kept(cx, handle)?;
    let now = cx.st.counters.get(id, player).unwrap_or(def.start);
    let Some(v) = now.checked_add(n) else {
        return Err(cx.fail(
            Fault::Overflow,
            format!(
                "`{}` overflows: {now} + {n} does not fit in 64 bits",
                def.name
            ),
        ));
    };
    put_state(cx, handle, v, Some((now, n)))
}

/// Sets a state, refusing a value outside its range (`added`: the sum that gave it, for the
/// message).
fn put_state(cx: &mut Cx, handle: Value, v: i64, added: Option<(i64, i64)>) -> R<()> {
    let (id, player, def) = kept(cx, handle)?;
    if let Some(why) = def
        .range
        .as_ref()
        .and_then(|r| r.refuses(Value::Int(v), cx.prog()))
    {
        let whose = match player.and_then(|p| cx.st.players.get(p as usize)) {
            Some(p) => format!("{}'s `{}`", p.name, def.name),
            None => format!("`{}`", def.name),
        };
        let how = match added {
            Some((now, n)) => format!(" ({now} + {n})"),
            None => String::new(),
        };
        let message = format!("{whose} {why}{how}: the value is refused, not clamped");
        return Err(cx.fail(Fault::StateOutOfRange, message));
    }
    if !cx.st.set_counter(id, player, v) {
        let (_, _, def) = kept(cx, handle)?;
        return Err(cx.fail(
            Fault::BadValue,
            format!("`{}` has no value for this player", def.name),
        ));
    }
    Ok(())
}

/// Every state's start in its range, with the parameters in force (a parameter set from outside
/// may move a bound): checked once per game, at setup.
pub(super) fn check_starts(prog: &Program) -> Result<(), GameError> {
    for def in &prog.states {
        if let Some(why) = def
            .range
            .as_ref()
            .and_then(|r| r.refuses(Value::Int(def.start), prog))
        {
            return Err(GameError::Setup(format!(
                "the start of `{}` is not allowed: it {why}",
                def.name
            )));
        }
    }
    Ok(())
}
