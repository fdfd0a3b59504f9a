//! A generator of well-typed rules files from a stream of bytes, for the fuzz target and the
//! proptest smoke that check and then *play* them (`crate::trial`).
//!
//! It writes the real language from the checker's own tables: every query, effect, field, trigger,
//! phase and limit comes from `builtins.rs`, so a builtin added there is generated at once (and house rules on
//! the imported base rules: `remove rule`, `replace rule`, `change rule`). Each
//! expression is built for the type its place expects (an argument's parameter type, a condition's
//! `bool`, an aggregate's `int`), with the names in scope (a trigger's bindings, `let`s, loop and
//! choice variables, parameters, holdings, colours and the map's attributes). The maps, imports,
//! attributes and colours it may name come from a [`Catalog`] read from the loaded data, never from
//! here. Most files pass the checker; the rest exercise its errors. When the bytes run out every
//! choice takes its first alternative, which is always a leaf, so generation ends (and is bounded by
//! depth and counts).

mod catalog;
pub mod trial;

pub use catalog::{Catalog, ImportChoice, MapChoice};

use carto::lang::builtins::{Base, Builtin, Holding, PTy, RTy, Trigger, Ty, FIELDS, PHASES};

/// Choices read from bytes; zeros (and no more optional parts) once they run out.
pub struct Entropy<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Entropy<'a> {
    pub fn new(data: &'a [u8]) -> Entropy<'a> {
        Entropy { data, pos: 0 }
    }

    fn exhausted(&self) -> bool {
        self.pos >= self.data.len()
    }

    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A number in `0..n` (0 when `n` is 0 or 1, or the bytes ran out).
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let v = if n > 256 {
            (self.byte() as usize) << 8 | self.byte() as usize
        } else {
            self.byte() as usize
        };
        v % n
    }

    /// True with about `percent` in 100; always false once the bytes ran out.
    fn chance(&mut self, percent: u32) -> bool {
        !self.exhausted() && (self.byte() as u32 * 100) / 256 < percent
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// The element types lists are generated of.
const LIST_ELEMS: [Base; 9] = [
    Base::Int,
    Base::Chip,
    Base::Square,
    Base::Player,
    Base::Follower,
    Base::Colour,
    Base::Kind,
    Base::Str,
    Base::Stack,
];

/// Types compared with `==` and `!=`.
const COMPARABLE: [Base; 9] = [
    Base::Int,
    Base::Bool,
    Base::Str,
    Base::Colour,
    Base::Kind,
    Base::Player,
    Base::Chip,
    Base::Square,
    Base::Feature,
];

/// Types an asked action's parameters take.
const ASKED_PARAM_TYPES: [Base; 5] = [
    Base::Feature,
    Base::Int,
    Base::Player,
    Base::Square,
    Base::Chip,
];

/// String literals of every file; the chosen map's place names and the colours are added to them.
const STRINGS: [&str; 3] = ["", "a", "light blue"];

/// The chips a file declares when its import declares none.
const OWN_CHIPS: &str = "chips { red 1 x 3, red 3 x 1, green 2 x 2 }\n";
const OWN_COLOURS: [&str; 2] = ["red", "green"];

/// Expressions nest at most this deep; blocks at most `MAX_BLOCK_DEPTH`.
const MAX_DEPTH: u32 = 4;
const MAX_BLOCK_DEPTH: u32 = 3;

/// A rules file generated from `data`: a variant importing a rules file of the catalog, maybe on
/// one of its maps, with parameters, a holding, maybe chips, a setup, rules on every trigger, actions
/// in every phase with limits and choices, asked actions and `ask`s, and forced actions.
pub fn rules_file(catalog: &Catalog, data: &[u8]) -> String {
    let mut e = Entropy::new(data);
    Gen::new(catalog, &mut e).file()
}

struct Gen<'a, 'e> {
    catalog: &'e Catalog,
    e: &'e mut Entropy<'a>,
    out: String,
    /// Names in scope with their types, innermost last.
    scope: Vec<(String, Ty)>,
    /// Global names (parameters, holdings, colours) with their types.
    globals: Vec<(String, Ty)>,
    /// The map's square attributes (none on the endless table).
    attrs: Vec<(String, Ty)>,
    /// The imported rules, with their triggers.
    imported: Vec<(String, Trigger)>,
    /// String literals to pick from.
    strings: Vec<String>,
    /// Asked actions: name and parameter types.
    asked: Vec<(String, Vec<Ty>)>,
    /// The holding area per player (`holding NAME per player`): `holding_of(NAME, p)` names it;
    /// it is not among the globals, which `holding(h)`, `held` and `send` pick from.
    per_player_holding: String,
    fresh: u32,
}

impl<'a, 'e> Gen<'a, 'e> {
    fn new(catalog: &'e Catalog, e: &'e mut Entropy<'a>) -> Gen<'a, 'e> {
        Gen {
            catalog,
            e,
            out: String::new(),
            scope: Vec::new(),
            globals: Vec::new(),
            attrs: Vec::new(),
            imported: Vec::new(),
            strings: STRINGS.iter().map(|s| s.to_string()).collect(),
            asked: Vec::new(),
            per_player_holding: String::new(),
            fresh: 0,
        }
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn file(mut self) -> String {
        self.header();
        self.declarations();
        if self.e.chance(50) {
            self.out.push_str("setup ");
            self.block(0);
            self.out.push('\n');
        }
        self.asked_actions_declared();
        self.house_rules();
        for _ in 0..self.e.below(5) {
            self.rule();
        }
        for _ in 0..self.e.below(4) {
            self.action();
        }
        if self.e.chance(30) {
            self.forced();
        }
        self.asked_action_bodies();
        self.out
    }

    /// The import, the variant with maybe a map, and the chips (the import's or the file's own).
    fn header(&mut self) {
        let catalog = self.catalog;
        let import = catalog.imports.get(self.e.below(catalog.imports.len()));
        let maps: Vec<&MapChoice> = catalog
            .maps
            .iter()
            .filter(|m| import.is_none_or(|i| m.suits(i)))
            .collect();
        let map = self.e.below(maps.len() + 1).checked_sub(1);
        let map = map.and_then(|i| maps.get(i).copied());
        if let Some(i) = import {
            self.out.push_str(&format!("import \"{}\"\n", i.name));
            self.imported = i.rules.clone();
        }
        self.out
            .push_str("variant \"generated\" {\n  title = \"Generated\"\n");
        if let Some(m) = map {
            let starts = 1 + self.e.below(m.board.starts.len().min(3));
            self.out.push_str(&format!(
                "  map = \"{}\"\n  start_squares = {starts}\n",
                m.name
            ));
            self.strings.extend(m.places.iter().take(4).cloned());
        }
        self.out.push_str("}\n");
        let colours: Vec<String> = match import {
            Some(i) if !i.colours.is_empty() => i.colours.clone(),
            _ => {
                self.out.push_str(OWN_CHIPS);
                OWN_COLOURS.iter().map(|c| c.to_string()).collect()
            }
        };
        if let Some(m) = map {
            self.attrs = m.attrs(&colours);
        }
        for c in colours {
            self.strings.push(c.clone());
            self.globals.push((c, Ty::of(Base::Colour)));
        }
    }

    /// Parameters of every kind, one shared holding (so a holding always exists) and one per player.
    fn declarations(&mut self) {
        for _ in 0..1 + self.e.below(3) {
            let n = self.name("n");
            let v = 1 + self.e.below(5);
            self.out
                .push_str(&format!("param {n}: int in 0..30 = {v}\n"));
            self.globals.push((n, Ty::INT));
        }
        if self.e.chance(50) {
            let n = self.name("b");
            let v = self.e.chance(50);
            self.out.push_str(&format!("param {n}: bool = {v}\n"));
            self.globals.push((n, Ty::BOOL));
        }
        if self.e.chance(50) {
            let n = self.name("t");
            self.out.push_str(&format!(
                "param {n}: table in 1..4 = {{1: 1, 2: 3, 3: 6, 4: 10}}\n"
            ));
            self.globals.push((n, Ty::of(Base::Table)));
        }
        if self.e.chance(40) {
            let n = self.name("s");
            self.out.push_str(&format!(
                "param {n}: string = \"x\" one of [\"x\", \"y\"]\n"
            ));
            self.globals.push((n, Ty::STR));
        }
        let h = self.name("h");
        self.out.push_str(&format!("holding {h}\n"));
        self.globals.push((h, Ty::of(Base::Holding)));
        let hp = self.name("hp");
        self.out.push_str(&format!("holding {hp} per player\n"));
        self.per_player_holding = hp;
    }

    fn asked_actions_declared(&mut self) {
        for _ in 0..self.e.below(3) {
            let name = self.name("q");
            let params = (0..self.e.below(3))
                .map(|_| Ty::of(self.e.pick(&ASKED_PARAM_TYPES)))
                .collect();
            self.asked.push((name, params));
        }
    }

    fn asked_action_bodies(&mut self) {
        for (name, params) in self.asked.clone() {
            self.scope = vec![("player".into(), Ty::of(Base::Player))];
            let ps: Vec<String> = params
                .iter()
                .map(|t| {
                    let p = self.name("p");
                    self.scope.push((p.clone(), *t));
                    format!("{p}: {t}")
                })
                .collect();
            self.out
                .push_str(&format!("action {name}({})", ps.join(", ")));
            self.when_and_choices();
            self.block(0);
            self.out.push('\n');
        }
    }

    /// House rules on the imported rules (C4): each of them removed, replaced or changed at most
    /// once, in a random order.
    fn house_rules(&mut self) {
        let mut names = self.imported.clone();
        for _ in 0..self.e.below(3).min(names.len()) {
            let (name, trigger) = names.remove(self.e.below(names.len()));
            self.scope = trigger
                .binds()
                .iter()
                .map(|(n, t)| (n.to_string(), Ty::from(*t)))
                .collect();
            match self.e.below(4) {
                0 => self.out.push_str(&format!("remove rule {name}\n")),
                1 => self.rule_definition(&format!("replace rule {name}"), trigger),
                2 => {
                    self.out.push_str(&format!("change rule {name} when "));
                    self.condition();
                    self.out.push('\n');
                }
                _ => {
                    self.out.push_str(&format!("change rule {name} "));
                    self.block(0);
                    self.out.push('\n');
                }
            }
        }
    }

    fn rule(&mut self) {
        let trigger = self.e.pick(&Trigger::ALL);
        let name = self.name("r");
        self.rule_definition(&format!("rule {name}"), trigger);
    }

    /// `HEAD on TRIGGER [when C] { … }`, with the trigger's bindings in scope.
    fn rule_definition(&mut self, head: &str, trigger: Trigger) {
        self.scope = trigger
            .binds()
            .iter()
            .map(|(n, t)| (n.to_string(), Ty::from(*t)))
            .collect();
        self.out.push_str(&format!("{head} on {}", trigger.name()));
        if self.e.chance(60) {
            self.out.push_str(" when ");
            self.condition();
        }
        self.out.push(' ');
        self.block(0);
        self.out.push('\n');
    }

    fn action(&mut self) {
        let name = self.name("a");
        self.scope = vec![("player".into(), Ty::of(Base::Player))];
        let (phase, _) = self.e.pick(&PHASES);
        self.out.push_str(&format!("action {name} phase {phase}"));
        for _ in 0..self.e.below(3) {
            self.limit();
        }
        self.when_and_choices();
        self.block(0);
        self.out.push('\n');
    }

    /// A forced action: its condition is never the constant `true` (the checker refuses that).
    fn forced(&mut self) {
        let name = self.name("f");
        self.scope = vec![("player".into(), Ty::of(Base::Player))];
        self.out.push_str(&format!("forced {name} when "));
        self.condition();
        self.choices();
        self.out.push(' ');
        self.block(0);
        self.out.push('\n');
    }

    /// A `when`: an operator, so rarely a constant (the checker refuses a constant `false`).
    fn condition(&mut self) {
        self.operator(Ty::BOOL, 3);
    }

    fn limit(&mut self) {
        let int_params: Vec<String> = self.globals_of(Ty::INT);
        let count = match self.e.below(3) {
            0 => (1 + self.e.below(3)).to_string(),
            1 if !int_params.is_empty() => self.e.pick_name(&int_params),
            _ if !int_params.is_empty() => {
                format!("({} + 1)", self.e.pick_name(&int_params))
            }
            _ => "2".into(),
        };
        let l = match self.e.below(5) {
            0 => format!(" limit per turn {count}"),
            1 => format!(" limit per round {count}"),
            2 => format!(" limit group g{} {count}", self.e.below(2)),
            3 => " limit no_follower".into(),
            _ => " limit not_extra".into(),
        };
        self.out.push_str(&l);
    }

    fn when_and_choices(&mut self) {
        if self.e.chance(50) {
            self.out.push_str(" when ");
            self.condition();
        }
        self.choices();
        self.out.push(' ');
    }

    fn choices(&mut self) {
        for _ in 0..self.e.below(3) {
            let c = self.name("c");
            self.out.push_str(&format!(" choose {c}: "));
            let bound = if self.e.chance(50) {
                self.out.push_str("chips from ");
                self.expr(Ty::list(Base::Chip), 2);
                if self.e.chance(70) {
                    let a = self.e.below(3);
                    let b = a + self.e.below(4);
                    self.out.push_str(&format!(" size {a}..{b}"));
                }
                Ty::list(Base::Chip)
            } else {
                let elem = self.e.pick(&LIST_ELEMS);
                self.expr(Ty::list(elem), 2);
                Ty::of(elem)
            };
            self.scope.push((c, bound));
            if self.e.chance(50) {
                self.out.push_str(" where ");
                self.expr(Ty::BOOL, 2);
            }
        }
    }

    // ------------------------------------------------------------------ statements

    fn block(&mut self, depth: u32) {
        let mark = self.scope.len();
        self.out.push_str("{\n");
        let n = if depth >= MAX_BLOCK_DEPTH {
            self.e.below(2)
        } else {
            self.e.below(4)
        };
        for _ in 0..n {
            self.stmt(depth);
        }
        self.out.push('}');
        self.scope.truncate(mark);
    }

    fn stmt(&mut self, depth: u32) {
        let nested = depth < MAX_BLOCK_DEPTH;
        match self.e.below(8) {
            0 if nested => {
                self.out.push_str("if ");
                self.expr(Ty::BOOL, 2);
                self.out.push(' ');
                self.block(depth + 1);
                if self.e.chance(40) {
                    self.out.push_str(" else ");
                    self.block(depth + 1);
                }
            }
            1 if nested => {
                let v = self.name("v");
                let elem = self.e.pick(&LIST_ELEMS);
                self.out.push_str(&format!("for {v} in "));
                self.expr(Ty::list(elem), 2);
                self.out.push(' ');
                self.scope.push((v, Ty::of(elem)));
                self.block(depth + 1);
                self.scope.pop();
            }
            2 => {
                let v = self.name("v");
                let ty = self.any_type();
                self.out.push_str(&format!("let {v} = "));
                self.expr(ty, 2);
                self.scope.push((v, ty));
            }
            3 if !self.asked.is_empty() => self.ask(),
            _ => self.effect(),
        }
        self.out.push('\n');
    }

    fn ask(&mut self) {
        let (name, params) = self.asked[self.e.below(self.asked.len())].clone();
        self.out.push_str("ask ");
        let who = match self.e.below(3) {
            0 => Ty::of(Base::Player),
            1 => Ty::of(Base::Players),
            _ => Ty::list(Base::Player),
        };
        self.expr(who, 2);
        self.out.push_str(&format!(" {name}("));
        self.args_of_types(&params);
        self.out.push(')');
    }

    fn effect(&mut self) {
        let effects: Vec<Builtin> = Builtin::all()
            .filter(|b| b.info().effect && !keeps_state(*b))
            .collect();
        let b = self.e.pick(&effects);
        self.call(b, None);
    }

    fn args_of_types(&mut self, tys: &[Ty]) {
        for (i, t) in tys.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(*t, 2);
        }
    }

    // ------------------------------------------------------------------ expressions

    /// Any type a `let` may hold.
    fn any_type(&mut self) -> Ty {
        let base = self.e.pick(&[
            Base::Int,
            Base::Bool,
            Base::Str,
            Base::Player,
            Base::Players,
            Base::Chip,
            Base::Square,
            Base::Follower,
            Base::Feature,
            Base::Tile,
            Base::Place,
            Base::Kind,
            Base::Colour,
            Base::Face,
        ]);
        if self.e.chance(30) {
            Ty::list(self.e.pick(&LIST_ELEMS))
        } else {
            Ty::of(base)
        }
    }

    fn globals_of(&self, ty: Ty) -> Vec<String> {
        self.globals
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// An expression of type `ty`, at most `depth` levels deep.
    fn expr(&mut self, ty: Ty, depth: u32) {
        let depth = depth.min(MAX_DEPTH);
        if depth == 0 || self.e.exhausted() {
            return self.leaf(ty);
        }
        match self.e.below(6) {
            0 => self.leaf(ty),
            1 => self.name_of(ty, depth),
            2 => self.field_of(ty, depth),
            3 => self.query_of(ty, depth),
            _ => self.operator(ty, depth),
        }
    }

    /// A variable, parameter, holding or colour of the type (else a leaf).
    fn name_of(&mut self, ty: Ty, depth: u32) {
        let names: Vec<String> = self
            .scope
            .iter()
            .chain(self.globals.iter())
            .filter(|(_, t)| ty.accepts(*t))
            .map(|(n, _)| n.clone())
            .collect();
        if names.is_empty() {
            return self.query_of(ty, depth);
        }
        let n = self.e.pick_name(&names);
        self.out.push_str(&n);
    }

    /// A field (or a map attribute of a square) of the type.
    fn field_of(&mut self, ty: Ty, depth: u32) {
        let fields: Vec<(Base, String)> = FIELDS
            .iter()
            .filter(|(o, .., t, _)| ty.accepts(*t) && self.reachable(*o))
            .map(|(o, n, ..)| (*o, n.to_string()))
            .collect();
        let attrs: Vec<String> = self
            .attrs
            .iter()
            .filter(|(_, t)| ty == *t)
            .map(|(n, _)| n.clone())
            .collect();
        let total = fields.len() + attrs.len();
        if total == 0 {
            return self.query_of(ty, depth);
        }
        let i = self.e.below(total);
        let (owner, name) = if i < fields.len() {
            fields[i].clone()
        } else {
            (Base::Square, attrs[i - fields.len()].clone())
        };
        self.out.push('(');
        self.expr(Ty::of(owner), depth - 1);
        self.out.push_str(&format!(").{name}"));
    }

    /// Whether a field of this owner is worth generating: a feature only when one is in scope (no
    /// query gives one that always exists, so most would stop the game with an error).
    fn reachable(&self, owner: Base) -> bool {
        owner != Base::Feature || self.scope.iter().any(|(_, t)| *t == Ty::of(Base::Feature))
    }

    /// A query builtin whose result has the type.
    fn query_of(&mut self, ty: Ty, depth: u32) {
        let queries: Vec<Builtin> = Builtin::all()
            .filter(|b| {
                let i = b.info();
                let attribute = i.params.iter().any(|(n, _)| *n == "attribute");
                let needs_map = attribute && self.attrs.is_empty();
                !i.effect
                    && !keeps_state(*b)
                    && !needs_map
                    && match i.ret {
                        RTy::T(t) => t != Ty::UNIT && ty.accepts(t) && ty.list == t.list,
                        RTy::ElemOfFirst => !ty.list && LIST_ELEMS.contains(&ty.base),
                        RTy::First => ty.list,
                    }
            })
            .collect();
        if queries.is_empty() {
            return self.leaf(ty);
        }
        let b = self.e.pick(&queries);
        self.call(b, Some((ty, depth)));
    }

    /// A call of a builtin; for a query, `want` is the result type and the depth.
    fn call(&mut self, b: Builtin, want: Option<(Ty, u32)>) {
        let info = b.info();
        let depth = want.map_or(2, |(_, d)| d.saturating_sub(1));
        self.out.push_str(info.name);
        self.out.push('(');
        let mut first = Ty::ANY;
        let mut attr = None;
        for (i, (pname, pty)) in info.params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match pty {
                PTy::T(t) if *pname == "attribute" && *t == Ty::STR => {
                    let a = self.attribute();
                    self.out.push_str(&format!("\"{}\"", a.0));
                    attr = Some(a.1);
                }
                // A per-player holding is named by its own name (no value holds it).
                PTy::T(t)
                    if info.holding == Some(Holding::PerPlayer) && *t == Ty::of(Base::Holding) =>
                {
                    let hp = self.per_player_holding.clone();
                    self.out.push_str(&hp);
                }
                PTy::T(t) if t.is_any() => self.expr(attr.unwrap_or(Ty::INT), depth),
                PTy::T(t) => self.expr(*t, depth),
                PTy::AnyList => {
                    first = match (want, info.ret) {
                        (Some((t, _)), RTy::ElemOfFirst) => Ty::list(t.base),
                        (Some((t, _)), RTy::First) => t,
                        _ => Ty::list(self.e.pick(&LIST_ELEMS)),
                    };
                    self.expr(first, depth);
                }
                PTy::ChipOrChips => {
                    if self.e.chance(50) {
                        self.expr(Ty::of(Base::Chip), depth);
                    } else {
                        self.expr(Ty::list(Base::Chip), depth);
                    }
                }
                PTy::ElemOfFirst => self.expr(Ty::of(first.base), depth),
                // Never picked: the generated files declare no state (`keeps_state`).
                PTy::State(_) | PTy::OfState => self.out.push('0'),
            }
        }
        self.out.push(')');
    }

    /// A map attribute's name and type (a made-up one when the map has none).
    fn attribute(&mut self) -> (String, Ty) {
        if self.attrs.is_empty() {
            ("made_up".into(), Ty::STR)
        } else {
            self.attrs[self.e.below(self.attrs.len())].clone()
        }
    }

    /// Operators, aggregates, comprehensions and literals of compound types.
    fn operator(&mut self, ty: Ty, depth: u32) {
        let d = depth - 1;
        if ty.list {
            return self.list_operator(ty, d);
        }
        match ty.base {
            Base::Int => match self.e.below(6) {
                0 => self.binary(Ty::INT, &["+", "-", "*", "/", "%"], Ty::INT, d),
                1 => {
                    self.out.push_str("-(");
                    self.expr(Ty::INT, d);
                    self.out.push(')');
                }
                2 if !self.globals_of(Ty::of(Base::Table)).is_empty() => {
                    let tables = self.globals_of(Ty::of(Base::Table));
                    let t = self.e.pick_name(&tables);
                    self.out.push_str(&format!("{t}["));
                    self.expr(Ty::INT, d);
                    self.out.push(']');
                }
                3 => {
                    self.out.push('(');
                    self.expr(Ty::list(Base::Int), d);
                    self.out.push_str(")[");
                    self.expr(Ty::INT, d);
                    self.out.push(']');
                }
                _ => {
                    let op = self.e.pick(&["count", "sum", "min", "max", "distinct"]);
                    self.aggregate(op, Ty::INT, d);
                }
            },
            Base::Bool => match self.e.below(6) {
                0 => self.binary(Ty::BOOL, &["and", "or"], Ty::BOOL, d),
                1 => {
                    self.out.push_str("not (");
                    self.expr(Ty::BOOL, d);
                    self.out.push(')');
                }
                2 => self.binary(Ty::INT, &["<", "<=", ">", ">="], Ty::BOOL, d),
                3 => {
                    let t = Ty::of(self.e.pick(&COMPARABLE));
                    self.binary(t, &["==", "!="], Ty::BOOL, d);
                }
                _ => {
                    let op = self.e.pick(&["any", "all"]);
                    self.aggregate(op, Ty::BOOL, d);
                }
            },
            Base::Range => {
                self.out.push('(');
                self.expr(Ty::INT, d);
                self.out.push_str("..");
                self.expr(Ty::INT, d);
                self.out.push(')');
            }
            Base::Table => self.out.push_str("{1: 2, 3: 4}"),
            _ => self.leaf(ty),
        }
    }

    fn binary(&mut self, operand: Ty, ops: &[&str], _result: Ty, d: u32) {
        let op = self.e.pick(ops);
        self.out.push_str("((");
        self.expr(operand, d);
        self.out.push_str(&format!(") {op} ("));
        self.expr(operand, d);
        self.out.push_str("))");
    }

    /// `op(x in L where b : e)`, with `result` the type of its values (int or bool).
    fn aggregate(&mut self, op: &str, result: Ty, d: u32) {
        let elem = self.e.pick(&LIST_ELEMS);
        let v = self.name("x");
        self.out.push_str(&format!("{op}({v} in "));
        self.expr(Ty::list(elem), d);
        self.scope.push((v, Ty::of(elem)));
        if self.e.chance(50) {
            self.out.push_str(" where ");
            self.expr(Ty::BOOL, d);
        }
        let needs_map = match op {
            "sum" | "min" | "max" => elem != Base::Int,
            _ => false,
        };
        if op != "count" && (needs_map || self.e.chance(50)) {
            self.out.push_str(": ");
            let t = if op == "distinct" { Ty::INT } else { result };
            self.expr(t, d);
        }
        self.scope.pop();
        self.out.push(')');
    }

    fn list_operator(&mut self, ty: Ty, d: u32) {
        let elem = Ty::of(ty.base);
        match self.e.below(4) {
            0 => {
                self.out.push('[');
                for i in 0..self.e.below(4) {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(elem, d);
                }
                self.out.push(']');
            }
            1 => {
                // A comprehension over any list, mapping to this element type.
                let from = self.e.pick(&LIST_ELEMS);
                let v = self.name("x");
                self.out.push_str(&format!("[{v} in "));
                self.expr(Ty::list(from), d);
                self.scope.push((v, Ty::of(from)));
                if self.e.chance(50) {
                    self.out.push_str(" where ");
                    self.expr(Ty::BOOL, d);
                }
                self.out.push_str(": ");
                self.expr(elem, d);
                self.scope.pop();
                self.out.push(']');
            }
            2 => {
                let v = self.name("x");
                self.out.push_str(&format!("sort({v} in "));
                self.expr(ty, d);
                self.scope.push((v, elem));
                if self.e.chance(30) {
                    self.out.push_str(" where ");
                    self.expr(Ty::BOOL, d);
                }
                self.out.push_str(": ");
                self.expr(Ty::INT, d);
                self.scope.pop();
                self.out.push(')');
            }
            _ => {
                self.out.push_str("take(");
                self.expr(ty, d);
                self.out.push_str(", ");
                self.expr(Ty::INT, d);
                self.out.push(')');
            }
        }
    }

    /// A shortest expression of the type: the first alternative once the bytes run out.
    fn leaf(&mut self, ty: Ty) {
        if let Some((n, _)) = self.scope.iter().rev().find(|(_, t)| *t == ty) {
            let n = n.clone();
            return self.out.push_str(&n);
        }
        if ty.list {
            let s = match ty.base {
                Base::Chip => "chips(supply)",
                Base::Square => "squares()",
                Base::Player => "players()",
                Base::Follower => "reserve(current_player())",
                Base::Colour => "colours()",
                Base::Stack => "stacks()",
                Base::Int => "[1, 2, 3]",
                Base::Kind => "[road, city]",
                Base::Str => "[\"a\", \"b\"]",
                _ => {
                    self.out.push('[');
                    self.leaf(Ty::of(ty.base));
                    self.out.push(']');
                    return;
                }
            };
            return self.out.push_str(s);
        }
        let s = match ty.base {
            Base::Int => {
                let v = self.e.pick(&[0, 1, 2, 3, 5, 10]);
                return self.out.push_str(&v.to_string());
            }
            Base::Bool => {
                let v = self.e.pick(&["true", "false"]);
                return self.out.push_str(v);
            }
            Base::Str => {
                let v = self.e.pick_name(&self.strings);
                return self.out.push_str(&format!("\"{v}\""));
            }
            Base::Player | Base::Players | Base::Any | Base::State => "current_player()",
            Base::Chip => "first(chips(supply))",
            Base::Square => "first(squares())",
            Base::Follower => "first(reserve(current_player()))",
            Base::Feature => "first(reserve(current_player())).feature",
            Base::Tile => "turn_tile()",
            Base::Kind => "road",
            Base::Colour => "first(colours())",
            Base::Place => "supply",
            Base::Face => "up",
            Base::Stack => "first(stacks())",
            Base::Range => "1..3",
            Base::Table => "{1: 2}",
            Base::Holding => {
                let h = self.globals_of(Ty::of(Base::Holding));
                let h = self.e.pick_name(&h);
                return self.out.push_str(&h);
            }
            Base::Unit => "",
        };
        self.out.push_str(s);
    }
}

impl Entropy<'_> {
    fn pick_name(&mut self, names: &[String]) -> String {
        names[self.below(names.len())].clone()
    }
}

/// Whether a builtin reads or writes a state the rules keep (`state NAME …`), which the generated
/// files do not declare: such builtins are never picked.
fn keeps_state(b: Builtin) -> bool {
    !b.written()
        || b.info()
            .params
            .iter()
            .any(|(_, t)| matches!(t, PTy::State(_) | PTy::OfState))
}
