//! What the rules give for a feature, asked of the rules themselves and remembered: the points
//! each player gets when a feature with given facts (kind, complete, tiles, coats of arms, cities,
//! winners) is scored. Only for rules whose scoring is a function of those facts alone: every
//! `scored` rule's condition and body read nothing but the feature's facts, parameters and
//! constants, and its only effect is `score(feature.winners, …)`. [`scored_by_facts`] says whether
//! a program's are such; for any other the agents value options in a copy of the game.
//! Under such rules a feature nobody holds scores nothing (it has no winners): the features without
//! followers that the final scoring scores too add nothing to a preview (the interpreter says as
//! much to the engine, which then skips them: `Hooks::scores_unheld`), so the preview that sums the
//! features with followers stays exact.

use crate::game::{Ctx, Game, GameError, Hooks as _, Trigger};
use crate::lang::builtins::Field;
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

/// The facts of a feature but its winners packed in 64 bits, with the top bit set (no key is 0):
/// kind (3 bits, 4 for none), complete, then tiles and coats of arms (20 bits each) and cities
/// (19 bits); `None` when a count does not fit.
fn key_without_winners(i: &FeatureInfo) -> Option<u64> {
    if i.tiles >= 1 << 20 || i.shields >= 1 << 20 || i.cities >= 1 << 19 {
        return None;
    }
    let kind = u64::from(i.kind.map_or(4, |k| k as u8));
    Some(
        1 << 63
            | kind
            | u64::from(i.complete) << 3
            | u64::from(i.tiles) << 4
            | u64::from(i.shields) << 24
            | u64::from(i.cities) << 44,
    )
}

/// A key of [`Memo`]: not 0 (an empty slot), hashed to a word.
trait Key: Copy + Eq + Default {
    fn hash(self) -> u64;
}

impl Key for u128 {
    fn hash(self) -> u64 {
        ((self as u64) ^ ((self >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xbf58_476d_1ce4_e5b9)
    }
}

impl Key for u64 {
    fn hash(self) -> u64 {
        self.wrapping_mul(0xbf58_476d_1ce4_e5b9)
    }
}

/// Values remembered per key: a table open-addressed by a hash of the key, at most half full.
/// (Asked once per option a greedy player weighs: a search tree costs ten times as much.)
struct Memo<K, V> {
    slots: Vec<(K, V)>,
    len: usize,
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            slots: Vec::new(),
            len: 0,
        }
    }
}

impl<K: Key, V: Copy + Default> Memo<K, V> {
    fn slot(&self, k: K) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (k.hash() >> 32) as usize & mask;
        while self.slots[i].0 != k && self.slots[i].0 != K::default() {
            i = (i + 1) & mask;
        }
        i
    }

    fn get(&self, k: K) -> Option<&V> {
        if self.slots.is_empty() {
            return None;
        }
        let (key, p) = &self.slots[self.slot(k)];
        (*key == k).then_some(p)
    }

    fn insert(&mut self, k: K, p: V) {
        if 2 * (self.len + 1) > self.slots.len() {
            let n = (2 * self.slots.len()).max(64);
            let old = std::mem::replace(&mut self.slots, vec![(K::default(), V::default()); n]);
            for (k, p) in old.into_iter().filter(|e| e.0 != K::default()) {
                let i = self.slot(k);
                self.slots[i] = (k, p);
            }
        }
        let i = self.slot(k);
        if self.slots[i].0 == K::default() {
            self.len += 1;
        }
        self.slots[i] = (k, p);
    }
}

/// The rules' points for features, asked once per distinct set of facts. Between [`Self::share`]
/// and [`Self::unshare`] (a greedy decision) the memo is the one this thread's other agents
/// filled for the same program and number of players, if any (see `SHARED`).
#[derive(Default)]
pub(crate) struct FeaturePoints {
    memo: Option<Box<Memos>>,
}

