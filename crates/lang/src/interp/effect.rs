//! Effect builtins: scoring, moving and drawing chips (firing `gained`), followers, extra turns,
//! tile stacks, scatter and the log.

use super::caches::Event;
use super::{Interp, R};
use crate::builtins::{Builtin, Run};
use crate::game::Fault;
use crate::game::{Ctx, Trigger};
use crate::ir::{Face, Place as IrPlace, Value};
use crate::state::{FollowerAt, Place, State, TileStack};

impl Interp {
    pub(super) fn chip_list(&mut self, v: Value) -> R<Vec<u16>> {
        Ok(match v {
            Value::Chip(c) => vec![c],
            v => self
                .elems(v)?
                .into_iter()
                .filter_map(|x| match x {
                    Value::Chip(c) => Some(c),
                    _ => None,
                })
                .collect(),
        })
    }

    pub(super) fn move_chips(
        &mut self,
        st: &mut State,
        chips: &[u16],
        to: IrPlace,
        up: bool,
    ) -> R<()> {
        for &c in chips {
            let dest = match to {
                IrPlace::Slots(cell) => match self.free_slots(st, cell).first() {
                    Some(&i) => Place::Slot(cell, i),
                    None => {
                        // The map's limit, said with the square (issue 18 C).
                        let (x, y) = st.board.xy(cell);
                        let n = st
                            .board
                            .square
                            .get(cell as usize)
                            .and_then(|&sq| self.memo.slot_counts.get(sq as usize))
                            .copied()
                            .unwrap_or(0);
                        let s = if n == 1 { "" } else { "s" };
                        return Err(self.fail(Fault::NoFreeSlot, format!(
                            "no free slot left on square {x},{y}: the map gives it {n} chip slot{s} \
                             (its `slots` attribute; at most {}), and each holds one chip",
                            crate::map::MAX_SLOTS
                        )));
                    }
                },
                p => self.place(p),
            };
            let from = st.chips.get(c as usize).map(|x| x.place);
            st.move_chip(c, dest, up);
            // A gain is a chip that enters a player's hand from elsewhere (as `carto sim` counts
            // chips gained): turning a chip over in its hand gains nothing.
            let listens = self.prep.listens[Trigger::Gained as usize];
            if let (Place::Hand(p), true, false) = (dest, listens, from == Some(dest)) {
                let ctx = Ctx {
                    player: p,
                    chip: c,
                    ..Ctx::default()
                };
                let saved = self.current;
                self.depth += 1;
                let r = self.fire_inner(st, Trigger::Gained, &ctx);
                self.depth -= 1;
                self.current = saved;
                r?;
            }
        }
        Ok(())
    }

    /// Runs an effect builtin on its evaluated arguments: its row's implementation
    /// (`builtins::Run`).
    pub(super) fn effect(&mut self, st: &mut State, b: Builtin, a: &[Value]) -> R<()> {
        // A score changes no fact of the board, so the facts the engine gave a `scored` rule hold
        // on (the agents' read-only valuation relies on it: `agent::points`).
        self.caches.invalidate(if b.scores_only() {
            Event::PointsScored
        } else {
            Event::BoardChanged
        });
        match b.run() {
            Run::Effect(run) => run(self, st, a),
            Run::Query(_) => Err(self.fail(
                Fault::BadValue,
                format!("`{}` is not an effect", b.info().name),
            )),
        }
    }

    /// `move(chips, to, face)`.
    pub(crate) fn move_effect(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        let chips = self.chip_list(arg(a, 0))?;
        let Value::Place(to) = arg(a, 1) else {
            return Err(self.fail(Fault::BadValue, "move needs a place"));
        };
        self.move_chips(st, &chips, to, face_up(arg(a, 2)))
    }

    /// `shuffle(place)`: the supply is the one place kept in an order.
    pub(crate) fn shuffle(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        if let Value::Place(IrPlace::Supply) = arg(a, 0) {
            st.shuffle_supply();
        }
        Ok(())
    }

    /// `strength(follower, n)`, clamped to 0..=255.
    pub(crate) fn strength(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        if let (Value::Follower(f), Value::Int(s)) = (arg(a, 0), arg(a, 1)) {
            st.set_strength(f, s.clamp(0, 255) as u8);
        }
        Ok(())
    }

    /// `send(follower, area)`.
    pub(crate) fn send(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        if let (Value::Follower(f), Value::Holding(h)) = (arg(a, 0), arg(a, 1)) {
            st.move_follower(f, FollowerAt::Holding(h as u8));
        }
        Ok(())
    }

    /// `recall(followers)`: back to their owners' supplies.
    pub(crate) fn recall(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        for v in self.elems(arg(a, 0))? {
            if let Value::Follower(f) = v {
                st.move_follower(f, FollowerAt::Supply);
            }
        }
        Ok(())
    }

    /// `extra_turn_for(p)`.
    pub(crate) fn extra_turn_for(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        let p = match arg(a, 0) {
            Value::Player(p) => p,
            _ => st.current,
        };
        st.queue_extra_turn(p);
        Ok(())
    }

    /// `take_tile(stack)`: its top tile becomes the tile in hand.
    pub(crate) fn take_tile(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        if let Value::Stack(s) = arg(a, 0) {
            if let Some(ty) = st
                .tile_stacks
                .get_mut(s as usize)
                .and_then(|k| k.tiles.pop())
            {
                st.current_tile = Some(ty);
            }
        }
        Ok(())
    }

