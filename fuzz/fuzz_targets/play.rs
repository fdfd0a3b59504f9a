//! Generated, well-typed rules files (`carto::lang::gen`) checked and, when they pass, played a few
//! turns by random agents (`carto::trial`): no panic, and no runaway in time or memory (the
//! interpreter's operation budget stops a rule that keeps going). The bytes steer the generator, so
//! every input is a valid-looking file, unlike the `rules` target's arbitrary text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = carto::trial::play_generated(data);
});
