//! House rules (issue 8, C4): what a file does to the rules and actions it imports. This room builds
//! the list of rules and actions in force, file by file in import order: a definition adds one,
//! `remove` drops one, `replace` puts a whole new definition in its place (keeping its position),
//! `change` gives it new parts. A definition whose name is already in force from an imported file, but
//! that does not say `replace`, is an error: nothing shadows silently. Each part of a definition in
//! force remembers the file that wrote it, so its diagnostics point there. The interpreter never sees
//! any of this: it gets ordinary rules and actions.

use super::Checker;
use crate::ast::{self, Change, DefKind, ItemKind, LimitKind, Span};
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir;
use std::collections::BTreeMap;

/// A rule or action in force: its definition with every `change` applied.
#[derive(Clone, Debug)]
pub(crate) struct InForce {
    /// An `ItemKind::Rule` or `ItemKind::Action`.
    pub(crate) def: ItemKind,
    /// The file whose definition (or `replace`) is in force, and that item's span.
    pub(crate) file: usize,
    pub(crate) span: Span,
    pub(crate) parts: PartFiles,
    /// The `change` items applied to it, in order: file and item span.
    pub(crate) changes: Vec<(usize, Span)>,
}

/// Which file wrote each part of a definition in force.
#[derive(Clone, Debug, Default)]
pub struct PartFiles {
    pub(crate) phase: usize,
    /// One per limit, in order.
    pub(crate) limits: Vec<usize>,
    pub(crate) when: usize,
    /// One per choice, in order.
    pub(crate) choices: Vec<usize>,
    pub(crate) body: usize,
}

impl PartFiles {
    /// Every part of `def` written by `file`.
    pub fn all(file: usize, def: &ItemKind) -> PartFiles {
        let (limits, choices) = match def {
            ItemKind::Action(a) => (a.limits.len(), a.choices.len()),
            _ => (0, 0),
        };
        PartFiles {
            phase: file,
            limits: vec![file; limits],
            when: file,
            choices: vec![file; choices],
            body: file,
        }
    }
}

/// Applies a `change` to a definition of the same kind (`def` is a `Rule` or an `Action`): each part
/// written replaces that part. Returns the problems (in the change's file); what can be applied is.
pub fn apply_change(
    def: &mut ItemKind,
    parts: &mut PartFiles,
    change: &Change,
    file: usize,
) -> Vec<Diagnostic> {
    let mut errs = Vec::new();
    if change.is_empty() {
        let what = change.what.word();
        let more = if change.what == DefKind::Action {
            "`phase …`, `limit …`, `when …`, `choose …` or `{ … }`"
        } else {
            "`when …` or `{ … }`"
        };
        errs.push(
            Diagnostic::error(
                Code::EmptyChange,
                change.name.span.clone(),
                format!("`change {what} {}` changes nothing", change.name.name),
            )
            .with_label("no part follows")
            .with_note(format!("write the parts it changes: {more}")),
        );
    }
    if let Some(w) = &change.when {
        parts.when = file;
        match def {
            ItemKind::Rule { when, .. } => *when = Some(w.clone()),
            ItemKind::Action(a) => a.when = Some(w.clone()),
            _ => {}
        }
    }
    if let Some(b) = &change.body {
        parts.body = file;
        match def {
            ItemKind::Rule { body, .. } => *body = b.clone(),
            ItemKind::Action(a) => a.body = b.clone(),
            _ => {}
        }
    }
    if let ItemKind::Action(a) = def {
        change_action_header(a, parts, change, file, &mut errs);
    }
    errs
}

/// The parts only an action has: phase, limits and choices.
fn change_action_header(
    a: &mut ast::ActionDecl,
    parts: &mut PartFiles,
    change: &Change,
    file: usize,
    errs: &mut Vec<Diagnostic>,
) {
    let offered = !a.forced && a.params.is_none();
    let what = if a.forced {
        "a forced action"
    } else {
        "an asked action"
    };
    if let Some(p) = &change.phase {
        if offered {
            a.phase = Some(p.clone());
            parts.phase = file;
        } else {
            errs.push(
                Diagnostic::error(
                    Code::ActionForm,
                    p.span.clone(),
                    format!("{what} has no phase"),
                )
                .with_label(format!("`{}` is {what}", a.name.name))
                .with_note("only an action offered in a phase has one"),
            );
        }
    }
    if let Some(l) = change.limits.first() {
        if !offered {
            errs.push(
                Diagnostic::error(
                    Code::ActionForm,
                    l.span.clone(),
                    format!("{what} has no limits"),
                )
                .with_label(format!("`{}` is {what}", a.name.name)),
            );
            return;
        }
    }
    change_limits(a, parts, change, file);
    change_choices(a, parts, change, file, errs);
}

