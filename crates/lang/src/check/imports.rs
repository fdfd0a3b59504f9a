//! Loading a rules file and, depth first, everything it imports: each file once, import cycles
//! reported with their chain, files ordered so that an imported file comes before its importer.

use super::{Checker, RulesResolver};
use crate::ast::{self, ItemKind};
use crate::diag::{Code, Diagnostic, Source};
use crate::parser::parse_file;

impl Checker {
    /// Parses `src` and loads its imports; returns its index in `files`.
    pub(super) fn load(
        &mut self,
        src: Source,
        resolver: &dyn RulesResolver,
        stack: &mut Vec<String>,
    ) -> usize {
        let idx = self.files.len();
        let (file, diags) = parse_once(&src);
        self.diags.extend(diags.into_iter().map(|d| (idx, d)));
        self.files.push(src.clone());
        self.asts.push(ast::File::default());
        self.imports.push(Vec::new());
        stack.push(src.name.clone());
        for item in &file.items {
            let ItemKind::Import(name) = &item.kind else {
                continue;
            };
            match resolver.resolve(&name.value, &src) {
                Err(msg) => self.diags.push((
                    idx,
                    Diagnostic::error(
                        Code::ImportNotFound,
                        name.span.clone(),
                        format!("cannot import `{}`", name.value),
                    )
                    .with_label("not found")
                    .with_note(msg),
                )),
                Ok(imported) => {
                    if stack.contains(&imported.name) {
                        self.diags.push((
                            idx,
                            Diagnostic::error(
                                Code::ImportCycle,
                                name.span.clone(),
                                format!("import cycle: `{}` imports itself", imported.name),
                            )
                            .with_label("imported again here")
                            .with_note(format!(
                                "the chain is {} -> {}",
                                stack.join(" -> "),
                                imported.name
                            )),
                        ));
                    } else {
                        let target = match self.files.iter().position(|f| f.name == imported.name) {
                            Some(t) => t,
                            None => self.load(imported, resolver, stack),
                        };
                        self.imports[idx].push((target, item.span.clone()));
                    }
                }
            }
        }
        stack.pop();
        self.asts[idx] = file;
        self.order.push(idx);
        idx
    }
}

/// Parses a rules file; a bundled one (the same text) is parsed once per process and its tree
/// copied after that. Loading a variant parses every file it imports: with the cache, a fuzz input or
/// a test that imports `map-chips` no longer parses it again each time (a `rules` fuzz input spent
/// most of its time there).
pub fn parse_once(src: &Source) -> (ast::File, Vec<Diagnostic>) {
    use std::sync::OnceLock;
    type Parsed = (ast::File, Vec<Diagnostic>);
    static PARSED: OnceLock<Vec<OnceLock<Parsed>>> = OnceLock::new();
    let rules = super::BUNDLED_RULES;
    let Some(i) = rules.iter().position(|(_, t)| src.text == *t) else {
        return parse_file(src);
    };
    let cells = PARSED.get_or_init(|| rules.iter().map(|_| OnceLock::new()).collect());
    cells[i].get_or_init(|| parse_file(src)).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundled_file_parsed_once_is_parsed_as_ever() {
        for (n, text) in super::super::BUNDLED_RULES {
            let src = Source::new(format!("rules/{n}.rules"), *text);
            let first = parse_once(&src);
            let again = parse_once(&src);
            let direct = parse_file(&src);
            assert_eq!(first.0, direct.0, "{n}");
            assert_eq!(again.0, direct.0, "{n}");
            assert_eq!(first.1.len(), direct.1.len(), "{n}");
        }
        // Another text is parsed as it is.
        let other = Source::new("x.rules", "import \"base\"\n");
        assert_eq!(parse_once(&other).0, parse_file(&other).0);
    }
}
