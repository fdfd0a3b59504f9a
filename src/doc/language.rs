//! The language reference (`docs/language.md`, printed by `carto doc --builtins`): every trigger,
//! statement, expression, query, effect and field of the rules language, made from the tables the
//! checker reads (the builtins' and fields' rows in `lang::builtins`, the engine's triggers), each
//! with its signature, what it does and an example. `cargo test` checks that the committed page is
//! this one and that every example checks and plays in a variant on the base game (tests/doc.rs).
//!
//! A builtin's or a field's example is a column of its row (`example r#"…"#`); a trigger's, a
//! statement's and an expression's are in the tables below.

use crate::lang::builtins::{
    Base, Builtin, Trigger, Ty, FIELDS, HEADER_KEYS, LIMIT_FLAGS, LIMIT_UNITS, PHASES,
};

/// What every example is checked and played after: the base game with chips and two holding areas
/// (`isle`, shared, and `bid`, one per player), then the example's items. The test that plays them
/// puts the game on the small map the tests use (a map names no map here), so that examples may read
/// map attributes.
pub const PRELUDE: &str = "import \"base\"\n\
    variant \"example\" {\n  title = \"An example\"\n}\n\
    chips { blue 1 x 4, orange 2 x 4 }\n\
    holding isle \"an island\"\n\
    holding bid per player\n";

/// A trigger's example: a rule on it. (A new trigger needs its example here.)
fn trigger_example(t: Trigger) -> &'static str {
    match t {
        Trigger::Placed => "rule r on placed when square.x == 0 { score(player, 1) }",
        Trigger::Adjacent => {
            "rule r on adjacent when side == city and square.covered { score(player, 1) }"
        }
        Trigger::Abroad => "rule r on abroad when kind == road { score(player, 3) }",
        Trigger::Gained => "rule r on gained { score(player, chip.value) }",
        Trigger::FollowerPlaced => {
            "rule r on follower_placed when follower.feature.kind == field { score(player, -1) }"
        }
        Trigger::Scored => {
            "rule r on scored when feature.kind == road { score(feature.winners, feature.tiles) }"
        }
        Trigger::Returned => "rule r on returned { draw(1, supply, hand(player), up) }",
        Trigger::TurnStart => "rule r on turn_start when turn_number() == 5 { score(player, 1) }",
        Trigger::TurnEnd => {
            "rule r on turn_end when turn_followers_placed() == 0 { score(player, 1) }"
        }
        Trigger::RoundEnd => "rule r on round_end { score(current_player(), 1) }",
        Trigger::GameEnd => {
            "rule r on game_end { for p in players() { score(p, len(chips(hand(p)))) } }"
        }
        Trigger::Answered => {
            "rule r on turn_start when turn_number() == 2 { ask players() pick() }\n\
             action pick() choose c: take(chips(supply), 2) { move(c, hand(player), up) }\n\
             rule settle on answered { score(player, len(chips(hand(player)))) }"
        }
        Trigger::TileDrawn => "rule r on tile_drawn when tile.shields > 0 { score(player, 1) }",
    }
}

/// A construct of the language that no table row describes: its form, what it does, an example.
pub struct Construct {
    pub form: &'static str,
    pub doc: &'static str,
    pub example: &'static str,
}

/// The statements of a block (setup, rule and action bodies).
pub const STATEMENTS: &[Construct] = &[
    Construct {
        form: "let NAME = EXPR",
        doc: "names a value for the rest of the block",
        example: "rule r on scored when feature.kind == city {\n  let n = feature.tiles + feature.shields\n  score(feature.winners, n * n)\n}",
    },
    Construct {
        form: "if COND { … } else if COND { … } else { … }",
        doc: "runs the block of the first condition that holds (or the `else` block)",
        example: "rule r on scored when feature.kind == road {\n  if feature.tiles > 5 {\n    score(feature.winners, 2)\n  } else {\n    score(feature.winners, 1)\n  }\n}",
    },
    Construct {
        form: "for NAME in LIST { … }",
        doc: "runs the block once for each element of a list, a range or a set of players, in order",
        example: "rule r on game_end {\n  for p in players() {\n    score(p, 2 * len(chips(hand(p))))\n  }\n}",
    },
    Construct {
        form: "ask WHO ACTION(ARGS)",
        doc: "asks a player, each player of a set (in turn order from the current player) or of a list for a decision: an asked action (one with a parameter list), offered once the step that asked is over",
        example: "rule toll on scored when feature.kind == road and feature.complete {\n  ask feature.winners pay(feature)\n}\naction pay(road: feature) choose c: chips(hand(player)) {\n  move(c, box, up)\n  score(player, road.tiles)\n}",
    },
    Construct {
        form: "EFFECT(ARGS)",
        doc: "an effect changes the game (see Effects); a query's value must be used",
        example: "rule r on turn_end { score(player, 1) }",
    },
];

