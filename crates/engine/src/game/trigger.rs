//! The moments the engine offers to the rules: the triggers it fires (with what each binds) and the
//! phases of a turn in which it offers actions.
//!
//! A trigger is one row of the `triggers!` table below: its name in rules files, the names it binds
//! (each with where its value comes from and its English name), its moment in the turn (what the
//! agents' analyses know of when it fires: [`Moment`]) and when it fires, in English (for
//! `carto doc`). The engine fires it (`Game::fire` with a [`Ctx`](super::Ctx)); the language reads
//! its bindings from the row, so a new trigger needs its row and the place that fires it.

macro_rules! triggers {
    ($( $(#[$attr:meta])* $v:ident $name:literal [$($b:expr),*] $moment:ident $phrase:literal; )*) => {
        /// The game events rules are triggered by.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Trigger { $($(#[$attr])* $v),* }

        impl Trigger {
            /// How many triggers there are (tables indexed by trigger are this long).
            pub(crate) const COUNT: usize = [$($name),*].len();
            pub const ALL: [Trigger; Trigger::COUNT] = [$(Trigger::$v),*];
            /// Its name in rules files (`rule r on NAME`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Trigger::$v => $name,)*
                }
            }
            /// When it fires in the turn, for the agents' analyses (its row's moment).
            #[inline]
            pub fn moment(self) -> Moment {
                match self {
                    $(Trigger::$v => Moment::$moment,)*
                }
            }
            /// When it fires, in English (`carto doc`): "when a player places a tile".
            pub fn phrase(self) -> &'static str {
                match self {
                    $(Trigger::$v => $phrase,)*
                }
            }
            /// What a rule on this trigger sees, in slot order (slot 0, 1, …).
            #[inline]
            pub fn bindings(self) -> &'static [Binding] {
                match self {
                    $(Trigger::$v => const { &[$($b),*] },)*
                }
            }
            /// The names a rule on this trigger sees, in slot order, with what each is.
            pub fn binds(self) -> &'static [(&'static str, Bound)] {
                match self {
                    $(Trigger::$v => const { &[$(($b.name, $b.from.kind())),*] },)*
                }
            }
            /// The English name of each binding, in slot order (`carto doc`).
            pub fn bound_phrases(self) -> &'static [&'static str] {
                match self {
                    $(Trigger::$v => const { &[$($b.phrase),*] },)*
                }
            }
        }
    };
}

/// When a trigger fires in the turn: the column of its row the agents' analyses read (a new
/// moment makes every analysis that matches on it say what it means there: their matches have no
/// default arm).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Moment {
    /// At the start of a turn, before its tile is drawn.
    TurnStart,
    /// A tile drawn, before it is placed (fires no more once the last tile is drawn).
    TileDrawn,
    /// The turn's tile placed, before its follower.
    Placement,
    /// The turn's tile placed, about one of its sides (so it reads how the tile is turned).
    PlacementSide,
    /// A follower placed.
    FollowerPlaced,
    /// A feature scored (during a turn or at the game's end).
    Scoring,
    /// A follower back from the board.
    FollowerReturned,
    /// Chips moved into a player's area: whenever an effect moves them, at any moment.
    ChipGained,
    /// Every question asked at a step answered.
    Answered,
    /// A turn's, a round's or the game's end.
    End,
}

/// A name a trigger binds: where its value comes from when the trigger fires, and its English name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    pub name: &'static str,
    pub from: Origin,
    pub phrase: &'static str,
}

impl Binding {
    pub(crate) const fn new(name: &'static str, from: Origin, phrase: &'static str) -> Binding {
        Binding { name, from, phrase }
    }
}

/// Where a binding's value comes from when its trigger fires: a field of the [`Ctx`](super::Ctx)
/// the engine fires it with, or the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// `Ctx::player`.
    Player,
    /// The player whose turn it is (`State::current`).
    Current,
    /// `Ctx::placed`: the tile the event is about (placed, or drawn and placed next).
    Tile,
    /// `Ctx::cell`.
    Square,
    /// The feature kind of `Ctx::edge`.
    Edge,
    /// `Ctx::chip`.
    Chip,
    /// `Ctx::follower`.
    Follower,
    /// `Ctx::feature` (its root).
    Feature,
}

