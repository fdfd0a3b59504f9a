//! The tables the checker resolves names against: types, builtins (queries and effects), triggers and
//! what they bind, fields per type, header keys, action phases and limits.
//!
//! Growing the language usually means adding a row here (and its meaning in the interpreter).

use std::fmt;

/// The base of a type; a [`Ty`] is a base or a list of a base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    Int,
    Bool,
    Str,
    Colour,
    Kind,
    Player,
    /// A set of players (`feature.winners`); a single player converts to it.
    Players,
    Chip,
    Square,
    Follower,
    Feature,
    Tile,
    /// Where chips can be: `supply`, `aside`, `box`, `hand(p)`, `at(s)`, `slots(s)`, `under(f)`, `holding(h)`.
    Place,
    Stack,
    Face,
    /// A constant map from int to int.
    Table,
    /// A named holding area (declared with `holding NAME`).
    Holding,
    /// `a..b`, both ends included.
    Range,
    /// A value the rules keep (`state NAME …`), named as a place to set: `season`, `player.bid`.
    State,
    /// Not known statically (a map attribute when no map is known); accepted everywhere.
    Any,
    /// No value (the result of an effect).
    Unit,
}

impl Base {
    pub const NAMED: [(&'static str, Base); 18] = [
        ("int", Base::Int),
        ("bool", Base::Bool),
        ("string", Base::Str),
        ("colour", Base::Colour),
        ("kind", Base::Kind),
        ("player", Base::Player),
        ("players", Base::Players),
        ("chip", Base::Chip),
        ("square", Base::Square),
        ("follower", Base::Follower),
        ("feature", Base::Feature),
        ("tile", Base::Tile),
        ("place", Base::Place),
        ("stack", Base::Stack),
        ("face", Base::Face),
        ("table", Base::Table),
        ("holding", Base::Holding),
        ("range", Base::Range),
    ];
    pub fn name(self) -> &'static str {
        match self {
            Base::Any => "any",
            Base::Unit => "nothing",
            Base::State => "state",
            b => Base::NAMED
                .iter()
                .find(|(_, x)| *x == b)
                .map_or("?", |(n, _)| n),
        }
    }
    pub(crate) fn from_name(s: &str) -> Option<Base> {
        Base::NAMED.iter().find(|(n, _)| *n == s).map(|(_, b)| *b)
    }
}

/// A static type: a base, or a list of a base (lists of lists do not exist).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ty {
    pub base: Base,
    pub list: bool,
}

impl Ty {
    pub const fn of(base: Base) -> Ty {
        Ty { base, list: false }
    }
    pub const fn list(base: Base) -> Ty {
        Ty { base, list: true }
    }
    pub const INT: Ty = Ty::of(Base::Int);
    pub const BOOL: Ty = Ty::of(Base::Bool);
    pub const STR: Ty = Ty::of(Base::Str);
    pub const ANY: Ty = Ty::of(Base::Any);
    pub const UNIT: Ty = Ty::of(Base::Unit);
    pub fn is_any(self) -> bool {
        self.base == Base::Any && !self.list
    }
    /// Whether a value of type `found` may be used where `self` is expected.
    pub fn accepts(self, found: Ty) -> bool {
        if self.is_any() || found.is_any() || self == found {
            return true;
        }
        if self.list && found.list {
            return self.base == Base::Any || found.base == Base::Any || self.base == found.base;
        }
        if self.list && !found.list && found.base == Base::Players {
            // A set of players is a list of players, in turn order.
            return matches!(self.base, Base::Any | Base::Player);
        }
        !self.list && !found.list && self.base == Base::Players && found.base == Base::Player
    }
    /// The element type when iterating (`for`, aggregates): lists, ranges and player sets.
    pub(crate) fn elem(self) -> Option<Ty> {
        if self.list {
            Some(Ty::of(self.base))
        } else if self.base == Base::Players {
            Some(Ty::of(Base::Player))
        } else if self.base == Base::Range {
            Some(Ty::INT)
        } else if self.base == Base::Any {
            Some(Ty::ANY)
        } else {
            None
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.list {
            write!(f, "list<{}>", self.base.name())
        } else {
            f.write_str(self.base.name())
        }
    }
}

/// A builtin parameter's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PTy {
    T(Ty),
    /// Any list (or range).
    AnyList,
    /// One chip or a list of chips.
    ChipOrChips,
    /// A value of the element type of the first argument.
    ElemOfFirst,
    /// A value the rules keep (`state NAME …`), written as it is read (`season`, `player.bid`);
    /// `true`: a counter (an int), not a flag.
    State(bool),
    /// A value of the type of the state named by the first argument.
    OfState,
}

impl fmt::Display for PTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PTy::T(t) => write!(f, "{t}"),
            PTy::AnyList => f.write_str("list"),
            PTy::ChipOrChips => f.write_str("chip | list<chip>"),
            PTy::ElemOfFirst => f.write_str("element"),
            PTy::State(false) => f.write_str("state"),
            PTy::State(true) => f.write_str("int state"),
            PTy::OfState => f.write_str("value"),
        }
    }
}

/// A builtin's result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RTy {
    T(Ty),
    /// The element type of the first argument (`first(list)`).
    ElemOfFirst,
    /// The type of the first argument (`take(list, k)`).
    First,
}

/// The kind of holding area a builtin takes (its row's `holding` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holding {
    /// A shared area, named alone (`holding(NAME)`): one of a player's needs the player.
    Shared,
    /// An area per player, named with its player (`holding_of(bid, p)`).
    PerPlayer,
    /// A shared area, for followers (an area per player holds chips only).
    Followers,
}

/// The row's `holding` column, if it has one.
const fn holding_kind(given: &[Holding]) -> Option<Holding> {
    match given {
        [h] => Some(*h),
        _ => None,
    }
}

macro_rules! builtins {
    ($( $v:ident $name:literal ( $( $pn:literal : $pt:expr ),* ) -> $ret:expr, $run:expr,
        reads $reads:expr, static $stat:expr, pure $pure:expr, role $role:expr,
        $doc:literal, $phrase:literal $(, not $neg:literal)? $(, holding $hold:ident)?
        $(, example $ex:literal)?; )*) => {
        // A row takes at most `MAX_PARAMS` arguments (the interpreter evaluates a query's into an
        // array of that many): a longer row does not compile.
        $(const _: () = {
            const PARAMS: &[&str] = &[$($pn),*];
            assert!(PARAMS.len() <= MAX_PARAMS, concat!("builtin `", $name, "` takes more than MAX_PARAMS arguments"));
        };)*

        /// Every query and effect a rule can call.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Builtin { $($v),* }

        impl Builtin {
            pub const ALL: &'static [Builtin] = &[$(Builtin::$v),*];
            pub fn info(self) -> BuiltinInfo {
                match self {
                    $(Builtin::$v => BuiltinInfo {
                        name: $name,
                        params: const { &[$(($pn, $pt)),*] },
                        ret: $ret,
                        effect: matches!(self.run(), Run::Effect(_)),
                        doc: $doc,
                        phrase: $phrase,
                        negated: concat!("" $(, $neg)?),
                        holding: holding_kind(&[$(Holding::$hold)?]),
                        example: concat!("" $(, $ex)?),
                        reads: $reads,
                        stat: $stat,
                        pure: $pure,
                        role: $role,
                    },)*
                }
            }
            /// What the analyses know it to be (its row's `role` column).
            #[inline]
            pub fn role(self) -> Role {
                match self {
                    $(Builtin::$v => $role,)*
                }
            }
            /// What running it does: the interpreter calls this on its evaluated arguments.
            #[inline]
            pub fn run(self) -> Run {
                match self {
                    $(Builtin::$v => $run,)*
                }
            }
        }
    };
}

