//! The integration tests, in one binary (issue 21: one link instead of one per file). Each file in
//! `tests/` stays where it is and is one module here; `tests/fixtures.rs` is its own binary because
//! `.ci/run` also runs it against the release build. A file in `tests/` that is not listed here is
//! caught by `every_test_file_is_a_module` below. Run one file's tests: `cargo test --test it cli::`.

#[path = "../common/mod.rs"]
mod common;

#[path = "../agents.rs"]
mod agents;
#[path = "../asked.rs"]
mod asked;
#[path = "../battery.rs"]
mod battery;
#[path = "../caches.rs"]
mod caches;
#[path = "../check_finds.rs"]
mod check_finds;
#[path = "../cli.rs"]
mod cli;
#[path = "../doc.rs"]
mod doc;
#[path = "../error_codes.rs"]
mod error_codes;
#[path = "../expansions.rs"]
mod expansions;
#[path = "../fmt.rs"]
mod fmt;
#[path = "../function_length.rs"]
mod function_length;
#[path = "../generated.rs"]
mod generated;
#[path = "../grammar_doc.rs"]
mod grammar_doc;
#[path = "../hostile.rs"]
mod hostile;
#[path = "../house_rules.rs"]
mod house_rules;
#[path = "../invariants.rs"]
mod invariants;
#[path = "../island_stacks.rs"]
mod island_stacks;
#[path = "../lang_diagnostics.rs"]
mod lang_diagnostics;
#[path = "../lang_parse.rs"]
mod lang_parse;
#[path = "../log_contract.rs"]
mod log_contract;
#[path = "../lsp.rs"]
mod lsp;
#[path = "../maps.rs"]
mod maps;
#[path = "../maps_variants_a.rs"]
mod maps_variants_a;
#[path = "../maps_variants_b.rs"]
mod maps_variants_b;
#[path = "../oracle.rs"]
mod oracle;
#[path = "../principles.rs"]
mod principles;
#[path = "../range_bounds.rs"]
mod range_bounds;
#[path = "../render.rs"]
mod render;
#[path = "../render_labels.rs"]
mod render_labels;
#[path = "../replays.rs"]
mod replays;
#[path = "../rule_errors.rs"]
mod rule_errors;
#[path = "../rule_skips.rs"]
mod rule_skips;
#[path = "../scatter.rs"]
mod scatter;
#[path = "../schema.rs"]
mod schema;
#[path = "../scripts.rs"]
mod scripts;
#[path = "../seats.rs"]
mod seats;
#[path = "../sim.rs"]
mod sim;
#[path = "../sim_report.rs"]
mod sim_report;
#[path = "../states.rs"]
mod states;
#[path = "../strangers.rs"]
mod strangers;
#[path = "../tiles.rs"]
mod tiles;
#[path = "../timeline.rs"]
mod timeline;
#[path = "../transcript.rs"]
mod transcript;
#[path = "../tune.rs"]
mod tune;
#[path = "../turn_order.rs"]
mod turn_order;
#[path = "../typed_paths.rs"]
mod typed_paths;

/// Every `tests/*.rs` is a module of this binary (or `fixtures`, a binary of its own): a new test file
/// that nobody lists here would otherwise never run.
#[test]
fn every_test_file_is_a_module() {
    let listed = include_str!("main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        if stem != "fixtures" && !listed.contains(&format!("#[path = \"../{name}\"]\nmod {stem};"))
        {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/{:?} not listed in tests/it/main.rs",
        missing
    );
}
