//! What the interpreter reads of the game for its executor and for its builtins' context
//! ([`super::Cx`]): places, the chips in a place, free slots, a square's true/false fields, the map
//! square under a board cell, a feature's facts (kept until the board changes), the squares of a
//! map attribute (kept for the game) and the error of a field read from the wrong value.

use super::{Interp, R};
use crate::board::CellKind;
use crate::builtins::Field;
use crate::features::NONE;
use crate::game::{Fault, GameError};
use crate::ir::{Place as IrPlace, Value};
use crate::map::{AttrValue, SquareKind};
use crate::state::{FeatureInfo, Place, State};

/// A square's true/false field that conditions test in place (`s.covered`, `not s.land`: see
/// `lower`), read by [`Interp::square_flag`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SquareFlag {
    Covered,
    Land,
    LargeCity,
    Town,
    Start,
    Island,
}

impl SquareFlag {
    /// The flag a field is, if it is one. Every field is named, so that a new field is a compile
    /// error here until it says whether it is a flag.
    pub(crate) fn of(f: Field) -> Option<SquareFlag> {
        use Field as F;
        match f {
            F::SquareCovered => Some(SquareFlag::Covered),
            F::SquareLand => Some(SquareFlag::Land),
            F::SquareLargeCity => Some(SquareFlag::LargeCity),
            F::SquareTown => Some(SquareFlag::Town),
            F::SquareStart => Some(SquareFlag::Start),
            F::SquareIsland => Some(SquareFlag::Island),
            F::ChipColour
            | F::ChipValue
            | F::ChipFaceUp
            | F::SquareX
            | F::SquareY
            | F::SquareChips
            | F::SquareFreeSlots
            | F::FeatureKind
            | F::FeatureComplete
            | F::FeatureTiles
            | F::FeatureShields
            | F::FeatureCities
            | F::FeatureWinners
            | F::FeatureFollowers
            | F::FeatureSquares
            | F::FollowerOwner
            | F::FollowerStrength
            | F::FollowerPlacedTurn
            | F::FollowerFeature
            | F::FollowerSquare
            | F::PlayerScore
            | F::PlayerFollowersLeft
            | F::TileId
            | F::TileName
            | F::PlayerName
            | F::TileSquare
            | F::TileShields
            | F::StackSquare
            | F::StackSize => None,
        }
    }
}

impl Interp {
    /// The chip slots the map gives board cell `cell` (0 for none).
    pub(super) fn slot_count(&self, st: &State, cell: u32) -> u8 {
        st.board
            .square
            .get(cell as usize)
            .and_then(|&sq| self.memo.slot_counts.get(sq as usize))
            .copied()
            .unwrap_or(0)
    }

    /// The free slots of a square as bits (slot `i` is bit `i`): none on a covered square; a slot
    /// is free when no chip lies in it. One pass over the chips, nothing allocated.
    pub(super) fn free_slot_mask(&self, st: &State, cell: u32) -> u16 {
        let n = self.slot_count(st, cell).min(16);
        if n == 0 || st.board.tile.get(cell as usize).is_some_and(|&t| t != NONE) {
            return 0;
        }
        let mut free = (1u32 << n) - 1;
        for c in &st.chips {
            if let Place::Slot(cc, i) = c.place {
                if cc == cell && i < 16 {
                    free &= !(1u32 << i);
                }
            }
        }
        free as u16
    }

    /// A square's true/false field, read in place.
    #[inline(always)]
    pub(super) fn square_flag(&self, st: &State, c: u32, f: SquareFlag) -> bool {
        let cu = c as usize;
        match f {
            SquareFlag::Covered => st.board.tile.get(cu).is_some_and(|&t| t != NONE),
            SquareFlag::Land => st.board.kind.get(cu) == Some(&CellKind::Land),
            SquareFlag::LargeCity => st.board.kind.get(cu) == Some(&CellKind::LargeCity),
            SquareFlag::Town => self.map_square(st, c).is_some_and(|s| s.town),
            SquareFlag::Start => st.start_cells.contains(&c),
            SquareFlag::Island => self
                .map_square(st, c)
                .is_some_and(|s| s.kind == SquareKind::Island),
        }
    }

