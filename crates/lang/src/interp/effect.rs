//! Effect builtins: scoring, moving and drawing chips (firing `gained`), followers, extra turns,
//! tile stacks, scatter and the log. Each is a function of the builtin's context ([`Cx`]) and its
//! evaluated arguments (exactly as many as the row has), named by its row of `builtins!`.

use super::board::place_of;
use super::cx::Cx;
use super::query::chips_in;
use super::R;
use crate::game::Fault;
use crate::game::{Ctx, Trigger};
use crate::ir::{Face, Place as IrPlace, Value};
use crate::state::{FollowerAt, Place, State, TileStack};

/// The chips a value names: one chip, or the chips of a list.
fn chip_list(cx: &mut Cx, v: Value) -> R<Vec<u16>> {
    Ok(match v {
        Value::Chip(c) => vec![c],
        v => cx
            .elems(v)?
            .into_iter()
            .filter_map(|x| match x {
                Value::Chip(c) => Some(c),
                _ => None,
            })
            .collect(),
    })
}

/// Moves chips one by one; each that enters a player's hand from elsewhere fires `gained` before
/// the next moves.
fn move_chips(cx: &mut Cx, chips: &[u16], to: IrPlace, up: bool) -> R<()> {
    for &c in chips {
        let dest = match to {
            IrPlace::Slots(cell) => match cx.free_slot_mask(cell) {
                0 => {
                    // The map's limit, said with the square (issue 18 C).
                    let (x, y) = cx.st.board.xy(cell);
                    let n = cx.slot_count(cell);
                    let s = if n == 1 { "" } else { "s" };
                    return Err(cx.fail(
                        Fault::NoFreeSlot,
                        format!(
                        "no free slot left on square {x},{y}: the map gives it {n} chip slot{s} \
                         (its `slots` attribute; at most {}), and each holds one chip",
                        crate::map::MAX_SLOTS
                    ),
                    ));
                }
                free => Place::Slot(cell, free.trailing_zeros() as u8),
            },
            p => place_of(p),
        };
        let from = cx.st.chips.get(c as usize).map(|x| x.place);
        cx.st.move_chip(c, dest, up);
        // A gain is a chip that enters a player's hand from elsewhere (as `carto sim` counts
        // chips gained): turning a chip over in its hand gains nothing.
        let listens = cx.listens(Trigger::Gained);
        if let (Place::Hand(p), true, false) = (dest, listens, from == Some(dest)) {
            let ctx = Ctx {
                player: p,
                chip: c,
                ..Ctx::default()
            };
            cx.fire(Trigger::Gained, &ctx)?;
        }
    }
    Ok(())
}

/// `move(chips, to, face)`.
pub(crate) fn move_effect(cx: &mut Cx, a: &[Value]) -> R<()> {
    let chips = chip_list(cx, arg(a, 0))?;
    let Value::Place(to) = arg(a, 1) else {
        return Err(cx.fail(Fault::BadValue, "move needs a place"));
    };
    move_chips(cx, &chips, to, face_up(arg(a, 2)))
}

/// `shuffle(place)`: the supply is the one place kept in an order.
pub(crate) fn shuffle(cx: &mut Cx, a: &[Value]) -> R<()> {
    if let Value::Place(IrPlace::Supply) = arg(a, 0) {
        cx.st.shuffle_supply();
    }
    Ok(())
}

/// `strength(follower, n)`, clamped to 0..=255.
pub(crate) fn strength(cx: &mut Cx, a: &[Value]) -> R<()> {
    if let (Value::Follower(f), Value::Int(s)) = (arg(a, 0), arg(a, 1)) {
        cx.st.set_strength(f, s.clamp(0, 255) as u8);
    }
    Ok(())
}

/// `send(follower, area)`.
pub(crate) fn send(cx: &mut Cx, a: &[Value]) -> R<()> {
    if let (Value::Follower(f), Value::Holding(h)) = (arg(a, 0), arg(a, 1)) {
        cx.st.move_follower(f, FollowerAt::Holding(h as u8));
    }
    Ok(())
}

/// `recall(followers)`: back to their owners' supplies.
pub(crate) fn recall(cx: &mut Cx, a: &[Value]) -> R<()> {
    for v in cx.elems(arg(a, 0))? {
        if let Value::Follower(f) = v {
            cx.st.move_follower(f, FollowerAt::Supply);
        }
    }
    Ok(())
}

