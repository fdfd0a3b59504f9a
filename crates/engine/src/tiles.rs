//! Tile types and tile sets, loaded from TOML (see `maps/tiles/README.md`).

use crate::diag::{did_you_mean, Code, Diagnostic, Source};
use crate::geometry::{
    half_from_name, side_from_char, EdgeKind, FeatureKind, HALF_NAMES, SIDE_NAMES,
};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::ops::Range;
use toml::Spanned;

mod attrs;
pub use attrs::{attr_value, AttrDecl, AttrOn, AttrType, Attrs};

/// One segment of a tile: a piece of a feature that lies on this tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub kind: FeatureKind,
    /// Bit `s` set when the segment reaches side `s` (cities, roads), unrotated.
    pub sides: u8,
    /// Bit `h` set when the segment holds half-edge `h` (fields), unrotated.
    pub halves: u8,
    /// Coats of arms on this segment (cities).
    pub shields: u8,
    /// For fields: indices (into `TileType::segments`) of the city segments this field touches.
    pub adjacent_cities: Vec<u8>,
    /// The values of the set's attributes declared on this segment's kind that it gives.
    pub attrs: Attrs,
}

/// A tile type: its edges and segments, unrotated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileType {
    pub id: String,
    pub name: String,
    pub count: u32,
    /// How many of `count` are start tiles.
    pub start: u32,
    pub edges: [EdgeKind; 4],
    /// Cities first, then roads, then fields, then the monastery (if any).
    pub segments: Vec<Segment>,
    /// The values of the set's tile attributes (`on = "tile"`) that this tile gives.
    pub attrs: Attrs,
}

/// A named set of tile types.
#[derive(Clone, Debug)]
pub struct TileSet {
    pub name: String,
    pub tiles: Vec<TileType>,
    /// The attributes the set declares (`[attributes]`), in the order written.
    pub attrs: Vec<AttrDecl>,
}

impl TileSet {
    pub fn total(&self) -> u32 {
        self.tiles.iter().map(|t| t.count).sum()
    }
}

/// The names of the tile sets compiled into the program.
/// Names of the bundled tile sets (every `maps/tiles/*.toml`).
pub fn bundled_tile_sets() -> impl Iterator<Item = &'static str> {
    crate::bundled::TILE_SETS.iter().map(|(n, _)| *n)
}

/// The TOML text of a bundled tile set.
pub fn bundled_tile_set(name: &str) -> Option<&'static str> {
    crate::bundled::TILE_SETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}

/// A bundled tile set, parsed once per process (its text never changes); `None` for a name that is
/// not bundled. The checker and every load of a variant parsed the TOML again: most of a `script`
/// or `play` fuzz input's time, and of loading a bundled variant.
pub fn parse_bundled(name: &str) -> Option<Result<TileSet, Vec<Diagnostic>>> {
    use std::sync::OnceLock;
    type Parsed = Result<TileSet, Vec<Diagnostic>>;
    static PARSED: OnceLock<Vec<OnceLock<Parsed>>> = OnceLock::new();
    let sets = crate::bundled::TILE_SETS;
    let i = sets.iter().position(|(n, _)| *n == name)?;
    let cells = PARSED.get_or_init(|| sets.iter().map(|_| OnceLock::new()).collect());
    let parsed = cells[i].get_or_init(|| {
        parse_tile_set(
            name,
            &Source::new(format!("maps/tiles/{name}.toml"), sets[i].1),
        )
    });
    Some(parsed.clone())
}

/// Most copies of one tile type in a set.
pub(crate) const MAX_COUNT: u32 = 1000;

