//! What the tile sets tell the checker: the attributes they declare (an inn on a road, goods on a
//! city: `maps/tiles/README.md`), with their types, and each tile type's id and name; and the reads
//! `tile.NAME` and `feature.NAME` of those attributes, typed and lowered with every tile type's
//! values, so that the interpreter reads them by index.

use super::Checker;
use crate::ast;
use crate::builtins::{Base, HeaderKey, Ty};
use crate::diag::{Code, Diagnostic};
use crate::ir::{AttrDef, AttrOf, Expr, Src, TileAttr, Value};
use crate::map::AttrValue;
use crate::tiles::{attr_value, AttrDecl, AttrType, TileSet};

/// The header's tile sets, in play order, and the attributes they declare (one declaration per
/// name: two sets declaring one name alike share it).
pub(super) struct TileKnowledge {
    sets: Vec<TileSet>,
    decls: Vec<AttrDecl>,
}

impl Checker {
    /// Reads the header's tile sets (bundled, or read by `check_tile_files`) and what they declare;
    /// two sets declaring one attribute differently are an error at the `tiles` entry. Nothing is
    /// known when a set could not be read.
    pub(super) fn learn_tile_sets(&mut self) {
        let names = crate::header::header_strings(&self.prog, HeaderKey::Tiles);
        let mut sets = Vec::new();
        for name in &names {
            let set = match crate::tiles::parse_bundled(name) {
                Some(Ok(set)) => set,
                Some(Err(_)) => return,
                None => match self.tile_sets.iter().find(|(_, s)| s.name == *name) {
                    Some((_, set)) => set.clone(),
                    None => return,
                },
            };
            sets.push(set);
        }
        let mut decls: Vec<(AttrDecl, String)> = Vec::new();
        for set in &sets {
            for d in &set.attrs {
                match decls.iter().find(|(e, _)| e.name == d.name) {
                    Some((e, other)) if e.on != d.on || e.ty != d.ty => {
                        let msg = format!(
                            "the tile sets `{other}` and `{}` declare attribute `{}` differently",
                            set.name, d.name
                        );
                        let note = format!(
                            "`{other}` declares it `{}` {}, `{}` declares it `{}` {}: one name has one meaning in a game",
                            e.ty.name(),
                            e.on.place(),
                            set.name,
                            d.ty.name(),
                            d.on.place()
                        );
                        self.tiles_entry_error(msg, note);
                    }
                    Some(_) => {}
                    None => decls.push((d.clone(), set.name.clone())),
                }
            }
        }
        self.prog.tile_names = sets
            .iter()
            .flat_map(|s| &s.tiles)
            .map(|t| {
                (
                    Value::Str(self.prog.intern(&t.id)),
                    Value::Str(self.prog.intern(&t.name)),
                )
            })
            .collect();
        self.tiles_known = Some(TileKnowledge {
            sets,
            decls: decls.into_iter().map(|(d, _)| d).collect(),
        });
    }

    fn tiles_entry_error(&mut self, msg: String, note: String) {
        let Some(e) = self
            .prog
            .header
            .entries
            .iter()
            .find(|e| e.key == HeaderKey::Tiles)
        else {
            return;
        };
        let (file, span) = (e.origin.file as usize, e.origin.span.clone());
        let saved = std::mem::replace(&mut self.file, file);
        self.err(
            Diagnostic::error(Code::HeaderRefused, span, msg)
                .with_label("these tile sets")
                .with_note(note),
        );
        self.file = saved;
    }

