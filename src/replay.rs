//! Replaying a game log: the game is played again from the log's `game_start` (rules, seed, players,
//! parameters, fixed tiles and start squares) and the options its `turn_end` lines name, and the log
//! of the replay is compared line by line with the original, as JSON values (so a log re-written
//! with other spacing is the same log). The rules a log names by path are found relative to the log,
//! and the files they were read from are compared with the hashes in `game_start.sources`
//! ([`crate::sources`]): a change is said, with whether the replay still matches.

use crate::diag::Source;
use crate::sources::{changes, locate_rules, SourceFile};
use crate::variant::{load_variant, InputError};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// How a replay went.
pub struct Replay {
    pub turns: usize,
    pub lines: usize,
    /// The files of the rules that changed since the game was played, one sentence each.
    pub changed: Vec<String>,
    /// Some line is written with other spacing (or key order) than carto writes, with the same content.
    pub spacing_differs: bool,
}

/// A game played again from its log, with the log's lines.
pub struct Replayed {
    pub game: crate::game::Game<crate::lang::interp::Interp>,
    pub variant: crate::variant::Variant,
    pub lines: Vec<Value>,
    /// The files of the rules that changed since the game was played, one sentence each.
    pub changed: Vec<String>,
}

/// An error at line `line` (0-based) of the log, with a note on changed rules files when there are.
fn fail(src: &Source, line: usize, msg: String, changed: &[String]) -> InputError {
    let mut text = format!("error: {}:{}: {msg}", src.name, line + 1);
    if !changed.is_empty() {
        text.push_str(
            "\n  note: the rules have changed since the game was played, which may be why:",
        );
        for c in changed {
            text.push_str(&format!("\n    {c}"));
        }
    }
    InputError(text)
}

/// The first line (0-based) where the log's values and the replay's text differ, with both lines.
fn first_difference(log: &[Value], log_text: &str, again: &str) -> Option<(usize, String, String)> {
    let mut log_lines = log_text.lines();
    for (i, b) in again.lines().enumerate() {
        let a = log_lines.next()?;
        let same = match (log.get(i), serde_json::from_str::<Value>(b)) {
            (Some(x), Ok(y)) => *x == y,
            _ => false,
        };
        if !same {
            return Some((i, a.to_string(), b.to_string()));
        }
    }
    None
}

/// Replays a log; `Err` when the log cannot be read or the replay differs from it.
pub fn replay(src: &Source) -> Result<Replay, InputError> {
    let r = replay_game(src, &mut |_| {})?;
    let again = crate::output::json_log(&r.game, &r.variant.params());
    if let Some((i, a, b)) = first_difference(&r.lines, &src.text, &again) {
        let msg = format!("the replay differs here\n  log:    {a}\n  replay: {b}");
        return Err(fail(src, i, msg, &r.changed));
    }
    let (n, m) = (src.text.lines().count(), again.lines().count());
    if n != m {
        let msg = format!("the log has {n} lines, the replay {m}");
        return Err(fail(src, n.min(m), msg, &r.changed));
    }
    let spacing_differs = src.text.lines().zip(again.lines()).any(|(a, b)| a != b);
    let turns = r.lines.iter().filter(|l| l["event"] == "turn_end").count();
    Ok(Replay {
        turns,
        lines: n,
        changed: r.changed,
        spacing_differs,
    })
}

/// The log's lines as JSON values.
fn parse_lines(src: &Source) -> Result<Vec<Value>, InputError> {
    let mut lines = Vec::new();
    for (i, l) in src.text.lines().enumerate() {
        let v: Value = serde_json::from_str(l)
            .map_err(|e| fail(src, i, format!("not a JSON line: {e}"), &[]))?;
        lines.push(v);
    }
    Ok(lines)
}

fn param_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(m) => {
            let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            format!("{{{}}}", parts.join(", "))
        }
        v => v.to_string(),
    }
}

/// The `name=value` overrides that give the parameters a `game_start` line records.
fn param_sets(start: &Value) -> Vec<String> {
    start["params"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", param_text(v)))
                .collect()
        })
        .unwrap_or_default()
}

/// The files `game_start.sources` names (key → hash); `None` for a log written before there were.
fn logged_sources(start: &Value) -> Option<BTreeMap<String, String>> {
    let m = start["sources"].as_object()?;
    Some(
        m.iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
            .collect(),
    )
}

