//! [`Cx`]: all that a builtin's implementation is given. A row of `builtins!` or `fields!`
//! (`crate::builtins`) runs as a function of a `Cx` and its arguments, never of the interpreter:
//! it reads and changes the game ([`Cx::st`]) and asks the interpreter, through the methods here
//! and nothing else, for the services a builtin needs:
//! - the lists it builds or reads (the interpreter's list arena);
//! - the operation budget, and an error of the running rule with its code ([`Cx::fail`]);
//! - the program and the map, read only;
//! - the values the interpreter keeps for later reads (a feature's facts, the squares of a map
//!   attribute), and the strings it knows;
//! - the rules a change fires ([`Cx::fire`]).
//!
//! The interpreter's offers, asks, frame, lowered code and analyses are out of its reach: the field
//! that holds the interpreter is private to this module, so a builtin that wants more than this is
//! a compile error until a service is added here, where the next reader sees it.

use super::{Interp, R};
use crate::game::{Ctx, Fault, GameError, Trigger};
use crate::ir::{Program, Value};
use crate::map::MapBoard;
use crate::state::{FeatureInfo, State};

/// The context a builtin runs in: the game's state, and the interpreter's services.
pub struct Cx<'a> {
    me: &'a mut Interp,
    /// The game: a query reads it, an effect changes it.
    pub(crate) st: &'a mut State,
}

