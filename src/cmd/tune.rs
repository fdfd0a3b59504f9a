//! `carto tune VARIANT NAME=A..B … --target …`: the value of a parameter (or the point of a grid of
//! them) that brings a figure of the games nearest a target, by a race on paired seeds under a
//! budget of games or seconds (the machinery: `carto::sim::tune`); `--first-game` plays one slice
//! of every value for a cluster, and `carto tune merge` ranks the slices' evidence together.

use super::Failure;
use carto::diag::Code;
use carto::sim::run::{run, Watch};
use carto::sim::tune::{from_json, to_json, Race, Target, TuneInfo};
use carto::variant::{load_variant_at, InputError, Variant};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Table,
    Json,
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub(crate) merge: Option<MergeCommand>,
    /// A bundled variant (see `carto list`) or the path of a rules file.
    #[arg(required = true, value_parser = super::VARIANT_NAMES, hide_possible_values = true)]
    pub(crate) variant: Option<std::path::PathBuf>,
    /// The parameters and their values: `NAME=A..B`, `NAME=A..B:STEP` or `NAME=V1,V2,…`; several
    /// make a grid (at most 64 points).
    #[arg(required = true, value_name = "NAME=A..B")]
    pub(crate) params: Vec<String>,
    /// What to bring near: `balance` (every seat's win share at a fair share), `win:SEAT=SHARE`
    /// (a player's name or a seat from 1), `turns=N` (mean length) or `gap=N` (the winner's
    /// mean lead).
    #[arg(long, required = true)]
    pub(crate) target: Option<String>,
    /// The budget: games in all (every value's games count). With --first-game: the games of
    /// the slice, for every value.
    #[arg(long, default_value_t = 20_000)]
    pub(crate) games: u64,
    /// A budget of time as well: no round starts that would end after it (the result then
    /// depends on the machine's speed; --games alone does not).
    #[arg(long)]
    pub(crate) seconds: Option<f64>,
    /// The games each value plays in the first round (doubled every round).
    #[arg(long, default_value_t = 200)]
    pub(crate) first_round: u64,
    /// Plays a slice for a cluster: games K to K+GAMES−1 under every value, no race; combine
    /// the slices' JSON with `carto tune merge`.
    #[arg(long, value_name = "K")]
    pub(crate) first_game: Option<u64>,
    /// Game i (counting from 0) is played with seed SEED+i.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Sets a parameter of the rules for every value: `--set name=value` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) sets: Vec<String>,
    /// The agent of each seat, comma-separated (default greedy).
    #[arg(long, value_delimiter = ',', default_value = "greedy")]
    pub(crate) agents: Vec<String>,
    /// Player names, comma-separated (default: as many as the agents, at least two).
    #[arg(long, value_delimiter = ',')]
    pub(crate) players: Vec<String>,
    /// Threads to play on (default: every core); the results do not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// A table for people, or JSON (what `carto tune merge` reads).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub(crate) format: Format,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
}

