//! Query builtins: chips in a place, squares (all, by attribute, with slots, neighbours), players,
//! followers, stacks, list helpers and turn facts. Each is a function of the builtin's context
//! ([`Cx`]) and its evaluated arguments, named by its row of `builtins!`.

use super::board::place_of;
use super::cx::Cx;
use super::R;
use crate::features::NONE;
use crate::game::Fault;
use crate::ir::{Place as IrPlace, Value};
use crate::state::{FollowerAt, Place, State};

/// The chips in a place, in the place's order, as a vector (the supply from its bottom).
pub(crate) fn chips_in(st: &State, p: IrPlace) -> Vec<Value> {
    let mut out = Vec::new();
    match p {
        IrPlace::Slots(c) => {
            for (i, ch) in st.chips.iter().enumerate() {
                if matches!(ch.place, Place::Slot(cc, _) if cc == c) {
                    out.push(Value::Chip(i as u16));
                }
            }
        }
        p => {
            let mut ids = Vec::new();
            st.chips_at(place_of(p), &mut ids);
            out.extend(ids.into_iter().map(Value::Chip));
        }
    }
    out
}

/// `chips(place)`: the chips in a place, in the place's order (the supply from its top).
pub(crate) fn chips(cx: &mut Cx, place: Value) -> Value {
    match place {
        Value::Place(IrPlace::Slots(c)) => {
            let v = chips_in(cx.st, IrPlace::Slots(c));
            cx.list_of(v)
        }
        // Other places are filled straight into the arena (this runs in many `when`s).
        Value::Place(p) => {
            let place = place_of(p);
            cx.fill(|st, out| {
                // An empty place the state counts (a square, a hand) is known without a search.
                if place != Place::Supply && st.chip_count(place) == Some(0) {
                    return;
                }
                match place {
                    Place::Supply => out.extend(st.supply.iter().rev().map(|&c| Value::Chip(c))),
                    Place::Hand(p) => out.extend(st.hand(p).iter().map(|&c| Value::Chip(c))),
                    // A square's count is known: the search stops at its last chip.
                    place => out.extend(
                        (0..st.chips.len())
                            .filter(|&c| st.chips[c].place == place)
                            .take(st.chip_count(place).unwrap_or(usize::MAX))
                            .map(|c| Value::Chip(c as u16)),
                    ),
                }
            })
        }
        _ => cx.list_of([]),
    }
}

/// `squares_with(attribute, value)`: indexed on first use.
pub(crate) fn squares_with(cx: &mut Cx, a: &[Value; 4]) -> R<Value> {
    let Value::Str(name) = a[0] else {
        return Err(cx.fail(Fault::BadValue, "squares_with needs an attribute name"));
    };
    cx.squares_with(name, a[1])
}

/// `neighbours(square)`: the map squares next to it.
pub(crate) fn neighbours(cx: &mut Cx, a0: Value) -> Value {
    let mut v = Vec::new();
    if let Value::Square(c) = a0 {
        for s in 0..4 {
            let n = cx.st.board.neighbour(c, s);
            if on_map(cx.st, n) {
                v.push(Value::Square(n));
            }
        }
    }
    cx.list_of(v)
}

/// `near(squares)`: the map squares next to any of them, each once.
pub(crate) fn near(cx: &mut Cx, a0: Value) -> R<Value> {
    let mut v: Vec<Value> = Vec::new();
    for k in 0..cx.len_of(a0)? {
        if let Value::Square(c) = cx.elem_at(a0, k) {
            for side in 0..4 {
                let n = cx.st.board.neighbour(c, side);
                let sq = Value::Square(n);
                if on_map(cx.st, n) && !v.contains(&sq) {
                    v.push(sq);
                }
            }
        }
    }
    cx.tick()?;
    Ok(cx.list_of(v))
}

/// `players_from(p)`: every player in turn order from `p`.
pub(crate) fn players_from(cx: &mut Cx, a0: Value) -> Value {
    let n = cx.st.players.len().max(1) as u8;
    let from = player_of(a0) % n;
    cx.list_of((0..n).map(|k| Value::Player((from + k) % n)))
}

/// A player's followers on the board (`on_board`) or in their supply.
pub(crate) fn followers_of(cx: &mut Cx, a0: Value, on_board: bool) -> Value {
    let p = player_of(a0);
    cx.fill(|st, out| {
        out.extend(
            st.player_followers(p)
                .filter(|&f| {
                    let at = st.followers[f as usize].at;
                    if on_board {
                        matches!(at, FollowerAt::Board(_))
                    } else {
                        at == FollowerAt::Supply
                    }
                })
                .map(Value::Follower),
        )
    })
}

/// `held(area)`: the followers in a holding area.
pub(crate) fn held(cx: &mut Cx, a0: Value) -> Value {
    let h = match a0 {
        Value::Holding(h) => h as u8,
        _ => 0,
    };
    cx.fill(|st, out| {
        out.extend(
            (0..st.followers.len())
                .filter(|&f| st.followers[f].at == FollowerAt::Holding(h))
                .map(|f| Value::Follower(f as u16)),
        )
    })
}

/// `stacks()`: the tile stacks with tiles left.
pub(crate) fn stacks(cx: &mut Cx) -> Value {
    cx.fill(|st, out| {
        out.extend(
            (0..st.tile_stacks.len())
                .filter(|&s| !st.tile_stacks[s].tiles.is_empty())
                .map(|s| Value::Stack(s as u16)),
        )
    })
}