/// The limits a `change action` writes: `limit none` drops the imported ones; a limit of the same
/// kind (unit, group or flag) takes the place of the imported one, any other is added.
fn change_limits(a: &mut ast::ActionDecl, parts: &mut PartFiles, change: &Change, file: usize) {
    if change.limits.iter().any(is_none_limit) {
        a.limits.clear();
        parts.limits.clear();
    }
    for l in change.limits.iter().filter(|l| !is_none_limit(l)) {
        match a
            .limits
            .iter()
            .position(|old| same_kind(&old.kind, &l.kind))
        {
            Some(i) => {
                a.limits[i] = l.clone();
                if let Some(f) = parts.limits.get_mut(i) {
                    *f = file;
                }
            }
            None => {
                a.limits.push(l.clone());
                parts.limits.push(file);
            }
        }
    }
}

/// The choices a `change action` writes: each takes the place of the imported choice of its name;
/// a name the action has no choice of is an error.
fn change_choices(
    a: &mut ast::ActionDecl,
    parts: &mut PartFiles,
    change: &Change,
    file: usize,
    errs: &mut Vec<Diagnostic>,
) {
    for c in &change.choices {
        match a
            .choices
            .iter()
            .position(|old| old.name.name == c.name.name)
        {
            Some(i) => {
                a.choices[i] = c.clone();
                if let Some(f) = parts.choices.get_mut(i) {
                    *f = file;
                }
            }
            None => {
                let mut d = Diagnostic::error(
                    Code::NothingToChange,
                    c.name.span.clone(),
                    format!("action `{}` has no choice `{}`", a.name.name, c.name.name),
                )
                .with_label("not a choice of the imported action");
                let names: Vec<&str> = a.choices.iter().map(|x| x.name.name.as_str()).collect();
                if let Some(s) = did_you_mean(&c.name.name, names.iter().copied()) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                errs.push(d.with_note(format!(
                    "`change` replaces a choice of the same name; to add or drop choices, write \
                     `replace action {} …`",
                    a.name.name
                )));
            }
        }
    }
}

/// `limit none`: drop every imported limit.
fn is_none_limit(l: &ast::Limit) -> bool {
    matches!(&l.kind, LimitKind::Flag(f) if f.name == "none")
}

/// Whether a written limit takes the place of an imported one: the same unit, group or flag.
fn same_kind(old: &LimitKind, new: &LimitKind) -> bool {
    match (old, new) {
        (LimitKind::Per { unit: a, .. }, LimitKind::Per { unit: b, .. }) => a.name == b.name,
        (LimitKind::Group(a, _), LimitKind::Group(b, _)) => a.name == b.name,
        (LimitKind::Flag(a), LimitKind::Flag(b)) => a.name == b.name,
        _ => false,
    }
}

/// The rules and actions in force, and what was removed (for `ask` of a removed action).
#[derive(Default)]
pub(super) struct House {
    pub(crate) rules: Vec<InForce>,
    pub(crate) actions: Vec<InForce>,
    /// Removed names by kind: the `remove` item's file and span.
    pub(crate) removed: BTreeMap<(DefKind, String), (usize, Span)>,
}

/// The state of the composition while files are read in order.
#[derive(Default)]
struct Composer {
    /// In force so far, by kind; `None` once removed.
    rules: Vec<Option<InForce>>,
    actions: Vec<Option<InForce>>,
    /// Name → index into the list of its kind, while in force.
    names: BTreeMap<(DefKind, String), usize>,
    removed: BTreeMap<(DefKind, String), (usize, Span)>,
    /// Every file that defined, replaced, changed or removed each name, in order (see `conflicts`).
    touched: BTreeMap<(DefKind, String), Vec<super::conflicts::Given>>,
}

impl Composer {
    fn list(&mut self, kind: DefKind) -> &mut Vec<Option<InForce>> {
        match kind {
            DefKind::Rule => &mut self.rules,
            DefKind::Action => &mut self.actions,
        }
    }

    fn get(&self, kind: DefKind, name: &str) -> Option<&InForce> {
        let i = *self.names.get(&(kind, name.to_string()))?;
        let list = match kind {
            DefKind::Rule => &self.rules,
            DefKind::Action => &self.actions,
        };
        list.get(i)?.as_ref()
    }

    fn get_mut(&mut self, kind: DefKind, name: &str) -> Option<&mut InForce> {
        let i = *self.names.get(&(kind, name.to_string()))?;
        self.list(kind).get_mut(i)?.as_mut()
    }

