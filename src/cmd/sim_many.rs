//! `carto sim --report` over several runs: once per player count (`--players 2..4`), or once per
//! skill pairing and the skill trace (`--skill`). Each run is an ordinary run with its own report;
//! `carto::sim::skill` puts their seat figures side by side. Definitions: docs/report.md.

use super::sim::{
    agents_and_players, play, player_counts, run_info_for, seats, stop_on_ctrl_c, threads, Args,
    Format, DEFAULT_PLAYERS,
};
use super::Failure;
use carto::sim::run::Spec;
use carto::sim::skill::{self, Labelled, Step};
use carto::sim::{findings, report};
use serde_json::json;

/// One run to play: its label, agents and players.
struct Plan {
    label: String,
    agents: Vec<String>,
    players: Vec<String>,
}

/// Refuses what a run of several does not combine with.
fn check(args: &Args, counts: &Option<Vec<usize>>) -> Result<(), Failure> {
    let what = if args.skill {
        "--skill"
    } else {
        "--players A..B"
    };
    let refuse = |other: &str| {
        Err(Failure::Usage(format!(
            "{what} plays several runs, each with its report: it does not combine with {other}"
        )))
    };
    if args.skill && counts.is_some() {
        return refuse("--players A..B (give the names of one player count, or none)");
    }
    if !args.sweep.is_empty() {
        return refuse("--sweep");
    }
    if args.per_game.is_some() {
        return refuse("--per-game");
    }
    if args.first_game != 0 {
        return refuse("--first-game (its JSON is no slice for `carto sim merge`)");
    }
    if args.format == Format::Csv {
        return refuse("--format csv (use table or json)");
    }
    if args.skill && !args.agents.is_empty() {
        return refuse("--agents (it chooses the agents: random, greedy, mcts:16, mcts:64)");
    }
    if counts.is_some() && args.agents.len() > 1 {
        return refuse("one agent per seat (give one agent for every seat: `--agents mcts`)");
    }
    Ok(())
}

/// The runs of `--players A..B` or of `--skill`'s pairings.
fn plans(args: &Args, counts: &Option<Vec<usize>>) -> Result<Vec<Plan>, Failure> {
    let mut out = Vec::new();
    if let Some(counts) = counts {
        let agent = args.agents.first().cloned();
        for &n in counts {
            let names: Vec<String> = DEFAULT_PLAYERS[..n].iter().map(|s| s.to_string()).collect();
            let agents = vec![agent.clone().unwrap_or_else(|| "greedy".into())];
            let (agents, players) = seats(agents, &names, "plays at `carto play`")?;
            out.push(Plan {
                label: format!("{n} players"),
                agents,
                players,
            });
        }
    } else {
        let (_, names) = agents_and_players(args)?;
        for p in skill::PAIRINGS {
            let (agents, players) = seats(vec![p.to_string()], &names, "plays at `carto play`")?;
            out.push(Plan {
                label: p.to_string(),
                agents,
                players,
            });
        }
    }
    Ok(out)
}

pub(crate) fn run_many(args: &Args) -> Result<(), Failure> {
    let counts = player_counts(&args.players)?;
    check(args, &counts)?;
    stop_on_ctrl_c();
    let mut runs = Vec::new();
    for plan in plans(args, &counts)? {
        if !args.quiet {
            eprintln!("{}: {}", plan.label, plan.agents.join(", "));
        }
        let (mut info, variants) = run_info_for(args, plan.agents, plan.players)?;
        info.report = true;
        let spec = Spec {
            settings: variants.iter().collect(),
            players: info.players.clone(),
            agents: info.agents.clone(),
            seed: args.seed,
            first: 0,
            games: args.games,
            threads: threads(args),
            report: true,
        };
        let results = play(&spec, &info, args)?;
        let stopped = results.interrupted;
        runs.push(Labelled {
            label: plan.label,
            info,
            results,
        });
        if stopped {
            break;
        }
    }
    let trace = if args.skill && !interrupted(&runs) {
        trace_runs(args, &runs[0].info.players)?
    } else {
        Vec::new()
    };
    print(args, &runs, &trace);
    if interrupted(&runs) || interrupted(&trace) {
        eprintln!("interrupted: the runs so far are reported");
        std::process::exit(130);
    }
    Ok(())
}

fn interrupted(runs: &[Labelled]) -> bool {
    runs.iter().any(|r| r.results.interrupted)
}

/// The runs of the skill trace: for each N, mcts:2N in each seat in turn against mcts:N, under
/// the variant as named (`--set` applies; `--vs` does not: the trace is of one setting).
fn trace_runs(args: &Args, players: &[String]) -> Result<Vec<Labelled>, Failure> {
    let mut out = Vec::new();
    let seats = players.len();
    for n in skill::TRACE {
        for stronger in 0..seats {
            let agents = skill::trace_agents(n, seats, stronger);
            if !args.quiet {
                eprintln!("skill trace: {}", agents.join(", "));
            }
            let (info, variants) = run_info_for(args, agents, players.to_vec())?;
            let spec = Spec {
                settings: vec![&variants[0]],
                players: info.players.clone(),
                agents: info.agents.clone(),
                seed: args.seed,
                first: 0,
                games: args.trace_games,
                threads: threads(args),
                report: false,
            };
            let results = play(&spec, &info, args)?;
            let stopped = results.interrupted;
            out.push(Labelled {
                label: format!("mcts:{} against mcts:{n}, seat {}", 2 * n, stronger + 1),
                info,
                results,
            });
            if stopped {
                return Ok(out);
            }
        }
    }
    Ok(out)
}

/// The steps of the trace from its runs (one per seating, in order).
fn steps(trace: &[Labelled]) -> Vec<Step<'_>> {
    let seats = trace.first().map(|r| r.info.players.len()).unwrap_or(2);
    skill::TRACE
        .iter()
        .zip(trace.chunks(seats.max(1)))
        .filter(|(_, c)| c.len() == seats)
        .map(|(&n, c)| Step {
            n,
            runs: c.iter().map(|r| &r.results).collect(),
        })
        .collect()
}

fn print(args: &Args, runs: &[Labelled], trace: &[Labelled]) {
    let title = if args.skill {
        "per skill pairing (every seat the same agent)"
    } else {
        "per player count"
    };
    match args.format {
        Format::Json => {
            let doc = json!({
                "runs": runs.iter().map(|r| json!({
                    "label": r.label,
                    "run": r.info,
                    "report": findings::json(&r.info, &r.results),
                })).collect::<Vec<_>>(),
                "across": skill::across_json(runs),
                "skill_trace": skill::trace_json(&steps(trace)),
            });
            emitln!("{doc}");
        }
        _ => {
            let mut s = String::new();
            for r in runs {
                s.push_str(&format!("=== {} ===\n", r.label));
                s.push_str(&report::header(&r.info, &r.results));
                s.push('\n');
                s.push_str(&findings::text(&r.info, &r.results));
                s.push('\n');
            }
            s.push_str(&skill::across_text(title, runs));
            if !trace.is_empty() {
                s.push_str(&skill::trace_text(&steps(trace)));
            }
            emit!("{s}");
        }
    }
}
