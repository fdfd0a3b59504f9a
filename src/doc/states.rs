//! The page's section on the state the rules keep (`state NAME …`): each value's name, whose it
//! is, its type and range, its start, when it goes back to its start, and its doc.

use super::page::Page;
use crate::lang::builtins::Ty;
use crate::lang::ir::Program;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub(crate) struct StateInfo {
    pub(crate) name: String,
    /// `game` (one value) or `player` (one value per player).
    pub(crate) of: &'static str,
    #[serde(rename = "type")]
    pub(crate) ty: String,
    /// `in …` as written; empty for a flag or any int.
    pub(crate) range: String,
    pub(crate) start: serde_json::Value,
    /// `turn`, `round` or `never`.
    pub(crate) reset: &'static str,
    pub(crate) doc: String,
}

/// The states of a program, in declaration order.
pub(crate) fn states(p: &Program) -> Vec<StateInfo> {
    p.states
        .iter()
        .map(|s| StateInfo {
            name: s.name.clone(),
            of: if s.per_player { "player" } else { "game" },
            ty: s.ty.to_string(),
            range: s.range.as_ref().map_or(String::new(), |r| r.text()),
            start: if s.ty == Ty::BOOL {
                serde_json::json!(s.start != 0)
            } else {
                serde_json::json!(s.start)
            },
            reset: s.reset.name(),
            doc: s.doc.clone(),
        })
        .collect()
}

/// When a value goes back to its start, for people.
fn reset_words(reset: &str) -> &'static str {
    match reset {
        "turn" => "at the start of every turn",
        "round" => "at the start of every round",
        _ => "never",
    }
}

/// The section in Markdown (empty when the rules keep no state).
pub(crate) fn markdown(p: &Page, cell: &dyn Fn(&str) -> String) -> String {
    if p.states.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n## State the rules keep\n\nCounters and flags the rules set, add to and read; every \
         player sees them. A value outside a counter's range stops the game (never clamped).\n\n\
         | name | whose | type | allowed | start | back to its start | meaning |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for s in &p.states {
        let whose = if s.of == "player" {
            "each player's"
        } else {
            "the game's"
        };
        out.push_str(&format!(
            "| `{}` | {whose} | {} | {} | {} | {} | {} |\n",
            s.name,
            s.ty,
            cell(&s.range),
            super::page::value_text(&s.start),
            reset_words(s.reset),
            cell(&s.doc)
        ));
    }
    out
}

/// The section as plain text for a terminal (empty when the rules keep no state).
pub(crate) fn text(p: &Page) -> Vec<String> {
    p.states
        .iter()
        .map(|s| {
            let whose = if s.of == "player" {
                "each player's"
            } else {
                "the game's"
            };
            let range = if s.range.is_empty() {
                String::new()
            } else {
                format!(" in {}", s.range)
            };
            let doc = if s.doc.is_empty() {
                String::new()
            } else {
                format!(": {}", s.doc)
            };
            format!(
                "{} ({whose} {}{range}, starts at {}, back to it {}){doc}\n",
                s.name,
                s.ty,
                super::page::value_text(&s.start),
                reset_words(s.reset)
            )
        })
        .collect()
}
