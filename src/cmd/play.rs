//! `carto play`: one game, each seat played by an agent (random by default, or a person at the
//! terminal), its transcript, board and scores.

use super::{check_players, new_game, Failure};
use carto::agent::{parse_agent, Agent, View};
use carto::diag::Code;
use carto::game::Game;
use carto::lang::interp::Interp;
use carto::variant::InputError;

const EXAMPLES: &str = "\
Examples:
  carto play base --seed 7                          a game on the endless table
  carto play base --players ann,bob,cyd --log game.log
                                                    three players; writes the log for `carto replay`
  carto play my.rules --set sale=8 --quiet          a rules file of your own, one parameter changed";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// A bundled variant (see `carto list`) or the path of a rules file.
    #[arg(value_parser = super::VARIANT_NAMES, hide_possible_values = true)]
    variant: std::path::PathBuf,
    /// The seed of the random choices (0 or more): the same seed plays the same game.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = super::parse_count)]
    seed: u64,
    /// Player names, comma-separated, in seat order (2 to 6, as the variant allows).
    #[arg(long, value_delimiter = ',', default_value = "ann,bob", value_parser = super::player_name)]
    players: Vec<String>,
    /// Writes the JSON Lines game log to this file (`-`: to standard output, instead of the
    /// transcript).
    #[arg(long, value_name = "FILE")]
    log: Option<std::path::PathBuf>,
    /// Sets a parameter of the rules: `--set name=value` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = super::PARAM_NAMES, hide_possible_values = true)]
    sets: Vec<String>,
    /// The start squares to use, by name, in order (the first gets the start tile); default:
    /// chosen at random from the seed.
    #[arg(long, value_delimiter = ',', value_name = "NAME,NAME")]
    starts: Vec<String>,
    /// Prints only the final board and scores.
    #[arg(long, conflicts_with = "verbose")]
    quiet: bool,
    /// Lists every chip moved at setup on a line of its own (the transcript otherwise sums them up
    /// by colour and value).
    #[arg(long)]
    verbose: bool,
    /// Who plays each seat, comma-separated, or one for all (`mcts:N`: N playouts a decision).
    #[arg(long, value_delimiter = ',', default_value = "random", value_parser = super::AGENT_NAMES)]
    agents: Vec<String>,
}

pub(crate) fn run(a: Args) -> Result<(), Failure> {
    let sets = &a.sets;
    let mut v = carto::variant::load_variant_at(&a.variant, sets, &|i, e| {
        InputError::new(Code::BadSet, format!("error: `--set {}`: {e}", sets[i]))
    })?;
    if !a.starts.is_empty() {
        if v.map.is_none() {
            return Err(Failure::Usage(format!(
                "{} has no map, so no start squares to name",
                v.name
            )));
        }
        let mut cfg = (*v.config).clone();
        cfg.start_names = a.starts.iter().map(|s| s.trim().to_string()).collect();
        v.config = std::sync::Arc::new(cfg);
    }
    if !v.warnings.is_empty() {
        eprint!("{}", v.warnings);
    }
    check_players(&v, &a.players)?;
    if let Some(path) = a.log.as_ref().filter(|p| !super::is_stdio(p)) {
        // Said before the game is played, not after.
        carto::files::refuse_input(path, "the log").map_err(super::overwrite_refused)?;
    }
    let mut seats = seat_agents(&a.agents, a.players.len())?;
    let mut game = new_game(&v, &a.players, a.seed, true)?;
    // A rule's failure (an overflow, the operation budget) points at the rule in its file.
    play_with_agents(&mut game, &mut seats, a.seed)
        .map_err(|e| Failure::Input(InputError::new(e.code(), v.explain(&e))))?;
    if let Some(path) = &a.log {
        super::write_log(&game, &v.params(), path)?;
        if super::is_stdio(path) {
            // The log is the whole of standard output.
            return Ok(());
        }
    }
    if !a.quiet {
        emit!(
            "{}",
            carto::output::transcript_with(&game, super::run::options(a.verbose))
        );
        emitln!();
    }
    emit!("{}", carto::output::ascii_board(&game));
    emitln!();
    for p in &game.st.players {
        emitln!("{}: {}", p.name, p.score);
    }
    Ok(())
}

/// One agent per seat from `--agents` (one spec for all seats, or one per seat).
fn seat_agents(specs: &[String], seats: usize) -> Result<Vec<Box<dyn Agent>>, Failure> {
    if specs.len() != 1 && specs.len() != seats {
        return Err(Failure::Usage(format!(
            "{} agents for {seats} players: give one agent for every seat, or one for all",
            specs.len()
        )));
    }
    (0..seats)
        .map(|i| parse_agent(&specs[i % specs.len()]).map_err(Failure::Usage))
        .collect()
}

/// Plays the game to its end, each decision by the agent of the seat that owns it. The agents draw
/// from the generator `carto sim` gives game `seed`, so a game of a simulation replays alone (and
/// with random agents the choices are those `carto play` always made). When a person plays, the
/// others' choices are shown as they are taken.
fn play_with_agents(
    game: &mut Game<Interp>,
    seats: &mut [Box<dyn Agent>],
    seed: u64,
) -> Result<(), carto::game::GameError> {
    use std::io::IsTerminal as _;
    let mut rng = carto::sim::play::agent_rng(seed);
    // The first person's seat: the others' choices are named as it sees them (`carto::sight`).
    let person = seats.iter().position(|a| a.name() == "human");
    // A game of search agents can take a while: on a terminal, after a second, the turn is shown on
    // stderr (one line, rewritten, and cleared at the end).
    let start = std::time::Instant::now();
    let progress = person.is_none() && std::io::stderr().is_terminal();
    let mut shown = None;
    while game.advance()? {
        if progress && start.elapsed().as_secs() >= 1 && shown != Some(game.st.turn) {
            shown = Some(game.st.turn);
            eprint!(
                "\rplaying: turn {} ({} tiles left) ",
                game.st.turn,
                game.st.stack.len()
            );
        }
        let who = game.decider() as usize;
        let agent = &mut seats[who % seats.len()];
        let i = agent.choose(&View::of(game), &mut rng)?;
        if let Some(me) = person.filter(|_| agent.name() != "human") {
            let name = &game.st.players[who].name;
            let seat = carto::sight::Seat::Player(me as u8);
            emitln!(
                "{name} takes: {}",
                game.option_name_for(game.options[i], seat)
            );
        }
        game.choose(i)?;
    }
    if shown.is_some() {
        eprint!("\r\x1b[K");
    }
    Ok(())
}
