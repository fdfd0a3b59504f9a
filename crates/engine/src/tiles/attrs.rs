//! What a tile set prints on its tiles beyond their shape: the attributes it declares in
//! `[attributes]` (an inn on a road, a cathedral in a city, goods on a city, anything a set prints),
//! each on a tile or on the segments of one kind, with a type; and the values a tile or a segment
//! gives them, each checked against its declaration. The engine never reads them: rules do.

use super::{Checker, Node};
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::map::AttrValue;
use toml::Spanned;

/// Where an attribute is written: on a tile, or on each segment of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AttrOn {
    Tile,
    City,
    Road,
    Field,
}

impl AttrOn {
    pub const NAMES: [(&'static str, AttrOn); 4] = [
        ("tile", AttrOn::Tile),
        ("city", AttrOn::City),
        ("road", AttrOn::Road),
        ("field", AttrOn::Field),
    ];

    pub fn name(self) -> &'static str {
        match self {
            AttrOn::Tile => "tile",
            AttrOn::City => "city",
            AttrOn::Road => "road",
            AttrOn::Field => "field",
        }
    }

    /// Where it is written, for a message: "on a tile", "on a road".
    pub fn place(self) -> String {
        format!("on a {}", self.name())
    }

    /// The segment attribute's feature kind; `None` for a tile's own attribute.
    pub fn kind(self) -> Option<crate::geometry::FeatureKind> {
        use crate::geometry::FeatureKind;
        match self {
            AttrOn::Tile => None,
            AttrOn::City => Some(FeatureKind::City),
            AttrOn::Road => Some(FeatureKind::Road),
            AttrOn::Field => Some(FeatureKind::Field),
        }
    }
}

/// An attribute's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AttrType {
    Bool,
    Int,
    Str,
}

impl AttrType {
    pub const NAMES: [(&'static str, AttrType); 3] = [
        ("bool", AttrType::Bool),
        ("int", AttrType::Int),
        ("string", AttrType::Str),
    ];

    pub fn name(self) -> &'static str {
        match self {
            AttrType::Bool => "bool",
            AttrType::Int => "int",
            AttrType::Str => "string",
        }
    }

    /// How a value of it is written, for a message.
    fn written(self) -> &'static str {
        match self {
            AttrType::Bool => "`true` or `false`",
            AttrType::Int => "an integer",
            AttrType::Str => "a string",
        }
    }
}

/// One attribute a tile set declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrDecl {
    pub name: String,
    pub on: AttrOn,
    pub ty: AttrType,
    /// What it stands for, for people (`doc = "…"`; may be empty).
    pub doc: String,
}

/// The attributes a tile or a segment gives a value, in the order written.
pub type Attrs = Vec<(String, AttrValue)>;

/// The value `attrs` gives attribute `name`, if any.
pub fn attr_value<'a>(attrs: &'a Attrs, name: &str) -> Option<&'a AttrValue> {
    attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

const DECL_KEYS: [&str; 3] = ["on", "type", "doc"];

