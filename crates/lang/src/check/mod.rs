//! The static checker: resolves every name, type, field, builtin, header key, import and map attribute of a
//! rules file (and what it imports), reports every problem with a span, and lowers the file to the IR.
//!
//! This room holds the entry point ([`check_source`]), the checker's state and the order of its passes;
//! each pass lives in its own file: `imports` (loading), `names` (global names, chips, holdings),
//! `params`, `header`, `map` (what the map tells), `house` (the rules and actions in force after
//! `remove`, `replace` and `change`), `items` (setup, rules, actions), `limits`, `stmts`,
//! `exprs` and `calls`. Constant folding is shared with the IR in [`super::consts`].

mod asks;
mod calls;
mod conflicts;
mod exprs;
mod header;
pub mod house;
mod imports;
pub use imports::parse_once;
mod items;
mod limits;
mod map;
pub use map::attribute_types;
mod names;
mod order;
mod params;
mod ranges;
mod states;
mod stmts;
mod tiles;

use super::ast;
use super::builtins::{Base, Ty};
use super::ir::{Face, Place, Program, Slot};
use crate::diag::{did_you_mean, Diagnostic, Source};
use crate::geometry::FeatureKind;
use crate::map::MapBoard;
use crate::tiles::TileSet;
use std::collections::BTreeMap;

/// Finds an imported rules file: a bundled name or a path relative to the importing file.
pub trait RulesResolver {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String>;
    /// The text of a tile set named by path in a header (relative to `from`), for checking it; `None`
    /// when this resolver does not read files (then only bundled tile set names are checked).
    fn tile_set(&self, _path: &str, _from: &Source) -> Option<Result<Source, String>> {
        None
    }
}

/// The rules files shipped with carto, by name.
pub const BUNDLED_RULES: &[(&str, &str)] = crate::bundled::RULES;

/// Resolves bundled names (`"base"`) from [`BUNDLED_RULES`]; anything with a `/` or ending in `.rules` is
/// read as a path relative to the importing file.
pub struct BundledRules;

