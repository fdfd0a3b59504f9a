//! Reads of the tile sets' attributes (`tile.inn`, `feature.goods`) and of a tile's id and name:
//! from the values the checker lowered per tile type (`ir::TileAttr`), by index; a feature's by one
//! walk over its members. Nothing here runs unless a rule reads an attribute.

use super::{Interp, R};
use crate::game::Fault;
use crate::ir::{TileAttr, Value};
use crate::state::State;
use crate::tiles::AttrType;

impl Interp {
    /// The tile type of a tile value: placed, or the tile drawn this turn (the next to be placed).
    pub(super) fn tile_type_of(&self, st: &State, v: Value) -> R<usize> {
        let Value::Tile(t) = v else {
            return Err(self.no_field(v));
        };
        match st.board.placed.get(t as usize) {
            Some(p) => Ok(p.ty as usize),
            None => match st.current_tile {
                Some(ty) if t as usize == st.board.placed.len() => Ok(ty as usize),
                _ => Err(self.fail(Fault::BadValue, "no such tile")),
            },
        }
    }

    /// A tile set's attribute read on a tile or a feature (`a` indexes `Program::attrs`).
    pub(super) fn tile_attr(&mut self, st: &State, v: Value, attr: &TileAttr) -> R<Value> {
        match v {
            Value::Tile(_) => {
                let ty = self.tile_type_of(st, v)?;
                let row = attr.values.get(ty).map_or(&[][..], |r| r.as_slice());
                if !attr.segment {
                    return Ok(row.first().copied().unwrap_or(Value::Unit));
                }
                Ok(self.combine(attr.ty, false, row.iter().copied()))
            }
            Value::Feature(root) => {
                // One value per segment of the feature (a segment attribute), or per tile (a tile's own).
                let f = &st.board.features;
                let mut vals: Vec<Value> = Vec::new();
                let mut tiles: Vec<u32> = Vec::new();
                f.for_each_member(f.root(root), |m| {
                    let t = f.tile[m as usize];
                    let Some(p) = st.board.placed.get(t as usize) else {
                        return;
                    };
                    let row = attr.values.get(p.ty as usize);
                    let got = if attr.segment {
                        row.and_then(|r| r.get((m - p.first_node) as usize))
                    } else {
                        row.and_then(|r| r.first())
                    };
                    let Some(&got) = got else { return };
                    // A tile is counted once, however many of its segments the feature holds.
                    let once = attr.ty == AttrType::Bool || !attr.segment;
                    if once && got != Value::Bool(false) {
                        if tiles.contains(&t) {
                            return;
                        }
                        tiles.push(t);
                    }
                    vals.push(got);
                });
                Ok(self.combine(attr.ty, true, vals.into_iter()))
            }
            v => Err(self.no_field(v)),
        }
    }

    /// Several values of one attribute as one: how many are true (a feature) or whether any is (a
    /// tile); the sum of ints; the list of the strings that are not empty (or of the colours).
    fn combine(&mut self, ty: AttrType, feature: bool, vals: impl Iterator<Item = Value>) -> Value {
        match ty {
            AttrType::Bool => {
                let n = vals.filter(|v| *v == Value::Bool(true)).count() as i64;
                if feature {
                    Value::Int(n)
                } else {
                    Value::Bool(n > 0)
                }
            }
            AttrType::Int => Value::Int(
                vals.map(|v| match v {
                    Value::Int(i) => i,
                    _ => 0,
                })
                .fold(0i64, i64::saturating_add),
            ),
            AttrType::Str => {
                let empty = self.prog.strings.iter().position(|s| s.is_empty());
                // Strings that are not empty, or chip colours (none is no colour).
                let list: Vec<Value> = vals
                    .filter(|v| match v {
                        Value::Str(s) => Some(*s as usize) != empty,
                        v => *v != Value::Unit,
                    })
                    .collect();
                self.list_of(list)
            }
        }
    }
}