impl Checker<'_> {
    /// Reads the `[attributes]` table: `NAME = { on = "road", type = "bool", doc = "…" }` each.
    pub(super) fn declarations(&mut self, value: Spanned<Node>) {
        let span = value.span();
        let Node::Table(entries) = value.into_inner() else {
            self.error(
                Code::WrongType,
                span,
                "`attributes` must be a table",
                "expected `[attributes]` and lines `name = { on = \"road\", type = \"bool\" }`",
            );
            return;
        };
        for (name, decl) in entries {
            if let Some(d) = self.declaration(&name, decl) {
                self.decls.push((d, name.span()));
            }
        }
    }

    /// One declaration; `None` after reporting its problems.
    fn declaration(&mut self, name: &Spanned<String>, decl: Spanned<Node>) -> Option<AttrDecl> {
        let span = decl.span();
        let n = name.get_ref();
        let ident = n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ident {
            self.error(
                Code::BadValue,
                name.span(),
                format!("`{n}` cannot name an attribute"),
                "a letter, then letters, digits and `_`: rules read it as `feature.NAME`",
            );
        }
        let Node::Table(keys) = decl.into_inner() else {
            self.error(
                Code::WrongType,
                span,
                format!("attribute `{n}` must be declared by a table"),
                "expected `{ on = \"road\", type = \"bool\" }`",
            );
            return None;
        };
        let (mut on, mut ty, mut doc) = (None, None, String::new());
        let mut seen = (false, false);
        for (k, v) in keys {
            match k.get_ref().as_str() {
                "on" => {
                    seen.0 = true;
                    on = self.one_of("on", &v, &AttrOn::NAMES);
                }
                "type" => {
                    seen.1 = true;
                    ty = self.one_of("type", &v, &AttrType::NAMES);
                }
                "doc" => doc = self.string("doc", &v).unwrap_or_default(),
                _ => self.unknown_key(&k, &DECL_KEYS, &format!("in the declaration of `{n}`")),
            }
        }
        for (given, key) in [(seen.0, "on"), (seen.1, "type")] {
            if !given {
                self.error(
                    Code::MissingKey,
                    span.clone(),
                    format!("the declaration of `{n}` has no `{key}`"),
                    format!("`{key}` is required"),
                );
            }
        }
        let on = on?;
        if self.decls.iter().any(|(d, _)| d.name == *n) {
            self.error(
                Code::TileTwice,
                name.span(),
                format!("attribute `{n}` is declared twice"),
                "declared above",
            );
            return None;
        }
        ident.then_some(AttrDecl {
            name: n.clone(),
            on,
            ty: ty?,
            doc,
        })
    }

    /// A string naming one of `names`.
    fn one_of<T: Copy>(&mut self, key: &str, v: &Spanned<Node>, names: &[(&str, T)]) -> Option<T> {
        let s = self.string(key, v)?;
        if let Some((_, x)) = names.iter().find(|(n, _)| *n == s) {
            return Some(*x);
        }
        let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
        self.diags.push(
            Diagnostic::error(Code::BadValue, v.span(), format!("`{key}` cannot be `{s}`"))
                .with_label(format!("expected one of {}", all.join(", ")))
                .with_note(format!("`{key}` is one of: {}", all.join(", "))),
        );
        None
    }

    /// A tile's or segment's `attrs = { … }`: each a declared attribute of that place.
    pub(super) fn attributes(&mut self, on: AttrOn, value: Spanned<Node>, attrs: &mut Attrs) {
        let span = value.span();
        let Node::Table(entries) = value.into_inner() else {
            self.error(
                Code::WrongType,
                span,
                "`attrs` must be a table",
                "expected `{ name = value, ... }`",
            );
            return;
        };
        for (k, v) in entries {
            self.attribute(on, &k, &v, attrs);
        }
    }

    /// One attribute's value: of a declared attribute of that place, of its type; kept in `attrs`.
    fn attribute(
        &mut self,
        on: AttrOn,
        key: &Spanned<String>,
        value: &Spanned<Node>,
        attrs: &mut Attrs,
    ) {
        let name = key.get_ref();
        let Some((decl, _)) = self.decls.iter().find(|(d, _)| d.name == *name) else {
            let known: Vec<&str> = self
                .decls
                .iter()
                .filter(|(d, _)| d.on == on)
                .map(|(d, _)| d.name.as_str())
                .collect();
            let mut d = Diagnostic::error(
                Code::UnknownKey,
                key.span(),
                format!("the set declares no attribute `{name}` {}", on.place()),
            )
            .with_label("not a declared attribute");
            d = match did_you_mean(name, known.iter().copied()) {
                Some(s) => d.with_note(format!("did you mean `{s}`?")),
                None if known.is_empty() => d,
                None => d.with_note(format!(
                    "attributes declared {}: {}",
                    on.place(),
                    known.join(", ")
                )),
            };
            self.diags.push(d.with_note(format!(
                "a set declares what its tiles print: `[attributes]` then `{name} = {{ on = \"{}\", type = \"bool\" }}`",
                on.name()
            )));
            return;
        };
        let (ty, decl_on) = (decl.ty, decl.on);
        if decl_on != on {
            self.error(
                Code::UnknownKey,
                key.span(),
                format!(
                    "attribute `{name}` is declared {}, not {}",
                    decl_on.place(),
                    on.place()
                ),
                format!("write it {}", decl_on.place()),
            );
            return;
        }
        let got = match (ty, value.get_ref()) {
            (AttrType::Bool, Node::Bool(b)) => AttrValue::Bool(*b),
            (AttrType::Int, Node::Int(i)) => AttrValue::Int(*i),
            (AttrType::Str, Node::Str(s)) => AttrValue::Str(s.clone()),
            (_, other) => {
                self.error(
                    Code::WrongType,
                    value.span(),
                    format!(
                        "attribute `{name}` is declared `{}`, found {}",
                        ty.name(),
                        other.describe()
                    ),
                    format!("expected {}", ty.written()),
                );
                return;
            }
        };
        if attrs.iter().any(|(n, _)| n == name) {
            return;
        }
        attrs.push((name.clone(), got));
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::Source;
    use crate::map::AttrValue;
    use crate::tiles::{attr_value, parse_tile_set, AttrOn, AttrType};

    const HEAD: &str = r#"[attributes]
inn = { on = "road", type = "bool", doc = "an inn" }
goods = { on = "city", type = "string" }
level = { on = "tile", type = "int" }
"#;

    fn tile(extra: &str, road: &str, city: &str) -> String {
        format!(
            "{HEAD}\n[[tile]]\nid = \"A\"\ncount = 1\nedges = \"CRFR\"{extra}\ncities = [{{ sides = \"N\"{city} }}]\n\
             roads = [{{ sides = \"EW\"{road} }}]\nfields = [{{ halves = [\"En\", \"Wn\"], cities = [0] }},\n\
             {{ halves = [\"Es\", \"Se\", \"Sw\", \"Ws\"] }}]\n"
        )
    }

    /// Every diagnostic as `line:col message`, in order.
    fn problems(text: &str) -> Vec<String> {
        let src = Source::new("t.toml", text);
        match parse_tile_set("t", &src) {
            Ok(_) => Vec::new(),
            Err(ds) => ds
                .iter()
                .map(|d| {
                    let (l, c) = src.line_col(d.span.start);
                    format!("{l}:{c} {} {}", d.code.as_str(), d.message)
                })
                .collect(),
        }
    }

    #[test]
    fn a_set_declares_attributes_and_its_tiles_carry_them() {
        let text = tile(
            "\nattrs = { level = 3 }",
            ", attrs = { inn = true }",
            ", attrs = { goods = \"red\" }",
        );
        let set = parse_tile_set("t", &Source::new("t.toml", text)).expect("a good set");
        assert_eq!(set.attrs.len(), 3);
        assert_eq!(
            (set.attrs[0].on, set.attrs[0].ty),
            (AttrOn::Road, AttrType::Bool)
        );
        assert_eq!(set.attrs[0].doc, "an inn");
        let t = &set.tiles[0];
        assert_eq!(attr_value(&t.attrs, "level"), Some(&AttrValue::Int(3)));
        assert_eq!(
            attr_value(&t.segments[0].attrs, "goods"),
            Some(&AttrValue::Str("red".into()))
        );
        assert_eq!(
            attr_value(&t.segments[1].attrs, "inn"),
            Some(&AttrValue::Bool(true))
        );
        assert_eq!(attr_value(&t.segments[2].attrs, "inn"), None);
    }

    #[test]
    fn a_wrong_type_an_undeclared_attribute_and_the_wrong_place_are_errors_at_their_place() {
        // Line 10 is the tile's `level`, 11 its cities, 12 its roads; the columns are the keys' and values'.
        let text = tile(
            "\nattrs = { level = \"high\" }",
            ", attrs = { inn = 1, inns = true }",
            ", attrs = { inn = true }",
        );
        assert_eq!(
            problems(&text),
            [
                "10:19 E0603 attribute `level` is declared `int`, found a string",
                "11:36 E0602 attribute `inn` is declared on a road, not on a city",
                "12:42 E0603 attribute `inn` is declared `bool`, found an integer",
                "12:45 E0602 the set declares no attribute `inns` on a road",
            ]
        );
    }

    #[test]
    fn a_declaration_is_checked() {
        let text = "[attributes]\ninn = { on = \"bridge\", type = \"bool\" }\nsides = { on = \"road\", type = \"int\" }\n\
                    goods = { on = \"city\" }\n2x = { on = \"tile\", type = \"colour\", dock = \"\" }\n\
                    [[tile]]\nid = \"B\"\ncount = 1\nedges = \"FFFF\"\nfields = [{ halves = [\"Nw\", \"Ne\", \"En\", \"Es\", \"Se\", \"Sw\", \"Ws\", \"Wn\"] }]\n";
        assert_eq!(
            problems(text),
            [
                "2:14 E0605 `on` cannot be `bridge`",
                "4:9 E0604 the declaration of `goods` has no `type`",
                "5:1 E0605 `2x` cannot name an attribute",
                "5:28 E0605 `type` cannot be `colour`",
                "5:38 E0602 unknown key `dock` in the declaration of `2x`",
            ]
        );
    }
}