    pub(super) fn map_square<'a>(
        &'a self,
        st: &State,
        cell: u32,
    ) -> Option<&'a crate::map::Square> {
        let sq = *st.board.square.get(cell as usize)?;
        self.memo.map.as_ref()?.squares.get(sq as usize)
    }

    /// The facts of the feature whose root is `root`, kept until the board changes.
    pub(super) fn feature(&mut self, st: &mut State, root: u32) -> FeatureInfo {
        if let Some(cached) = self.caches.feature.of(st, root) {
            if self.checking() {
                let fresh = st.feature_info(root);
                // The root a feature is found by may change as it grows: compare the facts.
                if (FeatureInfo { root, ..cached }) != fresh {
                    super::caches::stale("feature facts", self.name(), &cached, &fresh);
                }
            }
            return cached;
        }
        let info = st.feature_info(root);
        self.caches.feature.set(info);
        info
    }

    /// A field read from a value of another type (the checker rules it out).
    pub(super) fn no_field(&self, v: Value) -> Box<GameError> {
        let kind = match v {
            Value::Square(_) => "square",
            Value::Chip(_) => "chip",
            Value::Feature(_) => "feature",
            Value::Follower(_) => "follower",
            Value::Player(_) => "player",
            Value::Tile(_) => "tile",
            Value::Stack(_) => "stack",
            v => return self.fail(Fault::BadValue, format!("{v:?} has no fields")),
        };
        self.fail(Fault::BadValue, format!("not a field of a {kind}"))
    }

    /// The squares whose map attribute named by string `name` equals `want`, in map order: indexed
    /// on first use, then kept for the game.
    pub(super) fn squares_with_index(&mut self, st: &State, name: u32, want: Value) -> R<usize> {
        let i = match self.caches.attr_index.find(name, want) {
            Some(i) => {
                if self.checking() {
                    let fresh = self.index_attr(st, name, want)?;
                    let cached = self.caches.attr_index.squares(i);
                    if cached != fresh.as_slice() {
                        super::caches::stale("squares_with", self.name(), &cached, &fresh);
                    }
                }
                i
            }
            None => {
                let cells = self.index_attr(st, name, want)?;
                self.caches.attr_index.add(name, want, cells)
            }
        };
        Ok(i)
    }

    /// The squares whose map attribute `name` (a string index) equals `want`, in map order.
    fn index_attr(&self, st: &State, name: u32, want: Value) -> R<Vec<Value>> {
        let name = self.string(name).to_string();
        let Some(map) = &self.memo.map else {
            return Err(self.fail(
                Fault::NoAttribute,
                "squares_with: the endless table has no map attributes",
            ));
        };
        if !map.squares.iter().any(|s| s.attrs.contains_key(&name)) {
            return Err(self.fail(
                Fault::NoAttribute,
                format!("the map has no square attribute `{name}`"),
            ));
        }
        let mut out = Vec::new();
        for &v in &self.memo.all_squares {
            let Value::Square(c) = v else { continue };
            let Some(sq) = st
                .board
                .square
                .get(c as usize)
                .and_then(|&q| map.squares.get(q as usize))
            else {
                continue;
            };
            let got = match sq.attrs.get(&name) {
                Some(AttrValue::Int(i)) => Value::Int(*i),
                Some(AttrValue::Bool(b)) => Value::Bool(*b),
                Some(AttrValue::Str(t)) => match self.prog.colours.iter().position(|c| c == t) {
                    Some(i) => Value::Colour(i as u8),
                    None => match self.run.strings.iter().position(|x| x == t) {
                        Some(i) => Value::Str(i as u32),
                        None => continue,
                    },
                },
                None => continue,
            };
            if got == want {
                out.push(v);
            }
        }
        Ok(out)
    }
}

/// The engine's place for a place value of the rules (`slots(s)`: its first slot).
pub(crate) fn place_of(p: IrPlace) -> Place {
    match p {
        IrPlace::Supply => Place::Supply,
        IrPlace::Aside => Place::Aside,
        IrPlace::Box => Place::Box,
        IrPlace::Hand(p) => Place::Hand(p),
        IrPlace::At(c) => Place::Square(c),
        IrPlace::Slots(c) => Place::Slot(c, 0),
        IrPlace::Under(f) => Place::Under(f),
        IrPlace::Holding(h) => Place::Holding(h as u8),
        IrPlace::PlayerHolding(h, p) => Place::PlayerHolding(h as u8, p),
    }
}
