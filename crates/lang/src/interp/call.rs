//! Calling a builtin's row: the interpreter gives it a context ([`Cx`]) over the game and its own
//! services, and nothing else; and the counts of chips the executor reads without making a list.

use super::board::place_of;
use super::caches::Event;
use super::cx::Cx;
use super::{query, Interp, R};
use crate::builtins::{Builtin, Field, Run};
use crate::game::Fault;
use crate::ir::{Place as IrPlace, Value};
use crate::state::{Place, State};

impl Interp {
    /// A builtin on its evaluated arguments (`n` of them): its row's implementation
    /// (`builtins::Run`).
    #[inline]
    pub(super) fn call_values(
        &mut self,
        st: &mut State,
        b: Builtin,
        a: &[Value; 4],
        n: usize,
    ) -> R<Value> {
        match b.run() {
            Run::Query(q) => q(&mut Cx::new(self, st), a),
            // Effects used as expressions do their work and yield nothing.
            Run::Effect(_) => {
                self.effect(st, b, &a[..n.min(4)])?;
                Ok(Value::Unit)
            }
        }
    }

    /// Runs an effect builtin on its evaluated arguments: its row's implementation
    /// (`builtins::Run`).
    pub(super) fn effect(&mut self, st: &mut State, b: Builtin, a: &[Value]) -> R<()> {
        // A score changes no fact of the board, so the facts the engine gave a `scored` rule hold
        // on (the agents' read-only valuation relies on it: `agent::points`).
        self.caches.invalidate(if b.scores_only() {
            Event::PointsScored
        } else {
            Event::BoardChanged
        });
        match b.run() {
            Run::Effect(run) => run(&mut Cx::new(self, st), a),
            Run::Query(_) => Err(self.fail(
                Fault::BadValue,
                format!("`{}` is not an effect", b.info().name),
            )),
        }
    }

    /// A field of a value, read as its row says.
    #[inline]
    pub(super) fn field(&mut self, st: &mut State, v: Value, f: Field) -> R<Value> {
        (f.read())(&mut Cx::new(self, st), v)
    }

    /// `len(v.chips)` for an evaluated `v`.
    pub(super) fn count_square_chips(&mut self, st: &mut State, v: Value) -> R<usize> {
        self.tick()?;
        if let Value::Square(c) = v {
            if let Some(n) = st.chip_count(Place::Square(c)) {
                return Ok(n);
            }
        }
        let listed = self.field(st, v, Field::SquareChips)?;
        self.len_of(listed)
    }

    /// `len(chips(v))` for an evaluated place `v`.
    pub(super) fn count_place_chips(&mut self, st: &mut State, v: Value) -> R<usize> {
        self.tick()?;
        if let Value::Place(ir) = v {
            if !matches!(ir, IrPlace::Slots(_)) {
                if let Some(n) = st.chip_count(place_of(ir)) {
                    return Ok(n);
                }
            }
        }
        let listed = query::chips(&mut Cx::new(self, st), v);
        self.len_of(listed)
    }
}
