//! Builtin calls: the name is a builtin, a query is used as a value and an effect as a statement, the
//! number of arguments is right, and each argument has its parameter's type.

use super::{Checker, Scope};
use crate::ast::{self, ExprKind};
use crate::builtins::{Base, Builtin, Holding, PTy, RTy, Ty};
use crate::consts::mismatch;
use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::ir::{Expr, Value};

impl Checker {
    /// Checks a call; returns the builtin, its lowered arguments and its result type.
    pub(super) fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: ast::Span,
        sc: &mut Scope,
        as_stmt: bool,
    ) -> Option<(Builtin, Vec<Expr>, Ty)> {
        let Some(b) = Builtin::from_name(&name.name) else {
            self.unknown_builtin(name, sc);
            self.check_all(args, sc);
            return None;
        };
        self.check_query_or_effect(b, span.clone(), as_stmt);
        if !self.check_arity(b, args, span) {
            self.check_all(args, sc);
            return None;
        }
        if let (
            Builtin::SquaresWith,
            Some(ast::Expr {
                kind: ExprKind::Str(attr),
                span: aspan,
            }),
        ) = (b, args.first())
        {
            self.check_squares_with_attr(attr, aspan);
        }
        if b == Builtin::Neighbours && self.on_endless_table() {
            self.err(
                Diagnostic::warning(
                    Code::NoEffect,
                    name.span.clone(),
                    "`neighbours` is always empty here",
                )
                .with_label("`map = unbounded`: the endless table has no map squares")
                .with_note(
                    "`neighbours(square)` lists the map squares around a square; on the \
                         endless table there are none",
                ),
            );
        }
        let (out, first_ty) = self.call_args(b, args, sc);
        self.check_holding_kind(b, &out, args);
        let ret = match b.info().ret {
            RTy::T(t) => t,
            RTy::ElemOfFirst => first_ty.elem().unwrap_or(Ty::ANY),
            // A list operation on a set of players gives a list of players.
            RTy::First if first_ty == Ty::of(Base::Players) => Ty {
                base: Base::Player,
                list: true,
            },
            RTy::First => first_ty,
        };
        Some((b, out, ret))
    }

    /// A per-player holding area (`holding bid per player`) is named with its player,
    /// `holding_of(bid, p)`, and holds chips only; a shared one is `holding(NAME)`. Which kind a
    /// builtin takes is its row's `holding` column; the area is its argument of type `holding`.
    fn check_holding_kind(&mut self, b: Builtin, out: &[Expr], args: &[ast::Expr]) {
        let info = b.info();
        let Some(wants) = info.holding else {
            return;
        };
        let Some(at) = info
            .params
            .iter()
            .position(|(_, t)| *t == PTy::T(Ty::of(Base::Holding)))
        else {
            return;
        };
        let (Some(Expr::Const(Value::Holding(h))), Some(arg)) = (out.get(at), args.get(at)) else {
            return;
        };
        let name = self
            .prog
            .holdings
            .get(*h as usize)
            .cloned()
            .unwrap_or_default();
        let per = self.prog.holdings_per_player.get(*h as usize) == Some(&true);
        let (msg, label, note) = match (wants, per) {
            (Holding::PerPlayer, false) => (
                format!("`{name}` is one holding area shared by all"),
                "not a holding area per player",
                format!(
                    "write `holding({name})`, or declare `holding {name} per player` for one per player"
                ),
            ),
            (Holding::Shared, true) => (
                format!("`{name}` is a holding area per player"),
                "whose?",
                format!("name the player: `holding_of({name}, player)`"),
            ),
            (Holding::Followers, true) => (
                format!("`{name}` is a holding area per player, for chips only"),
                "followers go to a shared holding area",
                "declare a shared one for followers (`holding NAME`), or move chips with \
                 `move(CHIPS, holding_of(NAME, player), FACE)`"
                    .to_string(),
            ),
            _ => return,
        };
        self.err(
            Diagnostic::error(Code::HoldingKind, arg.span.clone(), msg)
                .with_label(label)
                .with_note(note),
        );
    }

    /// Checks expressions whose call is already refused, for their own errors.
    fn check_all(&mut self, args: &[ast::Expr], sc: &mut Scope) {
        for a in args {
            self.expr(a, sc);
        }
    }

    fn unknown_builtin(&mut self, name: &ast::Ident, sc: &Scope) {
        let mut d = Diagnostic::error(
            Code::UnknownBuiltin,
            name.span.clone(),
            format!("unknown builtin `{}`", name.name),
        )
        .with_label("no builtin has this name");
        let names = || {
            Builtin::all()
                .filter(|b| b.written())
                .map(|b| b.info().name)
        };
        if let Some(s) = did_you_mean(&name.name, names()) {
            d = d.with_note(format!("did you mean `{s}`?"));
        } else if sc.get(&name.name).is_some() || self.globals.contains_key(&name.name) {
            d = d.with_note(format!(
                "`{}` is a value, not a builtin; it cannot be called",
                name.name
            ));
        } else if let Some(s) = same_words(&name.name, names()) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        self.err(d);
    }

    /// A query's result must be used; an effect has no value.
    fn check_query_or_effect(&mut self, b: Builtin, span: ast::Span, as_stmt: bool) {
        let info = b.info();
        if as_stmt && !info.effect {
            self.err(
                Diagnostic::error(
                    Code::QueryOrEffect,
                    span,
                    format!("`{}` is a query; its result would be unused", info.name),
                )
                .with_label("not an effect")
                .with_note("use it in an expression, e.g. `let x = …`"),
            );
        } else if !as_stmt && info.effect {
            self.err(
                Diagnostic::error(
                    Code::QueryOrEffect,
                    span,
                    format!("`{}` is an effect; it has no value", info.name),
                )
                .with_label("used as a value")
                .with_note("call it as a statement on its own line"),
            );
        }
    }

    /// Whether the call has as many arguments as the builtin has parameters (reported if not).
    /// Missing arguments are named; an empty one after a comma (`score(player, )`) is pointed at.
    fn check_arity(&mut self, b: Builtin, args: &[ast::Expr], span: ast::Span) -> bool {
        let info = b.info();
        let found = args.len();
        if found == info.params.len() {
            return true;
        }
        let s = if info.params.len() == 1 { "" } else { "s" };
        let mut message = format!(
            "`{}` takes {} argument{s}, found {found}",
            info.name,
            info.params.len(),
        );
        let (span, label) = match info.params.get(found..) {
            Some(missing) if !missing.is_empty() => {
                let names: Vec<String> = missing.iter().map(|(n, _)| format!("`{n}`")).collect();
                let is = if names.len() == 1 { "is" } else { "are" };
                message.push_str(&format!(": {} {is} missing", names.join(", ")));
                match self.empty_argument(args, &span) {
                    Some(at) => (at, format!("{} expected here", names[0])),
                    None => (span, format!("{} {is} missing", names.join(", "))),
                }
            }
            _ => (span, "wrong number of arguments".to_string()),
        };
        self.err(
            Diagnostic::error(Code::ArgumentCount, span, message)
                .with_label(label)
                .with_note(format!("the signature is `{}`", b.signature())),
        );
        false
    }

    /// Where a call's last argument was left empty after a comma (`score(player, )`): the closing
    /// bracket, or `None` when the call ends with an argument.
    fn empty_argument(&self, args: &[ast::Expr], call: &ast::Span) -> Option<ast::Span> {
        let last = args.last()?;
        let text = &self.files.get(self.file)?.text;
        let tail = text.get(last.span.end..call.end)?;
        let comma = tail.find(',')?;
        let after = &tail[comma + 1..];
        let close = after.find(|c: char| !c.is_whitespace())?;
        if !after[close..].starts_with(')') {
            return None;
        }
        let at = last.span.end + comma + 1 + close;
        Some(at..at + 1)
    }

    /// Checks each argument against its parameter; returns them lowered, and the first one's type
    /// (which types the parameters and results declared "element of the first").
    fn call_args(&mut self, b: Builtin, args: &[ast::Expr], sc: &mut Scope) -> (Vec<Expr>, Ty) {
        let info = b.info();
        let mut out = Vec::new();
        let mut first_ty = Ty::ANY;
        // The state named by a `state` argument (`set(season, 2)`), which types an `OfState` one.
        let mut state: Option<u16> = None;
        for (i, (a, (pname, pty))) in args.iter().zip(info.params.iter()).enumerate() {
            let want = match pty {
                PTy::T(t) => Some(*t),
                PTy::ElemOfFirst => first_ty.elem(),
                PTy::AnyList | PTy::ChipOrChips => None,
                PTy::State(int_only) => {
                    let (x, id) = self.state_place(a, sc, *int_only);
                    state = id;
                    out.push(x);
                    continue;
                }
                PTy::OfState => Some(state.map_or(Ty::ANY, |id| self.state_ty(id))),
            };
            let (x, t) = self.expr(a, sc);
            if let (PTy::OfState, Some(id)) = (pty, state) {
                self.check_state_value(id, &x, a.span.clone());
            }
            let in_arg = || format!("in argument `{pname}` of `{}`", b.signature());
            let x = match want {
                Some(w) if !w.accepts(t) => {
                    self.err(mismatch(a.span.clone(), w, t).with_note(in_arg()));
                    x
                }
                Some(w) if w.base == Base::Players && !w.list && t == Ty::of(Base::Player) => {
                    Expr::ToPlayers(Box::new(x))
                }
                Some(_) => x,
                None => {
                    let ok = match pty {
                        PTy::AnyList => t.elem().is_some(),
                        _ => Ty::of(Base::Chip).accepts(t) || Ty::list(Base::Chip).accepts(t),
                    };
                    if !ok {
                        self.err(
                            Diagnostic::error(
                                Code::TypeMismatch,
                                a.span.clone(),
                                format!("expected {pty}, found {t}"),
                            )
                            .with_label(format!("this is {t}"))
                            .with_note(in_arg()),
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
        (out, first_ty)
    }
}

/// Words a name may use for a builtin's word (`tiles_remaining` for `tiles_left`).
const SAME_WORDS: &[(&str, &str)] = &[
    ("remaining", "left"),
    ("rest", "left"),
    ("size", "len"),
    ("length", "len"),
    ("count", "len"),
    ("num", "number"),
    ("active", "current"),
    ("color", "colour"),
    ("neighbor", "neighbour"),
    ("adjacent", "neighbour"),
    ("initial", "start"),
    ("begin", "start"),
    ("points", "score"),
];

/// A word of a name as compared: a synonym by the builtins' word, a plural by its singular.
fn word_stem(w: &str) -> &str {
    let w = SAME_WORDS
        .iter()
        .find(|(a, _)| *a == w || a.strip_suffix('s').is_none() && w.strip_suffix('s') == Some(*a))
        .map_or(w, |(_, b)| b);
    w.strip_suffix('s').filter(|s| s.len() > 2).unwrap_or(w)
}

/// The candidate that shares the most words with `name` (split at `_`, synonyms and plurals
/// alike: `tiles_remaining` → `tiles_left`), when one alone shares the most and it shares at
/// least half of the name's words: for a name too far from every candidate to be a typo.
pub(super) fn same_words<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let words: Vec<&str> = name
        .split('_')
        .filter(|w| !w.is_empty())
        .map(word_stem)
        .collect();
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for c in candidates {
        let theirs: Vec<&str> = c.split('_').map(word_stem).collect();
        let shared = words.iter().filter(|w| theirs.contains(w)).count();
        if shared == 0 || 2 * shared < words.len() {
            continue;
        }
        match best {
            Some((n, _)) if n > shared => {}
            Some((n, _)) if n == shared => tied = true,
            _ => {
                best = Some((shared, c));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::same_words;
    use crate::builtins::Builtin;

    /// Names too far from a builtin's to be typos find it by their words; names that share no
    /// word, or share as much with two builtins, find nothing.
    #[test]
    fn names_find_the_builtin_with_the_same_words() {
        let names = || Builtin::all().map(|b| b.info().name);
        assert_eq!(same_words("tiles_remaining", names()), Some("tiles_left"));
        assert_eq!(same_words("remaining_tiles", names()), Some("tiles_left"));
        assert_eq!(
            same_words("number_of_the_round", names()),
            Some("round_number")
        );
        assert_eq!(same_words("active_player", names()), Some("current_player"));
        assert_eq!(
            same_words("stack_tiles_at_begin", names()),
            Some("tiles_at_start")
        );
        assert_eq!(same_words("shuffle_bag", names()), Some("shuffle"));
        assert_eq!(same_words("frobnicate", names()), None);
        assert_eq!(same_words("turn", names()), None);
    }
}
