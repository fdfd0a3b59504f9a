//! Tests: an error of a running rule is placed at the innermost expression that failed (not at
//! the statement or the larger expression it is part of), by the executor (`exec.rs`, from the
//! plan's side tables `code_at`/`test_at`) and by the tree walker (`eval.rs`) alike.

use super::lower::Lower;
use super::probe;
use crate::ir::{Stmt, Value};
use std::sync::Arc;

/// The first statement of a `for f in reserve(player)` loop of a rule, and the source text the
/// error of running it must be placed at (its first occurrence in the statement).
const CASES: &[(&str, &str)] = &[
    // A division inside a call inside an operator.
    ("let x = abs(10 / zero) + 1", "10 / zero"),
    // The call that overflows, not the operator around it.
    (
        "let x = abs(0 - 9223372036854775807 - 1) + 0",
        "abs(0 - 9223372036854775807 - 1)",
    ),
    ("let x = [1, 2][nth] * 2", "[1, 2][nth]"),
    (
        "let x = -(0 - 9223372036854775807 - 1)",
        "-(0 - 9223372036854775807 - 1)",
    ),
    (
        "let x = sum(i in [9223372036854775807, 1]: i) + 0",
        "sum(i in [9223372036854775807, 1]: i)",
    ),
    // Inside an aggregate's filter.
    ("let x = count(i in [1, 2] where i / zero > 0)", "i / zero"),
    (
        "let x = first([i in [1] where i > 1]) + 1",
        "first([i in [1] where i > 1])",
    ),
    // A field read in place by a comparison, and a field read under another.
    ("if f.square == square { score(player, 1) }", "f.square"),
    ("if square == f.square { score(player, 1) }", "f.square"),
    // Both operands read in place: the left one, read first.
    ("if f.square == f.square { score(player, 1) }", "f.square"),
    (
        "if f.square != square and true { score(player, 1) }",
        "f.square",
    ),
    ("if f.square.land { score(player, 1) }", "f.square"),
    ("let x = 1 + len(f.square.chips)", "f.square"),
];

#[test]
fn errors_are_placed_at_the_innermost_expression_that_failed() {
    let players = ["ann".to_string(), "bob".to_string()];
    for (stmt, want) in CASES {
        let rules = format!(
            "param zero: int = 0\nparam nth: int = 2\n\
             rule r on placed {{\n  for f in reserve(player) {{\n    {stmt}\n  }}\n}}"
        );
        let text = probe::text("red 1 x 3", &rules);
        let v = probe::variant("red 1 x 3", &rules);
        let mut g = v
            .new_game(v.config.clone(), &players, 1, false)
            .expect("a game starts");
        let (st, me) = (&mut g.st, &mut g.hooks);
        let prog = v.program.clone();
        let rule = &prog.rules[0];
        let Stmt::For(slot, _, body, _) = &rule.body.stmts[0] else {
            panic!("{stmt}: a `for`");
        };
        let saved = me.enter(rule.body.locals.max(4));
        // A follower in the reserve: not on the board.
        me.set(*slot, Value::Follower(0)).expect("a slot");
        let mut lw = Lower::new(&[]);
        let (run, walked) = match &body[0] {
            Stmt::Let(_, e, _) => {
                let id = lw.code(e);
                let plan = std::mem::replace(&mut me.code, Arc::new(lw.plan));
                let run = me.value(st, id).map(|_| ());
                me.code = plan;
                (run, me.eval(st, e).map(|_| ()))
            }
            Stmt::If(branches, ..) => {
                let c = &branches[0].0;
                let id = lw.test(c, true);
                let plan = std::mem::replace(&mut me.code, Arc::new(lw.plan));
                let run = me.truth(st, id).map(|_| ());
                me.code = plan;
                (run, me.bool(st, c).map(|_| ()))
            }
            s => panic!("{stmt}: {s:?}"),
        };
        me.leave(saved);
        for (how, r) in [("executor", run), ("walker", walked)] {
            let e = r.expect_err(stmt);
            let crate::game::GameError::Rule { at: Some(at), .. } = *e else {
                panic!("{stmt}: the {how} placed no error: {e:?}");
            };
            let start = text.find(stmt).expect("the statement") + stmt.find(want).expect("it");
            assert_eq!(
                (&text[at.span()], at.start as usize),
                (*want, start),
                "{stmt}: the {how}'s place"
            );
        }
    }
}
