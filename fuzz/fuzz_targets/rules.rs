//! The rules parser and checker on arbitrary text. Imports and maps resolve only to bundled names: the
//! target never reads the disk.
#![no_main]

use carto::diag::Source;
use carto::lang::check::{check_source, render};
use libfuzzer_sys::fuzz_target;

use carto::variant::BundledOnly as Bundled;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = Source::new("fuzz.rules", text);
    let result = check_source(&src, &Bundled, &Bundled::load_map);
    let _ = render(&result);
});
