//! The `carto` command: parses the command line and hands each subcommand to its room in `cmd/`.

mod cmd;

use clap::{Parser, Subcommand};
use cmd::Failure;
use std::process::ExitCode;

const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  a problem in the input: a rules, map, tile-set, script or log file, a parameter, an illegal move,
     a replay that differs, or output that could not be written
  2  bad usage: an unknown command or option, a missing or malformed argument

VARIANT is a bundled name (`carto list`) or the path of a rules file. `carto COMMAND --help` shows
examples of each command.";

const DOC_EXAMPLES: &str = "\
Examples:
  carto doc base --format markdown            a bundled variant's page in Markdown (without --format: text on a terminal)
  carto doc my.rules --against base           what a house rule changes
  carto doc --all --out docs/                 every bundled variant's page and an index";

const SIM_EXAMPLES: &str = "\
Examples:
  carto sim base --games 2000 --agents greedy,random
  carto sim base --vs farm_city=4                   the same seeds with one change, every difference
  carto sim base --games 500 --first-game 500 --format json > b.json
                                                    games 500 to 999 (a slice); with a.json holding
                                                    games 0 to 499, `carto sim merge a.json b.json`
                                                    gives the results of one run of 1000 games";

const RENDER_EXAMPLES: &str = "\
Examples:
  carto render game.log --turn 60 -o turn60.svg
  carto render --map my-map.toml -o map.svg";

const VIEW_EXAMPLES: &str = "\
Examples:
  carto play base --seed 3 --log game.log && carto view game.log -o game.html";

#[derive(Parser)]
#[command(
    name = "carto",
    version,
    about = "Plays, checks, documents and simulates Carcassonne: Maps games with the Map-Chips variants",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colours in diagnostics: `auto` (when standard error is a terminal and `NO_COLOR` is not
    /// set), `always` or `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    fn on(self) -> bool {
        use std::io::IsTerminal as _;
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stderr().is_terminal()
            }
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Plays one game, each seat by an agent (`--agents`) or a person, and prints its transcript.
    Play(cmd::play::Args),
    /// Runs a scripted game and prints its transcript.
    Run(cmd::run::Args),
    /// Replays a game log and checks that the replay gives the same log, line by line.
    Replay(cmd::replay::Args),
    /// Writes a variant's documentation page (plain text on a terminal, else Markdown; or JSON): prose,
    /// the turn, map, parameters, and every rule and action as an English sentence beside its source.
    #[command(after_help = DOC_EXAMPLES)]
    Doc(cmd::doc::Args),
    /// Lists the bundled variants.
    List(cmd::list::Args),
    /// Checks rules files and prints every problem found.
    Check(cmd::check::Args),
    /// Plays many games with agents and reports statistics per seat; compares settings (`--vs`).
    #[command(after_help = SIM_EXAMPLES)]
    Sim(cmd::sim::Args),
    /// Finds the value of a parameter that brings a figure of the games nearest a target (a race
    /// on paired seeds: docs/tune.md).
    Tune(cmd::tune::Args),
    /// Draws the board of a logged or scripted game at any turn, or a map alone, as SVG.
    #[command(after_help = RENDER_EXAMPLES)]
    Render(cmd::render::Args),
    /// Writes the HTML replay page of a logged game: every turn's board, events and scores.
    #[command(after_help = VIEW_EXAMPLES)]
    View(cmd::view::Args),
    /// Plays random games on one core and reports games per second.
    Bench(cmd::bench::Args),
    /// Writes the shell completion script for bash, zsh, fish, PowerShell or Elvish.
    Completions(cmd::completions::Args),
    /// Rewrites rules files and scripts in their one canonical layout (`--check`: only says which
    /// are not).
    Fmt(cmd::fmt::Args),
    /// Runs the language server for editors (VS Code, Neovim, Helix, Zed) on standard input and
    /// output: docs/editors.md.
    Lsp(cmd::lsp::Args),
}