impl<'a> Cx<'a> {
    /// The context of a builtin the interpreter calls on `st`.
    #[inline(always)]
    pub(super) fn new(me: &'a mut Interp, st: &'a mut State) -> Cx<'a> {
        Cx { me, st }
    }

    // ---- errors and the budget

    /// An error of kind `fault` of the rule, action or setup block running (placed in the rules by
    /// the statement or expression it comes through).
    #[cold]
    pub(crate) fn fail(&self, fault: Fault, message: impl Into<String>) -> Box<GameError> {
        self.me.fail(fault, message)
    }

    /// The error of a field read from a value of another type (the checker rules it out).
    #[cold]
    pub(crate) fn no_field(&self, v: Value) -> Box<GameError> {
        self.me.no_field(v)
    }

    /// One operation of the turn's budget.
    #[inline]
    pub(crate) fn tick(&mut self) -> R<()> {
        self.me.tick()
    }

    // ---- lists

    /// A new, empty list of the arena: its index.
    #[inline]
    pub(crate) fn new_list(&mut self) -> u32 {
        self.me.new_list()
    }

    /// A list of `vals`.
    #[inline]
    pub(crate) fn list_of(&mut self, vals: impl IntoIterator<Item = Value>) -> Value {
        self.me.list_of(vals)
    }

    /// A new list filled by `fill` from the game, without a copy in between.
    #[inline]
    pub(crate) fn fill(&mut self, fill: impl FnOnce(&State, &mut Vec<Value>)) -> Value {
        let l = self.me.new_list();
        fill(self.st, self.me.list_mut(l));
        Value::List(l)
    }

    /// List `l` of the arena, to add to.
    #[inline]
    pub(crate) fn list_mut(&mut self, l: u32) -> &mut Vec<Value> {
        self.me.list_mut(l)
    }

    /// The elements of list value `l` (empty for any other value).
    #[inline]
    pub(crate) fn list(&self, v: Value) -> &[Value] {
        self.me.list(v)
    }

    /// The elements of a list, range or player set, as a new vector.
    pub(crate) fn elems(&mut self, v: Value) -> R<Vec<Value>> {
        self.me.elems(v)
    }

    /// The number of elements of a list, range or player set.
    #[inline]
    pub(crate) fn len_of(&self, v: Value) -> R<usize> {
        self.me.len_of(v)
    }

    /// Element `k` of a list, range or player set.
    #[inline]
    pub(crate) fn elem_at(&self, v: Value, k: usize) -> Value {
        self.me.elem_at(v, k)
    }

    /// Whether two values are equal as the rules compare them (`==`).
    #[inline]
    pub(crate) fn values_equal(&self, x: Value, y: Value) -> bool {
        self.me.values_equal(x, y)
    }

    // ---- the program, the map and strings

    /// The program running (its colours, states, tile names: read only).
    #[inline]
    pub(crate) fn prog(&self) -> &Program {
        self.me.program()
    }

    /// The map of the game, if any (the endless table has none).
    #[inline]
    pub(crate) fn map(&self) -> Option<&MapBoard> {
        self.me.memo.map.as_deref()
    }

    /// The map square on board cell `cell`, if the map has one there.
    #[inline]
    pub(crate) fn map_square(&self, cell: u32) -> Option<&crate::map::Square> {
        self.me.map_square(self.st, cell)
    }

    /// `squares()`: every square of the map, as a new list (its length counted against the
    /// budget, an eighth of an operation a square).
    pub(crate) fn all_squares(&mut self) -> Value {
        let me = &mut *self.me;
        me.budget.spend(me.memo.all_squares.len() as u64 / 8);
        let l = me.lists.new_list();
        me.lists[l as usize].extend_from_slice(&me.memo.all_squares);
        Value::List(l)
    }

    /// `slot_squares()`: the squares with chip slots, in map order, as a new list.
    pub(crate) fn slot_squares(&mut self) -> Value {
        let me = &mut *self.me;
        let l = me.lists.new_list();
        me.lists[l as usize].extend_from_slice(&me.memo.slot_squares);
        Value::List(l)
    }

    /// The chip slots the map gives board cell `cell` (0 for none).
    #[inline]
    pub(crate) fn slot_count(&self, cell: u32) -> u8 {
        self.me.slot_count(self.st, cell)
    }

    /// The free chip slots of board cell `cell` as bits (slot `i` is bit `i`): none on a covered
    /// square.
    #[inline]
    pub(crate) fn free_slot_mask(&self, cell: u32) -> u16 {
        self.me.free_slot_mask(self.st, cell)
    }

    /// The string a string value names ("" for an unknown one).
    #[inline]
    pub(crate) fn string(&self, s: u32) -> &str {
        self.me.string(s)
    }

    /// The string value of `text` (known from now on).
    pub(crate) fn intern(&mut self, text: &str) -> u32 {
        self.me.intern(text)
    }

    // ---- what the interpreter keeps for later reads

    /// The facts of the feature whose root is `root` (kept until the board changes).
    #[inline]
    pub(crate) fn feature(&mut self, root: u32) -> FeatureInfo {
        self.me.feature(self.st, root)
    }

    /// The squares whose map attribute named by string `name` has the value `want`, in map order,
    /// as a new list: found once per game, then kept.
    pub(crate) fn squares_with(&mut self, name: u32, want: Value) -> R<Value> {
        let i = self.me.squares_with_index(self.st, name, want)?;
        let me = &mut *self.me;
        let found = me.caches.attr_index.squares(i);
        me.budget.spend(found.len() as u64 / 8);
        let l = me.lists.new_list();
        me.lists[l as usize].extend_from_slice(found);
        Ok(Value::List(l))
    }

    /// The tile type of a tile value: placed, or the tile drawn this turn (the next to be placed).
    pub(crate) fn tile_type(&self, v: Value) -> R<usize> {
        self.me.tile_type_of(self.st, v)
    }

    /// A true/false field of a square, as the executor reads it in place.
    #[inline]
    pub(crate) fn square_flag(&self, cell: u32, flag: super::SquareFlag) -> bool {
        self.me.square_flag(self.st, cell, flag)
    }

    // ---- what a change sets off

    /// The rule or action running (scores are logged under it).
    #[inline]
    pub(crate) fn running(&self) -> u16 {
        self.me.current
    }

    /// Whether any rule listens to `t` (when none does, firing it does nothing).
    #[inline]
    pub(crate) fn listens(&self, t: Trigger) -> bool {
        self.me.prep.listens[t as usize]
    }

    /// Fires trigger `t` with the values in `ctx` from inside the running builtin: its rules run
    /// now, one level deeper, and the running rule goes on after them.
    pub(crate) fn fire(&mut self, t: Trigger, ctx: &Ctx) -> R<()> {
        let saved = self.me.current;
        self.me.depth += 1;
        let r = self.me.fire_inner(self.st, t, ctx);
        self.me.depth -= 1;
        self.me.current = saved;
        r
    }
}
