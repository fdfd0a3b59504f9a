//! The English phrase of every builtin, field, trigger, phase and limit, for the generated documentation
//! (`carto doc`). One row per name. A builtin's phrase is in its row of `builtins!` (`lang/builtins.rs`),
//! a field's in its row of `fields!`, a trigger's in its row of `triggers!` (the engine's
//! `game/trigger.rs`).
//!
//! Templates: `{0}`, `{1}`, … are the arguments (or, for a field, the value it is read from);
//! `{0's}` is the possessive of argument 0 ("your", "the player's"); `[s]` (`[es]`) is an `s` (`es`)
//! unless argument 0 is plural ("you", "the players …", a list); `{2?TEXT}` is TEXT when argument 2 is
//! `true`, nothing when `false`, "(TEXT if …)" otherwise. A predicate (a builtin or field giving a bool) has a second
//! template for its negation, so `not s.town` reads "s is not a town".

/// (phase name, phrase).
pub(crate) const PHASE_PHRASES: &[(&str, &str)] = &[
    ("start", "instead of drawing a tile"),
    ("follower", "phase 2, after placing a follower"),
    ("score", "phase 3"),
    ("after", "after the turn"),
];

/// Names with a fixed meaning in expressions (kinds, places, faces, booleans).
pub(crate) const NAME_PHRASES: &[(&str, &str)] = &[
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
    let i = crate::builtins::Builtin::from_name(name)?.info();
    Some((i.phrase, i.negated))
}

/// A field's phrase and the phrase of its negation (in its rows of `fields!`; a name means the
/// same on every type that has it).
pub fn field_phrase(name: &str) -> Option<(&'static str, &'static str)> {
    let (_, _, f, ..) = crate::builtins::FIELDS
        .iter()
        .find(|(_, n, ..)| *n == name)?;
    Some((f.info().phrase, f.info().negated))
}

/// When a trigger fires, and the English name of each name it binds in slot order (both in its row
/// of the engine's `triggers!` table).
pub fn trigger_phrase(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    let t = crate::builtins::Trigger::from_name(name)?;
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