/// `colours()`: the chip colours.
pub(crate) fn colours(cx: &mut Cx) -> Value {
    let n = cx.prog().colours.len() as u8;
    cx.list_of((0..n).map(Value::Colour))
}

/// `has(square, attr)`: whether the map gives the square that attribute.
pub(crate) fn has_attr(cx: &mut Cx, square: Value, attr: Value) -> R<Value> {
    let (Value::Square(c), Value::Str(name)) = (square, attr) else {
        return Err(cx.fail(
            Fault::BadValue,
            "`has` needs a square and an attribute name",
        ));
    };
    let name = cx.string(name);
    Ok(Value::Bool(
        cx.map_square(c)
            .is_some_and(|sq| sq.attrs.contains_key(name)),
    ))
}

/// `first(list)`, read in place: the list is not copied.
pub(crate) fn first(cx: &mut Cx, list: Value) -> R<Value> {
    match cx.len_of(list)? {
        0 => Err(cx.fail(Fault::NoSuchElement, "`first` of an empty list")),
        _ => Ok(cx.elem_at(list, 0)),
    }
}

/// `contains(list, x)`.
pub(crate) fn contains(cx: &mut Cx, list: Value, x: Value) -> R<Value> {
    let n = cx.len_of(list)?;
    let found = match list {
        Value::List(_) => match plain_key(x) {
            // A piece or a number equals only the same value: compared in a tight loop.
            Some(key) => cx.list(list).iter().any(|&y| plain_key(y) == Some(key)),
            None => cx.list(list).iter().any(|&y| cx.values_equal(y, x)),
        },
        v => (0..n).any(|k| cx.values_equal(cx.elem_at(v, k), x)),
    };
    Ok(Value::Bool(found))
}

/// `take(list, k)`: its first `k` elements.
pub(crate) fn take(cx: &mut Cx, list: Value, k: Value) -> R<Value> {
    let Value::Int(k) = k else {
        return Err(cx.fail(Fault::BadValue, "`take` needs a number"));
    };
    let n = cx.len_of(list)?;
    let k = usize::try_from(k).unwrap_or(0).min(n);
    let l = cx.new_list();
    for i in 0..k {
        let v = cx.elem_at(list, i);
        cx.list_mut(l).push(v);
    }
    Ok(Value::List(l))
}

/// `min(a, b)` and `max(a, b)`: `pick` of two numbers.
pub(crate) fn ints2(cx: &mut Cx, a: &[Value; 4], pick: fn(i64, i64) -> i64) -> R<Value> {
    match (a[0], a[1]) {
        (Value::Int(x), Value::Int(y)) => Ok(Value::Int(pick(x, y))),
        _ => Err(cx.fail(Fault::BadValue, "`min`/`max` need numbers")),
    }
}

/// `abs(x)`, refusing the one number whose absolute value does not fit.
pub(crate) fn abs(cx: &mut Cx, x: Value) -> R<Value> {
    match x {
        Value::Int(x) => x.checked_abs().map(Value::Int).ok_or_else(|| {
            cx.fail(
                Fault::Overflow,
                format!(
                    "`abs({x})` overflows (numbers run from {} to {})",
                    i64::MIN,
                    i64::MAX
                ),
            )
        }),
        _ => Err(cx.fail(Fault::BadValue, "`abs` needs a number")),
    }
}

/// `placeable(stack)`: whether the stack's top tile has a legal placement now.
pub(crate) fn placeable(cx: &mut Cx, a0: Value) -> Value {
    let st = &*cx.st;
    Value::Bool(match a0 {
        Value::Stack(s) => st
            .tile_stacks
            .get(s as usize)
            .and_then(|k| k.tiles.last())
            .is_some_and(|&ty| st.board.has_placement(&st.tiles[ty as usize])),
        _ => false,
    })
}

/// `connects_abroad(tile)`: whether a placed tile joins a road or city to a border exit.
pub(crate) fn connects_abroad(cx: &mut Cx, a0: Value) -> Value {
    let Value::Tile(t) = a0 else {
        return Value::Bool(false);
    };
    let (Some(map), Some(p)) = (cx.map(), cx.st.board.placed.get(t as usize)) else {
        return Value::Bool(false);
    };
    let (x, y) = cx.st.board.xy(p.cell);
    let tile = &cx.st.tiles[p.ty as usize];
    Value::Bool(
        map.exits
            .iter()
            .any(|e| e.at == (x, y) && tile.edge(p.rot as usize, e.side as usize) == e.feature),
    )
}

/// Whether board cell `n` is a square of the map.
fn on_map(st: &State, n: u32) -> bool {
    st.board.square.get(n as usize).is_some_and(|&q| q != NONE)
}

/// The player a value names (player 0 for anything else).
pub(crate) fn player_of(v: Value) -> u8 {
    match v {
        Value::Player(p) => p,
        _ => 0,
    }
}

/// A value that equals only values of its own kind with the same payload (a square, a chip, a
/// number, …), as a kind and a payload compared in one step; `None` for values whose equality has
/// more to it (lists, players and sets of players, ranges, places).
#[inline]
fn plain_key(v: Value) -> Option<(u8, u64)> {
    Some(match v {
        Value::Square(c) => (0, c as u64),
        Value::Chip(c) => (1, c as u64),
        Value::Follower(f) => (2, f as u64),
        Value::Int(i) => (3, i as u64),
        Value::Str(s) => (4, s as u64),
        Value::Colour(c) => (5, c as u64),
        Value::Tile(t) => (6, t as u64),
        Value::Feature(f) => (7, f as u64),
        Value::Stack(s) => (8, s as u64),
        _ => return None,
    })
}
