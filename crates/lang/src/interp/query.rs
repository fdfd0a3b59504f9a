//! Query builtins: places, chips in a place, squares (all, by attribute, with slots, neighbours),
//! players, followers, stacks, list helpers and turn facts.

use super::{Interp, R};
use crate::builtins::{Builtin, Field, Run};
use crate::features::NONE;
use crate::game::Fault;
use crate::ir::{Place as IrPlace, Value};
use crate::map::AttrValue;
use crate::state::{FollowerAt, Place, State};

impl Interp {
    pub(super) fn free_slots(&self, st: &State, cell: u32) -> Vec<u8> {
        let free = self.free_slot_mask(st, cell);
        (0..16).filter(|&i| free & (1 << i) != 0).collect()
    }

    /// The free slots of a square as bits (slot `i` is bit `i`): none on a covered square; a slot
    /// is free when no chip lies in it. One pass over the chips, nothing allocated.
    pub(crate) fn free_slot_mask(&self, st: &State, cell: u32) -> u16 {
        let n = st
            .board
            .square
            .get(cell as usize)
            .and_then(|&sq| self.memo.slot_counts.get(sq as usize))
            .copied()
            .unwrap_or(0)
            .min(16);
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

    pub(super) fn place(&self, p: IrPlace) -> Place {
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

    pub(super) fn chips_in(&self, st: &State, p: IrPlace) -> Vec<Value> {
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
                st.chips_at(self.place(p), &mut ids);
                out.extend(ids.into_iter().map(Value::Chip));
            }
        }
        out
    }

    /// A builtin on its evaluated arguments (`n` of them): its row's implementation
    /// (`builtins::Run`).
    #[inline]
    pub(super) fn call_values(
        &mut self,
        st: &mut State,
        b: Builtin,
        a: &[Value; 4],
        n: usize,
    ) -> R<Value> {
        match b.run() {
            Run::Query(q) => q(self, st, a),
            // Effects used as expressions do their work and yield nothing.
            Run::Effect(_) => {
                self.effect(st, b, &a[..n.min(4)])?;
                Ok(Value::Unit)
            }
        }
    }

    /// `len(v.chips)` for an evaluated `v`.
    pub(super) fn count_square_chips(&mut self, st: &mut State, v: Value) -> R<usize> {
        self.tick()?;
        if let Value::Square(c) = v {
            if let Some(n) = st.chip_count(Place::Square(c)) {
                return Ok(n);
            }
        }
        let listed = self.field(st, v, Field::SquareChips)?;
        self.len_of(listed)
    }

    /// `len(chips(v))` for an evaluated place `v`.
    pub(super) fn count_place_chips(&mut self, st: &State, v: Value) -> R<usize> {
        self.tick()?;
        if let Value::Place(ir) = v {
            if !matches!(ir, IrPlace::Slots(_)) {
                if let Some(n) = st.chip_count(self.place(ir)) {
                    return Ok(n);
                }
            }
        }
        let listed = self.chips_query(st, v);
        self.len_of(listed)
    }

    /// The chips in a place, in the place's order (the supply from its top).
    pub(crate) fn chips_query(&mut self, st: &State, place: Value) -> Value {
        match place {
            Value::Place(IrPlace::Slots(c)) => {
                let v = self.chips_in(st, IrPlace::Slots(c));
                self.list_of(v)
            }
            // Other places are filled straight into the arena (this runs in many `when`s).
            Value::Place(p) => {
                let place = self.place(p);
                let i = self.new_list();
                // An empty place the state counts (a square, a hand) is known without a search.
                if place != Place::Supply && st.chip_count(place) == Some(0) {
                    return Value::List(i);
                }
                let out = &mut self.lists[i as usize];
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
                Value::List(i)
            }
            _ => self.list_of([]),
        }
    }

    /// `squares()`: every square of the map.
    pub(crate) fn all_squares_query(&mut self) -> Value {
        self.budget.spend(self.memo.all_squares.len() as u64 / 8);
        let l = self.new_list();
        self.lists[l as usize].extend_from_slice(&self.memo.all_squares);
        Value::List(l)
    }

