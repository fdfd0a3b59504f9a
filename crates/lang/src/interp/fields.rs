//! Field reads: `chip.colour`, `square.covered`, `feature.complete`, `follower.owner` and the rest.
//! Each field is read as its row of `fields!` (`lang/builtins.rs`) says, a function of the
//! builtin's context ([`Cx`]) and the value read from; here are the reads that take more than a
//! line, and the value a field is read from, checked to be of the field's type.

use super::board::SquareFlag;
use super::cx::Cx;
use super::R;
use crate::builtins::Field;
use crate::game::Fault;
use crate::ir::Value;
use crate::state::{Chip, FeatureInfo, Follower, FollowerAt, Place, TileStack};

pub(crate) fn chip_of(cx: &Cx, v: Value) -> R<Chip> {
    let Value::Chip(c) = v else {
        return Err(cx.no_field(v));
    };
    cx.st
        .chips
        .get(c as usize)
        .copied()
        .ok_or_else(|| cx.fail(Fault::BadValue, "no such chip"))
}

pub(crate) fn square_of(cx: &Cx, v: Value) -> R<u32> {
    match v {
        Value::Square(c) => Ok(c),
        v => Err(cx.no_field(v)),
    }
}

/// A square's true/false field, as a value.
pub(crate) fn square_flag_of(cx: &Cx, v: Value, f: Field) -> R<Value> {
    let c = square_of(cx, v)?;
    match SquareFlag::of(f) {
        Some(flag) => Ok(Value::Bool(cx.square_flag(c, flag))),
        None => Err(cx.no_field(v)),
    }
}

/// `square.chips`: the chips on a square, in chip order, straight into the arena.
pub(crate) fn square_chips(cx: &mut Cx, c: u32) -> Value {
    cx.fill(|st, out| {
        if st.chip_count(Place::Square(c)) != Some(0) {
            let on = |ch: &Chip| ch.place == Place::Square(c);
            out.extend(
                (0..st.chips.len())
                    .filter(|&i| on(&st.chips[i]))
                    .map(|i| Value::Chip(i as u16)),
            );
        }
    })
}

/// The facts of the feature a value names (kept until the board changes: [`Cx::feature`]).
pub(crate) fn feature_of(cx: &mut Cx, v: Value) -> R<FeatureInfo> {
    match v {
        Value::Feature(root) => Ok(cx.feature(root)),
        v => Err(cx.no_field(v)),
    }
}

/// `feature.followers`.
pub(crate) fn feature_followers(cx: &mut Cx, v: Value) -> R<Value> {
    let info = feature_of(cx, v)?;
    let mut fs = Vec::new();
    cx.st.feature_followers(info.root, &mut fs);
    Ok(cx.list_of(fs.into_iter().map(Value::Follower)))
}

/// `feature.squares`: the squares of a feature's tiles, each once, in the order met.
pub(crate) fn feature_squares(cx: &mut Cx, root: u32) -> Value {
    let mut cells: Vec<u32> = Vec::new();
    let f = &cx.st.board.features;
    f.for_each_member(root, |m| {
        let t = f.tile[m as usize] as usize;
        if let Some(p) = cx.st.board.placed.get(t) {
            if !cells.contains(&p.cell) {
                cells.push(p.cell);
            }
        }
    });
    cx.list_of(cells.into_iter().map(Value::Square))
}

pub(crate) fn follower_of(cx: &Cx, v: Value) -> R<Follower> {
    let Value::Follower(fo) = v else {
        return Err(cx.no_field(v));
    };
    cx.st
        .followers
        .get(fo as usize)
        .copied()
        .ok_or_else(|| cx.fail(Fault::BadValue, "no such follower"))
}

/// `follower.feature`: an error off the board.
pub(crate) fn follower_feature(cx: &mut Cx, v: Value) -> R<Value> {
    match follower_of(cx, v)?.at {
        FollowerAt::Board(node) => Ok(Value::Feature(cx.st.board.features.find(node))),
        _ => Err(cx.fail(Fault::BadValue, "the follower is not on the board")),
    }
}

/// `follower.square`: an error off the board.
pub(crate) fn follower_square(cx: &mut Cx, v: Value) -> R<Value> {
    let x = follower_of(cx, v)?;
    match x.at {
        FollowerAt::Board(_) => Ok(Value::Square(x.cell)),
        _ => Err(cx.fail(Fault::BadValue, "the follower is not on the board")),
    }
}

/// The player a value names, checked to be one of the game's.
pub(crate) fn player_index(cx: &Cx, v: Value) -> R<u8> {
    let Value::Player(p) = v else {
        return Err(cx.no_field(v));
    };
    if cx.st.players.get(p as usize).is_none() {
        return Err(cx.fail(Fault::BadValue, "no such player"));
    }
    Ok(p)
}

/// `player.name`, as a string value.
pub(crate) fn player_name(cx: &mut Cx, v: Value) -> R<Value> {
    let p = player_index(cx, v)?;
    let name = cx.st.players[p as usize].name.clone();
    Ok(Value::Str(cx.intern(&name)))
}

/// `tile.square`.
pub(crate) fn tile_square(cx: &mut Cx, v: Value) -> R<Value> {
    tile_field(cx, v, Field::TileSquare)
}

/// `tile.shields`.
pub(crate) fn tile_shields(cx: &mut Cx, v: Value) -> R<Value> {
    tile_field(cx, v, Field::TileShields)
}

/// A tile's square or shields (`f`): of a placed tile, or of the tile drawn this turn
/// (`tile_drawn`), the next on the board, whose square is not known yet.
fn tile_field(cx: &Cx, v: Value, f: Field) -> R<Value> {
    let Value::Tile(t) = v else {
        return Err(cx.no_field(v));
    };
    let square = f == Field::TileSquare;
    let Some(p) = cx.st.board.placed.get(t as usize).copied() else {
        return match cx.st.current_tile {
            Some(ty) if t as usize == cx.st.board.placed.len() && !square => {
                Ok(Value::Int(cx.st.tiles[ty as usize].total_shields as i64))
            }
            Some(_) if t as usize == cx.st.board.placed.len() => Err(cx.fail(
                Fault::BadValue,
                "the tile drawn is not placed yet: it has no square (read it on `placed`)",
            )),
            _ => Err(cx.fail(Fault::BadValue, "no such tile")),
        };
    };
    Ok(if square {
        Value::Square(p.cell)
    } else {
        Value::Int(cx.st.tiles[p.ty as usize].total_shields as i64)
    })
}

pub(crate) fn stack_of<'a>(cx: &'a Cx, v: Value) -> R<&'a TileStack> {
    let Value::Stack(s) = v else {
        return Err(cx.no_field(v));
    };
    cx.st
        .tile_stacks
        .get(s as usize)
        .ok_or_else(|| cx.fail(Fault::BadValue, "no such stack"))
}

/// `tile.id` (`name` false) or `tile.name`.
pub(crate) fn tile_name(cx: &mut Cx, v: Value, name: bool) -> R<Value> {
    let ty = cx.tile_type(v)?;
    match cx.prog().tile_names.get(ty) {
        Some(&(id, n)) => Ok(if name { n } else { id }),
        None => Err(cx.fail(
            Fault::NoAttribute,
            "the tile sets of this game were not read when checking",
        )),
    }
}
