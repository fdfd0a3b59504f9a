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
            b => Base::NAMED
                .iter()
                .find(|(_, x)| *x == b)
                .map_or("?", |(n, _)| n),
        }
    }
    pub fn from_name(s: &str) -> Option<Base> {
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
    pub fn elem(self) -> Option<Ty> {
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
}

impl fmt::Display for PTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PTy::T(t) => write!(f, "{t}"),
            PTy::AnyList => f.write_str("list"),
            PTy::ChipOrChips => f.write_str("chip | list<chip>"),
            PTy::ElemOfFirst => f.write_str("element"),
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

macro_rules! builtins {
    ($( $v:ident $name:literal ( $( $pn:literal : $pt:expr ),* ) -> $ret:expr, $effect:expr, $doc:literal; )*) => {
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
                        effect: $effect,
                        doc: $doc,
                    },)*
                }
            }
        }
    };
}

/// A builtin's signature and documentation.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinInfo {
    pub name: &'static str,
    pub params: &'static [(&'static str, PTy)],
    pub ret: RTy,
    /// An effect (a statement that changes the game) rather than a query (an expression).
    pub effect: bool,
    pub doc: &'static str,
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
const Q: bool = false;
const E: bool = true;

use Base::*;

builtins! {
    // ---- places
    Hand "hand"(  "player": t(Player)) -> rt(Place), Q, "the area in front of a player (their chips)";
    At "at"("square": t(Square)) -> rt(Place), Q, "chips lying on a map square";
    Slots "slots"("square": t(Square)) -> rt(Place), Q, "the chip slots of a square";
    Under "under"("follower": t(Follower)) -> rt(Place), Q, "chips under a follower";
    HoldingPlace "holding"("area": t(Holding)) -> rt(Place), Q, "chips kept in a holding area";
    HoldingOf "holding_of"("area": t(Holding), "player": t(Player)) -> rt(Place), Q, "a player's own area of a per-player holding area (`holding bid per player`: a player's bid)";
    // ---- lists
    Chips "chips"("place": t(Place)) -> rl(Chip), Q, "the chips in a place";
    Squares "squares"() -> rl(Square), Q, "every square of the map";
    SlotSquares "slot_squares"() -> rl(Square), Q, "the squares with chip slots (a `slots` map attribute above 0), covered or not; cheaper than filtering squares()";
    SquaresWith "squares_with"("attribute": t(Str), "value": PTy::T(Ty::ANY)) -> rl(Square), Q, "the map squares whose attribute (named by a string) has the value, in map order; indexed once per game, far cheaper than filtering squares()";
    Neighbours "neighbours"("square": t(Square)) -> rl(Square), Q, "the orthogonal neighbours of a square on the map";
    Near "near"("squares": l(Square)) -> rl(Square), Q, "the map squares orthogonally next to any of the given squares, each once";
    Players "players"() -> rl(Player), Q, "the players in turn order";
    PlayersFrom "players_from"("player": t(Player)) -> rl(Player), Q, "every player in turn order, starting with the given one (\"each player in turn, starting with you\")";
    Followers "followers"("player": t(Player)) -> rl(Follower), Q, "a player's followers on the board";
    Reserve "reserve"("player": t(Player)) -> rl(Follower), Q, "a player's followers in their supply";
    Held "held"("area": t(Holding)) -> rl(Follower), Q, "the followers in a holding area";
    Stacks "stacks"() -> rl(Stack), Q, "the tile stacks lying on the map";
    Colours "colours"() -> rl(Colour), Q, "the chip colours, in the order of the chips item";
    Len "len"("list": PTy::AnyList) -> rt(Int), Q, "the number of elements of a list";
    First "first"("list": PTy::AnyList) -> RTy::ElemOfFirst, Q, "the first element of a non-empty list";
    Contains "contains"("list": PTy::AnyList, "value": PTy::ElemOfFirst) -> rt(Bool), Q, "whether a list holds a value";
    Take "take"("list": PTy::AnyList, "count": t(Int)) -> RTy::First, Q, "the first count elements of a list (all of them if it is shorter; none if count is 0 or less)";
    Min2 "min"("a": t(Int), "b": t(Int)) -> rt(Int), Q, "the smaller of two numbers (`min(x in L: e)` is the aggregate)";
    Max2 "max"("a": t(Int), "b": t(Int)) -> rt(Int), Q, "the larger of two numbers (`max(x in L: e)` is the aggregate)";
    Has "has"("square": t(Square), "attribute": t(Str)) -> rt(Bool), Q, "whether the map gives a square the attribute (named by a string); a square without it reads the type's default: 0, false, \"\"";
    // ---- the turn
    CurrentPlayer "current_player"() -> rt(Player), Q, "the player whose turn it is";
    TurnTile "turn_tile"() -> rt(Tile), Q, "the tile placed in this turn";
    TurnFollowersPlaced "turn_followers_placed"() -> rt(Int), Q, "followers the current player placed in this turn";
    IsExtraTurn "is_extra_turn"() -> rt(Bool), Q, "whether this turn is an extra turn";
    TurnNumber "turn_number"() -> rt(Int), Q, "the number of the current turn, from 1";
    TilesLeft "tiles_left"() -> rt(Int), Q, "tiles left in the draw stack";
    RoundNumber "round_number"() -> rt(Int), Q, "the number of the current round, from 1";
    ConnectsAbroad "connects_abroad"("tile": t(Tile)) -> rt(Bool), Q, "whether a tile connects abroad at a border exit";
    Placeable "placeable"("stack": t(Stack)) -> rt(Bool), Q, "whether the top tile of a stack has a legal placement now";
    // ---- effects
    Score "score"("who": t(Players), "points": t(Int)) -> rt(Unit), E, "scores points for players, logged under the rule's name";
    Move "move"("chips": PTy::ChipOrChips, "to": t(Place), "face": t(Face)) -> rt(Unit), E, "moves chips to a place, face up or down";
    Draw "draw"("count": t(Int), "from": t(Place), "to": t(Place), "face": t(Face)) -> rt(Unit), E, "moves count chips from one place to another: the top of the supply (a pool kept shuffled), or random ones of another place; fewer if fewer are there";
    Shuffle "shuffle"("place": t(Place)) -> rt(Unit), E, "shuffles the chips of a place";
    Strength "strength"("follower": t(Follower), "strength": t(Int)) -> rt(Unit), E, "sets how many followers a follower counts as in majorities";
    Send "send"("follower": t(Follower), "area": t(Holding)) -> rt(Unit), E, "puts a follower into a holding area";
    Recall "recall"("followers": l(Follower)) -> rt(Unit), E, "returns followers to their owners' supplies";
    ExtraTurn "extra_turn"() -> rt(Unit), E, "the current player plays one more complete turn after this one";
    ExtraTurnFor "extra_turn_for"("player": t(Player)) -> rt(Unit), E, "a player plays one complete extra turn after this one (then play goes on after the player whose regular turn it was)";
    TakeTile "take_tile"("stack": t(Stack)) -> rt(Unit), E, "the current player plays the top tile of a stack instead of drawing";
    TurnUp "turn_up"("stack": t(Stack)) -> rt(Unit), E, "turns the top tile of a stack face up";
    Scatter "scatter"("chips": l(Chip), "squares": l(Square), "apart": t(Bool), "face": t(Face)) -> rt(Unit), E, "spreads chips at random, one per square (apart: no two orthogonally adjacent); the rest go aside";
    Deal "deal"("squares": l(Square), "count": t(Int)) -> rt(Unit), E, "deals count tiles from the draw stack into a stack on each square";
    Log "log"("text": t(Str)) -> rt(Unit), E, "writes a line to the game log";
}

