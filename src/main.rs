//! The `carto` command.

use carto::game::{play_random, Game, GameError};
use carto::lang::interp::Interp;
use carto::rng::Rng;
use carto::variant::{load_variant, InputError, Variant};
use clap::{Parser, Subcommand};
use std::io::Write as _;
use std::process::ExitCode;

/// Writes to stdout; a closed pipe (`carto play base | head`) is not an error worth a panic.
macro_rules! emit {
    ($($t:tt)*) => {{
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
}
macro_rules! emitln {
    () => {{
        let _ = writeln!(std::io::stdout().lock());
    }};
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

mod cmd {
    pub mod render;
    pub mod sim;
    pub mod view;
}

#[derive(Parser)]
#[command(
    name = "carto",
    version,
    about = "Plays, checks and simulates Carcassonne: Maps games with the Map-Chips variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays one game with random legal choices and prints its transcript.
    Play {
        /// A bundled variant (see `carto list`) or the path of a rules file.
        variant: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Player names, comma-separated (2 to 6).
        #[arg(long, value_delimiter = ',', default_value = "ann,bob")]
        players: Vec<String>,
        /// Writes the JSON Lines game log to this file.
        #[arg(long)]
        log: Option<String>,
        /// Sets a parameter of the rules: `--set name=value` (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        sets: Vec<String>,
        /// The start squares to use, by name, in order (the first gets the start tile); default:
        /// chosen at random from the seed.
        #[arg(long, value_delimiter = ',', value_name = "NAME,NAME")]
        starts: Vec<String>,
        /// Prints only the final board and scores.
        #[arg(long)]
        quiet: bool,
    },
    /// Runs a scripted game and prints its transcript.
    Run {
        script: String,
        /// Writes the JSON Lines game log to this file.
        #[arg(long)]
        log: Option<String>,
    },
    /// Replays a game log and checks that the replay gives the same log, line by line.
    Replay { log: String },
    /// Prints a variant's documentation: its prose, map, parameters, rules and actions.
    Doc {
        variant: String,
        #[arg(long = "set", value_name = "NAME=VALUE")]
        sets: Vec<String>,
    },
    /// Lists the bundled variants.
    List,
    /// Checks rules files and prints every problem found.
    Check {
        #[arg(required = true)]
        files: Vec<String>,
        /// Checks against this map (a bundled name or a path) instead of the one the header names.
        #[arg(long)]
        map: Option<String>,
    },
    /// Plays many games with agents and reports statistics per seat; compares settings (`--vs`).
    Sim(cmd::sim::Args),
    /// Draws the board of a logged or scripted game at any turn, or a map alone, as SVG.
    Render(cmd::render::Args),
    /// Writes the HTML replay page of a logged game: every turn's board, events and scores.
    View(cmd::view::Args),
    /// Plays random games on one core and reports games per second.
    Bench {
        /// Variants to measure (default: base).
        variants: Vec<String>,
        #[arg(long, default_value_t = 20_000)]
        games: u64,
        #[arg(long, value_delimiter = ',', default_value = "ann,bob")]
        players: Vec<String>,
        #[arg(long = "set", value_name = "NAME=VALUE")]
        sets: Vec<String>,
    },
}

const MAX_PLAYERS: usize = 6;
const MAX_GAMES: u64 = 100_000_000;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.command {
        Command::Play {
            variant,
            seed,
            players,
            log,
            sets,
            starts,
            quiet,
        } => play(
            &variant,
            seed,
            &players,
            log.as_deref(),
            &sets,
            &starts,
            quiet,
        ),
        Command::Run { script, log } => run(&script, log.as_deref()),
        Command::Replay { log } => {
            let text = carto::variant::read_text(&log);
            text.map_err(Failure::from).and_then(|t| {
                let r = carto::replay::replay(&carto::diag::Source::new(log.clone(), t))?;
                emitln!(
                    "{log}: {} lines, {} turns: the replay is identical",
                    r.lines,
                    r.turns
                );
                Ok(())
            })
        }
        Command::Doc { variant, sets } => load_variant(&variant, &sets)
            .map(|v| emit!("{}", carto::doc::document(&v)))
            .map_err(Failure::from),
        Command::List => list(),
        Command::Sim(args) => cmd::sim::run_cmd(args),
        Command::Render(a) => cmd::render::run(a),
        Command::View(a) => cmd::view::run(a),
        Command::Check { files, map } => check(&files, map.as_deref()),
        Command::Bench {
            variants,
            games,
            players,
            sets,
        } => bench(&variants, games, &players, &sets),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(e)) => {
            eprintln!("{}", e.0.trim_end());
            ExitCode::from(1)
        }
        Err(Failure::Usage(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

enum Failure {
    Input(InputError),
    Usage(String),
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::Input(e)
    }
}

impl From<GameError> for Failure {
    fn from(e: GameError) -> Self {
        Failure::Input(InputError(format!("error: {e}")))
    }
}

fn check_players(v: &Variant, players: &[String]) -> Result<(), Failure> {
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
    for (i, p) in players.iter().enumerate() {
        if p.trim().is_empty() {
            return Err(Failure::Usage("a player name is empty".into()));
        }
        if players[..i].contains(p) {
            return Err(Failure::Usage(format!("player name `{p}` given twice")));
        }
    }
    Ok(())
}

fn new_game(
    v: &Variant,
    players: &[String],
    seed: u64,
    record: bool,
) -> Result<Game<Interp>, Failure> {
    Ok(v.new_game(v.config.clone(), players, seed, record)?)
}

fn play(
    variant: &str,
    seed: u64,
    players: &[String],
    log: Option<&str>,
    sets: &[String],
    starts: &[String],
    quiet: bool,
) -> Result<(), Failure> {
    let mut v = load_variant(variant, sets)?;
    if !starts.is_empty() {
        if v.map.is_none() {
            return Err(Failure::Usage(format!(
                "{} has no map, so no start squares to name",
                v.name
            )));
        }
        let mut cfg = (*v.config).clone();
        cfg.start_names = starts.iter().map(|s| s.trim().to_string()).collect();
        v.config = std::sync::Arc::new(cfg);
    }
    if !v.warnings.is_empty() {
        eprint!("{}", v.warnings);
    }
    check_players(&v, players)?;
    let mut game = new_game(&v, players, seed, true)?;
    let mut rng = Rng::new(seed).fork();
    play_random(&mut game, &mut rng)?;
    if let Some(path) = log {
        let text = carto::output::json_log(&game, &v.params());
        std::fs::write(path, text)
            .map_err(|e| InputError(format!("error: cannot write the log to `{path}`: {e}")))?;
    }
    if !quiet {
        emit!("{}", carto::output::transcript(&game));
        emitln!();
    }
    emit!("{}", carto::output::ascii_board(&game));
    emitln!();
    for p in &game.st.players {
        emitln!("{}: {}", p.name, p.score);
    }
    Ok(())
}

fn run(path: &str, log: Option<&str>) -> Result<(), Failure> {
    let text = carto::variant::read_text(path)?;
    let src = carto::diag::Source::new(path, text);
    let r = carto::script::run_script(&src)?;
    if let Some(path) = log {
        let text = carto::output::json_log(&r.game, &r.variant.params());
        std::fs::write(path, text)
            .map_err(|e| InputError(format!("error: cannot write the log to `{path}`: {e}")))?;
    }
    emit!("{}", carto::output::transcript(&r.game));
    Ok(())
}

fn list() -> Result<(), Failure> {
    for (name, _) in carto::variant::bundled_variants() {
        let v = load_variant(name, &[])?;
        let title = v
            .program
            .header
            .entries
            .iter()
            .find(|e| e.key == carto::lang::builtins::HeaderKey::Title)
            .and_then(|e| match &e.value {
                carto::lang::ir::Expr::Const(carto::lang::ir::Value::Str(s)) => {
                    v.program.strings.get(*s as usize).cloned()
                }
                _ => None,
            })
            .unwrap_or_default();
        let map = v
            .map
            .as_ref()
            .map(|m| m.name.as_str())
            .unwrap_or("endless table");
        emitln!(
            "{name:<14} {title} ({map}, {}-{} players)",
            v.players.0,
            v.players.1
        );
    }
    Ok(())
}

fn check(files: &[String], map: Option<&str>) -> Result<(), Failure> {
    let mut failed = false;
    for f in files {
        let source = carto::variant::rules_source(f)?;
        let here = carto::diag::Source::new("./", "");
        let loader = |name: &str, from: &carto::diag::Source| match map {
            Some(m) => carto::variant::load_map(m, &here),
            None => carto::variant::load_map(name, from),
        };
        let result =
            carto::lang::check::check_source(&source, &carto::lang::check::BundledRules, &loader);
        let text = carto::lang::check::render(&result);
        if !text.is_empty() {
            eprint!("{text}");
        }
        let (e, w) = (result.errors(), result.diagnostics.len() - result.errors());
        if e > 0 {
            failed = true;
        }
        emitln!(
            "{}: {e} error{}, {w} warning{}",
            source.name,
            plural(e),
            plural(w)
        );
    }
    if failed {
        Err(Failure::Input(InputError(String::new())))
    } else {
        Ok(())
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn bench(
    variants: &[String],
    games: u64,
    players: &[String],
    sets: &[String],
) -> Result<(), Failure> {
    if games == 0 || games > MAX_GAMES {
        return Err(Failure::Usage(format!("--games must be 1 to {MAX_GAMES}")));
    }
    let names: Vec<String> = if variants.is_empty() {
        vec!["base".into()]
    } else {
        variants.to_vec()
    };
    // Every variant is loaded and checked before the first game, so bad input stops the bench at once.
    let mut loaded = Vec::new();
    for name in &names {
        let v = load_variant(name, sets)?;
        check_players(&v, players)?;
        loaded.push((name, v));
    }
    emitln!(
        "{:<14} {:>9} {:>9} {:>11}",
        "variant",
        "games",
        "seconds",
        "games/s"
    );
    for (name, v) in &loaded {
        let mut game = new_game(v, players, 0, false)?;
        let t = std::time::Instant::now();
        for seed in 0..games {
            game.reset(players, seed, false)?;
            let mut rng = Rng::new(seed ^ 0x5eed);
            play_random(&mut game, &mut rng)?;
        }
        let s = t.elapsed().as_secs_f64();
        emitln!(
            "{:<14} {:>9} {:>9.2} {:>11.0}",
            name,
            games,
            s,
            games as f64 / s
        );
    }
    Ok(())
}
