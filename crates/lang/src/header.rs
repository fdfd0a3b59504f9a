//! What a variant's header values mean, and which are allowed: the player range, followers per
//! player, start squares (against the map's), tile set names. One function decides, used by the
//! checker (with the defaults, reported at the header entry) and by loading (after `--set`), so
//! `carto check` refuses exactly what play would, and nothing is clamped silently.

use crate::builtins::HeaderKey;
use crate::ir::{Expr, Program, Value};

/// Most players in a game.
pub(crate) const MAX_PLAYERS: i64 = 6;
/// Most followers a player may have.
pub(crate) const MAX_FOLLOWERS: i64 = 64;

/// The header's values, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderValues {
    pub players: (usize, usize),
    pub(crate) followers: u16,
    pub(crate) start_squares: usize,
    pub(crate) border_fills_monastery: bool,
    /// Tile set names (`base` when none is given).
    pub tiles: Vec<String>,
}

/// A problem with one header entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderProblem {
    pub(crate) key: HeaderKey,
    pub message: String,
    pub note: Option<String>,
}

/// The value of a header entry, if it is a constant (parameters read at their current values).
pub(crate) fn header_value(prog: &Program, key: HeaderKey) -> Option<Value> {
    let e = prog.header.entries.iter().find(|e| e.key == key)?;
    const_eval(prog, &e.value)
}

fn const_eval(prog: &Program, e: &Expr) -> Option<Value> {
    match e {
        Expr::Const(v) => Some(*v),
        Expr::Param(p) => prog.params.get(*p as usize).map(|p| p.value),
        Expr::Range(a, b, _) => match (const_eval(prog, a)?, const_eval(prog, b)?) {
            (Value::Int(a), Value::Int(b)) => Some(Value::Range(a, b)),
            _ => None,
        },
        Expr::Neg(x, _) => match const_eval(prog, x)? {
            Value::Int(i) => Some(Value::Int(i.checked_neg()?)),
            _ => None,
        },
        // Arithmetic of numbers and parameters (`followers = followers + big_followers`).
        Expr::Binary(..) => prog.limit_count(e).map(Value::Int),
        _ => None,
    }
}

/// The strings of a header entry holding a list of strings (or one string).
pub fn header_strings(prog: &Program, key: HeaderKey) -> Vec<String> {
    let Some(e) = prog.header.entries.iter().find(|e| e.key == key) else {
        return Vec::new();
    };
    let items: Vec<&Expr> = match &e.value {
        Expr::List(items) => items.iter().collect(),
        other => vec![other],
    };
    items
        .into_iter()
        .filter_map(|x| match const_eval(prog, x) {
            Some(Value::Str(s)) => prog.strings.get(s as usize).cloned(),
            _ => None,
        })
        .collect()
}

/// Checks the header's values; `map_starts` is the number of start squares of the variant's map
/// (`None` on the endless table or when the map is unknown).
pub fn header_values(
    prog: &Program,
    map_starts: Option<usize>,
) -> Result<HeaderValues, Vec<HeaderProblem>> {
    let mut problems = Problems(Vec::new());
    let values = HeaderValues {
        players: players_of(prog, &mut problems),
        followers: followers_of(prog, &mut problems),
        start_squares: start_squares_of(prog, map_starts, &mut problems),
        border_fills_monastery: !matches!(
            header_value(prog, HeaderKey::MonasteryBorder),
            Some(Value::Bool(false))
        ),
        tiles: tiles_of(prog, &mut problems),
    };
    for title in header_strings(prog, HeaderKey::Title) {
        if let Some(c) = crate::paths::control_char(&title) {
            problems.add(
                HeaderKey::Title,
                format!(
                    "the title holds {}: a title is shown on one line",
                    crate::paths::shown_char(c)
                ),
                None,
            );
        }
    }
    if problems.0.is_empty() {
        Ok(values)
    } else {
        Err(problems.0)
    }
}

/// The problems found in a header, in order.
struct Problems(Vec<HeaderProblem>);

impl Problems {
    fn add(&mut self, key: HeaderKey, message: String, note: Option<&str>) {
        self.0.push(HeaderProblem {
            key,
            message,
            note: note.map(String::from),
        });
    }
}

/// `players = A..B`: the fewest and most players (default 2 to 6).
fn players_of(prog: &Program, problems: &mut Problems) -> (usize, usize) {
    let Some(Value::Range(a, b)) = header_value(prog, HeaderKey::Players) else {
        return (2, MAX_PLAYERS as usize);
    };
    if a > b {
        problems.add(
            HeaderKey::Players,
            format!(
                "`players = {a}..{b}` is an empty range: the first number is the fewest players"
            ),
            Some("write the fewest, then the most, such as `players = 2..5`"),
        );
    } else if a < 1 || b > MAX_PLAYERS {
        problems.add(
            HeaderKey::Players,
            format!("`players = {a}..{b}`: a game has 1 to {MAX_PLAYERS} players"),
            None,
        );
    }
    // Out of range is an error above; the numbers kept only let the other checks go on.
    (
        a.clamp(1, MAX_PLAYERS) as usize,
        b.clamp(1, MAX_PLAYERS) as usize,
    )
}

/// `followers = N`: each player's followers (default 7).
fn followers_of(prog: &Program, problems: &mut Problems) -> u16 {
    match header_value(prog, HeaderKey::Followers) {
        Some(Value::Int(n)) if !(0..=MAX_FOLLOWERS).contains(&n) => {
            problems.add(
                HeaderKey::Followers,
                format!("`followers` is {n}: a player has 0 to {MAX_FOLLOWERS} followers"),
                None,
            );
            0
        }
        Some(Value::Int(n)) => n as u16,
        _ => 7,
    }
}