impl Builtin {
    pub fn from_name(s: &str) -> Option<Builtin> {
        Builtin::ALL.iter().copied().find(|b| b.info().name == s)
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
pub use crate::game::{Bound, Phase, Trigger};

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

/// Fields of the builtin types. Map attributes of squares are not here (see `Program::attrs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    ChipColour,
    ChipValue,
    ChipFaceUp,
    SquareX,
    SquareY,
    SquareTown,
    SquareStart,
    SquareCovered,
    SquareLand,
    SquareIsland,
    SquareLargeCity,
    SquareChips,
    SquareFreeSlots,
    FeatureKind,
    FeatureComplete,
    FeatureTiles,
    FeatureShields,
    FeatureCities,
    FeatureWinners,
    FeatureFollowers,
    FeatureSquares,
    FollowerOwner,
    FollowerStrength,
    FollowerPlacedTurn,
    FollowerFeature,
    FollowerSquare,
    PlayerScore,
    PlayerFollowersLeft,
    PlayerName,
    TileSquare,
    TileShields,
    StackSquare,
    StackSize,
}

/// (owner type, field name, field, field type, doc): one line per field, read as a table.
#[rustfmt::skip]
pub const FIELDS: &[(Base, &str, Field, Ty, &str)] = &[
    (Chip, "colour", Field::ChipColour, Ty::of(Colour), "the chip's colour"),
    (Chip, "value", Field::ChipValue, Ty::of(Int), "the chip's value"),
    (Chip, "face_up", Field::ChipFaceUp, Ty::of(Bool), "whether the chip lies face up"),
    (Square, "x", Field::SquareX, Ty::of(Int), "column, from 0 at the left"),
    (Square, "y", Field::SquareY, Ty::of(Int), "row, from 0 at the top"),
    (Square, "town", Field::SquareTown, Ty::of(Bool), "a printed town"),
    (Square, "start", Field::SquareStart, Ty::of(Bool), "a start square used in this game"),
    (Square, "covered", Field::SquareCovered, Ty::of(Bool), "a tile lies on it"),
    (Square, "land", Field::SquareLand, Ty::of(Bool), "a land square (a tile may go here)"),
    (Square, "island", Field::SquareIsland, Ty::of(Bool), "an island square"),
    (Square, "large_city", Field::SquareLargeCity, Ty::of(Bool), "part of a large city"),
    (Square, "chips", Field::SquareChips, Ty::list(Chip), "the chips lying on it"),
    (Square, "free_slots", Field::SquareFreeSlots, Ty::of(Int), "free chip slots"),
    (Feature, "kind", Field::FeatureKind, Ty::of(Kind), "road, city, field or monastery"),
    (Feature, "complete", Field::FeatureComplete, Ty::of(Bool), "whether it is complete"),
    (Feature, "tiles", Field::FeatureTiles, Ty::of(Int), "number of tiles (monastery: with its neighbours)"),
    (Feature, "shields", Field::FeatureShields, Ty::of(Int), "coats of arms"),
    (Feature, "cities", Field::FeatureCities, Ty::of(Int), "completed cities next to a field"),
    (Feature, "winners", Field::FeatureWinners, Ty::of(Players), "the players with the majority"),
    (Feature, "followers", Field::FeatureFollowers, Ty::list(Follower), "the followers on it"),
    (Feature, "squares", Field::FeatureSquares, Ty::list(Square), "the squares it covers"),
    (Follower, "owner", Field::FollowerOwner, Ty::of(Player), "who owns it"),
    (Follower, "strength", Field::FollowerStrength, Ty::of(Int), "how many followers it counts as"),
    (Follower, "placed_turn", Field::FollowerPlacedTurn, Ty::of(Int), "the turn number it was placed in"),
    (Follower, "feature", Field::FollowerFeature, Ty::of(Feature), "the feature it stands on"),
    (Follower, "square", Field::FollowerSquare, Ty::of(Square), "the square it stands on"),
    (Player, "score", Field::PlayerScore, Ty::of(Int), "points so far"),
    (Player, "followers_left", Field::PlayerFollowersLeft, Ty::of(Int), "followers in the player's supply"),
    (Player, "name", Field::PlayerName, Ty::of(Str), "the player's name"),
    (Tile, "square", Field::TileSquare, Ty::of(Square), "where the tile lies"),
    (Tile, "shields", Field::TileShields, Ty::of(Int), "coats of arms on the tile"),
    (Stack, "square", Field::StackSquare, Ty::of(Square), "where the stack lies"),
    (Stack, "size", Field::StackSize, Ty::of(Int), "tiles left in it"),
];

pub fn field(owner: Base, name: &str) -> Option<(Field, Ty)> {
    FIELDS
        .iter()
        .find(|(o, n, ..)| *o == owner && *n == name)
        .map(|(_, _, f, t, _)| (*f, *t))
}

pub fn field_names(owner: Base) -> impl Iterator<Item = &'static str> {
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

/// Names with a fixed meaning in expressions: kinds, places, faces.
pub const KIND_NAMES: [&str; 4] = ["road", "city", "field", "monastery"];
pub const PLACE_NAMES: [&str; 3] = ["supply", "aside", "box"];
pub const FACE_NAMES: [&str; 2] = ["up", "down"];
