//! The map loader on arbitrary text. `[[part]]` maps resolve only to bundled names.
#![no_main]

use carto::diag::Source;
use carto::map::parse_map;
use libfuzzer_sys::fuzz_target;

use carto::variant::BundledOnly as Bundled;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = Source::new("fuzz.toml", text);
    match parse_map(&src, &Bundled) {
        Ok(map) => {
            let _ = carto::board::Board::from_map(&map);
        }
        Err(d) => {
            let _ = src.render(&d);
        }
    }
});
