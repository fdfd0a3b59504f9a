//! Map boards: squares, their kinds and marks, and free-form attributes, loaded from TOML
//! (format in `maps/README.md`).

use crate::diag::{did_you_mean, Code, Diagnostic, Source};
use crate::geometry::{EdgeKind, SIDE_DELTA, SIDE_NAMES};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::ops::Range;
use toml::Spanned;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SquareKind {
    Land,
    Sea,
    Wave,
    OffMap,
    LargeCity,
    Island,
}

impl SquareKind {
    /// Whether a tile may ever lie here (island squares only once reached by ferry).
    pub fn takes_tile(self) -> bool {
        matches!(self, SquareKind::Land | SquareKind::Island)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AttrValue {
    Int(i64),
    Bool(bool),
    Str(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Square {
    pub kind: SquareKind,
    pub town: bool,
    /// Name of the town, start square, large city or island this square belongs to, if named.
    pub name: Option<String>,
    /// Index into `MapBoard::starts` when this is a start square.
    pub start: Option<u16>,
    /// Index into `MapBoard::large_cities` for large-city squares.
    pub large_city: Option<u16>,
    /// Index into `MapBoard::islands` for island squares.
    pub island: Option<u16>,
    pub attrs: BTreeMap<String, AttrValue>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartSquare {
    pub name: String,
    pub at: (i32, i32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ferry {
    pub from: (i32, i32),
    pub to: (i32, i32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    pub at: (i32, i32),
    /// Side index (N=0, E=1, S=2, W=3).
    pub side: u8,
    pub feature: EdgeKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub name: String,
    pub squares: Vec<(i32, i32)>,
    pub attrs: BTreeMap<String, AttrValue>,
}

/// A map board, every square known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapBoard {
    pub name: String,
    pub doc: String,
    pub width: i32,
    pub height: i32,
    /// Row-major, `width * height` squares.
    pub squares: Vec<Square>,
    pub starts: Vec<StartSquare>,
    pub ferries: Vec<Ferry>,
    pub exits: Vec<Exit>,
    /// Names (possibly empty) and squares of each large city.
    pub large_cities: Vec<Group>,
    /// Names (possibly empty), squares and attributes of each island.
    pub islands: Vec<Group>,
    pub groups: Vec<Group>,
    /// The square attribute that prints a chip colour under the chips lying on its squares (Great
    /// Britain's `spot`): a face-down chip on such a square shows that colour to every player, never
    /// its value (see `sight`). `None`: a face-down chip shows nothing.
    pub face_down_colour: Option<String>,
}

impl MapBoard {
    pub fn square(&self, x: i32, y: i32) -> Option<&Square> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        self.squares.get(self.index(x, y)?)
    }

    /// Row-major index of square `(x, y)` in `squares`, if it is on the board.
    pub fn index(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        usize::try_from(i64::from(y) * i64::from(self.width) + i64::from(x)).ok()
    }

    /// Every attribute any square has, with its type: `"int"`, `"bool"` or `"string"`.
    pub fn attr_names(&self) -> BTreeMap<String, &'static str> {
        let mut out = BTreeMap::new();
        for sq in &self.squares {
            for (name, value) in &sq.attrs {
                out.entry(name.clone()).or_insert(value.type_name());
            }
        }
        out
    }
}

impl AttrValue {
    /// `"int"`, `"bool"` or `"string"`.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            AttrValue::Int(_) => "int",
            AttrValue::Bool(_) => "bool",
            AttrValue::Str(_) => "string",
        }
    }
}

impl SquareKind {
    /// The kinds by their names in a map's legend.
    pub(crate) const NAMES: [(&'static str, SquareKind); 6] = [
        ("land", SquareKind::Land),
        ("sea", SquareKind::Sea),
        ("wave", SquareKind::Wave),
        ("offmap", SquareKind::OffMap),
        ("large_city", SquareKind::LargeCity),
        ("island", SquareKind::Island),
    ];

    pub(crate) fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, k)| *k == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }

    pub(crate) fn from_name(name: &str) -> Option<SquareKind> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
    }
}

impl Square {
    /// A square of `kind` with no marks.
    pub(crate) fn plain(kind: SquareKind) -> Square {
        Square {
            kind,
            town: false,
            name: None,
            start: None,
            large_city: None,
            island: None,
            attrs: BTreeMap::new(),
        }
    }
}

/// Finds another map for a `[[part]]` entry: a bundled name or a path relative to the including file.
pub trait MapResolver {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String>;
}

/// Names of the maps built into the program.
/// Names of the bundled maps (every `maps/*.toml`).
pub fn bundled_maps() -> impl Iterator<Item = &'static str> {
    crate::bundled::MAPS.iter().map(|(n, _)| *n)
}

/// The text of a bundled map.
pub fn bundled_map(name: &str) -> Option<&'static str> {
    crate::bundled::MAPS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}

/// Resolves a part's `map` as a bundled map name, or else as a path relative to the directory of the
/// including file (`Source::name`), read from disk.
pub struct BundledResolver;

impl MapResolver for BundledResolver {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        if let Some(text) = bundled_map(name) {
            return Ok(Source::new(name, text));
        }
        // A bare name (not a path to a `.toml` file) is a misspelt bundled name.
        if !name.contains('/') && !name.ends_with(".toml") {
            return Err(unknown_map(name));
        }
        let path = crate::paths::beside(&from.name, name, ".toml")?;
        match crate::files::read_text(&path) {
            Ok(text) => Ok(Source::new(path.to_string_lossy(), text)),
            Err(e) => {
                let bundled = bundled_maps().collect::<Vec<_>>().join(", ");
                Err(format!("`{name}` is not a bundled map ({bundled}): {e}"))
            }
        }
    }
}

/// A map name that is neither bundled nor a path: the nearest bundled name and the list.
pub fn unknown_map(name: &str) -> String {
    let names: Vec<&str> = bundled_maps().collect();
    let hint = did_you_mean(name, names.iter().copied())
        .map(|s| format!("did you mean `{s}`? "))
        .unwrap_or_default();
    format!(
        "no bundled map `{name}`: {hint}bundled maps: {}; or give the path of a map file (ending in .toml)",
        names.join(", ")
    )
}

/// How deeply `[[part]]` maps may nest.
pub const MAX_PART_DEPTH: usize = 8;
/// Largest offset of a part, in squares.
const MAX_OFFSET: i64 = 1000;
/// Most squares a board may have (so indices of starts, cities and islands fit a `u16`).
pub(crate) const MAX_SQUARES: i64 = 65_536;

/// Parses a map. All problems of the file are reported at once, each with a span.
///
/// Problems inside a `[[part]]` file are reported at the part's `map` value, with that file's own
/// diagnostics (rendered with its `file:line:col`) as a note.
pub fn parse_map(source: &Source, resolver: &dyn MapResolver) -> Result<MapBoard, Vec<Diagnostic>> {
    let mut stack = vec![source.name.clone()];
    let mut board = parse_nested(source, resolver, &mut stack)?;
    if !board.squares.iter().any(|s| s.kind == SquareKind::Land) {
        return Err(vec![Diagnostic::error(
            Code::NoLand,
            0..0,
            "the map has no land square: no tile could be placed on it",
        )
        .with_note(
            "the legend says which grid characters are land (see maps/README.md)",
        )]);
    }
    // A map without a name is called after its file (`my-map.toml`: "my-map").
    if board.name.trim().is_empty() {
        board.name = std::path::Path::new(&source.name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "map".into());
    }
    Ok(board)
}

