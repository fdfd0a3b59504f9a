//! The `carto` command: parses the command line and hands each subcommand to its room in `cmd/`.

mod cmd;

use clap::{Parser, Subcommand};
use cmd::Failure;
use std::process::ExitCode;

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
    Play(cmd::play::Args),
    /// Runs a scripted game and prints its transcript.
    Run(cmd::run::Args),
    /// Replays a game log and checks that the replay gives the same log, line by line.
    Replay(cmd::replay::Args),
    /// Writes a variant's documentation page (Markdown): prose, map, parameters, and every rule and
    /// action as an English sentence beside its source.
    Doc(cmd::doc::Args),
    /// Lists the bundled variants.
    List(cmd::list::Args),
    /// Checks rules files and prints every problem found.
    Check(cmd::check::Args),
    /// Plays many games with agents and reports statistics per seat; compares settings (`--vs`).
    Sim(cmd::sim::Args),
    /// Draws the board of a logged or scripted game at any turn, or a map alone, as SVG.
    Render(cmd::render::Args),
    /// Writes the HTML replay page of a logged game: every turn's board, events and scores.
    View(cmd::view::Args),
    /// Plays random games on one core and reports games per second.
    Bench(cmd::bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.command {
        Command::Play(a) => cmd::play::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Doc(a) => cmd::doc::run(a),
        Command::List(a) => cmd::list::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Sim(a) => cmd::sim::run_cmd(a),
        Command::Render(a) => cmd::render::run(a),
        Command::View(a) => cmd::view::run(a),
        Command::Bench(a) => cmd::bench::run(a),
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
