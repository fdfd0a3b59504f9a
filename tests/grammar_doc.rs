//! Every rule of grammar/carto.pest has a `### name` entry in grammar/GRAMMAR.md.

#[test]
fn every_grammar_rule_is_documented() {
    let root = env!("CARGO_MANIFEST_DIR");
    let pest =
        std::fs::read_to_string(format!("{root}/grammar/carto.pest")).expect("read carto.pest");
    let doc =
        std::fs::read_to_string(format!("{root}/grammar/GRAMMAR.md")).expect("read GRAMMAR.md");
    let documented: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .map(str::trim)
        .collect();
    let mut missing = Vec::new();
    let mut count = 0;
    for line in pest.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let Some((name, rest)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let is_rule = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && ["_{", "@{", "${", "!{", "{"]
                .iter()
                .any(|p| rest.trim_start().starts_with(p));
        if !is_rule {
            continue;
        }
        count += 1;
        if !documented.contains(&name) {
            missing.push(name.to_string());
        }
    }
    assert!(count > 20, "found only {count} rules in carto.pest");
    assert!(
        missing.is_empty(),
        "rules without a `### name` entry in GRAMMAR.md: {missing:?}"
    );
}
