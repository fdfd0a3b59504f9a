//! The tree-sitter grammars of carto's rules files and scripts, and their queries.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser.set_language(&tree_sitter_carto::LANGUAGE.into()).unwrap();
//! let tree = parser.parse("param reward: int in 0..9 = 3 \"points\"\n", None).unwrap();
//! assert!(!tree.root_node().has_error());
//! ```

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_carto() -> *const ();
    fn tree_sitter_carto_script() -> *const ();
}

/// The grammar of rules files (`*.rules`, grammar/carto.pest).
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_carto) };
/// The grammar of scripts (`*.script`, docs/format-script.md).
pub const SCRIPT_LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_carto_script) };

/// Highlighting of rules files.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../rules/queries/highlights.scm");
/// Folding of rules files.
pub const FOLDS_QUERY: &str = include_str!("../../rules/queries/folds.scm");
/// The outline of a rules file.
pub const OUTLINE_QUERY: &str = include_str!("../../rules/queries/outline.scm");
/// Highlighting of scripts.
pub const SCRIPT_HIGHLIGHTS_QUERY: &str = include_str!("../../script/queries/highlights.scm");
