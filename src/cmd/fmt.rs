//! `carto fmt`: rules files and scripts in their one canonical layout (`carto::lang::fmt`).

use super::Failure;

const EXAMPLES: &str = "\
Examples:
  carto fmt my.rules                  rewrites the file in its canonical layout (only when it changes)
  carto fmt --check rules/*.rules     changes nothing; exit 1 and the first line that differs when a file is not formatted
  carto fmt - < my.rules              reads standard input, writes the formatted text to standard output";

#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// The rules files (and scripts, `.script`) to format, rewritten in place; `-` reads standard
    /// input (a rules file) and writes to standard output.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Writes nothing: says which files are not in the canonical layout (the first line that
    /// differs) and exits 1 if any is not.
    #[arg(long)]
    check: bool,
}

pub(crate) fn run(a: Args) -> Result<(), Failure> {
    let mut failed = false;
    for f in &a.files {
        match one(f, a.check) {
            Ok(true) => {}
            Ok(false) => failed = true,
            Err(text) => {
                eprintln!("{}", text.trim_end());
                failed = true;
            }
        }
    }
    if failed {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

/// Formats one file; `Ok(false)` when `--check` found it not formatted, `Err` the text for people
/// of a file that cannot be read, formatted or written.
fn one(path: &std::path::Path, check: bool) -> Result<bool, String> {
    let stdin = super::is_stdio(path);
    let text = if stdin {
        carto::files::read_stdin()
    } else {
        carto::files::read_text(path)
    }
    .map_err(|e| format!("error: {e}"))?;
    // A name that is not UTF-8 (Linux names are bytes) is shown with `�`.
    let f = &*path.to_string_lossy();
    let shown = if stdin { "<stdin>" } else { f };
    let formatted = if f.ends_with(".script") {
        carto::lang::fmt::format_script(&text)
    } else {
        carto::lang::fmt::format_rules(&text).map_err(|diags| {
            let src = carto::diag::Source::new(shown, text.as_str());
            format!(
                "{}{shown}: not formatted: it has {} syntax error{} (fix {} first)",
                src.render(&diags),
                diags.len(),
                super::plural(diags.len()),
                if diags.len() == 1 { "it" } else { "them" }
            )
        })?
    };
    if check {
        if formatted == text {
            return Ok(true);
        }
        emitln!("{}", first_difference(shown, &text, &formatted));
        return Ok(false);
    }
    if stdin {
        emit!("{formatted}");
    } else if formatted != text {
        write_in_place(path, &formatted)?;
        emitln!("{f}: formatted");
    }
    Ok(true)
}

/// `FILE:LINE: not formatted`, with the line as it is and as it would be.
fn first_difference(name: &str, text: &str, formatted: &str) -> String {
    let (mut a, mut b) = (text.lines(), formatted.lines());
    let mut line = 1;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (x, y) => {
                return format!(
                    "{name}:{line}: not formatted\n  - {}\n  + {}",
                    x.unwrap_or("(the end of the file)"),
                    y.unwrap_or("(the end of the file)")
                )
            }
        }
    }
}

/// Replaces the file `f` (the one the user named) with `text`: written beside it first, with its
/// permissions, then renamed over it, so an interrupted write never leaves half a file.
fn write_in_place(path: &std::path::Path, text: &str) -> Result<(), String> {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(".carto-fmt");
    let tmp = path.with_file_name(name);
    let failed = |e: std::io::Error| format!("error: cannot write `{}`: {e}", path.display());
    std::fs::write(&tmp, text).map_err(failed)?;
    let done = std::fs::metadata(path)
        .and_then(|m| std::fs::set_permissions(&tmp, m.permissions()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(failed(e));
    }
    Ok(())
}
