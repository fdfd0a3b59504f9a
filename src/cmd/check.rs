//! `carto check`: every problem in rules files.

use super::{plural, Failure};
use carto::variant::InputError;

const EXAMPLES: &str = "\
Examples:
  carto check my.rules                    every error and warning, with file:line:col
  carto check a.rules b.rules --map m.toml
  carto check my.rules --format json      one JSON object per diagnostic, for an editor or CI";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The rules files to check (paths; a bundled variant's name checks the bundled file).
    #[arg(required = true)]
    files: Vec<String>,
    /// Checks against this map (a bundled name or a path) instead of the one the header names.
    #[arg(long, value_name = "MAP")]
    map: Option<String>,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let map = a.map.as_deref();
    let mut failed = false;
    for f in &a.files {
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
