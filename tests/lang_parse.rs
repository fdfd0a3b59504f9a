//! Parser tests: every construct of the language parses into the expected tree.

use carto::diag::Source;
use carto::lang::ast::*;
use carto::lang::parser::{parse_expr_text, parse_file};

fn parse(src: &str) -> File {
    let s = Source::new("t.rules", src);
    let (f, d) = parse_file(&s);
    assert!(d.is_empty(), "unexpected diagnostics:\n{}", s.render(&d));
    f
}

fn one(src: &str) -> ItemKind {
    let mut f = parse(src);
    assert_eq!(f.items.len(), 1);
    f.items.remove(0).kind
}

fn expr(src: &str) -> Expr {
    match parse_expr_text(src) {
        Ok(e) => e,
        Err(d) => panic!("{}: {}", src, d.message),
    }
}

/// A compact rendering of an expression tree, fully parenthesised.
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(i) => i.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Name(n) => n.clone(),
        ExprKind::List(l) => format!("[{}]", l.iter().map(show).collect::<Vec<_>>().join(", ")),
        ExprKind::Table(t) => format!(
            "{{{}}}",
            t.iter()
                .map(|(k, v)| format!("{}: {}", show(k), show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::Range(a, b) => format!("({}..{})", show(a), show(b)),
        ExprKind::Field(o, f) => format!("{}.{}", show(o), f.name),
        ExprKind::Index(o, i) => format!("{}[{}]", show(o), show(i)),
        ExprKind::Call(n, a) => format!(
            "{}({})",
            n.name,
            a.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::Unary(UnOp::Not, x) => format!("(not {})", show(x)),
        ExprKind::Unary(UnOp::Neg, x) => format!("(-{})", show(x)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
        ExprKind::If(c, a, b) => format!("(if {} then {} else {})", show(c), show(a), show(b)),
        ExprKind::Aggregate {
            op,
            var,
            list,
            filter,
            map,
        } => format!(
            "{}({} in {}{}{})",
            op.name(),
            var.name,
            show(list),
            filter
                .as_ref()
                .map(|f| format!(" where {}", show(f)))
                .unwrap_or_default(),
            map.as_ref()
                .map(|m| format!(": {}", show(m)))
                .unwrap_or_default()
        ),
    }
}

#[test]
fn header() {
    let ItemKind::Variant { name, entries } = one(r#"variant "france" {
          title = "Carcassonne: Maps — France"
          doc = """
            Prose.
              Indented.
          """
          map = "france"
          tiles = ["base", "inns"]
          players = 2..6
          followers = followers
        }"#)
    else {
        panic!()
    };
    assert_eq!(name.value, "france");
    let keys: Vec<&str> = entries.iter().map(|e| e.key.name.as_str()).collect();
    assert_eq!(
        keys,
        ["title", "doc", "map", "tiles", "players", "followers"]
    );
    assert_eq!(
        entries[1].value.kind,
        ExprKind::Str("Prose.\n  Indented.".into())
    );
    assert_eq!(show(&entries[4].value), "(2..6)");
}

#[test]
fn import_and_holding() {
    assert!(matches!(one(r#"import "base""#), ItemKind::Import(s) if s.value == "base"));
    assert!(matches!(one("holding isle"),
        ItemKind::Holding { name, title: None, per_player: false } if name.name == "isle"));
    assert!(matches!(one("holding bid per player"),
        ItemKind::Holding { name, title: None, per_player: true } if name.name == "bid"));
    assert!(matches!(one("holding isle \"Isle of Man\""),
        ItemKind::Holding { name, title: Some(t), per_player: false }
            if name.name == "isle" && t.value == "Isle of Man"));
    assert!(matches!(one("holding bid \"Bids\" per player"),
        ItemKind::Holding { title: Some(t), per_player: true, .. } if t.value == "Bids"));
}

#[test]
fn params_of_each_type() {
    let f = parse(
        r#"
        param a: int = 9 "followers per player"
        param b: bool = true
        param c: string = "x" one of ["x", "y"]
        param d: string = "x" "doc first" one of ["x"]
        param e: colour = purple
        param f: kind = road
        param g: table = {1: 1, 2: 3, 3: 6, 4: 10}
        param h: face = down
        param i: list<chip> = []
        param j: int = -3
        "#,
    );
    assert_eq!(f.items.len(), 10);
    let ItemKind::Param(p) = &f.items[0].kind else {
        panic!()
    };
    assert_eq!(p.name.name, "a");
    assert_eq!(
        p.doc.as_ref().map(|d| d.value.as_str()),
        Some("followers per player")
    );
    let ItemKind::Param(p) = &f.items[2].kind else {
        panic!()
    };
    assert!(p.one_of.is_some() && p.doc.is_none());
    let ItemKind::Param(p) = &f.items[3].kind else {
        panic!()
    };
    assert!(p.one_of.is_some() && p.doc.is_some());
    let ItemKind::Param(p) = &f.items[6].kind else {
        panic!()
    };
    assert_eq!(show(&p.default), "{1: 1, 2: 3, 3: 6, 4: 10}");
    let ItemKind::Param(p) = &f.items[8].kind else {
        panic!()
    };
    assert!(
        matches!(&p.ty, TypeExpr::List(inner, _) if matches!(&**inner, TypeExpr::Named(n) if n.name == "chip"))
    );
    let ItemKind::Param(p) = &f.items[9].kind else {
        panic!()
    };
    assert_eq!(show(&p.default), "(-3)");
}

#[test]
fn override_and_chips() {
    let ItemKind::Override { name, value } = one("override followers = 9") else {
        panic!()
    };
    assert_eq!(
        (name.name.as_str(), show(&value)),
        ("followers", "9".to_string())
    );
    let ItemKind::Chips(c) = one("chips { purple 1 x 6, purple 2 x 4, blue 1 x 6, }") else {
        panic!()
    };
    assert_eq!(c.len(), 3);
    assert_eq!(
        (c[1].colour.name.as_str(), c[1].value, c[1].count),
        ("purple", 2, 4)
    );
}

#[test]
fn setup_and_statements() {
    let ItemKind::Setup(b) = one(
        "setup {
           let n = 2
           if n == 1 { log(\"a\") } else if n == 2 { log(\"b\") } else if n > 2 { } else { log(\"c\") }
           for s in squares() { deal([s], n) }
           shuffle(supply)
         }",
    ) else {
        panic!()
    };
    assert_eq!(b.stmts.len(), 4);
    assert!(matches!(&b.stmts[0].kind, StmtKind::Let(n, _) if n.name == "n"));
    let StmtKind::If(branches, otherwise) = &b.stmts[1].kind else {
        panic!()
    };
    assert_eq!(branches.len(), 3);
    assert!(otherwise.is_some());
    assert!(
        matches!(&b.stmts[2].kind, StmtKind::For(v, _, body) if v.name == "s" && body.stmts.len() == 1)
    );
    assert!(
        matches!(&b.stmts[3].kind, StmtKind::Call(n, a) if n.name == "shuffle" && a.len() == 1)
    );
}

#[test]
fn rules_with_each_trigger() {
    for t in [
        "placed",
        "adjacent",
        "abroad",
        "gained",
        "follower_placed",
        "scored",
        "returned",
        "turn_start",
        "turn_end",
        "round_end",
        "game_end",
    ] {
        let ItemKind::Rule {
            name,
            trigger,
            when,
            body,
        } = one(&format!("rule r on {t} {{ }}"))
        else {
            panic!()
        };
        assert_eq!((name.name.as_str(), trigger.name.as_str()), ("r", t));
        assert!(when.is_none() && body.stmts.is_empty());
    }
    let ItemKind::Rule { when, .. } = one("rule r on scored when feature.kind == road { }") else {
        panic!()
    };
    assert_eq!(
        show(&when.unwrap_or_else(|| panic!())),
        "(feature.kind == road)"
    );
}

#[test]
fn actions_phases_limits_choices() {
    for ph in ["start", "follower", "score", "after"] {
        let ItemKind::Action(a) = one(&format!("action a phase {ph} {{ }}")) else {
            panic!()
        };
        assert_eq!(a.phase.map(|p| p.name), Some(ph.to_string()));
    }
    let ItemKind::Action(a) = one(
        "action sell phase score limit per turn 1 limit per round 2 limit group sale limit no_follower limit not_extra
           when turn_tile().square.town
           choose wine: chips from chips(hand(player)) size 1..2 where sum(c in wine: c.value) == 2
           choose s: squares() where s.town
           choose f: followers(player)
           choose more: chips from chips(hand(player))
         { move(wine, box, up) }",
    ) else {
        panic!()
    };
    assert!(!a.forced);
    assert_eq!(a.limits.len(), 5);
    assert!(
        matches!(&a.limits[0].kind, LimitKind::Per { unit, count } if unit.name == "turn" && count.kind == ExprKind::Int(1))
    );
    assert!(
        matches!(&a.limits[1].kind, LimitKind::Per { unit, count } if unit.name == "round" && count.kind == ExprKind::Int(2))
    );
    assert!(matches!(&a.limits[2].kind, LimitKind::Group(g, None) if g.name == "sale"));
    assert!(matches!(&a.limits[3].kind, LimitKind::Flag(g) if g.name == "no_follower"));
    assert!(matches!(&a.limits[4].kind, LimitKind::Flag(g) if g.name == "not_extra"));
    assert!(a.when.is_some());
    assert_eq!(a.choices.len(), 4);
    assert!(a.choices[0].chips && a.choices[0].size.is_some() && a.choices[0].filter.is_some());
    assert!(!a.choices[1].chips && a.choices[1].filter.is_some());
    assert!(!a.choices[2].chips && a.choices[2].filter.is_none());
    assert!(a.choices[3].chips && a.choices[3].size.is_none());
    assert_eq!(a.body.stmts.len(), 1);
}

#[test]
fn forced_action() {
    let ItemKind::Action(a) = one(
        "forced ransom when len(chips(hand(player))) >= 3
           choose set: chips from chips(hand(player)) size 3..3 where distinct(c in set: c.value) == 1
         { move(set, box, up) }",
    ) else {
        panic!()
    };
    assert!(a.forced && a.phase.is_none() && a.limits.is_empty() && a.choices.len() == 1);
}

#[test]
fn expression_forms() {
    let cases = [
        ("12", "12"),
        ("true", "true"),
        ("false", "false"),
        (r#""a\"b\n""#, r#""a\"b\n""#),
        ("x", "x"),
        ("[1, 2, 3]", "[1, 2, 3]"),
        ("[]", "[]"),
        ("{1: 1, 2: 3}", "{1: 1, 2: 3}"),
        ("2..6", "(2..6)"),
        ("a.b.c", "a.b.c"),
        ("t[n]", "t[n]"),
        ("t[len(x)].y", "t[len(x)].y"),
        ("f()", "f()"),
        ("f(x, g(y))", "f(x, g(y))"),
        ("-x", "(-x)"),
        ("- -x", "(-(-x))"),
        ("not not a", "(not (not a))"),
        (
            "count(c in hand(p) where c.colour == purple)",
            "count(c in hand(p) where (c.colour == purple))",
        ),
        ("sum(c in chosen: c.value)", "sum(c in chosen: c.value)"),
        (
            "any(s in neighbours(q): s.town)",
            "any(s in neighbours(q): s.town)",
        ),
        (
            "all(c in xs: c.colour == k)",
            "all(c in xs: (c.colour == k))",
        ),
        ("min(c in xs: c.value)", "min(c in xs: c.value)"),
        (
            "max(c in xs where c.face_up: c.value)",
            "max(c in xs where c.face_up: c.value)",
        ),
        ("distinct(c in xs: c.colour)", "distinct(c in xs: c.colour)"),
        (
            "[s in squares() where s.band == k]",
            "[…](s in squares() where (s.band == k))",
        ),
        ("[s in squares(): s.x]", "[…](s in squares(): s.x)"),
        ("count(x)", "count(x)"),
    ];
    for (src, want) in cases {
        assert_eq!(show(&expr(src)), want, "{src}");
    }
}

#[test]
fn precedence() {
    let cases = [
        ("1 + 2 * 3", "(1 + (2 * 3))"),
        ("(1 + 2) * 3", "((1 + 2) * 3)"),
        ("1 - 2 - 3", "((1 - 2) - 3)"),
        ("8 / 4 % 3", "((8 / 4) % 3)"),
        ("-a * b", "((-a) * b)"),
        ("a + 1 == b * 2", "((a + 1) == (b * 2))"),
        ("a < b and c >= d", "((a < b) and (c >= d))"),
        ("a or b and c", "(a or (b and c))"),
        ("not a == b", "(not (a == b))"),
        ("not a and b", "((not a) and b)"),
        ("a != b or c <= d", "((a != b) or (c <= d))"),
        ("1 + 1..n * 2", "((1 + 1)..(n * 2))"),
        ("x.y[1].z", "x.y[1].z"),
        // A conditional value is a primary; `else` takes the rest of the expression.
        ("if a then 1 else 2 + 3", "(if a then 1 else (2 + 3))"),
        ("(if a then 1 else 2) + 3", "((if a then 1 else 2) + 3)"),
        (
            "1 + if a or b then x.y else -z",
            "(1 + (if (a or b) then x.y else (-z)))",
        ),
        (
            "if a then if b then 1 else 2 else 3",
            "(if a then (if b then 1 else 2) else 3)",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(show(&expr(src)), want, "{src}");
    }
}

#[test]
fn spans_point_at_the_text() {
    let src = "rule road on scored {\n  score(feature.winners, feature.tiles * road_tile)\n}\n";
    let f = parse(src);
    let ItemKind::Rule { body, name, .. } = &f.items[0].kind else {
        panic!()
    };
    assert_eq!(&src[name.span.clone()], "road");
    assert_eq!(&src[f.items[0].span.clone()], src.trim_end());
    let StmtKind::Call(_, args) = &body.stmts[0].kind else {
        panic!()
    };
    assert_eq!(&src[args[1].span.clone()], "feature.tiles * road_tile");
    assert_eq!(
        &src[body.stmts[0].span.clone()],
        "score(feature.winners, feature.tiles * road_tile)"
    );
}

#[test]
fn comments_and_keyword_boundaries() {
    let f =
        parse("# leading\nrule iffy on placed { # inside\n  let format = 1 # trailing\n}\n# end");
    assert_eq!(f.items.len(), 1);
    // `rulex` is not `rule x`
    let (_, d) = parse_file(&Source::new("t", "rulex on placed { }"));
    assert_eq!(d.len(), 1);
    // Runs of blanks and comments anywhere between tokens (one WHITESPACE rule matches both).
    let f = parse("rule\t r # a\n# b\n\n  on \r\n placed#c\n{let x = 1 #d\n+\t2}");
    assert_eq!(f.items.len(), 1);
    // `forced` is a name (the keyword `for` is followed by a letter); `for` and `in` are not.
    let f = parse("rule r on placed {\n  let forced = 1\n  let input = forced\n}");
    assert_eq!(f.items.len(), 1);
    for word in ["for", "in", "when", "override"] {
        let text = format!("rule r on placed {{\n  let {word} = 1\n}}");
        let (_, d) = parse_file(&Source::new("t", text));
        assert_eq!(d.len(), 1, "`{word}` taken for a name");
    }
}

#[test]
fn base_rules_parse() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/base.rules"))
        .unwrap_or_default();
    let f = parse(&text);
    assert_eq!(f.items.len(), 13);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "rule r on placed {{ let x = {}1{} }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let (_, d) = parse_file(&Source::new("t", deep));
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message.contains("nesting is too deep"),
        "{}",
        d[0].message
    );
    let nots = format!("rule r on placed when {}true {{ }}", "not ".repeat(100_000));
    let (_, d) = parse_file(&Source::new("t", nots));
    assert!(
        d.len() == 1 && d[0].message.contains("nested too deeply"),
        "{d:?}"
    );
    let sum = format!("rule r on placed {{ let x = 1{} }}", " + 1".repeat(100_000));
    let (_, d) = parse_file(&Source::new("t", sum));
    assert!(
        d.len() == 1 && d[0].message.contains("nested too deeply"),
        "{d:?}"
    );
    let fields = format!("rule r on placed {{ let x = a{} }}", ".b".repeat(100_000));
    let (_, d) = parse_file(&Source::new("t", fields));
    assert!(
        d.len() == 1 && d[0].message.contains("nested too deeply"),
        "{d:?}"
    );
    let ok = format!(
        "rule r on placed {{ let x = {}1{} }}",
        "(".repeat(63),
        ")".repeat(63)
    );
    let (f, d) = parse_file(&Source::new("t", ok));
    assert!(d.is_empty() && f.items.len() == 1, "{d:?}");
}

// Issue 8, C3: a limit's count is a number, a parameter or `(expression)`; a group takes a count.
#[test]
fn limit_counts_are_expressions() {
    let ItemKind::Action(a) = one(
        "action sell limit per turn sales limit group sale 2 limit group fair (sales + 1) limit per round 3 { }",
    ) else {
        panic!()
    };
    assert_eq!(a.limits.len(), 4);
    assert!(
        matches!(&a.limits[0].kind, LimitKind::Per { count, .. } if count.kind == ExprKind::Name("sales".into()))
    );
    assert!(
        matches!(&a.limits[1].kind, LimitKind::Group(g, Some(n)) if g.name == "sale" && n.kind == ExprKind::Int(2))
    );
    assert!(
        matches!(&a.limits[2].kind, LimitKind::Group(g, Some(n)) if g.name == "fair" && matches!(n.kind, ExprKind::Binary(BinOp::Add, ..)))
    );
    assert!(matches!(&a.limits[3].kind, LimitKind::Per { unit, .. } if unit.name == "round"));
    // `limit` after a group name starts the next limit, it is not the group's count.
    let ItemKind::Action(a) = one("action sell limit group sale limit no_follower { }") else {
        panic!()
    };
    assert!(matches!(&a.limits[0].kind, LimitKind::Group(g, None) if g.name == "sale"));
    assert!(matches!(&a.limits[1].kind, LimitKind::Flag(f) if f.name == "no_follower"));
}
