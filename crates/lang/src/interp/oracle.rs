//! The oracle (issue 21, target 2): the tree walker (`eval.rs`) beside the executor (`exec.rs`).
//! Built in tests, and under the crate's `oracle` feature (the application's tests turn it on);
//! never in play.
//!
//! [`enable`] turns it on for the interpreters made afterwards on the calling thread: their plan
//! keeps, beside each value and condition node, a copy of the expression it was lowered from. Then
//! every time the executor gives a node's value (or truth), the walker evaluates that expression on
//! the same state and locals, and a difference panics naming the rule or action, the expression and
//! both values. A rule's whole `when` is compared too, however the trigger dispatch decided it
//! (its guards and the per-square memo of its static parts: `fire.rs`), and so is the part a
//! refusal names (`actions.rs`: the first part the walker finds false).
//!
//! The walker leaves no trace: the operation count, the list arena and the locals are put back as
//! they were, so a game plays the same with the oracle on (the caches it may fill, such as a
//! feature's facts or `squares_with`'s index, give the same answers either way).
//!
//! Not compared: operands read in place (a local, a parameter or a constant: no node computes
//! them, the node that reads them is compared), an effect used as an expression (`Code::Call`: the
//! checker refuses it, and the walker would run the effect a second time), and a node whose run
//! failed (the error goes up as it would in play).

use super::lower::{CodeId, TestId};
use super::{Interp, R};
use crate::ir::{Expr, Value};
use crate::state::State;
use std::cell::Cell;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
}

/// Turns the oracle on (or off) for the interpreters made from now on on this thread (see the
/// module's comment). A test calls it before loading the variant it plays.
pub fn enable(on: bool) {
    ON.with(|c| c.set(on));
}

/// Whether interpreters made now keep their expressions for the oracle.
pub(super) fn enabled() -> bool {
    ON.with(|c| c.get())
}

/// The expression each node of a plan was lowered from (by node id), kept only while the oracle
/// is on when the plan is made.
#[derive(Default)]
pub(super) struct Sources {
    pub(crate) codes: Vec<Option<Expr>>,
    pub(crate) tests: Vec<Option<Expr>>,
}

impl Interp {
    /// A value node's value, compared with the walker's.
    #[inline(never)]
    pub(super) fn value_beside_walker(&mut self, st: &mut State, id: CodeId) -> R<Value> {
        let v = self.value_of(st, id)?;
        let code = self.code.clone();
        if let Some(e) = code
            .oracle
            .codes
            .get(id.0 as usize)
            .and_then(|e| e.as_ref())
        {
            if !matches!(code.codes[id.0 as usize], super::lower::Code::Call(..)) {
                self.beside_walker(st, e, v, |me, st| me.eval(st, e));
            }
        }
        Ok(v)
    }

    /// A condition node's truth, compared with the walker's.
    #[inline(never)]
    pub(super) fn truth_beside_walker(&mut self, st: &mut State, id: TestId) -> R<bool> {
        let b = self.truth_of(st, id)?;
        let code = self.code.clone();
        if let Some(e) = code
            .oracle
            .tests
            .get(id.0 as usize)
            .and_then(|e| e.as_ref())
        {
            self.beside_walker(st, e, Value::Bool(b), |me, st| {
                me.bool(st, e).map(Value::Bool)
            });
        }
        Ok(b)
    }

    /// Rule `r`'s whole `when` for this trigger, by the walker, against `fires` (what the dispatch
    /// and the executor decided: its guards, the memo of its static parts, its condition).
    pub(super) fn rule_beside_walker(
        &mut self,
        st: &mut State,
        r: usize,
        t: crate::game::Trigger,
        ctx: &crate::game::Ctx,
        fires: bool,
    ) -> R<()> {
        if !self.oracle_on() {
            return Ok(());
        }
        let prog = self.prog.clone();
        let rule = &prog.rules[r];
        let Some(when) = &rule.when else {
            assert!(fires, "oracle: rule `{}` has no condition", rule.name);
            return Ok(());
        };
        let current = self.current;
        self.current = r as u16;
        let saved = self.enter(rule.body.locals.max(4));
        self.bind_trigger(st, t, ctx)?;
        self.beside_walker(st, when, Value::Bool(fires), |me, st| {
            me.bool(st, when).map(Value::Bool)
        });
        self.leave(saved);
        self.current = current;
        Ok(())
    }

    /// The part of an action's `when` a refusal names (`traced`: the executor's trace) against
    /// the walker's: the first of its `and`-joined parts that the walker finds false, each
    /// evaluated on its own in order (`None` when every part holds).
    pub(super) fn refusal_beside_walker(
        &mut self,
        st: &mut State,
        when: &Expr,
        traced: Option<usize>,
    ) {
        if !self.oracle_on() {
            return;
        }
        let mut parts = Vec::new();
        when.conjuncts(&mut parts);
        let mut walked = None;
        for (i, p) in parts.iter().enumerate() {
            // Each part by the walker, leaving no trace.
            let (budget, n_lists, frame) = (self.budget, self.lists.in_use(), self.frame.clone());
            self.budget.restart();
            let holds = self.bool(st, p);
            (self.budget, self.frame) = (budget, frame);
            self.lists.release_to(n_lists);
            match holds {
                Ok(true) => {}
                Ok(false) => {
                    walked = Some(i);
                    break;
                }
                Err(e) => panic!(
                    "oracle: in `{}`, the tree walker fails on a part of a `when` the executor \
                     ran: {e} ({p:?})",
                    self.name()
                ),
            }
        }
        assert_eq!(
            traced,
            walked,
            "oracle: in `{}`, the trace names part {traced:?} of the `when` and the tree walker \
             part {walked:?}: {when:?}",
            self.name()
        );
    }

