//! Every bundled rules file and script parses with the tree-sitter grammars, with no ERROR or
//! MISSING node; the queries compile against them; the Zed extension's copies of the queries are
//! the grammar's. A change to carto's language that the grammars do not follow fails here.

use std::path::{Path, PathBuf};
use tree_sitter::{Language, Node, Parser, Query};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files under `dir` (recursively) whose name ends with `.ext`, sorted.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Every ERROR or MISSING node of the tree, as `line:col: what`.
fn problems(node: Node, out: &mut Vec<String>) {
    if node.is_error() || node.is_missing() {
        let at = node.start_position();
        let what = if node.is_missing() {
            format!("MISSING {}", node.kind())
        } else {
            "ERROR".into()
        };
        out.push(format!("{}:{}: {what}", at.row + 1, at.column + 1));
    }
    if node.has_error() {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            problems(child, out);
        }
    }
}

fn parse_problems(language: &Language, text: &str) -> Vec<String> {
    let mut parser = Parser::new();
    parser.set_language(language).unwrap();
    let tree = parser.parse(text, None).unwrap();
    let mut out = Vec::new();
    problems(tree.root_node(), &mut out);
    out
}

fn all_parse(language: Language, ext: &str, dirs: &[&str]) -> usize {
    let root = repository();
    let mut paths = Vec::new();
    for dir in dirs {
        files(&root.join(dir), ext, &mut paths);
    }
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        for problem in parse_problems(&language, &text) {
            failures.push(format!(
                "{}:{problem}",
                path.strip_prefix(&root).unwrap().display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "the tree-sitter grammar does not parse:\n{}",
        failures.join("\n")
    );
    paths.len()
}

#[test]
fn every_bundled_rules_file_parses() {
    let n = all_parse(
        tree_sitter_carto::LANGUAGE.into(),
        "rules",
        &["rules", "examples", "tests/scripts", "tests/fixtures"],
    );
    assert!(n >= 50, "only {n} rules files found");
}

#[test]
fn every_bundled_script_parses() {
    let n = all_parse(
        tree_sitter_carto::SCRIPT_LANGUAGE.into(),
        "script",
        &["examples", "tests/scripts", "tests/fixtures"],
    );
    assert!(n >= 100, "only {n} scripts found");
}

#[test]
fn a_broken_file_is_seen_as_broken() {
    // The checks above can fail: a rule without its trigger, a `let` without its value, a script
    // line cut by a comment. (tests/regressions holds broken files on purpose: not read above.)
    let rules: Language = tree_sitter_carto::LANGUAGE.into();
    assert!(parse_problems(&rules, "rule r on t { score(player, 1) }").is_empty());
    assert!(!parse_problems(&rules, "rule r { score(player, 1) }").is_empty());
    assert!(!parse_problems(&rules, "setup { let x = }").is_empty());
    let script: Language = tree_sitter_carto::SCRIPT_LANGUAGE.into();
    assert!(parse_problems(
        &script,
        "variant france\nbob: pay_toll orange1\nplace U at -1,0 r90"
    )
    .is_empty());
    assert!(!parse_problems(&script, "bob: : pass").is_empty());
}

#[test]
fn the_queries_compile_and_zed_has_the_same() {
    let rules: Language = tree_sitter_carto::LANGUAGE.into();
    let script: Language = tree_sitter_carto::SCRIPT_LANGUAGE.into();
    for (language, query) in [
        (&rules, tree_sitter_carto::HIGHLIGHTS_QUERY),
        (&rules, tree_sitter_carto::FOLDS_QUERY),
        (&rules, tree_sitter_carto::OUTLINE_QUERY),
        (&script, tree_sitter_carto::SCRIPT_HIGHLIGHTS_QUERY),
    ] {
        if let Err(e) = Query::new(language, query) {
            panic!("{e}\n{query}");
        }
    }
    let zed = repository().join("editors/zed/languages");
    for (copy, original) in [
        ("carto/highlights.scm", tree_sitter_carto::HIGHLIGHTS_QUERY),
        ("carto/outline.scm", tree_sitter_carto::OUTLINE_QUERY),
        (
            "carto-script/highlights.scm",
            tree_sitter_carto::SCRIPT_HIGHLIGHTS_QUERY,
        ),
    ] {
        let text = std::fs::read_to_string(zed.join(copy)).unwrap();
        assert_eq!(
            text, original,
            "editors/zed/languages/{copy} differs from the grammar's query"
        );
    }
}