/// Prints what clap says instead of running a command (`--help`, `--version`, a usage error) and
/// exits with its code; 1 when the help or version cannot be written (a full disk).
fn clap_exit(e: &clap::Error) -> ExitCode {
    use std::io::Write as _;
    let written = e.print().and_then(|()| std::io::stdout().flush());
    match written {
        Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write to standard output: {w}");
            ExitCode::from(1)
        }
        _ => ExitCode::from(e.exit_code().clamp(0, 255) as u8),
    }
}

/// The first argument that is not UTF-8, named by its position and shown with its undecodable bytes
/// as `�`, when clap refuses it (an argument that is not a file to read: clap would only say that
/// "one or more arguments" are invalid). The files commands read and write may have any name
/// (Linux names are bytes).
fn non_utf8_argument() -> Option<String> {
    let (i, arg) = std::env::args_os()
        .enumerate()
        .skip(1)
        .find(|(_, a)| a.to_str().is_none())?;
    Some(format!(
        "argument {i} (`{}`) is not valid UTF-8: this argument takes UTF-8 (it is no file's name: \
         a variant, a log, a script, `--map`, `--rules`, `--log`, `-o` and `--out` may name any \
         file)",
        arg.to_string_lossy()
    ))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            let Some(why) = non_utf8_argument() else {
                return clap_exit(&e);
            };
            eprintln!("error: {why}");
            return ExitCode::from(2);
        }
        Err(e) => return clap_exit(&e),
    };
    carto::diag::set_colour(cli.color.on());
    let json = match &cli.command {
        Command::Check(a) => a.json(),
        Command::List(a) => a.json(),
        Command::Bench(a) => a.json(),
        Command::Doc(a) => a.json(),
        Command::Sim(a) => a.json(),
        Command::Tune(a) => a.json(),
        _ => false,
    };
    let r = match cli.command {
        Command::Play(a) => cmd::play::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Doc(a) => cmd::doc::run(a),
        Command::List(a) => cmd::list::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Sim(a) => cmd::sim::run_cmd(a),
        Command::Tune(a) => cmd::tune::run_cmd(a),
        Command::Render(a) => cmd::render::run(a),
        Command::View(a) => cmd::view::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Completions(a) => cmd::completions::run(a),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Lsp(a) => cmd::lsp::run(a),
    };
    // A failure to write the output counts as the command's failure when it had none of its own.
    // Standard output is flushed after a failure too (`check` fails after printing its JSON): a
    // failed write is said, with the command's own message if it has one.
    let r = match (r, cmd::finish_stdout()) {
        (Ok(()) | Err(Failure::Reported), Err(w)) => Err(w),
        (Ok(()), flushed) => flushed,
        (Err(Failure::Input(e)), Err(Failure::Input(w))) => {
            Err(Failure::Input(carto::variant::InputError {
                text: format!("{}\n{}", e.text.trim_end(), w.text)
                    .trim()
                    .to_string(),
                ..e
            }))
        }
        (Err(e), _) => Err(e),
    };
    if let (true, Some(failed)) = (json, r.as_ref().err().and_then(Failure::json)) {
        // The command's output is JSON: so is its failure, with its kind (also said on stderr).
        cmd::emit_json(&failed);
        let _ = cmd::finish_stdout();
    }
    match r {
        Ok(()) => ExitCode::SUCCESS,
        // `check` has printed its diagnostics already.
        Err(Failure::Reported) => ExitCode::from(1),
        Err(Failure::Input(e)) => {
            // A name or line of 100,000 characters from a stranger's file is cut, not echoed.
            for line in e.text.trim_end().lines() {
                eprintln!("{}", carto::diag::cut_long_line(line));
            }
            ExitCode::from(1)
        }
        Err(Failure::Usage(e)) => {
            eprintln!("error: {}", carto::diag::cut_long_line(&e));
            ExitCode::from(2)
        }
    }
}
