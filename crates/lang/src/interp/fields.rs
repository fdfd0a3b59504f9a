//! Field reads: `chip.colour`, `square.covered`, `feature.complete`, `follower.owner` and the rest.
//! Each field is read as its row of `fields!` (`lang/builtins.rs`) says; here are the helpers the
//! rows use: the value a field is read from, checked to be of the field's type, and the reads that
//! take more than a line.

use super::{Interp, R};
use crate::board::CellKind;
use crate::builtins::Field;
use crate::features::NONE;
use crate::game::Fault;
use crate::game::GameError;
use crate::ir::Value;
use crate::map::SquareKind;
use crate::state::{Chip, FeatureInfo, Follower, FollowerAt, Place, State, TileStack};

/// A square's true/false field that conditions test in place (`s.covered`, `not s.land`: see
/// `lower`), read by [`Interp::square_flag`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SquareFlag {
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
    pub(super) fn of(f: Field) -> Option<SquareFlag> {
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

    /// A field of a value, read as its row says.
    #[inline]
    pub(super) fn field(&mut self, st: &mut State, v: Value, f: Field) -> R<Value> {
        (f.read())(self, st, v)
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

    pub(crate) fn chip_of(&self, st: &State, v: Value) -> R<Chip> {
        let Value::Chip(c) = v else {
            return Err(self.no_field(v));
        };
        st.chips
            .get(c as usize)
            .copied()
            .ok_or_else(|| self.fail(Fault::BadValue, "no such chip"))
    }

    pub(crate) fn square_of(&self, v: Value) -> R<u32> {
        match v {
            Value::Square(c) => Ok(c),
            v => Err(self.no_field(v)),
        }
    }

    /// A square's true/false field, as a value.
    pub(crate) fn square_flag_of(&self, st: &State, v: Value, f: Field) -> R<Value> {
        let c = self.square_of(v)?;
        match SquareFlag::of(f) {
            Some(flag) => Ok(Value::Bool(self.square_flag(st, c, flag))),
            None => Err(self.no_field(v)),
        }
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

    /// `square.chips`: the chips on a square, in chip order, straight into the arena.
    pub(crate) fn square_chips(&mut self, st: &State, c: u32) -> Value {
        let l = self.new_list();
        if st.chip_count(Place::Square(c)) != Some(0) {
            let out = &mut self.lists[l as usize];
            let on = |ch: &Chip| ch.place == Place::Square(c);
            out.extend(
                (0..st.chips.len())
                    .filter(|&i| on(&st.chips[i]))
                    .map(|i| Value::Chip(i as u16)),
            );
        }
        Value::List(l)
    }

    /// The facts of the feature a value names (cached: see [`Interp::feature`]).
    pub(crate) fn feature_of(&mut self, st: &mut State, v: Value) -> R<FeatureInfo> {
        match v {
            Value::Feature(root) => Ok(self.feature(st, root)),
            v => Err(self.no_field(v)),
        }
    }

    /// `feature.followers`.
    pub(crate) fn feature_followers(&mut self, st: &mut State, v: Value) -> R<Value> {
        let info = self.feature_of(st, v)?;
        let mut fs = Vec::new();
        st.feature_followers(info.root, &mut fs);
        Ok(self.list_of(fs.into_iter().map(Value::Follower)))
    }

    /// `feature.squares`: the squares of a feature's tiles, each once, in the order met.
    pub(crate) fn feature_squares(&mut self, st: &State, root: u32) -> Value {
        let mut cells: Vec<u32> = Vec::new();
        let f = &st.board.features;
        f.for_each_member(root, |m| {
            let t = f.tile[m as usize] as usize;
            if let Some(p) = st.board.placed.get(t) {
                if !cells.contains(&p.cell) {
                    cells.push(p.cell);
                }
            }
        });
        self.list_of(cells.into_iter().map(Value::Square))
    }

    pub(crate) fn follower_of(&self, st: &State, v: Value) -> R<Follower> {
        let Value::Follower(fo) = v else {
            return Err(self.no_field(v));
        };
        st.followers
            .get(fo as usize)
            .copied()
            .ok_or_else(|| self.fail(Fault::BadValue, "no such follower"))
    }

    /// `follower.feature`: an error off the board.
    pub(crate) fn follower_feature(&mut self, st: &mut State, v: Value) -> R<Value> {
        match self.follower_of(st, v)?.at {
            FollowerAt::Board(node) => Ok(Value::Feature(st.board.features.find(node))),
            _ => Err(self.fail(Fault::BadValue, "the follower is not on the board")),
        }
    }

    /// `follower.square`: an error off the board.
    pub(crate) fn follower_square(&mut self, st: &mut State, v: Value) -> R<Value> {
        let x = self.follower_of(st, v)?;
        match x.at {
            FollowerAt::Board(_) => Ok(Value::Square(x.cell)),
            _ => Err(self.fail(Fault::BadValue, "the follower is not on the board")),
        }
    }

    /// The player a value names, checked to be one of the game's.
    pub(crate) fn player_index(&self, st: &State, v: Value) -> R<u8> {
        let Value::Player(p) = v else {
            return Err(self.no_field(v));
        };
        if st.players.get(p as usize).is_none() {
            return Err(self.fail(Fault::BadValue, "no such player"));
        }
        Ok(p)
    }

    /// `player.name`, as a string value.
    pub(crate) fn player_name(&mut self, st: &mut State, v: Value) -> R<Value> {
        let p = self.player_index(st, v)?;
        let name = st.players[p as usize].name.clone();
        Ok(Value::Str(self.intern(&name)))
    }

    /// `tile.square`.
    pub(crate) fn tile_square(&mut self, st: &mut State, v: Value) -> R<Value> {
        self.tile_field(st, v, Field::TileSquare)
    }

    /// `tile.shields`.
    pub(crate) fn tile_shields(&mut self, st: &mut State, v: Value) -> R<Value> {
        self.tile_field(st, v, Field::TileShields)
    }

    /// A tile's square or shields (`f`): of a placed tile, or of the tile drawn this turn
    /// (`tile_drawn`), the next on the board, whose square is not known yet.
    fn tile_field(&self, st: &State, v: Value, f: Field) -> R<Value> {
        let Value::Tile(t) = v else {
            return Err(self.no_field(v));
        };
        let square = f == Field::TileSquare;
        let Some(p) = st.board.placed.get(t as usize).copied() else {
            return match st.current_tile {
                Some(ty) if t as usize == st.board.placed.len() && !square => {
                    Ok(Value::Int(st.tiles[ty as usize].total_shields as i64))
                }
                Some(_) if t as usize == st.board.placed.len() => Err(self.fail(
                    Fault::BadValue,
                    "the tile drawn is not placed yet: it has no square (read it on `placed`)",
                )),
                _ => Err(self.fail(Fault::BadValue, "no such tile")),
            };
        };
        Ok(if square {
            Value::Square(p.cell)
        } else {
            Value::Int(st.tiles[p.ty as usize].total_shields as i64)
        })
    }

    pub(crate) fn stack_of<'a>(&self, st: &'a State, v: Value) -> R<&'a TileStack> {
        let Value::Stack(s) = v else {
            return Err(self.no_field(v));
        };
        st.tile_stacks
            .get(s as usize)
            .ok_or_else(|| self.fail(Fault::BadValue, "no such stack"))
    }

    pub(super) fn map_square<'a>(
        &'a self,
        st: &State,
        cell: u32,
    ) -> Option<&'a crate::map::Square> {
        let sq = *st.board.square.get(cell as usize)?;
        self.memo.map.as_ref()?.squares.get(sq as usize)
    }
}
