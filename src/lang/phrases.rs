//! The English phrase of every builtin, field, trigger, phase and limit, for the generated documentation
//! (`carto doc`). One row per name; `tests/doc.rs` fails when a builtin, field or trigger has none.
//!
//! Templates: `{0}`, `{1}`, … are the arguments (or, for a field, the value it is read from);
//! `{0's}` is the possessive of argument 0 ("your", "the player's"); `[s]` (`[es]`) is an `s` (`es`)
//! unless argument 0 is plural ("you", "the players …", a list); `{2?TEXT}` is TEXT when argument 2 is
//! `true`, nothing when `false`, "(TEXT if …)" otherwise. A predicate (a builtin or field giving a bool) has a second
//! template for its negation, so `not s.town` reads "s is not a town".

/// (builtin name, phrase, negated phrase for a bool result or "").
pub const BUILTIN_PHRASES: &[(&str, &str, &str)] = &[
    // places
    ("hand", "{0's} hand", ""),
    ("at", "{0}", ""),
    ("slots", "the chip slots of {0}", ""),
    ("under", "the space under {0}", ""),
    ("holding", "{0}", ""),
    // lists
    ("chips", "the chips in {0}", ""),
    ("squares", "the squares of the map", ""),
    ("slot_squares", "the squares with chip slots", ""),
    ("squares_with", "the squares whose {0} is {1}", ""),
    ("neighbours", "the squares next to {0}", ""),
    ("near", "the squares next to any of {0}", ""),
    ("players", "the players", ""),
    ("holding_of", "{1's} part of {0}", ""),
    ("players_from", "the players in turn order starting with {0}", ""),
    ("followers", "{0's} followers on the board", ""),
    ("reserve", "{0's} followers in reserve", ""),
    ("held", "the followers in {0}", ""),
    ("stacks", "the tile stacks on the map", ""),
    ("colours", "the chip colours", ""),
    ("len", "the number of {0}", ""),
    ("first", "the first of {0}", ""),
    ("contains", "{1} is among {0}", "{1} is not among {0}"),
    ("take", "the first {1} of {0}", ""),
    ("min", "the smaller of {0} and {1}", ""),
    ("max", "the larger of {0} and {1}", ""),
    ("has", "{0} has a {1}", "{0} has no {1}"),
    // the turn
    ("current_player", "the current player", ""),
    ("turn_tile", "the tile placed this turn", ""),
    (
        "turn_followers_placed",
        "the number of followers placed this turn",
        "",
    ),
    (
        "is_extra_turn",
        "this is an extra turn",
        "this is not an extra turn",
    ),
    ("turn_number", "the number of the turn", ""),
    ("tiles_left", "the number of tiles left to draw", ""),
    ("round_number", "the number of the round", ""),
    (
        "connects_abroad",
        "{0} joins a road or city to a border exit",
        "{0} joins no road or city to a border exit",
    ),
    (
        "placeable",
        "the top tile of {0} can be placed",
        "the top tile of {0} cannot be placed",
    ),
    // effects
    ("score", "{0} score[s] {1}", ""),
    ("move", "{0} go[es] to {1} {2}", ""),
    ("draw", "{0} chips go from {1} to {2} {3}", ""),
    ("shuffle", "the chips in {0} are shuffled", ""),
    ("strength", "{0} count[s] as {1} followers", ""),
    ("send", "{0} go[es] to {1}", ""),
    ("recall", "{0} go[es] back to their owners", ""),
    ("extra_turn", "the current player plays an extra turn", ""),
    ("extra_turn_for", "{0} plays an extra turn after this one", ""),
    (
        "take_tile",
        "the current player plays the top tile of {0} instead of drawing",
        "",
    ),
    ("turn_up", "the top tile of {0} is turned face up", ""),
    (
        "scatter",
        "{0} are scattered {3} over {1}, one a square{2?, no two side by side}; the rest are set aside",
        "",
    ),
    ("deal", "{1} tiles from the draw stack are dealt onto each of {0}", ""),
    ("log", "the game log notes {0}", ""),
];