/// A builtin's signature, documentation, phrase, and what the interpreter and the agents may assume
/// of it: one row of the `builtins!` table.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinInfo {
    pub name: &'static str,
    pub params: &'static [(&'static str, PTy)],
    pub ret: RTy,
    /// An effect (a statement that changes the game) rather than a query (an expression).
    pub effect: bool,
    pub doc: &'static str,
    /// Its English phrase for the rule pages (`carto doc`; templates: see `lang::phrases`).
    pub(crate) phrase: &'static str,
    /// The phrase of its negation (`not f(…)`), for a builtin giving a bool; "" otherwise.
    pub(crate) negated: &'static str,
    /// An example of its use: a complete item (a rule, an action or a setup) that the language
    /// reference shows (`docs/language.md`, `carto doc --builtins`) and `cargo test` checks and
    /// plays in a variant on the base game (tests/doc.rs: every row has one).
    pub example: &'static str,
    /// For a builtin taking a holding area (its argument of type `holding`), the kind it takes:
    /// the checker refuses the other kind there (`holding … per player` or shared).
    pub holding: Option<Holding>,
    /// What it reads of the game beyond its arguments (for the forced check: `interp::reads`).
    pub(crate) reads: Reads,
    /// Static: its value depends only on its arguments, the map, the parameters and the program, so
    /// an aggregate whose parts are all static is computed once (`interp::aggregate::is_static`).
    pub(crate) stat: bool,
    /// Pure for the agents' rule points: its value depends only on its arguments
    /// (`agent::points`).
    pub pure: bool,
    /// What the analyses know it to be beyond its signature: a place, the chips of a place, an
    /// effect and what it changes, … (see [`Role`]).
    pub role: Role,
}

/// The implementation of a builtin. A query gives a value from its evaluated arguments (up to
/// [`MAX_PARAMS`], `Value::Unit` past the last); an effect changes the game (its arguments, exactly as many as it
/// has). Used as an expression, an effect gives nothing.
#[derive(Clone, Copy)]
pub enum Run {
    Query(fn(&mut Cx, &[Value; MAX_PARAMS]) -> Ran<Value>),
    Effect(fn(&mut Cx, &[Value]) -> Ran<()>),
}

impl fmt::Debug for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Run::Query(_) => "Query",
            Run::Effect(_) => "Effect",
        })
    }
}

/// What running a builtin gives: its value, or the error that stops the game (naming the rule).
pub(crate) type Ran<T> = Result<T, Box<crate::game::GameError>>;

/// Kinds of changing facts of a game an expression reads (a bit set): see `interp::reads`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reads(u8);

impl Reads {
    /// Nothing that changes during a game (map facts, parameters, constants, the players).
    pub(crate) const NOTHING: Reads = Reads(0);
    /// Where chips lie and which way up (changes move the state's chip counter).
    pub(crate) const CHIPS: Reads = Reads(1);
    /// The tiles on the board.
    pub(crate) const TILES: Reads = Reads(2);
    /// The turn's facts that limits count with (turn, round, follower placed, extra turn).
    pub(crate) const TURN: Reads = Reads(4);
    /// Anything else (scores, followers, features, turn facts): a check reading it always runs.
    pub(crate) const UNKNOWN: Reads = Reads(8);
    /// The faces (colour, value) of the chips it is given: fixed for a chip, so the forced check
    /// ignores it, but hidden while the chip lies face down where the player cannot see it
    /// (`interp::hidden`: a sample deals them afresh).
    pub(crate) const FACES: Reads = Reads(16);

    pub(crate) const fn with(self, o: Reads) -> Reads {
        Reads(self.0 | o.0)
    }

    pub(crate) fn has(self, o: Reads) -> bool {
        self.0 & o.0 != 0
    }
}

/// The most arguments a builtin takes: a row with more does not compile (the interpreter evaluates
/// a query's arguments into an array of this many).
pub const MAX_PARAMS: usize = 4;

/// What the analyses (the agents' `interp::hidden`, `blind`, `quiet`, `agent::quiet`, the rule
/// points) and the lowering's patterns know a builtin to be, beyond its signature, `reads`,
/// `static` and `pure`: one column of its row, so a new builtin says it where it is written.
/// `Query` is always safe for a query: the analyses then know only its other columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A query: nothing more than its other columns.
    Query,
    /// A query naming a place from its arguments: which kind of place.
    Place(PlaceKind),
    /// A query listing the chips in the place its argument names (`chips(p)`), in the place's
    /// order: chips from wherever that place is (a hand, the supply, a square).
    ChipsIn,
    /// A query giving the number of elements of its list argument (`len`): the lowering reads a
    /// count of chips the state keeps in place.
    Count,
    /// A query: whether its first argument, a list, holds its second (`contains`).
    Member,
    /// An effect, and what it changes. Its chips, places and followers are its arguments of those
    /// types (a `t(Place)` parameter is a place it moves chips from or to, a chip parameter the
    /// chips it moves, a follower parameter the follower it changes).
    Effect(Changes),
}

/// The places a builtin of role [`Role::Place`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceKind {
    /// A player's hand (`hand(p)`): their chips, which they see.
    Hand,
    /// The chips lying on a map square (`at(s)`).
    Square,
    /// A square's chip slots (`slots(s)`).
    Slots,
    /// Under a follower (`under(f)`).
    Under,
    /// A shared holding area (`holding(h)`).
    Holding,
    /// A player's part of a per-player holding area (`holding_of(h, p)`).
    PlayerHolding,
}

impl PlaceKind {
    /// The place of this kind its argument names, for the kinds named by one player or square;
    /// `None` for a value of another type.
    #[inline]
    pub(crate) fn of(self, v: Value) -> Option<IrPlace> {
        match (self, v) {
            (PlaceKind::Hand, Value::Player(p)) => Some(IrPlace::Hand(p)),
            (PlaceKind::Square, Value::Square(c)) => Some(IrPlace::At(c)),
            (PlaceKind::Slots, Value::Square(c)) => Some(IrPlace::Slots(c)),
            (PlaceKind::Under, Value::Follower(f)) => Some(IrPlace::Under(f)),
            (PlaceKind::Holding, Value::Holding(h)) => Some(IrPlace::Holding(h)),
            _ => None,
        }
    }
}

/// What an effect changes (a bit set; the column `role Effect(…)` of its row), and whether it deals
/// what a sample of the game deals afresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Changes(u16);

impl Changes {
    /// Writes a line to the game log.
    pub const LOG: Changes = Changes(1);
    /// Moves chips between the places its place arguments name, or turns them over.
    pub const CHIPS: Changes = Changes(2);
    /// Lays chips out on squares (not a place an argument names).
    pub const SCATTERS: Changes = Changes(4);
    /// Scores points.
    pub const SCORES: Changes = Changes(8);
    /// How many followers its follower argument counts as.
    pub const STRENGTH: Changes = Changes(16);
    /// Where followers are.
    pub const FOLLOWERS: Changes = Changes(32);
    /// Who plays next, or which tile a turn plays.
    pub const TURNS: Changes = Changes(64);
    /// The tiles: where they lie, which way up.
    pub const TILES: Changes = Changes(128);
    /// The state the rules keep (`state NAME …`: `set`, `add`).
    pub const STATE: Changes = Changes(512);
    /// Not a change: it reads what a sample of the game deals afresh (the supply's order, the
    /// order of tiles, the game's randomness): `interp::hidden`.
    pub const DEALS: Changes = Changes(256);

    pub const fn with(self, o: Changes) -> Changes {
        Changes(self.0 | o.0)
    }
    pub fn has(self, o: Changes) -> bool {
        self.0 & o.0 != 0
    }
    /// Whether it changes nothing outside `allowed` (whether it deals aside).
    pub fn within(self, allowed: Changes) -> bool {
        self.0 & !(allowed.0 | Changes::DEALS.0) == 0
    }
}

impl Builtin {
    /// What it changes, for an effect; `None` for a query.
    #[inline]
    pub fn changes(self) -> Option<Changes> {
        match self.role() {
            Role::Effect(c) => Some(c),
            _ => None,
        }
    }
    /// Whether it is an effect that only scores (`(who, points)`: a unit test checks the
    /// parameters), nothing dealt afresh.
    #[inline]
    pub fn scores_only(self) -> bool {
        self.changes() == Some(Changes::SCORES)
    }
    /// Its arguments whose parameter is of type `ty` (for an effect: the places, chips or
    /// followers it changes), from the arguments of a call of it.
    pub fn args_of<T>(self, args: &[T], ty: fn(PTy) -> bool) -> impl Iterator<Item = &T> {
        self.info()
            .params
            .iter()
            .zip(args)
            .filter(move |((_, t), _)| ty(*t))
            .map(|(_, a)| a)
    }
    /// Every builtin, in the table's order.
    pub fn all() -> impl Iterator<Item = Builtin> {
        Builtin::ALL.iter().copied()
    }
}

