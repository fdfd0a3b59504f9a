//! What the map tells the checker: the attributes of its squares (their names and types) and whether
//! it has border exits; the `map` header key that names it; and `square.NAME` attribute reads and
//! `squares_with("NAME", …)` checked against it.

use super::header::HeaderUse;
use super::{Checker, MapKnowledge, MapLoader};
use crate::ast::{self, ExprKind};
use crate::builtins::{self, Base, HeaderKey, Ty};
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir::{self, Expr, MapRef, Program, Src, Value};
use crate::map::{AttrValue, MapBoard};
use std::collections::BTreeMap;

impl Checker {
    /// Reads the `map` header key and loads the map it names (no key: nothing is known of the map).
    pub(super) fn load_map(&mut self, header: &[HeaderUse<'_>], maps: MapLoader<'_>) {
        self.map = Some(MapKnowledge::Unknown);
        for (f, e, key) in header {
            if *key != HeaderKey::Map {
                continue;
            }
            self.file = *f;
            match &e.value.kind {
                ExprKind::Name(n) if n == "unbounded" => {
                    self.prog.header.map = Some(MapRef::Unbounded);
                    self.board = None;
                    self.map = Some(MapKnowledge::Known {
                        name: "unbounded".into(),
                        attrs: BTreeMap::new(),
                        not_colours: BTreeMap::new(),
                        exits: 0,
                        starts: None,
                    });
                }
                ExprKind::Str(s) => {
                    self.prog.header.map = Some(MapRef::Named(s.clone()));
                    let src = self.files[*f].clone();
                    match maps(s, &src) {
                        Ok(board) => {
                            self.map = Some(self.map_knowledge(&board));
                            self.board = Some((src.name.clone(), board));
                        }
                        Err(msg) => self.err(
                            Diagnostic::error(
                                Code::MapNotLoaded,
                                e.value.span.clone(),
                                format!("cannot load map `{s}`"),
                            )
                            .with_label("this map")
                            .with_note(msg),
                        ),
                    }
                }
                _ => self.err(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        e.value.span.clone(),
                        "`map` must be a map name in quotes or `unbounded`",
                    )
                    .with_label("not a map name"),
                ),
            }
        }
    }

    /// Whether the variant plays on the endless table (`map = unbounded`): no map squares exist.
    pub(super) fn on_endless_table(&self) -> bool {
        self.prog.header.map == Some(MapRef::Unbounded)
    }

    /// What the checker knows of a loaded map.
    fn map_knowledge(&self, board: &MapBoard) -> MapKnowledge {
        let attrs = attribute_types(board, &self.prog.colours);
        MapKnowledge::Known {
            name: board.name.clone(),
            attrs,
            not_colours: non_colour_values(board, &self.prog.colours),
            exits: board.exits.len(),
            starts: Some(board.starts.len()),
        }
    }

    /// A map attribute read `square.NAME`, typed by the map when it is known.
    pub(super) fn attr(&mut self, obj: Expr, name: &ast::Ident) -> (Expr, Ty) {
        let id = |prog: &mut Program, ty: Ty| -> u16 {
            match prog
                .attrs
                .iter()
                .position(|a| a.name == name.name && a.of == ir::AttrOf::Square)
            {
                Some(i) => i as u16,
                None => {
                    prog.attrs.push(ir::AttrDef {
                        name: name.name.clone(),
                        ty,
                        of: ir::AttrOf::Square,
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
                    (Expr::Attr(Box::new(obj), i, Src::NONE), ty)
                }
                None => {
                    let map = map.clone();
                    let mut cands: Vec<String> = attrs.keys().cloned().collect();
                    cands.extend(builtins::field_names(Base::Square).map(String::from));
                    let mut d = if map == "unbounded" {
                        Diagnostic::error(
                            Code::UnknownMapAttribute,
                            name.span.clone(),
                            format!(
                                "squares of the unbounded table have no attribute `{}`",
                                name.name
                            ),
                        )
                        .with_label("no map attributes here")
                    } else {
                        Diagnostic::error(
                            Code::UnknownMapAttribute,
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
                (Expr::Attr(Box::new(obj), i, Src::NONE), Ty::ANY)
            }
        }
    }
}

impl Checker {
    /// An attribute named by a string (`squares_with("NAME", …)`) must exist on the map, like `square.NAME`.
    pub(super) fn check_squares_with_attr(&mut self, attr: &str, span: &ast::Span) {
        let Some(MapKnowledge::Known {
            name: map, attrs, ..
        }) = &self.map
        else {
            return;
        };
        if attrs.contains_key(attr) {
            return;
        }
        let mut d = Diagnostic::error(
            Code::UnknownMapAttribute,
            span.clone(),
            format!("the map `{map}` has no square attribute `{attr}`"),
        )
        .with_label("no such map attribute");
        if let Some(s) = did_you_mean(attr, attrs.keys().map(|k| k.as_str())) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        self.err(d);
    }
}

/// The type of each square attribute: the one type all its values share (`colour` when every value
/// names one of `colours`), else `any`.
pub fn attribute_types(board: &MapBoard, colours: &[String]) -> BTreeMap<String, Ty> {
    let mut kinds: BTreeMap<String, Vec<&AttrValue>> = BTreeMap::new();
    for sq in &board.squares {
        for (k, v) in &sq.attrs {
            kinds.entry(k.clone()).or_default().push(v);
        }
    }
    kinds
        .into_iter()
        .map(|(k, vs)| {
            let ty = if vs.iter().all(|v| matches!(v, AttrValue::Int(_))) {
                Ty::INT
            } else if vs.iter().all(|v| matches!(v, AttrValue::Bool(_))) {
                Ty::BOOL
            } else if vs
                .iter()
                .all(|v| matches!(v, AttrValue::Str(s) if colours.contains(s)))
            {
                Ty::of(Base::Colour)
            } else if vs.iter().all(|v| matches!(v, AttrValue::Str(_))) {
                Ty::STR
            } else {
                Ty::ANY
            };
            (k, ty)
        })
        .collect()
}

/// For each attribute whose values are all strings: the values (once each, in map order) that name
/// none of `colours`.
fn non_colour_values(board: &MapBoard, colours: &[String]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut not_strings: Vec<&String> = Vec::new();
    for sq in &board.squares {
        for (k, v) in &sq.attrs {
            match v {
                AttrValue::Str(s) => {
                    let strays = out.entry(k.clone()).or_default();
                    if !colours.contains(s) && !strays.contains(s) {
                        strays.push(s.clone());
                    }
                }
                _ => not_strings.push(k),
            }
        }
    }
    out.retain(|k, _| !not_strings.contains(&k));
    out
}