/// What [`FeaturePoints`] remembers, for one program and one number of players.
struct Memos {
    /// A copy of the game the rules score in (made at the first question). It holds the program,
    /// so no other program can take its place in memory while these memos are kept.
    scratch: Game<Interp>,
    /// Whether the rules read the winners only to name who scores ([`winners_only_scored`], asked
    /// at the first question): each winner then gets the same points, remembered in `each` by the
    /// other facts; else the points are remembered in `known` by all the facts.
    same_for_winners: bool,
    known: Memo<u128, Points>,
    each: Memo<u64, i64>,
    /// The last key asked of `each` and its points (0: none yet; no key is 0), looked at before
    /// `each`: the rotations of a tile on one square often ask the same facts in a row.
    last_each: (u64, i64),
}

impl Memos {
    /// Whether these memos give the points of `game`'s features: the same program (its
    /// parameters are in it) and the same number of players.
    fn fit(&self, game: &Game<Interp>) -> bool {
        std::ptr::eq(self.scratch.hooks.program(), game.hooks.program())
            && self.scratch.st.players.len() == game.st.players.len()
    }
}

/// The most memos a thread keeps for its agents to share.
const SHARED_MOST: usize = 8;

thread_local! {
    /// Memos of this thread's agents that are not in a decision, for the next decision of any
    /// agent of the thread with the same program and number of players. (Boxed: an agent takes
    /// and gives back its memos at every decision, a pointer moved rather than a game.)
    #[allow(clippy::vec_box)]
    static SHARED: std::cell::RefCell<Vec<Box<Memos>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl FeaturePoints {
    /// Takes this thread's memos for `game` (its program and number of players), if any, for the
    /// questions until [`Self::unshare`]; else keeps its own, if they fit `game`.
    pub(crate) fn share(&mut self, game: &Game<Interp>) {
        if self.memo.as_ref().is_some_and(|m| !m.fit(game)) {
            self.unshare();
        }
        if self.memo.is_some() {
            return;
        }
        self.memo = SHARED.with(|s| {
            let mut s = s.borrow_mut();
            let i = s.iter().position(|m| m.fit(game))?;
            Some(s.swap_remove(i))
        });
    }

    /// Gives the memos back to the thread for other agents (kept with the most entries when
    /// another agent gave back memos for the same game meanwhile).
    pub(crate) fn unshare(&mut self) {
        let Some(m) = self.memo.take() else {
            return;
        };
        SHARED.with(|s| {
            let mut s = s.borrow_mut();
            let same = |o: &Memos| {
                std::ptr::eq(o.scratch.hooks.program(), m.scratch.hooks.program())
                    && o.scratch.st.players.len() == m.scratch.st.players.len()
            };
            match s.iter().position(|o| same(o)) {
                Some(i) => {
                    if s[i].known.len + s[i].each.len < m.known.len + m.each.len {
                        s[i] = m;
                    }
                }
                None => {
                    if s.len() == SHARED_MOST {
                        s.remove(0);
                    }
                    s.push(m);
                }
            }
        });
    }

    /// The points each player gets when a feature with the facts `info` is scored. The first time
    /// a set of facts is asked, the rules score it in a scratch copy of `game` (copied once), and
    /// the scores are put back.
    pub(crate) fn of(
        &mut self,
        game: &Game<Interp>,
        info: &FeatureInfo,
    ) -> Result<Points, GameError> {
        let mut pts = [0; 8];
        self.add_to(game, info, 8, &mut pts)?;
        Ok(pts)
    }

    /// Adds to `scores` of the first `seats` players (at most 8) what [`Self::of`] gives them, as
    /// `add` in `value` does (saturating).
    pub(crate) fn add_to(
        &mut self,
        game: &Game<Interp>,
        info: &FeatureInfo,
        seats: usize,
        scores: &mut Points,
    ) -> Result<(), GameError> {
        if info.winners == 0 {
            // Every score goes to the feature's winners (see `scored_by_facts`).
            return Ok(());
        }
        let m = self.memo.get_or_insert_with(|| {
            let mut g = game.clone();
            g.st.record = false;
            g.st.events.clear();
            Box::new(Memos {
                same_for_winners: winners_only_scored(game.hooks.program()),
                scratch: g,
                known: Memo::default(),
                each: Memo::default(),
                last_each: (0, 0),
            })
        });
        if m.same_for_winners {
            let Some(k) = key_without_winners(info) else {
                let pts = m.scored(info)?;
                add(seats, scores, &pts);
                return Ok(());
            };
            let each = if m.last_each.0 == k {
                m.last_each.1
            } else {
                let v = match m.each.get(k) {
                    Some(&v) => v,
                    None => {
                        // The points of one winner: each gets the same.
                        let v = m.scored(info)?[info.winners.trailing_zeros() as usize];
                        m.each.insert(k, v);
                        v
                    }
                };
                m.last_each = (k, v);
                v
            };
            let mut w = u32::from(info.winners) & ((1 << seats.min(8)) - 1);
            while w != 0 {
                let i = w.trailing_zeros() as usize;
                scores[i] = scores[i].saturating_add(each);
                w &= w - 1;
            }
            return Ok(());
        }
        let k = key(info);
        let pts = match m.known.get(k) {
            Some(p) => *p,
            None => {
                let pts = m.scored(info)?;
                m.known.insert(k, pts);
                pts
            }
        };
        add(seats, scores, &pts);
        Ok(())
    }
}

impl Memos {
    /// The points the rules give for a feature with the facts `info`, scored in the scratch copy
    /// of the game and put back.
    fn scored(&mut self, info: &FeatureInfo) -> Result<Points, GameError> {
        let g = &mut self.scratch;
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
        Ok(pts)
    }
}

/// Adds `b` to `a`, for the first `n` players (the others have no points), saturating.
pub(crate) fn add(n: usize, a: &mut Points, b: &Points) {
    for (x, y) in a.iter_mut().zip(b).take(n) {
        *x = x.saturating_add(*y);
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
        Stmt::Let(slot, e, _) => *slot != FEATURE && pure(e),
        Stmt::If(arms, otherwise, _) => {
            arms.iter()
                .all(|(c, body)| pure(c) && body.iter().all(pure_stmt))
                && otherwise
                    .as_ref()
                    .is_none_or(|body| body.iter().all(pure_stmt))
        }
        Stmt::Effect(b, args, _) if b.scores_only() => match args.as_slice() {
            [who, points] => is_feature_field(who, Field::FeatureWinners) && pure(points),
            _ => false,
        },
        _ => false,
    }
}

/// Whether the `scored` rules of `prog` (such as [`scored_by_facts`] accepts) read the feature's
/// winners only to name who scores: each winner then gets the same points, whoever they are.
pub(crate) fn winners_only_scored(prog: &Program) -> bool {
    fn stmt(s: &Stmt) -> bool {
        match s {
            Stmt::Let(_, e, _) => !reads_winners(e),
            Stmt::If(arms, otherwise, _) => {
                arms.iter()
                    .all(|(c, body)| !reads_winners(c) && body.iter().all(stmt))
                    && otherwise.as_ref().is_none_or(|body| body.iter().all(stmt))
            }
            Stmt::Effect(b, args, _) if b.scores_only() => match args.as_slice() {
                [who, points] => {
                    is_feature_field(who, Field::FeatureWinners) && !reads_winners(points)
                }
                _ => false,
            },
            _ => false,
        }
    }
    prog.rules
        .iter()
        .filter(|r| r.trigger == Trigger::Scored)
        .all(|r| r.when.as_ref().is_none_or(|w| !reads_winners(w)) && r.body.stmts.iter().all(stmt))
}

/// Whether `e` may read the feature's winners: names them, or the feature itself.
fn reads_winners(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Param(_) => false,
        Expr::Local(slot) => *slot == FEATURE,
        // A fact of the feature other than its winners (a fact that is not pure may follow them).
        Expr::Field(x, f, _) if matches!(**x, Expr::Local(FEATURE)) => {
            *f == Field::FeatureWinners || !f.info().pure
        }
        Expr::Field(x, _, _) => reads_winners(x),
        Expr::Attr(x, _, _) | Expr::Not(x) | Expr::Neg(x, _) | Expr::ToPlayers(x) => {
            reads_winners(x)
        }
        Expr::Binary(_, a, b, _) | Expr::Index(a, b, _) | Expr::Range(a, b, _) => {
            reads_winners(a) || reads_winners(b)
        }
        Expr::If(c, a, b) => reads_winners(c) || reads_winners(a) || reads_winners(b),
        Expr::List(items) | Expr::Call(_, items, _) => items.iter().any(reads_winners),
        Expr::Aggregate {
            list, filter, map, ..
        } => {
            reads_winners(list)
                || filter.as_deref().is_some_and(reads_winners)
                || map.as_deref().is_some_and(reads_winners)
        }
    }
}

