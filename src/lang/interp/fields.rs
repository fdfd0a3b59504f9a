//! Field reads: `chip.colour`, `square.covered`, `feature.complete`, `follower.owner` and the rest,
//! one function per kind of value (chip, square, feature, follower, player, tile, stack).

use super::{Interp, R};
use crate::board::CellKind;
use crate::features::NONE;
use crate::lang::builtins::Field;
use crate::lang::ir::Value;
use crate::map::SquareKind;
use crate::state::{FollowerAt, Place, State};

impl Interp {
    pub(super) fn feature(&mut self, st: &mut State, root: u32) -> crate::state::FeatureInfo {
        if self.feature_cache.kind.is_some()
            && st.board.features.find(self.feature_cache.root) == root
        {
            return self.feature_cache;
        }
        let info = st.feature_info(root);
        self.feature_cache = info;
        info
    }

    /// A field of a value: dispatches on the kind of value.
    pub(super) fn field(&mut self, st: &mut State, v: Value, f: Field) -> R<Value> {
        match v {
            Value::Square(c) => self.square_field(st, c, f),
            Value::Chip(c) => self.chip_field(st, c, f),
            Value::Feature(root) => self.feature_field(st, root, f),
            Value::Follower(fo) => self.follower_field(st, fo, f),
            Value::Player(p) => self.player_field(st, p, f),
            Value::Tile(t) => self.tile_field(st, t, f),
            Value::Stack(s) => self.stack_field(st, s, f),
            v => Err(self.fail(format!("{v:?} has no fields"))),
        }
    }

    fn chip_field(&self, st: &State, c: u16, f: Field) -> R<Value> {
        let Some(ch) = st.chips.get(c as usize) else {
            return Err(self.fail("no such chip"));
        };
        Ok(match f {
            Field::ChipColour => Value::Colour(ch.colour),
            Field::ChipValue => Value::Int(ch.value as i64),
            Field::ChipFaceUp => Value::Bool(ch.face_up),
            _ => return Err(self.fail("not a field of a chip")),
        })
    }

    fn square_field(&mut self, st: &State, c: u32, f: Field) -> R<Value> {
        use Field as F;
        Ok(match f {
            F::SquareCovered
            | F::SquareLand
            | F::SquareLargeCity
            | F::SquareTown
            | F::SquareStart
            | F::SquareIsland => Value::Bool(self.square_flag(st, c, f)),
            F::SquareX => Value::Int(st.board.xy(c).0 as i64),
            F::SquareY => Value::Int(st.board.xy(c).1 as i64),
            F::SquareChips => self.square_chips(st, c),
            F::SquareFreeSlots => Value::Int(self.free_slot_mask(st, c).count_ones() as i64),
            _ => return Err(self.fail("not a field of a square")),
        })
    }

    /// A square's true/false field (`covered`, `land`, `large_city`, `town`, `start`, `island`);
    /// false for any other field.
    #[inline(always)]
    pub(super) fn square_flag(&self, st: &State, c: u32, f: Field) -> bool {
        use Field as F;
        let cu = c as usize;
        match f {
            F::SquareCovered => st.board.tile.get(cu).is_some_and(|&t| t != NONE),
            F::SquareLand => st.board.kind.get(cu) == Some(&CellKind::Land),
            F::SquareLargeCity => st.board.kind.get(cu) == Some(&CellKind::LargeCity),
            F::SquareTown => self.map_square(st, c).is_some_and(|s| s.town),
            F::SquareStart => st.start_cells.contains(&c),
            F::SquareIsland => self
                .map_square(st, c)
                .is_some_and(|s| s.kind == SquareKind::Island),
            _ => false,
        }
    }

    /// `square.chips`: the chips on a square, in chip order, straight into the arena.
    fn square_chips(&mut self, st: &State, c: u32) -> Value {
        let l = self.new_list();
        if st.chip_count(Place::Square(c)) != Some(0) {
            let out = &mut self.lists[l as usize];
            let on = |ch: &crate::state::Chip| ch.place == Place::Square(c);
            out.extend(
                (0..st.chips.len())
                    .filter(|&i| on(&st.chips[i]))
                    .map(|i| Value::Chip(i as u16)),
            );
        }
        Value::List(l)
    }

