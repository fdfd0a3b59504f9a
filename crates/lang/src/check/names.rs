//! Global names: feature kinds, places and faces every file knows; chip colours (the `chips` item,
//! one per file, the importing file's replacing the imported one) and holding areas; and clashes
//! between them.

use super::{Checker, Global};
use crate::ast::{self, ItemKind};
use crate::builtins;
use crate::diag::{Code, Diagnostic};
use crate::geometry::FeatureKind;
use crate::ir::{self, Face, Place};

impl Checker {
    /// The names every rules file knows: feature kinds, the fixed places and the faces.
    pub(super) fn declare_fixed_names(&mut self) {
        for k in builtins::KIND_NAMES {
            if let Some(kind) = FeatureKind::from_name(k) {
                self.globals.insert(k.into(), Global::Kind(kind));
            }
        }
        for (n, p) in [
            ("supply", Place::Supply),
            ("aside", Place::Aside),
            ("box", Place::Box),
        ] {
            self.globals.insert(n.into(), Global::Place(p));
        }
        self.globals.insert("up".into(), Global::Face(Face::Up));
        self.globals.insert("down".into(), Global::Face(Face::Down));
    }

    /// Chips and holdings: the names every expression may use.
    pub(super) fn declare_chips_and_holdings(&mut self, order: &[usize], asts: &[ast::File]) {
        let mut chips_file: Option<usize> = None;
        let mut gives: Vec<super::conflicts::Given> = Vec::new();
        for &f in order {
            self.file = f;
            for item in &asts[f].items {
                match &item.kind {
                    ItemKind::Chips(entries) => {
                        if chips_file == Some(f) {
                            self.err(
                                Diagnostic::error(
                                    Code::GivenTwice,
                                    item.span.start..item.span.start + 5,
                                    "a second `chips` item in this file",
                                )
                                .with_label("the chip set is already given above"),
                            );
                            continue;
                        }
                        chips_file = Some(f);
                        gives.push((f, item.span.start..item.span.start + 5, None));
                        self.declare_chips(entries);
                    }
                    ItemKind::Holding {
                        name,
                        title,
                        per_player,
                    } if self.declare(name, Global::Holding(self.prog.holdings.len() as u16)) => {
                        self.prog.holdings.push(name.name.clone());
                        self.prog
                            .holding_titles
                            .push(title.as_ref().map(|t| t.value.clone()));
                        self.prog.holdings_per_player.push(*per_player);
                    }
                    _ => {}
                }
            }
        }
        let settle = "write the chip set this variant plays with: a `chips` item in this file";
        self.report_conflict(Code::GivenTwice, "the chip set is given", &gives, settle);
    }

    pub(super) fn declare(&mut self, name: &ast::Ident, g: Global) -> bool {
        if let Some(old) = self.globals.get(&name.name) {
            let what = old.what();
            self.err(
                Diagnostic::error(
                    Code::DefinedTwice,
                    name.span.clone(),
                    format!("`{}` is already defined", name.name),
                )
                .with_label(format!("`{}` is already {what}", name.name)),
            );
            return false;
        }
        self.globals.insert(name.name.clone(), g);
        true
    }

    /// Declares the colours of a `chips` item and the chips of each.
    fn declare_chips(&mut self, entries: &[ast::ChipEntry]) {
        // An importing file's chip set replaces the imported one.
        for c in &self.prog.colours {
            self.globals.remove(c);
        }
        self.prog.colours.clear();
        self.prog.chips.clear();
        for e in entries {
            let idx = match self.prog.colours.iter().position(|c| *c == e.colour.name) {
                Some(i) => i,
                None => {
                    if self.prog.colours.len() >= 255 {
                        self.err(Diagnostic::error(
                            Code::TooMany,
                            e.colour.span.clone(),
                            "too many chip colours",
                        ));
                        continue;
                    }
                    if !self.declare(&e.colour, Global::Colour(self.prog.colours.len() as u8)) {
                        continue;
                    }
                    self.prog.colours.push(e.colour.name.clone());
                    self.prog.colours.len() - 1
                }
            };
            if e.count <= 0
                || e.count > 1000
                || self.prog.chips.len() as i64 + e.count > u16::MAX as i64
            {
                self.err(
                    Diagnostic::error(
                        Code::TooMany,
                        e.span.clone(),
                        format!("a chip count must be between 1 and 1000, found {}", e.count),
                    )
                    .with_label("bad count"),
                );
                continue;
            }
            if !(0..=255).contains(&e.value) {
                // The engine keeps a chip's value in a byte: refuse rather than clamp.
                self.err(
                    Diagnostic::error(
                        Code::TooMany,
                        e.span.clone(),
                        format!("a chip value must be between 0 and 255, found {}", e.value),
                    )
                    .with_label("bad value"),
                );
                continue;
            }
            for _ in 0..e.count {
                self.prog.chips.push(ir::ChipDef {
                    colour: idx as u8,
                    value: e.value,
                });
            }
        }
    }
}