impl PTy {
    /// A place.
    pub fn is_place(self) -> bool {
        self == PTy::T(Ty::of(Base::Place))
    }
    /// One chip or several.
    pub fn is_chips(self) -> bool {
        matches!(self, PTy::ChipOrChips) || matches!(self, PTy::T(t) if t.base == Base::Chip)
    }
    /// A follower.
    pub fn is_follower(self) -> bool {
        self == PTy::T(Ty::of(Base::Follower))
    }
}

const fn t(b: Base) -> PTy {
    PTy::T(Ty::of(b))
}
const fn l(b: Base) -> PTy {
    PTy::T(Ty::list(b))
}
const fn rt(b: Base) -> RTy {
    RTy::T(Ty::of(b))
}
const fn rl(b: Base) -> RTy {
    RTy::T(Ty::list(b))
}
const NONE: Reads = Reads::NOTHING;
const CHIPS: Reads = Reads::CHIPS;
const UNKNOWN: Reads = Reads::UNKNOWN;
const TILES: Reads = Reads::TILES;
const FACES: Reads = Reads::FACES;
const LOG: Changes = Changes::LOG;
const MOVES_CHIPS: Changes = Changes::CHIPS;
const SCATTERS: Changes = Changes::SCATTERS;
const SCORES: Changes = Changes::SCORES;
const STRENGTH: Changes = Changes::STRENGTH;
const FOLLOWERS: Changes = Changes::FOLLOWERS;
const TURNS: Changes = Changes::TURNS;
const STATE: Changes = Changes::STATE;
const TILES_CHANGE: Changes = Changes::TILES;
const DEALS: Changes = Changes::DEALS;

use crate::interp::{effect as e, fields as f, kept, query as q, Cx};
use crate::ir::{Place as IrPlace, Value};
use Base::*;
use Run::{Effect, Query};

