//! The rules parser and checker on arbitrary text. Imports and maps resolve only to bundled names: the
//! target never reads the disk.
#![no_main]

use carto::diag::Source;
use carto::lang::check::{check_source, render, RulesResolver};
use carto::map::{bundled_map, parse_map, MapBoard, MapResolver};
use libfuzzer_sys::fuzz_target;

struct Bundled;

impl RulesResolver for Bundled {
    fn resolve(&self, name: &str, _from: &Source) -> Result<Source, String> {
        carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, t)| Source::new(format!("rules/{n}.rules"), *t))
            .ok_or_else(|| format!("no bundled rules `{name}`"))
    }
}

impl MapResolver for Bundled {
    fn resolve(&self, name: &str, _from: &Source) -> Result<Source, String> {
        bundled_map(name)
            .map(|t| Source::new(name, t))
            .ok_or_else(|| format!("no bundled map `{name}`"))
    }
}

fn load_map(name: &str, _from: &Source) -> Result<MapBoard, String> {
    let text = bundled_map(name).ok_or_else(|| format!("no bundled map `{name}`"))?;
    let src = Source::new(name, text);
    parse_map(&src, &Bundled).map_err(|d| src.render(&d))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = Source::new("fuzz.rules", text);
    let result = check_source(&src, &Bundled, &load_map);
    let _ = render(&result);
});
