//! The engine's tests, in one binary: hand-built tiles and maps, placements and their refusals,
//! features, and random games with no rules at all (`NoRules`). None of them needs the rules language.

mod features;
mod placement;
mod random;
mod support;