    /// `tile.NAME` or `feature.NAME` (`feature`) of an attribute the tile sets declare; `None` when
    /// none declares it (the caller reports an unknown field). With the tile sets unknown, any name
    /// is accepted, typed `any`.
    pub(super) fn tile_attr(
        &mut self,
        obj: &Expr,
        name: &ast::Ident,
        feature: bool,
    ) -> Option<(Expr, Ty)> {
        let Some(known) = &self.tiles_known else {
            let values = TileAttr {
                ty: AttrType::Int,
                segment: false,
                values: Vec::new(),
            };
            return Some(self.attr_def(obj, &name.name, Ty::ANY, feature, values));
        };
        let decl = known.decls.iter().find(|d| d.name == name.name)?.clone();
        let segment = decl.on.kind().is_some();
        let mut values: Vec<Vec<Option<AttrValue>>> = Vec::new();
        for t in known.sets.iter().flat_map(|s| &s.tiles) {
            let row: Vec<Option<AttrValue>> = if segment {
                t.segments
                    .iter()
                    .map(|s| {
                        (Some(s.kind) == decl.on.kind())
                            .then(|| attr_value(&s.attrs, &decl.name).cloned())
                            .flatten()
                    })
                    .collect()
            } else {
                vec![attr_value(&t.attrs, &decl.name).cloned()]
            };
            values.push(row);
        }
        // A string attribute whose values all name chip colours is a colour, as a map's is.
        let colours = &self.prog.colours;
        let colour = decl.ty == AttrType::Str
            && !colours.is_empty()
            && values.iter().flatten().all(|v| match v {
                Some(AttrValue::Str(s)) => colours.contains(s),
                _ => true,
            });
        let values = values
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|v| self.tile_value(decl.ty, v.as_ref(), colour))
                    .collect()
            })
            .collect();
        let mut ty = read_type(decl.ty, segment, feature);
        if colour {
            ty.base = Base::Colour;
        }
        let values = TileAttr {
            ty: decl.ty,
            segment,
            values,
        };
        Some(self.attr_def(obj, &name.name, ty, feature, values))
    }

    /// A value as the rules read it; `colour`: a string naming a chip colour is that colour, and
    /// none is no colour (`Unit`).
    fn tile_value(&mut self, ty: AttrType, v: Option<&AttrValue>, colour: bool) -> Value {
        if colour {
            return match v {
                Some(AttrValue::Str(s)) => self
                    .prog
                    .colours
                    .iter()
                    .position(|c| c == s)
                    .map_or(Value::Unit, |i| Value::Colour(i as u8)),
                _ => Value::Unit,
            };
        }
        match (v, ty) {
            (Some(AttrValue::Bool(b)), _) => Value::Bool(*b),
            (Some(AttrValue::Int(i)), _) => Value::Int(*i),
            (Some(AttrValue::Str(s)), _) => Value::Str(self.prog.intern(s)),
            (None, AttrType::Bool) => Value::Bool(false),
            (None, AttrType::Int) => Value::Int(0),
            (None, AttrType::Str) => Value::Str(self.prog.intern("")),
        }
    }

    fn attr_def(
        &mut self,
        obj: &Expr,
        name: &str,
        ty: Ty,
        feature: bool,
        values: TileAttr,
    ) -> (Expr, Ty) {
        let of = AttrOf::Tiles { feature, values };
        let i = match self
            .prog
            .attrs
            .iter()
            .position(|a| a.name == name && a.of == of)
        {
            Some(i) => i,
            None => {
                self.prog.attrs.push(AttrDef {
                    name: name.to_string(),
                    ty,
                    of,
                });
                self.prog.attrs.len() - 1
            }
        };
        (Expr::Attr(Box::new(obj.clone()), i as u16, Src::NONE), ty)
    }

    /// The tile sets' attributes a `tile` or `feature` may read, for an unknown field's message.
    pub(super) fn tile_attr_names(&self, base: Base) -> Vec<String> {
        match (&self.tiles_known, base) {
            (Some(k), Base::Tile | Base::Feature) => {
                k.decls.iter().map(|d| d.name.clone()).collect()
            }
            _ => Vec::new(),
        }
    }
}

/// The type of a read: a tile's own attribute or a tile's segments' (any of them for a bool, the
/// sum of ints, the list of strings); a feature's tiles (how many carry a bool, the sum of ints,
/// the list of strings).
fn read_type(ty: AttrType, segment: bool, feature: bool) -> Ty {
    match (ty, segment || feature) {
        (AttrType::Bool, _) if feature => Ty::INT,
        (AttrType::Bool, _) => Ty::BOOL,
        (AttrType::Int, _) => Ty::INT,
        (AttrType::Str, false) => Ty::STR,
        (AttrType::Str, true) => Ty::list(Base::Str),
    }
}