/// Expressions beyond names, literals and calls.
pub const EXPRESSIONS: &[Construct] = &[
    Construct {
        form: "+ - * / %",
        doc: "integer arithmetic (`/` rounds toward zero; an overflow or a division by zero stops the game with an error)",
        example: "rule r on scored when feature.kind == city { score(feature.winners, (feature.tiles + feature.shields) * 2) }",
    },
    Construct {
        form: "== != < <= > >=",
        doc: "comparisons (`==` and `!=` of any two values of one type)",
        example: "rule r on placed when square.x >= 2 and square.y != 0 { score(player, 1) }",
    },
    Construct {
        form: "and or not",
        doc: "conditions (the right side of `and`/`or` is evaluated only when it decides)",
        example: "rule r on scored when feature.kind == road and not feature.complete { score(feature.winners, 1) }",
    },
    Construct {
        form: "if COND then A else B",
        doc: "a conditional value: A when the condition holds, else B (only the one chosen is evaluated); both have one type; `else` takes the rest of the expression: `(if c then a else b) + 1`",
        example: "rule r on scored when feature.kind == road {\n  score(feature.winners, if feature.complete then 2 * feature.tiles else feature.tiles)\n}",
    },
    Construct {
        form: "[A, B]  {1: 2, 3: 4}  A..B  X[I]",
        doc: "a list, a constant table from numbers to numbers, a range (both ends included), indexing a list (from 0) or a table",
        example: "rule r on scored when feature.kind == city {\n  score(feature.winners, {1: 1, 2: 3, 3: 6}[min(feature.tiles, 3)])\n}",
    },
    Construct {
        form: "count sum any all min max distinct sort (X in LIST where COND: EXPR)",
        doc: "aggregates over a list: `where` filters, `: EXPR` maps (both optional); `distinct` counts different values, `sort` gives the elements by ascending key",
        example: "rule r on turn_end {\n  score(player, sum(c in chips(hand(player)) where c.face_up: c.value))\n}",
    },
    Construct {
        form: "[X in LIST where COND: EXPR]",
        doc: "a list made from another: filtered and mapped",
        example: "rule r on placed {\n  move([c in chips(at(square)) where c.colour == blue], hand(player), up)\n}",
    },
];

/// Every example of the page, with what it is the example of (for the test that plays them).
pub fn examples() -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    for t in Trigger::ALL {
        out.push((format!("trigger `{}`", t.name()), trigger_example(t)));
    }
    for c in STATEMENTS.iter().chain(EXPRESSIONS) {
        out.push((format!("`{}`", c.form), c.example));
    }
    for b in Builtin::all() {
        let i = b.info();
        out.push((format!("builtin `{}`", i.name), i.example));
    }
    for (owner, name, f, ..) in FIELDS {
        out.push((format!("field `{}.{name}`", owner.name()), f.info().example));
    }
    out
}

/// The language reference, in Markdown.
pub fn markdown() -> String {
    let mut out = String::from(
        "# The rules language: reference\n\n\
         Generated from the tables the checker reads (`carto doc --builtins` prints it; `cargo test` \
         checks that this page is fresh, and checks and plays every example). What the constructs \
         mean in depth, with the design: [grammar/DESIGN.md](../grammar/DESIGN.md); the grammar rule \
         by rule: [grammar/GRAMMAR.md](../grammar/GRAMMAR.md).\n\n\
         Every example is checked and played (two random games) after these lines, which it may \
         use (chips of two colours, a holding area `isle` and one per player, `bid`), with the game \
         on the small map of the tests (its squares have towns, islands, large cities and map \
         attributes such as `colour`):\n\n",
    );
    out.push_str(&fence(PRELUDE.trim_end()));
    out.push_str(&contents());
    out.push_str(&items());
    out.push_str(&triggers());
    out.push_str(&constructs("Statements", STATEMENTS));
    out.push_str(&constructs("Expressions", EXPRESSIONS));
    out.push_str(&builtins(false));
    out.push_str(&builtins(true));
    out.push_str(&fields());
    out
}

fn fence(code: &str) -> String {
    format!("```\n{code}\n```\n\n")
}

