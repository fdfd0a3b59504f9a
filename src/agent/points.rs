//! What the rules give for a feature, asked of the rules themselves and remembered: the points
//! each player gets when a feature with given facts (kind, complete, tiles, coats of arms, cities,
//! winners) is scored. Only for rules whose scoring is a function of those facts alone: every rule
//! is a `scored` rule whose condition and body read nothing but the feature's facts, parameters and
//! constants, and whose only effect is `score(feature.winners, …)`; no actions. [`feature_scoring`]
//! says whether a program is such; for any other the agents value options in a copy of the game.

use crate::game::{Ctx, Game, GameError, Hooks as _, Trigger};
use crate::lang::builtins::{Builtin, Field};
use crate::lang::interp::Interp;
use crate::lang::ir::{Expr, Program, Stmt};
use crate::state::FeatureInfo;
use std::collections::BTreeMap;

/// Points per player (up to 8 seats).
pub type Points = [i64; 8];

/// The facts of a feature the rules may read, as a key.
type Key = (u8, bool, u32, u32, u32, u8);

fn key(i: &FeatureInfo) -> Key {
    let kind = i.kind.map_or(u8::MAX, |k| k as u8);
    (kind, i.complete, i.tiles, i.shields, i.cities, i.winners)
}

/// The rules' points for features, asked once per distinct set of facts.
#[derive(Default)]
pub struct FeaturePoints {
    /// A copy of the game the rules score in (made once, at the first question).
    scratch: Option<Game<Interp>>,
    known: BTreeMap<Key, Points>,
}

impl FeaturePoints {
    /// The points each player gets when a feature with the facts `info` is scored. The first time
    /// a set of facts is asked, the rules score it in a scratch copy of `game` (copied once), and
    /// the scores are put back.
    pub fn of(&mut self, game: &Game<Interp>, info: &FeatureInfo) -> Result<Points, GameError> {
        if info.winners == 0 {
            // Every score goes to the feature's winners (see `feature_scoring`).
            return Ok([0; 8]);
        }
        let k = key(info);
        if let Some(p) = self.known.get(&k) {
            return Ok(*p);
        }
        let g = self.scratch.get_or_insert_with(|| {
            let mut g = game.clone();
            g.st.record = false;
            g.st.events.clear();
            g
        });
        // The rules read the facts from the context (the engine computed them); the root must be a
        // feature of the board the rules see.
        let root = g.st.board.features.root(0);
        let ctx = Ctx {
            feature: FeatureInfo { root, ..*info },
            ..Ctx::default()
        };
        let before: Vec<i64> = g.st.players.iter().map(|p| p.score).collect();
        g.hooks.fire(&mut g.st, Trigger::Scored, &ctx)?;
        let mut pts = [0; 8];
        for (i, (p, b)) in g.st.players.iter_mut().zip(&before).enumerate().take(8) {
            pts[i] = p.score - b;
            p.score = *b;
        }
        self.known.insert(k, pts);
        Ok(pts)
    }
}

/// Whether every rule of `prog` scores features by their facts alone (see the module comment), so
/// that [`FeaturePoints`] may value a feature without a copy of the game.
pub fn feature_scoring(prog: &Program) -> bool {
    prog.actions.is_empty()
        && prog.rules.iter().all(|r| {
            r.trigger == Trigger::Scored
                && r.when.as_ref().is_none_or(pure)
                && r.body.stmts.iter().all(pure_stmt)
        })
}

/// The feature a `scored` rule is about is its first local.
const FEATURE: u16 = 0;

fn pure_stmt(s: &Stmt) -> bool {
    match s {
        Stmt::Let(slot, e) => *slot != FEATURE && pure(e),
        Stmt::If(arms, otherwise) => {
            arms.iter()
                .all(|(c, body)| pure(c) && body.iter().all(pure_stmt))
                && otherwise
                    .as_ref()
                    .is_none_or(|body| body.iter().all(pure_stmt))
        }
        Stmt::Effect(Builtin::Score, args, _) => match args.as_slice() {
            [who, points] => is_feature_field(who, Field::FeatureWinners) && pure(points),
            _ => false,
        },
        _ => false,
    }
}

fn is_feature_field(e: &Expr, f: Field) -> bool {
    matches!(e, Expr::Field(x, g) if *g == f && matches!(**x, Expr::Local(FEATURE)))
}

/// An expression that reads only the feature's facts, parameters, constants and locals.
fn pure(e: &Expr) -> bool {
    use Field as F;
    match e {
        Expr::Const(_) | Expr::Param(_) => true,
        Expr::Local(slot) => *slot != FEATURE,
        Expr::Field(x, f) => {
            matches!(**x, Expr::Local(FEATURE))
                && matches!(
                    f,
                    F::FeatureKind
                        | F::FeatureComplete
                        | F::FeatureTiles
                        | F::FeatureShields
                        | F::FeatureCities
                        | F::FeatureWinners
                )
        }
        Expr::Not(x) | Expr::Neg(x) | Expr::ToPlayers(x) => pure(x),
        Expr::Binary(_, a, b) | Expr::Index(a, b) | Expr::Range(a, b) => pure(a) && pure(b),
        Expr::List(items) => items.iter().all(pure),
        Expr::Call(Builtin::Min2 | Builtin::Max2, args) => args.iter().all(pure),
        Expr::Call(..) | Expr::Attr(..) | Expr::Aggregate { .. } => false,
    }
}
