//! Replaying a game log: the game is played again from the log's `game_start` (rules, seed, players,
//! parameters, fixed tiles and start squares) and the options its `turn_end` lines name, and the log
//! of the replay is compared line by line with the original, as JSON values (so a log re-written
//! with other spacing is the same log). The rules a log names by path are found relative to the log,
//! and the files they were read from are compared with the hashes in `game_start.sources`
//! ([`crate::sources`]): a change is said, with whether the replay still matches.

use crate::diag::{Code, Diagnostic, Source};
use crate::sources::{changes, locate_rules, SourceFile};
use crate::variant::{InputError, Variant};
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
pub(crate) struct Replayed {
    pub game: crate::game::Game<crate::lang::interp::Interp>,
    pub(crate) variant: crate::variant::Variant,
    pub(crate) lines: Vec<Value>,
    /// The files of the rules that changed since the game was played, one sentence each.
    pub(crate) changed: Vec<String>,
}

/// An error at line `line` (0-based) of the log, with a note on changed rules files when there are.
fn fail(code: Code, src: &Source, line: usize, msg: String, changed: &[String]) -> InputError {
    fail_at(code, src, line, 1, msg, changed)
}

/// [`fail`] at a column (1-based) of the line: the text for people (`error: FILE:LINE:COL: …`), and
/// the problem placed in the log, for `carto check --format json`.
fn fail_at(
    code: Code,
    src: &Source,
    line: usize,
    col: usize,
    msg: String,
    changed: &[String],
) -> InputError {
    let mut text = format!("error: {}:{}:{col}: {msg}", src.name, line + 1);
    let mut d = Diagnostic::error(code, at_line(src, line, col), msg);
    if !changed.is_empty() {
        text.push_str(
            "\n  note: the rules have changed since the game was played, which may be why:",
        );
        let mut note =
            "the rules have changed since the game was played, which may be why:".to_string();
        for c in changed {
            text.push_str(&format!("\n    {c}"));
            note.push_str(&format!("\n  {c}"));
        }
        d = d.with_note(note);
    }
    InputError {
        diagnostics: vec![(src.clone(), d)],
        ..InputError::new(code, text)
    }
}

/// The byte at line `line` (0-based) and column `col` (1-based, in bytes) of the log, within it.
fn at_line(src: &Source, line: usize, col: usize) -> std::ops::Range<usize> {
    let start: usize = src
        .text
        .split_inclusive('\n')
        .take(line)
        .map(str::len)
        .sum();
    let len = src.text[start.min(src.text.len())..]
        .split('\n')
        .next()
        .map_or(0, str::len);
    let mut at = src.settle(start + (col - 1).min(len));
    while !src.text.is_char_boundary(at) {
        at -= 1;
    }
    at..at
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
    replay_with(src, None)
}

/// [`replay`], with the rules read from `rules` (a path the user gave) instead of those the log names.
pub fn replay_with(src: &Source, rules: Option<&std::path::Path>) -> Result<Replay, InputError> {
    let r = replay_game_with(src, rules, &mut |_| {})?;
    let (lines, spacing_differs) = verify(src, &r)?;
    let turns = r.lines.iter().filter(|l| l["event"] == "turn_end").count();
    Ok(Replay {
        turns,
        lines,
        changed: r.changed,
        spacing_differs,
    })
}

/// Compares a replayed game's log with the log it was played from: `Err` at the first line that
/// differs (an edited score, a reordered line, a wrong hash); else the number of lines and whether
/// some line is spaced otherwise than carto writes it.
pub(crate) fn verify(src: &Source, r: &Replayed) -> Result<(usize, bool), InputError> {
    let again = crate::output::json_log(&r.game, &r.variant.params());
    if let Some((i, a, b)) = first_difference(&r.lines, &src.text, &again) {
        let msg = format!("the replay differs here\n  log:    {a}\n  replay: {b}");
        return Err(fail(Code::ReplayDiffers, src, i, msg, &r.changed));
    }
    let (n, m) = (src.text.lines().count(), again.lines().count());
    if n != m {
        let msg = format!("the log has {n} lines, the replay {m}");
        return Err(fail(Code::ReplayDiffers, src, n.min(m), msg, &r.changed));
    }
    let spacing_differs = src.text.lines().zip(again.lines()).any(|(a, b)| a != b);
    Ok((n, spacing_differs))
}

