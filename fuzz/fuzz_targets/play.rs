//! Generated, well-typed rules files (`carto_gen`) checked and, when they pass, played a few
//! turns by random agents and then scored as if the game ended there (`carto_gen::trial`): no panic,
//! and no runaway in time or memory (the interpreter's operation budget stops a rule that keeps
//! going; the `answered` guard stops endless re-asking). The bytes steer the generator, so every
//! input is a valid-looking file, unlike the `rules` target's arbitrary text. The generator writes
//! every builtin and trigger: asks from rules and from actions (in turn scoring and, since the
//! trial ends the game, in final scoring), `on answered`, `extra_turn_for`, `players_from`, and a
//! holding area per player (`holding_of`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = carto_gen::trial::play_generated(data);
});
