//! Issue 8, B: `carto check` reports, with file:line:col, what play would refuse. One snapshot per
//! kind of problem: the source and the rendered diagnostics together (as tests/lang_diagnostics.rs).

use carto::diag::Source;
use carto::lang::check::{check_source, render, BundledRules};

/// Checks `src` as `test.rules`, with bundled imports and maps (`carto::variant::load_map`).
fn check(src: &str) -> String {
    let source = Source::new("test.rules", src);
    let result = check_source(&source, &BundledRules, &carto::variant::load_map);
    format!(
        "----- SOURCE\n{src}\n----- DIAGNOSTICS\n{}",
        render(&result)
    )
}

macro_rules! snap {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            let out = check($src);
            assert!(out.contains("error"), "no error:\n{out}");
            insta::assert_snapshot!(stringify!($name), out);
        }
    };
}

// A4: a forced action that always applies would be taken without end.
snap!(
    forced_always_applies,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nforced f when true {\n  score(player, 1)\n}\n"
);
