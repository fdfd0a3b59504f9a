//! The map loader on arbitrary text. `[[part]]` maps resolve only to bundled names.
#![no_main]

use carto::diag::Source;
use carto::map::{bundled_map, parse_map, MapResolver};
use libfuzzer_sys::fuzz_target;

struct Bundled;

impl MapResolver for Bundled {
    fn resolve(&self, name: &str, _from: &Source) -> Result<Source, String> {
        bundled_map(name)
            .map(|t| Source::new(name, t))
            .ok_or_else(|| format!("no bundled map `{name}`"))
    }
}

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
