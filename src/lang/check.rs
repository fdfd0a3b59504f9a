//! The static checker: resolves every name, type, field, builtin, header key, import and map attribute of a
//! rules file (and what it imports), reports every problem with a span, and lowers the file to the IR.

use super::ast::{self, AggOp, BinOp, ExprKind, ItemKind, LimitKind, StmtKind, UnOp};
use super::builtins::{self, Base, Builtin, HeaderKey, PTy, RTy, Trigger, Ty, HEADER_KEYS, PHASES};
use super::ir::{self, Expr, Face, MapRef, Place, Program, Slot, Stmt, Value};
use super::parser::parse_file;
use crate::diag::{did_you_mean, Diagnostic, Source};
use crate::geometry::FeatureKind;
use crate::map::{AttrValue, MapBoard};
use std::collections::{BTreeMap, HashMap};

/// Finds an imported rules file: a bundled name or a path relative to the importing file.
pub trait RulesResolver {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String>;
}

/// The rules files shipped with carto, by name.
pub const BUNDLED_RULES: &[(&str, &str)] = crate::bundled::RULES;

/// Resolves bundled names (`"base"`) from [`BUNDLED_RULES`]; anything with a `/` or ending in `.rules` is
/// read as a path relative to the importing file.
pub struct BundledRules;

impl RulesResolver for BundledRules {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        if name.contains('/') || name.ends_with(".rules") {
            let dir = std::path::Path::new(&from.name)
                .parent()
                .unwrap_or(std::path::Path::new(""));
            let path = dir.join(name);
            return std::fs::read_to_string(&path)
                .map(|text| Source::new(path.display().to_string(), text))
                .map_err(|e| format!("cannot read `{}`: {e}", path.display()));
        }
        match BUNDLED_RULES.iter().find(|(n, _)| *n == name) {
            Some((n, text)) => Ok(Source::new(format!("rules/{n}.rules"), *text)),
            None => {
                let names: Vec<&str> = BUNDLED_RULES.iter().map(|(n, _)| *n).collect();
                let hint = did_you_mean(name, names.iter().copied())
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                Err(format!("no bundled rules named `{name}`{hint}"))
            }
        }
    }
}

/// The outcome of checking: the program when there was no error, and every diagnostic with its file.
pub struct CheckResult {
    pub program: Option<Program>,
    pub diagnostics: Vec<(Source, Diagnostic)>,
}

impl CheckResult {
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|(_, d)| d.is_error())
            .count()
    }
}

/// Renders every diagnostic of a result, in order.
pub fn render(result: &CheckResult) -> String {
    let mut out = String::new();
    for (src, d) in &result.diagnostics {
        out.push_str(&src.render(std::slice::from_ref(d)));
    }
    out
}

/// Loads a map named by a header (`maps(name, file_that_named_it)`).
pub type MapLoader<'a> = &'a dyn Fn(&str, &Source) -> Result<MapBoard, String>;

/// Checks a rules file and everything it imports; lowers it when there is no error.
pub fn check_source(
    source: &Source,
    resolver: &dyn RulesResolver,
    maps: MapLoader<'_>,
) -> CheckResult {
    let mut c = Checker::default();
    let mut stack = Vec::new();
    c.load(source.clone(), resolver, &mut stack);
    c.run(maps);
    let order = c.order.clone();
    let mut diags = std::mem::take(&mut c.diags);
    diags.sort_by_key(|(f, d)| {
        (
            order.iter().position(|x| x == f).unwrap_or(usize::MAX),
            d.span.start,
        )
    });
    let has_error = diags.iter().any(|(_, d)| d.is_error());
    let files = c.files;
    CheckResult {
        program: if has_error { None } else { Some(c.prog) },
        diagnostics: diags
            .into_iter()
            .filter_map(|(f, d)| files.get(f).map(|s| (s.clone(), d)))
            .collect(),
    }
}

#[derive(Clone, Copy, Debug)]
enum Global {
    Param(u16),
    Colour(u8),
    Kind(FeatureKind),
    Place(Place),
    Face(Face),
    Holding(u16),
}

impl Global {
    fn ty(self, prog: &Program) -> Ty {
        match self {
            Global::Param(i) => prog.params.get(i as usize).map_or(Ty::ANY, |p| p.ty),
            Global::Colour(_) => Ty::of(Base::Colour),
            Global::Kind(_) => Ty::of(Base::Kind),
            Global::Place(_) => Ty::of(Base::Place),
            Global::Face(_) => Ty::of(Base::Face),
            Global::Holding(_) => Ty::of(Base::Holding),
        }
    }
    fn what(self) -> &'static str {
        match self {
            Global::Param(_) => "a parameter",
            Global::Colour(_) => "a chip colour",
            Global::Kind(_) => "a feature kind",
            Global::Place(_) => "a place",
            Global::Face(_) => "a face",
            Global::Holding(_) => "a holding area",
        }
    }
}

#[derive(Default)]
struct Scope {
    vars: Vec<(String, Ty, Slot)>,
    next: u16,
}

impl Scope {
    fn bind(&mut self, name: &str, ty: Ty) -> Slot {
        let slot = self.next;
        self.next = self.next.saturating_add(1);
        self.vars.push((name.to_string(), ty, slot));
        slot
    }
    fn get(&self, name: &str) -> Option<(Ty, Slot)> {
        self.vars
            .iter()
            .rev()
            .find(|(n, ..)| n == name)
            .map(|(_, t, s)| (*t, *s))
    }
}

/// What the map tells the checker about square attributes.
enum MapKnowledge {
    /// No map could be consulted: attributes are accepted, typed `any`.
    Unknown,
    Known {
        name: String,
        attrs: BTreeMap<String, Ty>,
        exits: usize,
        /// Start squares of the map (`None` on the endless table).
        starts: Option<usize>,
    },
}

#[derive(Default)]
struct Checker {
    files: Vec<Source>,
    asts: Vec<ast::File>,
    order: Vec<usize>,
    diags: Vec<(usize, Diagnostic)>,
    prog: Program,
    globals: BTreeMap<String, Global>,
    /// For each param: the file that declared it.
    param_file: Vec<usize>,
    param_used: Vec<bool>,
    map: Option<MapKnowledge>,
    file: usize,
}

fn const_bool(e: &ast::Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Bool(b) => Some(*b),
        ExprKind::Unary(UnOp::Not, x) => const_bool(x).map(|b| !b),
        ExprKind::Binary(BinOp::And, a, b) => Some(const_bool(a)? && const_bool(b)?),
        ExprKind::Binary(BinOp::Or, a, b) => Some(const_bool(a)? || const_bool(b)?),
        _ => None,
    }
}

fn mismatch(span: ast::Span, want: Ty, found: Ty) -> Diagnostic {
    Diagnostic::error(span, format!("expected {want}, found {found}"))
        .with_label(format!("this is {found}"))
}

