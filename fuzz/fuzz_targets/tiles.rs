//! The tile-set loader on arbitrary text.
#![no_main]

use carto::diag::Source;
use carto::tiles::parse_tile_set;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = Source::new("fuzz.toml", text);
    match parse_tile_set("fuzz", &src) {
        Ok(set) => {
            let _ = carto::game::compile_tiles(&[set]);
        }
        Err(d) => {
            let _ = src.render(&d);
        }
    }
});
