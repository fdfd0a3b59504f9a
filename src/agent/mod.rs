//! Agents: who decides at a pending decision. An agent sees what the deciding player sees (a
//! [`View`]: the public game, the player's own hand, the named legal options; never a variant's
//! name, the order of the tiles to come or a hidden chip's face) and returns the index of one
//! option; a new agent needs no change to the engine or to any rules file.
//!
//! Rooms: `random` (uniform over the options), `greedy` (the best immediate gain), `mcts` (Monte
//! Carlo search over greedy's best options, with greedy playouts), `human` (a person at a terminal or a pipe), `lookahead` (the
//! scratch copies of the game the searching agents play in), `value` (what an option would gain,
//! read from the board without a copy), `quiet` (the options whose value may be read so: they run
//! no rule but the scoring), `view` (what a player sees) and `points` (the rules' points for a
//! feature, remembered).

mod greedy;
mod human;
mod lookahead;
mod mcts;
mod points;
mod preview;
mod quiet;
mod random;
mod restricted;
mod value;
mod view;

pub use greedy::Greedy;
pub(crate) use human::Human;
pub(crate) use mcts::{Mcts, DEFAULT_PLAYOUTS, MAX_PLAYOUTS};
pub use preview::points_as_seen;
pub use random::Random;
pub use restricted::{barred, check_barred, Restricted};
pub use view::View;

use crate::game::GameError;
use crate::rng::Rng;

/// A player at the table.
pub trait Agent: Send {
    /// The agent's spec, as `parse_agent` reads it (`random`, `mcts:16`, …).
    fn name(&self) -> &str;
    /// Picks one of `view.options()` (the pending decision, after `game.advance()` returned
    /// `Ok(true)`), for the seat `view.me()`, from what that player sees ([`View::of`] the game).
    /// Randomness comes only from `rng`.
    fn choose(&mut self, view: &View, rng: &mut Rng) -> Result<usize, GameError>;
}

/// A kind of agent `parse_agent` knows. This table is the only list of agent names: the parser,
/// the `--agents` help of `play` and `sim`, their messages and the shell completions read it.
pub struct AgentKind {
    /// The name a spec starts with.
    pub name: &'static str,
    /// Whether the spec may give a number after a colon (`mcts:N`), and the most it may be.
    pub(crate) budget: Option<u32>,
    /// Whether it is a person (who plays at `carto play` only).
    pub person: bool,
    /// Whether the spec names options it is barred from after a colon (`greedy-without:NAME`).
    pub(crate) barring: bool,
    /// The agent, with the number the spec gave.
    make: fn(Option<u32>) -> Box<dyn Agent>,
}

/// Every agent, in the order help texts list them.
pub const AGENTS: &[AgentKind] = &[
    AgentKind {
        name: "random",
        budget: None,
        person: false,
        barring: false,
        make: |_| Box::new(Random),
    },
    AgentKind {
        name: "greedy",
        budget: None,
        person: false,
        barring: false,
        make: |_| Box::new(Greedy::default()),
    },
    AgentKind {
        name: "greedy-without",
        budget: None,
        person: false,
        barring: true,
        make: |_| Box::new(Greedy::default()),
    },
    AgentKind {
        name: "mcts",
        budget: Some(MAX_PLAYOUTS),
        person: false,
        barring: false,
        make: |n| Box::new(Mcts::new(n.unwrap_or(DEFAULT_PLAYOUTS))),
    },
    AgentKind {
        name: "human",
        budget: None,
        person: true,
        barring: false,
        make: |_| Box::new(Human::stdio()),
    },
];

/// The specs `parse_agent` reads, for messages: `random, greedy, mcts, mcts:N, human`.
pub(crate) fn agent_specs() -> String {
    let mut out = Vec::new();
    for k in AGENTS {
        if k.barring {
            out.push(format!("{}:ACTION[+ACTION…]", k.name));
            continue;
        }
        out.push(k.name.to_string());
        if k.budget.is_some() {
            out.push(format!("{}:N", k.name));
        }
    }
    out.join(", ")
}

/// The kind of agent a spec names, and the number it gives (`mcts:50`).
pub fn agent_kind(spec: &str) -> Result<(&'static AgentKind, Option<u32>), String> {
    let spec = spec.trim();
    let (name, n) = match spec.split_once(':') {
        Some((name, n)) => (name, Some(n)),
        None => (spec, None),
    };
    let unknown = || format!("unknown agent `{spec}` (known: {})", agent_specs());
    let kind = AGENTS.iter().find(|k| k.name == name).ok_or_else(unknown)?;
    if kind.barring {
        let ok = n.is_some_and(|n| {
            n.split('+').all(|b| {
                let b = b.trim();
                !b.is_empty()
                    && b.chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == ' ')
            })
        });
        if !ok {
            return Err(format!(
                "`{spec}`: name what it is barred from: `{}:ACTION`, several joined by `+`, or an \
                 answer in full (`{}:pay_toll 2`)",
                kind.name, kind.name
            ));
        }
        return Ok((kind, None));
    }
    let Some(n) = n else {
        return Ok((kind, None));
    };
    let Some(most) = kind.budget else {
        return Err(unknown());
    };
    let n = n
        .parse::<u32>()
        .ok()
        .filter(|p| (1..=most).contains(p))
        .ok_or_else(|| {
            format!("`{spec}`: the playouts per decision must be a number from 1 to {most}")
        })?;
    Ok((kind, Some(n)))
}

/// Reads an agent spec (see [`AGENTS`]): `random`, `greedy`, `mcts` (16 playouts per decision),
/// `mcts:N`, or `human` (a person at standard input and output).
pub fn parse_agent(spec: &str) -> Result<Box<dyn Agent>, String> {
    let (kind, n) = agent_kind(spec)?;
    if kind.barring {
        return Ok(Box::new(Restricted::new(spec.trim(), barred(spec))));
    }
    Ok((kind.make)(n))
}

/// For the agents' unit tests: the made-up variant in `tests/fixtures/agents/NAME.rules` (rules a
/// shortcut of an agent must, or must not, be taken for; each file says what it is for).
#[cfg(test)]
pub(crate) fn fixture(name: &str) -> crate::variant::Variant {
    let path = format!(
        "{}/tests/fixtures/agents/{name}.rules",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file = format!("{name}.rules");
    let source = crate::diag::Source::new(&file, &text);
    let no_sets =
        |_: usize, e: String| crate::variant::InputError::new(crate::diag::Code::BadSet, e);
    crate::variant::variant_from_source(&source, &file, &[], &no_sets)
        .unwrap_or_else(|e| panic!("{name} rules: {}", e.text))
}

/// For the agents' unit tests: every bundled variant by name, and `extra` (a made-up variant, see
/// [`fixture`]).
#[cfg(test)]
pub(crate) fn bundled_and(
    extra: Option<(&str, crate::variant::Variant)>,
) -> Vec<(String, crate::variant::Variant)> {
    let mut all: Vec<(String, crate::variant::Variant)> = crate::variant::bundled_variants()
        .map(|(name, _)| {
            let v =
                crate::variant::load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name.to_string(), v)
        })
        .collect();
    all.extend(extra.map(|(name, v)| (name.to_string(), v)));
    all
}