/// The most chip slots a square may have (`slots = N`): the interpreter keeps a square's free slots
/// as the bits of a `u16`.
pub const MAX_SLOTS: u8 = 16;

fn parse_nested(
    source: &Source,
    resolver: &dyn MapResolver,
    stack: &mut Vec<String>,
) -> Result<MapBoard, Vec<Diagnostic>> {
    let raw: RawMap = match toml::from_str(&source.text) {
        Ok(raw) => raw,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            // serde names Rust's types; a map's author knows integers.
            let msg = e
                .message()
                .trim()
                .replace("expected i64", "expected an integer")
                .replace("expected i32", "expected an integer");
            let mut d = Diagnostic::error(
                Code::InvalidToml,
                span,
                msg.lines().next().unwrap_or("invalid map").to_string(),
            );
            for line in msg.lines().skip(1) {
                d = d.with_note(line.to_string());
            }
            return Err(vec![d]);
        }
    };
    let mut cx = Cx {
        source,
        diags: Vec::new(),
        attr_types: BTreeMap::new(),
    };
    let board = if raw.part.is_empty() {
        build_grid_map(&mut cx, raw)
    } else {
        build_composite(&mut cx, raw, resolver, stack)
    };
    if cx.diags.is_empty() {
        Ok(board)
    } else {
        Err(cx.diags)
    }
}

// ---------------------------------------------------------------------------------------------
// Raw TOML shapes

type Coord = Spanned<Pair>;

/// `[a, b]`: exactly two integers (a third is an error, not ignored).
#[derive(Clone, Copy, Debug)]
struct Pair([i64; 2]);