/// (field name, phrase, negated phrase for a bool field or ""); a field name means the same on every
/// type that has it.
pub const FIELD_PHRASES: &[(&str, &str, &str)] = &[
    ("colour", "the colour of {0}", ""),
    ("value", "the value of {0}", ""),
    ("face_up", "{0} lies face up", "{0} lies face down"),
    ("x", "the column of {0}", ""),
    ("y", "the row of {0}", ""),
    ("town", "{0} is a town", "{0} is not a town"),
    (
        "start",
        "{0} is a start square in use",
        "{0} is not a start square in use",
    ),
    ("covered", "{0} is covered", "{0} is not covered"),
    ("land", "{0} is land", "{0} is not land"),
    ("island", "{0} is an island", "{0} is not an island"),
    (
        "large_city",
        "{0} is part of a large city",
        "{0} is not part of a large city",
    ),
    ("chips", "the chips on {0}", ""),
    ("free_slots", "the number of free chip slots of {0}", ""),
    ("kind", "the kind of {0}", ""),
    ("complete", "{0} is complete", "{0} is incomplete"),
    ("tiles", "the number of tiles of {0}", ""),
    ("shields", "the number of coats of arms of {0}", ""),
    ("cities", "the number of completed cities next to {0}", ""),
    ("winners", "the players with the most followers on {0}", ""),
    ("followers", "the followers on {0}", ""),
    ("squares", "the squares of {0}", ""),
    ("owner", "the owner of {0}", ""),
    ("strength", "the strength of {0}", ""),
    ("placed_turn", "the turn {0} was placed in", ""),
    ("feature", "the feature {0} stands on", ""),
    ("square", "the square of {0}", ""),
    ("score", "{0's} score", ""),
    (
        "followers_left",
        "the number of {0's} followers in reserve",
        "",
    ),
    ("name", "{0's} name", ""),
    ("size", "the number of tiles in {0}", ""),
];

/// (trigger name, when it fires, the English name of each name it binds in slot order).
pub const TRIGGER_PHRASES: &[(&str, &str, &[&str])] = &[
    (
        "placed",
        "when a player places a tile",
        &["the player", "the tile", "the square"],
    ),
    (
        "adjacent",
        "for each square next to a tile a player places",
        &[
            "the player",
            "the tile",
            "the square",
            "the kind of the tile's side facing it",
        ],
    ),
    (
        "abroad",
        "when a player's tile joins a road or city to a border exit",
        &[
            "the player",
            "the tile",
            "the square",
            "the kind of feature",
        ],
    ),
    (
        "gained",
        "when a player gains a chip",
        &["the player", "the chip"],
    ),
    (
        "follower_placed",
        "when a player places a follower",
        &["the player", "the follower"],
    ),
    ("scored", "when a feature is scored", &["the feature"]),
    (
        "returned",
        "when a follower comes back from the board",
        &["the player", "the follower"],
    ),
    ("turn_start", "at the start of each turn", &["the player"]),
    ("turn_end", "at the end of each turn", &["the player"]),
    ("round_end", "at the end of each round", &[]),
    ("game_end", "at the end of the game", &[]),
    (
        "answered",
        "once every decision asked at a step has been answered",
        &["the player whose turn it is"],
    ),
];

/// (phase name, phrase).
pub const PHASE_PHRASES: &[(&str, &str)] = &[
    ("start", "instead of drawing a tile"),
    ("follower", "phase 2, after placing a follower"),
    ("score", "phase 3"),
    ("after", "after the turn"),
];

/// Names with a fixed meaning in expressions (kinds, places, faces, booleans).
pub const NAME_PHRASES: &[(&str, &str)] = &[
    ("road", "a road"),
    ("city", "a city"),
    ("field", "a field"),
    ("monastery", "a monastery"),
    ("supply", "the supply"),
    ("aside", "the chips set aside"),
    ("box", "the box"),
    ("up", "face up"),
    ("down", "face down"),
    ("true", "true"),
    ("false", "false"),
];

pub fn builtin_phrase(name: &str) -> Option<(&'static str, &'static str)> {
    BUILTIN_PHRASES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, p, neg)| (*p, *neg))
}

pub fn field_phrase(name: &str) -> Option<(&'static str, &'static str)> {
    FIELD_PHRASES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, p, neg)| (*p, *neg))
}

pub fn trigger_phrase(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    TRIGGER_PHRASES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, p, b)| (*p, *b))
}

pub fn phase_phrase(name: &str) -> Option<&'static str> {
    PHASE_PHRASES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, p)| *p)
}

pub fn name_phrase(name: &str) -> Option<&'static str> {
    NAME_PHRASES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, p)| *p)
}