/// Every choice of the log, with the line (0-based) that records it.
fn logged_choices(lines: &[Value]) -> Vec<(usize, String)> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l["event"] == "turn_end" || l["event"] == "game_end")
        .flat_map(|(i, l)| {
            l["choices"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter_map(move |c| c.as_str().map(|s| (i, s.to_string())))
        })
        .collect()
}

/// Plays a logged game again from its seed and choices (without comparing the logs);
/// `at_decision` sees the game at each decision, before the choice is taken.
pub fn replay_game(
    src: &Source,
    at_decision: &mut dyn FnMut(&crate::game::Game<crate::lang::interp::Interp>),
) -> Result<Replayed, InputError> {
    let lines = parse_lines(src)?;
    let bad = |line: usize, msg: String| fail(src, line, msg, &[]);
    let Some(start) = lines.first().filter(|v| v["event"] == "game_start") else {
        return Err(bad(
            0,
            "the log does not begin with a `game_start` line".into(),
        ));
    };
    let rules = start["rules"]
        .as_str()
        .or(start["variant"].as_str())
        .ok_or_else(|| bad(0, "`game_start` names no rules".into()))?;
    let seed = start["seed"]
        .as_u64()
        .ok_or_else(|| bad(0, "`game_start` has no seed".into()))?;
    let players: Vec<String> = start["players"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let path = locate_rules(rules, &src.name);
    if !crate::lang::check::BUNDLED_RULES
        .iter()
        .any(|(n, _)| *n == rules)
    {
        if let Err(e) = crate::files::read_text(std::path::Path::new(&path)) {
            return Err(bad(
                0,
                format!(
                    "cannot read the rules the game was played with: {e}\n  \
                     (the log's `rules` is `{rules}`, a path relative to the log's folder)"
                ),
            ));
        }
    }
    let v = load_variant(&path, &param_sets(start))?;
    let logged = logged_sources(start);
    let changed = logged
        .as_ref()
        .map(|l| changes(l, &v.config.sources))
        .unwrap_or_default();
    let bad = |line: usize, msg: String| fail(src, line, msg, &changed);
    let mut cfg = (*v.config).clone();
    // The replay's log names the rules and their files as the original did, so that only the game
    // itself is compared; a change of the files is said apart.
    cfg.rules = rules.to_string();
    cfg.sources = logged
        .unwrap_or_default()
        .into_iter()
        .map(|(key, hash)| SourceFile {
            shown: key.clone(),
            key,
            hash,
        })
        .collect();
    if let Some(ids) = start["tiles"].as_array() {
        let mut order = Vec::new();
        for id in ids {
            let id = id.as_str().unwrap_or("");
            order.push(
                cfg.tile_by_id(id)
                    .ok_or_else(|| bad(0, format!("no tile `{id}` in the variant")))?,
            );
        }
        cfg.fixed_stack = Some(order);
    }
    if let Some(names) = start["starts"].as_array() {
        cfg.start_names = names
            .iter()
            .filter_map(|n| n.as_str().map(String::from))
            .collect();
    }
    let mut game = v
        .new_game(Arc::new(cfg), &players, seed, true)
        .map_err(|e| bad(0, e.to_string()))?;
    let mut next = logged_choices(&lines).into_iter();
    // A choice the replay cannot take is reported at the first line where the replay went another
    // way, when there is one before it (an edited tile or follower line, say).
    let stuck =
        |game: &crate::game::Game<crate::lang::interp::Interp>, line: usize, why: String| {
            let so_far = crate::output::json_log(game, &v.params());
            match first_difference(&lines, &src.text, &so_far) {
                Some((i, a, b)) if i < line => bad(
                    i,
                    format!(
                        "the replay differs here\n  log:    {a}\n  replay: {b}\n  \
                     (and at line {}: {why})",
                        line + 1
                    ),
                ),
                _ => bad(line, why),
            }
        };
    while game.advance().map_err(|e| bad(0, e.to_string()))? {
        let Some((line, name)) = next.next() else {
            return Err(stuck(
                &game,
                lines.len().saturating_sub(1),
                "the log ends before the game does".into(),
            ));
        };
        at_decision(&game);
        let i = game
            .find_option(&name)
            .map_err(|why| stuck(&game, line, why))?;
        game.choose(i).map_err(|e| bad(line, e.to_string()))?;
    }
    Ok(Replayed {
        game,
        variant: v,
        lines,
        changed,
    })
}
