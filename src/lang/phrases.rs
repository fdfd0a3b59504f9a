//! The English phrase of every builtin, field, trigger, phase and limit, for the generated documentation
//! (`carto doc`). One row per name. A builtin's phrase is in its row of `builtins!` (`lang/builtins.rs`),
//! a trigger's in its row of `triggers!` (the engine's `game/trigger.rs`); `tests/doc.rs` fails when
//! a field has none.
//!
//! Templates: `{0}`, `{1}`, … are the arguments (or, for a field, the value it is read from);
//! `{0's}` is the possessive of argument 0 ("your", "the player's"); `[s]` (`[es]`) is an `s` (`es`)
//! unless argument 0 is plural ("you", "the players …", a list); `{2?TEXT}` is TEXT when argument 2 is
//! `true`, nothing when `false`, "(TEXT if …)" otherwise. A predicate (a builtin or field giving a bool) has a second
//! template for its negation, so `not s.town` reads "s is not a town".

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

/// A builtin's phrase and the phrase of its negation (both in its row of `builtins!`).
pub fn builtin_phrase(name: &str) -> Option<(&'static str, &'static str)> {
    let i = crate::lang::builtins::Builtin::from_name(name)?.info();
    Some((i.phrase, i.negated))
}

pub fn field_phrase(name: &str) -> Option<(&'static str, &'static str)> {
    FIELD_PHRASES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, p, neg)| (*p, *neg))
}

/// When a trigger fires, and the English name of each name it binds in slot order (both in its row
/// of the engine's `triggers!` table).
pub fn trigger_phrase(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    let t = crate::lang::builtins::Trigger::from_name(name)?;
    Some((t.phrase(), t.bound_phrases()))
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