impl Origin {
    /// The kind of game object it gives.
    pub(crate) const fn kind(self) -> Bound {
        match self {
            Origin::Player | Origin::Current => Bound::Player,
            Origin::Tile => Bound::Tile,
            Origin::Square => Bound::Square,
            Origin::Edge => Bound::Kind,
            Origin::Chip => Bound::Chip,
            Origin::Follower => Bound::Follower,
            Origin::Feature => Bound::Feature,
        }
    }
}

const PLAYER: Binding = Binding::new("player", Origin::Player, "the player");
const CURRENT: Binding = Binding::new("player", Origin::Current, "the player");
const TILE: Binding = Binding::new("tile", Origin::Tile, "the tile");
const SQUARE: Binding = Binding::new("square", Origin::Square, "the square");
const FOLLOWER: Binding = Binding::new("follower", Origin::Follower, "the follower");

// One row per trigger: NAME "name" [bindings] Moment "when it fires". Append new triggers at the end: the
// rules generator picks triggers by their place in `ALL`.
triggers! {
    Placed "placed" [PLAYER, TILE, SQUARE] Placement "when a player places a tile";
    Adjacent "adjacent" [PLAYER, TILE, SQUARE,
        Binding::new("side", Origin::Edge, "the kind of the tile's side facing it")]
        PlacementSide "for each square next to a tile a player places";
    Abroad "abroad" [PLAYER, TILE, SQUARE, Binding::new("kind", Origin::Edge, "the kind of feature")]
        PlacementSide "when a player's tile joins a road or city to a border exit";
    Gained "gained" [PLAYER, Binding::new("chip", Origin::Chip, "the chip")]
        ChipGained "when a player gains a chip";
    FollowerPlaced "follower_placed" [PLAYER, FOLLOWER] FollowerPlaced "when a player places a follower";
    Scored "scored" [Binding::new("feature", Origin::Feature, "the feature")]
        Scoring "when a feature is scored";
    Returned "returned" [PLAYER, FOLLOWER] FollowerReturned "when a follower comes back from the board";
    TurnStart "turn_start" [CURRENT] TurnStart "at the start of each turn";
    TurnEnd "turn_end" [CURRENT] End "at the end of each turn";
    RoundEnd "round_end" [] End "at the end of each round";
    GameEnd "game_end" [] End "at the end of the game";
    /// Every decision asked at a step has been answered (or dropped): settle what they decided.
    Answered "answered" [Binding::new("player", Origin::Current, "the player whose turn it is")]
        Answered "once every decision asked at a step has been answered";
    /// A tile drawn from the draw stack that has a placement, before it is placed: the tile is the
    /// one the turn will place (its value equals `turn_tile()` once placed).
    TileDrawn "tile_drawn" [PLAYER, Binding::new("tile", Origin::Tile, "the tile drawn")]
        TileDrawn "when a player draws a tile, before placing it";
}

impl Trigger {
    pub fn from_name(s: &str) -> Option<Trigger> {
        Trigger::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// What a trigger binds: the kinds of game object a rule on it sees by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    Player,
    Tile,
    Square,
    /// A feature kind (road, city, field, monastery).
    Kind,
    Chip,
    Follower,
    Feature,
}

/// When an action is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Instead of drawing a tile.
    Start,
    /// Phase 2, after follower placement.
    Follower,
    /// Phase 3 (the default).
    Score,
    /// After the turn.
    After,
    /// Never on offer in a phase: an action with parameters, offered to a player by `ask`.
    Asked,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are unique (a rules file names a trigger and its bindings by them), every trigger says
    /// when it fires, and its bindings' kinds and English names follow its bindings.
    #[test]
    fn every_row_is_whole() {
        for (i, t) in Trigger::ALL.into_iter().enumerate() {
            assert_eq!(t as usize, i, "ALL is in declaration order");
            assert_eq!(Trigger::from_name(t.name()), Some(t));
            assert!(!t.phrase().is_empty(), "{}", t.name());
            let b = t.bindings();
            assert_eq!(b.len(), t.binds().len());
            assert_eq!(b.len(), t.bound_phrases().len());
            for (k, x) in b.iter().enumerate() {
                assert_eq!(t.binds()[k], (x.name, x.from.kind()));
                assert!(b[..k].iter().all(|y| y.name != x.name), "{}", t.name());
            }
        }
    }
}