/// The log's lines as JSON values.
fn parse_lines(src: &Source) -> Result<Vec<Value>, InputError> {
    let mut lines = Vec::new();
    for (i, l) in src.text.lines().enumerate() {
        let v: Value = serde_json::from_str(l).map_err(|e| {
            // serde's text ends in " at line 1 column N" (it reads the line on its own): the place
            // is given in front of the message, with the log's own line number.
            let text = e.to_string();
            let what = text
                .rsplit_once(" at line ")
                .map_or(text.as_str(), |(w, _)| w);
            let mut msg = format!("not a JSON line: {what}");
            if i == 0 && !l.trim_start().starts_with('{') {
                msg.push_str("\n  a game log is JSON Lines; to play a script, use `carto run`");
            }
            fail_at(Code::LogLine, src, i, e.column().max(1), msg, &[])
        })?;
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
        .flat_map(|(i, l)| {
            let ended = l["event"] == "turn_end" || l["event"] == "game_end";
            let mut choices = if ended {
                l["choices"].as_array().cloned().unwrap_or_default()
            } else {
                Vec::new()
            };
            // A game that stopped at a pending decision: the choices of its unfinished turn.
            choices.extend(
                l["stopped_turn_choices"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default(),
            );
            choices
                .into_iter()
                .filter_map(move |c| c.as_str().map(|s| (i, s.to_string())))
        })
        .collect()
}

/// A log of a game replayed so far, without what its last line says of where it stopped (the
/// replay stopped there only because it could not go on): to compare with the log's lines.
fn without_stop(log: &str) -> String {
    let Some(last) = log.lines().last() else {
        return log.to_string();
    };
    let Ok(Value::Object(mut m)) = serde_json::from_str::<Value>(last) else {
        return log.to_string();
    };
    if m.remove("stopped_turn_choices").is_none() {
        return log.to_string();
    }
    m.remove("stopped_turn_deciders");
    let head = &log[..log.len() - last.len() - 1];
    format!("{head}{}\n", Value::Object(m))
}

/// Whether the log is of a game that stopped at a pending decision (its last line says so).
fn stopped_early(lines: &[Value]) -> bool {
    lines
        .last()
        .is_some_and(|l| l.get("stopped_turn_choices").is_some())
}

/// What a log's `game_start` line says about the game.
struct Start<'a> {
    rules: &'a str,
    seed: u64,
    players: Vec<String>,
}

/// Reads the `game_start` line (the log's first).
fn read_start<'a>(src: &Source, lines: &'a [Value]) -> Result<Start<'a>, InputError> {
    let bad = |msg: &str| fail(Code::LogStart, src, 0, msg.to_string(), &[]);
    let Some(start) = lines.first().filter(|v| v["event"] == "game_start") else {
        return Err(bad("the log does not begin with a `game_start` line"));
    };
    let rules = start["rules"]
        .as_str()
        .or(start["variant"].as_str())
        .ok_or_else(|| bad("`game_start` names no rules"))?;
    let seed = match &start["seed"] {
        Value::Null => return Err(bad("`game_start` has no seed")),
        s => s.as_u64().ok_or_else(|| {
            bad(&format!(
                "`game_start`'s seed is not a whole number 0 or more: {s}"
            ))
        })?,
    };
    let players: Vec<String> = start["players"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if let Some((p, c)) = players
        .iter()
        .find_map(|p: &String| crate::paths::control_char(p).map(|c| (p, c)))
    {
        return Err(bad(&format!(
            "player name `{}` holds {}: a name is shown on one line",
            p.escape_debug(),
            crate::paths::shown_char(c)
        )));
    }
    Ok(Start {
        rules,
        seed,
        players,
    })
}

