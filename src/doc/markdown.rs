//! The page as Markdown: sections for the prose, map, parameters, setup, rules and actions; each
//! sentence beside its source in a two-column table.

use super::page::{value_text, Item, Page};
use super::Links;
use crate::map::{MapBoard, SquareKind};

pub fn markdown(p: &Page, map: Option<&MapBoard>, links: &Links) -> String {
    let mut out = format!("# {} (`{}`)\n\n", p.title, p.name);
    if !p.doc.is_empty() {
        out.push_str(&format!("{}\n\n", p.doc));
    }
    out.push_str(&glance(p));
    out.push_str("\n## The turn and the end of the game\n\n");
    let numbered = |s: &String| s.starts_with(|c: char| c.is_ascii_digit());
    for (i, para) in p.turn.iter().enumerate() {
        out.push_str(para);
        let next_numbered = p.turn.get(i + 1).is_some_and(numbered);
        out.push_str(if numbered(para) && next_numbered {
            "\n"
        } else {
            "\n\n"
        });
    }
    out.push_str("## Map\n\n");
    match (map, links) {
        (Some(m), Links::FromDocs) => {
            out.push_str(&format!("![The map {}]({}-map.svg)\n", m.name, p.name))
        }
        (Some(m), Links::None) => out.push_str(&map_picture(m)),
        (None, _) => out
            .push_str("The endless table: no map; a tile goes anywhere it fits next to another.\n"),
    }
    for fact in &p.map_facts {
        out.push_str(&format!("\n{fact}\n"));
    }
    out.push_str(&params(p));
    out.push_str(&super::states::markdown(p, &cell));
    out.push_str(&items(
        "Setup",
        "what happens before the first turn",
        &p.setup,
        links,
    ));
    out.push_str(&items("Rules", "rule", &p.rules, links));
    out.push_str(&items("Player actions", "action", &p.actions, links));
    out
}

/// The page as plain text for a terminal: no tables, no HTML, no Markdown marks.
pub fn text(p: &Page, map: Option<&MapBoard>) -> String {
    let heading = |t: &str| format!("\n{t}\n{}\n\n", "-".repeat(t.chars().count()));
    let title = format!("{} ({})", p.title, p.name);
    let mut out = format!("{title}\n{}\n\n", "=".repeat(title.chars().count()));
    if !p.doc.is_empty() {
        out.push_str(&format!("{}\n", p.doc.replace('`', "")));
    }
    out.push_str(&heading("At a glance"));
    out.push_str(&unmark(&glance(p).replace("## At a glance\n\n", "")));
    out.push_str(&heading("The turn and the end of the game"));
    for para in &p.turn {
        out.push_str(&wrap(&unmark(para), ""));
        out.push('\n');
    }
    out.push_str(&heading("Map"));
    match map {
        Some(m) => {
            // The picture as it is; its legend wrapped, marks in quotes.
            let picture = map_picture(m).replace("```text\n", "");
            let (rows, legend) = picture.split_once("```\n").unwrap_or((&picture, ""));
            out.push_str(rows);
            out.push('\n');
            out.push_str(&wrap(&legend.replace('`', "'"), ""));
        }
        None => out
            .push_str("The endless table: no map; a tile goes anywhere it fits next to another.\n"),
    }
    for fact in &p.map_facts {
        out.push('\n');
        out.push_str(&wrap(&unmark(fact), ""));
    }
    out.push_str(&heading("Parameters (change one with --set name=value)"));
    for par in &p.params {
        let range = if par.range.is_empty() {
            String::new()
        } else {
            format!(", {}", par.range)
        };
        out.push_str(&format!(
            "{} = {}  ({}{range}, default {})\n",
            par.name,
            value_text(&par.value),
            par.ty,
            value_text(&par.default)
        ));
        if !par.doc.is_empty() {
            out.push_str(&wrap(&cell(&par.doc).replace('`', ""), "    "));
        }
    }
    let states = super::states::text(p);
    if !states.is_empty() {
        out.push_str(&heading("State the rules keep"));
        for line in states {
            out.push_str(&wrap(&line.replace('`', ""), ""));
        }
    }
    for (title, list) in [
        ("Setup", &p.setup),
        ("Rules", &p.rules),
        ("Player actions", &p.actions),
    ] {
        if list.is_empty() {
            continue;
        }
        out.push_str(&heading(title));
        for it in list {
            if it.kind != "setup" {
                let mut head = it.heading.clone();
                if !it.when.is_empty() {
                    head.push_str(&format!(" ({})", it.when));
                }
                out.push_str(&format!("{}\n", unmark(&head)));
            }
            if !it.comment.is_empty() {
                out.push_str(&wrap(&it.comment.replace('`', ""), "  "));
                out.push_str(&wrap(&format!("Precisely: {}", it.sentence), "  "));
            } else {
                out.push_str(&wrap(&it.sentence, "  "));
            }
            out.push_str(&format!("  {}:{}\n", it.file, it.line));
            for line in it.source.lines() {
                out.push_str(&format!("    {line}\n"));
            }
            out.push('\n');
        }
    }
    out
}

