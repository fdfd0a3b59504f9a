//! What the interpreter derives from the map (and the program's attribute declarations) before play.
//!
//! Owner: every interpreter of one program on one map shares one [`MapMemo`] through an `Arc`
//! (copies made for agents' look-ahead share it too). Lifetime: the map's. Nothing invalidates it:
//! a map's squares and attributes never change during a game, so it is built once in
//! [`Interp::new`](super::Interp::new) and never written again. What is memoized lazily on top of
//! the map (`squares_with` lists, map-only aggregates) lives in [`Caches`](super::caches::Caches).

use super::intern_into;
use crate::board::Board;
use crate::builtins::Base;
use crate::features::NONE;
use crate::ir::{AttrDef, Program, Value};
use crate::map::{AttrValue, MapBoard};
use std::sync::Arc;

pub(super) struct MapMemo {
    pub(super) map: Option<Arc<MapBoard>>,
    /// Per attribute, per map square: the attribute's value.
    pub(super) attr_vals: Vec<Vec<Value>>,
    /// Per map square: its chip slots (the map's `slots` attribute, read whether or not rules name it).
    pub(super) slot_counts: Vec<u8>,
    /// Every cell that is a map square, in map order.
    pub(super) all_squares: Vec<Value>,
    /// The cells whose `slots` attribute is above 0, in map order.
    pub(super) slot_squares: Vec<Value>,
}

impl MapMemo {
    /// Reads the map's squares; strings only the map spells are added to `strings`.
    pub(super) fn new(
        prog: &Program,
        map: Option<Arc<MapBoard>>,
        board: &Board,
        strings: &mut Vec<String>,
    ) -> MapMemo {
        let attr_vals = map
            .as_ref()
            .map_or(Vec::new(), |m| attribute_values(prog, m, strings));
        let slot_counts = map.as_ref().map_or(Vec::new(), |m| slot_counts(m));
        let (all_squares, slot_squares) = square_lists(board, &slot_counts);
        MapMemo {
            map,
            attr_vals,
            slot_counts,
            all_squares,
            slot_squares,
        }
    }
}

/// Per attribute of the program, per map square: the attribute's value. Strings only the map spells
/// are added to `strings`.
fn attribute_values(prog: &Program, m: &MapBoard, strings: &mut Vec<String>) -> Vec<Vec<Value>> {
    // A square without a string attribute reads as "" (like 0 and false for ints and bools).
    let empty = intern_into(strings, "");
    let value = |strings: &mut Vec<String>, a: &AttrDef, v: Option<&AttrValue>| match v {
        // A square without the attribute reads as the type's zero.
        None => match (a.ty.list, a.ty.base) {
            (false, Base::Int) => Value::Int(0),
            (false, Base::Bool) => Value::Bool(false),
            (false, Base::Str) => Value::Str(empty),
            _ => Value::Unit,
        },
        Some(AttrValue::Int(i)) => Value::Int(*i),
        Some(AttrValue::Bool(b)) => Value::Bool(*b),
        Some(AttrValue::Str(t)) => match prog.colours.iter().position(|c| c == t) {
            Some(c) => Value::Colour(c as u8),
            None => Value::Str(intern_into(strings, t)),
        },
    };
    prog.attrs
        .iter()
        .map(|a| {
            if a.of != crate::ir::AttrOf::Square {
                return Vec::new();
            }
            m.squares
                .iter()
                .map(|s| value(strings, a, s.attrs.get(&a.name)))
                .collect()
        })
        .collect()
}

/// Per map square: its chip slots (the map's `slots` attribute, read whether or not rules name it).
fn slot_counts(m: &MapBoard) -> Vec<u8> {
    m.squares
        .iter()
        .map(|s| match s.attrs.get("slots") {
            Some(AttrValue::Int(n)) => (*n).clamp(0, i64::from(crate::map::MAX_SLOTS)) as u8,
            _ => 0,
        })
        .collect()
}

/// Every cell that is a map square, in map order; and those of them with slots.
fn square_lists(board: &Board, slot_counts: &[u8]) -> (Vec<Value>, Vec<Value>) {
    let mut cells = Vec::new();
    for (c, &sq) in board.square.iter().enumerate() {
        if sq != NONE {
            cells.push((sq, c as u32));
        }
    }
    cells.sort();
    let with_slots = cells
        .iter()
        .filter(|&&(sq, _)| slot_counts.get(sq as usize).is_some_and(|&n| n > 0))
        .map(|&(_, c)| Value::Square(c))
        .collect();
    let all = cells.into_iter().map(|(_, c)| Value::Square(c)).collect();
    (all, with_slots)
}