/// Parses a tile set. All problems of the file are reported at once, each with a span.
pub fn parse_tile_set(name: &str, source: &Source) -> Result<TileSet, Vec<Diagnostic>> {
    let root: Node = match toml::from_str(&source.text) {
        Ok(root) => root,
        Err(e) => {
            let span = e.span().unwrap_or(0..source.text.len());
            return Err(vec![Diagnostic::error(
                Code::InvalidToml,
                span,
                e.message().trim().to_string(),
            )
            .with_label("not valid TOML here")]);
        }
    };
    let mut cx = Checker {
        source,
        diags: Vec::new(),
        keys: Vec::new(),
        decls: Vec::new(),
    };
    let whole = 0..source.text.len();
    let mut tiles = Vec::new();
    let mut tile_list = None;
    if let Node::Table(entries) = root {
        let mut declared = None;
        for (key, value) in entries {
            match key.get_ref().as_str() {
                "tile" => tile_list = Some(value),
                "attributes" => declared = Some(value),
                _ => cx.unknown_key(
                    &key,
                    &["tile", "attributes"],
                    "at the top level of a tile set",
                ),
            }
        }
        // Declarations first, wherever the file writes them: the tiles are checked against them.
        if let Some(d) = declared {
            cx.declarations(d);
        }
    }
    match tile_list {
        None => cx.error(
            Code::NoTiles,
            whole,
            "this tile set has no `[[tile]]` tables",
            "no tiles",
        ),
        Some(list) => {
            let span = list.span();
            match list.into_inner() {
                Node::Array(items) if !items.is_empty() => {
                    for item in items {
                        if let Some(t) = cx.tile(item) {
                            tiles.push(t);
                        }
                    }
                }
                Node::Array(_) => {
                    cx.error(Code::NoTiles, span, "this tile set has no tiles", "empty")
                }
                other => cx.error(
                    Code::WrongType,
                    span,
                    format!(
                        "`tile` must be an array of tables, found {}",
                        other.describe()
                    ),
                    "write each tile as a `[[tile]]` table",
                ),
            }
        }
    }
    cx.set_checks();
    if cx.diags.is_empty() {
        Ok(TileSet {
            name: name.to_string(),
            tiles,
            attrs: cx.decls.into_iter().map(|(d, _)| d).collect(),
        })
    } else {
        cx.diags.sort_by_key(|d| (d.span.start, d.span.end));
        Err(cx.diags)
    }
}

/// A TOML value with the byte span of each of its parts, so that every problem can be pointed at.
#[derive(Debug)]
enum Node {
    Str(String),
    Int(i64),
    Float,
    Bool(bool),
    Datetime,
    Array(Vec<Spanned<Node>>),
    Table(Vec<(Spanned<String>, Spanned<Node>)>),
}

impl Node {
    fn describe(&self) -> &'static str {
        match self {
            Node::Str(_) => "a string",
            Node::Int(_) => "an integer",
            Node::Float => "a float",
            Node::Bool(_) => "a boolean",
            Node::Datetime => "a date-time",
            Node::Array(_) => "an array",
            Node::Table(_) => "a table",
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a TOML value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Int(i64::try_from(v).unwrap_or(i64::MAX)))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Float)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Node>>()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<String>>()? {
            if key.get_ref() == DATETIME_KEY {
                map.next_value::<de::IgnoredAny>()?;
                return Ok(Node::Datetime);
            }
            let value = map.next_value::<Spanned<Node>>()?;
            entries.push((key, value));
        }
        Ok(Node::Table(entries))
    }
}

/// The private key under which `toml` hands date-times to a visitor.
const DATETIME_KEY: &str = "$__toml_private_datetime";

const TILE_KEYS: [&str; 10] = [
    "id",
    "name",
    "count",
    "start",
    "edges",
    "cities",
    "roads",
    "fields",
    "monastery",
    "attrs",
];

/// The values of a `[[tile]]`'s keys, where they were written.
#[derive(Default)]
struct TileEntries {
    id: Option<Spanned<Node>>,
    name: Option<Spanned<Node>>,
    count: Option<Spanned<Node>>,
    start: Option<Spanned<Node>>,
    edges: Option<Spanned<Node>>,
    cities: Option<Spanned<Node>>,
    roads: Option<Spanned<Node>>,
    fields: Option<Spanned<Node>>,
    monastery: Option<Spanned<Node>>,
    /// `attrs`: the values of the set's tile attributes.
    attrs: Option<Spanned<Node>>,
}