/// Markdown marks removed: `**`, `*`, backticks.
fn unmark(s: &str) -> String {
    s.replace("**", "").replace(['*', '`'], "")
}

/// A paragraph wrapped at 100 columns, each line indented.
fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    let mut lead = line.clone();
    // A numbered item's later lines sit under its text.
    let hang = if text.starts_with(|c: char| c.is_ascii_digit()) {
        "   "
    } else {
        ""
    };
    for word in text.split_whitespace() {
        if line.len() > lead.len() && line.chars().count() + 1 + word.chars().count() > 100 {
            out.push_str(line.trim_end());
            out.push('\n');
            line = format!("{indent}{hang}");
            lead = line.clone();
        }
        if line.len() > lead.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

fn glance(p: &Page) -> String {
    let mut out = String::from("## At a glance\n\n");
    out.push_str(&format!(
        "- **Players:** {}–{}; **followers** each: {}\n",
        p.players[0], p.players[1], p.followers
    ));
    out.push_str(&format!(
        "- **Tiles:** {} (tile sets: {})\n",
        p.tiles,
        if p.tile_sets.is_empty() {
            "base".to_string()
        } else {
            p.tile_sets.join(", ")
        }
    ));
    if p.chips > 0 {
        out.push_str(&format!(
            "- **Chips:** {} ({})\n",
            p.chips,
            p.chip_colours.join(", ")
        ));
    }
    match &p.map {
        Some(m) => out.push_str(&format!(
            "- **Map:** {}, {}×{} squares; start squares {} ({} used in a game)\n",
            m.name,
            m.width,
            m.height,
            m.start_squares.join(", "),
            m.starts_used
        )),
        None => out.push_str("- **Map:** the endless table\n"),
    }
    out
}

fn params(p: &Page) -> String {
    let mut out = String::from("\n## Parameters\n\nChange one with `--set name=value`.\n\n");
    out.push_str(
        "| name | type | allowed | default | in force | meaning |\n|---|---|---|---|---|---|\n",
    );
    for par in &p.params {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            par.name,
            cell(&par.ty),
            cell(&par.range),
            cell(&value_text(&par.default)),
            cell(&value_text(&par.value)),
            cell(&par.doc)
        ));
    }
    out
}

fn items(title: &str, column: &str, items: &[Item], links: &Links) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut out = format!("\n## {title}\n\n| {column} | source |\n|---|---|\n");
    for it in items {
        let mut left = String::new();
        if it.kind != "setup" {
            left = format!("**{}**", it.heading);
            if !it.when.is_empty() {
                left.push_str(&format!(" ({})", it.when));
            }
            left.push_str(": ");
        }
        if it.comment.is_empty() {
            left.push_str(&it.markdown);
        } else {
            left.push_str(&format!(
                "{}<br>*Precisely:* {}",
                escape_comment(&it.comment),
                it.markdown
            ));
        }
        out.push_str(&format!(
            "| {} | {} |\n",
            cell(&left),
            source_cell(it, links)
        ));
    }
    out
}

/// An author's comment in a Markdown cell: `<`, `>` and `&` escaped, the rest as written.
fn escape_comment(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Text for a table cell: no line breaks (a line break and the indentation around it become one
/// space), `|` escaped.
fn cell(s: &str) -> String {
    let one_line = if s.contains('\n') {
        s.lines().map(str::trim).collect::<Vec<_>>().join(" ")
    } else {
        s.to_string()
    };
    one_line.replace('|', "\\|")
}

/// The source of an item for a table cell: where it is, then its lines in `<code>`.
fn source_cell(it: &Item, links: &Links) -> String {
    let place = format!("{}:{}", it.file, it.line);
    let place = match links {
        Links::FromDocs if it.file.starts_with("rules/") => {
            format!("[{place}](../{}#L{})", it.file, it.line)
        }
        _ => format!("`{place}`"),
    };
    let lines: Vec<String> = it.source.lines().map(html_code_line).collect();
    format!("{place}<br><code>{}</code>", lines.join("<br>"))
}

/// One source line as HTML inside `<code>` in a Markdown table: escaped so that neither HTML nor
/// Markdown reads it, leading spaces kept.
fn html_code_line(line: &str) -> String {
    let indent = line.len() - line.trim_start().len();
    let mut out = "&nbsp;".repeat(indent);
    for c in line.trim_start().chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' => out.push_str("&#124;"),
            '*' => out.push_str("&#42;"),
            '_' => out.push_str("&#95;"),
            '`' => out.push_str("&#96;"),
            '[' => out.push_str("&#91;"),
            '\\' => out.push_str("&#92;"),
            c => out.push(c),
        }
    }
    out
}