    /// Adds a definition at the end, or puts it in the place of the one in force.
    fn put(&mut self, kind: DefKind, name: &str, entry: InForce) {
        let key = (kind, name.to_string());
        match self.names.get(&key) {
            Some(&i) => self.list(kind)[i] = Some(entry),
            None => {
                let list = self.list(kind);
                list.push(Some(entry));
                let i = list.len() - 1;
                self.names.insert(key.clone(), i);
            }
        }
        self.removed.remove(&key);
    }
}

impl Checker {
    /// Builds the rules and actions in force from every file, in import order (see the module comment).
    pub(super) fn compose_house_rules(&mut self, order: &[usize], asts: &[ast::File]) {
        let mut c = Composer::default();
        for &f in order {
            self.file = f;
            for item in &asts[f].items {
                match &item.kind {
                    ItemKind::Rule { .. } | ItemKind::Action(_) => self.define(&mut c, item),
                    ItemKind::Replace(def) => self.replace(&mut c, item, def),
                    ItemKind::Remove { what, name } => self.remove(&mut c, item, *what, name),
                    ItemKind::Change(ch) => self.change(&mut c, item, ch),
                    _ => {}
                }
                let named = match &item.kind {
                    ItemKind::Rule { .. } | ItemKind::Action(_) => item.kind.definition(),
                    ItemKind::Replace(def) => def.definition(),
                    ItemKind::Remove { what, name } => Some((*what, name)),
                    ItemKind::Change(ch) => Some((ch.what, &ch.name)),
                    _ => None,
                };
                if let Some((kind, name)) = named {
                    let key = (kind, name.name.clone());
                    c.touched
                        .entry(key)
                        .or_default()
                        .push((f, item.span.clone(), None));
                }
            }
        }
        for ((kind, name), gives) in std::mem::take(&mut c.touched) {
            let w = kind.word();
            let what = format!("{w} `{name}` is defined or changed");
            let settle =
                format!("`replace {w} {name} …`, `change {w} {name} …` or `remove {w} {name}`");
            self.report_conflict(Code::DefinedTwice, &what, &gives, &settle);
        }
        self.prog.removed_actions = c
            .removed
            .iter()
            .filter(|((kind, _), _)| *kind == DefKind::Action)
            .map(|((_, name), (file, span))| {
                let origin = ir::Origin {
                    file: *file as u16,
                    span: span.clone(),
                };
                (name.clone(), origin)
            })
            .collect();
        self.house = House {
            rules: c.rules.into_iter().flatten().collect(),
            actions: c.actions.into_iter().flatten().collect(),
            removed: c.removed,
        };
    }

    fn entry(&self, item: &ast::Item, def: &ItemKind) -> InForce {
        InForce {
            def: def.clone(),
            file: self.file,
            span: item.span.clone(),
            parts: PartFiles::all(self.file, def),
            changes: Vec::new(),
        }
    }

    /// `file:line:col` of an item's start.
    fn place(&self, file: usize, span: &Span) -> String {
        let src = &self.files[file];
        let (line, col) = src.line_col(span.start);
        format!("{}:{line}:{col}", src.name)
    }

    /// A plain definition: new, or an error when its name is already in force.
    fn define(&mut self, c: &mut Composer, item: &ast::Item) {
        let Some((kind, name)) = item.kind.definition() else {
            return;
        };
        let w = kind.word();
        let n = &name.name;
        match c.get(kind, n).map(|e| e.file) {
            Some(file) if file == self.file => self.err(
                Diagnostic::error(
                    Code::DefinedTwice,
                    name.span.clone(),
                    format!("{w} `{n}` is defined twice"),
                )
                .with_label(format!("{} {w} with this name is above", kind.article())),
            ),
            Some(file) => {
                let at = c.get(kind, n).map(|e| self.place(file, &e.span));
                self.err(
                    Diagnostic::error(
                        Code::DefinedTwice,
                        name.span.clone(),
                        format!("{w} `{n}` is already defined in an imported file"),
                    )
                    .with_label("a second definition of this name")
                    .with_note(format!("the imported {w} is at {}", at.unwrap_or_default()))
                    .with_note(format!(
                        "say what this does to it: `replace {} {n} …` for a whole new definition, \
                         `change {w} {n} when …` (or `{{ … }}`) to change one part, \
                         `remove {w} {n}` to drop it",
                        def_word(&item.kind)
                    )),
                );
                // Go on as if it said `replace`, so its body is checked.
                let entry = self.entry(item, &item.kind);
                c.put(kind, n, entry);
            }
            None => {
                let entry = self.entry(item, &item.kind);
                c.put(kind, n, entry);
            }
        }
    }

