//! The subcommands, one room each (its clap `Args` and its `run`), and what they share: how a command
//! fails, how it writes to stdout, and the checks on player names.

/// Writes to stdout through `cmd::write_stdout`: a closed pipe (`carto play base | head`) ends carto
/// quietly, any other write error (a full disk) makes it exit 1 with a message.
macro_rules! emit {
    ($($t:tt)*) => {
        $crate::cmd::write_stdout(format_args!($($t)*))
    };
}
macro_rules! emitln {
    () => {
        $crate::cmd::write_stdout(format_args!("\n"))
    };
    ($($t:tt)*) => {{
        $crate::cmd::write_stdout(format_args!($($t)*));
        $crate::cmd::write_stdout(format_args!("\n"));
    }};
}

pub(crate) mod bench;
pub(crate) mod check;
pub(crate) mod completions;
pub(crate) mod doc;
pub(crate) mod fmt;
pub(crate) mod list;
pub(crate) mod lsp;
pub(crate) mod play;
pub(crate) mod render;
pub(crate) mod replay;
pub(crate) mod run;
pub(crate) mod sim;
pub(crate) mod sim_many;
pub(crate) mod tune;
pub(crate) mod view;

use carto::diag::Code;
use carto::game::{Game, GameError};
use carto::lang::interp::Interp;
use carto::variant::{InputError, Variant};
use std::path::{Path, PathBuf};

/// How `check`, `list` and `bench` write their results: text for people or JSON for programs (field
/// names in docs/json-output.md, pinned by tests/cli.rs).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    Json,
}

/// Writes a JSON value to stdout, pretty-printed, with a final newline.
pub(crate) fn emit_json(v: &serde_json::Value) {
    let text = serde_json::to_string_pretty(v).unwrap_or_default();
    emitln!("{text}");
}

/// The first error writing to stdout, reported when the command ends.
static STDOUT_ERROR: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Writes to stdout (see `emit!`).
pub(crate) fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write as _;
    let result = std::io::stdout().lock().write_fmt(args);
    if let Err(e) = result {
        stdout_failed(e);
    }
}

fn stdout_failed(e: std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        // The reader has gone (`| head`): nothing more to say to anyone.
        std::process::exit(0);
    }
    let mut first = STDOUT_ERROR.lock().unwrap_or_else(|p| p.into_inner());
    first.get_or_insert_with(|| e.to_string());
}

/// Flushes stdout; the first write error of the command, if any, as a failure (exit 1).
pub(crate) fn finish_stdout() -> Result<(), Failure> {
    use std::io::Write as _;
    if let Err(e) = std::io::stdout().lock().flush() {
        stdout_failed(e);
    }
    let first = STDOUT_ERROR
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    match first {
        Some(e) => Err(Failure::Input(InputError::new(
            Code::CannotWrite,
            format!("error: cannot write to standard output: {e}"),
        ))),
        None => Ok(()),
    }
}

/// Writes `text` to the file `path` (never onto a file this command read), or to standard output
/// for `-`.
pub(crate) fn write_to(path: &Path, text: &str, what: &str) -> Result<(), Failure> {
    if is_stdio(path) {
        emit!("{text}");
        return Ok(());
    }
    carto::files::write_text(path, text, what)
        .map_err(|(code, e)| Failure::Input(InputError::new(code, format!("error: {e}"))))
}

/// Writes a game's log to `path` (`-`: standard output), naming its rules relative to the log's
/// folder; warns when that is outside the folder, where a replay will not read them unless told
/// (`--rules`).
pub(crate) fn write_log(
    game: &Game<Interp>,
    params: &[(String, serde_json::Value)],
    path: &Path,
) -> Result<(), Failure> {
    let rules = carto::sources::rules_for_log(&game.cfg.rules, path);
    let text = carto::output::json_log_with_rules(game, params, &rules);
    write_to(path, &text, "the log")?;
    let bundled = carto::lang::check::BUNDLED_RULES
        .iter()
        .any(|(n, _)| *n == rules);
    if !bundled && carto::paths::log_rules(&rules).is_err() {
        eprintln!(
            "warning: the log names its rules as `{}`, outside its folder: replay, render and view \
             will read them only when named with `--rules FILE` (or keep the rules beside the log)",
            rules.escape_debug()
        );
    }
    Ok(())
}

pub(crate) const MAX_PLAYERS: usize = 6;
/// The most games `bench` and `sim` will play in one run.
pub(crate) const MAX_GAMES: u64 = 100_000_000;

/// Why a command failed: a problem in the input (exit 1), bad usage (exit 2, [`Code::BadArguments`]),
/// or problems the command has reported already (exit 1: `check`).
pub(crate) enum Failure {
    Input(InputError),
    Usage(String),
    Reported,
}

impl Failure {
    /// The failure for `--format json`: `{"diagnostics": [...]}`, each with its code, in the shape
    /// of `check`'s; `None` for problems reported already.
    pub(crate) fn json(&self) -> Option<serde_json::Value> {
        let diagnostics: Vec<serde_json::Value> = match self {
            Failure::Input(e) if !e.diagnostics.is_empty() => e
                .diagnostics
                .iter()
                .map(|(src, d)| carto::output::diagnostic_json(src, d))
                .collect(),
            Failure::Input(e) => vec![carto::output::unlocated_json(None, e.code, &e.text)],
            Failure::Usage(text) => {
                vec![carto::output::unlocated_json(
                    None,
                    Code::BadArguments,
                    text,
                )]
            }
            Failure::Reported => return None,
        };
        Some(serde_json::json!({ "diagnostics": diagnostics }))
    }
}