/// Loads the variant a log names (a bundled name, or a `.rules` file in the log's folder: see
/// [`crate::paths::log_rules`]), with the log's parameters; every problem is reported at the log's
/// first line. Every file read meanwhile must be in the log's folder. `given` is a rules file the
/// user named (`--rules FILE`), read instead of the log's, from anywhere.
fn load_logged_variant(
    src: &Source,
    start: &Value,
    rules: &str,
    given: Option<&std::path::Path>,
) -> Result<Variant, InputError> {
    let bad = |msg: String| fail(Code::LogRules, src, 0, msg, &[]);
    let sets = param_sets(start);
    let set_error = |i: usize, e: String| {
        let msg = format!("the log's parameter `{}`: {e}", sets[i]);
        fail(Code::BadSet, src, 0, msg, &[])
    };
    if let Some(path) = given {
        // A name that is not UTF-8 is read as it is, shown with `�`.
        return crate::variant::load_variant_at(path, &sets, &set_error)
            .map_err(|e| with_rules_change(e, start, &path.to_string_lossy(), false));
    }
    let bundled = crate::lang::check::BUNDLED_RULES
        .iter()
        .any(|(n, _)| *n == rules);
    if !bundled {
        crate::paths::log_rules(rules).map_err(bad)?;
    }
    let folder = std::path::Path::new(&src.name)
        .parent()
        .unwrap_or(std::path::Path::new(""))
        .to_path_buf();
    crate::files::confined(&folder, || {
        let path = locate_rules(rules, &src.name);
        if !bundled {
            if let Err(e) = crate::files::read_text(std::path::Path::new(&path)) {
                return Err(bad(format!(
                    "cannot read the rules the game was played with: {e}\n  (the log's `rules` is \
                     `{}`, a path relative to the log's folder; `--rules FILE` names rules kept \
                     elsewhere)",
                    rules.escape_debug()
                )));
            }
        }
        crate::variant::load_variant_with(&path, &sets, &set_error)
            .map_err(|e| with_rules_change(e, start, &path, bundled))
    })
}

/// A rules file that no longer loads: says so when it changed since the game was played (its hash
/// is not the log's).
fn with_rules_change(e: InputError, start: &Value, path: &str, bundled: bool) -> InputError {
    let file = std::path::Path::new(path);
    let key = match (bundled, file.file_name()) {
        (true, _) => format!("{}rules/{path}.rules", crate::sources::BUNDLED),
        (false, Some(name)) => name.to_string_lossy().into_owned(),
        (false, None) => return e,
    };
    let Some(logged) = start["sources"][&key].as_str() else {
        return e;
    };
    let now = match bundled {
        true => crate::lang::check::BUNDLED_RULES
            .iter()
            .find(|(n, _)| *n == path)
            .map(|(_, t)| t.to_string()),
        false => crate::files::read_text(file).ok(),
    };
    match now {
        Some(text) if crate::sources::sha256(&text) != logged => InputError {
            text: format!(
                "{}\n\nnote: `{path}` has changed since the game was played (its SHA-256 is not the log's)",
                e.text.trim_end()
            ),
            ..e
        },
        _ => e,
    }
}