// One row per builtin: name(parameters) -> result, its implementation (a function of the builtin's
// context `Cx` and its arguments: in `interp/query.rs` (q), `interp/effect.rs` (e) or
// `interp/kept.rs`, or a closure here; `interp/cx.rs` lists all that a `Cx` offers), what it
// reads, whether it is static and pure, what the analyses know it to be (`role`: a place, the
// chips of a place, an effect and what it changes: see `Role`), its one-line doc (`carto doc`,
// hover, completion), its phrase (and, for a bool, the phrase of its negation). Every column is
// required: a row without one does not compile; a row with more than `MAX_PARAMS` parameters does
// not compile either.
#[rustfmt::skip]
builtins! {
    // ---- places
    Hand "hand"("player": t(Player)) -> rt(Place), Query(|_, a| Ok(Value::Place(IrPlace::Hand(q::player_of(a[0]))))),
        reads NONE, static false, pure false, role Role::Place(PlaceKind::Hand),
        "the area in front of a player (their chips)", "{0's} hand",
        example r#"rule r on turn_end { draw(1, supply, hand(player), up) }"#;
    At "at"("square": t(Square)) -> rt(Place), Query(|_, a| Ok(match a[0] { Value::Square(c) => Value::Place(IrPlace::At(c)), _ => Value::Unit })),
        reads NONE, static false, pure false, role Role::Place(PlaceKind::Square),
        "chips lying on a map square", "{0}",
        example r#"rule r on placed { move(chips(hand(player)), at(square), up) }"#;
    Slots "slots"("square": t(Square)) -> rt(Place), Query(|_, a| Ok(match a[0] { Value::Square(c) => Value::Place(IrPlace::Slots(c)), _ => Value::Unit })),
        reads NONE, static false, pure false, role Role::Place(PlaceKind::Slots),
        "the chip slots of a square", "the chip slots of {0}",
        example r#"rule r on placed when square.free_slots > 0 { draw(1, supply, slots(square), up) }"#;
    Under "under"("follower": t(Follower)) -> rt(Place), Query(|_, a| Ok(match a[0] { Value::Follower(f) => Value::Place(IrPlace::Under(f)), _ => Value::Unit })),
        reads NONE, static false, pure false, role Role::Place(PlaceKind::Under),
        "chips under a follower", "the space under {0}",
        example r#"action stash phase follower choose f: followers(player) { draw(1, supply, under(f), down) }"#;
    HoldingPlace "holding"("area": t(Holding)) -> rt(Place), Query(|_, a| Ok(match a[0] { Value::Holding(h) => Value::Place(IrPlace::Holding(h)), _ => Value::Unit })),
        reads NONE, static false, pure false, role Role::Place(PlaceKind::Holding),
        "chips kept in a holding area", "{0}", holding Shared,
        example r#"rule r on round_end { move(chips(holding(isle)), supply, down) }"#;
    HoldingOf "holding_of"("area": t(Holding), "player": t(Player)) -> rt(Place), Query(|_, a| Ok(match (a[0], a[1]) { (Value::Holding(h), Value::Player(p)) => Value::Place(IrPlace::PlayerHolding(h, p)), _ => Value::Unit })),
        reads UNKNOWN, static false, pure false, role Role::Place(PlaceKind::PlayerHolding),
        "a player's own area of a per-player holding area (`holding bid per player`: a player's bid)", "{1's} part of {0}", holding PerPlayer,
        example r#"rule r on turn_end { draw(1, supply, holding_of(bid, player), down) }"#;
    // ---- lists
    Chips "chips"("place": t(Place)) -> rl(Chip), Query(|cx, a| Ok(q::chips(cx, a[0]))),
        reads CHIPS, static false, pure false, role Role::ChipsIn,
        "the chips in a place", "the chips in {0}",
        example r#"rule r on turn_end { score(player, len(chips(hand(player)))) }"#;
    Squares "squares"() -> rl(Square), Query(|cx, _| Ok(cx.all_squares())),
        reads NONE, static true, pure false, role Role::Query,
        "every square of the map", "the squares of the map",
        example r#"rule r on game_end { score(current_player(), count(s in squares() where s.covered)) }"#;
    SlotSquares "slot_squares"() -> rl(Square), Query(|cx, _| Ok(cx.slot_squares())),
        reads NONE, static true, pure false, role Role::Query,
        "the squares with chip slots (a `slots` map attribute above 0), covered or not; cheaper than filtering squares()", "the squares with chip slots",
        example r#"setup { for s in slot_squares() { draw(1, supply, slots(s), up) } }"#;
    SquaresWith "squares_with"("attribute": t(Str), "value": PTy::T(Ty::ANY)) -> rl(Square), Query(q::squares_with),
        reads NONE, static true, pure false, role Role::Query,
        "the map squares whose attribute (named by a string) has the value, in map order; indexed once per game, far cheaper than filtering squares()", "the squares whose {0} is {1}",
        example r#"rule r on placed when contains(squares_with("colour", orange), square) { score(player, 1) }"#;
    Neighbours "neighbours"("square": t(Square)) -> rl(Square), Query(|cx, a| Ok(q::neighbours(cx, a[0]))),
        reads NONE, static true, pure false, role Role::Query,
        "the orthogonal neighbours of a square on the map", "the squares next to {0}",
        example r#"rule r on placed { score(player, count(s in neighbours(square) where s.covered)) }"#;
    Near "near"("squares": l(Square)) -> rl(Square), Query(|cx, a| q::near(cx, a[0])),
        reads NONE, static true, pure false, role Role::Query,
        "the map squares orthogonally next to any of the given squares, each once", "the squares next to any of {0}",
        example r#"rule r on placed { score(player, count(s in near([square]) where not s.covered)) }"#;
    Players "players"() -> rl(Player), Query(|cx, _| { let n = cx.st.players.len() as u8; Ok(cx.list_of((0..n).map(Value::Player))) }),
        reads NONE, static false, pure false, role Role::Query,
        "the players in turn order", "the players",
        example r#"rule r on game_end { for p in players() { score(p, len(chips(hand(p)))) } }"#;
    PlayersFrom "players_from"("player": t(Player)) -> rl(Player), Query(|cx, a| Ok(q::players_from(cx, a[0]))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "every player in turn order, starting with the given one (\"each player in turn, starting with you\")", "the players in turn order starting with {0}",
        example r#"rule r on round_end { for p in players_from(current_player()) { draw(1, supply, hand(p), up) } }"#;
    Followers "followers"("player": t(Player)) -> rl(Follower), Query(|cx, a| Ok(q::followers_of(cx, a[0], true))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "a player's followers on the board", "{0's} followers on the board",
        example r#"rule r on turn_end { score(player, len(followers(player))) }"#;
    Reserve "reserve"("player": t(Player)) -> rl(Follower), Query(|cx, a| Ok(q::followers_of(cx, a[0], false))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "a player's followers in their supply", "{0's} followers in reserve",
        example r#"rule r on turn_end when len(reserve(player)) == 0 { score(player, -1) }"#;
    Held "held"("area": t(Holding)) -> rl(Follower), Query(|cx, a| Ok(q::held(cx, a[0]))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "the followers in a holding area", "the followers sent to {0}", holding Followers,
        example r#"rule r on round_end { recall(held(isle)) }"#;
    Stacks "stacks"() -> rl(Stack), Query(|cx, _| Ok(q::stacks(cx))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "the tile stacks lying on the map", "the tile stacks on the map",
        example r#"rule r on game_end { score(current_player(), len(stacks())) }"#;
    Colours "colours"() -> rl(Colour), Query(|cx, _| Ok(q::colours(cx))),
        reads NONE, static true, pure false, role Role::Query,
        "the chip colours, in the order of the chips item", "the chip colours",
        example r#"rule r on game_end { score(current_player(), len(colours())) }"#;
    Len "len"("list": PTy::AnyList) -> rt(Int), Query(|cx, a| Ok(Value::Int(cx.len_of(a[0])? as i64))),
        reads NONE, static true, pure false, role Role::Count,
        "the number of elements of a list", "the number of {0}",
        example r#"rule r on turn_end { score(player, len(followers(player))) }"#;
    First "first"("list": PTy::AnyList) -> RTy::ElemOfFirst, Query(|cx, a| q::first(cx, a[0])),
        reads NONE, static false, pure false, role Role::Query,
        "the first element of a non-empty list", "the first of {0}",
        example r#"rule r on turn_end when len(chips(supply)) > 0 { move(first(chips(supply)), hand(player), up) }"#;
    Contains "contains"("list": PTy::AnyList, "value": PTy::ElemOfFirst) -> rt(Bool), Query(|cx, a| q::contains(cx, a[0], a[1])),
        reads NONE, static true, pure false, role Role::Member,
        "whether a list holds a value", "{1} is among {0}", not "{1} is not among {0}",
        example r#"rule r on placed when contains(neighbours(square), turn_tile().square) { score(player, 1) }"#;
    Take "take"("list": PTy::AnyList, "count": t(Int)) -> RTy::First, Query(|cx, a| q::take(cx, a[0], a[1])),
        reads NONE, static false, pure false, role Role::Query,
        "the first count elements of a list (all of them if it is shorter; none if count is 0 or less)", "the first {1} of {0}",
        example r#"rule r on turn_end { move(take(chips(supply), 2), hand(player), up) }"#;
    Min2 "min"("a": t(Int), "b": t(Int)) -> rt(Int), Query(|cx, a| q::ints2(cx, a, i64::min)),
        reads NONE, static false, pure true, role Role::Query,
        "the smaller of two numbers (`min(x in L: e)` is the aggregate)", "the smaller of {0} and {1}",
        example r#"rule r on scored { score(feature.winners, min(feature.tiles, 5)) }"#;
    Max2 "max"("a": t(Int), "b": t(Int)) -> rt(Int), Query(|cx, a| q::ints2(cx, a, i64::max)),
        reads NONE, static false, pure true, role Role::Query,
        "the larger of two numbers (`max(x in L: e)` is the aggregate)", "the larger of {0} and {1}",
        example r#"rule r on scored { score(feature.winners, max(feature.tiles - 2, 0)) }"#;
    Abs "abs"("x": t(Int)) -> rt(Int), Query(|cx, a| q::abs(cx, a[0])),
        reads NONE, static true, pure true, role Role::Query,
        "the absolute value of a number (-3 gives 3)", "the absolute value of {0}",
        example r#"rule r on turn_end { score(player, abs(player.score - 10) / 10) }"#;
    Has "has"("square": t(Square), "attribute": t(Str)) -> rt(Bool), Query(|cx, a| q::has_attr(cx, a[0], a[1])),
        reads NONE, static false, pure false, role Role::Query,
        "whether the map gives a square the attribute (named by a string); a square without it reads the type's default: 0, false, \"\"", "{0} has a {1}", not "{0} has no {1}",
        example r#"rule r on placed when has(square, "town") { score(player, 3) }"#;
    // ---- the turn
    CurrentPlayer "current_player"() -> rt(Player), Query(|cx, _| Ok(Value::Player(cx.st.current))),
        reads NONE, static false, pure false, role Role::Query,
        "the player whose turn it is", "the current player",
        example r#"rule r on round_end { score(current_player(), 1) }"#;
    TurnTile "turn_tile"() -> rt(Tile), Query(|cx, _| Ok(Value::Tile(cx.st.placed_now))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "the tile placed in this turn", "the tile placed this turn",
        example r#"rule r on turn_end when turn_tile().shields > 0 { score(player, 1) }"#;
    TurnFollowersPlaced "turn_followers_placed"() -> rt(Int), Query(|cx, _| Ok(Value::Int(i64::from(cx.st.follower_placed_now)))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "followers the current player placed in this turn", "the number of followers placed this turn",
        example r#"rule r on turn_end when turn_followers_placed() == 0 { score(player, 1) }"#;
    IsExtraTurn "is_extra_turn"() -> rt(Bool), Query(|cx, _| Ok(Value::Bool(cx.st.in_extra_turn))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "whether this turn is an extra turn", "this is an extra turn", not "this is not an extra turn",
        example r#"rule r on turn_end when is_extra_turn() { score(player, 1) }"#;
    FirstPlayer "first_player"() -> rt(Player), Query(|cx, _| Ok(Value::Player(cx.st.order.first))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "the player every round starts with (the first seat, unless `go_first` said otherwise)", "the player who starts each round",
        example r#"rule r on round_end when first_player() == current_player() { score(current_player(), 1) }"#;
    TurnNumber "turn_number"() -> rt(Int), Query(|cx, _| Ok(Value::Int(cx.st.turn as i64))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "the number of the current turn, from 1", "the number of the turn",
        example r#"rule r on turn_start when turn_number() % 10 == 0 { score(player, 1) }"#;
    TilesLeft "tiles_left"() -> rt(Int), Query(|cx, _| Ok(Value::Int(cx.st.stack.len() as i64))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "tiles left in the draw stack", "the number of tiles left to draw",
        example r#"rule r on turn_end when tiles_left() == 10 { score(player, 5) }"#;
    TilesAtStart "tiles_at_start"() -> rt(Int), Query(|cx, _| Ok(Value::Int(if cx.st.turn == 0 { cx.st.stack.len() as i64 } else { i64::from(cx.st.stack_start) }))),
        reads NONE, static false, pure false, role Role::Query,
        "tiles in the draw stack when the first turn began, after the setup drew its tiles (during the setup: the tiles in it now); a discarded tile does not change it, unlike `turn_number() + tiles_left()`", "the number of tiles the draw stack started with",
        example r#"rule r on turn_end when tiles_left() * 2 == tiles_at_start() { score(player, 10) }"#;
    RoundNumber "round_number"() -> rt(Int), Query(|cx, _| Ok(Value::Int(cx.st.round as i64))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "the number of the current round, from 1", "the number of the round",
        example r#"rule r on round_end when round_number() == 3 { score(current_player(), 2) }"#;
    ConnectsAbroad "connects_abroad"("tile": t(Tile)) -> rt(Bool), Query(|cx, a| Ok(q::connects_abroad(cx, a[0]))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "whether a tile connects abroad at a border exit", "{0} joins a road or city to a border exit", not "{0} joins no road or city to a border exit",
        example r#"rule r on placed when connects_abroad(tile) { score(player, 2) }"#;
    Placeable "placeable"("stack": t(Stack)) -> rt(Bool), Query(|cx, a| Ok(q::placeable(cx, a[0]))),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "whether the top tile of a stack has a legal placement now", "the top tile of {0} can be placed", not "the top tile of {0} cannot be placed",
        example r#"action buy phase start choose s: stacks() where placeable(s) { take_tile(s) }"#;
    // ---- effects
    Score "score"("who": t(Players), "points": t(Int)) -> rt(Unit), Effect(e::score),
        reads UNKNOWN, static false, pure false, role Role::Effect(SCORES),
        "scores points for players, logged under the rule's name", "{0} score[s] {1}",
        example r#"rule r on scored when feature.kind == road { score(feature.winners, feature.tiles) }"#;
    Move "move"("chips": PTy::ChipOrChips, "to": t(Place), "face": t(Face)) -> rt(Unit), Effect(e::move_effect),
        reads UNKNOWN, static false, pure false, role Role::Effect(MOVES_CHIPS),
        "moves chips to a place, face up or down (in the supply too)", "{0} go[es] to {1} {2}",
        example r#"rule r on gained when chip.value > 1 { move(chip, box, up) }"#;
    Draw "draw"("count": t(Int), "from": t(Place), "to": t(Place), "face": t(Face)) -> rt(Unit), Effect(e::draw),
        reads UNKNOWN, static false, pure false, role Role::Effect(MOVES_CHIPS.with(DEALS)),
        "moves count chips from one place to another: the top of the supply (a pool kept shuffled), or random ones of another place; fewer if fewer are there", "{0} chips go from {1} to {2} {3}",
        example r#"rule r on turn_end { draw(1, supply, hand(player), down) }"#;
    Shuffle "shuffle"("place": t(Place)) -> rt(Unit), Effect(e::shuffle),
        reads UNKNOWN, static false, pure false, role Role::Effect(MOVES_CHIPS.with(DEALS)),
        "shuffles the chips of a place", "the chips in {0} are shuffled",
        example r#"setup { shuffle(supply) }"#;
    Strength "strength"("follower": t(Follower), "strength": t(Int)) -> rt(Unit), Effect(e::strength),
        reads UNKNOWN, static false, pure false, role Role::Effect(STRENGTH),
        "sets how many followers a follower counts as in majorities", "{0} count[s] as {1} followers",
        example r#"rule r on follower_placed when turn_number() < 3 { strength(follower, 2) }"#;
    Send "send"("follower": t(Follower), "area": t(Holding)) -> rt(Unit), Effect(e::send),
        reads UNKNOWN, static false, pure false, role Role::Effect(FOLLOWERS),
        "puts a follower into a holding area", "{0} go[es] to {1}", holding Followers,
        example r#"rule r on returned when len(held(isle)) < 2 { send(follower, isle) }"#;
    Recall "recall"("followers": l(Follower)) -> rt(Unit), Effect(e::recall),
        reads UNKNOWN, static false, pure false, role Role::Effect(FOLLOWERS),
        "returns followers to their owners' supplies", "{0} go[es] back to their owners",
        example r#"rule r on round_end { recall(held(isle)) }"#;
    ExtraTurn "extra_turn"() -> rt(Unit), Effect(|cx, _| { cx.st.queue_extra_turn(cx.st.current); Ok(()) }),
        reads UNKNOWN, static false, pure false, role Role::Effect(TURNS),
        "the current player plays one more complete turn after this one (asked for again before it is played: one more after it)", "the current player plays an extra turn",
        example r#"rule r on turn_end when turn_number() == 3 { extra_turn() }"#;
    ExtraTurnFor "extra_turn_for"("player": t(Player)) -> rt(Unit), Effect(e::extra_turn_for),
        reads UNKNOWN, static false, pure false, role Role::Effect(TURNS),
        "a player plays one complete extra turn after this one (then play goes on after the player whose regular turn it was); asked for twice, both are played, in the order asked", "{0} plays an extra turn after this one",
        example r#"rule r on round_end when round_number() == 2 { extra_turn_for(first(players())) }"#;
    GoFirst "go_first"("player": t(Player)) -> rt(Unit), Effect(|cx, a| { cx.st.go_first(q::player_of(a[0])); Ok(()) }),
        reads UNKNOWN, static false, pure false, role Role::Effect(TURNS),
        "a player plays the next regular turn (in `setup`: the first turn) and every round starts with them from then on (the round in progress ends after this turn)", "{0} plays the next turn and every round starts with them from then on",
        example r#"setup { go_first(first(players())) }"#;
    SkipTurn "skip_turn"("player": t(Player)) -> rt(Unit), Effect(|cx, a| { cx.st.skip_turn(q::player_of(a[0])); Ok(()) }),
        reads UNKNOWN, static false, pure false, role Role::Effect(TURNS),
        "a player's next regular turn is skipped (called again, the one after too); extra turns are not skipped", "{0}'s next turn is skipped",
        example r#"rule r on turn_end when turn_number() == 2 { skip_turn(player) }"#;
    ReverseOrder "reverse_order"() -> rt(Unit), Effect(|cx, _| { cx.st.reverse_order(); Ok(()) }),
        reads UNKNOWN, static false, pure false, role Role::Effect(TURNS),
        "play goes the other way round the table from the next regular turn (called again: back the first way)", "the order of play is reversed",
        example r#"rule r on round_end when round_number() == 2 { reverse_order() }"#;
    TakeTile "take_tile"("stack": t(Stack)) -> rt(Unit), Effect(e::take_tile),
        reads UNKNOWN, static false, pure false, role Role::Effect(TURNS.with(TILES_CHANGE).with(DEALS)),
        "the current player plays the top tile of a stack instead of drawing", "the current player plays the top tile of {0} instead of drawing",
        example r#"action buy phase start choose s: stacks() where placeable(s) { take_tile(s) }"#;
    TurnUp "turn_up"("stack": t(Stack)) -> rt(Unit), Effect(|_, _| Ok(())),
        reads UNKNOWN, static false, pure false, role Role::Effect(TILES_CHANGE),
        "turns the top tile of a stack face up", "the top tile of {0} is turned face up",
        example r#"rule r on turn_start { for s in stacks() { turn_up(s) } }"#;
    Scatter "scatter"("chips": l(Chip), "squares": l(Square), "apart": t(Bool), "face": t(Face)) -> rt(Unit), Effect(e::scatter_effect),
        reads UNKNOWN, static false, pure false, role Role::Effect(SCATTERS.with(DEALS)),
        "spreads chips at random, one per square (apart: no two orthogonally adjacent); the rest go aside", "{0} are scattered {3} over {1}, one a square{2?, no two side by side}; the rest are set aside",
        example r#"setup { scatter(chips(supply), [s in squares() where abs(s.x) + abs(s.y) < 4], true, down) }"#;
    Deal "deal"("squares": l(Square), "count": t(Int)) -> rt(Unit), Effect(e::deal),
        reads UNKNOWN, static false, pure false, role Role::Effect(TILES_CHANGE.with(DEALS)),
        "deals count tiles from the draw stack into a stack on each square", "{1} tiles from the draw stack are dealt, as a stack with only its top tile face up, onto each of {0}",
        example r#"setup { deal([s in squares() where s.x == 2 and s.y == 2], 3) }"#;
    // ---- the values the rules keep (`state NAME …`; interp/kept.rs)
    Set "set"("state": PTy::State(false), "value": PTy::OfState) -> rt(Unit), Effect(kept::set_state),
        reads UNKNOWN, static false, pure false, role Role::Effect(STATE),
        "sets a value the rules keep (`state NAME …`), named as it is read: `set(season, 2)`, `set(player.traded, true)`; a value outside its range stops the game", "{0} becomes {1}",
        example r#"state season: int in 1..3 = 1
rule r on round_end when round_number() == 3 { set(season, 2) }"#;
    Add "add"("state": PTy::State(true), "amount": t(Int)) -> rt(Unit), Effect(kept::add_state),
        reads UNKNOWN, static false, pure false, role Role::Effect(STATE),
        "adds to a counter the rules keep (`state NAME: int …`): `add(season, 1)`, `add(p.bid, -2)`; a value outside its range stops the game", "{1} is added to {0}",
        example r#"state planted: int in 0..1000 per player
rule r on placed { add(player.planted, 1) }"#;
    StateValue "state value"("state": PTy::State(false)) -> rt(Any), Query(kept::state_value),
        reads UNKNOWN, static false, pure false, role Role::Query,
        "the value of a state the rules keep, written as its name (`season`) or a player's field (`player.bid`); not called by name", "{0}",
        example r#"state season: int in 1..3 = 1
rule r on round_end when season == 1 { score(current_player(), 1) }"#;
    StateOf "state of"("state": PTy::State(false), "player": t(Player)) -> rt(State), Query(kept::state_of),
        reads NONE, static false, pure false, role Role::Query,
        "a player's own value of a state kept per player, written `p.NAME`; not called by name", "{1's} {0}",
        example r#"state planted: int in 0..1000 per player
rule r on placed { add(player.planted, 1) }
rule s on game_end { for p in players() { score(p, p.planted) } }"#;
    Log "log"("text": t(Str)) -> rt(Unit), Effect(e::log),
        reads UNKNOWN, static false, pure false, role Role::Effect(LOG),
        "writes a line to the game log", "the game log records “{0}”",
        example r#"rule r on game_end { log("the game is over") }"#;
}

impl Builtin {
    pub(crate) fn from_name(s: &str) -> Option<Builtin> {
        Builtin::ALL.iter().copied().find(|b| b.info().name == s)
    }

    /// Whether a rules file calls it by name. The reads of a state the rules keep are written as
    /// the state's name (`season`, `player.bid`), and the checker makes the call: their rows'
    /// names are not identifiers, and completion and the pages leave them out.
    pub fn written(self) -> bool {
        !self.info().name.contains(' ')
    }

    /// The read of a state the rules keep: `season` (game-level), or `p.bid` when `player` is given.
    pub(crate) fn state_read(id: u16, player: Option<crate::ir::Expr>) -> crate::ir::Expr {
        use crate::ir::Expr;
        Expr::Call(
            Builtin::StateValue,
            vec![Builtin::state_place(id, player)],
            crate::ir::Src::NONE,
        )
    }

    /// A state the rules keep as a place to set: `season`, or `p.bid` when `player` is given.
    pub(crate) fn state_place(id: u16, player: Option<crate::ir::Expr>) -> crate::ir::Expr {
        use crate::ir::{Expr, NO_PLAYER};
        let handle = Expr::Const(Value::State(id, NO_PLAYER));
        match player {
            None => handle,
            Some(p) => Expr::Call(Builtin::StateOf, vec![handle, p], crate::ir::Src::NONE),
        }
    }
    /// `name(param: type, …) -> type`, for notes.
    pub fn signature(self) -> String {
        let i = self.info();
        let ps: Vec<String> = i.params.iter().map(|(n, t)| format!("{n}: {t}")).collect();
        let ret = match i.ret {
            RTy::T(t) if t == Ty::UNIT => String::new(),
            RTy::T(t) => format!(" -> {t}"),
            RTy::ElemOfFirst => " -> element".into(),
            RTy::First => " -> list".into(),
        };
        format!("{}({}){}", i.name, ps.join(", "), ret)
    }
}

// The triggers and phases belong to the engine (it fires them and offers actions in them); a
// trigger's bindings are typed here.
pub use crate::game::{Bound, Moment, Phase, Trigger};

impl From<Bound> for Ty {
    fn from(b: Bound) -> Ty {
        Ty::of(match b {
            Bound::Player => Player,
            Bound::Tile => Tile,
            Bound::Square => Square,
            Bound::Kind => Kind,
            Bound::Chip => Chip,
            Bound::Follower => Follower,
            Bound::Feature => Feature,
        })
    }
}

macro_rules! fields {
    ($( $v:ident $owner:ident . $name:literal : $ty:expr, $read:expr,
        reads $reads:expr, static $stat:expr, pure $pure:expr,
        $doc:literal, $phrase:literal $(, not $neg:literal)? $(, example $ex:literal)?; )*) => {
        /// Fields of the builtin types. Map attributes of squares are not here (see `Program::attrs`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Field { $($v),* }

        /// (owner type, field name, field, field type, doc): one line per field, read as a table.
        pub const FIELDS: &[(Base, &str, Field, Ty, &str)] = &[$(($owner, $name, Field::$v, $ty, $doc)),*];

        impl Field {
            pub fn info(self) -> FieldInfo {
                match self {
                    $(Field::$v => FieldInfo {
                        owner: $owner,
                        name: $name,
                        ty: $ty,
                        doc: $doc,
                        phrase: $phrase,
                        negated: concat!("" $(, $neg)?),
                        example: concat!("" $(, $ex)?),
                        reads: $reads,
                        stat: $stat,
                        pure: $pure,
                    },)*
                }
            }
            /// How the interpreter reads it from a value of its owner type.
            #[inline]
            pub(crate) fn read(self) -> ReadField {
                match self {
                    $(Field::$v => $read,)*
                }
            }
        }
    };
}

/// A field's type, documentation, phrase, and what the interpreter and the agents may assume of it:
/// one row of the `fields!` table.
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    pub owner: Base,
    pub name: &'static str,
    pub ty: Ty,
    pub doc: &'static str,
    /// Its English phrase for the rule pages (`{0}` is the value it is read from).
    pub(crate) phrase: &'static str,
    /// The phrase of its negation, for a bool field; "" otherwise.
    pub(crate) negated: &'static str,
    /// An example of its use: a complete item, as a builtin's (`BuiltinInfo::example`).
    pub example: &'static str,
    /// What reading it reads of the game (for the forced check: `interp::reads`).
    pub(crate) reads: Reads,
    /// It never changes during a game, nor between the games of one interpreter (a static
    /// aggregate may be keyed by it: `interp::aggregate::is_static`).
    pub(crate) stat: bool,
    /// A fact of a feature the agents' rule points may be computed from (`agent::points`).
    pub pure: bool,
}

/// How the interpreter reads a field: in the builtin's context, from the value it is read from.
pub(crate) type ReadField = fn(&mut Cx, Value) -> Ran<Value>;

// One row per field: OWNER."name": type, how it is read (a function of the builtin's context `Cx`
// and the value read from: in `interp/fields.rs` (f), or a closure here), what it reads, whether it
// is static and pure, its doc, its phrase (and, for a bool, the phrase of its negation). A name means the same on every type that has it: rows of
// one name share their phrase (a test checks it).
#[rustfmt::skip]
fields! {
    ChipColour Chip."colour": Ty::of(Colour), |cx, v| Ok(Value::Colour(f::chip_of(cx, v)?.colour)),
        reads FACES, static true, pure false,
        "the chip's colour", "the colour of {0}",
        example r#"rule r on gained when chip.colour == blue { score(player, 1) }"#;
    ChipValue Chip."value": Ty::of(Int), |cx, v| Ok(Value::Int(f::chip_of(cx, v)?.value as i64)),
        reads FACES, static true, pure false,
        "the chip's value", "the value of {0}",
        example r#"rule r on gained { score(player, chip.value) }"#;
    ChipFaceUp Chip."face_up": Ty::of(Bool), |cx, v| Ok(Value::Bool(f::chip_of(cx, v)?.face_up)),
        reads CHIPS, static false, pure false,
        "whether the chip lies face up", "{0} lies face up", not "{0} lies face down",
        example r#"rule r on gained when not chip.face_up { move(chip, hand(player), up) }"#;
    SquareX Square."x": Ty::of(Int), |cx, v| Ok(Value::Int(cx.st.board.xy(f::square_of(cx, v)?).0 as i64)),
        reads NONE, static true, pure false,
        "column, from 0 at the left", "the column of {0}",
        example r#"rule r on placed when square.x > 3 { score(player, 1) }"#;
    SquareY Square."y": Ty::of(Int), |cx, v| Ok(Value::Int(cx.st.board.xy(f::square_of(cx, v)?).1 as i64)),
        reads NONE, static true, pure false,
        "row, from 0 at the top", "the row of {0}",
        example r#"rule r on placed when square.y < -3 { score(player, 1) }"#;
    SquareTown Square."town": Ty::of(Bool), |cx, v| f::square_flag_of(cx, v, Field::SquareTown),
        reads NONE, static true, pure false,
        "a printed town", "{0} is a town", not "{0} is not a town",
        example r#"rule r on placed when square.town { score(player, 2) }"#;
    SquareStart Square."start": Ty::of(Bool), |cx, v| f::square_flag_of(cx, v, Field::SquareStart),
        reads NONE, static false, pure false,
        "a start square used in this game", "{0} is a start square in use", not "{0} is not a start square in use",
        example r#"rule r on adjacent when square.start { score(player, 1) }"#;
    SquareCovered Square."covered": Ty::of(Bool), |cx, v| f::square_flag_of(cx, v, Field::SquareCovered),
        reads TILES, static false, pure false,
        "a tile lies on it", "{0} is covered", not "{0} is not covered",
        example r#"rule r on placed { score(player, count(s in neighbours(square) where s.covered)) }"#;
    SquareLand Square."land": Ty::of(Bool), |cx, v| f::square_flag_of(cx, v, Field::SquareLand),
        reads NONE, static true, pure false,
        "a land square (a tile may go here)", "{0} is land", not "{0} is not land",
        example r#"rule r on adjacent when not square.land { score(player, 1) }"#;
    SquareIsland Square."island": Ty::of(Bool), |cx, v| f::square_flag_of(cx, v, Field::SquareIsland),
        reads NONE, static true, pure false,
        "an island square", "{0} is an island", not "{0} is not an island",
        example r#"rule r on placed when square.island { score(player, 2) }"#;
    SquareLargeCity Square."large_city": Ty::of(Bool), |cx, v| f::square_flag_of(cx, v, Field::SquareLargeCity),
        reads NONE, static true, pure false,
        "part of a large city", "{0} is part of a large city", not "{0} is not part of a large city",
        example r#"rule r on placed when square.large_city { score(player, 2) }"#;
    SquareChips Square."chips": Ty::list(Chip), |cx, v| { let c = f::square_of(cx, v)?; Ok(f::square_chips(cx, c)) },
        reads CHIPS, static false, pure false,
        "the chips lying on it", "the chips on {0}",
        example r#"rule r on placed { move(square.chips, hand(player), up) }"#;
    SquareFreeSlots Square."free_slots": Ty::of(Int), |cx, v| { let c = f::square_of(cx, v)?; Ok(Value::Int(cx.free_slot_mask(c).count_ones() as i64)) },
        reads CHIPS.with(TILES), static false, pure false,
        "free chip slots", "the number of free chip slots of {0}",
        example r#"rule r on placed when square.free_slots > 0 { draw(1, supply, slots(square), up) }"#;
    FeatureKind Feature."kind": Ty::of(Kind), |cx, v| Ok(f::feature_of(cx, v)?.kind.map_or(Value::Unit, Value::Kind)),
        reads UNKNOWN, static false, pure true,
        "road, city, field or monastery", "the kind of {0}",
        example r#"rule r on scored when feature.kind == city { score(feature.winners, 2 * feature.tiles) }"#;
    FeatureComplete Feature."complete": Ty::of(Bool), |cx, v| Ok(Value::Bool(f::feature_of(cx, v)?.complete)),
        reads UNKNOWN, static false, pure true,
        "whether it is complete", "{0} is complete", not "{0} is incomplete",
        example r#"rule r on scored when feature.kind == road and not feature.complete { score(feature.winners, 1) }"#;
    FeatureTiles Feature."tiles": Ty::of(Int), |cx, v| Ok(Value::Int(f::feature_of(cx, v)?.tiles as i64)),
        reads UNKNOWN, static false, pure true,
        "number of tiles (monastery: with its neighbours)", "the number of tiles of {0}",
        example r#"rule r on scored when feature.kind == road { score(feature.winners, feature.tiles) }"#;
    FeatureShields Feature."shields": Ty::of(Int), |cx, v| Ok(Value::Int(f::feature_of(cx, v)?.shields as i64)),
        reads UNKNOWN, static false, pure true,
        "coats of arms", "the number of coats of arms of {0}",
        example r#"rule r on scored when feature.kind == city { score(feature.winners, feature.shields) }"#;
    FeatureCities Feature."cities": Ty::of(Int), |cx, v| Ok(Value::Int(f::feature_of(cx, v)?.cities as i64)),
        reads UNKNOWN, static false, pure true,
        "completed cities next to a field", "the number of completed cities next to {0}",
        example r#"rule r on scored when feature.kind == field { score(feature.winners, 3 * feature.cities) }"#;
    FeatureWinners Feature."winners": Ty::of(Players), |cx, v| Ok(Value::Players(f::feature_of(cx, v)?.winners)),
        reads UNKNOWN, static false, pure true,
        "the players with the majority", "the players with the most followers on {0}",
        example r#"rule r on scored { score(feature.winners, 1) }"#;
    FeatureFollowers Feature."followers": Ty::list(Follower), |cx, v| f::feature_followers(cx, v),
        reads UNKNOWN, static false, pure false,
        "the followers on it", "the followers on {0}",
        example r#"rule r on scored { score(feature.winners, len(feature.followers)) }"#;
    FeatureSquares Feature."squares": Ty::list(Square), |cx, v| { let root = f::feature_of(cx, v)?.root; Ok(f::feature_squares(cx, root)) },
        reads UNKNOWN, static false, pure false,
        "the squares it covers", "the squares of {0}",
        example r#"rule r on scored when feature.complete { score(feature.winners, count(s in feature.squares where s.town)) }"#;
    FollowerOwner Follower."owner": Ty::of(Player), |cx, v| Ok(Value::Player(f::follower_of(cx, v)?.owner)),
        reads UNKNOWN, static false, pure false,
        "who owns it", "the owner of {0}",
        example r#"rule r on returned when follower.owner == current_player() { score(player, 1) }"#;
    FollowerStrength Follower."strength": Ty::of(Int), |cx, v| Ok(Value::Int(f::follower_of(cx, v)?.strength as i64)),
        reads UNKNOWN, static false, pure false,
        "how many followers it counts as", "the strength of {0}",
        example r#"rule r on follower_placed when follower.strength > 1 { score(player, 1) }"#;
    FollowerPlacedTurn Follower."placed_turn": Ty::of(Int), |cx, v| Ok(Value::Int(f::follower_of(cx, v)?.placed_turn as i64)),
        reads UNKNOWN, static false, pure false,
        "the turn number it was placed in", "the turn {0} was placed in",
        example r#"rule r on returned when turn_number() - follower.placed_turn > 10 { score(player, 2) }"#;
    FollowerFeature Follower."feature": Ty::of(Feature), f::follower_feature,
        reads UNKNOWN, static false, pure false,
        "the feature it stands on", "the feature {0} stands on",
        example r#"rule r on follower_placed when follower.feature.kind == monastery { score(player, 1) }"#;
    FollowerSquare Follower."square": Ty::of(Square), f::follower_square,
        reads UNKNOWN, static false, pure false,
        "the square it stands on", "the square of {0}",
        example r#"rule r on follower_placed when follower.square.town { score(player, 1) }"#;
    PlayerScore Player."score": Ty::of(Int), |cx, v| Ok(Value::Int(cx.st.players[f::player_index(cx, v)? as usize].score)),
        reads UNKNOWN, static false, pure false,
        "points so far", "{0's} score",
        example r#"rule r on turn_end when player.score < 0 { score(player, 1) }"#;
    PlayerFollowersLeft Player."followers_left": Ty::of(Int), |cx, v| Ok(Value::Int(cx.st.followers_in_supply(f::player_index(cx, v)?) as i64)),
        reads UNKNOWN, static false, pure false,
        "followers in the player's supply", "the number of {0's} followers in reserve",
        example r#"rule r on turn_end when player.followers_left == 0 { score(player, -1) }"#;
    PlayerName Player."name": Ty::of(Str), f::player_name,
        reads UNKNOWN, static false, pure false,
        "the player's name", "{0's} name",
        example r#"rule r on turn_end when player.name == "ann" { score(player, 1) }"#;
    TileSquare Tile."square": Ty::of(Square), f::tile_square,
        reads UNKNOWN, static false, pure false,
        "where the tile lies", "the square of {0}",
        example r#"rule r on turn_end when turn_tile().square.x == 0 { score(player, 1) }"#;
    TileShields Tile."shields": Ty::of(Int), f::tile_shields,
        reads UNKNOWN, static false, pure false,
        "coats of arms on the tile", "the number of coats of arms of {0}",
        example r#"rule r on placed { score(player, tile.shields) }"#;
    TileId Tile."id": Ty::of(Str), |cx, v| f::tile_name(cx, v, false),
        reads NONE, static false, pure false,
        "the tile type's id in its tile set (\"D\", \"IC-B\")", "the id of {0}",
        example r#"rule r on placed when tile.id == "D" { score(player, 1) }"#;
    TileName Tile."name": Ty::of(Str), |cx, v| f::tile_name(cx, v, true),
        reads NONE, static false, pure false,
        "the tile type's name in its tile set (its id when it has none)", "{0's} name",
        example r#"rule r on placed when tile.name == "D" { score(player, 1) }"#;
    StackSquare Stack."square": Ty::of(Square), |cx, v| Ok(Value::Square(f::stack_of(cx, v)?.cell)),
        reads UNKNOWN, static false, pure false,
        "where the stack lies", "the square of {0}",
        example r#"rule r on game_end { score(current_player(), count(s in stacks() where s.square.x > 0)) }"#;
    StackSize Stack."size": Ty::of(Int), |cx, v| Ok(Value::Int(f::stack_of(cx, v)?.tiles.len() as i64)),
        reads UNKNOWN, static false, pure false,
        "tiles left in it", "the number of tiles in {0}",
        example r#"rule r on game_end { score(current_player(), sum(s in stacks(): s.size)) }"#;
}

pub(crate) fn field(owner: Base, name: &str) -> Option<(Field, Ty)> {
    FIELDS
        .iter()
        .find(|(o, n, ..)| *o == owner && *n == name)
        .map(|(_, _, f, t, _)| (*f, *t))
}

pub(crate) fn field_names(owner: Base) -> impl Iterator<Item = &'static str> {
    FIELDS
        .iter()
        .filter(move |(o, ..)| *o == owner)
        .map(|(_, n, ..)| *n)
}

/// Keys of the `variant` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeaderKey {
    Title,
    Doc,
    /// A map name or path (string), or `unbounded`.
    Map,
    Tiles,
    Players,
    Followers,
    StartSquares,
    MonasteryBorder,
}

/// (key, name, type, doc)
pub const HEADER_KEYS: &[(HeaderKey, &str, Ty, &str)] = &[
    (
        HeaderKey::Title,
        "title",
        Ty::of(Str),
        "the variant's title",
    ),
    (
        HeaderKey::Doc,
        "doc",
        Ty::of(Str),
        "prose documenting the variant",
    ),
    (
        HeaderKey::Map,
        "map",
        Ty::of(Str),
        "a bundled map name or a path, or `unbounded`",
    ),
    (HeaderKey::Tiles, "tiles", Ty::list(Str), "tile sets used"),
    (
        HeaderKey::Players,
        "players",
        Ty::of(Range),
        "how many players may play",
    ),
    (
        HeaderKey::Followers,
        "followers",
        Ty::of(Int),
        "followers per player",
    ),
    (
        HeaderKey::StartSquares,
        "start_squares",
        Ty::of(Int),
        "start squares used",
    ),
    (
        HeaderKey::MonasteryBorder,
        "monastery_border",
        Ty::of(Bool),
        "sea and off-map squares fill a monastery's surroundings",
    ),
];

pub const PHASES: [(&str, Phase); 4] = [
    ("start", Phase::Start),
    ("follower", Phase::Follower),
    ("score", Phase::Score),
    ("after", Phase::After),
];

pub const LIMIT_UNITS: [&str; 2] = ["turn", "round"];
pub const LIMIT_FLAGS: [&str; 2] = ["no_follower", "not_extra"];

/// The names of the feature kinds in expressions.
pub(crate) const KIND_NAMES: [&str; 4] = ["road", "city", "field", "monastery"];

#[cfg(test)]
mod tests {
    use super::*;

    /// A builtin giving a bool has a phrase for its negation (`not has(s, "x")` reads "s has no
    /// x"); any other has none, and every builtin has a phrase.
    #[test]
    fn every_row_has_its_phrases() {
        for b in Builtin::ALL {
            let i = b.info();
            assert!(!i.phrase.is_empty(), "{}: no phrase", i.name);
            let predicate = matches!(i.ret, RTy::T(t) if t == Ty::BOOL);
            assert_eq!(!i.negated.is_empty(), predicate, "{}: negation", i.name);
        }
    }

    /// Rows of one field name share their phrases (`carto doc` finds a field's phrase by its name),
    /// and a bool field has a phrase for its negation.
    #[test]
    fn every_field_row_has_its_phrases() {
        for (_, name, f, ty, _) in FIELDS {
            let i = f.info();
            assert_eq!(i.name, *name);
            assert_eq!(i.ty, *ty);
            assert!(!i.phrase.is_empty(), "{name}");
            assert_eq!(!i.negated.is_empty(), *ty == Ty::BOOL, "{name}: negation");
            for (_, n, g, ..) in FIELDS {
                if n == name {
                    assert_eq!(
                        (g.info().phrase, g.info().negated),
                        (i.phrase, i.negated),
                        "{name}"
                    );
                }
            }
        }
    }

    /// A builtin takes a holding area (a parameter of type `holding`) exactly when its row says
    /// which kind (`holding Shared`, `PerPlayer`, `Followers`): the checker refuses the other kind.
    #[test]
    fn a_builtin_taking_a_holding_area_says_which_kind() {
        for b in Builtin::ALL {
            let i = b.info();
            let takes = i.params.iter().any(|(_, t)| *t == t_holding());
            assert_eq!(takes, i.holding.is_some(), "{}", i.name);
        }
    }

    fn t_holding() -> PTy {
        PTy::T(Ty::of(Base::Holding))
    }

    /// A builtin is an effect exactly when its role says what it changes, and an effect that only
    /// scores takes who and how many points (`agent::points` reads its two arguments so).
    #[test]
    fn effects_say_what_they_change() {
        for b in Builtin::ALL {
            let i = b.info();
            assert_eq!(i.effect, matches!(i.role, Role::Effect(_)), "{}", i.name);
            if b.scores_only() {
                let params: Vec<PTy> = i.params.iter().map(|(_, t)| *t).collect();
                assert_eq!(params, [t(Players), t(Int)], "{}", i.name);
            }
        }
    }

    /// An effect is never static or pure, and reads what the forced check cannot know.
    #[test]
    fn effects_are_neither_static_nor_pure() {
        for b in Builtin::ALL {
            let i = b.info();
            if i.effect {
                assert!(!i.stat && !i.pure, "{}", i.name);
                assert_eq!(i.reads, Reads::UNKNOWN, "{}", i.name);
                assert_eq!(i.ret, RTy::T(Ty::UNIT), "{}", i.name);
            }
        }
    }
}