/// `start_squares = N`: at least 1, at most the map's start squares (default 1).
fn start_squares_of(prog: &Program, map_starts: Option<usize>, problems: &mut Problems) -> usize {
    match header_value(prog, HeaderKey::StartSquares) {
        Some(Value::Int(n)) if n < 1 => {
            problems.add(
                HeaderKey::StartSquares,
                format!("`start_squares` is {n}: a game needs at least 1 start square"),
                None,
            );
            1
        }
        Some(Value::Int(n)) => match map_starts {
            Some(m) if n as u64 > m as u64 => {
                let s = if m == 1 { "" } else { "s" };
                problems.add(
                    HeaderKey::StartSquares,
                    format!("`start_squares` is {n}, but the map has {m} start square{s}"),
                    None,
                );
                m.max(1)
            }
            _ => n.min(MAX_FOLLOWERS) as usize,
        },
        _ => 1,
    }
}

/// `tiles = [...]`: bundled tile set names or paths (default: the base set); an empty list and an
/// unknown bundled name are problems.
fn tiles_of(prog: &Program, problems: &mut Problems) -> Vec<String> {
    let mut tiles = header_strings(prog, HeaderKey::Tiles);
    let given = prog
        .header
        .entries
        .iter()
        .any(|e| e.key == HeaderKey::Tiles);
    if tiles.is_empty() && given {
        problems.add(
            HeaderKey::Tiles,
            "`tiles` names no tile set".into(),
            Some("name one or more, such as `tiles = [\"base\"]`, or leave `tiles` out for the base set"),
        );
    }
    if tiles.is_empty() {
        tiles.push("base".into());
    }
    for t in &tiles {
        if crate::tiles::bundled_tile_set(t).is_none() && !looks_like_path(t) {
            let names: Vec<&str> = crate::tiles::bundled_tile_sets().collect();
            let hint = crate::diag::did_you_mean(t, names.iter().copied())
                .map(|s| format!("did you mean `{s}`? "))
                .unwrap_or_default();
            problems.add(
                HeaderKey::Tiles,
                format!("no bundled tile set `{t}`"),
                Some(&format!(
                    "{hint}bundled tile sets: {}; or give the path of a tile set file (ending in .toml)",
                    names.join(", ")
                )),
            );
        }
    }
    tiles
}

/// Whether a tile set name is a path (read from disk) rather than a bundled name.
pub fn looks_like_path(name: &str) -> bool {
    name.contains('/') || name.ends_with(".toml")
}

/// The file whose header gives `key` as it is in force (its name as read: a path, or
/// `rules/NAME.rules` for a bundled file), which may be a file the rules file imports.
pub fn naming_file(prog: &Program, key: HeaderKey) -> Option<&str> {
    let e = prog.header.entries.iter().find(|e| e.key == key)?;
    prog.files.get(e.origin.file as usize).map(String::as_str)
}

/// Where a map or tile set that a header names by path is: beside the file `from` whose header
/// names it (in its folder or below), whichever file imports that one. The checker and the loader
/// both resolve a header's paths through this one function (with [`naming_file`]).
pub fn header_path(from: &str, name: &str) -> Result<std::path::PathBuf, String> {
    crate::paths::beside(from, name, ".toml")
}
/// What a game of a checked program needs beyond the program: its name, how its rules were named, the
/// compiled tile sets (types, counts, start tile), the map and the files it was read from.
pub struct Loaded {
    pub name: String,
    pub rules: String,
    pub tiles: Vec<crate::compiled::CompiledTile>,
    pub counts: Vec<u32>,
    pub start_tile: u16,
    pub map: Option<std::sync::Arc<crate::map::MapBoard>>,
    pub sources: Vec<crate::game::SourceFile>,
}

/// The game's configuration for `prog` with the header's `values` and the `loaded` data: the one place
/// a program becomes a [`crate::game::Config`] (the application's loader and the interpreter's unit
/// tests both come here).
pub fn game_config(prog: &Program, values: &HeaderValues, loaded: Loaded) -> crate::game::Config {
    crate::game::Config {
        variant: loaded.name,
        rules: loaded.rules,
        tiles: std::sync::Arc::new(loaded.tiles),
        counts: loaded.counts,
        start_tile: loaded.start_tile,
        start_rot: 0,
        start_named: false,
        map: loaded.map,
        followers: values.followers,
        start_squares: values.start_squares,
        start_names: Vec::new(),
        border_fills_monastery: values.border_fills_monastery,
        colours: prog.colours.clone(),
        chip_set: prog
            .chips
            .iter()
            .map(|c| (c.colour, c.value.clamp(0, 255) as u8))
            .collect(),
        holdings: prog.holdings.clone(),
        holding_titles: prog
            .holdings
            .iter()
            .zip(&prog.holding_titles)
            .map(|(name, title)| title.clone().unwrap_or_else(|| name.clone()))
            .collect(),
        holdings_per_player: prog.holdings_per_player.clone(),
        fixed_stack: None,
        sources: loaded.sources,
        laid_chips: Vec::new(),
        counters: std::sync::Arc::new(
            prog.states
                .iter()
                .map(|s| crate::counters::CounterDef {
                    name: s.name.clone(),
                    per_player: s.per_player,
                    flag: s.ty == crate::builtins::Ty::BOOL,
                    start: s.start,
                    reset: s.reset,
                })
                .collect(),
        ),
    }
}
