//! The frame: the local slots of the bodies running, one stack for all of them (a rule's body, a
//! trigger it fires, an action's choices). Entering a body gives it its slots above the caller's;
//! leaving gives them back.

use crate::ir::Value;

/// The local slots of the running bodies, the running body's from `base` on.
#[derive(Clone, Debug, Default)]
pub(super) struct Frame {
    slots: Vec<Value>,
    base: usize,
}

impl Frame {
    /// Gives a body `locals` slots (and one more) above the running body's: the caller's base, to
    /// give back to [`Frame::leave`].
    pub(super) fn enter(&mut self, locals: u16) -> usize {
        let saved = self.base;
        self.base = self.slots.len();
        self.slots
            .resize(self.base + locals as usize + 1, Value::Unit);
        saved
    }

    /// Leaves the running body: the caller's slots are the running ones again.
    pub(super) fn leave(&mut self, saved: usize) {
        self.slots.truncate(self.base);
        self.base = saved;
    }

    /// Sets a slot of the running body (growing the frame when the slot is past its end).
    #[inline]
    pub(super) fn set(&mut self, slot: u16, v: Value) {
        let i = self.base + slot as usize;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, Value::Unit);
        }
        self.slots[i] = v;
    }

    /// The value in a slot of the running body (nothing, `Unit`, in a slot never set).
    #[inline]
    pub(super) fn get(&self, slot: u16) -> Value {
        self.slots
            .get(self.base + slot as usize)
            .copied()
            .unwrap_or(Value::Unit)
    }

    /// Whether any slot holds a list (a copy of the interpreter then copies the lists in use).
    pub(super) fn names_lists(&self) -> bool {
        self.slots.iter().any(|v| matches!(v, Value::List(_)))
    }
}
