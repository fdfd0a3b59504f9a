//! `carto sim`: many games played by agents, with statistics per seat and per game, paired
//! comparisons (`--vs`, `--vs-rules`), every core, slices (`--first-game`) and `carto sim merge`.
//! The machinery is the library's `carto::sim`; this file reads the command line and writes.

use super::{check_players, Failure};
use carto::diag::Code;
use carto::sim::run::{layout_for, run, Results, SimError, Spec, Watch};
use carto::sim::stats::{Layout, SCORE, TURNS, WIN, WIN_UNIT};
use carto::sim::RunInfo;
use carto::sim::{csv, report};
use carto::variant::{load_variant_at, InputError, Variant};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Threads per core at most: more only add memory and switching.
const THREADS_PER_CORE: usize = 4;

/// Player names when `--players` is not given: as many as the agents (at least two).
pub(super) const DEFAULT_PLAYERS: [&str; 6] = ["ann", "bob", "cyd", "dee", "eve", "fay"];

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Table,
    Json,
    Csv,
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub(crate) merge: Option<MergeCommand>,
    /// A bundled variant (see `carto list`) or the path of a rules file.
    #[arg(required = true, value_parser = super::VARIANT_NAMES, hide_possible_values = true)]
    pub(crate) variant: Option<PathBuf>,
    /// How many games to play.
    #[arg(long, default_value_t = 1000)]
    pub(crate) games: u64,
    /// Game i (counting from 0) is played with seed SEED+i.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Plays games K to K+N−1 only: a slice of a larger run, for `carto sim merge`.
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub(crate) first_game: u64,
    /// Sets a parameter of the rules: `--set name=value` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = super::PARAM_NAMES, hide_possible_values = true)]
    pub(crate) sets: Vec<String>,
    /// Compares with this change: the same games again with `--vs name=value` (repeatable).
    #[arg(long = "vs", value_name = "NAME=VALUE", value_parser = super::PARAM_NAMES, hide_possible_values = true)]
    pub(crate) vs: Vec<String>,
    /// Compares with these rules: the same games again under another rules file.
    #[arg(long, value_name = "FILE")]
    pub(crate) vs_rules: Option<PathBuf>,
    /// Plays the same games under every value of a parameter: `NAME=A..B`, `NAME=A..B:STEP` or
    /// `NAME=V1,V2,…`; several make a grid (at most 64 points). Each value is compared with the
    /// first.
    #[arg(long = "sweep", value_name = "NAME=A..B[:STEP]")]
    pub(crate) sweep: Vec<String>,
    /// With `--sweep`: draws score, win share and first-seat advantage against the value, with
    /// 95% intervals, as an SVG chart.
    #[arg(long, value_name = "FILE.svg")]
    pub(crate) plot: Option<PathBuf>,
    /// The agent of each seat, comma-separated (one for every seat: `--agents greedy`); default
    /// `random`, and `greedy` with --report.
    #[arg(long, value_delimiter = ',', value_parser = super::AGENT_NAMES)]
    pub(crate) agents: Vec<String>,
    /// Player names, comma-separated (default: as many as the agents, at least two); or a range
    /// of player counts, `2..4`, for the report once per count (implies --report).
    #[arg(long, value_delimiter = ',')]
    pub(crate) players: Vec<String>,
    /// Threads to play on (default: every core); the results do not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// How to write the results: a table for people, JSON (for `carto sim merge`) or CSV.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub(crate) format: Format,
    /// Writes one CSV row per game (and setting) to this file.
    #[arg(long, value_name = "FILE.csv")]
    pub(crate) per_game: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Writes the report: who wins (per seat, balance), how the game goes (lead changes, when it
    /// is decided, drama, length, options), coming back from behind, what was played and scored;
    /// with --vs or --vs-rules, yours minus the original in a player's words (docs/report.md).
    #[arg(long)]
    pub(crate) report: bool,
    /// Writes the report once per skill pairing (every seat random, greedy, mcts:16, then mcts:64;
    /// --games each) and the skill trace: mcts:2N against mcts:N for N = 4 to 64, the stronger in
    /// every seat in turn, 100 games a seating ("does thinking more keep paying?"). Implies
    /// --report.
    #[arg(long)]
    pub(crate) skill: bool,
    /// With --skill: the games of each seating of each step of the skill trace.
    #[arg(long, value_name = "N", default_value_t = carto::sim::skill::TRACE_GAMES)]
    pub(crate) trace_games: u64,
}