/// A tile's own values, read: each `None` when missing or wrong; `ok` false when they disagree.
struct TileHead {
    id: Option<String>,
    name: Option<String>,
    count: Option<u32>,
    start: Option<u32>,
    monastery: Option<bool>,
    ok: bool,
}

/// What the set-wide checks need of every tile, even of one with mistakes.
struct TileKey {
    id: String,
    id_span: Range<usize>,
    start: u32,
    start_span: Range<usize>,
}

struct Checker<'a> {
    source: &'a Source,
    diags: Vec<Diagnostic>,
    keys: Vec<TileKey>,
    /// The attributes the set declares, each with the span of its name.
    decls: Vec<(AttrDecl, Range<usize>)>,
}

/// What the segments of one tile have claimed so far, and whether the tile is still sound.
struct Marks {
    ok: bool,
    /// Every `sides` and `halves` entry could be read.
    all_read: bool,
    side_owner: [Option<FeatureKind>; 4],
    half_owner: [bool; 8],
    city_count: usize,
}

impl Checker<'_> {
    fn error(
        &mut self,
        code: Code,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::error(code, span, message).with_label(label));
    }

    fn unknown_key(&mut self, key: &Spanned<String>, known: &[&str], place: &str) {
        let mut d = Diagnostic::error(
            Code::UnknownKey,
            key.span(),
            format!("unknown key `{}` {place}", key.get_ref()),
        )
        .with_label("not a known key");
        match did_you_mean(key.get_ref(), known.iter().copied()) {
            Some(s) => d = d.with_note(format!("did you mean `{s}`?")),
            None => d = d.with_note(format!("known keys: {}", known.join(", "))),
        }
        self.diags.push(d);
    }

    fn wrong_type(&mut self, key: &str, value: &Spanned<Node>, expected: &str) {
        self.error(
            Code::WrongType,
            value.span(),
            format!(
                "`{key}` must be {expected}, found {}",
                value.get_ref().describe()
            ),
            format!("expected {expected}"),
        );
    }

    fn string(&mut self, key: &str, value: &Spanned<Node>) -> Option<String> {
        match value.get_ref() {
            Node::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(key, value, "a string");
                None
            }
        }
    }

    fn boolean(&mut self, key: &str, value: &Spanned<Node>) -> Option<bool> {
        match value.get_ref() {
            Node::Bool(b) => Some(*b),
            _ => {
                self.wrong_type(key, value, "`true` or `false`");
                None
            }
        }
    }

    fn number(&mut self, key: &str, value: &Spanned<Node>, min: u32, max: u32) -> Option<u32> {
        match value.get_ref() {
            Node::Int(n) => match u32::try_from(*n) {
                Ok(n) if (min..=max).contains(&n) => Some(n),
                _ if *n > i64::from(max) => {
                    self.error(
                        Code::BadValue,
                        value.span(),
                        format!("`{key}` is {n}; it may be at most {max}"),
                        format!("expected at most {max}"),
                    );
                    None
                }
                _ => {
                    self.error(
                        Code::BadValue,
                        value.span(),
                        format!("`{key}` must be at least {min}, found {n}"),
                        format!("expected a whole number of at least {min}"),
                    );
                    None
                }
            },
            _ => {
                self.wrong_type(key, value, "an integer");
                None
            }
        }
    }

    /// The tables of an array of tables (`cities`, `roads`, `fields`).
    fn tables(&mut self, key: &str, value: Spanned<Node>) -> Vec<Spanned<TableEntries>> {
        let span = value.span();
        let Node::Array(items) = value.into_inner() else {
            self.error(
                Code::WrongType,
                span,
                format!("`{key}` must be an array of tables"),
                "expected `[{ ... }, ...]`",
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            let span = item.span();
            match item.into_inner() {
                Node::Table(entries) => out.push(Spanned::new(span, entries)),
                other => self.error(
                    Code::WrongType,
                    span,
                    format!(
                        "each entry of `{key}` must be a table, found {}",
                        other.describe()
                    ),
                    "expected `{ ... }`",
                ),
            }
        }
        out
    }

    /// Side letters such as `"NE"`: a bit set, or `None` after reporting.
    fn sides(&mut self, value: &Spanned<Node>) -> Option<u8> {
        let s = self.string("sides", value)?;
        if s.is_empty() {
            self.error(
                Code::TileShape,
                value.span(),
                "`sides` must name at least one side",
                "expected letters from `NESW`",
            );
            return None;
        }
        let mut bits = 0u8;
        let mut ok = true;
        for c in s.chars() {
            match side_from_char(c) {
                Some(side) if bits & (1 << side) != 0 => {
                    self.error(
                        Code::TileShape,
                        value.span(),
                        format!("side `{c}` is named twice"),
                        "each side once",
                    );
                    ok = false;
                }
                Some(side) => bits |= 1 << side,
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            Code::TileShape,
                            value.span(),
                            format!("`{c}` is not a side"),
                        )
                        .with_label("expected letters from `NESW`")
                        .with_note("sides are N, E, S and W (clockwise from north)"),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(bits)
    }

    /// Reads one `[[tile]]`: its keys, then its cities and roads, its fields, and the sides and
    /// half-edges no segment claims. `None` when anything is wrong (every problem is reported).
    fn tile(&mut self, item: Spanned<Node>) -> Option<TileType> {
        let tile_span = item.span();
        let Node::Table(entries) = item.into_inner() else {
            self.error(
                Code::WrongType,
                tile_span,
                "a tile must be a table",
                "expected `[[tile]]`",
            );
            return None;
        };
        let mut v = self.tile_entries(entries);
        self.required_keys(&v, &tile_span);
        let head = self.tile_head(&v);
        let edges = v.edges.as_ref().and_then(|e| self.edges(e));
        self.remember_key(&head, &v, &tile_span);
        let mut marks = Marks {
            ok: head.ok,
            all_read: true,
            side_owner: [None; 4],
            half_owner: [false; 8],
            city_count: 0,
        };
        let mut segments = self.segments(&mut v, edges, &mut marks);
        if head.monastery == Some(true) {
            segments.push(Segment {
                kind: FeatureKind::Monastery,
                sides: 0,
                halves: 0,
                shields: 0,
                adjacent_cities: Vec::new(),
                attrs: Attrs::new(),
            });
        }
        let mut attrs = Attrs::new();
        if let Some(value) = v.attrs.take() {
            self.attributes(AttrOn::Tile, value, &mut attrs);
        }
        let TileHead {
            id: Some(id),
            name: Some(name),
            count: Some(count),
            start: Some(start),
            monastery: Some(_),
            ..
        } = head
        else {
            return None;
        };
        let edges = edges?;
        if !marks.ok {
            return None;
        }
        Some(TileType {
            id,
            name,
            count,
            start,
            edges,
            segments,
            attrs,
        })
    }

    /// Sorts a tile's entries by key; an unknown key is reported.
    fn tile_entries(&mut self, entries: TableEntries) -> TileEntries {
        let mut v = TileEntries::default();
        for (key, value) in entries {
            let slot = match key.get_ref().as_str() {
                "id" => &mut v.id,
                "name" => &mut v.name,
                "count" => &mut v.count,
                "start" => &mut v.start,
                "edges" => &mut v.edges,
                "cities" => &mut v.cities,
                "roads" => &mut v.roads,
                "fields" => &mut v.fields,
                "monastery" => &mut v.monastery,
                "attrs" => &mut v.attrs,
                _ => {
                    self.unknown_key(&key, &TILE_KEYS, "in a tile");
                    continue;
                }
            };
            *slot = Some(value);
        }
        v
    }

    /// `id`, `count` and `edges` are required; a missing one is reported at the `[[tile]]` header
    /// when there is one, not at the whole table.
    fn required_keys(&mut self, v: &TileEntries, tile_span: &Range<usize>) {
        let header_span = match self.source.text.get(tile_span.clone()) {
            Some(t) if t.starts_with("[[") => {
                let len = t.find(']').map_or(t.len(), |i| (i + 2).min(t.len()));
                tile_span.start..tile_span.start + len
            }
            _ => tile_span.clone(),
        };
        for (key, value) in [("id", &v.id), ("count", &v.count), ("edges", &v.edges)] {
            if value.is_none() {
                self.error(
                    Code::MissingKey,
                    header_span.clone(),
                    format!("this tile has no `{key}`"),
                    format!("`{key}` is required"),
                );
            }
        }
    }

    /// A tile's id, name, count, start tiles and monastery, each checked.
    fn tile_head(&mut self, v: &TileEntries) -> TileHead {
        let id = v.id.as_ref().and_then(|v| {
            let s = self.string("id", v)?;
            if s.trim().is_empty() {
                self.error(Code::BadValue, v.span(), "`id` must not be empty", "expected a short id");
                return None;
            }
            if let Some(why) = crate::paths::not_a_name(&s) {
                self.error(
                    Code::InvalidName, v.span(),
                    format!("a tile's id must be a name: {why}"),
                    "letters, digits, `-` and `_`: an id is part of every option that places the tile",
                );
                return None;
            }
            Some(s)
        });
        let name = match &v.name {
            Some(v) => self.string("name", v),
            None => id.clone(),
        };
        let count = v
            .count
            .as_ref()
            .and_then(|v| self.number("count", v, 1, MAX_COUNT));
        let start = match &v.start {
            Some(v) => self.number("start", v, 0, MAX_COUNT),
            None => Some(0),
        };
        let mut ok = true;
        if let (Some(count), Some(start), Some(v)) = (count, start, &v.start) {
            if start > count {
                self.error(
                    Code::BadValue,
                    v.span(),
                    format!("`start` is {start} but the tile's `count` is only {count}"),
                    "start tiles are counted in `count`",
                );
                ok = false;
            }
        }
        let monastery = match &v.monastery {
            Some(v) => self.boolean("monastery", v),
            None => Some(false),
        };
        TileHead {
            id,
            name,
            count,
            start,
            monastery,
            ok,
        }
    }

    /// Keeps what the set-wide checks need of a tile with an id (its start tiles, where written).
    fn remember_key(&mut self, head: &TileHead, v: &TileEntries, tile_span: &Range<usize>) {
        let Some(id) = &head.id else { return };
        let id_span = v.id.as_ref().map_or(tile_span.clone(), |v| v.span());
        self.keys.push(TileKey {
            id: id.clone(),
            id_span: id_span.clone(),
            start: head.start.unwrap_or(0),
            start_span: v.start.as_ref().map_or(id_span, |v| v.span()),
        });
    }

    /// The tile's segments: cities, then roads, then fields; then the sides and halves no segment
    /// claims, reported only when every `sides` and `halves` entry could be read (otherwise the real
    /// mistake is the unreadable entry).
    fn segments(
        &mut self,
        v: &mut TileEntries,
        edges: Option<[EdgeKind; 4]>,
        marks: &mut Marks,
    ) -> Vec<Segment> {
        let mut segments = Vec::new();
        for (key, kind, value) in [
            ("cities", FeatureKind::City, v.cities.take()),
            ("roads", FeatureKind::Road, v.roads.take()),
        ] {
            let Some(value) = value else { continue };
            for seg in self.tables(key, value) {
                segments.extend(self.city_or_road(key, kind, seg, edges, marks));
            }
        }
        if let Some(value) = v.fields.take() {
            for seg in self.tables("fields", value) {
                segments.push(self.field_segment(seg, edges, marks));
            }
        }
        if let (Some(edges), Some(ev), true) = (edges, &v.edges, marks.all_read) {
            self.unclaimed(edges, &ev.span(), marks);
        }
        segments
    }

    /// One city or road segment: its `sides` (and a city's `shield`).
    fn city_or_road(
        &mut self,
        key: &str,
        kind: FeatureKind,
        seg: Spanned<TableEntries>,
        edges: Option<[EdgeKind; 4]>,
        marks: &mut Marks,
    ) -> Option<Segment> {
        let seg_span = seg.span();
        let mut sides = None;
        let mut has_sides = false;
        let mut shields = 0u8;
        let mut attrs = Attrs::new();
        let on = if kind == FeatureKind::City {
            AttrOn::City
        } else {
            AttrOn::Road
        };
        for (k, v) in seg.into_inner() {
            match (k.get_ref().as_str(), kind) {
                ("sides", _) => {
                    has_sides = true;
                    sides = self.sides(&v).map(|bits| (bits, v.span()));
                    marks.all_read &= sides.is_some();
                }
                ("shield", FeatureKind::City) => {
                    if self.boolean("shield", &v) == Some(true) {
                        shields = 1;
                    }
                }
                ("attrs", _) => self.attributes(on, v, &mut attrs),
                _ => {
                    let known: &[&str] = if kind == FeatureKind::City {
                        &["sides", "shield", "attrs"]
                    } else {
                        &["sides", "attrs"]
                    };
                    self.unknown_key(&k, known, &format!("in one of the tile's {key}"));
                }
            }
        }
        let Some((bits, sides_span)) = sides else {
            marks.all_read = false;
            if !has_sides {
                self.error(
                    Code::MissingKey,
                    seg_span,
                    format!("this {} has no `sides`", kind.name()),
                    "`sides` is required",
                );
            }
            marks.ok = false;
            return None;
        };
        self.claim_sides(kind, bits, &sides_span, edges, marks);
        if kind == FeatureKind::City {
            marks.city_count += 1;
        }
        Some(Segment {
            kind,
            sides: bits,
            halves: 0,
            shields,
            adjacent_cities: Vec::new(),
            attrs,
        })
    }

    /// Claims a segment's sides: each must be of its kind in `edges` and in no other segment.
    fn claim_sides(
        &mut self,
        kind: FeatureKind,
        bits: u8,
        sides_span: &Range<usize>,
        edges: Option<[EdgeKind; 4]>,
        marks: &mut Marks,
    ) {
        for side in 0..4 {
            if bits & (1 << side) == 0 {
                continue;
            }
            let want = match kind {
                FeatureKind::City => EdgeKind::City,
                _ => EdgeKind::Road,
            };
            if let Some(edges) = edges {
                if edges[side] != want {
                    self.diags.push(
                        Diagnostic::error(
                            Code::TileShape,
                            sides_span.clone(),
                            format!(
                                "side {} is in a {} but `edges` says `{}` there",
                                SIDE_NAMES[side],
                                kind.name(),
                                edges[side].letter()
                            ),
                        )
                        .with_label(format!("`edges` wants `{}` here", want.letter()))
                        .with_note(format!(
                            "a {} side is written `{}` in `edges`",
                            kind.name(),
                            want.letter()
                        )),
                    );
                    marks.ok = false;
                    continue;
                }
            }
            if marks.side_owner[side].is_some() {
                self.error(
                    Code::TileShape,
                    sides_span.clone(),
                    format!(
                        "side {} is already in another {} segment",
                        SIDE_NAMES[side],
                        kind.name()
                    ),
                    "each side belongs to exactly one segment",
                );
                marks.ok = false;
            }
            marks.side_owner[side] = Some(kind);
        }
    }

    /// One field segment: its `halves` and the `cities` it touches.
    fn field_segment(
        &mut self,
        seg: Spanned<TableEntries>,
        edges: Option<[EdgeKind; 4]>,
        marks: &mut Marks,
    ) -> Segment {
        let seg_span = seg.span();
        let mut halves = 0u8;
        let mut cities = Vec::new();
        let mut attrs = Attrs::new();
        for (k, v) in seg.into_inner() {
            match k.get_ref().as_str() {
                "halves" => {
                    halves = self.halves(
                        v,
                        edges,
                        &mut marks.half_owner,
                        &mut marks.ok,
                        &mut marks.all_read,
                    )
                }
                "cities" => cities = self.field_cities(v, marks.city_count, &mut marks.ok),
                "attrs" => self.attributes(AttrOn::Field, v, &mut attrs),
                _ => self.unknown_key(&k, &["halves", "cities", "attrs"], "in a field"),
            }
        }
        if halves == 0 && cities.is_empty() {
            self.error(
                Code::TileShape,
                seg_span,
                "this field holds no half-edges and touches no city",
                "an empty field",
            );
            marks.ok = false;
        }
        Segment {
            kind: FeatureKind::Field,
            sides: 0,
            halves,
            shields: 0,
            adjacent_cities: cities,
            attrs,
        }
    }

    /// Reports road and city sides no segment holds, and half-edges in no field.
    fn unclaimed(&mut self, edges: [EdgeKind; 4], ev: &Range<usize>, marks: &mut Marks) {
        for side in 0..4 {
            let kind = edges[side];
            if kind != EdgeKind::Field && marks.side_owner[side].is_none() {
                self.error(
                    Code::TileShape,
                    ev.clone(),
                    format!(
                        "side {} is a {} but no {} segment holds it",
                        SIDE_NAMES[side],
                        kind.feature().name(),
                        kind.feature().name()
                    ),
                    format!(
                        "add `{}` to one of `{}`",
                        SIDE_NAMES[side],
                        if kind == EdgeKind::City {
                            "cities"
                        } else {
                            "roads"
                        }
                    ),
                );
                marks.ok = false;
            }
        }
        let unclaimed: Vec<&str> = (0..8)
            .filter(|&h| edges[h / 2] != EdgeKind::City && !marks.half_owner[h])
            .map(|h| HALF_NAMES[h])
            .collect();
        if !unclaimed.is_empty() {
            let list = unclaimed.join(", ");
            let (what, verb) = if unclaimed.len() == 1 {
                ("half-edge", "is")
            } else {
                ("half-edges", "are")
            };
            self.diags.push(
                Diagnostic::error(
                    Code::TileShape,
                    ev.clone(),
                    format!("{what} {list} {verb} in no field"),
                )
                .with_label(format!("add {list} to `fields`"))
                .with_note("both halves of every road or field side belong to exactly one field"),
            );
            marks.ok = false;
        }
    }

    fn edges(&mut self, value: &Spanned<Node>) -> Option<[EdgeKind; 4]> {
        let s = self.string("edges", value)?;
        let mut out = [EdgeKind::Field; 4];
        let mut ok = true;
        for (i, c) in s.chars().enumerate() {
            match EdgeKind::from_char(c) {
                Some(k) if i < 4 => out[i] = k,
                Some(_) => {}
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            Code::TileShape,
                            value.span(),
                            format!("`{c}` is not an edge kind"),
                        )
                        .with_label("expected four letters from `C`, `R`, `F`")
                        .with_note("C city, R road, F field, for the sides N E S W in that order"),
                    );
                    ok = false;
                }
            }
        }
        let n = s.chars().count();
        if n != 4 {
            self.diags.push(
                Diagnostic::error(
                    Code::BadValue,
                    value.span(),
                    format!("`edges` must have 4 letters, found {n}"),
                )
                .with_label("one letter per side: N E S W")
                .with_note("C city, R road, F field"),
            );
            ok = false;
        }
        ok.then_some(out)
    }

    fn halves(
        &mut self,
        value: Spanned<Node>,
        edges: Option<[EdgeKind; 4]>,
        owner: &mut [bool; 8],
        ok: &mut bool,
        all_read: &mut bool,
    ) -> u8 {
        let span = value.span();
        let Node::Array(items) = value.into_inner() else {
            self.error(
                Code::WrongType,
                span,
                "`halves` must be an array of half-edge names",
                "expected `[\"Nw\", ...]`",
            );
            *ok = false;
            *all_read = false;
            return 0;
        };
        let mut bits = 0u8;
        for item in items {
            let Some(name) = self.string("halves", &item) else {
                *ok = false;
                *all_read = false;
                continue;
            };
            let Some(h) = half_from_name(&name) else {
                let mut d = Diagnostic::error(
                    Code::TileShape,
                    item.span(),
                    format!("unknown half-edge `{name}`"),
                )
                .with_label("not a half-edge name");
                d = match did_you_mean(&name, HALF_NAMES) {
                    Some(s) => d.with_note(format!("did you mean `{s}`?")),
                    None => d.with_note(format!("half-edges are {}", HALF_NAMES.join(" "))),
                };
                self.diags.push(d);
                *ok = false;
                *all_read = false;
                continue;
            };
            let side = h / 2;
            if edges.is_some_and(|e| e[side] == EdgeKind::City) {
                self.error(
                    Code::TileShape,
                    item.span(),
                    format!(
                        "half-edge {name} is on side {}, which is a city",
                        SIDE_NAMES[side]
                    ),
                    "a city side has no field halves",
                );
                *ok = false;
                continue;
            }
            if owner[h] {
                self.error(
                    Code::TileShape,
                    item.span(),
                    format!("half-edge {name} is already in a field"),
                    "each half-edge belongs to exactly one field",
                );
                *ok = false;
                continue;
            }
            owner[h] = true;
            bits |= 1 << h;
        }
        bits
    }

    fn field_cities(&mut self, value: Spanned<Node>, city_count: usize, ok: &mut bool) -> Vec<u8> {
        let span = value.span();
        let Node::Array(items) = value.into_inner() else {
            self.error(
                Code::WrongType,
                span,
                "`cities` of a field must be an array of city indices",
                "expected `[0, ...]`",
            );
            *ok = false;
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            match item.get_ref() {
                Node::Int(i) if usize::try_from(*i).is_ok_and(|i| i < city_count) => {
                    // `city_count` is at most a handful, so the index fits in a u8.
                    let i = u8::try_from(*i).unwrap_or(u8::MAX);
                    if out.contains(&i) {
                        self.error(
                            Code::TileShape,
                            item.span(),
                            format!("city {i} is named twice"),
                            "each city once",
                        );
                        *ok = false;
                    } else {
                        out.push(i);
                    }
                }
                Node::Int(i) => {
                    let valid = match city_count {
                        0 => "this tile has no cities".to_string(),
                        1 => "the only city is 0".to_string(),
                        n => format!("cities are numbered 0 to {}", n - 1),
                    };
                    self.diags.push(
                        Diagnostic::error(
                            Code::TileShape,
                            item.span(),
                            format!("there is no city {i} on this tile"),
                        )
                        .with_label("not an index into this tile's `cities`")
                        .with_note(valid),
                    );
                    *ok = false;
                }
                _ => {
                    self.wrong_type("cities", &item, "an integer (an index into `cities`)");
                    *ok = false;
                }
            }
        }
        out
    }

    fn set_checks(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        let mut first_start: Option<&TileKey> = None;
        for (n, key) in keys.iter().enumerate() {
            if let Some(first) = keys[..n].iter().find(|k| k.id == key.id) {
                let (line, col) = self.source.line_col(first.id_span.start);
                self.diags.push(
                    Diagnostic::error(
                        Code::TileTwice,
                        key.id_span.clone(),
                        format!("duplicate tile id `{}`", key.id),
                    )
                    .with_label("already used")
                    .with_note(format!("first used at {}:{line}:{col}", self.source.name)),
                );
            }
            if key.start == 0 {
                continue;
            }
            if key.start > 1 {
                self.error(
                    Code::TileTwice,
                    key.start_span.clone(),
                    "a tile set has at most one start tile",
                    "expected `start = 1`",
                );
            }
            match first_start {
                Some(first) => {
                    let (line, col) = self.source.line_col(first.start_span.start);
                    self.diags.push(
                        Diagnostic::error(
                            Code::TileTwice,
                            key.start_span.clone(),
                            "a second tile type is marked as the start tile",
                        )
                        .with_label("second start tile")
                        .with_note(format!(
                            "the start tile is already `{}` at {}:{line}:{col}",
                            first.id, self.source.name
                        )),
                    );
                }
                None => first_start = Some(key),
            }
        }
    }
}

type TableEntries = Vec<(Spanned<String>, Spanned<Node>)>;
