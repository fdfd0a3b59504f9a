//! Where each name of a rules file is defined and used, from its syntax tree: what an editor needs to
//! go to a definition, find references, rename, and outline a file (the language server, issue 35).
//! One file at a time; the server joins the files of a variant by their imports.

use crate::ast::{self, Block, DefKind, Expr, ExprKind, ItemKind, LimitKind, Span, StmtKind};

/// What a name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SymKind {
    /// A parameter, a chip colour or a holding area: the file's global names (one namespace).
    Param,
    Colour,
    Holding,
    Rule,
    Action,
    /// A `let`, `for`, choice, aggregate or asked action's parameter.
    Local,
}

impl SymKind {
    /// Whether a use of `self` may name a definition of `def` (globals share one namespace).
    pub fn names(self, def: SymKind) -> bool {
        self == def || (self.global() && def.global())
    }
    pub fn global(self) -> bool {
        matches!(self, SymKind::Param | SymKind::Colour | SymKind::Holding)
    }
    pub fn word(self) -> &'static str {
        match self {
            SymKind::Param => "parameter",
            SymKind::Colour => "chip colour",
            SymKind::Holding => "holding area",
            SymKind::Rule => "rule",
            SymKind::Action => "action",
            SymKind::Local => "local name",
        }
    }
}

impl From<DefKind> for SymKind {
    fn from(k: DefKind) -> Self {
        match k {
            DefKind::Rule => SymKind::Rule,
            DefKind::Action => SymKind::Action,
        }
    }
}

/// A definition: its kind, name, the name's span and the whole item's (or statement's) span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def {
    pub kind: SymKind,
    pub name: String,
    pub span: Span,
    pub item: Span,
}

/// A use of a name. A global's use says only that it is global (`Param`: a parameter, colour or
/// holding area, whichever the variant defines); a local's gives its definition's span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Use {
    pub kind: SymKind,
    pub name: String,
    pub span: Span,
    /// For a local: where it is bound.
    pub local: Option<Span>,
}

/// The names of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols {
    pub defs: Vec<Def>,
    pub uses: Vec<Use>,
    /// The files imported, as written, with the string's span.
    pub imports: Vec<(String, Span)>,
}

impl Symbols {
    /// The definition or use whose name covers byte `at`.
    pub fn at(&self, at: usize) -> Option<(SymKind, &str, &Span, Option<&Span>)> {
        let inside = |s: &Span| s.start <= at && at <= s.end;
        if let Some(d) = self.defs.iter().find(|d| inside(&d.span)) {
            return Some((d.kind, &d.name, &d.span, None));
        }
        self.uses
            .iter()
            .find(|u| inside(&u.span))
            .map(|u| (u.kind, u.name.as_str(), &u.span, u.local.as_ref()))
    }
}

/// The definitions and uses of names in `file`.
pub fn symbols(file: &ast::File) -> Symbols {
    let mut w = Walker::default();
    for item in &file.items {
        w.item(&item.kind, &item.span);
    }
    w.out
}

#[derive(Default)]
struct Walker {
    out: Symbols,
    /// The locals in scope: name and where it is bound.
    scope: Vec<(String, Span)>,
}

impl Walker {
    fn def(&mut self, kind: SymKind, id: &ast::Ident, item: &Span) {
        self.out.defs.push(Def {
            kind,
            name: id.name.clone(),
            span: id.span.clone(),
            item: item.clone(),
        });
    }

    fn use_(&mut self, kind: SymKind, id: &ast::Ident) {
        self.out.uses.push(Use {
            kind,
            name: id.name.clone(),
            span: id.span.clone(),
            local: None,
        });
    }

    fn bind(&mut self, id: &ast::Ident, stmt: &Span) {
        self.def(SymKind::Local, id, stmt);
        self.scope.push((id.name.clone(), id.span.clone()));
    }

    fn item(&mut self, kind: &ItemKind, span: &Span) {
        match kind {
            ItemKind::Import(s) => self.out.imports.push((s.value.clone(), s.span.clone())),
            ItemKind::Variant { entries, .. } => {
                entries.iter().for_each(|e| self.expr(&e.value));
            }
            ItemKind::Param(p) => {
                self.def(SymKind::Param, &p.name, span);
                self.expr(&p.default);
                p.one_of.iter().chain(&p.range).for_each(|e| self.expr(e));
            }
            ItemKind::Override { name, value } => {
                self.use_(SymKind::Param, name);
                self.expr(value);
            }
            ItemKind::Chips(entries) => {
                for e in entries {
                    self.def(SymKind::Colour, &e.colour, span);
                }
            }
            ItemKind::Holding { name, .. } => self.def(SymKind::Holding, name, span),
            // A value the rules keep shares the globals' namespace with the parameters and is read
            // by name as they are (`season`): for definitions, references and rename it is one.
            ItemKind::State(st) => {
                self.def(SymKind::Param, &st.name, span);
                st.range.iter().chain(&st.start).for_each(|e| self.expr(e));
            }
            ItemKind::Setup(b) => self.block(b),
            ItemKind::Rule {
                name, when, body, ..
            } => {
                self.def(SymKind::Rule, name, span);
                when.iter().for_each(|e| self.expr(e));
                self.block(body);
            }
            ItemKind::Action(a) => {
                self.def(SymKind::Action, &a.name, span);
                self.action_parts(
                    a.params.iter().flatten().map(|(p, _)| p),
                    &a.limits,
                    a.when.as_ref(),
                    &a.choices,
                    Some(&a.body),
                    span,
                );
            }
            ItemKind::Remove { what, name } => self.use_((*what).into(), name),
            ItemKind::Replace(inner) => self.item(inner, span),
            ItemKind::Change(c) => {
                self.use_(c.what.into(), &c.name);
                self.action_parts(
                    std::iter::empty(),
                    &c.limits,
                    c.when.as_ref(),
                    &c.choices,
                    c.body.as_ref(),
                    span,
                );
            }
        }
    }

