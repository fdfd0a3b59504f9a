//! `carto render`: the board of a logged or scripted game at any turn, or a map alone, as SVG.

use super::Failure;
use carto::diag::Code;
use carto::variant::InputError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// A game log (JSON Lines, from `--log`) or a script; `-` reads it from standard input.
    #[arg(required_unless_present = "map", conflicts_with = "map")]
    pub(crate) game: Option<std::path::PathBuf>,
    /// The turn to draw (0 is the setup); default: the end of the game.
    #[arg(long, allow_hyphen_values = true, value_parser = turn_number)]
    pub(crate) turn: Option<u32>,
    /// Draws this map alone (a bundled map name, a variant's name, or a map file).
    #[arg(long, value_name = "NAME-or-FILE")]
    pub(crate) map: Option<std::path::PathBuf>,
    /// Writes the SVG to this file (`-`: standard output). Default: standard output, or a file
    /// named after the input (`game.log` gives `game.svg`) when standard output is a terminal.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) log: LogArgs,
}

/// How `render` and `view` take a log.
#[derive(clap::Args)]
pub(crate) struct LogArgs {
    /// The rules the game was played with, when they are not where the log says (a log names its
    /// rules relative to its own folder, and carto reads nothing outside it).
    #[arg(long, value_name = "FILE")]
    pub(crate) rules: Option<std::path::PathBuf>,
    /// Draws a log that disagrees with its replay (an edited score or line), with a warning: what is
    /// drawn is the replay, not the log's values.
    #[arg(long)]
    pub(crate) draw_anyway: bool,
}

impl LogArgs {
    /// Loads the game to draw and prints the warnings it gave.
    pub(crate) fn load(
        &self,
        path: &std::path::Path,
    ) -> Result<carto::render::load::Loaded, Failure> {
        let opts = carto::render::load::LoadOptions {
            rules: self.rules.clone(),
            draw_anyway: self.draw_anyway,
        };
        let loaded = carto::render::load::load_game(path, &opts)?;
        for w in &loaded.warnings {
            eprintln!("{w}");
        }
        Ok(loaded)
    }
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    let svg = match (&args.map, &args.game) {
        (Some(name), _) => {
            if args.turn.is_some() {
                return Err(Failure::Usage("--turn is for a game, not a map".into()));
            }
            if args.log.rules.is_some() || args.log.draw_anyway {
                return Err(Failure::Usage(
                    "--rules and --draw-anyway are for a game log, not a map".into(),
                ));
            }
            carto::render::svg::map_svg(&load_map(name)?, &[])
        }
        (None, Some(path)) => {
            let loaded = args.log.load(path)?;
            let last = carto::render::timeline::last_turn(&loaded.game);
            if let Some(t) = args.turn.filter(|&t| t > last) {
                return Err(Failure::Input(InputError::new(
                    Code::BadArguments,
                    format!("error: {} has turns 0 to {last}, not {t}", path.display()),
                )));
            }
            let snap = carto::render::timeline::at_turn_of(&loaded, args.turn);
            carto::render::svg::board_svg(&loaded.game, &snap)
        }
        (None, None) => return Err(Failure::Usage("name a game or a --map".into())),
    };
    let input = match (&args.game, &args.map) {
        (Some(g), _) => Some(g.as_path()),
        (None, m) => m.as_deref(),
    };
    write_out(args.output.as_deref(), input, "svg", &svg)
}

/// A map by bundled name or path, or the map of a bundled variant or rules file (a path whose name
/// is not UTF-8 is read as it is).
fn load_map(path: &std::path::Path) -> Result<carto::map::MapBoard, Failure> {
    let name = &*path.to_string_lossy();
    let is_rules = name.ends_with(".rules");
    if !is_rules {
        match carto::variant::load_map_at(path) {
            Ok(m) => return Ok(m),
            Err(e) if name.ends_with(".toml") => {
                // A file that cannot be read is a one-line message; a broken one, rendered diagnostics.
                let e = e.trim_end();
                let e = if e.starts_with("error") {
                    e.to_string()
                } else {
                    format!("error: {e}")
                };
                return Err(Failure::Input(InputError::new(Code::MapNotLoaded, e)));
            }
            Err(_) => {}
        }
    }
    let v = carto::variant::load_variant_at(path, &[], &|_, e| {
        InputError::new(Code::BadSet, format!("error: {e}"))
    })
    .map_err(|e| {
        if is_rules || name.contains('/') || path.exists() {
            return Failure::Input(e);
        }
        Failure::Input(InputError::new(Code::MapNotLoaded, no_such_map(name)))
    })?;
    match &v.map {
        Some(m) => Ok((**m).clone()),
        None => Err(Failure::Input(InputError::new(
            Code::BadArguments,
            format!(
                "error: {} is played on the endless table: it has no map",
                v.name
            ),
        ))),
    }
}

/// What `--map NAME` can name, when NAME is none of them.
fn no_such_map(name: &str) -> String {
    let maps: Vec<&str> = carto::bundled::MAPS.iter().map(|(n, _)| *n).collect();
    let variants: Vec<&str> = carto::variant::bundled_variants().map(|(n, _)| n).collect();
    format!(
        "error: no map or variant named `{name}`\n  bundled maps: {}\n  bundled variants: {}\n  \
         or give the path of a map (.toml) or rules (.rules) file",
        maps.join(", "),
        variants.join(", ")
    )
}

/// Writes a drawing to the file `path` (`-`: standard output). Without a path: to standard output,
/// or, when that is a terminal (where a page of SVG or HTML is of no use), to a file named after
/// the input in the current folder, saying so.
pub(crate) fn write_out(
    path: Option<&std::path::Path>,
    input: Option<&std::path::Path>,
    ext: &str,
    text: &str,
) -> Result<(), Failure> {
    use std::io::IsTerminal as _;
    match path {
        Some(p) => super::write_to(p, text, "the output"),
        None if std::io::stdout().is_terminal() => {
            // Named after the input when its name is UTF-8 (else `game`).
            let stem = input
                .filter(|i| *i != std::path::Path::new(carto::paths::STDIO))
                .and_then(|i| i.file_stem())
                .and_then(|s| s.to_str())
                .filter(|s| !s.is_empty())
                .unwrap_or("game");
            let name = format!("{stem}.{ext}");
            super::write_to(name.as_ref(), text, "the output")?;
            eprintln!(
                "wrote {name} (standard output is a terminal; `-o FILE` names the file, `-o -` \
                 prints it)"
            );
            Ok(())
        }
        None => {
            emit!("{text}");
            Ok(())
        }
    }
}

/// Parses `--turn`: a whole number from 0 (clap would take `-1` for an option and advise `-- -1`).
fn turn_number(s: &str) -> Result<u32, String> {
    let n = super::parse_count(s)?;
    u32::try_from(n).map_err(|_| format!("must be at most {}", u32::MAX))
}