/// `extra_turn_for(p)`.
pub(crate) fn extra_turn_for(cx: &mut Cx, a: &[Value]) -> R<()> {
    let p = match arg(a, 0) {
        Value::Player(p) => p,
        _ => cx.st.current,
    };
    cx.st.queue_extra_turn(p);
    Ok(())
}

/// `take_tile(stack)`: its top tile becomes the tile in hand.
pub(crate) fn take_tile(cx: &mut Cx, a: &[Value]) -> R<()> {
    if let Value::Stack(s) = arg(a, 0) {
        if let Some(ty) = cx
            .st
            .tile_stacks
            .get_mut(s as usize)
            .and_then(|k| k.tiles.pop())
        {
            cx.st.current_tile = Some(ty);
        }
    }
    Ok(())
}

/// `log(text)`: a note in the game log.
pub(crate) fn log(cx: &mut Cx, a: &[Value]) -> R<()> {
    if let Value::Str(s) = arg(a, 0) {
        let text = cx.string(s).to_string();
        let who = cx.st.acting();
        cx.st.push(who, crate::state::EvKind::Note(text));
    }
    Ok(())
}

/// `score(who, points)`: adds points to each player named, refusing an overflow.
pub(crate) fn score(cx: &mut Cx, a: &[Value]) -> R<()> {
    let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
    let (who, pts) = (arg(0), arg(1));
    let Value::Int(pts) = pts else {
        return Err(cx.fail(Fault::BadValue, "score needs a number of points"));
    };
    let mask = match who {
        Value::Players(m) => m,
        Value::Player(p) => 1 << (p & 7),
        _ => 0,
    };
    for p in 0..cx.st.players.len() as u8 {
        if mask & (1 << p) == 0 {
            continue;
        }
        let have = cx.st.players[p as usize].score;
        if have.checked_add(pts).is_none() {
            return Err(cx.fail(
                Fault::Overflow,
                format!(
                    "scoring {pts} for {} overflows their score of {have}",
                    cx.st.players[p as usize].name
                ),
            ));
        }
        let rule = cx.running();
        cx.st.score(p, pts, rule);
    }
    Ok(())
}

/// `draw(n, from, to, face)`: moves up to `n` chips, from the top of the supply or at random elsewhere.
pub(crate) fn draw(cx: &mut Cx, a: &[Value]) -> R<()> {
    let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
    let face_up = |v: Value| matches!(v, Value::Face(Face::Up));
    let Value::Int(n) = arg(0) else {
        return Err(cx.fail(Fault::BadValue, "draw needs a count"));
    };
    let (Value::Place(from), Value::Place(to)) = (arg(1), arg(2)) else {
        return Err(cx.fail(Fault::BadValue, "draw needs two places"));
    };
    let mut avail: Vec<u16> = chips_in(cx.st, from)
        .into_iter()
        .filter_map(|v| match v {
            Value::Chip(c) => Some(c),
            _ => None,
        })
        .collect();
    if from != IrPlace::Supply {
        cx.st.rng.shuffle(&mut avail);
    }
    avail.truncate(n.clamp(0, 1000) as usize);
    move_chips(cx, &avail, to, face_up(arg(3)))?;
    Ok(())
}

/// `scatter(chips, squares, apart, face)`: see [`scatter`].
pub(crate) fn scatter_effect(cx: &mut Cx, a: &[Value]) -> R<()> {
    let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
    let face_up = |v: Value| matches!(v, Value::Face(Face::Up));
    let chips = chip_list(cx, arg(0))?;
    // The squares straight from the list (no copy of the list first).
    let squares = |vals: &[Value]| -> Vec<u32> {
        vals.iter()
            .filter_map(|&v| match v {
                Value::Square(c) => Some(c),
                _ => None,
            })
            .collect()
    };
    let mut pool = match arg(1) {
        v @ Value::List(_) => squares(cx.list(v)),
        v => squares(&cx.elems(v)?),
    };
    let apart = matches!(arg(2), Value::Bool(true));
    scatter(cx.st, &chips, &mut pool, apart, face_up(arg(3)));
    Ok(())
}

