//! What the rules give for a feature, asked of the rules themselves and remembered: the points
//! each player gets when a feature with given facts (kind, complete, tiles, coats of arms, cities,
//! winners) is scored. Only for rules whose scoring is a function of those facts alone: every
//! `scored` rule's condition and body read nothing but the feature's facts, parameters and
//! constants, and its only effect is `score(feature.winners, …)`. [`scored_by_facts`] says whether
//! a program's are such; for any other the agents value options in a copy of the game.

use crate::game::{Ctx, Game, GameError, Hooks as _, Trigger};
use crate::lang::builtins::{Builtin, Field};
use crate::lang::interp::Interp;
use crate::lang::ir::{Expr, Program, Stmt};
use crate::state::FeatureInfo;

/// Points per player (up to 8 seats).
pub(crate) type Points = [i64; 8];

/// The facts of a feature the rules may read, packed in one word (every bit of every fact kept:
/// 8 + 1 + 8 + 3 × 32 bits), with the top bit set so that no key is 0, an empty slot.
fn key(i: &FeatureInfo) -> u128 {
    let kind = u128::from(i.kind.map_or(u8::MAX, |k| k as u8));
    let small = kind | u128::from(i.complete) << 8 | u128::from(i.winners) << 9;
    let counts = u128::from(i.tiles) | u128::from(i.shields) << 32 | u128::from(i.cities) << 64;
    1 << 127 | small << 96 | counts
}

/// Points remembered per key: a table open-addressed by a hash of the key, at most half full.
/// (Asked once per option a greedy player weighs: a search tree costs ten times as much.)
#[derive(Default)]
struct Memo {
    slots: Vec<(u128, Points)>,
    len: usize,
}

impl Memo {
    fn slot(&self, k: u128) -> usize {
        let mask = self.slots.len() - 1;
        let h = ((k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let mut i = (h >> 32) as usize & mask;
        while self.slots[i].0 != k && self.slots[i].0 != 0 {
            i = (i + 1) & mask;
        }
        i
    }

    fn get(&self, k: u128) -> Option<&Points> {
        if self.slots.is_empty() {
            return None;
        }
        let (key, p) = &self.slots[self.slot(k)];
        (*key == k).then_some(p)
    }

    fn insert(&mut self, k: u128, p: Points) {
        if 2 * (self.len + 1) > self.slots.len() {
            let n = (2 * self.slots.len()).max(64);
            let old = std::mem::replace(&mut self.slots, vec![(0, [0; 8]); n]);
            for (k, p) in old.into_iter().filter(|e| e.0 != 0) {
                let i = self.slot(k);
                self.slots[i] = (k, p);
            }
        }
        let i = self.slot(k);
        if self.slots[i].0 == 0 {
            self.len += 1;
        }
        self.slots[i] = (k, p);
    }
}

/// The rules' points for features, asked once per distinct set of facts.
#[derive(Default)]
pub(crate) struct FeaturePoints {
    /// A copy of the game the rules score in (made once, at the first question).
    scratch: Option<Game<Interp>>,
    known: Memo,
}

impl FeaturePoints {
    /// The points each player gets when a feature with the facts `info` is scored. The first time
    /// a set of facts is asked, the rules score it in a scratch copy of `game` (copied once), and
    /// the scores are put back.
    pub(crate) fn of(
        &mut self,
        game: &Game<Interp>,
        info: &FeatureInfo,
    ) -> Result<Points, GameError> {
        if info.winners == 0 {
            // Every score goes to the feature's winners (see `scored_by_facts`).
            return Ok([0; 8]);
        }
        let k = key(info);
        if let Some(p) = self.known.get(k) {
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
        let mut before = [0; 8];
        for (b, p) in before.iter_mut().zip(&g.st.players) {
            *b = p.score;
        }
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

/// Whether every `scored` rule of `prog` scores features by their facts alone (see the module
/// comment), so that [`FeaturePoints`] gives what they give. (Other rules and actions may do
/// anything: options that run none of them are found by `super::quiet`.)
pub(crate) fn scored_by_facts(prog: &Program) -> bool {
    prog.rules
        .iter()
        .filter(|r| r.trigger == Trigger::Scored)
        .all(|r| r.when.as_ref().is_none_or(pure) && r.body.stmts.iter().all(pure_stmt))
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
    match e {
        Expr::Const(_) | Expr::Param(_) => true,
        Expr::Local(slot) => *slot != FEATURE,
        Expr::Field(x, f) => matches!(**x, Expr::Local(FEATURE)) && f.info().pure,
        Expr::Not(x) | Expr::Neg(x) | Expr::ToPlayers(x) => pure(x),
        Expr::Binary(_, a, b) | Expr::Index(a, b) | Expr::Range(a, b) => pure(a) && pure(b),
        Expr::List(items) => items.iter().all(pure),
        Expr::Call(b, args) => b.info().pure && args.iter().all(pure),
        Expr::Attr(..) | Expr::Aggregate { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::FeatureKind;

    #[test]
    fn the_memo_gives_back_what_it_was_given_for_every_set_of_facts() {
        let mut m = Memo::default();
        let info = |t: u32, c: u32| FeatureInfo {
            kind: Some(FeatureKind::Field),
            tiles: t,
            cities: c,
            winners: 3,
            ..FeatureInfo::default()
        };
        // 1,000 keys: the table grows from 64 slots past 2,000, rehashing on the way.
        for t in 0..100 {
            for c in 0..10 {
                m.insert(
                    key(&info(t, c)),
                    [i64::from(t), i64::from(c), 0, 0, 0, 0, 0, 0],
                );
            }
        }
        assert_eq!(m.len, 1000);
        assert!(m.slots.len() >= 2000);
        for t in 0..100 {
            for c in 0..10 {
                let p = m.get(key(&info(t, c))).copied();
                assert_eq!(p, Some([i64::from(t), i64::from(c), 0, 0, 0, 0, 0, 0]));
            }
        }
        // Facts that differ in one bit anywhere are different keys.
        assert_eq!(m.get(key(&info(100, 0))), None);
        assert_eq!(
            m.get(key(&FeatureInfo {
                complete: true,
                ..info(1, 1)
            })),
            None
        );
        assert_eq!(
            m.get(key(&FeatureInfo {
                winners: 2,
                ..info(1, 1)
            })),
            None
        );
        assert_eq!(
            m.get(key(&FeatureInfo {
                shields: 1,
                ..info(1, 1)
            })),
            None
        );
        assert_eq!(
            m.get(key(&FeatureInfo {
                kind: Some(FeatureKind::City),
                ..info(1, 1)
            })),
            None
        );
        // Inserting a known key again replaces its points and adds no entry.
        m.insert(key(&info(1, 1)), [9; 8]);
        assert_eq!(m.len, 1000);
        assert_eq!(m.get(key(&info(1, 1))), Some(&[9; 8]));
    }
}