fn contents() -> String {
    "## Contents\n\n\
     [Items and types](#items-and-types) · [Triggers](#triggers) · [Statements](#statements) · \
     [Expressions](#expressions) · [Queries](#queries) · [Effects](#effects) · [Fields](#fields)\n\n"
        .to_string()
}

/// The items of a file, the header's keys, the types, phases and limits (short: DESIGN.md says more).
fn items() -> String {
    let mut out = String::from(
        "## Items and types\n\n\
         A rules file is a list of items: `import \"NAME\"`, `variant \"NAME\" { KEY = VALUE … }`, \
         `param NAME: TYPE [in RANGE] = VALUE [\"doc\"]`, `override NAME = VALUE`, `chips { COLOUR VALUE x COUNT, … }`, \
         `holding NAME [\"title\"] [per player]`, `setup { … }`, `rule NAME on TRIGGER [when COND] { … }`, \
         `action NAME [phase PHASE] [limit LIMIT]… [when COND] [choose NAME: …]… { … }` (with a parameter list \
         `action NAME(P: TYPE, …)` it is asked: see `ask`), `forced NAME [when COND] [choose …]… { … }`, and the \
         house rules `replace rule|action …`, `change rule|action NAME …`, `remove rule|action NAME`.\n\n\
         | header key | type | meaning |\n|---|---|---|\n",
    );
    for (_, name, ty, doc) in HEADER_KEYS {
        out.push_str(&format!("| `{name}` | {ty} | {doc} |\n"));
    }
    let types: Vec<String> = Base::NAMED.iter().map(|(n, _)| format!("`{n}`")).collect();
    let phases: Vec<String> = PHASES.iter().map(|(n, _)| format!("`{n}`")).collect();
    let units: Vec<String> = LIMIT_UNITS.iter().map(|u| format!("`per {u} N`")).collect();
    let flags: Vec<String> = LIMIT_FLAGS.iter().map(|f| format!("`{f}`")).collect();
    out.push_str(&format!(
        "\nTypes: {}, and `list<T>` of any of them. Phases of actions: {}. Limits: {}, `group NAME [N]`, {}.\n\n",
        types.join(", "),
        phases.join(", "),
        units.join(", "),
        flags.join(", ")
    ));
    out
}

fn triggers() -> String {
    let mut out = String::from(
        "## Triggers\n\n`rule NAME on TRIGGER [when COND] { … }`: the rules on one trigger run in the \
         order of the program (an imported file's before the importing file's; see the variant's page).\n\n",
    );
    for t in Trigger::ALL {
        let binds: Vec<String> = t
            .binds()
            .iter()
            .zip(t.bound_phrases())
            .map(|((name, kind), phrase)| format!("`{name}` ({}: {phrase})", Ty::from(*kind)))
            .collect();
        let binds = if binds.is_empty() {
            "nothing".to_string()
        } else {
            binds.join(", ")
        };
        out.push_str(&format!(
            "### `{}`\n\nFires {}. Binds {binds}.\n\n",
            t.name(),
            t.phrase()
        ));
        out.push_str(&fence(trigger_example(t)));
    }
    out
}

fn constructs(title: &str, list: &[Construct]) -> String {
    let mut out = format!("## {title}\n\n");
    for c in list {
        out.push_str(&format!("### `{}`\n\n{}.\n\n", c.form, capital(c.doc)));
        out.push_str(&fence(c.example));
    }
    out
}

/// The queries (`effects` false) or the effects, each with its signature.
fn builtins(effects: bool) -> String {
    let mut out = if effects {
        String::from("## Effects\n\nStatements that change the game; they give no value.\n\n")
    } else {
        String::from("## Queries\n\nBuiltins that give a value and change nothing.\n\n")
    };
    for b in Builtin::all().filter(|b| b.info().effect == effects) {
        let i = b.info();
        out.push_str(&format!(
            "### `{}`\n\n{}.\n\n",
            b.signature(),
            capital(i.doc)
        ));
        out.push_str(&fence(i.example));
    }
    out
}

fn fields() -> String {
    let mut out = String::from("## Fields\n\n`VALUE.FIELD`, by the type of the value.\n\n");
    for (owner, name, f, ty, doc) in FIELDS {
        out.push_str(&format!(
            "### `{}.{name}: {ty}`\n\n{}.\n\n",
            owner.name(),
            capital(doc)
        ));
        out.push_str(&fence(f.info().example));
    }
    out
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
