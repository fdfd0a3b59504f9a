//! `carto doc` of every bundled variant, pinned: the rules files are the variants' documentation, and
//! this is how a reader sees them (prose, map, parameters with defaults, rules and actions).

use carto::variant::{bundled_variants, load_variant};

#[test]
fn every_bundled_variant_documents_itself() {
    let mut n = 0;
    for (name, _) in bundled_variants() {
        let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let doc = carto::doc::document(&v);
        assert!(doc.contains("parameters"), "{name}");
        insta::assert_snapshot!(format!("doc_{name}"), doc);
        n += 1;
    }
    assert!(n >= 11, "{n} variants");
}