    fn action_parts<'a>(
        &mut self,
        params: impl Iterator<Item = &'a ast::Ident>,
        limits: &[ast::Limit],
        when: Option<&Expr>,
        choices: &[ast::Choice],
        body: Option<&Block>,
        span: &Span,
    ) {
        let mark = self.scope.len();
        for p in params {
            self.bind(p, span);
        }
        for l in limits {
            if let LimitKind::Per { count, .. } | LimitKind::Group(_, Some(count)) = &l.kind {
                self.expr(count);
            }
        }
        when.iter().for_each(|e| self.expr(e));
        for c in choices {
            self.expr(&c.from);
            self.bind(&c.name, &c.span);
            c.size.iter().chain(&c.filter).for_each(|e| self.expr(e));
        }
        body.iter().for_each(|b| self.block(b));
        self.scope.truncate(mark);
    }

    fn block(&mut self, b: &Block) {
        let mark = self.scope.len();
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Let(id, e) => {
                    self.expr(e);
                    self.bind(id, &s.span);
                }
                StmtKind::If(branches, otherwise) => {
                    for (c, blk) in branches {
                        self.expr(c);
                        self.block(blk);
                    }
                    otherwise.iter().for_each(|blk| self.block(blk));
                }
                StmtKind::For(id, list, body) => {
                    self.expr(list);
                    let inner = self.scope.len();
                    self.bind(id, &s.span);
                    self.block(body);
                    self.scope.truncate(inner);
                }
                StmtKind::Call(_, args) => args.iter().for_each(|a| self.expr(a)),
                StmtKind::Ask { who, action, args } => {
                    self.expr(who);
                    self.use_(SymKind::Action, action);
                    args.iter().for_each(|a| self.expr(a));
                }
            }
        }
        self.scope.truncate(mark);
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) => {}
            ExprKind::Name(n) => {
                let local = self.scope.iter().rev().find(|(s, _)| s == n);
                self.out.uses.push(Use {
                    kind: if local.is_some() {
                        SymKind::Local
                    } else {
                        SymKind::Param
                    },
                    name: n.clone(),
                    span: e.span.clone(),
                    local: local.map(|(_, s)| s.clone()),
                });
            }
            ExprKind::List(xs) => xs.iter().for_each(|x| self.expr(x)),
            ExprKind::Table(kv) => kv.iter().for_each(|(k, v)| {
                self.expr(k);
                self.expr(v);
            }),
            ExprKind::Range(a, b) | ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Field(x, _) | ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::If(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| self.expr(a)),
            ExprKind::Aggregate {
                var,
                list,
                filter,
                map,
                ..
            } => {
                self.expr(list);
                let mark = self.scope.len();
                self.bind(var, &e.span);
                filter.iter().chain(map).for_each(|x| self.expr(x));
                self.scope.truncate(mark);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Source;

    #[test]
    fn definitions_uses_and_locals() {
        let text = "import \"lib\"\nparam bonus: int = 2\nholding vault\nrule r on placed when bonus > 0 {\n  let bonus = 3\n  for c in chips(vault) { score(player, bonus + sum(x in [1]: x)) }\n}\nremove rule farm\n";
        let (file, errs) = crate::parser::parse_file(&Source::new("t.rules", text));
        assert!(errs.is_empty(), "{errs:?}");
        let s = symbols(&file);
        assert_eq!(s.imports, vec![("lib".to_string(), 7..12)]);
        let defs: Vec<(SymKind, &str)> = s.defs.iter().map(|d| (d.kind, d.name.as_str())).collect();
        assert_eq!(
            defs,
            vec![
                (SymKind::Param, "bonus"),
                (SymKind::Holding, "vault"),
                (SymKind::Rule, "r"),
                (SymKind::Local, "bonus"),
                (SymKind::Local, "c"),
                (SymKind::Local, "x"),
            ]
        );
        let uses: Vec<(SymKind, &str, &str)> = s
            .uses
            .iter()
            .map(|u| (u.kind, u.name.as_str(), &text[u.span.clone()]))
            .collect();
        assert_eq!(
            uses,
            vec![
                (SymKind::Param, "bonus", "bonus"),
                (SymKind::Param, "vault", "vault"),
                (SymKind::Param, "player", "player"),
                (SymKind::Local, "bonus", "bonus"),
                (SymKind::Local, "x", "x"),
                (SymKind::Rule, "farm", "farm"),
            ]
        );
        // The `bonus` in the body is the `let`, not the parameter.
        let body_bonus = s.uses.iter().find(|u| u.kind == SymKind::Local).unwrap();
        assert_eq!(&text[body_bonus.local.clone().unwrap()], "bonus");
        assert!(body_bonus.local.clone().unwrap().start > text.find("let").unwrap());
    }
}