/// `deal(squares, n)`: a stack of `n` tiles from the draw pile on each square.
pub(crate) fn deal(cx: &mut Cx, a: &[Value]) -> R<()> {
    let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
    let Value::Int(n) = arg(1) else {
        return Err(cx.fail(Fault::BadValue, "deal needs a count"));
    };
    for v in cx.elems(arg(0))? {
        if let Value::Square(c) = v {
            let mut tiles = Vec::new();
            for _ in 0..n.clamp(0, 1000) {
                if let Some(t) = cx.st.stack.pop() {
                    tiles.push(t);
                }
            }
            if cx.st.record {
                let (x, y) = cx.st.board.xy(c);
                let ids: Vec<&str> = tiles
                    .iter()
                    .map(|&t| cx.st.tiles[t as usize].id.as_str())
                    .collect();
                let text = format!(
                    "a stack of {} tiles at {x},{y}, top last: {}",
                    ids.len(),
                    ids.join(" ")
                );
                let who = cx.st.acting();
                cx.st.push(who, crate::state::EvKind::Note(text));
            }
            cx.st.tile_stacks.push(TileStack { cell: c, tiles });
        }
    }
    Ok(())
}

/// Spreads chips over squares at random, one per square; with `apart`, no two orthogonally
/// adjacent. Squares are taken region by region in turn (the map cut into a 3×3 grid of regions)
/// so chips spread evenly instead of clumping. Chips that find no square go aside. `pool` (the
/// squares) is shuffled in place.
fn scatter(st: &mut State, chips: &[u16], pool: &mut [u32], apart: bool, up: bool) {
    st.rng.shuffle(pool);
    // Regions: a 3x3 grid over the squares' bounding box.
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for &c in pool.iter() {
        let (x, y) = st.board.xy(c);
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let region = |st: &State, c: u32| {
        let (x, y) = st.board.xy(c);
        let rx = ((x - x0) * 3 / (x1 - x0 + 1).max(1)).clamp(0, 2);
        let ry = ((y - y0) * 3 / (y1 - y0 + 1).max(1)).clamp(0, 2);
        (ry * 3 + rx) as usize
    };
    // The squares by region, each region in the shuffled order: region `r` is
    // `by_region[start[r]..start[r + 1]]` (a counting sort).
    let regions: Vec<u8> = pool.iter().map(|&c| region(st, c) as u8).collect();
    let mut start = [0usize; 10];
    for &r in &regions {
        start[r as usize + 1] += 1;
    }
    for r in 0..9 {
        start[r + 1] += start[r];
    }
    let mut by_region = vec![0u32; pool.len()];
    let mut fill = start;
    for (&c, &r) in pool.iter().zip(&regions) {
        by_region[fill[r as usize]] = c;
        fill[r as usize] += 1;
    }
    // Squares taken, sorted (a chip is never placed on or, with `apart`, next to one of them).
    let mut taken: Vec<u32> = Vec::with_capacity(chips.len());
    let is_taken = |taken: &[u32], c: u32| taken.binary_search(&c).is_ok();
    let mut chip_i = 0;
    let mut cursor = start;
    'outer: while chip_i < chips.len() {
        let mut progressed = false;
        for r in 0..9 {
            if chip_i >= chips.len() {
                break 'outer;
            }
            while cursor[r] < start[r + 1] {
                let c = by_region[cursor[r]];
                cursor[r] += 1;
                let blocked = apart && (0..4).any(|s| is_taken(&taken, st.board.neighbour(c, s)));
                if !blocked && !is_taken(&taken, c) {
                    if let Err(i) = taken.binary_search(&c) {
                        taken.insert(i, c);
                    }
                    st.move_chip(chips[chip_i], Place::Square(c), up);
                    chip_i += 1;
                    progressed = true;
                    break;
                }
            }
        }
        if !progressed {
            break;
        }
    }
    if chip_i < chips.len() {
        let n = chips.len() - chip_i;
        let who = st.acting();
        st.push(
            who,
            crate::state::EvKind::Note(format!(
                "only {chip_i} of {} chips found a square; {n} put aside",
                chips.len()
            )),
        );
        for &c in &chips[chip_i..] {
            st.move_chip(c, Place::Aside, false);
        }
    }
}

/// Argument `i` of an effect (`Value::Unit` past the last).
fn arg(a: &[Value], i: usize) -> Value {
    a.get(i).copied().unwrap_or(Value::Unit)
}

fn face_up(v: Value) -> bool {
    matches!(v, Value::Face(Face::Up))
}