/// A file this command read, named as an output: refused (the message without `error: `).
pub(crate) fn overwrite_refused(e: String) -> Failure {
    Failure::Input(InputError::new(
        Code::OverwriteRefused,
        format!("error: {e}"),
    ))
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::Input(e)
    }
}

impl From<GameError> for Failure {
    fn from(e: GameError) -> Self {
        Failure::Input(InputError::new(e.code(), format!("error: {e}")))
    }
}

/// Refuses an empty or repeated player name, then a number of players the variant does not allow.
pub(crate) fn check_players(v: &Variant, players: &[String]) -> Result<(), Failure> {
    for (i, p) in players.iter().enumerate() {
        if p.trim().is_empty() {
            return Err(Failure::Usage(format!(
                "player name {} of {} is empty: write the names separated by commas, e.g. `--players ann,bob`",
                i + 1,
                players.len()
            )));
        }
        if let Some(c) = carto::paths::control_char(p) {
            return Err(Failure::Usage(format!(
                "player name {} of {} holds {}: a name is shown on one line of the transcript",
                i + 1,
                players.len(),
                carto::paths::shown_char(c)
            )));
        }
        if players[..i].iter().any(|q| q.trim() == p.trim()) {
            return Err(Failure::Usage(format!(
                "player name `{}` given twice: each player needs a name of their own",
                p.trim()
            )));
        }
    }
    if players.len() > MAX_PLAYERS {
        return Err(Failure::Usage(format!(
            "at most {MAX_PLAYERS} players, not {}",
            players.len()
        )));
    }
    let (lo, hi) = v.players;
    if players.len() < lo || players.len() > hi {
        return Err(Failure::Usage(format!(
            "{} is for {lo} to {hi} players, not {}",
            v.name,
            players.len()
        )));
    }
    Ok(())
}

/// Parses a whole number for `--seed` or `--games`, saying what is wrong with a negative one (clap would
/// take `-1` for an option and advise `-- -1`).
pub(crate) fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.trim();
    match t.parse::<u64>() {
        Ok(n) => Ok(n),
        Err(_)
            if t.strip_prefix('-')
                .is_some_and(|d| d.parse::<u64>().is_ok()) =>
        {
            Err("must be 0 or more".into())
        }
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("must be at most {}", u64::MAX))
        }
        Err(_) => Err("not a whole number".into()),
    }
}

/// Parses one player name of `--players`: trimmed, as `--starts` names are.
pub(crate) fn player_name(s: &str) -> Result<String, String> {
    Ok(s.trim().to_string())
}

pub(crate) fn new_game(
    v: &Variant,
    players: &[String],
    seed: u64,
    record: bool,
) -> Result<Game<Interp>, Failure> {
    // A setup block's failure points at the effect that failed, as a rule's does.
    v.new_game(v.config.clone(), players, seed, record)
        .map_err(|e| Failure::Input(InputError::new(e.code(), v.explain(&e))))
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A value any text may be, completed from a fixed list: what the shells offer (`carto
/// completions`). The list is hidden from `--help` by `hide_possible_values` where it is long.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Completed(fn() -> Vec<String>);

impl clap::builder::TypedValueParser for Completed {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            // clap takes `'static` names; the list is made once, for help or a completion script.
            (self.0)()
                .into_iter()
                .map(|n| clap::builder::PossibleValue::new(&*n.leak())),
        ))
    }
}

/// Whether a path typed on the command line is `-` (standard input or output).
pub(crate) fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == carto::paths::STDIO
}

/// A path typed on the command line, whatever its name (Linux names are bytes: one that is not
/// UTF-8 is taken as it is), completed from a fixed list like [`Completed`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct CompletedPath(fn() -> Vec<String>);

impl clap::builder::TypedValueParser for CompletedPath {
    type Value = PathBuf;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<PathBuf, clap::Error> {
        Ok(PathBuf::from(value))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            (self.0)()
                .into_iter()
                .map(|n| clap::builder::PossibleValue::new(&*n.leak())),
        ))
    }
}

/// `--agents` of `play` and `sim`: the names in the help and the shell completions come from the
/// one table of agents (`carto::agent::AGENTS`); each spec is read, and refused with its message,
/// by `parse_agent` when the command starts.
pub(crate) const AGENT_NAMES: Completed = Completed(|| {
    carto::agent::AGENTS
        .iter()
        .map(|k| k.name.to_string())
        .collect()
});

/// A variant argument: a bundled variant's name or the path of a rules file; the shells offer the
/// bundled names (and files, where the shell falls back to them).
pub(crate) const VARIANT_NAMES: CompletedPath = CompletedPath(|| {
    carto::variant::bundled_variants()
        .map(|(n, _)| n.to_string())
        .collect()
});

/// `--set NAME=VALUE` (and `--vs`): the shells offer `NAME=` for every parameter a bundled rules
/// file declares.
pub(crate) const PARAM_NAMES: Completed = Completed(|| {
    let mut names: Vec<String> = carto::lang::check::BUNDLED_RULES
        .iter()
        .flat_map(|(n, text)| {
            let src = carto::diag::Source::new(*n, *text);
            carto::lang::check::parse_once(&src)
                .0
                .items
                .into_iter()
                .filter_map(|i| match i.kind {
                    carto::lang::ast::ItemKind::Param(p) => Some(format!("{}=", p.name.name)),
                    _ => None,
                })
        })
        .collect();
    names.sort();
    names.dedup();
    names
});
