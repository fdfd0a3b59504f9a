//! The script loader on arbitrary text, always with the bundled `base` variant: `variant` lines are
//! dropped and `variant base` comes first, so the target never reads the disk. Scripts are capped at
//! 4 KiB, which bounds the steps and the tile order; every interpreter run has its operation budget.
#![no_main]

use carto::diag::Source;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut script = String::from("variant base\n");
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("variant") {
            script.push('\n');
        } else {
            script.push_str(line);
        }
    }
    let src = Source::new("fuzz.script", script);
    if let Ok(run) = carto::script::run_script(&src) {
        let _ = carto::output::transcript(&run.game);
    }
});