    /// Whether the oracle is on for this interpreter.
    pub(super) fn oracle_on(&self) -> bool {
        !self.code.oracle.tests.is_empty() || !self.code.oracle.codes.is_empty()
    }

    /// Runs `walk` (the walker on `e`) on the same state and locals, puts back what it changed,
    /// and panics when it gives other than `got`.
    pub(super) fn beside_walker(
        &mut self,
        st: &mut State,
        e: &Expr,
        got: Value,
        walk: impl FnOnce(&mut Self, &mut State) -> R<Value>,
    ) {
        let (budget, n_lists, current) = (self.budget, self.lists.in_use(), self.current);
        let frame = self.frame.clone();
        self.budget.restart();
        let walked = walk(self, st);
        let same = match &walked {
            Ok(w) => self.same_value(got, *w),
            Err(_) => false,
        };
        if !same {
            let walked = match walked {
                Ok(w) => self.shown(w),
                Err(err) => format!("the error `{err}`"),
            };
            panic!(
                "oracle: in `{}`, the executor gives {} and the tree walker {walked} for {e:?}",
                self.name(),
                self.shown(got),
            );
        }
        self.budget = budget;
        self.lists.release_to(n_lists);
        self.current = current;
        self.frame = frame;
    }

    /// Two values are the same: lists by their elements, anything else as it is.
    fn same_value(&self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::List(x), Value::List(y)) => {
                let (x, y) = (&self.lists[x as usize], &self.lists[y as usize]);
                x.len() == y.len() && x.iter().zip(y).all(|(&p, &q)| self.same_value(p, q))
            }
            (a, b) => a == b,
        }
    }

    /// A value as the oracle's message shows it: a list with its elements.
    fn shown(&self, v: Value) -> String {
        match v {
            Value::List(l) => {
                let items: Vec<String> = self.lists[l as usize]
                    .iter()
                    .map(|&x| self.shown(x))
                    .collect();
                format!("[{}]", items.join(", "))
            }
            v => format!("{v:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lower::Test;
    use super::super::probe;
    use crate::ast::BinOp;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::Arc;

    /// Rules that reach the executor's shapes: a trigger guard, static parts remembered per
    /// square, square flags and chip counts read in place, aggregates (a static one too),
    /// conditional values, and actions with a `when`, choices and a `where`.
    const RULES: &str = "rule kinds on scored when feature.kind == city and feature.complete {\n\
           score(feature.winners, count(x in [1, 2, 3, 4] where x > 1 and x < feature.tiles))\n}\n\
         rule far on placed when square.x > 1 and square.y < 1 and square.covered and tiles_left() > 2 {\n\
           score(player, sum(c in chips(supply): c.value))\n}\n\
         action take phase after when len(chips(supply)) > 0 and turn_number() > 1\n\
             choose c: chips(supply) where c.value >= 1 and len(chips(hand(player))) < 3 {\n\
           move(c, hand(player), up)\n}\n\
         rule rich on placed when len(chips(hand(player))) > 1 and not square.land == false {\n\
           score(player, count(c in chips(hand(player)) where c.colour == red))\n}\n\
         rule pick on placed when (if square.x > 0 then square.y >= 0 else tiles_left() % 2 == 0) {\n\
           score(player, if tiles_left() % 3 == 0 then 2 else (if square.covered then -1 else 5))\n}";

    fn play(seeds: u64, oracle: bool) -> Vec<Vec<i64>> {
        super::enable(oracle);
        let v = probe::variant("red 1 x 3, blue 2 x 3", RULES);
        let (scores, interp) = probe::scores(&v, &["ann", "bob", "cyd"], seeds);
        super::enable(false);
        assert_eq!(interp.oracle_on(), oracle);
        scores
    }

    /// The walker agrees with the executor on every node of these games, and the oracle changes
    /// nothing of a game (the same scores with it off).
    #[test]
    fn the_walker_agrees_and_the_games_are_the_same_without_it() {
        let with = play(6, true);
        assert_eq!(with, play(6, false));
        assert!(with.iter().any(|s| s.iter().any(|&x| x > 0)), "{with:?}");
    }

    /// A wrong result planted in the plan (`x > 1` run as `x >= 1`) is caught: the oracle names
    /// the rule, the expression and both values.
    #[test]
    fn a_wrong_result_of_the_executor_is_caught() {
        super::enable(true);
        let v = probe::variant(
            "red 1 x 3",
            "rule r on placed { score(player, count(x in [1, 2, 3] where x > 1)) }",
        );
        let players = ["ann".to_string(), "bob".to_string()];
        let mut g = v
            .new_game(v.config.clone(), &players, 1, false)
            .expect("a game starts");
        super::enable(false);
        let plan = Arc::get_mut(&mut g.hooks.code).expect("the plan is not shared yet");
        let planted = plan
            .compares
            .iter_mut()
            .find(|c| c.0 == BinOp::Gt)
            .expect("`x > 1` is a comparison");
        planted.0 = BinOp::Ge;
        assert!(plan
            .tests
            .iter()
            .any(|(t, _)| matches!(t, Test::Compare(_))));
        let mut rng = carto_engine::rng::Rng::new(1);
        let caught = catch_unwind(AssertUnwindSafe(|| {
            crate::game::play_random(&mut g, &mut rng).expect("the game runs")
        }))
        .expect_err("the oracle panics");
        let message = caught.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(
            message.starts_with(
                "oracle: in `r`, the executor gives Bool(true) and the tree walker Bool(false) for \
                 Binary(Gt, Local("
            ),
            "{message}"
        );
    }
}