    /// `slot_squares()`: the squares with chip slots.
    pub(crate) fn slot_squares_query(&mut self) -> Value {
        let l = self.new_list();
        self.lists[l as usize].extend_from_slice(&self.memo.slot_squares);
        Value::List(l)
    }

    /// `squares_with(attribute, value)`: indexed on first use.
    pub(crate) fn squares_with(&mut self, st: &mut State, a: &[Value; 4]) -> R<Value> {
        let Value::Str(name) = a[0] else {
            return Err(self.fail(Fault::BadValue, "squares_with needs an attribute name"));
        };
        let i = match self.caches.attr_index.find(name, a[1]) {
            Some(i) => {
                if self.checking() {
                    let fresh = self.index_attr(st, name, a[1])?;
                    let cached = self.caches.attr_index.squares(i);
                    if cached != fresh.as_slice() {
                        super::caches::stale("squares_with", self.name(), &cached, &fresh);
                    }
                }
                i
            }
            None => {
                let cells = self.index_attr(st, name, a[1])?;
                self.caches.attr_index.add(name, a[1], cells)
            }
        };
        self.budget
            .spend(self.caches.attr_index.squares(i).len() as u64 / 8);
        let l = self.new_list();
        self.lists[l as usize].extend_from_slice(self.caches.attr_index.squares(i));
        Ok(Value::List(l))
    }

    /// `neighbours(square)`: the map squares next to it.
    pub(crate) fn neighbours(&mut self, st: &State, a0: Value) -> Value {
        let mut v = Vec::new();
        if let Value::Square(c) = a0 {
            for s in 0..4 {
                let n = st.board.neighbour(c, s);
                if st.board.square.get(n as usize).is_some_and(|&q| q != NONE) {
                    v.push(Value::Square(n));
                }
            }
        }
        self.list_of(v)
    }

    /// `near(squares)`: the map squares next to any of them, each once.
    pub(crate) fn near(&mut self, st: &State, a0: Value) -> R<Value> {
        let mut v: Vec<Value> = Vec::new();
        for k in 0..self.len_of(a0)? {
            if let Value::Square(c) = self.elem_at(a0, k) {
                for side in 0..4 {
                    let n = st.board.neighbour(c, side);
                    let sq = Value::Square(n);
                    if st.board.square.get(n as usize).is_some_and(|&q| q != NONE)
                        && !v.contains(&sq)
                    {
                        v.push(sq);
                    }
                }
            }
        }
        self.tick()?;
        Ok(self.list_of(v))
    }

    /// `players_from(p)`: every player in turn order from `p`.
    pub(crate) fn players_from(&mut self, st: &State, a0: Value) -> Value {
        let n = st.players.len().max(1) as u8;
        let from = Self::player_of(a0) % n;
        self.list_of((0..n).map(|k| Value::Player((from + k) % n)))
    }

    /// A player's followers on the board (`on_board`) or in their supply.
    pub(crate) fn followers_of(&mut self, st: &State, a0: Value, on_board: bool) -> Value {
        let p = Self::player_of(a0);
        let l = self.new_list();
        self.lists[l as usize].extend(
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
        );
        Value::List(l)
    }

    /// `held(area)`: the followers in a holding area.
    pub(crate) fn held(&mut self, st: &State, a0: Value) -> Value {
        let h = match a0 {
            Value::Holding(h) => h as u8,
            _ => 0,
        };
        let l = self.new_list();
        self.lists[l as usize].extend(
            (0..st.followers.len())
                .filter(|&f| st.followers[f].at == FollowerAt::Holding(h))
                .map(|f| Value::Follower(f as u16)),
        );
        Value::List(l)
    }

    /// `stacks()`: the tile stacks with tiles left.
    pub(crate) fn stacks(&mut self, st: &State) -> Value {
        let l = self.new_list();
        self.lists[l as usize].extend(
            (0..st.tile_stacks.len())
                .filter(|&s| !st.tile_stacks[s].tiles.is_empty())
                .map(|s| Value::Stack(s as u16)),
        );
        Value::List(l)
    }

    /// `colours()`: the chip colours.
    pub(crate) fn colours(&mut self) -> Value {
        let n = self.prog.colours.len() as u8;
        self.list_of((0..n).map(Value::Colour))
    }