    fn feature_field(&mut self, st: &mut State, root: u32, f: Field) -> R<Value> {
        use Field as F;
        let info = self.feature(st, root);
        Ok(match f {
            F::FeatureKind => match info.kind {
                Some(k) => Value::Kind(k),
                None => Value::Unit,
            },
            F::FeatureComplete => Value::Bool(info.complete),
            F::FeatureTiles => Value::Int(info.tiles as i64),
            F::FeatureShields => Value::Int(info.shields as i64),
            F::FeatureCities => Value::Int(info.cities as i64),
            F::FeatureWinners => Value::Players(info.winners),
            F::FeatureFollowers => {
                let mut fs = Vec::new();
                st.feature_followers(info.root, &mut fs);
                self.list_of(fs.into_iter().map(Value::Follower))
            }
            F::FeatureSquares => self.feature_squares(st, info.root),
            _ => return Err(self.fail("not a field of a feature")),
        })
    }

    /// `feature.squares`: the squares of a feature's tiles, each once, in the order met.
    fn feature_squares(&mut self, st: &State, root: u32) -> Value {
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

    fn follower_field(&self, st: &mut State, fo: u16, f: Field) -> R<Value> {
        use Field as F;
        let Some(x) = st.followers.get(fo as usize).copied() else {
            return Err(self.fail("no such follower"));
        };
        Ok(match f {
            F::FollowerOwner => Value::Player(x.owner),
            F::FollowerStrength => Value::Int(x.strength as i64),
            F::FollowerPlacedTurn => Value::Int(x.placed_turn as i64),
            F::FollowerFeature => match x.at {
                FollowerAt::Board(node) => Value::Feature(st.board.features.find(node)),
                _ => return Err(self.fail("the follower is not on the board")),
            },
            F::FollowerSquare => match x.at {
                FollowerAt::Board(_) => Value::Square(x.cell),
                _ => return Err(self.fail("the follower is not on the board")),
            },
            _ => return Err(self.fail("not a field of a follower")),
        })
    }

    fn player_field(&mut self, st: &State, p: u8, f: Field) -> R<Value> {
        let Some(pl) = st.players.get(p as usize) else {
            return Err(self.fail("no such player"));
        };
        Ok(match f {
            Field::PlayerScore => Value::Int(pl.score),
            Field::PlayerFollowersLeft => Value::Int(st.followers_in_supply(p) as i64),
            Field::PlayerName => {
                let name = pl.name.clone();
                Value::Str(self.intern(&name))
            }
            _ => return Err(self.fail("not a field of a player")),
        })
    }

    fn tile_field(&self, st: &State, t: u32, f: Field) -> R<Value> {
        let Some(p) = st.board.placed.get(t as usize).copied() else {
            // The tile drawn this turn (`tile_drawn`) is the next on the board: not placed yet.
            return match (st.current_tile, f) {
                (Some(ty), Field::TileShields) if t as usize == st.board.placed.len() => {
                    Ok(Value::Int(st.tiles[ty as usize].total_shields as i64))
                }
                (Some(_), Field::TileSquare) if t as usize == st.board.placed.len() => Err(self
                    .fail(
                        "the tile drawn is not placed yet: it has no square (read it on `placed`)",
                    )),
                _ => Err(self.fail("no such tile")),
            };
        };
        Ok(match f {
            Field::TileSquare => Value::Square(p.cell),
            Field::TileShields => Value::Int(st.tiles[p.ty as usize].total_shields as i64),
            _ => return Err(self.fail("not a field of a tile")),
        })
    }

    fn stack_field(&self, st: &State, s: u16, f: Field) -> R<Value> {
        let Some(stack) = st.tile_stacks.get(s as usize) else {
            return Err(self.fail("no such stack"));
        };
        Ok(match f {
            Field::StackSquare => Value::Square(stack.cell),
            Field::StackSize => Value::Int(stack.tiles.len() as i64),
            _ => return Err(self.fail("not a field of a stack")),
        })
    }

    pub(super) fn map_square<'a>(
        &'a self,
        st: &State,
        cell: u32,
    ) -> Option<&'a crate::map::Square> {
        let sq = *st.board.square.get(cell as usize)?;
        self.map.as_ref()?.squares.get(sq as usize)
    }
}