impl<'de> Deserialize<'de> for Pair {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Pair;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("two integers, [x, y]")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Pair, A::Error> {
                let too_few = |n| serde::de::Error::invalid_length(n, &"two integers, [x, y]");
                let a: i64 = seq.next_element()?.ok_or_else(|| too_few(0))?;
                let b: i64 = seq.next_element()?.ok_or_else(|| too_few(1))?;
                let mut n = 2;
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    n += 1;
                }
                if n > 2 {
                    return Err(serde::de::Error::invalid_length(n, &"two integers, [x, y]"));
                }
                Ok(Pair([a, b]))
            }
        }
        d.deserialize_seq(V)
    }
}
type RawAttrs = BTreeMap<String, Spanned<RawAttr>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    #[serde(default)]
    name: String,
    #[serde(default)]
    doc: String,
    grid: Option<Spanned<String>>,
    #[serde(default)]
    legend: BTreeMap<Spanned<String>, Spanned<RawLegend>>,
    #[serde(default)]
    start: Vec<RawNamed>,
    #[serde(default)]
    town: Vec<RawNamed>,
    #[serde(default)]
    large_city: Vec<RawNamed>,
    #[serde(default)]
    island: Vec<RawNamed>,
    #[serde(default)]
    ferry: Vec<RawFerry>,
    #[serde(default)]
    exit: Vec<RawExit>,
    #[serde(default)]
    group: Vec<RawGroup>,
    #[serde(default)]
    square: Vec<RawSquare>,
    #[serde(default)]
    part: Vec<RawPart>,
    face_down_colour: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNamed {
    name: Spanned<String>,
    at: Coord,
    #[serde(default)]
    attrs: RawAttrs,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFerry {
    from: Coord,
    to: Coord,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExit {
    at: Coord,
    side: Spanned<String>,
    feature: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGroup {
    name: Spanned<String>,
    rows: Option<Spanned<Pair>>,
    cols: Option<Spanned<Pair>>,
    squares: Option<Vec<Coord>>,
    #[serde(default)]
    attrs: RawAttrs,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSquare {
    at: Coord,
    #[serde(default)]
    attrs: RawAttrs,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPart {
    map: Spanned<String>,
    offset: Coord,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLegendTable {
    kind: Spanned<String>,
    #[serde(default)]
    town: bool,
    #[serde(default)]
    attrs: RawAttrs,
}

/// A legend entry: `"sea"` or `{ kind = "land", town = true, attrs = { ... } }`.
enum RawLegend {
    Kind(String),
    Table(RawLegendTable),
}

impl<'de> Deserialize<'de> for RawLegend {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawLegend;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a kind name or a table { kind, town, attrs }")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawLegend, E> {
                Ok(RawLegend::Kind(v.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawLegend, A::Error> {
                RawLegendTable::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(RawLegend::Table)
            }
        }
        d.deserialize_any(V)
    }
}

/// An attribute value as written; `Other` names a TOML type attributes cannot have.
enum RawAttr {
    Int(i64),
    Bool(bool),
    Str(String),
    Other(&'static str),
}

impl<'de> Deserialize<'de> for RawAttr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawAttr;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string, an integer or a boolean")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawAttr, E> {
                Ok(RawAttr::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawAttr, E> {
                Ok(i64::try_from(v)
                    .map(RawAttr::Int)
                    .unwrap_or(RawAttr::Other("too large integer")))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawAttr, E> {
                Ok(RawAttr::Bool(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawAttr, E> {
                Ok(RawAttr::Str(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<RawAttr, E> {
                Ok(RawAttr::Other("float"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawAttr, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(RawAttr::Other("array"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawAttr, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(RawAttr::Other("table or date"))
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------------------------------------
// Checking context

struct Cx<'a> {
    source: &'a Source,
    diags: Vec<Diagnostic>,
    /// Type and first span of every attribute name seen in this file.
    attr_types: BTreeMap<String, (&'static str, Range<usize>)>,
}

impl Cx<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn at(&self, span: &Range<usize>) -> String {
        let (l, c) = self.source.line_col(span.start);
        format!("{}:{l}:{c}", self.source.name)
    }

    /// Converts and type-checks attributes.
    fn attrs(&mut self, raw: &RawAttrs) -> BTreeMap<String, AttrValue> {
        let mut out = BTreeMap::new();
        for (name, value) in raw {
            let span = value.span();
            let v = match value.get_ref() {
                RawAttr::Int(i) => AttrValue::Int(*i),
                RawAttr::Bool(b) => AttrValue::Bool(*b),
                RawAttr::Str(s) => AttrValue::Str(s.clone()),
                RawAttr::Other(what) => {
                    let a = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
                        "an"
                    } else {
                        "a"
                    };
                    self.error(
                        Diagnostic::error(
                            Code::BadAttribute,
                            span,
                            format!("attribute `{name}` is {a} {what}"),
                        )
                        .with_label("expected a string, an integer or a boolean"),
                    );
                    continue;
                }
            };
            if let (true, AttrValue::Int(n)) = (name == "slots", &v) {
                if !(0..=i64::from(MAX_SLOTS)).contains(n) {
                    self.error(
                        Diagnostic::error(
                            Code::BadAttribute,
                            span.clone(),
                            format!("`slots = {n}`: a square has 0 to {MAX_SLOTS} chip slots"),
                        )
                        .with_label(format!("expected 0 to {MAX_SLOTS}")),
                    );
                }
            }
            self.check_attr_type(name, v.type_name(), span, None);
            out.insert(name.clone(), v);
        }
        out
    }

    /// Checks that attribute `name` always has one type; `part` names where the value came from.
    fn check_attr_type(
        &mut self,
        name: &str,
        ty: &'static str,
        span: Range<usize>,
        part: Option<&str>,
    ) {
        match self.attr_types.get(name) {
            Some((first, first_span)) if *first != ty => {
                let first = *first;
                let where_first = self.at(first_span);
                let here = match part {
                    Some(p) => format!("in part `{p}`"),
                    None => "here".to_string(),
                };
                self.error(
                    Diagnostic::error(
                        Code::BadAttribute,
                        span,
                        format!(
                            "attribute `{name}` is {} {here} but {} elsewhere",
                            a_type(ty),
                            a_type(first)
                        ),
                    )
                    .with_label(format!("expected {}", a_type(first)))
                    .with_note(format!(
                        "`{name}` is first {} at {where_first}",
                        a_type(first)
                    )),
                );
            }
            Some(_) => {}
            None => {
                self.attr_types.insert(name.to_string(), (ty, span));
            }
        }
    }

    /// A coordinate on a `w`×`h` board, or an error.
    fn coord(&mut self, c: &Coord, w: i32, h: i32) -> Option<(i32, i32)> {
        let [x, y] = c.get_ref().0;
        if w == 0 || h == 0 {
            // No grid (reported already): nothing is inside it, and saying so of every place is noise.
            return None;
        }
        if x < 0 || y < 0 || x >= i64::from(w) || y >= i64::from(h) {
            self.error(
                Diagnostic::error(
                    Code::OutsideMap,
                    c.span(),
                    format!("[{x}, {y}] is outside the map"),
                )
                .with_label(format!(
                    "the map is {w}×{h}: x in 0..={}, y in 0..={}",
                    w - 1,
                    h - 1
                )),
            );
            return None;
        }
        Some((x as i32, y as i32))
    }

    /// Whether the square at `(x, y)` of `board` is a `kind` square; if not, the error
    /// `says(on)` at `span` (`on`: what the square is, with its article), labelled `label`.
    fn expect_kind(
        &mut self,
        board: &MapBoard,
        (x, y): (i32, i32),
        kind: SquareKind,
        span: Range<usize>,
        says: impl FnOnce(String) -> String,
        label: &str,
    ) -> bool {
        let found = board.square(x, y).map(|s| s.kind);
        if found == Some(kind) {
            return true;
        }
        let on = found.map(kind_article).unwrap_or_default();
        self.error(Diagnostic::error(Code::WrongSquare, span, says(on)).with_label(label));
        false
    }
}

/// "an int", "a string", "a bool".
fn a_type(ty: &str) -> String {
    if ty.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {ty}")
    } else {
        format!("a {ty}")
    }
}

fn idx(w: i32, x: i32, y: i32) -> usize {
    (y as usize) * (w as usize) + x as usize
}

fn kind_article(kind: SquareKind) -> String {
    match kind {
        SquareKind::OffMap => "an offmap square".to_string(),
        SquareKind::Island => "an island square".to_string(),
        k => format!("a {} square", k.name()),
    }
}

// ---------------------------------------------------------------------------------------------
// Grid maps

struct LegendEntry {
    kind: SquareKind,
    town: bool,
    attrs: BTreeMap<String, AttrValue>,
}

/// One character of the grid, with its span in the source.
struct GridChar {
    ch: char,
    span: Range<usize>,
}

/// Byte offsets in `text` of each character of the string value at `span` (None where escapes make the
/// value differ from its spelling).
fn string_char_offsets(text: &str, span: &Range<usize>, value: &str) -> Vec<Option<usize>> {
    let raw = text.get(span.clone()).unwrap_or("");
    let (mut pos, literal) = if raw.starts_with("\"\"\"") {
        (3, false)
    } else if raw.starts_with("'''") {
        (3, true)
    } else if raw.starts_with('"') {
        (1, false)
    } else if raw.starts_with('\'') {
        (1, true)
    } else {
        return vec![None; value.chars().count()];
    };
    if pos == 3 {
        // TOML trims a newline right after the opening delimiter.
        let rest = raw.get(pos..).unwrap_or("");
        if rest.starts_with("\r\n") {
            pos += 2;
        } else if rest.starts_with('\n') {
            pos += 1;
        }
    }
    let mut ok = true;
    let mut out = Vec::new();
    for c in value.chars() {
        let rest = if ok { raw.get(pos..).unwrap_or("") } else { "" };
        if ok && rest.starts_with(c) && (literal || c != '\\') {
            out.push(Some(span.start + pos));
            pos += c.len_utf8();
        } else if ok && c == '\n' && rest.starts_with("\r\n") {
            out.push(Some(span.start + pos));
            pos += 2;
        } else {
            ok = false;
            out.push(None);
        }
    }
    out
}

/// The grid's rows, each character with its span; trailing empty lines dropped.
fn grid_rows(text: &str, grid: &Spanned<String>) -> Vec<Vec<GridChar>> {
    let value = grid.get_ref();
    let offsets = string_char_offsets(text, &grid.span(), value);
    let mut rows: Vec<Vec<GridChar>> = vec![Vec::new()];
    for (i, ch) in value.chars().enumerate() {
        if ch == '\n' {
            rows.push(Vec::new());
            continue;
        }
        let span = match offsets.get(i).copied().flatten() {
            Some(o) => o..o + ch.len_utf8(),
            None => grid.span(),
        };
        if let Some(row) = rows.last_mut() {
            row.push(GridChar { ch, span });
        }
    }
    for row in &mut rows {
        if row.last().is_some_and(|c| c.ch == '\r') {
            row.pop();
        }
    }
    while rows.last().is_some_and(|r| r.is_empty()) {
        rows.pop();
    }
    rows
}

fn build_legend(
    cx: &mut Cx,
    raw: &BTreeMap<Spanned<String>, Spanned<RawLegend>>,
) -> BTreeMap<char, LegendEntry> {
    let mut legend = BTreeMap::new();
    let kind_names = SquareKind::NAMES.map(|(n, _)| n);
    for (key, value) in raw {
        let mut chars = key.get_ref().chars();
        let ch = match (chars.next(), chars.next()) {
            (Some(c), None) => c,
            _ => {
                cx.error(
                    Diagnostic::error(
                        Code::Legend,
                        key.span(),
                        format!("legend key `{}` is not one character", key.get_ref()),
                    )
                    .with_label("expected one character of the grid"),
                );
                continue;
            }
        };
        let (kind_name, kind_span, town, attrs) = match value.get_ref() {
            RawLegend::Kind(k) => (k.as_str(), value.span(), false, BTreeMap::new()),
            RawLegend::Table(t) => (
                t.kind.get_ref().as_str(),
                t.kind.span(),
                t.town,
                cx.attrs(&t.attrs),
            ),
        };
        let Some(kind) = SquareKind::from_name(kind_name) else {
            let mut d = Diagnostic::error(
                Code::Legend,
                kind_span,
                format!("unknown square kind `{kind_name}`"),
            )
            .with_label(format!("expected one of: {}", kind_names.join(", ")));
            if let Some(m) = did_you_mean(kind_name, kind_names) {
                d = d.with_note(format!("did you mean `{m}`?"));
            }
            cx.error(d);
            // Keep the character known, so the grid does not report it again.
            legend.insert(
                ch,
                LegendEntry {
                    kind: SquareKind::OffMap,
                    town: false,
                    attrs,
                },
            );
            continue;
        };
        if town && kind != SquareKind::Land {
            cx.error(
                Diagnostic::error(
                    Code::WrongSquare,
                    kind_span,
                    format!("a town must be on land, not on {}", kind_article(kind)),
                )
                .with_label("expected `land` with `town = true`"),
            );
        }
        legend.insert(ch, LegendEntry { kind, town, attrs });
    }
    legend
}

/// Orthogonally connected components of the squares where `member(i)` holds, neighbours joined when
/// `same(a, b)`; in row-major order of their first squares, each sorted row-major.
fn components(
    w: i32,
    h: i32,
    member: impl Fn(usize) -> bool,
    same: impl Fn(usize, usize) -> bool,
) -> Vec<Vec<(i32, i32)>> {
    let mut seen = vec![false; (w.max(0) as usize) * (h.max(0) as usize)];
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let i = idx(w, x, y);
            if !member(i) || seen.get(i).copied().unwrap_or(true) {
                continue;
            }
            let mut comp = Vec::new();
            let mut queue = VecDeque::from([(x, y)]);
            if let Some(s) = seen.get_mut(i) {
                *s = true;
            }
            while let Some((qx, qy)) = queue.pop_front() {
                comp.push((qx, qy));
                let qi = idx(w, qx, qy);
                for (dx, dy) in SIDE_DELTA {
                    let (nx, ny) = (qx + dx, qy + dy);
                    if nx < 0 || ny < 0 || nx >= w || ny >= h {
                        continue;
                    }
                    let ni = idx(w, nx, ny);
                    if member(ni) && same(qi, ni) && !seen.get(ni).copied().unwrap_or(true) {
                        if let Some(s) = seen.get_mut(ni) {
                            *s = true;
                        }
                        queue.push_back((nx, ny));
                    }
                }
            }
            comp.sort_by_key(|&(x, y)| (y, x));
            out.push(comp);
        }
    }
    out
}

fn merge_attrs(into: &mut BTreeMap<String, AttrValue>, from: &BTreeMap<String, AttrValue>) {
    for (k, v) in from {
        into.insert(k.clone(), v.clone());
    }
}

/// Builds a map drawn as one grid: the squares from the grid and its legend, then the areas, groups,
/// towns and start squares, ferries, border exits and single-square attributes laid over them.
fn build_grid_map(cx: &mut Cx, raw: RawMap) -> MapBoard {
    let legend = build_legend(cx, &raw.legend);
    let (width, height, rows) = grid_dimensions(cx, &raw);
    let (squares, chars) = grid_squares(cx, &rows, width, &legend);
    let mut board = MapBoard {
        name: raw.name.clone(),
        doc: raw.doc.clone(),
        width,
        height,
        squares,
        starts: Vec::new(),
        ferries: Vec::new(),
        exits: Vec::new(),
        large_cities: Vec::new(),
        islands: Vec::new(),
        groups: Vec::new(),
        face_down_colour: None,
    };
    mark_areas(cx, &mut board, &chars, &raw);
    add_groups(cx, &mut board, &raw.group);
    add_towns(cx, &mut board, &raw);
    add_ferries(cx, &mut board, &raw.ferry);
    add_exits(cx, &mut board, &raw.exit);
    add_square_attrs(cx, &mut board, &raw.square);
    board.face_down_colour = face_down_colour(cx, &board, &raw);
    board
}

/// The map's `face_down_colour`: an attribute some square has, with a name (a colour's) as its value.
fn face_down_colour(cx: &mut Cx, board: &MapBoard, raw: &RawMap) -> Option<String> {
    let attr = raw.face_down_colour.as_ref()?;
    let named = board.squares.iter().any(|s| {
        matches!(
            s.attrs.get(attr.get_ref().as_str()),
            Some(AttrValue::Str(_))
        )
    });
    if !named {
        cx.error(
            Diagnostic::error(
                Code::BadAttribute,
                attr.span(),
                format!(
                    "no square has a `{}` attribute naming a colour",
                    attr.get_ref().as_str()
                ),
            )
            .with_label("expected the attribute that prints a chip colour on its squares")
            .with_note(
                "as `\"b\" = { kind = \"land\", attrs = { spot = \"blue\" } }` in the legend",
            ),
        );
        return None;
    }
    Some(attr.get_ref().as_str().to_string())
}

/// The grid's rows and its size (the first row's width); a missing or too large grid is reported
/// and read as empty.
fn grid_dimensions(cx: &mut Cx, raw: &RawMap) -> (i32, i32, Vec<Vec<GridChar>>) {
    let text = cx.source.text.as_str();
    let rows = match &raw.grid {
        Some(g) => grid_rows(text, g),
        None => Vec::new(),
    };
    if rows.is_empty() {
        let span = raw.grid.as_ref().map(|g| g.span()).unwrap_or(0..0);
        cx.error(
            Diagnostic::error(Code::Grid, span, "the map has no grid")
                .with_label("expected `grid = \"\"\"...\"\"\"` or `[[part]]`s"),
        );
    }
    let mut rows = rows;
    let mut height = rows.len().min(i32::MAX as usize) as i32;
    let mut width = rows
        .first()
        .map(|r| r.len())
        .unwrap_or(0)
        .min(i32::MAX as usize) as i32;
    if i64::from(width) * i64::from(height) > MAX_SQUARES {
        let span = raw.grid.as_ref().map(|g| g.span()).unwrap_or(0..0);
        cx.error(
            Diagnostic::error(
                Code::Grid,
                span,
                format!("the grid is {width}×{height} squares, too large"),
            )
            .with_label(format!("expected at most {MAX_SQUARES} squares")),
        );
        (width, height) = (0, 0);
        rows.clear();
    }
    (width, height, rows)
}

/// The squares of the grid from the legend, and the character of each (rows of another width and
/// characters missing from the legend are reported; such squares are off the map).
fn grid_squares(
    cx: &mut Cx,
    rows: &[Vec<GridChar>],
    width: i32,
    legend: &BTreeMap<char, LegendEntry>,
) -> (Vec<Square>, Vec<char>) {
    let height = rows.len();
    let mut squares = Vec::with_capacity((width as usize) * height);
    let mut chars = Vec::with_capacity(squares.capacity());
    // First occurrence, count and position of each character missing from the legend.
    let mut missing: BTreeMap<char, (Range<usize>, usize, usize, usize)> = BTreeMap::new();
    for (y, row) in rows.iter().enumerate() {
        if row.len() != width as usize {
            let span = match (row.first(), row.last()) {
                (Some(a), Some(b)) => a.span.start..b.span.end,
                _ => {
                    // An empty row: point at the line break that ends it.
                    let prev_end = y
                        .checked_sub(1)
                        .and_then(|p| rows.get(p))
                        .and_then(|r| r.last())
                        .map(|c| c.span.end);
                    let at = prev_end.map(|e| e + 1).unwrap_or(0);
                    at..at + 1
                }
            };
            cx.error(
                Diagnostic::error(
                    Code::Grid,
                    span,
                    format!(
                        "row {y} of the grid has {} squares, the first row has {width}",
                        row.len()
                    ),
                )
                .with_label(format!("expected {width} characters")),
            );
        }
        for x in 0..width as usize {
            let Some(gc) = row.get(x) else {
                squares.push(Square::plain(SquareKind::OffMap));
                chars.push('\0');
                continue;
            };
            match legend.get(&gc.ch) {
                Some(e) => {
                    let mut sq = Square::plain(e.kind);
                    sq.town = e.town;
                    sq.attrs = e.attrs.clone();
                    squares.push(sq);
                }
                None => {
                    let m = missing.entry(gc.ch).or_insert((gc.span.clone(), 0, x, y));
                    m.1 += 1;
                    squares.push(Square::plain(SquareKind::OffMap));
                }
            }
            chars.push(gc.ch);
        }
        // Characters beyond the first row's width are still checked against the legend.
        for (x, gc) in row.iter().enumerate().skip(width as usize) {
            if !legend.contains_key(&gc.ch) {
                let m = missing.entry(gc.ch).or_insert((gc.span.clone(), 0, x, y));
                m.1 += 1;
            }
        }
    }
    report_missing(cx, missing, legend);
    (squares, chars)
}

/// One error per character missing from the legend, at its first use, with how often it is used.
fn report_missing(
    cx: &mut Cx,
    missing: BTreeMap<char, (Range<usize>, usize, usize, usize)>,
    legend: &BTreeMap<char, LegendEntry>,
) {
    let legend_chars: Vec<String> = legend.keys().map(|c| format!("`{c}`")).collect();
    for (ch, (span, count, x, y)) in missing {
        let shown = ch.escape_debug();
        let mut d = Diagnostic::error(
            Code::Legend,
            span,
            format!("character `{shown}` at [{x}, {y}] is not in the legend"),
        )
        .with_label("not in [legend]")
        .with_note(match legend_chars.is_empty() {
            true => "the map has no [legend]: it says what kind of square each grid character is \
                     (see maps/README.md)"
                .to_string(),
            false => format!("the legend has: {}", legend_chars.join(" ")),
        });
        if count > 1 {
            d = d.with_note(format!("`{shown}` is used {count} times in the grid"));
        }
        cx.error(d);
    }
}

/// Large cities (squares of one character joined orthogonally) and islands (joined island squares),
/// numbered, then named by `[[large_city]]` and `[[island]]`.
fn mark_areas(cx: &mut Cx, board: &mut MapBoard, chars: &[char], raw: &RawMap) {
    let (w, h) = (board.width, board.height);
    let kinds: Vec<SquareKind> = board.squares.iter().map(|s| s.kind).collect();
    let kind_at = |i: usize| kinds.get(i).copied();
    let cities = components(
        w,
        h,
        |i| kind_at(i) == Some(SquareKind::LargeCity),
        |a, b| chars.get(a) == chars.get(b),
    );
    let islands = components(
        w,
        h,
        |i| kind_at(i) == Some(SquareKind::Island),
        |_, _| true,
    );
    for (n, comp) in cities.into_iter().enumerate() {
        for &(x, y) in &comp {
            if let Some(sq) = board.squares.get_mut(idx(w, x, y)) {
                sq.large_city = Some(n as u16);
            }
        }
        board.large_cities.push(Group {
            name: String::new(),
            squares: comp,
            attrs: BTreeMap::new(),
        });
    }
    for (n, comp) in islands.into_iter().enumerate() {
        for &(x, y) in &comp {
            if let Some(sq) = board.squares.get_mut(idx(w, x, y)) {
                sq.island = Some(n as u16);
            }
        }
        board.islands.push(Group {
            name: String::new(),
            squares: comp,
            attrs: BTreeMap::new(),
        });
    }
    name_areas(cx, board, &raw.large_city, SquareKind::LargeCity);
    name_areas(cx, board, &raw.island, SquareKind::Island);
}

/// `[[group]]`s: squares listed or a block of rows and columns, whose attributes every square gets.
fn add_groups(cx: &mut Cx, board: &mut MapBoard, groups: &[RawGroup]) {
    let (w, h) = (board.width, board.height);
    for g in groups {
        let attrs = cx.attrs(&g.attrs);
        let mut sqs = Vec::new();
        let gname = g.name.get_ref();
        match (&g.squares, g.rows.is_some() || g.cols.is_some()) {
            (Some(_), true) => {
                cx.error(
                    Diagnostic::error(
                        Code::Group,
                        g.name.span(),
                        format!("group `{gname}` has both `squares` and `rows`/`cols`"),
                    )
                    .with_label("give either squares = [[x, y], ...] or rows/cols"),
                );
            }
            (Some(list), false) => {
                for c in list {
                    if let Some(p) = cx.coord(c, w, h) {
                        sqs.push(p);
                    }
                }
            }
            (None, true) => {
                let rows = group_range(cx, &g.rows, "rows", h);
                let cols = group_range(cx, &g.cols, "columns", w);
                if let (Some((r0, r1)), Some((c0, c1))) = (rows, cols) {
                    for y in r0..=r1 {
                        for x in c0..=c1 {
                            sqs.push((x, y));
                        }
                    }
                }
            }
            (None, false) => {
                cx.error(
                    Diagnostic::error(
                        Code::Group,
                        g.name.span(),
                        format!("group `{gname}` has no squares"),
                    )
                    .with_label("expected `rows`, `cols` or `squares`"),
                );
            }
        }
        for &(x, y) in &sqs {
            if let Some(sq) = board.squares.get_mut(idx(w, x, y)) {
                merge_attrs(&mut sq.attrs, &attrs);
            }
        }
        board.groups.push(Group {
            name: gname.clone(),
            squares: sqs,
            attrs,
        });
    }
}

/// `[[start]]` squares and `[[town]]`s: named, on land, one per square.
fn add_towns(cx: &mut Cx, board: &mut MapBoard, raw: &RawMap) {
    let (w, h) = (board.width, board.height);
    let mut names: BTreeMap<String, Range<usize>> = BTreeMap::new();
    let mut town_at: BTreeMap<(i32, i32), Range<usize>> = BTreeMap::new();
    for (is_start, list) in [(true, &raw.start), (false, &raw.town)] {
        let what = if is_start { "start square" } else { "town" };
        for t in list {
            let attrs = cx.attrs(&t.attrs);
            let name = t.name.get_ref();
            if name.trim().is_empty() || crate::paths::control_char(name).is_some() {
                cx.error(
                    Diagnostic::error(
                        Code::MissingName,
                        t.name.span(),
                        format!("a {what} needs a name"),
                    )
                    .with_label("a name on one line, such as \"Paris\""),
                );
            }
            if let Some(first) = names.get(name) {
                let first = cx.at(first);
                cx.error(
                    Diagnostic::error(
                        Code::MapNameTwice,
                        t.name.span(),
                        format!("the name `{name}` is used twice"),
                    )
                    .with_label("a second start square or town with this name")
                    .with_note(format!("first used at {first}")),
                );
            } else {
                names.insert(name.clone(), t.name.span());
            }
            let Some((x, y)) = cx.coord(&t.at, w, h) else {
                continue;
            };
            let says = |on| format!("{what} `{name}` at [{x}, {y}] is on {on}, not land");
            let label = "expected a land square";
            if !cx.expect_kind(board, (x, y), SquareKind::Land, t.at.span(), says, label) {
                continue;
            }
            if let Some(first) = town_at.get(&(x, y)) {
                let first = cx.at(first);
                cx.error(
                    Diagnostic::error(
                        Code::MapNameTwice,
                        t.at.span(),
                        format!("[{x}, {y}] already has a start square or town"),
                    )
                    .with_label("a second town on this square")
                    .with_note(format!("the first is at {first}")),
                );
                continue;
            }
            town_at.insert((x, y), t.at.span());
            let start = if is_start {
                board.starts.push(StartSquare {
                    name: name.clone(),
                    at: (x, y),
                });
                Some((board.starts.len() - 1) as u16)
            } else {
                None
            };
            if let Some(sq) = board.squares.get_mut(idx(w, x, y)) {
                sq.town = true;
                sq.start = start;
                sq.name = Some(name.clone());
                merge_attrs(&mut sq.attrs, &attrs);
            }
        }
    }
}

/// `[[ferry]]`s: from a land square to an island square.
fn add_ferries(cx: &mut Cx, board: &mut MapBoard, ferries: &[RawFerry]) {
    let (w, h) = (board.width, board.height);
    for f in ferries {
        let from = cx.coord(&f.from, w, h);
        let to = cx.coord(&f.to, w, h);
        if let Some((x, y)) = from {
            let says = |on| format!("a ferry starts at [{x}, {y}], {on}");
            let label = "expected a land square";
            cx.expect_kind(board, (x, y), SquareKind::Land, f.from.span(), says, label);
        }
        if let Some((x, y)) = to {
            let says = |on| format!("a ferry ends at [{x}, {y}], {on}");
            let label = "expected an island square";
            cx.expect_kind(board, (x, y), SquareKind::Island, f.to.span(), says, label);
        }
        if let (Some(from), Some(to)) = (from, to) {
            board.ferries.push(Ferry { from, to });
        }
    }
}

/// `[[exit]]`s: a road or city leaving the map from a land square's side that faces off the map.
fn add_exits(cx: &mut Cx, board: &mut MapBoard, exits: &[RawExit]) {
    let (w, h) = (board.width, board.height);
    for e in exits {
        let side_name = e.side.get_ref();
        let side = match side_name.chars().collect::<Vec<_>>().as_slice() {
            [c] => SIDE_NAMES.iter().position(|s| s == c),
            _ => None,
        };
        if side.is_none() {
            cx.error(
                Diagnostic::error(
                    Code::Exit,
                    e.side.span(),
                    format!("unknown side `{side_name}`"),
                )
                .with_label("expected \"N\", \"E\", \"S\" or \"W\""),
            );
        }
        let feature = match e.feature.get_ref().as_str() {
            "road" => Some(EdgeKind::Road),
            "city" => Some(EdgeKind::City),
            other => {
                let mut d = Diagnostic::error(
                    Code::Exit,
                    e.feature.span(),
                    format!("unknown exit feature `{other}`"),
                )
                .with_label("expected \"road\" or \"city\"");
                if let Some(m) = did_you_mean(other, ["road", "city"]) {
                    d = d.with_note(format!("did you mean `{m}`?"));
                }
                cx.error(d);
                None
            }
        };
        let Some((x, y)) = cx.coord(&e.at, w, h) else {
            continue;
        };
        let says = |on| format!("the exit at [{x}, {y}] is on {on}, not land");
        let label = "expected a land square on the map's border";
        if !cx.expect_kind(board, (x, y), SquareKind::Land, e.at.span(), says, label) {
            continue;
        }
        let (Some(side), Some(feature)) = (side, feature) else {
            continue;
        };
        if let Some(beyond) = beyond_exit(board, (x, y), side) {
            cx.error(
                Diagnostic::error(
                    Code::Exit,
                    e.side.span(),
                    format!("the exit at [{x}, {y}] does not face off the map: {beyond}"),
                )
                .with_label("expected the side of a border square that faces off the map"),
            );
            continue;
        }
        board.exits.push(Exit {
            at: (x, y),
            side: side as u8,
            feature,
        });
    }
}

/// `[[square]]`s: attributes of single squares.
fn add_square_attrs(cx: &mut Cx, board: &mut MapBoard, list: &[RawSquare]) {
    let (w, h) = (board.width, board.height);
    for s in list {
        let attrs = cx.attrs(&s.attrs);
        let Some((x, y)) = cx.coord(&s.at, w, h) else {
            continue;
        };
        if let Some(sq) = board.squares.get_mut(idx(w, x, y)) {
            merge_attrs(&mut sq.attrs, &attrs);
        }
    }
}

/// A group's `rows` or `cols` as `(first, last)`, the whole range when absent.
fn group_range(cx: &mut Cx, r: &Option<Spanned<Pair>>, what: &str, n: i32) -> Option<(i32, i32)> {
    let Some(r) = r else {
        return Some((0, n - 1));
    };
    let [a, b] = r.get_ref().0;
    if a < 0 || b >= i64::from(n) || a > b {
        cx.error(
            Diagnostic::error(
                Code::OutsideMap,
                r.span(),
                format!("[{a}, {b}] is not a range of the map's {what}"),
            )
            .with_label(format!(
                "expected [first, last] with 0 <= first <= last <= {}",
                n - 1
            )),
        );
        return None;
    }
    Some((a as i32, b as i32))
}

/// Why side `side` of `at` does not face off the map (`None` when it does: the square beyond is
/// outside the board or offmap).
fn beyond_exit(board: &MapBoard, at: (i32, i32), side: usize) -> Option<String> {
    let (dx, dy) = SIDE_DELTA.get(side).copied().unwrap_or((0, 0));
    let (nx, ny) = (at.0 + dx, at.1 + dy);
    match board.square(nx, ny) {
        None => None,
        Some(sq) if sq.kind == SquareKind::OffMap => None,
        Some(sq) => Some(format!(
            "[{nx}, {ny}] beyond its {} side is {}",
            SIDE_NAMES.get(side).copied().unwrap_or('?'),
            kind_article(sq.kind)
        )),
    }
}

/// Applies `[[large_city]]` or `[[island]]` entries: names and attributes of components.
fn name_areas(cx: &mut Cx, board: &mut MapBoard, list: &[RawNamed], kind: SquareKind) {
    let is_island = kind == SquareKind::Island;
    let what = if is_island { "island" } else { "large city" };
    let mut names: BTreeMap<String, Range<usize>> = BTreeMap::new();
    for a in list {
        let attrs = cx.attrs(&a.attrs);
        let name = a.name.get_ref();
        if let Some(first) = names.get(name) {
            let first = cx.at(first);
            cx.error(
                Diagnostic::error(
                    Code::MapNameTwice,
                    a.name.span(),
                    format!("the {what} name `{name}` is used twice"),
                )
                .with_label(format!("a second {what} with this name"))
                .with_note(format!("first used at {first}")),
            );
        } else {
            names.insert(name.clone(), a.name.span());
        }
        let Some((x, y)) = cx.coord(&a.at, board.width, board.height) else {
            continue;
        };
        let Some(sq) = board.square(x, y) else {
            continue;
        };
        let (n, sq_kind) = (if is_island { sq.island } else { sq.large_city }, sq.kind);
        let Some(n) = n else {
            cx.error(
                Diagnostic::error(
                    Code::WrongSquare,
                    a.at.span(),
                    format!(
                        "[{x}, {y}] is {}, not {}",
                        kind_article(sq_kind),
                        kind_article(kind)
                    ),
                )
                .with_label(format!("expected a square of the {what} `{name}`")),
            );
            continue;
        };
        let areas = if is_island {
            &mut board.islands
        } else {
            &mut board.large_cities
        };
        let Some(area) = areas.get_mut(n as usize) else {
            continue;
        };
        if !area.name.is_empty() {
            let old = area.name.clone();
            cx.error(
                Diagnostic::error(
                    Code::MapNameTwice,
                    a.at.span(),
                    format!("this {what} is already named `{old}`"),
                )
                .with_label(format!("a second name for the {what} at [{x}, {y}]")),
            );
            continue;
        }
        area.name = name.clone();
        merge_attrs(&mut area.attrs, &attrs);
        let squares = area.squares.clone();
        let w = board.width;
        for (x, y) in squares {
            if let Some(sq) = board.squares.get_mut(idx(w, x, y)) {
                sq.name = Some(name.clone());
                merge_attrs(&mut sq.attrs, &attrs);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Composite maps

/// A part loaded and checked: its `map` name and span, offset and board.
struct Placed {
    name: String,
    span: Range<usize>,
    offset: (i32, i32),
    board: MapBoard,
}

/// Builds a map made of parts: each part loaded (nested parts too) and laid at its offset.
fn build_composite(
    cx: &mut Cx,
    raw: RawMap,
    resolver: &dyn MapResolver,
    stack: &mut Vec<String>,
) -> MapBoard {
    reject_grid_keys(cx, &raw);
    let mut placed: Vec<Placed> = Vec::new();
    for part in &raw.part {
        placed.extend(load_part(cx, part, resolver, stack));
    }
    let (width, height) = composite_size(cx, &raw, &mut placed);
    let mut board = MapBoard {
        name: raw.name,
        doc: raw.doc,
        width,
        height,
        squares: vec![Square::plain(SquareKind::OffMap); (width as usize) * (height as usize)],
        starts: Vec::new(),
        ferries: Vec::new(),
        exits: Vec::new(),
        large_cities: Vec::new(),
        islands: Vec::new(),
        groups: Vec::new(),
        // The parts' own, the first that names one (a map of parts takes only name, doc and parts).
        face_down_colour: placed.iter().find_map(|p| p.board.face_down_colour.clone()),
    };
    let exits = lay_parts(cx, &mut board, &placed);
    add_seam_exits(cx, &mut board, &placed, exits);
    board
}

/// A map made of parts takes only name, doc and parts.
fn reject_grid_keys(cx: &mut Cx, raw: &RawMap) {
    let stray: Option<(Range<usize>, &str)> = raw
        .grid
        .as_ref()
        .map(|g| (g.span(), "grid"))
        .or_else(|| raw.legend.keys().next().map(|k| (k.span(), "legend")))
        .or_else(|| raw.start.first().map(|s| (s.name.span(), "start")))
        .or_else(|| raw.town.first().map(|s| (s.name.span(), "town")))
        .or_else(|| {
            raw.large_city
                .first()
                .map(|s| (s.name.span(), "large_city"))
        })
        .or_else(|| raw.island.first().map(|s| (s.name.span(), "island")))
        .or_else(|| raw.ferry.first().map(|s| (s.from.span(), "ferry")))
        .or_else(|| raw.exit.first().map(|s| (s.at.span(), "exit")))
        .or_else(|| raw.group.first().map(|s| (s.name.span(), "group")))
        .or_else(|| raw.square.first().map(|s| (s.at.span(), "square")))
        .or_else(|| {
            raw.face_down_colour
                .as_ref()
                .map(|s| (s.span(), "face_down_colour"))
        });
    if let Some((span, what)) = stray {
        cx.error(
            Diagnostic::error(
                Code::Part,
                span,
                format!("a map made of parts cannot also have `{what}`"),
            )
            .with_label("put this in one of the parts")
            .with_note("a map with [[part]]s takes only `name`, `doc` and `[[part]]`"),
        );
    }
}

/// Loads one part (refusing a bad offset, a missing map, a cycle or too deep a nesting).
fn load_part(
    cx: &mut Cx,
    part: &RawPart,
    resolver: &dyn MapResolver,
    stack: &mut Vec<String>,
) -> Option<Placed> {
    let name = part.map.get_ref();
    let span = part.map.span();
    let [ox, oy] = part.offset.get_ref().0;
    let offset_ok = (0..=MAX_OFFSET).contains(&ox) && (0..=MAX_OFFSET).contains(&oy);
    if !offset_ok {
        cx.error(
            Diagnostic::error(
                Code::OutsideMap,
                part.offset.span(),
                format!("offset [{ox}, {oy}] is out of range"),
            )
            .with_label(format!("expected [x, y] with 0 <= x, y <= {MAX_OFFSET}")),
        );
    }
    let sub = match resolver.resolve(name, cx.source) {
        Ok(s) => s,
        Err(msg) => {
            cx.error(
                Diagnostic::error(Code::Part, span, format!("cannot load part `{name}`"))
                    .with_label("no such map")
                    .with_note(msg),
            );
            return None;
        }
    };
    if stack.contains(&sub.name) {
        let chain: Vec<&str> = stack
            .iter()
            .map(String::as_str)
            .chain([sub.name.as_str()])
            .collect();
        cx.error(
            Diagnostic::error(
                Code::Part,
                span,
                format!("map `{}` includes itself", sub.name),
            )
            .with_label("this part leads back to a map that includes it")
            .with_note(format!("chain: {}", chain.join(" -> "))),
        );
        return None;
    }
    if stack.len() > MAX_PART_DEPTH {
        cx.error(
            Diagnostic::error(
                Code::Part,
                span,
                format!("parts nest more than {MAX_PART_DEPTH} deep"),
            )
            .with_label("not loaded")
            .with_note(format!("chain: {} -> {}", stack.join(" -> "), sub.name)),
        );
        return None;
    }
    stack.push(sub.name.clone());
    let result = parse_nested(&sub, resolver, stack);
    stack.pop();
    match result {
        Ok(board) if offset_ok => Some(Placed {
            name: name.clone(),
            span,
            offset: (ox as i32, oy as i32),
            board,
        }),
        Ok(_) => None,
        Err(diags) => {
            cx.error(part_problem(name, span, &sub, &diags));
            None
        }
    }
}

/// How a part's problem says which parts lead to the file it is in.
const THROUGH: &str = "through the parts ";

/// The error for a part that did not load. One problem is said in the message itself, however deep
/// the part: a chain of parts names the way down in one note and shows the innermost problem once,
/// instead of nesting each level's report in the one above.
fn part_problem(name: &str, span: Range<usize>, sub: &Source, diags: &[Diagnostic]) -> Diagnostic {
    let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
    let label = format!("in {}", sub.name);
    let [one] = errors[..] else {
        let n = errors.len();
        return Diagnostic::error(Code::Part, span, format!("part `{name}` has {n} problems"))
            .with_label(label)
            .with_note(sub.render(diags).trim_end().to_string());
    };
    const ONE: &str = " has 1 problem: ";
    let inner = one
        .message
        .strip_prefix("part `")
        .and_then(|m| m.find(ONE).map(|i| &m[i + ONE.len()..]));
    match (inner, one.notes.as_slice()) {
        // A part whose own part failed: its reason, the way down, and the innermost report.
        (Some(reason), notes) if !notes.is_empty() => {
            let below = match notes[0].strip_prefix(THROUGH) {
                Some(chain) if notes.len() == 2 => chain.to_string(),
                _ => one.label.trim_start_matches("in ").to_string(),
            };
            let shown = notes.last().cloned().unwrap_or_default();
            Diagnostic::error(Code::Part, span, format!("part `{name}`{ONE}{reason}"))
                .with_label(label)
                .with_note(format!("{THROUGH}{} -> {below}", sub.name))
                .with_note(shown)
        }
        _ => Diagnostic::error(
            Code::Part,
            span,
            format!("part `{name}`{ONE}{}", one.message),
        )
        .with_label(label)
        .with_note(sub.render(diags).trim_end().to_string()),
    }
}

/// The size that holds every part; too large a map is reported and its parts dropped.
fn composite_size(cx: &mut Cx, raw: &RawMap, placed: &mut Vec<Placed>) -> (i32, i32) {
    let mut width = placed
        .iter()
        .map(|p| p.offset.0 + p.board.width)
        .max()
        .unwrap_or(0);
    let mut height = placed
        .iter()
        .map(|p| p.offset.1 + p.board.height)
        .max()
        .unwrap_or(0);
    if i64::from(width) * i64::from(height) > MAX_SQUARES {
        let span = raw.part.first().map(|p| p.map.span()).unwrap_or(0..0);
        cx.error(
            Diagnostic::error(
                Code::Grid,
                span,
                format!("the parts span {width}×{height} squares, too large"),
            )
            .with_label(format!("expected at most {MAX_SQUARES} squares")),
        );
        placed.clear();
        (width, height) = (0, 0);
    }
    (width, height)
}

/// Lays each part's squares, areas, groups and ferries on the board, shifted by its offset;
/// returns the parts' exits (checked once every part is laid).
fn lay_parts(cx: &mut Cx, board: &mut MapBoard, placed: &[Placed]) -> Vec<(usize, Exit)> {
    let mut owner: Vec<Option<usize>> = vec![None; board.squares.len()];
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    let mut exits_from: Vec<(usize, Exit)> = Vec::new();
    for (p, pl) in placed.iter().enumerate() {
        check_part_names(cx, &mut names, placed, p);
        let part = &pl.board;
        for (attr, ty) in part.attr_names() {
            cx.check_attr_type(&attr, ty, pl.span.clone(), Some(&pl.name));
        }
        copy_part_squares(cx, board, &mut owner, placed, p);
        shift_part_features(board, pl, p, &mut exits_from);
    }
    exits_from
}

/// Names of start squares and towns stay unique across parts.
fn check_part_names(cx: &mut Cx, names: &mut BTreeMap<String, usize>, placed: &[Placed], p: usize) {
    let pl = &placed[p];
    let part = &pl.board;
    let part_name = |q: usize| placed.get(q).map(|t| t.name.clone()).unwrap_or_default();
    for sq in &part.squares {
        if let (true, Some(n)) = (sq.town, &sq.name) {
            if let Some(&q) = names.get(n) {
                cx.error(
                    Diagnostic::error(
                        Code::MapNameTwice,
                        pl.span.clone(),
                        format!(
                            "the name `{n}` is used in part `{}` and in part `{}`",
                            pl.name,
                            part_name(q)
                        ),
                    )
                    .with_label("a start square or town named like one of another part"),
                );
            } else {
                names.insert(n.clone(), p);
            }
        }
    }
}

/// Copies a part's squares onto the board (numbering its areas after those of earlier parts);
/// reports the first square where it overlaps another part.
fn copy_part_squares(
    cx: &mut Cx,
    board: &mut MapBoard,
    owner: &mut [Option<usize>],
    placed: &[Placed],
    p: usize,
) {
    let pl = &placed[p];
    let part = &pl.board;
    let (ox, oy) = pl.offset;
    let shift = |(x, y): (i32, i32)| (x + ox, y + oy);
    let part_name = |q: usize| placed.get(q).map(|t| t.name.clone()).unwrap_or_default();
    let (s0, c0, i0) = (
        board.starts.len(),
        board.large_cities.len(),
        board.islands.len(),
    );
    let mut overlap: Option<(i32, i32, usize)> = None;
    for y in 0..part.height {
        for x in 0..part.width {
            let Some(sq) = part.square(x, y) else {
                continue;
            };
            if sq.kind == SquareKind::OffMap {
                continue;
            }
            let (gx, gy) = shift((x, y));
            let Some(i) = board.index(gx, gy) else {
                continue;
            };
            if let Some(Some(q)) = owner.get(i) {
                overlap.get_or_insert((gx, gy, *q));
                continue;
            }
            if let Some(o) = owner.get_mut(i) {
                *o = Some(p);
            }
            let mut sq = sq.clone();
            sq.start = sq.start.map(|n| n.saturating_add(s0 as u16));
            sq.large_city = sq.large_city.map(|n| n.saturating_add(c0 as u16));
            sq.island = sq.island.map(|n| n.saturating_add(i0 as u16));
            if let Some(slot) = board.squares.get_mut(i) {
                *slot = sq;
            }
        }
    }
    if let Some((x, y, q)) = overlap {
        cx.error(
            Diagnostic::error(
                Code::Part,
                pl.span.clone(),
                format!(
                    "part `{}` overlaps part `{}` at [{x}, {y}]",
                    pl.name,
                    part_name(q)
                ),
            )
            .with_label("overlapping part")
            .with_note(
                "parts may overlap only where at most one of them has a square that is not offmap",
            ),
        );
    }
}

/// Adds a part's start squares, areas, groups and ferries, shifted; collects its exits.
fn shift_part_features(
    board: &mut MapBoard,
    pl: &Placed,
    p: usize,
    exits_from: &mut Vec<(usize, Exit)>,
) {
    let part = &pl.board;
    let (ox, oy) = pl.offset;
    let shift = |(x, y): (i32, i32)| (x + ox, y + oy);
    let shift_group = |g: &Group| Group {
        name: g.name.clone(),
        squares: g.squares.iter().map(|&c| shift(c)).collect(),
        attrs: g.attrs.clone(),
    };
    board.starts.extend(part.starts.iter().map(|s| StartSquare {
        name: s.name.clone(),
        at: shift(s.at),
    }));
    board
        .large_cities
        .extend(part.large_cities.iter().map(shift_group));
    board.islands.extend(part.islands.iter().map(shift_group));
    board.groups.extend(part.groups.iter().map(shift_group));
    board.ferries.extend(part.ferries.iter().map(|f| Ferry {
        from: shift(f.from),
        to: shift(f.to),
    }));
    exits_from.extend(part.exits.iter().map(|e| {
        (
            p,
            Exit {
                at: shift(e.at),
                side: e.side,
                feature: e.feature,
            },
        )
    }));
}

/// An exit at a seam faces the other part's square, not off the map.
fn add_seam_exits(
    cx: &mut Cx,
    board: &mut MapBoard,
    placed: &[Placed],
    exits_from: Vec<(usize, Exit)>,
) {
    for (p, e) in exits_from {
        if let Some(beyond) = beyond_exit(board, e.at, e.side as usize) {
            let (pname, span) = placed
                .get(p)
                .map(|t| (t.name.clone(), t.span.clone()))
                .unwrap_or_default();
            cx.error(
                Diagnostic::error(
                    Code::Exit, span,
                    format!(
                        "the exit at [{}, {}] of part `{pname}` no longer faces off the map: {beyond}",
                        e.at.0, e.at.1
                    ),
                )
                .with_label("an exit of this part is covered by another part"),
            );
            continue;
        }
        board.exits.push(e);
    }
}
