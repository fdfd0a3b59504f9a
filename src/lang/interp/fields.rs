//! Field reads: `chip.colour`, `square.covered`, `feature.complete`, `follower.owner` and the rest.

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

    pub(super) fn field(&mut self, st: &mut State, v: Value, f: Field) -> R<Value> {
        use Field as F;
        Ok(match (v, f) {
            (Value::Chip(c), _) => {
                let Some(ch) = st.chips.get(c as usize).copied() else {
                    return Err(self.fail("no such chip"));
                };
                match f {
                    F::ChipColour => Value::Colour(ch.colour),
                    F::ChipValue => Value::Int(ch.value as i64),
                    F::ChipFaceUp => Value::Bool(ch.face_up),
                    _ => return Err(self.fail("not a field of a chip")),
                }
            }
            (Value::Square(c), _) => {
                let cu = c as usize;
                let sq = self.map_square(st, c);
                match f {
                    F::SquareX => Value::Int(st.board.xy(c).0 as i64),
                    F::SquareY => Value::Int(st.board.xy(c).1 as i64),
                    F::SquareTown => Value::Bool(sq.is_some_and(|s| s.town)),
                    F::SquareStart => Value::Bool(st.start_cells.contains(&c)),
                    F::SquareCovered => {
                        Value::Bool(st.board.tile.get(cu).is_some_and(|&t| t != NONE))
                    }
                    F::SquareLand => Value::Bool(st.board.kind.get(cu) == Some(&CellKind::Land)),
                    F::SquareIsland => {
                        Value::Bool(sq.is_some_and(|s| s.kind == SquareKind::Island))
                    }
                    F::SquareLargeCity => {
                        Value::Bool(st.board.kind.get(cu) == Some(&CellKind::LargeCity))
                    }
                    F::SquareChips => {
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
                    F::SquareFreeSlots => Value::Int(self.free_slots(st, c).len() as i64),
                    _ => return Err(self.fail("not a field of a square")),
                }
            }
            (Value::Feature(root), _) => {
                let info = self.feature(st, root);
                match f {
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
                    F::FeatureSquares => {
                        let mut cells: Vec<u32> = Vec::new();
                        let f = &st.board.features;
                        f.for_each_member(info.root, |m| {
                            let t = f.tile[m as usize] as usize;
                            if let Some(p) = st.board.placed.get(t) {
                                if !cells.contains(&p.cell) {
                                    cells.push(p.cell);
                                }
                            }
                        });
                        self.list_of(cells.into_iter().map(Value::Square))
                    }
                    _ => return Err(self.fail("not a field of a feature")),
                }
            }
            (Value::Follower(fo), _) => {
                let Some(x) = st.followers.get(fo as usize).copied() else {
                    return Err(self.fail("no such follower"));
                };
                match f {
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
                }
            }
            (Value::Player(p), _) => {
                let Some(pl) = st.players.get(p as usize) else {
                    return Err(self.fail("no such player"));
                };
                match f {
                    F::PlayerScore => Value::Int(pl.score),
                    F::PlayerFollowersLeft => Value::Int(st.followers_in_supply(p) as i64),
                    F::PlayerName => {
                        let name = pl.name.clone();
                        Value::Str(self.intern(&name))
                    }
                    _ => return Err(self.fail("not a field of a player")),
                }
            }
            (Value::Tile(t), _) => {
                let Some(p) = st.board.placed.get(t as usize).copied() else {
                    return Err(self.fail("no such tile"));
                };
                match f {
                    F::TileSquare => Value::Square(p.cell),
                    F::TileShields => Value::Int(st.tiles[p.ty as usize].total_shields as i64),
                    _ => return Err(self.fail("not a field of a tile")),
                }
            }
            (Value::Stack(s), _) => {
                let Some(stack) = st.tile_stacks.get(s as usize) else {
                    return Err(self.fail("no such stack"));
                };
                match f {
                    F::StackSquare => Value::Square(stack.cell),
                    F::StackSize => Value::Int(stack.tiles.len() as i64),
                    _ => return Err(self.fail("not a field of a stack")),
                }
            }
            (v, _) => return Err(self.fail(format!("{v:?} has no fields"))),
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