fn is_feature_field(e: &Expr, f: Field) -> bool {
    matches!(e, Expr::Field(x, g, _) if *g == f && matches!(**x, Expr::Local(FEATURE)))
}

/// An expression that reads only the feature's facts, parameters, constants and locals.
fn pure(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Param(_) => true,
        Expr::Local(slot) => *slot != FEATURE,
        Expr::Field(x, f, _) => matches!(**x, Expr::Local(FEATURE)) && f.info().pure,
        Expr::Not(x) | Expr::Neg(x, _) | Expr::ToPlayers(x) => pure(x),
        Expr::Binary(_, a, b, _) | Expr::Index(a, b, _) | Expr::Range(a, b, _) => {
            pure(a) && pure(b)
        }
        Expr::If(c, a, b) => pure(c) && pure(a) && pure(b),
        Expr::List(items) => items.iter().all(pure),
        Expr::Call(b, args, _) => b.info().pure && args.iter().all(pure),
        Expr::Attr(..) | Expr::Aggregate { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::FeatureKind;
    use crate::variant::{bundled_variants, load_variant};

    /// Sets of facts to ask: every kind (and none), complete or not, a few counts, and every set of
    /// winners of a game of `seats` players (none among them).
    fn facts(seats: u8) -> Vec<FeatureInfo> {
        let kinds = [
            None,
            Some(FeatureKind::Road),
            Some(FeatureKind::City),
            Some(FeatureKind::Field),
            Some(FeatureKind::Monastery),
        ];
        let mut all = vec![];
        for kind in kinds {
            for complete in [false, true] {
                for tiles in [0, 1, 2, 5, 9, 30] {
                    for shields in [0, 1, 3] {
                        for cities in [0, 1, 4] {
                            for winners in 0..1u8 << seats {
                                all.push(FeatureInfo {
                                    root: 0,
                                    kind,
                                    complete,
                                    tiles,
                                    shields,
                                    cities,
                                    winners,
                                });
                            }
                        }
                    }
                }
            }
        }
        all
    }

    /// The points the rules of `game` give for a feature with the facts `info`: fired in `scratch`
    /// (a copy of `game`) and put back, nothing remembered.
    fn fired(scratch: &mut Game<Interp>, info: &FeatureInfo) -> Points {
        let root = scratch.st.board.features.root(0);
        let ctx = Ctx {
            feature: FeatureInfo { root, ..*info },
            ..Ctx::default()
        };
        let before: Vec<i64> = scratch.st.players.iter().map(|p| p.score).collect();
        (scratch.hooks)
            .fire(&mut scratch.st, Trigger::Scored, &ctx)
            .unwrap();
        let mut pts = [0; 8];
        for (i, p) in scratch.st.players.iter_mut().enumerate() {
            pts[i] = p.score - before[i];
            p.score = before[i];
        }
        pts
    }

    /// Asks `points` every set of facts of [`facts`] twice (the second time remembered), whole and
    /// added to scores of fewer seats, and compares with what the rules give each time.
    fn check(name: &str, game: &Game<Interp>, points: &mut FeaturePoints) -> usize {
        let mut scratch = game.clone();
        let seats = game.st.players.len();
        let all = facts(seats as u8);
        let mut asked = 0;
        for round in 0..2 {
            for info in &all {
                let want = fired(&mut scratch, info);
                assert_eq!(
                    points.of(game, info).unwrap(),
                    want,
                    "{name} {info:?} {round}"
                );
                for n in 0..=seats {
                    let mut scores = [5; 8];
                    points.add_to(game, info, n, &mut scores).unwrap();
                    for (p, s) in scores.iter().enumerate() {
                        let plus = if p < n { want[p] } else { 0 };
                        assert_eq!(*s, 5 + plus, "{name} {info:?} {n} seats, player {p}");
                    }
                }
                asked += 1;
            }
        }
        asked
    }

    /// Points remembered by the facts without the winners (rules that read the winners only to
    /// name who scores) are what the rules give every set of winners: every bundled variant whose
    /// scored rules are read by facts, with 2 and 3 players.
    #[test]
    fn points_remembered_without_the_winners_are_the_rules_points_for_every_winner() {
        let mut variants = 0;
        for (name, _) in bundled_variants() {
            let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            for seats in [2, 3] {
                let names: Vec<String> = (0..seats).map(|i| format!("p{i}")).collect();
                let game = v.new_game(v.config.clone(), &names, 3, false).unwrap();
                let prog = game.hooks.program();
                if !scored_by_facts(prog) {
                    continue;
                }
                assert!(winners_only_scored(prog), "{name}");
                // A feature nobody holds scores nothing: the final scoring skips those.
                assert!(!crate::game::Hooks::scores_unheld(&game.hooks), "{name}");
                let mut points = FeaturePoints::default();
                assert!(check(name, &game, &mut points) > 1000);
                let m = points.memo.as_ref().expect("memos");
                assert!(m.same_for_winners && m.known.len == 0, "{name}");
                variants += 1;
            }
        }
        assert!(variants >= 8, "{variants}");
    }

    /// Rules that read the winners in a condition (remembered with the winners).
    fn again() -> crate::variant::Variant {
        crate::agent::fixture("again")
    }

    /// Rules that read the winners otherwise (here in a condition) are remembered by all the
    /// facts, and give what the rules give.
    #[test]
    fn points_of_rules_reading_the_winners_are_remembered_with_the_winners() {
        let v = again();
        let names = ["a".to_string(), "b".to_string(), "c".to_string()];
        let game = v.new_game(v.config.clone(), &names, 3, false).unwrap();
        let prog = game.hooks.program();
        assert!(scored_by_facts(prog));
        assert!(!winners_only_scored(prog));
        assert!(!crate::game::Hooks::scores_unheld(&game.hooks));
        let mut points = FeaturePoints::default();
        check("again", &game, &mut points);
        let m = points.memo.as_ref().expect("memos");
        assert!(!m.same_for_winners && m.each.len == 0);
        assert!(m.known.len > 100);
    }

    /// The memos a thread's agents share are only ever another agent's of the same program and
    /// number of players: agents asking in turn, in one thread, of two settings of a parameter the
    /// rules score with (two programs), of a copy of one program loaded again, of rules that read
    /// the winners, and with 2 and 3 players, each get what the rules of their own game give; an agent of a game asked before
    /// finds its memos.
    #[test]
    fn memos_shared_in_a_thread_are_of_the_same_program_and_players_only() {
        let base = load_variant("base", &[]).unwrap();
        let roads = load_variant("base", &["road_tile=3".to_string()]).unwrap();
        let reloaded = load_variant("base", &[]).unwrap();
        let winners = again();
        let game = |v: &crate::variant::Variant, seats: usize| {
            let names: Vec<String> = (0..seats).map(|i| format!("p{i}")).collect();
            v.new_game(v.config.clone(), &names, 3, false).unwrap()
        };
        let games = [
            ("base 2", game(&base, 2)),
            ("road_tile=3 2", game(&roads, 2)),
            ("base 3", game(&base, 3)),
            ("base loaded again 2", game(&reloaded, 2)),
            ("road_tile=3 3", game(&roads, 3)),
            ("winners read 2", game(&winners, 2)),
            ("winners read 3", game(&winners, 3)),
        ];
        for round in 0..2 {
            let mut found = Vec::new();
            for (name, g) in &games {
                let mut points = FeaturePoints::default();
                points.share(g);
                found.push((*name, points.memo.is_some()));
                check(name, g, &mut points);
                points.unshare();
                assert!(points.memo.is_none());
            }
            // The second time, the memos filled the first time are found.
            for (name, f) in found {
                assert_eq!(f, round == 1, "{name} {round}");
            }
        }
        // An agent's own memos of another game are not used for the next.
        let mut points = FeaturePoints::default();
        check("base 2 unshared", &games[0].1, &mut points);
        points.share(&games[1].1);
        check("road_tile=3 2 after base 2", &games[1].1, &mut points);
        points.unshare();
    }

    #[test]
    fn the_memo_gives_back_what_it_was_given_for_every_set_of_facts() {
        let mut m = Memo::<u128, Points>::default();
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
