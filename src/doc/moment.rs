//! When a rule applies, as a rule book says it: composed from the trigger and what the rule's condition
//! tests, so it stays true when a house rule changes the condition. A `scored` rule that tests
//! `feature.kind == road` reads "When a road is completed (…), and at the end of the game if it is
//! not"; one that also tests `not feature.complete` reads "At the end of the game, for each road left
//! incomplete"; `field` reads "At the end of the game, for each farm". The tests that made the moment
//! are taken out of the condition; the rest stays in it.

use crate::lang::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::lang::builtins::Trigger;

/// A rule's moment: its opening words, the names its trigger binds (read as these words), and the
/// parts of the condition still to say.
pub(crate) struct Moment<'a> {
    pub(crate) lead: String,
    pub(crate) binds: Vec<(String, String)>,
    /// The player the trigger binds is the current player (`current_player` reads "you").
    pub(crate) you_current: bool,
    /// The feature's kind, when the condition fixes it.
    pub(crate) kind: Option<String>,
    pub(crate) rest: Vec<&'a Expr>,
}

/// The moment of a rule on `trigger` with condition `when`. `border_fills`: sea and off-map squares
/// count as filled around a monastery.
pub(crate) fn moment<'a>(trigger: &str, when: Option<&'a Expr>, border_fills: bool) -> Moment<'a> {
    let mut parts = Vec::new();
    if let Some(w) = when {
        conjuncts(w, &mut parts);
    }
    if trigger == "scored" {
        return scored(parts, border_fills);
    }
    let (lead, binds, you) = trigger_moment(trigger);
    Moment {
        lead,
        binds,
        you_current: you,
        kind: None,
        rest: parts,
    }
}

/// The words of a trigger's moment: how it begins ("when you place a tile on a square"), what each
/// name it binds is called, and whether `player` is the current player (`you`).
fn trigger_moment(trigger: &str) -> (String, Vec<(String, String)>, bool) {
    let b = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, p)| (n.to_string(), p.to_string()))
            .collect()
    };
    match trigger {
        "placed" => (
            "when you place a tile on a square".to_string(),
            b(&[
                ("player", "you"),
                ("tile", "the tile"),
                ("square", "that square"),
            ]),
            true,
        ),
        "adjacent" => (
            "when you place a tile, for each square next to it (up, down, left and right)".into(),
            b(&[
                ("player", "you"),
                ("tile", "the tile"),
                ("square", "that square"),
                ("side", "the tile's side facing it"),
            ]),
            true,
        ),
        "abroad" => (
            "when a tile you place joins a road or city to a border exit".into(),
            b(&[
                ("player", "you"),
                ("tile", "the tile"),
                ("square", "its square"),
                ("kind", "the kind of feature"),
            ]),
            true,
        ),
        "gained" => (
            "when a player gains a chip".into(),
            b(&[("player", "that player"), ("chip", "the chip")]),
            false,
        ),
        "follower_placed" => (
            "when you place a follower".into(),
            b(&[("player", "you"), ("follower", "the follower")]),
            true,
        ),
        "returned" => (
            "when a follower comes back from the board to its owner".into(),
            b(&[("player", "its owner"), ("follower", "the follower")]),
            false,
        ),
        "turn_start" => (
            "at the start of each of your turns".into(),
            b(&[("player", "you")]),
            true,
        ),
        "turn_end" => (
            "at the end of each of your turns".into(),
            b(&[("player", "you")]),
            true,
        ),
        "round_end" => (
            "at the end of each round (after the last player's turn)".into(),
            Vec::new(),
            false,
        ),
        "game_end" => (
            "at the end of the game, after the final scoring".into(),
            Vec::new(),
            false,
        ),
        "answered" => (
            "once every decision that rules or actions asked at one step (of your turn, or of the \
             final scoring) has been answered, before the game goes on"
                .into(),
            b(&[("player", "you")]),
            true,
        ),
        "tile_drawn" => (
            "when you draw a tile, before placing it".into(),
            b(&[("player", "you"), ("tile", "the tile drawn")]),
            true,
        ),
        // A trigger without a rule-book moment here still reads as its row of the engine's table
        // says, with the names it binds in that row's words.
        other => match Trigger::from_name(other) {
            Some(t) => (
                t.phrase().to_string(),
                t.bindings()
                    .iter()
                    .map(|b| (b.name.to_string(), b.phrase.to_string()))
                    .collect(),
                false,
            ),
            None => (format!("when `{other}` happens"), Vec::new(), false),
        },
    }
}