    /// `has(square, attr)`: whether the map gives the square that attribute.
    pub(crate) fn has_attr(&self, st: &State, square: Value, attr: Value) -> R<Value> {
        let (Value::Square(c), Value::Str(name)) = (square, attr) else {
            return Err(self.fail(
                Fault::BadValue,
                "`has` needs a square and an attribute name",
            ));
        };
        let name = self
            .run
            .strings
            .get(name as usize)
            .map(String::as_str)
            .unwrap_or("");
        Ok(Value::Bool(
            self.map_square(st, c)
                .is_some_and(|sq| sq.attrs.contains_key(name)),
        ))
    }

    /// `first(list)`, read in place: the list is not copied.
    pub(crate) fn first(&self, list: Value) -> R<Value> {
        match self.len_of(list)? {
            0 => Err(self.fail(Fault::NoSuchElement, "`first` of an empty list")),
            _ => Ok(self.elem_at(list, 0)),
        }
    }

    /// `contains(list, x)`.
    pub(crate) fn contains(&self, list: Value, x: Value) -> R<Value> {
        let n = self.len_of(list)?;
        let found = match list {
            Value::List(l) => match plain_key(x) {
                // A piece or a number equals only the same value: compared in a tight loop.
                Some(key) => self.lists[l as usize]
                    .iter()
                    .any(|&y| plain_key(y) == Some(key)),
                None => self.lists[l as usize]
                    .iter()
                    .any(|&y| self.values_equal(y, x)),
            },
            v => (0..n).any(|k| self.values_equal(self.elem_at(v, k), x)),
        };
        Ok(Value::Bool(found))
    }

    /// `take(list, k)`: its first `k` elements.
    pub(crate) fn take(&mut self, list: Value, k: Value) -> R<Value> {
        let Value::Int(k) = k else {
            return Err(self.fail(Fault::BadValue, "`take` needs a number"));
        };
        let n = self.len_of(list)?;
        let k = usize::try_from(k).unwrap_or(0).min(n);
        let l = self.new_list();
        for i in 0..k {
            let v = self.elem_at(list, i);
            self.lists[l as usize].push(v);
        }
        Ok(Value::List(l))
    }

    /// `min(a, b)` and `max(a, b)`: `pick` of two numbers.
    pub(crate) fn ints2(&self, a: &[Value; 4], pick: fn(i64, i64) -> i64) -> R<Value> {
        match (a[0], a[1]) {
            (Value::Int(x), Value::Int(y)) => Ok(Value::Int(pick(x, y))),
            _ => Err(self.fail(Fault::BadValue, "`min`/`max` need numbers")),
        }
    }

    /// `placeable(stack)`: whether the stack's top tile has a legal placement now.
    pub(crate) fn placeable(&self, st: &State, a0: Value) -> Value {
        Value::Bool(match a0 {
            Value::Stack(s) => st
                .tile_stacks
                .get(s as usize)
                .and_then(|k| k.tiles.last())
                .is_some_and(|&ty| st.board.has_placement(&st.tiles[ty as usize])),
            _ => false,
        })
    }

    /// The player a value names (player 0 for anything else).
    pub(crate) fn player_of(v: Value) -> u8 {
        match v {
            Value::Player(p) => p,
            _ => 0,
        }
    }

    /// The squares whose map attribute `name` (a string index) equals `want`, in map order.
    pub(super) fn index_attr(&self, st: &State, name: u32, want: Value) -> R<Vec<Value>> {
        let name = self
            .run
            .strings
            .get(name as usize)
            .cloned()
            .unwrap_or_default();
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

    pub(crate) fn connects_abroad(&self, st: &State, t: u32) -> bool {
        let (Some(map), Some(p)) = (&self.memo.map, st.board.placed.get(t as usize)) else {
            return false;
        };
        let (x, y) = st.board.xy(p.cell);
        let tile = &st.tiles[p.ty as usize];
        map.exits
            .iter()
            .any(|e| e.at == (x, y) && tile.edge(p.rot as usize, e.side as usize) == e.feature)
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