#[derive(clap::Subcommand)]
pub(crate) enum MergeCommand {
    /// Combines the JSON of slices (`carto tune … --first-game K --format json`) and ranks the
    /// values on all their games.
    Merge {
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

impl Args {
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
    let (info, variants) = load(&args)?;
    let settings: Vec<&Variant> = variants.iter().collect();
    let layout = carto::sim::run::layout_for(&info.spec(&settings, 0, 1, 1)).0;
    let axes = carto::sim::sweep::parse_axes(&info.params).map_err(usage)?;
    let mut race = Race::new(
        info.target.clone(),
        layout,
        carto::sim::sweep::points(&axes),
    );
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if let Some(first) = args.first_game {
        play_round(
            &mut race,
            &info,
            &variants,
            (first, args.games),
            threads,
            &|_| {},
        )?;
    } else {
        race_on(&mut race, &info, &variants, &args, threads)?;
    }
    emit!("{}", output(&info, &race, args.format));
    Ok(())
}

/// The race under the budget: rounds of doubling length for the values still in it.
fn race_on(
    race: &mut Race,
    info: &TuneInfo,
    variants: &[Variant],
    args: &Args,
    threads: usize,
) -> Result<(), Failure> {
    let bar = carto::sim::progress::bar(args.games, args.quiet);
    let start = Instant::now();
    while let Some((alive, next, n)) = race.next_round(args.games, args.first_round) {
        let used: u64 = race.candidates.iter().map(|c| c.games()).sum();
        if let Some(limit) = args.seconds {
            let spent = start.elapsed().as_secs_f64();
            let rate = if used > 0 { spent / used as f64 } else { 0.0 };
            if race.rounds > 0 && spent + rate * (n * alive.len() as u64) as f64 > limit {
                break;
            }
        }
        let tick = |done: u64| {
            if let Some(b) = &bar {
                b.set_position(used + done * alive.len() as u64);
            }
        };
        play_round(race, info, variants, (next, n), threads, &tick)?;
        race.eliminate();
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    Ok(())
}

/// Plays games `first .. first + n` under every value still in the race and adds them.
fn play_round(
    race: &mut Race,
    info: &TuneInfo,
    variants: &[Variant],
    (first, n): (u64, u64),
    threads: usize,
    tick: &dyn Fn(u64),
) -> Result<(), Failure> {
    let alive = race.alive();
    let settings: Vec<&Variant> = alive.iter().map(|&c| &variants[c]).collect();
    let mut s = info.spec(&settings, first, n, threads);
    s.threads = threads.min(n as usize).max(1);
    let stop = AtomicBool::new(false);
    let r = run(
        &s,
        Watch {
            stop: &stop,
            tick: &mut |d| tick(d),
            rows: None,
        },
    )
    .map_err(|e| Failure::Input(InputError::new(e.code, e.with_game())))?;
    race.add_round(&alive, &r);
    Ok(())
}

fn usage(e: String) -> Failure {
    Failure::Usage(e.replace("`--sweep ", "`"))
}

/// The run and one variant per point of the grid.
fn load(args: &Args) -> Result<(TuneInfo, Vec<Variant>), Failure> {
    let path = args.variant.clone().unwrap_or_default();
    // A name that is not UTF-8 is read as it is; reports show it with `�`.
    let variant = path.to_string_lossy().into_owned();
    if args.games == 0 || args.games > super::MAX_GAMES {
        return Err(Failure::Usage(format!(
            "--games must be 1 to {}",
            super::MAX_GAMES
        )));
    }
    if args.threads == Some(0) || args.first_round == 0 {
        return Err(Failure::Usage(
            "--threads and --first-round must be at least 1".into(),
        ));
    }
    let agents: Vec<String> = args.agents.iter().map(|a| a.trim().to_string()).collect();
    let (agents, players) =
        super::sim::seats(agents, &args.players, "cannot play in a tuning run")?;
    let target =
        Target::parse(args.target.as_deref().unwrap_or(""), &players).map_err(Failure::Usage)?;
    let axes = carto::sim::sweep::parse_axes(&args.params).map_err(usage)?;
    let loaded = load_variant_at(&path, &[], &|_, e| InputError::new(Code::BadSet, e))?;
    if !loaded.warnings.is_empty() {
        eprint!("{}", loaded.warnings);
    }
    let mut variants = Vec::new();
    for point in carto::sim::sweep::points(&axes) {
        let all: Vec<String> = args.sets.iter().chain(&point).cloned().collect();
        variants.push(loaded.with_sets(&all, &|i, e| {
            InputError::new(Code::BadSet, format!("error: `{}`: {e}", all[i]))
        })?);
    }
    super::check_players(&variants[0], &players)?;
    let programs: Vec<&carto::lang::ir::Program> = variants.iter().map(|v| &*v.program).collect();
    carto::agent::check_barred(&programs, &agents).map_err(Failure::Usage)?;
    let info = TuneInfo {
        variant,
        params: args.params.clone(),
        target,
        sets: args.sets.clone(),
        players,
        agents,
        seed: args.seed,
    };
    Ok((info, variants))
}

/// The result for people or as JSON.
fn output(info: &TuneInfo, race: &Race, format: Format) -> String {
    match format {
        Format::Table => carto::sim::tune_table::table(info, race),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&to_json(info, race)).unwrap_or_default();
            s.push('\n');
            s
        }
    }
}

fn merge(files: &[std::path::PathBuf], format: Format) -> Result<(), Failure> {
    let bad = |t: String| Failure::Input(InputError::new(Code::BadReport, t));
    let mut acc: Option<(TuneInfo, Race, String)> = None;
    for f in files {
        let text = carto::files::read_text(f)
            .map_err(|e| InputError::new(Code::Unreadable, format!("error: {e}")))?;
        let f = &f.to_string_lossy().into_owned();
        let (info, race) = from_json(&text).map_err(|e| bad(format!("error: `{f}`: {e}")))?;
        match &mut acc {
            None => acc = Some((info, race, f.clone())),
            Some((i0, r0, f0)) => {
                if *i0 != info || r0.candidates.len() != race.candidates.len() {
                    return Err(bad(format!(
                        "error: `{f}` is not a slice of the same tuning run as `{f0}`"
                    )));
                }
                r0.merge(&race)
                    .map_err(|e| bad(format!("error: `{f}`: {e}")))?;
            }
        }
    }
    let Some((info, mut race, _)) = acc else {
        return Err(Failure::Usage("nothing to merge".into()));
    };
    race.eliminate();
    emit!("{}", output(&info, &race, format));
    Ok(())
}