fn scored(parts: Vec<&Expr>, border_fills: bool) -> Moment<'_> {
    let mut kind: Option<String> = None;
    let mut complete: Option<bool> = None;
    let mut rest = Vec::new();
    for p in parts {
        match feature_test(p) {
            Some(Test::Kind(k)) if kind.is_none() => kind = Some(k),
            Some(Test::Complete(c)) if complete.is_none() => complete = Some(c),
            _ => rest.push(p),
        }
    }
    let how = |k: &str| -> String {
        match k {
            "road" => " (closed at both ends)".into(),
            "city" => " (its walls closed all round)".into(),
            "monastery" => format!(
                " (its own square and the 8 around it all hold tiles{})",
                if border_fills {
                    "; sea and off-map squares count as filled"
                } else {
                    ""
                }
            ),
            _ => String::new(),
        }
    };
    let lead = match (kind.as_deref(), complete) {
        (Some("field"), Some(true)) => {
            "never (a farm is never completed); it would apply when a farm is completed".into()
        }
        (Some("field"), _) => "at the end of the game, for each farm".into(),
        (Some(k), None) => format!(
            "when a {k} is completed{}, at once in that turn, and at the end of the game for each {k} still incomplete",
            how(k)
        ),
        (Some(k), Some(true)) => format!("when a {k} is completed{}, at once in that turn", how(k)),
        (Some(k), Some(false)) => format!("at the end of the game, for each {k} still incomplete"),
        (None, None) => "when a road, city or monastery is completed, at once in that turn, and at the end of the game for each one still incomplete and each farm".into(),
        (None, Some(true)) => "when a road, city or monastery is completed, at once in that turn".into(),
        (None, Some(false)) => "at the end of the game, for each road, city and monastery still incomplete and each farm".into(),
    };
    let word = match kind.as_deref() {
        Some("field") => "the farm".to_string(),
        Some(k) => format!("the {k}"),
        None => "the feature".to_string(),
    };
    Moment {
        lead,
        binds: vec![("feature".into(), word)],
        you_current: false,
        kind,
        rest,
    }
}

enum Test {
    Kind(String),
    Complete(bool),
}

/// `feature.kind == K`, `feature.complete`, `not feature.complete`.
fn feature_test(e: &Expr) -> Option<Test> {
    let is_feature = |x: &Expr| matches!(&x.kind, ExprKind::Name(n) if n == "feature");
    match &e.kind {
        ExprKind::Binary(BinOp::Eq, a, b) => match (&a.kind, &b.kind) {
            (ExprKind::Field(o, f), ExprKind::Name(k))
                if is_feature(o)
                    && f.name == "kind"
                    && matches!(k.as_str(), "road" | "city" | "monastery" | "field") =>
            {
                Some(Test::Kind(k.clone()))
            }
            _ => None,
        },
        ExprKind::Field(o, f) if is_feature(o) && f.name == "complete" => {
            Some(Test::Complete(true))
        }
        ExprKind::Unary(UnOp::Not, x) => match feature_test(x)? {
            Test::Complete(c) => Some(Test::Complete(!c)),
            Test::Kind(_) => None,
        },
        _ => None,
    }
}

/// The parts of a chain of `and`s.
pub(crate) fn conjuncts<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}
