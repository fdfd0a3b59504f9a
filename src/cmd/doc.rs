//! `carto doc`: a variant's documentation page (Markdown or JSON), every bundled variant's page and an
//! index (`--all --out DIR`), or what a variant changes from another (`--against`). The pages are made
//! by the library's `carto::doc`.

use super::Failure;
use carto::diag::Code;
use carto::doc::{self, Links};
use carto::variant::{bundled_variants, load_variant, InputError};
use std::path::Path;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    // Plain text for reading in a terminal (no tables, no HTML).
    Text,
    Markdown,
    Json,
}

#[derive(clap::Args)]
pub(crate) struct Args {
    /// A bundled variant (see `carto list`) or the path of a rules file.
    #[arg(required_unless_present_any = ["all", "builtins"], value_parser = super::VARIANT_NAMES, hide_possible_values = true)]
    pub(crate) variant: Option<std::path::PathBuf>,
    /// Sets a parameter of the rules: `--set name=value` (repeatable); the page shows the value in force.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = super::PARAM_NAMES, hide_possible_values = true)]
    pub(crate) sets: Vec<String>,
    /// Every bundled variant: one page each and an index, `README.md`, written to `--out`.
    #[arg(long, requires = "out", conflicts_with_all = ["variant", "against"])]
    pub(crate) all: bool,
    /// The language reference instead of a variant's page: every trigger, statement, expression,
    /// builtin (query and effect) and field, with its signature, what it does and an example
    /// (Markdown; `docs/language.md` is this page; with `--out DIR`, written to DIR/language.md).
    #[arg(long, conflicts_with_all = ["variant", "all", "against", "sets", "format"])]
    pub(crate) builtins: bool,
    /// Writes the page(s) into this folder (as NAME.md) instead of printing them.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<std::path::PathBuf>,
    /// Shows what this variant changes from VARIANT (say a house rule against the variant it imports):
    /// parameters changed, added, removed; rules and actions added, replaced, changed, removed.
    #[arg(long, value_name = "VARIANT")]
    pub(crate) against: Option<String>,
    /// `text` (the default when printing to a terminal), `markdown` (the default otherwise, and with
    /// `--out`) or `json` (the page's fields; see docs/commands.md).
    #[arg(long, value_enum)]
    pub(crate) format: Option<Format>,
}

impl Args {
    /// Asks for JSON: a failure is written as JSON too (with its code).
    pub(crate) fn json(&self) -> bool {
        self.format == Some(Format::Json)
    }
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    use std::io::IsTerminal;
    let format = args.format.unwrap_or(
        if args.out.is_none() && args.against.is_none() && std::io::stdout().is_terminal() {
            Format::Text
        } else {
            Format::Markdown
        },
    );
    if args.all {
        return write_all(args.out.as_deref().unwrap_or(Path::new("docs")), format);
    }
    if args.builtins {
        let text = doc::language::markdown();
        return match &args.out {
            Some(dir) => write_file(&dir.join("language.md"), &text),
            None => {
                emit!("{text}");
                Ok(())
            }
        };
    }
    let name = args.variant.clone().unwrap_or_default();
    let sets = &args.sets;
    let v = carto::variant::load_variant_at(&name, sets, &|i, e| {
        InputError::new(Code::BadSet, format!("error: `--set {}`: {e}", sets[i]))
    })?;
    let page = doc::page(&v);
    let text = match (&args.against, format) {
        (Some(other), f) => {
            let b = doc::page(&load_variant(other, &[])?);
            match f {
                Format::Markdown | Format::Text => doc::against(&page, &b),
                Format::Json => json_text(&serde_json::json!({"variant": page, "against": b})),
            }
        }
        (None, Format::Json) => json_text(&serde_json::to_value(&page).unwrap_or_default()),
        (None, Format::Text) => doc::text(&page, v.map.as_deref()),
        (None, Format::Markdown) => {
            let links = if args.out.is_some() {
                Links::FromDocs
            } else {
                Links::None
            };
            doc::markdown(&page, v.map.as_deref(), &links)
        }
    };
    match &args.out {
        Some(dir) => {
            let ext = match format {
                Format::Json => "json",
                Format::Text => "txt",
                Format::Markdown => "md",
            };
            // The checker refuses a variant whose name is not a name; a file name is never made of
            // anything else.
            if !carto::paths::is_name(&page.name) {
                return Err(Failure::Input(InputError::new(
                    Code::InvalidName,
                    format!(
                        "error: the variant's name `{}` cannot name a file",
                        page.name.escape_debug()
                    ),
                )));
            }
            // The page links its map picture: write it beside the page.
            if format == Format::Markdown && args.against.is_none() {
                if let Some(m) = &v.map {
                    let svg = carto::render::svg::map_svg(m, &doc::holding_titles(&v));
                    write_file(&dir.join(format!("{}-map.svg", page.name)), &svg)?;
                }
            }
            write_file(&dir.join(format!("{}.{ext}", page.name)), &text)
        }
        None => {
            emit!("{text}");
            Ok(())
        }
    }
}

fn json_text(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
}

/// One page per bundled variant and the index.
fn write_all(dir: &Path, format: Format) -> Result<(), Failure> {
    let mut pages = Vec::new();
    for (name, _) in bundled_variants() {
        let v = load_variant(name, &[])?;
        let page = doc::page(&v);
        let path = dir;
        match format {
            Format::Markdown | Format::Text => {
                write_file(
                    &path.join(format!("{name}.md")),
                    &doc::markdown(&page, v.map.as_deref(), &Links::FromDocs),
                )?;
                if let Some(m) = &v.map {
                    let svg = carto::render::svg::map_svg(m, &doc::holding_titles(&v));
                    write_file(&path.join(format!("{name}-map.svg")), &svg)?;
                }
            }
            Format::Json => write_file(
                &path.join(format!("{name}.json")),
                &json_text(&serde_json::to_value(&page).unwrap_or_default()),
            )?,
        }
        pages.push(page);
    }
    if format == Format::Markdown {
        write_file(&dir.join("README.md"), &doc::index(&pages))?;
    }
    Ok(())
}

fn write_file(path: &Path, text: &str) -> Result<(), Failure> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| {
            // `--out` naming a file (or a path through one): say which file is in the way.
            let file = parent
                .ancestors()
                .find(|a| !a.as_os_str().is_empty() && a.exists() && !a.is_dir());
            Failure::Input(InputError::new(
                Code::CannotWrite,
                match file {
                    Some(f) => format!(
                    "error: `{}` is a file, not a folder: `--out` names the folder the pages are \
                     written to (it is created if missing)",
                    f.display()
                ),
                    None => format!(
                        "error: cannot create the folder `{}`: {e}",
                        parent.display()
                    ),
                },
            ))
        })?;
    }
    carto::files::write_text(path, text, "the page")
        .map_err(|(code, e)| Failure::Input(InputError::new(code, format!("error: {e}"))))
}