impl RulesResolver for BundledRules {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        if name == "." || name == ".." {
            return Err(format!(
                "`{name}` is a folder, not a rules file: import a bundled rules file by its name \
                 (`base`) or a rules file by its path (`lib/house.rules`)"
            ));
        }
        if name.contains('/') || name.ends_with(".rules") {
            let path = crate::paths::beside(&from.name, name, ".rules")?;
            return crate::files::read_text(&path)
                .map(|text| Source::new(path.display().to_string(), text));
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

    fn tile_set(&self, path: &str, from: &Source) -> Option<Result<Source, String>> {
        let p = match crate::header::header_path(&from.name, path) {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        };
        Some(crate::files::read_text(&p).map(|text| Source::new(p.display().to_string(), text)))
    }
}

/// The outcome of checking: the program when there was no error, and every diagnostic with its file;
/// and what the checker read on the way, so that loading a variant reads each file once (the
/// rules file is parsed once, the header's map and tile sets are read and parsed once).
#[derive(Default)]
pub struct CheckResult {
    pub program: Option<Program>,
    pub diagnostics: Vec<(Source, Diagnostic)>,
    /// Whether the file checked declares a variant of its own (a `variant` header in it, not only
    /// in what it imports).
    pub declares_variant: bool,
    /// The header's map as the map loader returned it, with the name of the file that named it
    /// (paths in the header are relative to that file); `None` on the endless table, without a
    /// `map` key, or when the map could not be loaded.
    pub map: Option<(String, MapBoard)>,
    /// The tile sets the header names by path that were read and parsed without a problem.
    pub tile_sets: Vec<(Source, TileSet)>,
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
pub(crate) type MapLoader<'a> = &'a dyn Fn(&str, &Source) -> Result<MapBoard, String>;

/// Checks a rules file and everything it imports; lowers it when there is no error.
pub fn check_source(
    source: &Source,
    resolver: &dyn RulesResolver,
    maps: MapLoader<'_>,
) -> CheckResult {
    let mut c = Checker::default();
    let mut stack = Vec::new();
    c.load(source.clone(), resolver, &mut stack);
    c.run(maps, resolver);
    let order = c.order.clone();
    let mut diags = std::mem::take(&mut c.diags);
    diags.sort_by_key(|(f, d)| {
        (
            order.iter().position(|x| x == f).unwrap_or(usize::MAX),
            d.span.start,
        )
    });
    let has_error = diags.iter().any(|(_, d)| d.is_error());
    // The file checked is the first loaded.
    let declares_variant = c.asts.first().is_some_and(|f| {
        f.items
            .iter()
            .any(|i| matches!(i.kind, ast::ItemKind::Variant { .. }))
    });
    let files = c.files;
    CheckResult {
        program: if has_error { None } else { Some(c.prog) },
        diagnostics: diags
            .into_iter()
            .filter_map(|(f, d)| files.get(f).map(|s| (s.clone(), d)))
            .collect(),
        declares_variant,
        map: c.board,
        tile_sets: c.tile_sets,
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
    /// A value the rules keep (`state NAME …`): index into `Program::states`.
    State(u16),
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
            Global::State(i) => prog.states.get(i as usize).map_or(Ty::ANY, |s| s.ty),
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
            Global::State(_) => "a state the rules keep",
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
        /// For each attribute whose values are all strings, those naming no chip colour (a colour
        /// compared with the attribute says which keep it from being a colour).
        not_colours: BTreeMap<String, Vec<String>>,
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
    /// Every action by name: its index and, when it is asked, its parameters (see `asks`).
    asked: BTreeMap<String, asks::AskSig>,
    /// The rules and actions in force after every house rule (see `house`).
    house: house::House,
    /// Int parameters' ranges, resolved once every parameter is declared (see `ranges`): the
    /// parameter, the range as written, its file and its default's span.
    int_ranges: Vec<(u16, ast::Expr, usize, ast::Span)>,
    /// Parameters set by an `override`: its file, the name and the value's span.
    overridden: BTreeMap<u16, (usize, String, ast::Span)>,
    /// The header's map as loaded, with the name of the file that named it (see [`CheckResult`]).
    board: Option<(String, MapBoard)>,
    /// The tile sets the header names by path, read and parsed (see [`CheckResult`]).
    tile_sets: Vec<(Source, TileSet)>,
    /// Each file's imports: the file imported and the `import` item's span (see `conflicts`).
    imports: Vec<Vec<(usize, ast::Span)>>,
    /// What the tile sets tell the rules (their attributes), `None` when some set could not be read.
    tiles_known: Option<tiles::TileKnowledge>,
}

impl Checker {
    /// Reports a problem in the file being checked.
    fn err(&mut self, d: Diagnostic) {
        self.diags.push((self.file, d));
    }

    /// Checks the loaded files in passes: each pass sees the names the earlier ones declared.
    fn run(&mut self, maps: MapLoader<'_>, resolver: &dyn RulesResolver) {
        let order = self.order.clone();
        let asts = std::mem::take(&mut self.asts);
        // Indexed like `Origin::file`: in the order the files were loaded.
        self.prog.files = self.files.iter().map(|s| s.name.clone()).collect();
        self.declare_fixed_names();
        self.declare_chips_and_holdings(&order, &asts);
        self.declare_params(&order, &asts);
        self.resolve_int_ranges();
        self.apply_overrides(&order, &asts);
        self.check_param_ranges();
        self.declare_states(&order, &asts);
        let header = self.merge_headers(&order, &asts);
        self.load_map(&header, maps);
        self.lower_header_values(&header);
        self.check_header_values();
        self.check_tile_files(resolver);
        self.learn_tile_sets();
        self.compose_house_rules(&order, &asts);
        self.declare_actions();
        self.lower_bodies(&order, &asts);
        self.warn_unused_params();
        self.warn_params_left_unread(&asts);
        self.warn_rules_run_before();
        self.asts = asts;
    }
}