/// Evaluates a constant (a parameter's default or a value set by name) to a value of type `ty`.
pub fn const_value(prog: &mut Program, e: &ast::Expr, ty: Ty) -> Result<Value, Diagnostic> {
    let (v, found) = match &e.kind {
        ExprKind::Int(i) => (Value::Int(*i), Ty::INT),
        ExprKind::Unary(UnOp::Neg, x) => match x.kind {
            ExprKind::Int(i) => (Value::Int(-i), Ty::INT),
            _ => return Err(not_const(e)),
        },
        ExprKind::Bool(b) => (Value::Bool(*b), Ty::BOOL),
        ExprKind::Str(s) => (Value::Str(prog.intern(s)), Ty::STR),
        ExprKind::Name(n) => {
            if let Some(i) = prog.colours.iter().position(|c| c == n) {
                (Value::Colour(i as u8), Ty::of(Base::Colour))
            } else if let Some(k) = FeatureKind::from_name(n) {
                (Value::Kind(k), Ty::of(Base::Kind))
            } else if n == "up" || n == "down" {
                (
                    Value::Face(if n == "up" { Face::Up } else { Face::Down }),
                    Ty::of(Base::Face),
                )
            } else {
                return Err(
                    Diagnostic::error(e.span.clone(), format!("unknown name `{n}`"))
                        .with_label("not a colour, kind or face"),
                );
            }
        }
        ExprKind::Table(entries) => {
            let mut t = Vec::new();
            for (k, v) in entries {
                let k = const_value(prog, k, Ty::INT)?;
                let v = const_value(prog, v, Ty::INT)?;
                if let (Value::Int(k), Value::Int(v)) = (k, v) {
                    t.push((k, v));
                }
            }
            prog.tables.push(t);
            (
                Value::Table((prog.tables.len() - 1) as u32),
                Ty::of(Base::Table),
            )
        }
        ExprKind::Range(a, b) => {
            let a = const_value(prog, a, Ty::INT)?;
            let b = const_value(prog, b, Ty::INT)?;
            match (a, b) {
                (Value::Int(a), Value::Int(b)) => (Value::Range(a, b), Ty::of(Base::Range)),
                _ => return Err(not_const(e)),
            }
        }
        _ => return Err(not_const(e)),
    };
    if found != ty && !ty.is_any() {
        return Err(mismatch(e.span.clone(), ty, found));
    }
    Ok(v)
}

fn not_const(e: &ast::Expr) -> Diagnostic {
    Diagnostic::error(e.span.clone(), "a parameter's value must be a constant")
        .with_label("not a constant")
        .with_note(
            "use a number, `true`/`false`, a string, a colour, a kind, a face or a table `{1: 2}`",
        )
}

impl Checker {
    fn err(&mut self, d: Diagnostic) {
        self.diags.push((self.file, d));
    }

    // ------------------------------------------------------------ loading

