//! What the language's own words mean, from the tables every part of carto reads (builtins, fields,
//! triggers, keywords): the text of a hover and the items of a completion.

use crate::lang::builtins::{Builtin, Trigger, Ty, FIELDS};

/// What a word of the language is, at its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Followed by `(`: a builtin's call.
    Call,
    /// After `.`: a field (or a map attribute).
    Field,
    /// After `on`: a trigger.
    Trigger,
    /// Anything else.
    Plain,
}

/// The builtin `name`'s signature and doc, in Markdown.
pub fn builtin(name: &str) -> Option<String> {
    let b = Builtin::all().find(|b| b.written() && b.info().name == name)?;
    let i = b.info();
    let kind = if i.effect {
        "effect (a statement)"
    } else {
        "query (a value)"
    };
    Some(format!(
        "```carto\n{}\n```\n{kind}: {}",
        b.signature(),
        i.doc
    ))
}

/// Every field of this name (one per owner type), in Markdown.
pub fn field(name: &str) -> Option<String> {
    let rows: Vec<String> = FIELDS
        .iter()
        .filter(|(_, n, ..)| *n == name)
        .map(|(owner, n, _, ty, doc)| format!("```carto\n{}.{n}: {ty}\n```\n{doc}", owner.name()))
        .collect();
    (!rows.is_empty()).then(|| rows.join("\n\n"))
}

/// A trigger: when it fires and what a rule on it sees.
pub fn trigger(name: &str) -> Option<String> {
    let t = Trigger::from_name(name)?;
    Some(format!(
        "```carto\non {}\n```\nFires {}.{}",
        t.name(),
        t.phrase(),
        binds_text(t)
    ))
}

fn binds_text(t: Trigger) -> String {
    let binds: Vec<String> = t
        .binds()
        .iter()
        .zip(t.bound_phrases())
        .map(|((n, b), p)| format!("`{n}: {}` ({p})", Ty::from(*b)))
        .collect();
    if binds.is_empty() {
        " A rule on it sees no names of its own.".into()
    } else {
        format!(" A rule on it sees {}.", binds.join(", "))
    }
}

/// Whether `name` is bound by some trigger (`player`, `square`, `feature`, …), and what it is.
pub fn bound_name(name: &str) -> Option<String> {
    let mut seen = Vec::new();
    for t in Trigger::ALL {
        for ((n, b), p) in t.binds().iter().zip(t.bound_phrases()) {
            if *n == name && !seen.iter().any(|(x, _)| *x == t.name()) {
                seen.push((t.name(), format!("`{n}: {}`, {p}", Ty::from(*b))));
            }
        }
    }
    let (_, first) = seen.first()?;
    let on: Vec<&str> = seen.iter().map(|(t, _)| *t).collect();
    Some(format!(
        "{first}: bound by the trigger of a rule (`on {}`).",
        on.join("`, `on ")
    ))
}

/// The hover text of a language word in its role.
pub fn hover(word: &str, role: Role) -> Option<String> {
    match role {
        Role::Call => builtin(word).or_else(|| aggregate(word)),
        Role::Field => field(word),
        Role::Trigger => trigger(word),
        Role::Plain => bound_name(word)
            .or_else(|| keyword(word).map(str::to_string))
            .or_else(|| builtin(word)),
    }
}

/// The aggregates' forms.
fn aggregate(word: &str) -> Option<String> {
    let what = match word {
        "count" => "how many elements pass the `where` condition",
        "sum" => "the sum of the `:` values",
        "any" => "whether some element passes the condition",
        "all" => "whether every element passes the condition",
        "min" | "max" => "the least or greatest of the `:` values",
        "distinct" => "how many different `:` values there are",
        "sort" => "the elements in ascending order of the `:` key (stable)",
        _ => return None,
    };
    Some(format!(
        "```carto\n{word}(x in LIST where CONDITION: VALUE)\n```\nAn aggregate: {what}."
    ))
}

/// One line on a keyword.
pub fn keyword(word: &str) -> Option<&'static str> {
    KEYWORDS.iter().find(|(k, _)| *k == word).map(|(_, d)| *d)
}

/// The keywords with one line each (completion and hover).
pub const KEYWORDS: &[(&str, &str)] = &[
    ("import", "`import \"NAME\"`: the rules of a bundled file or of a path relative to this file"),
    ("variant", "`variant \"name\" { key = value … }`: the header of a playable variant"),
    ("param", "`param NAME: TYPE [in RANGE] = DEFAULT \"doc\"`: a parameter people may set"),
    ("override", "`override NAME = VALUE`: a new default for an imported parameter"),
    ("chips", "`chips { colour VALUE x COUNT, … }`: the chip set"),
    ("holding", "`holding NAME [\"Title\"] [per player]`: an area off the board that holds followers or chips"),
    ("setup", "`setup { … }`: statements run once before the first turn"),
    ("rule", "`rule NAME on TRIGGER [when CONDITION] { … }`: runs when the trigger fires"),
    ("action", "`action NAME [phase P] [limit …] [when C] [choose x: …] { … }`: an option a player may take"),
    ("forced", "`forced NAME [when C] [choose x: …] { … }`: an action taken as soon as its condition holds"),
    ("remove", "`remove rule NAME` / `remove action NAME`: the imported definition is no longer in force"),
    ("replace", "`replace rule …` / `replace action …`: a whole new definition for an imported one"),
    ("change", "`change rule NAME [when C] [{ … }]`: new parts for an imported definition"),
    ("when", "the condition under which a rule or action applies"),
    ("phase", "the phase of the turn an action is offered in: start, follower, score or after"),
    ("limit", "`limit per turn N`, `limit per round N`, `limit group G [N]`, `limit no_follower`, `limit not_extra`"),
    ("choose", "`choose x: LIST [where C]` or `choose x: chips from LIST [size N] [where C]`: what the player picks"),
    ("let", "`let x = VALUE`: a name for the rest of the block"),
    ("if", "`if C { … } else if C { … } else { … }`"),
    ("for", "`for x in LIST { … }`"),
    ("ask", "`ask PLAYER ACTION(ARGS)`: offers an asked action to a player (or each of a list)"),
    ("on", "`rule NAME on TRIGGER`: the moment the rule runs"),
    ("in", "`x in LIST`, `param p: int in 0..9`"),
    ("where", "a condition on each element"),
    ("and", "both conditions"),
    ("or", "either condition"),
    ("not", "the condition does not hold"),
    ("true", "a boolean"),
    ("false", "a boolean"),
    ("one", "`one of [ … ]`: the values a parameter may take"),
    ("of", "`one of [ … ]`"),
    ("per", "`limit per turn N`, `holding NAME per player`"),
    ("group", "`limit group G [N]`: at most N actions of the group per turn"),
    ("size", "`size N` or `size LO..HI`: how many chips a `chips from` choice takes"),
    ("from", "`chips from LIST`"),
    ("list", "`list<TYPE>`: a list type"),
];
