//! Loading a rules file and, depth first, everything it imports: each file once, import cycles
//! reported with their chain, files ordered so that an imported file comes before its importer.

use super::{Checker, RulesResolver};
use crate::diag::{Diagnostic, Source};
use crate::lang::ast::{self, ItemKind};
use crate::lang::parser::parse_file;

impl Checker {
    /// Parses `src` and loads its imports; returns its index in `files`.
    pub(super) fn load(
        &mut self,
        src: Source,
        resolver: &dyn RulesResolver,
        stack: &mut Vec<String>,
    ) -> usize {
        let idx = self.files.len();
        let (file, diags) = parse_file(&src);
        self.diags.extend(diags.into_iter().map(|d| (idx, d)));
        self.files.push(src.clone());
        self.asts.push(ast::File::default());
        stack.push(src.name.clone());
        for item in &file.items {
            let ItemKind::Import(name) = &item.kind else {
                continue;
            };
            match resolver.resolve(&name.value, &src) {
                Err(msg) => self.diags.push((
                    idx,
                    Diagnostic::error(name.span.clone(), format!("cannot import `{}`", name.value))
                        .with_label("not found")
                        .with_note(msg),
                )),
                Ok(imported) => {
                    if stack.contains(&imported.name) {
                        self.diags.push((
                            idx,
                            Diagnostic::error(
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
                    } else if !self.files.iter().any(|f| f.name == imported.name) {
                        self.load(imported, resolver, stack);
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
