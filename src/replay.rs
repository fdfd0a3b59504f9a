//! Replaying a game log: the game is played again from the log's `game_start` (rules, seed, players,
//! parameters, fixed tiles and start squares) and the options its `turn_end` lines name, and the log
//! of the replay is compared line by line with the original.

use crate::diag::Source;
use crate::variant::{load_variant, InputError};
use serde_json::Value;
use std::sync::Arc;

/// How a replay went.
pub struct Replay {
    pub turns: usize,
    pub lines: usize,
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

/// A game played again from its log, with the log's lines.
pub struct Replayed {
    pub game: crate::game::Game<crate::lang::interp::Interp>,
    pub variant: crate::variant::Variant,
    pub lines: Vec<Value>,
}

/// Replays a log; `Err` when the log cannot be read or the replay differs from it.
pub fn replay(src: &Source) -> Result<Replay, InputError> {
    let r = replay_game(src, &mut |_| {})?;
    let bad =
        |line: usize, msg: String| InputError(format!("error: {}:{}: {msg}", src.name, line + 1));
    let (game, v, lines) = (r.game, r.variant, r.lines);
    let again = crate::output::json_log(&game, &v.params());
    for (i, (a, b)) in src.text.lines().zip(again.lines()).enumerate() {
        if a != b {
            return Err(bad(
                i,
                format!("the replay differs here\n  log:    {a}\n  replay: {b}"),
            ));
        }
    }
    let (n, m) = (src.text.lines().count(), again.lines().count());
    if n != m {
        return Err(bad(
            n.min(m),
            format!("the log has {n} lines, the replay {m}"),
        ));
    }
    let turns = lines.iter().filter(|l| l["event"] == "turn_end").count();
    Ok(Replay { turns, lines: n })
}

/// Plays a logged game again from its seed and choices (without comparing the logs);
/// `at_decision` sees the game at each decision, before the choice is taken.
pub fn replay_game(
    src: &Source,
    at_decision: &mut dyn FnMut(&crate::game::Game<crate::lang::interp::Interp>),
) -> Result<Replayed, InputError> {
    let bad =
        |line: usize, msg: String| InputError(format!("error: {}:{}: {msg}", src.name, line + 1));
    let mut lines = Vec::new();
    for (i, l) in src.text.lines().enumerate() {
        let v: Value =
            serde_json::from_str(l).map_err(|e| bad(i, format!("not a JSON line: {e}")))?;
        lines.push(v);
    }
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
    let sets: Vec<String> = start["params"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", param_text(v)))
                .collect()
        })
        .unwrap_or_default();
    let v = load_variant(rules, &sets)?;
    let mut cfg = (*v.config).clone();
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
    let choices: Vec<(usize, String)> = lines
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
        .collect();
    let mut game = v
        .new_game(Arc::new(cfg), &players, seed, true)
        .map_err(|e| bad(0, e.to_string()))?;
    let mut next = choices.into_iter();
    while game.advance().map_err(|e| bad(0, e.to_string()))? {
        let Some((line, name)) = next.next() else {
            return Err(bad(
                lines.len().saturating_sub(1),
                "the log ends before the game does".into(),
            ));
        };
        at_decision(&game);
        let i = game.find_option(&name).map_err(|why| bad(line, why))?;
        game.choose(i).map_err(|e| bad(line, e.to_string()))?;
    }
    Ok(Replayed {
        game,
        variant: v,
        lines,
    })
}