#[derive(clap::Subcommand)]
pub(crate) enum MergeCommand {
    /// Combines the JSON results of slices of one run (`--format json`) into the results of the
    /// whole run.
    Merge {
        /// The JSON results of the slices (`carto sim --first-game K --format json`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// How to write the merged results: a table, JSON or CSV.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

/// Set by Ctrl-C: the run stops after the games under way and prints what it has.
static STOP: AtomicBool = AtomicBool::new(false);

impl Args {
    /// Asks for JSON: a failure is written as JSON too (with its code).
    pub(crate) fn json(&self) -> bool {
        match &self.merge {
            Some(MergeCommand::Merge { format, .. }) => *format == Format::Json,
            None => self.format == Format::Json,
        }
    }
}

pub(crate) fn run_cmd(args: Args) -> Result<(), Failure> {
    if let Some(MergeCommand::Merge { files, format }) = args.merge {
        return merge(&files, format);
    }
    check_counts(&args)?;
    if args.skill || player_counts(&args.players)?.is_some() {
        return super::sim_many::run_many(&args);
    }
    let (info, variants) = run_info(&args)?;
    let plot = match &args.plot {
        Some(path) => Some((path.display(), create(path)?)),
        None => None,
    };
    let spec = Spec {
        settings: variants.iter().collect(),
        players: info.players.clone(),
        agents: info.agents.clone(),
        seed: args.seed,
        first: args.first_game,
        games: args.games,
        threads: threads(&args),
        report: args.report,
    };
    stop_on_ctrl_c();
    let results = play(&spec, &info, &args)?;
    print(&info, &results, args.format);
    if let Some((path, mut file)) = plot {
        let svg = carto::sim::plot::svg(&report::sweep_chart(&info, &results));
        file.write_all(svg.as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| {
                InputError::new(
                    Code::CannotWrite,
                    format!("error: cannot write `{path}`: {e}"),
                )
            })?;
        if !args.quiet {
            eprintln!("chart written to {path}");
        }
    }
    if results.interrupted {
        let _ = std::io::stdout().flush();
        eprintln!("interrupted: {} games played", results.games());
        std::process::exit(130);
    }
    Ok(())
}

/// Refuses counts out of range: of games, of the last game's number, of threads.
fn check_counts(args: &Args) -> Result<(), Failure> {
    if args.games == 0 || args.games > super::MAX_GAMES {
        return Err(Failure::Usage(format!(
            "--games must be 1 to {}",
            super::MAX_GAMES
        )));
    }
    let Some(last) = args.first_game.checked_add(args.games - 1) else {
        return Err(Failure::Usage(
            "--first-game plus --games is too large".into(),
        ));
    };
    if args.seed.checked_add(last).is_none() {
        return Err(Failure::Usage(format!(
            "--seed {} with games {} to {last}: the seeds would pass {} and wrap around; \
             the largest --seed that fits is {}",
            args.seed,
            args.first_game,
            u64::MAX,
            u64::MAX - last
        )));
    }
    if args.threads == Some(0) {
        return Err(Failure::Usage(
            "--threads must be at least 1 (or leave it out: every core)".into(),
        ));
    }
    if !args.sweep.is_empty() && (!args.vs.is_empty() || args.vs_rules.is_some()) {
        return Err(Failure::Usage(
            "--sweep compares every value with the first: it does not combine with --vs or --vs-rules".into(),
        ));
    }
    if args.report && !args.sweep.is_empty() {
        return Err(Failure::Usage(
            "--report compares two settings at most: it does not combine with --sweep (use --vs)"
                .into(),
        ));
    }
    if args.trace_games == 0 || args.trace_games > super::MAX_GAMES {
        return Err(Failure::Usage(format!(
            "--trace-games must be 1 to {}",
            super::MAX_GAMES
        )));
    }
    if args.plot.is_some() && args.sweep.is_empty() {
        return Err(Failure::Usage(
            "--plot draws a sweep: give --sweep NAME=A..B as well".into(),
        ));
    }
    Ok(())
}

/// Creates a file to write at the end, so that a name that cannot be written fails before the
/// games are played.
/// Creates the `--plot` file, never onto a file this command read (the rules, a map, a tile set).
fn create(path: &Path) -> Result<std::fs::File, Failure> {
    carto::files::refuse_input(path, "the chart").map_err(super::overwrite_refused)?;
    std::fs::File::create(path).map_err(|e| {
        Failure::Input(InputError::new(
            Code::CannotWrite,
            format!("error: cannot write `{}`: {e}", path.display()),
        ))
    })
}

/// What the run is (variant, changes, players, agents, seed), with its settings (one; two for a
/// comparison; one per point of a sweep), loaded and checked against the players.
fn run_info(args: &Args) -> Result<(RunInfo, Vec<Variant>), Failure> {
    let (agents, players) = agents_and_players(args)?;
    run_info_for(args, agents, players)
}

/// [`run_info`] for the given agents and players (one run of several: `sim_many`).
pub(super) fn run_info_for(
    args: &Args,
    agents: Vec<String>,
    players: Vec<String>,
) -> Result<(RunInfo, Vec<Variant>), Failure> {
    let path = args.variant.clone().unwrap_or_default();
    // A name that is not UTF-8 is read as it is; reports show it with `�`.
    let variant = path.to_string_lossy().into_owned();
    let variants = if args.sweep.is_empty() {
        let (a, b) = load_settings(&path, args)?;
        let mut v = vec![a];
        v.extend(b);
        v
    } else {
        load_sweep(&path, args)?
    };
    check_players(&variants[0], &players)?;
    check_barred(&variants, &agents)?;
    let info = RunInfo {
        variant,
        sets: args.sets.clone(),
        vs: args.vs.clone(),
        vs_rules: args
            .vs_rules
            .as_ref()
            .map(|p| p.to_string_lossy().into_owned()),
        sweep: args.sweep.clone(),
        players,
        agents,
        seed: args.seed,
        report: args.report || args.skill,
    };
    Ok((info, variants))
}

/// Refuses an agent barred from an action no setting has (`greedy-without:sel_town`).
fn check_barred(variants: &[Variant], agents: &[String]) -> Result<(), Failure> {
    let programs: Vec<&carto::lang::ir::Program> = variants.iter().map(|v| &*v.program).collect();
    carto::agent::check_barred(&programs, agents).map_err(Failure::Usage)
}

/// One variant per point of the sweep's grid: `--set`, then the point's values.
fn load_sweep(variant: &Path, args: &Args) -> Result<Vec<Variant>, Failure> {
    let axes = carto::sim::sweep::parse_axes(&args.sweep).map_err(Failure::Usage)?;
    for a in &axes {
        if let Some(s) = args
            .sets
            .iter()
            .find(|s| s.split_once('=').map(|(n, _)| n.trim()) == Some(a.name.as_str()))
        {
            return Err(Failure::Usage(format!(
                "`--set {s}` and `--sweep {}` name the same parameter: one or the other",
                a.name
            )));
        }
    }
    // Read, parsed and checked once; each point sets its values on the program as loaded.
    let loaded = load_variant_at(variant, &[], &|_, e| InputError::new(Code::BadSet, e))?;
    if !loaded.warnings.is_empty() {
        eprint!("{}", loaded.warnings);
    }
    let mut out = Vec::new();
    for point in carto::sim::sweep::points(&axes) {
        let all: Vec<String> = args.sets.iter().chain(&point).cloned().collect();
        let sets = args.sets.len();
        out.push(loaded.with_sets(&all, &|i, e| {
            let flag = if i < sets { "--set" } else { "--sweep" };
            InputError::new(Code::BadSet, format!("error: `{flag} {}`: {e}", all[i]))
        })?);
    }
    Ok(out)
}

/// The threads to play on: `--threads`, else one per core; never more than the games, nor more
/// than a few per core (said on standard error when `--threads` asked for more).
pub(super) fn threads(args: &Args) -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let cap = (cores * THREADS_PER_CORE)
        .min(usize::try_from(args.games).unwrap_or(usize::MAX))
        .max(1);
    match args.threads {
        Some(t) if t > cap => {
            eprintln!(
                "note: --threads {t}: playing on {cap} threads (at most {THREADS_PER_CORE} per core on {cores} core{}, and no more than the {} game{})",
                if cores == 1 { "" } else { "s" },
                args.games,
                if args.games == 1 { "" } else { "s" }
            );
            cap
        }
        Some(t) => t,
        None => cores.min(cap),
    }
}

/// Ctrl-C stops the run after the games under way; a second Ctrl-C stops at once.
pub(super) fn stop_on_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Plays the games of `spec` with a progress bar (unless `--quiet`), writing the `--per-game`
/// rows as they come.
pub(super) fn play(spec: &Spec, info: &RunInfo, args: &Args) -> Result<Results, Failure> {
    let bar = carto::sim::progress::bar(spec.games, args.quiet);
    let mut tick = |done: u64| {
        if let Some(b) = &bar {
            b.set_position(done);
        }
    };
    let mut per_game = match &args.per_game {
        Some(path) => Some(PerGame::create(path, info, &layout_for(spec).0)?),
        None => None,
    };
    let mut row = |i: u64, seed: u64, obs: &[Vec<Option<i64>>]| match &mut per_game {
        Some(p) => p.row(i, seed, obs),
        None => Ok(()),
    };
    let results = run(
        spec,
        Watch {
            stop: &STOP,
            tick: &mut tick,
            rows: if args.per_game.is_some() {
                Some(&mut row)
            } else {
                None
            },
        },
    );
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let results = results.map_err(|e| game_failed(info, &e))?;
    if let Some(p) = per_game {
        p.finish()?;
    }
    Ok(results)
}

/// A game that failed, with how to replay it alone.
fn game_failed(info: &RunInfo, e: &SimError) -> Failure {
    Failure::Input(InputError::new(
        e.code,
        format!(
            "{}\n  replay it alone: {}",
            e.with_game().trim_end(),
            info.replay_command(e.setting, e.game)
        ),
    ))
}

/// `--players A..B`: the player counts A to B (`None` for names).
pub(super) fn player_counts(players: &[String]) -> Result<Option<Vec<usize>>, Failure> {
    let [one] = players else {
        return Ok(None);
    };
    let Some((a, b)) = one.trim().split_once("..") else {
        return Ok(None);
    };
    let (Ok(a), Ok(b)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) else {
        return Err(Failure::Usage(format!(
            "--players {one}: a range of player counts is `A..B` with two numbers (`2..4`); \
             names are given comma-separated (`ann,bob`)"
        )));
    };
    if a < 2 || b < a || b > DEFAULT_PLAYERS.len() {
        return Err(Failure::Usage(format!(
            "--players {one}: player counts from 2 to {}, the smaller first (`2..4`)",
            DEFAULT_PLAYERS.len()
        )));
    }
    Ok(Some((a..=b).collect()))
}

/// The agent of each seat and the players' names.
pub(super) fn agents_and_players(args: &Args) -> Result<(Vec<String>, Vec<String>), Failure> {
    let mut agents: Vec<String> = args.agents.iter().map(|a| a.trim().to_string()).collect();
    if agents.is_empty() {
        // The report's figures mean little when the players play without aim.
        agents.push(
            if args.report || args.skill {
                "greedy"
            } else {
                "random"
            }
            .into(),
        );
    }
    seats(
        agents,
        &args.players,
        "plays at `carto play`; sim plays without people",
    )
}

/// The players' names (`--players`, else as many of the default names as the agents need) and
/// one agent for each (one agent given plays every seat); an agent that is a person is refused
/// with `no_person` after its name (`sim` and `tune` play without people).
pub(crate) fn seats(
    mut agents: Vec<String>,
    names: &[String],
    no_person: &str,
) -> Result<(Vec<String>, Vec<String>), Failure> {
    let players: Vec<String> = if names.is_empty() {
        let n = agents.len().max(2);
        if n > DEFAULT_PLAYERS.len() {
            return Err(Failure::Usage(format!(
                "at most {} players, not {n}",
                DEFAULT_PLAYERS.len()
            )));
        }
        DEFAULT_PLAYERS[..n].iter().map(|s| s.to_string()).collect()
    } else {
        names.iter().map(|p| p.trim().to_string()).collect()
    };
    if agents.len() == 1 {
        agents = vec![agents[0].clone(); players.len()];
    }
    if agents.len() != players.len() {
        return Err(Failure::Usage(format!(
            "{} agents for {} players: give one agent for every seat, or one for all",
            agents.len(),
            players.len()
        )));
    }
    for a in &agents {
        let (kind, _) = carto::agent::agent_kind(a).map_err(Failure::Usage)?;
        if kind.person {
            return Err(Failure::Usage(format!("`{}` {no_person}", kind.name)));
        }
    }
    Ok((agents, players))
}

/// The setting, and the one to compare it with.
fn load_settings(variant: &Path, args: &Args) -> Result<(Variant, Option<Variant>), Failure> {
    let sets = &args.sets;
    let a = load_variant_at(variant, sets, &|i, e| {
        InputError::new(Code::BadSet, format!("error: `--set {}`: {e}", sets[i]))
    })?;
    if !a.warnings.is_empty() {
        eprint!("{}", a.warnings);
    }
    if args.vs.is_empty() && args.vs_rules.is_none() {
        return Ok((a, None));
    }
    let all: Vec<String> = sets.iter().chain(&args.vs).cloned().collect();
    let rules = args.vs_rules.as_deref().unwrap_or(variant);
    let b = load_variant_at(rules, &all, &|i, e| {
        let flag = if i < sets.len() { "--set" } else { "--vs" };
        InputError::new(Code::BadSet, format!("error: `{flag} {}`: {e}", all[i]))
    })?;
    Ok((a, Some(b)))
}

fn print(info: &RunInfo, r: &Results, format: Format) {
    let sweep = !info.sweep.is_empty();
    let text = match format {
        Format::Table if info.report => {
            format!(
                "{}\n{}",
                report::header(info, r),
                carto::sim::findings::text(info, r)
            )
        }
        Format::Table if sweep => report::sweep_table(info, r),
        Format::Table => report::table(info, r),
        Format::Json => report::json(info, r),
        Format::Csv if sweep => report::sweep_csv(info, r),
        Format::Csv => report::csv(info, r),
    };
    emit!("{text}");
}

/// A file given to `sim merge` that is no report of a slice, or slices that do not merge.
fn bad_report(text: String) -> InputError {
    InputError::new(Code::BadReport, text)
}

fn merge(files: &[PathBuf], format: Format) -> Result<(), Failure> {
    let mut slices = Vec::new();
    for f in files {
        let text = carto::files::read_text(f)
            .map_err(|e| InputError::new(Code::Unreadable, format!("error: {e}")))?;
        let f = f.to_string_lossy().into_owned();
        let (info, r) =
            report::from_json(&text).map_err(|e| bad_report(format!("error: `{f}`: {e}")))?;
        slices.push((f, info, r));
    }
    let (info, r) =
        carto::sim::merge::merge(slices).map_err(|e| bad_report(format!("error: {e}")))?;
    print(&info, &r, format);
    Ok(())
}

/// The `--per-game` CSV: one row per game and setting.
struct PerGame {
    path: String,
    out: std::io::BufWriter<std::fs::File>,
    info: RunInfo,
    /// The name of each setting in the `setting` column.
    labels: Vec<String>,
    layout: Layout,
    /// The figures of points by rule, with their column names.
    points: Vec<usize>,
}

impl PerGame {
    fn create(path: &Path, info: &RunInfo, layout: &Layout) -> Result<PerGame, Failure> {
        carto::files::refuse_input(path, "the per-game table").map_err(super::overwrite_refused)?;
        let file = std::fs::File::create(path).map_err(|e| {
            InputError::new(
                Code::CannotWrite,
                format!("error: cannot write `{}`: {e}", path.display()),
            )
        })?;
        let mut p = PerGame {
            path: path.to_string_lossy().into_owned(),
            out: std::io::BufWriter::new(file),
            info: info.clone(),
            labels: info.setting_labels(),
            layout: layout.clone(),
            points: (0..layout.figures.len())
                .filter(|&f| layout.figures[f].starts_with("points: "))
                .collect(),
        };
        let mut head = vec![
            "game".to_string(),
            "seed".into(),
            "setting".into(),
            "agents".into(),
        ];
        for pl in &info.players {
            head.push(format!("score_{pl}"));
        }
        head.push("winner".into());
        for pl in &info.players {
            head.push(format!("turns_{pl}"));
        }
        for &f in &p.points {
            let rule = &layout.figures[f]["points: ".len()..];
            for pl in &info.players {
                head.push(format!("points_{pl}_{rule}"));
            }
        }
        p.write(&csv::row(&head))?;
        Ok(p)
    }