    fn load(
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

    // ------------------------------------------------------------ the passes

    fn run(&mut self, maps: MapLoader<'_>) {
        let order = self.order.clone();
        let asts = std::mem::take(&mut self.asts);
        // Indexed like `Origin::file`: in the order the files were loaded.
        self.prog.files = self.files.iter().map(|s| s.name.clone()).collect();
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

        // Pass 1: chips and holdings (names every expression may use).
        let mut chips_file: Option<usize> = None;
        for &f in &order {
            self.file = f;
            for item in &asts[f].items {
                match &item.kind {
                    ItemKind::Chips(entries) => {
                        if chips_file == Some(f) {
                            self.err(
                                Diagnostic::error(
                                    item.span.start..item.span.start + 5,
                                    "a second `chips` item in this file",
                                )
                                .with_label("the chip set is already given above"),
                            );
                            continue;
                        }
                        chips_file = Some(f);
                        self.declare_chips(entries);
                    }
                    ItemKind::Holding(name)
                        if self.declare(name, Global::Holding(self.prog.holdings.len() as u16)) =>
                    {
                        self.prog.holdings.push(name.name.clone());
                    }
                    _ => {}
                }
            }
        }
        // Pass 2: parameters, then overrides.
        for &f in &order {
            self.file = f;
            for item in &asts[f].items {
                if let ItemKind::Param(p) = &item.kind {
                    self.declare_param(p, item);
                }
            }
        }
        for &f in &order {
            self.file = f;
            for item in &asts[f].items {
                if let ItemKind::Override { name, value } = &item.kind {
                    self.override_param(name, value);
                }
            }
        }
        // Pass 3: the header, merged (the importing file wins), and the map it names.
        let mut header: Vec<(usize, &ast::HeaderEntry, HeaderKey)> = Vec::new();
        for &f in &order {
            self.file = f;
            let mut seen_variant = false;
            for item in &asts[f].items {
                let ItemKind::Variant { name, entries } = &item.kind else {
                    continue;
                };
                if seen_variant {
                    self.err(
                        Diagnostic::error(
                            name.span.clone(),
                            "a second `variant` header in this file",
                        )
                        .with_label("one header per file"),
                    );
                    continue;
                }
                seen_variant = true;
                self.prog.header.name = name.value.clone();
                let mut keys: Vec<&str> = Vec::new();
                for e in entries {
                    let Some((key, ..)) = HEADER_KEYS.iter().find(|(_, n, ..)| *n == e.key.name)
                    else {
                        let mut d = Diagnostic::error(
                            e.key.span.clone(),
                            format!("unknown header key `{}`", e.key.name),
                        )
                        .with_label("not a header key");
                        if let Some(s) =
                            did_you_mean(&e.key.name, HEADER_KEYS.iter().map(|(_, n, ..)| *n))
                        {
                            d = d.with_note(format!("did you mean `{s}`?"));
                        }
                        let all: Vec<&str> = HEADER_KEYS.iter().map(|(_, n, ..)| *n).collect();
                        self.err(d.with_note(format!("the keys are: {}", all.join(", "))));
                        continue;
                    };
                    if keys.contains(&e.key.name.as_str()) {
                        self.err(
                            Diagnostic::error(
                                e.key.span.clone(),
                                format!("header key `{}` given twice", e.key.name),
                            )
                            .with_label("already given above"),
                        );
                        continue;
                    }
                    keys.push(&e.key.name);
                    header.retain(|(_, _, k)| k != key);
                    header.push((f, e, *key));
                }
            }
        }
        self.map = Some(MapKnowledge::Unknown);
        for (f, e, key) in &header {
            if *key != HeaderKey::Map {
                continue;
            }
            self.file = *f;
            match &e.value.kind {
                ExprKind::Name(n) if n == "unbounded" => {
                    self.prog.header.map = Some(MapRef::Unbounded);
                    self.map = Some(MapKnowledge::Known {
                        name: "unbounded".into(),
                        attrs: BTreeMap::new(),
                        exits: 0,
                        starts: None,
                    });
                }
                ExprKind::Str(s) => {
                    self.prog.header.map = Some(MapRef::Named(s.clone()));
                    let src = self.files[*f].clone();
                    match maps(s, &src) {
                        Ok(board) => self.map = Some(self.map_knowledge(&board)),
                        Err(msg) => self.err(
                            Diagnostic::error(
                                e.value.span.clone(),
                                format!("cannot load map `{s}`"),
                            )
                            .with_label("this map")
                            .with_note(msg)
                            .with_note("map attributes are not checked"),
                        ),
                    }
                }
                _ => self.err(
                    Diagnostic::error(
                        e.value.span.clone(),
                        "`map` must be a map name in quotes or `unbounded`",
                    )
                    .with_label("not a map name"),
                ),
            }
        }
        for (f, e, key) in &header {
            if *key == HeaderKey::Map {
                continue;
            }
            self.file = *f;
            let want = HEADER_KEYS
                .iter()
                .find(|(k, ..)| k == key)
                .map_or(Ty::ANY, |(_, _, t, _)| *t);
            let mut sc = Scope::default();
            let value = self.expect(&e.value, &mut sc, want);
            self.prog.header.entries.push(ir::HeaderEntry {
                key: *key,
                value,
                origin: ir::Origin {
                    file: *f as u16,
                    span: e.span.clone(),
                },
            });
        }
        self.check_header_values();
        // Pass 4: setup, rules and actions.
        let mut rule_names: HashMap<String, (usize, usize)> = HashMap::new();
        let mut action_names: HashMap<String, (usize, usize)> = HashMap::new();
        let mut rules: Vec<ir::Rule> = Vec::new();
        for &f in &order {
            self.file = f;
            for item in &asts[f].items {
                match &item.kind {
                    ItemKind::Setup(block) => {
                        let mut sc = Scope::default();
                        let stmts = self.block(block, &mut sc);
                        self.prog.setup.push(ir::Body {
                            stmts,
                            locals: sc.next,
                        });
                    }
                    ItemKind::Rule {
                        name,
                        trigger,
                        when,
                        body,
                    } => {
                        if let Some(r) = self.rule(name, trigger, when.as_ref(), body, item) {
                            match rule_names.get(&name.name) {
                                Some(&(rf, _)) if rf == f => self.err(
                                    Diagnostic::error(
                                        name.span.clone(),
                                        format!("rule `{}` is defined twice", name.name),
                                    )
                                    .with_label("a rule with this name is above"),
                                ),
                                Some(&(_, i2)) if i2 < rules.len() => {
                                    rules[i2] = r;
                                    rule_names.insert(name.name.clone(), (f, i2));
                                }
                                _ => {
                                    rule_names.insert(name.name.clone(), (f, rules.len()));
                                    rules.push(r);
                                }
                            }
                        }
                    }
                    ItemKind::Action(a) => {
                        let act = self.action(a, item);
                        match action_names.get(&a.name.name) {
                            Some(&(af, _)) if af == f => self.err(
                                Diagnostic::error(
                                    a.name.span.clone(),
                                    format!("action `{}` is defined twice", a.name.name),
                                )
                                .with_label("an action with this name is above"),
                            ),
                            Some(&(_, i)) if i < self.prog.actions.len() => {
                                self.prog.actions[i] = act;
                                action_names.insert(a.name.name.clone(), (f, i));
                            }
                            _ => {
                                action_names
                                    .insert(a.name.name.clone(), (f, self.prog.actions.len()));
                                self.prog.actions.push(act);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        self.prog.by_trigger = vec![Vec::new(); Trigger::ALL.len()];
        for (i, r) in rules.iter().enumerate() {
            if let Some(v) = self.prog.by_trigger.get_mut(r.trigger as usize) {
                v.push(i as u32);
            }
        }
        self.prog.rules = rules;
        self.rule_action_clashes();
        // Pass 5: unused parameters (not in a file with errors: those are often the cause).
        for (i, used) in self.param_used.clone().into_iter().enumerate() {
            if used {
                continue;
            }
            let (Some(p), Some(&f)) = (self.prog.params.get(i), self.param_file.get(i)) else {
                continue;
            };
            if self.diags.iter().any(|(df, d)| *df == f && d.is_error()) {
                continue;
            }
            let span = p.origin.span.clone();
            let name = p.name.clone();
            self.file = f;
            self.err(
                Diagnostic::warning(span, format!("parameter `{name}` is never used"))
                    .with_label("declared here")
                    .with_note("remove it, or use it in a rule or the header"),
            );
        }
        self.asts = asts;
    }

    /// A rule and an action share a name: score lines, refusals and `carto doc` could not tell them
    /// apart. Reported at the action, naming the rule.
    fn rule_action_clashes(&mut self) {
        let mut clashes = Vec::new();
        for a in &self.prog.actions {
            if let Some(r) = self.prog.rules.iter().find(|r| r.name == a.name) {
                clashes.push((a.name.clone(), a.origin.clone(), r.origin.clone()));
            }
        }
        for (name, at, rule) in clashes {
            let first_line = |o: &ir::Origin| -> (usize, ast::Span) {
                let text = self
                    .files
                    .get(o.file as usize)
                    .map_or("", |f| f.text.as_str());
                let line = text
                    .get(o.span.clone())
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or("");
                (
                    o.file as usize,
                    o.span.start..o.span.start + line.trim_end().len(),
                )
            };
            let (file, span) = first_line(&at);
            let (rfile, rspan) = first_line(&rule);
            let (line, col) = self.files[rfile].line_col(rspan.start);
            let saved = std::mem::replace(&mut self.file, file);
            self.err(
                Diagnostic::error(
                    span,
                    format!("a rule and an action are both named `{name}`"),
                )
                .with_label("this action")
                .with_note(format!(
                    "the rule is at {}:{line}:{col}",
                    self.files[rfile].name
                ))
                .with_note(
                    "score lines and refusals name rules and actions: give one another name",
                ),
            );
            self.file = saved;
        }
    }

    /// Reports header values play would refuse (`crate::header`), at their entries.
    fn check_header_values(&mut self) {
        let starts = match &self.map {
            Some(MapKnowledge::Known { starts, .. }) => *starts,
            _ => None,
        };
        let Err(problems) = crate::header::header_values(&self.prog, starts) else {
            return;
        };
        for p in problems {
            let Some(e) = self.prog.header.entries.iter().find(|e| e.key == p.key) else {
                continue;
            };
            let (file, mut span) = (e.origin.file as usize, e.origin.span.clone());
            // The entry's span, without the blanks that follow it.
            if let Some(text) = self.files.get(file).and_then(|f| f.text.get(span.clone())) {
                span.end = span.start + text.trim_end().len();
            }
            let saved = std::mem::replace(&mut self.file, file);
            let mut d = Diagnostic::error(span, p.message).with_label("refused by play");
            if let Some(n) = p.note {
                d = d.with_note(n);
            }
            self.err(d);
            self.file = saved;
        }
    }

    fn map_knowledge(&self, board: &MapBoard) -> MapKnowledge {
        let mut kinds: BTreeMap<String, Vec<&AttrValue>> = BTreeMap::new();
        for sq in &board.squares {
            for (k, v) in &sq.attrs {
                kinds.entry(k.clone()).or_default().push(v);
            }
        }
        let attrs = kinds
            .into_iter()
            .map(|(k, vs)| {
                let ty = if vs.iter().all(|v| matches!(v, AttrValue::Int(_))) {
                    Ty::INT
                } else if vs.iter().all(|v| matches!(v, AttrValue::Bool(_))) {
                    Ty::BOOL
                } else if vs
                    .iter()
                    .all(|v| matches!(v, AttrValue::Str(s) if self.prog.colours.contains(s)))
                {
                    Ty::of(Base::Colour)
                } else if vs.iter().all(|v| matches!(v, AttrValue::Str(_))) {
                    Ty::STR
                } else {
                    Ty::ANY
                };
                (k, ty)
            })
            .collect();
        MapKnowledge::Known {
            name: board.name.clone(),
            attrs,
            exits: board.exits.len(),
            starts: Some(board.starts.len()),
        }
    }

    /// Declares a global name; reports a clash. Returns whether it was declared.
    fn declare(&mut self, name: &ast::Ident, g: Global) -> bool {
        if let Some(old) = self.globals.get(&name.name) {
            let what = old.what();
            self.err(
                Diagnostic::error(
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
                        e.span.clone(),
                        format!("a chip count must be between 1 and 1000, found {}", e.count),
                    )
                    .with_label("bad count"),
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

    fn resolve_type(&mut self, t: &ast::TypeExpr) -> Option<Ty> {
        match t {
            ast::TypeExpr::Named(id) => match Base::from_name(&id.name) {
                Some(b) => Some(Ty::of(b)),
                None => {
                    let mut d =
                        Diagnostic::error(id.span.clone(), format!("unknown type `{}`", id.name))
                            .with_label("not a type");
                    if let Some(s) = did_you_mean(&id.name, Base::NAMED.iter().map(|(n, _)| *n)) {
                        d = d.with_note(format!("did you mean `{s}`?"));
                    }
                    let all: Vec<&str> = Base::NAMED.iter().map(|(n, _)| *n).collect();
                    d = d.with_note(format!("the types are: {}, and `list<T>`", all.join(", ")));
                    self.err(d);
                    None
                }
            },
            ast::TypeExpr::List(inner, span) => {
                if matches!(**inner, ast::TypeExpr::List(..)) {
                    self.err(
                        Diagnostic::error(span.clone(), "lists of lists are not supported")
                            .with_label("nested list type"),
                    );
                    return None;
                }
                self.resolve_type(inner).map(|t| Ty::list(t.base))
            }
        }
    }

    fn declare_param(&mut self, p: &ast::ParamDecl, item: &ast::Item) {
        let Some(ty) = self.resolve_type(&p.ty) else {
            return;
        };
        const PARAM_BASES: [Base; 7] = [
            Base::Int,
            Base::Bool,
            Base::Str,
            Base::Colour,
            Base::Kind,
            Base::Face,
            Base::Table,
        ];
        if ty.list || !PARAM_BASES.contains(&ty.base) {
            self.err(
                Diagnostic::error(p.ty.span(), format!("a parameter cannot be of type {ty}"))
                    .with_label("not a parameter type")
                    .with_note("parameters are int, bool, string, colour, kind, face or table"),
            );
            return;
        }
        if let Some(Global::Param(i)) = self.globals.get(&p.name.name).copied() {
            let imported = self.param_file.get(i as usize).copied() != Some(self.file);
            let mut d = Diagnostic::error(
                p.name.span.clone(),
                format!("parameter `{}` is already defined", p.name.name),
            )
            .with_label(if imported {
                "defined in an imported file"
            } else {
                "defined above"
            });
            if imported {
                d = d.with_note(format!(
                    "to change its default, write `override {} = …`",
                    p.name.name
                ));
            }
            self.err(d);
            return;
        }
        let default = match const_value(&mut self.prog, &p.default, ty) {
            Ok(v) => v,
            Err(d) => {
                self.err(d);
                Value::Unit
            }
        };
        let mut one_of = Vec::new();
        if let Some(list) = &p.one_of {
            if let ExprKind::List(items) = &list.kind {
                for it in items {
                    match const_value(&mut self.prog, it, ty) {
                        Ok(v) => one_of.push(v),
                        Err(d) => self.err(d),
                    }
                }
            }
            if default != Value::Unit && !one_of.is_empty() && !one_of.contains(&default) {
                self.err(
                    Diagnostic::error(
                        p.default.span.clone(),
                        "the default is not one of the allowed values",
                    )
                    .with_label("not in the `one of` list"),
                );
            }
        }
        let range = p.range.as_ref().and_then(|r| self.param_range(r, ty));
        if let Some(r) = &range {
            if let Some(why) = r.refuses(default, &self.prog.tables) {
                self.err(
                    Diagnostic::error(
                        p.default.span.clone(),
                        format!("the default of `{}` is not allowed: it {why}", p.name.name),
                    )
                    .with_label("the default")
                    .with_note(format!(
                        "`{}` is declared `in {}`",
                        p.name.name,
                        r.text()
                    )),
                );
            }
        }
        let id = self.prog.params.len() as u16;
        if !self.declare(&p.name, Global::Param(id)) {
            return;
        }
        self.prog.params.push(ir::ParamDef {
            name: p.name.name.clone(),
            ty,
            default,
            value: default,
            doc: p.doc.as_ref().map(|d| d.value.clone()).unwrap_or_default(),
            one_of,
            range,
            origin: ir::Origin {
                file: self.file as u16,
                span: p.name.span.clone(),
            },
        });
        self.param_file.push(self.file);
        self.param_used.push(false);
        let _ = item;
    }

    /// `in LO..HI` of an int parameter, or the keys (`in 1..4`, `in [1, 2]`) a table must have.
    fn param_range(&mut self, e: &ast::Expr, ty: Ty) -> Option<ir::ParamRange> {
        let int = |this: &mut Self, x: &ast::Expr| match const_value(&mut this.prog, x, Ty::INT) {
            Ok(Value::Int(i)) => Some(i),
            Ok(_) => None,
            Err(d) => {
                this.err(d);
                None
            }
        };
        let range = match (&e.kind, ty.base) {
            (ExprKind::Range(a, b), Base::Int) => {
                ir::ParamRange::Ints(int(self, a)?, int(self, b)?)
            }
            (ExprKind::Range(a, b), Base::Table) => {
                let (a, b) = (int(self, a)?, int(self, b)?);
                if b.saturating_sub(a) > 1000 {
                    self.err(
                        Diagnostic::error(e.span.clone(), "at most 1000 keys")
                            .with_label("too many keys"),
                    );
                    return None;
                }
                ir::ParamRange::Keys((a..=b).collect())
            }
            (ExprKind::List(items), Base::Table) => {
                let mut keys = Vec::new();
                for it in items {
                    keys.push(int(self, it)?);
                }
                ir::ParamRange::Keys(keys)
            }
            _ => {
                self.err(
                    Diagnostic::error(e.span.clone(), format!("a parameter of type {ty} takes no `in`"))
                        .with_label("not allowed here")
                        .with_note("an int takes `in LO..HI`; a table takes the keys it must have: `in 1..4` or `in [1, 2, 4]`; other types take `one of [...]`"),
                );
                return None;
            }
        };
        if let ir::ParamRange::Ints(lo, hi) = range {
            if lo > hi {
                self.err(
                    Diagnostic::error(e.span.clone(), format!("`{lo}..{hi}` is empty"))
                        .with_label("the lowest value comes first"),
                );
                return None;
            }
        }
        Some(range)
    }

    fn override_param(&mut self, name: &ast::Ident, value: &ast::Expr) {
        let Some(Global::Param(i)) = self.globals.get(&name.name).copied() else {
            let params: Vec<String> = self.prog.params.iter().map(|p| p.name.clone()).collect();
            let mut d = Diagnostic::error(
                name.span.clone(),
                format!("`override` of unknown parameter `{}`", name.name),
            )
            .with_label("no parameter has this name");
            if let Some(s) = did_you_mean(&name.name, params.iter().map(|s| s.as_str())) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            self.err(d);
            return;
        };
        let Some(ty) = self.prog.params.get(i as usize).map(|p| p.ty) else {
            return;
        };
        match const_value(&mut self.prog, value, ty) {
            Ok(v) => {
                let p = &mut self.prog.params[i as usize];
                if !p.one_of.is_empty() && !p.one_of.contains(&v) {
                    self.err(
                        Diagnostic::error(value.span.clone(), "not one of the allowed values")
                            .with_label("not allowed"),
                    );
                    return;
                }
                let p = &self.prog.params[i as usize];
                if let Some(why) = p
                    .range
                    .as_ref()
                    .and_then(|r| r.refuses(v, &self.prog.tables))
                {
                    let r = p.range.as_ref().map(|r| r.text()).unwrap_or_default();
                    self.err(
                        Diagnostic::error(value.span.clone(), format!("`{}` {why}", name.name))
                            .with_label("outside the parameter's range")
                            .with_note(format!("`{}` takes values in {r}", name.name)),
                    );
                    return;
                }
                let p = &mut self.prog.params[i as usize];
                p.default = v;
                p.value = v;
            }
            Err(d) => self.err(d),
        }
    }

    // ------------------------------------------------------------ rules and actions

    fn never(&mut self, e: &ast::Expr, what: &str) {
        if const_bool(e) == Some(false) {
            self.err(
                Diagnostic::error(e.span.clone(), format!("this {what} can never apply"))
                    .with_label("this condition is always false"),
            );
        }
    }

    fn rule(
        &mut self,
        name: &ast::Ident,
        trigger: &ast::Ident,
        when: Option<&ast::Expr>,
        body: &ast::Block,
        item: &ast::Item,
    ) -> Option<ir::Rule> {
        let Some(t) = Trigger::from_name(&trigger.name) else {
            let mut d = Diagnostic::error(
                trigger.span.clone(),
                format!("unknown trigger `{}`", trigger.name),
            )
            .with_label("not a trigger");
            if let Some(s) = did_you_mean(&trigger.name, Trigger::ALL.iter().map(|t| t.name())) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            let all: Vec<&str> = Trigger::ALL.iter().map(|t| t.name()).collect();
            self.err(d.with_note(format!("the triggers are: {}", all.join(", "))));
            return None;
        };
        if t == Trigger::Abroad {
            if let Some(MapKnowledge::Known {
                name: m, exits: 0, ..
            }) = &self.map
            {
                let m = m.clone();
                self.err(
                    Diagnostic::warning(trigger.span.clone(), "this trigger can never apply")
                        .with_label(format!("the map `{m}` has no border exits")),
                );
            }
        }
        let mut sc = Scope::default();
        for (n, ty) in t.binds() {
            sc.bind(n, *ty);
        }
        let when = when.map(|w| {
            self.never(w, "rule");
            self.expect(w, &mut sc, Ty::BOOL)
        });
        let stmts = self.block(body, &mut sc);
        Some(ir::Rule {
            name: name.name.clone(),
            trigger: t,
            when,
            body: ir::Body {
                stmts,
                locals: sc.next,
            },
            origin: ir::Origin {
                file: self.file as u16,
                span: item.span.clone(),
            },
        })
    }

    fn action(&mut self, a: &ast::ActionDecl, item: &ast::Item) -> ir::Action {
        let phase = if a.forced {
            None
        } else {
            match &a.phase {
                None => Some(builtins::Phase::Score),
                Some(p) => match PHASES.iter().find(|(n, _)| *n == p.name) {
                    Some((_, ph)) => Some(*ph),
                    None => {
                        let mut d = Diagnostic::error(
                            p.span.clone(),
                            format!("unknown phase `{}`", p.name),
                        )
                        .with_label("not a phase");
                        if let Some(s) = did_you_mean(&p.name, PHASES.iter().map(|(n, _)| *n)) {
                            d = d.with_note(format!("did you mean `{s}`?"));
                        }
                        self.err(d.with_note("the phases are: start, follower, score, after"));
                        Some(builtins::Phase::Score)
                    }
                },
            }
        };
        let mut limits = Vec::new();
        for l in &a.limits {
            match &l.kind {
                LimitKind::Per { unit, count } => {
                    let per_turn = match unit.name.as_str() {
                        "turn" => true,
                        "round" => false,
                        other => {
                            let mut d = Diagnostic::error(
                                unit.span.clone(),
                                format!("unknown limit unit `{other}`"),
                            )
                            .with_label("expected `turn` or `round`");
                            if let Some(s) = did_you_mean(other, builtins::LIMIT_UNITS) {
                                d = d.with_note(format!("did you mean `{s}`?"));
                            }
                            self.err(d);
                            continue;
                        }
                    };
                    if *count == 0 {
                        self.err(
                            Diagnostic::error(
                                l.span.clone(),
                                format!("action `{}` can never apply", a.name.name),
                            )
                            .with_label("zero times allowed")
                            .with_note("remove the action, or allow it at least once"),
                        );
                    }
                    let n = u32::try_from(*count).unwrap_or(u32::MAX);
                    limits.push(if per_turn {
                        ir::Limit::PerTurn(n)
                    } else {
                        ir::Limit::PerRound(n)
                    });
                }
                LimitKind::Group(g) => {
                    let id = match self.prog.groups.iter().position(|x| *x == g.name) {
                        Some(i) => i,
                        None => {
                            self.prog.groups.push(g.name.clone());
                            self.prog.groups.len() - 1
                        }
                    };
                    limits.push(ir::Limit::Group(id as u16));
                }
                LimitKind::Flag(f) => match f.name.as_str() {
                    "no_follower" => {
                        if phase == Some(builtins::Phase::Start) {
                            self.err(
                                Diagnostic::warning(
                                    l.span.clone(),
                                    "`limit no_follower` has no effect in phase `start`",
                                )
                                .with_label("no follower can have been placed yet")
                                .with_note("use it in phase `follower`, `score` or `after`"),
                            );
                        }
                        limits.push(ir::Limit::NoFollower);
                    }
                    "not_extra" => limits.push(ir::Limit::NotExtra),
                    other => {
                        let mut d =
                            Diagnostic::error(f.span.clone(), format!("unknown limit `{other}`"))
                                .with_label("not a limit");
                        if let Some(s) = did_you_mean(other, builtins::LIMIT_FLAGS) {
                            d = d.with_note(format!("did you mean `{s}`?"));
                        }
                        self.err(d.with_note(
                            "the limits are: `per turn N`, `per round N`, `group NAME`, `no_follower`, `not_extra`",
                        ));
                    }
                },
            }
        }
        if a.forced
            && a.choices.is_empty()
            && a.when.as_ref().is_none_or(|w| const_bool(w) == Some(true))
        {
            self.err(
                Diagnostic::error(
                    a.name.span.clone(),
                    format!("forced action `{}` would be taken again and again", a.name.name),
                )
                .with_label("it always applies")
                .with_note("a forced action is taken whenever its condition holds: give it a `when` that its effect makes false"),
            );
        }
        let mut sc = Scope::default();
        sc.bind("player", Ty::of(Base::Player));
        let when = a.when.as_ref().map(|w| {
            self.never(w, if a.forced { "forced action" } else { "action" });
            self.expect(w, &mut sc, Ty::BOOL)
        });
        let mut choices = Vec::new();
        for c in &a.choices {
            if choices.iter().any(|x: &ir::Choice| x.name == c.name.name) || c.name.name == "player"
            {
                self.err(
                    Diagnostic::error(
                        c.name.span.clone(),
                        format!("choice `{}` is defined twice", c.name.name),
                    )
                    .with_label("this name is already bound in this action"),
                );
            }
            let (from, kind, ty) = if c.chips {
                let from = self.expect(&c.from, &mut sc, Ty::list(Base::Chip));
                let size = c.size.as_ref().map(|s| {
                    let (e, t) = self.expr(s, &mut sc);
                    if !(Ty::of(Base::Range).accepts(t) || t == Ty::INT) {
                        self.err(
                            Diagnostic::error(
                                s.span.clone(),
                                format!("expected a range or int, found {t}"),
                            )
                            .with_label("the size, like `1..4`"),
                        );
                    }
                    e
                });
                (from, ir::ChoiceKind::Chips { size }, Ty::list(Base::Chip))
            } else {
                let (from, t) = self.expr(&c.from, &mut sc);
                let elem = self.elem_of(t, c.from.span.clone());
                (from, ir::ChoiceKind::One, elem)
            };
            let slot = sc.bind(&c.name.name, ty);
            let filter = c.filter.as_ref().map(|f| self.expect(f, &mut sc, Ty::BOOL));
            choices.push(ir::Choice {
                name: c.name.name.clone(),
                slot,
                kind,
                from,
                filter,
                ty,
            });
        }
        let stmts = self.block(&a.body, &mut sc);
        ir::Action {
            name: a.name.name.clone(),
            phase,
            limits,
            when,
            choices,
            body: ir::Body {
                stmts,
                locals: sc.next,
            },
            origin: ir::Origin {
                file: self.file as u16,
                span: item.span.clone(),
            },
        }
    }

    fn elem_of(&mut self, t: Ty, span: ast::Span) -> Ty {
        match t.elem() {
            Some(e) => e,
            None => {
                self.err(
                    Diagnostic::error(span, format!("expected a list, found {t}"))
                        .with_label("not a list")
                        .with_note(
                            "lists come from queries like `squares()`, `[a, b]` or ranges `1..4`",
                        ),
                );
                Ty::ANY
            }
        }
    }

    // ------------------------------------------------------------ statements

    fn block(&mut self, b: &ast::Block, sc: &mut Scope) -> Vec<Stmt> {
        let mark = sc.vars.len();
        let out = b.stmts.iter().filter_map(|s| self.stmt(s, sc)).collect();
        sc.vars.truncate(mark);
        out
    }

    fn stmt(&mut self, s: &ast::Stmt, sc: &mut Scope) -> Option<Stmt> {
        Some(match &s.kind {
            StmtKind::Let(name, e) => {
                let (e, t) = self.expr(e, sc);
                if t == Ty::UNIT {
                    return None;
                }
                Stmt::Let(sc.bind(&name.name, t), e)
            }
            StmtKind::If(branches, otherwise) => {
                let mut out = Vec::new();
                for (c, b) in branches {
                    let c = self.expect(c, sc, Ty::BOOL);
                    out.push((c, self.block(b, sc)));
                }
                let otherwise = otherwise.as_ref().map(|b| self.block(b, sc));
                Stmt::If(out, otherwise)
            }
            StmtKind::For(var, list, body) => {
                let (l, t) = self.expr(list, sc);
                let elem = self.elem_of(t, list.span.clone());
                let mark = sc.vars.len();
                let slot = sc.bind(&var.name, elem);
                let body = self.block(body, sc);
                sc.vars.truncate(mark);
                Stmt::For(slot, l, body)
            }
            StmtKind::Call(name, args) => {
                let (b, args, _) = self.call(name, args, s.span.clone(), sc, true)?;
                Stmt::Effect(b, args, s.span.clone())
            }
        })
    }

    // ------------------------------------------------------------ expressions

    fn expect(&mut self, e: &ast::Expr, sc: &mut Scope, want: Ty) -> Expr {
        let (x, t) = self.expr(e, sc);
        if !want.accepts(t) {
            self.err(mismatch(e.span.clone(), want, t));
            return x;
        }
        if want.base == Base::Players && !want.list && t.base == Base::Player && !t.list {
            return Expr::ToPlayers(Box::new(x));
        }
        x
    }

    fn visible_names(&self, sc: &Scope) -> Vec<String> {
        let mut v: Vec<String> = sc.vars.iter().map(|(n, ..)| n.clone()).collect();
        v.extend(self.globals.keys().cloned());
        v.extend(["true".to_string(), "false".to_string()]);
        v
    }

    fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: ast::Span,
        sc: &mut Scope,
        as_stmt: bool,
    ) -> Option<(Builtin, Vec<Expr>, Ty)> {
        let Some(b) = Builtin::from_name(&name.name) else {
            let mut d = Diagnostic::error(
                name.span.clone(),
                format!("unknown builtin `{}`", name.name),
            )
            .with_label("no builtin has this name");
            let names = Builtin::ALL.iter().map(|b| b.info().name);
            if let Some(s) = did_you_mean(&name.name, names) {
                d = d.with_note(format!("did you mean `{s}`?"));
            } else if sc.get(&name.name).is_some() || self.globals.contains_key(&name.name) {
                d = d.with_note(format!(
                    "`{}` is a value, not a builtin; it cannot be called",
                    name.name
                ));
            }
            self.err(d);
            for a in args {
                self.expr(a, sc);
            }
            return None;
        };
        let info = b.info();
        if as_stmt && !info.effect {
            self.err(
                Diagnostic::error(
                    span.clone(),
                    format!("`{}` is a query; its result would be unused", info.name),
                )
                .with_label("not an effect")
                .with_note("use it in an expression, e.g. `let x = …`"),
            );
        } else if !as_stmt && info.effect {
            self.err(
                Diagnostic::error(
                    span.clone(),
                    format!("`{}` is an effect; it has no value", info.name),
                )
                .with_label("used as a value")
                .with_note("call it as a statement on its own line"),
            );
        }
        if args.len() != info.params.len() {
            let s = if info.params.len() == 1 { "" } else { "s" };
            self.err(
                Diagnostic::error(
                    span,
                    format!(
                        "`{}` takes {} argument{s}, found {}",
                        info.name,
                        info.params.len(),
                        args.len()
                    ),
                )
                .with_label("wrong number of arguments")
                .with_note(format!("the signature is `{}`", b.signature())),
            );
            for a in args {
                self.expr(a, sc);
            }
            return None;
        }
        // An attribute named by a string must exist on the map, like `square.NAME`.
        if let (
            Builtin::SquaresWith,
            Some(ast::Expr {
                kind: ExprKind::Str(attr),
                span: aspan,
            }),
        ) = (b, args.first())
        {
            if let Some(MapKnowledge::Known {
                name: map, attrs, ..
            }) = &self.map
            {
                if !attrs.contains_key(attr) {
                    let mut d = Diagnostic::error(
                        aspan.clone(),
                        format!("the map `{map}` has no square attribute `{attr}`"),
                    )
                    .with_label("no such map attribute");
                    if let Some(s) = did_you_mean(attr, attrs.keys().map(|k| k.as_str())) {
                        d = d.with_note(format!("did you mean `{s}`?"));
                    }
                    self.err(d);
                }
            }
        }
        let mut out = Vec::new();
        let mut first_ty = Ty::ANY;
        for (i, (a, (pname, pty))) in args.iter().zip(info.params.iter()).enumerate() {
            let want = match pty {
                PTy::T(t) => Some(*t),
                PTy::ElemOfFirst => first_ty.elem(),
                PTy::AnyList | PTy::ChipOrChips => None,
            };
            let x = match want {
                Some(w) => {
                    let (x, t) = self.expr(a, sc);
                    if !w.accepts(t) {
                        self.err(
                            mismatch(a.span.clone(), w, t)
                                .with_note(format!("in argument `{pname}` of `{}`", b.signature())),
                        );
                        x
                    } else if w.base == Base::Players && !w.list && t == Ty::of(Base::Player) {
                        Expr::ToPlayers(Box::new(x))
                    } else {
                        x
                    }
                }
                None => {
                    let (x, t) = self.expr(a, sc);
                    let ok = match pty {
                        PTy::AnyList => t.elem().is_some(),
                        _ => Ty::of(Base::Chip).accepts(t) || Ty::list(Base::Chip).accepts(t),
                    };
                    if !ok {
                        self.err(
                            Diagnostic::error(a.span.clone(), format!("expected {pty}, found {t}"))
                                .with_label(format!("this is {t}"))
                                .with_note(format!("in argument `{pname}` of `{}`", b.signature())),
                        );
                    }
                    if i == 0 {
                        first_ty = t;
                    }
                    x
                }
            };
            out.push(x);
        }
        let ret = match info.ret {
            RTy::T(t) => t,
            RTy::ElemOfFirst => first_ty.elem().unwrap_or(Ty::ANY),
        };
        Some((b, out, ret))
    }

    fn expr(&mut self, e: &ast::Expr, sc: &mut Scope) -> (Expr, Ty) {
        let bad = (Expr::Const(Value::Unit), Ty::ANY);
        match &e.kind {
            ExprKind::Int(i) => (Expr::Const(Value::Int(*i)), Ty::INT),
            ExprKind::Bool(b) => (Expr::Const(Value::Bool(*b)), Ty::BOOL),
            ExprKind::Str(s) => (Expr::Const(Value::Str(self.prog.intern(s))), Ty::STR),
            ExprKind::Name(n) => {
                if let Some((t, slot)) = sc.get(n) {
                    return (Expr::Local(slot), t);
                }
                if let Some(g) = self.globals.get(n).copied() {
                    let ty = g.ty(&self.prog);
                    let x = match g {
                        Global::Param(i) => {
                            if let Some(u) = self.param_used.get_mut(i as usize) {
                                *u = true;
                            }
                            Expr::Param(i)
                        }
                        Global::Colour(c) => Expr::Const(Value::Colour(c)),
                        Global::Kind(k) => Expr::Const(Value::Kind(k)),
                        Global::Place(p) => Expr::Const(Value::Place(p)),
                        Global::Face(f) => Expr::Const(Value::Face(f)),
                        Global::Holding(h) => Expr::Const(Value::Holding(h)),
                    };
                    return (x, ty);
                }
                let mut d = Diagnostic::error(e.span.clone(), format!("unknown name `{n}`"))
                    .with_label("not defined");
                let names = self.visible_names(sc);
                if let Some(s) = did_you_mean(n, names.iter().map(|s| s.as_str())) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                } else if let Some(b) = Builtin::from_name(n) {
                    d = d.with_note(format!("`{n}` is a builtin; call it: `{}`", b.signature()));
                } else if n == "unbounded" {
                    d = d.with_note("`unbounded` is only a value of the header key `map`");
                }
                self.err(d);
                bad
            }
            ExprKind::List(items) => {
                let mut elem = Ty::ANY;
                let mut out = Vec::new();
                for it in items {
                    let (x, t) = self.expr(it, sc);
                    if t.list {
                        self.err(
                            Diagnostic::error(it.span.clone(), "lists of lists are not supported")
                                .with_label("a list"),
                        );
                    } else if elem.is_any() {
                        elem = t;
                    } else if !elem.accepts(t) {
                        self.err(
                            Diagnostic::error(
                                it.span.clone(),
                                format!("expected {elem}, found {t}"),
                            )
                            .with_label("all elements of a list have one type"),
                        );
                    }
                    out.push(x);
                }
                (Expr::List(out), Ty::list(elem.base))
            }
            ExprKind::Table(_) => match const_value(&mut self.prog, e, Ty::of(Base::Table)) {
                Ok(v) => (Expr::Const(v), Ty::of(Base::Table)),
                Err(_) => {
                    self.err(
                        Diagnostic::error(
                            e.span.clone(),
                            "a table's keys and values must be constant numbers",
                        )
                        .with_label("not a constant table"),
                    );
                    bad
                }
            },
            ExprKind::Range(a, b) => {
                let a = self.expect(a, sc, Ty::INT);
                let b = self.expect(b, sc, Ty::INT);
                (Expr::Range(Box::new(a), Box::new(b)), Ty::of(Base::Range))
            }
            ExprKind::Field(obj, name) => {
                let (x, t) = self.expr(obj, sc);
                if t.is_any() {
                    return bad;
                }
                if t.list {
                    self.err(
                        Diagnostic::error(name.span.clone(), format!("a {t} has no fields"))
                            .with_label("field of a list")
                            .with_note(format!(
                                "use an aggregate, e.g. `sum(x in … : x.{})`",
                                name.name
                            )),
                    );
                    return bad;
                }
                if let Some((f, ft)) = builtins::field(t.base, &name.name) {
                    return (Expr::Field(Box::new(x), f), ft);
                }
                if t.base == Base::Square {
                    return self.attr(x, name);
                }
                let fields: Vec<&str> = builtins::field_names(t.base).collect();
                let mut d = Diagnostic::error(
                    name.span.clone(),
                    format!("{t} has no field `{}`", name.name),
                )
                .with_label("unknown field");
                if let Some(s) = did_you_mean(&name.name, fields.iter().copied()) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                if fields.is_empty() {
                    d = d.with_note(format!("{t} has no fields"));
                } else {
                    d = d.with_note(format!("the fields of {t} are: {}", fields.join(", ")));
                }
                self.err(d);
                bad
            }
            ExprKind::Index(obj, idx) => {
                let (x, t) = self.expr(obj, sc);
                let i = self.expect(idx, sc, Ty::INT);
                let rt = if t.is_any() {
                    Ty::ANY
                } else if t == Ty::of(Base::Table) {
                    Ty::INT
                } else if t.list {
                    Ty::of(t.base)
                } else {
                    self.err(
                        Diagnostic::error(obj.span.clone(), format!("cannot index {t}"))
                            .with_label("not a table or list"),
                    );
                    return bad;
                };
                (Expr::Index(Box::new(x), Box::new(i)), rt)
            }
            ExprKind::Call(name, args) => match self.call(name, args, e.span.clone(), sc, false) {
                Some((b, args, t)) => (Expr::Call(b, args), t),
                None => bad,
            },
            ExprKind::Unary(op, x) => match op {
                UnOp::Not => (Expr::Not(Box::new(self.expect(x, sc, Ty::BOOL))), Ty::BOOL),
                UnOp::Neg => (Expr::Neg(Box::new(self.expect(x, sc, Ty::INT))), Ty::INT),
            },
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, sc),
            ExprKind::Aggregate {
                op,
                var,
                list,
                filter,
                map,
            } => {
                let (l, lt) = self.expr(list, sc);
                let elem = self.elem_of(lt, list.span.clone());
                let mark = sc.vars.len();
                let slot = sc.bind(&var.name, elem);
                let filter = filter
                    .as_ref()
                    .map(|f| Box::new(self.expect(f, sc, Ty::BOOL)));
                let (map_x, map_t) = match map {
                    Some(m) => {
                        let (x, t) = self.expr(m, sc);
                        (Some(Box::new(x)), Some((t, m.span.clone())))
                    }
                    None => (None, None),
                };
                sc.vars.truncate(mark);
                let value_t = map_t.as_ref().map_or(elem, |(t, _)| *t);
                let value_span = map_t.as_ref().map_or(list.span.clone(), |(_, s)| s.clone());
                let rt = match op {
                    AggOp::Count => {
                        if let Some((_, s)) = &map_t {
                            self.err(
                                Diagnostic::error(s.clone(), "`count` takes no `:` part")
                                    .with_label("nothing to map")
                                    .with_note("count the elements that pass a test with `where`"),
                            );
                        }
                        Ty::INT
                    }
                    AggOp::Sum | AggOp::Min | AggOp::Max => {
                        if !Ty::INT.accepts(value_t) {
                            let mut d = mismatch(value_span, Ty::INT, value_t);
                            if map_t.is_none() {
                                d = d
                                    .with_label(format!("the elements of this list are {value_t}"));
                            }
                            self.err(d.with_note(format!(
                                "`{}` needs numbers: add `: x.value` or similar",
                                op.name()
                            )));
                        }
                        Ty::INT
                    }
                    AggOp::Any | AggOp::All => {
                        if map_t.is_some() && !Ty::BOOL.accepts(value_t) {
                            self.err(mismatch(value_span, Ty::BOOL, value_t));
                        }
                        Ty::BOOL
                    }
                    AggOp::Distinct => Ty::INT,
                    AggOp::Collect => {
                        if value_t.list {
                            self.err(
                                Diagnostic::error(value_span, "lists of lists are not supported")
                                    .with_label("a list"),
                            );
                        }
                        Ty::list(value_t.base)
                    }
                };
                let x = Expr::Aggregate {
                    op: *op,
                    var: slot,
                    list: Box::new(l),
                    filter,
                    map: map_x,
                };
                (x, rt)
            }
        }
    }

    fn attr(&mut self, obj: Expr, name: &ast::Ident) -> (Expr, Ty) {
        let id = |prog: &mut Program, ty: Ty| -> u16 {
            match prog.attrs.iter().position(|a| a.name == name.name) {
                Some(i) => i as u16,
                None => {
                    prog.attrs.push(ir::AttrDef {
                        name: name.name.clone(),
                        ty,
                    });
                    (prog.attrs.len() - 1) as u16
                }
            }
        };
        match &self.map {
            Some(MapKnowledge::Known {
                name: map, attrs, ..
            }) => match attrs.get(&name.name) {
                Some(&ty) => {
                    let i = id(&mut self.prog, ty);
                    (Expr::Attr(Box::new(obj), i), ty)
                }
                None => {
                    let map = map.clone();
                    let mut cands: Vec<String> = attrs.keys().cloned().collect();
                    cands.extend(builtins::field_names(Base::Square).map(String::from));
                    let mut d = if map == "unbounded" {
                        Diagnostic::error(
                            name.span.clone(),
                            format!(
                                "squares of the unbounded table have no attribute `{}`",
                                name.name
                            ),
                        )
                        .with_label("no map attributes here")
                    } else {
                        Diagnostic::error(
                            name.span.clone(),
                            format!("the map `{map}` has no square attribute `{}`", name.name),
                        )
                        .with_label("not a field or map attribute")
                    };
                    if let Some(s) = did_you_mean(&name.name, cands.iter().map(|s| s.as_str())) {
                        d = d.with_note(format!("did you mean `{s}`?"));
                    }
                    self.err(d);
                    (Expr::Const(Value::Unit), Ty::ANY)
                }
            },
            _ => {
                let i = id(&mut self.prog, Ty::ANY);
                (Expr::Attr(Box::new(obj), i), Ty::ANY)
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, sc: &mut Scope) -> (Expr, Ty) {
        let bx = |op, x, y| Expr::Binary(op, Box::new(x), Box::new(y));
        match op {
            BinOp::And | BinOp::Or => {
                let x = self.expect(a, sc, Ty::BOOL);
                let y = self.expect(b, sc, Ty::BOOL);
                (bx(op, x, y), Ty::BOOL)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                let x = self.expect(a, sc, Ty::INT);
                let y = self.expect(b, sc, Ty::INT);
                (bx(op, x, y), Ty::INT)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let x = self.expect(a, sc, Ty::INT);
                let y = self.expect(b, sc, Ty::INT);
                (bx(op, x, y), Ty::BOOL)
            }
            BinOp::Eq | BinOp::Ne => {
                let (x, ta) = self.expr(a, sc);
                let (y, tb) = self.expr(b, sc);
                if !(ta.accepts(tb) || tb.accepts(ta)) {
                    self.err(
                        Diagnostic::error(
                            a.span.start..b.span.end,
                            format!("cannot compare {ta} with {tb}"),
                        )
                        .with_label(format!("{ta} {} {tb}", op.symbol())),
                    );
                }
                (bx(op, x, y), Ty::BOOL)
            }
        }
    }
}