    /// `log(text)`: a note in the game log.
    pub(crate) fn log(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        if let Value::Str(s) = arg(a, 0) {
            let text = self
                .run
                .strings
                .get(s as usize)
                .cloned()
                .unwrap_or_default();
            let who = st.acting();
            st.push(who, crate::state::EvKind::Note(text));
        }
        Ok(())
    }

    /// `score(who, points)`: adds points to each player named, refusing an overflow.
    pub(crate) fn score(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
        let (who, pts) = (arg(0), arg(1));
        let Value::Int(pts) = pts else {
            return Err(self.fail(Fault::BadValue, "score needs a number of points"));
        };
        let mask = match who {
            Value::Players(m) => m,
            Value::Player(p) => 1 << (p & 7),
            _ => 0,
        };
        for p in 0..st.players.len() as u8 {
            if mask & (1 << p) == 0 {
                continue;
            }
            let have = st.players[p as usize].score;
            if have.checked_add(pts).is_none() {
                return Err(self.fail(
                    Fault::Overflow,
                    format!(
                        "scoring {pts} for {} overflows their score of {have}",
                        st.players[p as usize].name
                    ),
                ));
            }
            st.score(p, pts, self.current);
        }
        Ok(())
    }

    /// `draw(n, from, to, face)`: moves up to `n` chips, from the top of the supply or at random elsewhere.
    pub(crate) fn draw(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
        let face_up = |v: Value| matches!(v, Value::Face(Face::Up));
        let Value::Int(n) = arg(0) else {
            return Err(self.fail(Fault::BadValue, "draw needs a count"));
        };
        let (Value::Place(from), Value::Place(to)) = (arg(1), arg(2)) else {
            return Err(self.fail(Fault::BadValue, "draw needs two places"));
        };
        let mut avail: Vec<u16> = self
            .chips_in(st, from)
            .into_iter()
            .filter_map(|v| match v {
                Value::Chip(c) => Some(c),
                _ => None,
            })
            .collect();
        if from != IrPlace::Supply {
            st.rng.shuffle(&mut avail);
        }
        avail.truncate(n.clamp(0, 1000) as usize);
        self.move_chips(st, &avail, to, face_up(arg(3)))?;
        Ok(())
    }

    /// `scatter(chips, squares, apart, face)`: see [`Self::scatter`].
    pub(crate) fn scatter_effect(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
        let face_up = |v: Value| matches!(v, Value::Face(Face::Up));
        let chips = self.chip_list(arg(0))?;
        // The squares straight from the list (no copy of the list first).
        let mut pool: Vec<u32> = match arg(1) {
            Value::List(l) => self.lists[l as usize]
                .iter()
                .filter_map(|&v| match v {
                    Value::Square(c) => Some(c),
                    _ => None,
                })
                .collect(),
            v => self
                .elems(v)?
                .into_iter()
                .filter_map(|v| match v {
                    Value::Square(c) => Some(c),
                    _ => None,
                })
                .collect(),
        };
        let apart = matches!(arg(2), Value::Bool(true));
        self.scatter(st, &chips, &mut pool, apart, face_up(arg(3)));
        Ok(())
    }

    /// `deal(squares, n)`: a stack of `n` tiles from the draw pile on each square.
    pub(crate) fn deal(&mut self, st: &mut State, a: &[Value]) -> R<()> {
        let arg = |i: usize| a.get(i).copied().unwrap_or(Value::Unit);
        let Value::Int(n) = arg(1) else {
            return Err(self.fail(Fault::BadValue, "deal needs a count"));
        };
        for v in self.elems(arg(0))? {
            if let Value::Square(c) = v {
                let mut tiles = Vec::new();
                for _ in 0..n.clamp(0, 1000) {
                    if let Some(t) = st.stack.pop() {
                        tiles.push(t);
                    }
                }
                if st.record {
                    let (x, y) = st.board.xy(c);
                    let ids: Vec<&str> = tiles
                        .iter()
                        .map(|&t| st.tiles[t as usize].id.as_str())
                        .collect();
                    let text = format!(
                        "a stack of {} tiles at {x},{y}, top last: {}",
                        ids.len(),
                        ids.join(" ")
                    );
                    let who = st.acting();
                    st.push(who, crate::state::EvKind::Note(text));
                }
                st.tile_stacks.push(TileStack { cell: c, tiles });
            }
        }
        Ok(())
    }

    /// Spreads chips over squares at random, one per square; with `apart`, no two orthogonally
    /// adjacent. Squares are taken region by region in turn (the map cut into a 3×3 grid of regions)
    /// so chips spread evenly instead of clumping. Chips that find no square go aside. `pool` (the
    /// squares) is shuffled in place.
    pub(super) fn scatter(
        &mut self,
        st: &mut State,
        chips: &[u16],
        pool: &mut [u32],
        apart: bool,
        up: bool,
    ) {
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
                    let blocked =
                        apart && (0..4).any(|s| is_taken(&taken, st.board.neighbour(c, s)));
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
}

/// Argument `i` of an effect (`Value::Unit` past the last).
fn arg(a: &[Value], i: usize) -> Value {
    a.get(i).copied().unwrap_or(Value::Unit)
}

fn face_up(v: Value) -> bool {
    matches!(v, Value::Face(Face::Up))
}