    fn write(&mut self, line: &str) -> Result<(), Failure> {
        write!(self.out, "{line}").map_err(|e| self.failed(e))
    }

    fn failed(&self, e: std::io::Error) -> Failure {
        Failure::Input(InputError::new(
            Code::CannotWrite,
            format!("error: cannot write `{}`: {e}", self.path),
        ))
    }

    fn row(&mut self, i: u64, seed: u64, obs: &[Vec<Option<i64>>]) -> Result<(), String> {
        for (s, o) in obs.iter().enumerate() {
            let l = &self.layout;
            let seats = l.seats();
            let v = |g: usize, f: usize| o[l.at(g, f)].unwrap_or(0);
            let mut cols = vec![
                i.to_string(),
                seed.to_string(),
                self.labels[s].clone(),
                self.info.agents.join("+"),
            ];
            cols.extend((0..seats).map(|g| v(g, SCORE).to_string()));
            let winners: Vec<&str> = (0..seats)
                .filter(|&g| v(g, WIN) > 0 && v(g, WIN) <= WIN_UNIT)
                .map(|g| self.info.players[g].as_str())
                .collect();
            cols.push(winners.join("+"));
            cols.extend((0..seats).map(|g| v(g, TURNS).to_string()));
            for &f in &self.points {
                cols.extend((0..seats).map(|g| v(g, f).to_string()));
            }
            write!(self.out, "{}", csv::row(&cols)).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(), Failure> {
        self.out.flush().map_err(|e| self.failed(e))
    }
}