/// The map as text, one character a square, with column numbers above (hundreds, tens, then units)
/// and row numbers on the left, counted from 0 as the board pictures, the logs and the page's map
/// facts count them; and a legend of the marks it uses.
pub fn map_picture(m: &MapBoard) -> String {
    let mut out = String::from("```text\n");
    let margin = (m.height - 1).max(0).to_string().len() + 1;
    let digit = |x: i32, place: i32| {
        if place > 1 && x < place {
            ' '
        } else {
            char::from(b'0' + ((x / place) % 10) as u8)
        }
    };
    for place in [100, 10, 1] {
        if place > 1 && m.width <= place {
            continue;
        }
        let row: String = (0..m.width).map(|x| digit(x, place)).collect();
        out.push_str(&format!("{}{}\n", " ".repeat(margin), row.trim_end()));
    }
    let mut seen = std::collections::BTreeSet::new();
    for y in 0..m.height {
        let row: String = (0..m.width)
            .map(|x| m.square(x, y).map_or(' ', square_char))
            .collect();
        seen.extend(row.chars());
        out.push_str(format!("{:>w$} {}", y, row, w = margin - 1).trim_end());
        out.push('\n');
    }
    out.push_str("```\n\n");
    // The legend names only the marks this map uses.
    let marks: Vec<String> = [
        ('.', "land"),
        ('t', "town"),
        ('S', "start square"),
        ('#', "large city"),
        ('i', "island"),
        ('~', "sea"),
        ('=', "waves"),
    ]
    .iter()
    .filter(|(c, _)| seen.contains(c))
    .map(|(c, name)| format!("`{c}` {name}"))
    .chain(
        seen.contains(&' ')
            .then(|| "blank: off the map".to_string()),
    )
    .collect();
    out.push_str(&format!(
        "Columns are numbered along the top and rows down the left, from 0 as on the board pictures. {}.\n",
        marks.join(", ")
    ));
    out
}

fn square_char(s: &crate::map::Square) -> char {
    match s.kind {
        _ if s.start.is_some() => 'S',
        _ if s.town => 't',
        SquareKind::Land => '.',
        SquareKind::Sea => '~',
        SquareKind::Wave => '=',
        SquareKind::OffMap => ' ',
        SquareKind::LargeCity => '#',
        SquareKind::Island => 'i',
    }
}

/// The index of the bundled variants' pages.
pub fn index(pages: &[Page]) -> String {
    let mut out = String::from(
        "# The bundled variants\n\nOne page per variant, generated from its rules file by \
         `carto doc --all --out docs/` (do not edit by hand: `cargo test` fails when a page is stale).\n\n\
         | variant | title | players | map | rules | actions |\n|---|---|---|---|---|---|\n",
    );
    for p in pages {
        let map = p
            .map
            .as_ref()
            .map_or("the endless table".to_string(), |m| m.name.clone());
        out.push_str(&format!(
            "| [`{}`]({}.md) | {} | {}–{} | {} | {} | {} |\n",
            p.name,
            p.name,
            cell(&p.title),
            p.players[0],
            p.players[1],
            cell(&map),
            p.rules.len(),
            p.actions.len()
        ));
    }
    out.push_str(
        "\nThe formats: [the rules language](../grammar/DESIGN.md) (and its grammar rule by rule, \
         [GRAMMAR.md](../grammar/GRAMMAR.md)), [maps](../maps/README.md) and \
         [tile sets](../maps/tiles/README.md) (with JSON Schemas in [`schema/`](../schema/)), \
         [the game log](format-log.md), [scripts](format-script.md).\n\nWhether a page's \
         generated part alone answers a new player's rules questions is measured in \
         [reading-check.md](reading-check.md) (the questions, the answers found and how to count \
         again).\n",
    );
    out
}