/// Plays a logged game again from its seed and choices (without comparing the logs), with the rules
/// read from `given` (a path the user gave) when there is one; `at_decision` sees the game at each
/// decision, before the choice is taken.
pub(crate) fn replay_game_with(
    src: &Source,
    given: Option<&std::path::Path>,
    at_decision: &mut dyn FnMut(&crate::game::Game<crate::lang::interp::Interp>),
) -> Result<Replayed, InputError> {
    let lines = parse_lines(src)?;
    let Start {
        rules,
        seed,
        players,
    } = read_start(src, &lines)?;
    let v = load_logged_variant(src, &lines[0], rules, given)?;
    let (lo, hi) = v.players;
    if players.len() < lo || players.len() > hi {
        return Err(fail(
            Code::LogStart,
            src,
            0,
            format!(
                "the log has {} player{}; {} is for {lo} to {hi}",
                players.len(),
                if players.len() == 1 { "" } else { "s" },
                v.name
            ),
            &[],
        ));
    }
    let logged = logged_sources(&lines[0]);
    let changed = logged
        .as_ref()
        .map(|l| changes(l, &v.config.sources))
        .unwrap_or_default();
    let bad = |line: usize, msg: String| fail(Code::ReplayDiffers, src, line, msg, &changed);
    // A rule's failure says where the rule is.
    let game_bad = |line: usize, e: crate::game::GameError| {
        let at = v
            .failure_note(&e)
            .map(|note| format!("\n  {note}"))
            .unwrap_or_default();
        fail(e.code(), src, line, format!("{e}{at}"), &changed)
    };
    let cfg = logged_config(src, &v, &lines[0], rules, logged)?;
    let mut game = v
        .new_game(Arc::new(cfg), &players, seed, true)
        .map_err(|e| game_bad(0, e))?;
    lay_logged_chips(src, &lines[0], &mut game)?;
    let stopped = stopped_early(&lines);
    let mut next = logged_choices(&lines).into_iter();
    // A choice the replay cannot take is reported at the first line where the replay went another
    // way, when there is one before it (an edited tile or follower line, say).
    let stuck =
        |game: &crate::game::Game<crate::lang::interp::Interp>, line: usize, why: String| {
            let so_far = without_stop(&crate::output::json_log(game, &v.params()));
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
    while game.advance().map_err(|e| game_bad(0, e))? {
        let Some((line, name)) = next.next() else {
            if stopped {
                // The game stopped here when it was played.
                break;
            }
            return Err(stuck(
                &game,
                lines.len().saturating_sub(1),
                "the log ends before the game does".into(),
            ));
        };
        at_decision(&game);
        let i = match game.find_option(&name) {
            Ok(i) => i,
            Err(why) => game
                .find_option_by_faces(&name)
                .ok_or_else(|| stuck(&game, line, why))?,
        };
        game.choose(i).map_err(|e| game_bad(line, e))?;
    }
    Ok(Replayed {
        game,
        variant: v,
        lines,
        changed,
    })
}

/// Lays the chips a script laid after setup (`game_start.chips`), as the game that was logged did.
fn lay_logged_chips(
    src: &Source,
    start: &Value,
    game: &mut crate::game::Game<crate::lang::interp::Interp>,
) -> Result<(), InputError> {
    let Some(chips) = start.get("chips") else {
        return Ok(());
    };
    let bad = |msg: String| {
        let msg = format!("`game_start`'s `chips`: {msg}");
        fail(Code::LogStart, src, 0, msg, &[])
    };
    let Some(chips) = chips.as_array() else {
        return Err(bad("not a list".into()));
    };
    for c in chips {
        let id = c["id"].as_u64().and_then(|i| u16::try_from(i).ok());
        let at = c["at"].as_str();
        let up = match c["face"].as_str() {
            Some("up") => Some(true),
            Some("down") => Some(false),
            _ => None,
        };
        let (Some(id), Some(at), Some(up)) = (id, at, up) else {
            return Err(bad(format!(
                "{c} is not {{\"id\": N, \"at\": PLACE, \"face\": \"up\" or \"down\"}}"
            )));
        };
        crate::script::lay_chip(game, id, at, up).map_err(|(msg, _)| bad(msg))?;
    }
    Ok(())
}

/// The variant's configuration as the log's game had it: the rules and their files named as the log
/// names them (so only the game itself is compared; a change of the files is said apart), and the
/// log's fixed tiles and start squares.
fn logged_config(
    src: &Source,
    v: &Variant,
    start: &Value,
    rules: &str,
    logged: Option<BTreeMap<String, String>>,
) -> Result<crate::game::Config, InputError> {
    let mut cfg = (*v.config).clone();
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
            let t = cfg.tile_by_id(id).ok_or_else(|| {
                let msg = format!("no tile `{id}` in the variant");
                fail(Code::LogStart, src, 0, msg, &[])
            })?;
            order.push(t);
        }
        cfg.fixed_stack = Some(order);
    }
    if let Some(t) = start["start_tile"].as_object() {
        let id = t.get("tile").and_then(|v| v.as_str()).unwrap_or("");
        let ty = cfg.tile_by_id(id).ok_or_else(|| {
            let msg = format!("no start tile `{id}` in the variant");
            fail(Code::LogStart, src, 0, msg, &[])
        })?;
        let deg = t.get("rotation").and_then(|v| v.as_u64()).unwrap_or(0);
        if !matches!(deg, 0 | 90 | 180 | 270) {
            return Err(fail(
                Code::LogStart,
                src,
                0,
                format!("the start tile's rotation is 0, 90, 180 or 270, not {deg}"),
                &[],
            ));
        }
        cfg.start_tile = ty;
        cfg.start_rot = (deg / 90) as u8;
        cfg.start_named = true;
    }
    if let Some(names) = start["starts"].as_array() {
        cfg.start_names = names
            .iter()
            .filter_map(|n| n.as_str().map(String::from))
            .collect();
    }
    Ok(cfg)
}