    /// `replace rule …` / `replace action …`: the imported definition gives way to this one.
    fn replace(&mut self, c: &mut Composer, item: &ast::Item, def: &ItemKind) {
        let Some((kind, name)) = def.definition() else {
            return;
        };
        let n = name.name.clone();
        if !self.names_an_import(c, kind, name, "replace") {
            // Reported; checked as a new definition.
            if c.get(kind, &n).is_some() {
                return;
            }
        }
        if let Some(old) = c.get(kind, &n) {
            let (was, now) = (def_kind(&old.def), def_kind(def));
            if was != now {
                self.err(
                    Diagnostic::warning(
                        Code::KindReplaced,
                        name.span.clone(),
                        format!("this makes `{n}` {now}; the imported one is {was}"),
                    )
                    .with_label(format!("replaced by {now}"))
                    .with_note(format!(
                        "to keep it {was}, write `replace {} {n} …`",
                        def_word(&old.def)
                    )),
                );
            }
        }
        let entry = self.entry(item, def);
        c.put(kind, &n, entry);
    }

    /// `remove rule NAME` / `remove action NAME`.
    fn remove(&mut self, c: &mut Composer, item: &ast::Item, kind: DefKind, name: &ast::Ident) {
        if !self.names_an_import(c, kind, name, "remove") {
            return;
        }
        let key = (kind, name.name.clone());
        if let Some(i) = c.names.remove(&key) {
            c.list(kind)[i] = None;
        }
        c.removed.insert(key, (self.file, item.span.clone()));
    }

    /// `change rule NAME …` / `change action NAME …`.
    fn change(&mut self, c: &mut Composer, item: &ast::Item, ch: &Change) {
        if !self.names_an_import(c, ch.what, &ch.name, "change") {
            return;
        }
        let file = self.file;
        let Some(e) = c.get_mut(ch.what, &ch.name.name) else {
            return;
        };
        let errs = apply_change(&mut e.def, &mut e.parts, ch, file);
        e.changes.push((file, item.span.clone()));
        for d in errs {
            self.err(d);
        }
    }

    /// Whether `name` is a `kind` in force from an imported file; reports why not (`verb` is what the
    /// house rule does: remove, replace, change).
    fn names_an_import(
        &mut self,
        c: &Composer,
        kind: DefKind,
        name: &ast::Ident,
        verb: &str,
    ) -> bool {
        let (w, n) = (kind.word(), name.name.as_str());
        if let Some(e) = c.get(kind, n) {
            if e.file != self.file {
                return true;
            }
            self.err(
                Diagnostic::error(
                    Code::NothingToChange,
                    name.span.clone(),
                    format!("{w} `{n}` is defined in this file, not imported"),
                )
                .with_label(format!("nothing imported to {verb}"))
                .with_note(format!(
                    "`{verb}` works on what an imported file defines; edit the definition here"
                )),
            );
            return false;
        }
        let other = match kind {
            DefKind::Rule => DefKind::Action,
            DefKind::Action => DefKind::Rule,
        };
        let mut d = Diagnostic::error(
            Code::NothingToChange,
            name.span.clone(),
            format!("no imported {w} is named `{n}`"),
        )
        .with_label(format!("nothing to {verb}"));
        if c.get(other, n).is_some() {
            d = d.with_note(format!(
                "`{n}` is {} {}: write `{verb} {} {n}`",
                other.article(),
                other.word(),
                other.word()
            ));
        } else if let Some((f, span)) = c.removed.get(&(kind, n.to_string())) {
            d = d.with_note(format!(
                "it was removed by the house rule at {}",
                self.place(*f, span)
            ));
        } else {
            let names: Vec<&str> = c
                .names
                .keys()
                .filter(|(k, _)| *k == kind)
                .map(|(_, s)| s.as_str())
                .collect();
            if let Some(s) = did_you_mean(n, names.iter().copied()) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
        }
        self.err(d);
        false
    }
}

/// The word that starts a definition like `def`: `rule`, `action` or `forced`.
fn def_word(def: &ItemKind) -> &'static str {
    match def {
        ItemKind::Action(a) if a.forced => "forced",
        ItemKind::Action(_) => "action",
        _ => "rule",
    }
}

/// What kind of definition `def` is, for people: a rule, a forced action, an asked action (one
/// with parameters) or an action offered in a phase.
fn def_kind(def: &ItemKind) -> &'static str {
    match def {
        ItemKind::Action(a) if a.forced => "a forced action",
        ItemKind::Action(a) if a.params.is_some() => "an asked action (offered when a rule asks)",
        ItemKind::Action(_) => "an action a player may take",
        _ => "a rule",
    }
}
