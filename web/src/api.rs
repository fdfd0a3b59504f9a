//! The functions the page calls, by name: what is bundled, check, the page and map, parameters.

use carto::diag::{Code, Source};
use carto::lang::check::{check_source, render, BundledRules, CheckResult};
use carto::variant::{variant_from_texts, InputError, Variant};
use serde_json::{json, Value};

pub fn dispatch(req: &Value) -> Value {
    let s = |k: &str| req.get(k).and_then(Value::as_str).unwrap_or("");
    match s("fn") {
        "bundled" => bundled(),
        "check" => check(s("name"), s("text"), &given_maps(req)),
        "check_map" => check_map(s("name"), s("text")),
        "doc" => doc(
            s("name"),
            s("text"),
            &strings(req.get("sets")),
            &given_maps(req),
        ),
        "lsp" => crate::lsp::step(req),
        f if f.starts_with("play_") => crate::play::dispatch(f, req),
        f if f.starts_with("sim_") => crate::sim::dispatch(f, req),
        f if f.starts_with("tune_") => crate::tune::dispatch(f, req),
        other => bad(format!("no function `{other}`")).json(),
    }
}

/// Why a request failed: its kind (a code of `docs/error-codes.md`) and the message for people.
#[derive(Debug)]
pub struct Failed {
    pub code: Code,
    pub text: String,
}

impl Failed {
    /// The answer to the request: `{"error": …, "code": …}`.
    pub fn json(&self) -> Value {
        json!({"error": self.text, "code": self.code.as_str()})
    }
}

impl From<InputError> for Failed {
    fn from(e: InputError) -> Self {
        Failed {
            code: e.code,
            text: e.text,
        }
    }
}

/// A request the playground cannot answer as asked (as `carto` refuses bad arguments).
pub fn bad(text: impl Into<String>) -> Failed {
    Failed {
        code: Code::BadArguments,
        text: text.into(),
    }
}

/// A list of strings from JSON (anything else is left out).
pub fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The maps the page holds as text (`"maps": [{"name": "my.toml", "text": "…"}]`): a rules file
/// names one by its name (`map = "my.toml"`).
pub fn given_maps(req: &Value) -> Vec<Source> {
    req.get("maps")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|m| {
                    let name = m.get("name")?.as_str()?;
                    let text = m.get("text")?.as_str()?;
                    Some(Source::new(name, text))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The bundled variants (name and title) and every bundled rules file's text.
fn bundled() -> Value {
    let variants: Vec<Value> = carto::variant::bundled_variants()
        .map(|(n, text)| {
            let title = title_of(text).unwrap_or_else(|| n.to_string());
            json!({"name": n, "title": title})
        })
        .collect();
    let rules: serde_json::Map<String, Value> = carto::bundled::RULES
        .iter()
        .map(|(n, t)| (n.to_string(), json!(t)))
        .collect();
    let maps: serde_json::Map<String, Value> = carto::bundled::MAPS
        .iter()
        .map(|(n, t)| (n.to_string(), json!(t)))
        .collect();
    json!({"variants": variants, "rules": rules, "maps": maps, "builtins": builtins()})
}

/// The header's `title = "…"`, read from the text.
fn title_of(text: &str) -> Option<String> {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("title ="))?;
    let (_, rest) = line.split_once('"')?;
    Some(rest.rsplit_once('"')?.0.to_string())
}

/// The builtin table (name, signature, one line of doc), for hover and completion.
fn builtins() -> Value {
    use carto::lang::builtins::{Builtin, Trigger, FIELDS};
    let mut out: Vec<Value> = Builtin::all()
        .filter(|b| b.written())
        .map(|b| {
            let i = b.info();
            let kind = if i.effect { "effect" } else { "query" };
            json!({"name": i.name, "kind": kind, "signature": b.signature(), "doc": i.doc})
        })
        .collect();
    for t in Trigger::ALL {
        let binds: Vec<String> = t
            .binds()
            .iter()
            .map(|(n, bound)| format!("{n}: {}", carto::lang::builtins::Ty::from(*bound)))
            .collect();
        out.push(json!({"name": t.name(), "kind": "trigger",
            "signature": format!("on {}", t.name()),
            "doc": if binds.is_empty() { "a trigger; it binds no names".to_string() } else { format!("a trigger; it binds {}", binds.join(", ")) }}));
    }
    for (owner, name, _, ty, doc) in FIELDS {
        out.push(json!({"name": name, "kind": "field",
            "signature": format!("{}.{name}: {ty}", owner.name()), "doc": doc}));
    }
    json!(out)
}

/// The user's text as `carto check NAME` checks it (bundled imports and maps only: nothing else
/// exists in the page).
fn check_result(name: &str, text: &str, maps: &[Source]) -> (Source, CheckResult) {
    let source = Source::new(name, text);
    let loader = |m: &str, from: &Source| carto::variant::load_map_given(m, from, None, maps);
    let mut result = check_source(&source, &BundledRules, &loader);
    if result.errors() == 0 && !result.declares_variant {
        result
            .diagnostics
            .push((source.clone(), carto::variant::not_a_variant(name)));
    }
    (source, result)
}

/// Every diagnostic with `carto check --format json`'s fields, plus the editor's offsets (UTF-16
/// units, as the editor counts) when it is in the user's file; the text `carto check` prints.
fn check(name: &str, text: &str, maps: &[Source]) -> Value {
    let (source, result) = check_result(name, text, maps);
    let errors = result.errors();
    let warnings = result.diagnostics.len() - errors;
    let diagnostics: Vec<Value> = result
        .diagnostics
        .iter()
        .map(|(src, d)| {
            let mut j = carto::output::diagnostic_json(src, d);
            if src.name == source.name && src.text == source.text {
                j["from"] = json!(utf16(text, d.span.start));
                j["to"] = json!(utf16(text, d.span.end.max(d.span.start)));
            }
            j["text"] = json!(src.render(std::slice::from_ref(d)));
            j
        })
        .collect();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    json!({
        "diagnostics": diagnostics,
        "text": render(&result),
        "summary": format!("{name}: {errors} error{}, {warnings} warning{}", plural(errors), plural(warnings)),
        "errors": errors,
        "warnings": warnings,
    })
}

/// A map file as `carto render --map NAME` reads it (its parts: bundled maps only): every problem
/// with its position and the editor's offsets, the text `carto render` prints, and the map drawn
/// when it loads.
fn check_map(name: &str, text: &str) -> Value {
    let source = Source::new(name, text);
    let (diags, svg) = match carto::map::parse_map(&source, &carto::variant::BundledOnly) {
        Ok(board) => (Vec::new(), Some(carto::render::svg::map_svg(&board, &[]))),
        Err(d) => (d, None),
    };
    let diagnostics: Vec<Value> = diags
        .iter()
        .map(|d| {
            let mut j = carto::output::diagnostic_json(&source, d);
            j["from"] = json!(utf16(text, d.span.start));
            j["to"] = json!(utf16(text, d.span.end.max(d.span.start)));
            j["text"] = json!(source.render(std::slice::from_ref(d)));
            j
        })
        .collect();
    let n = diags.len();
    json!({
        "diagnostics": diagnostics,
        "text": if n == 0 { String::new() } else { source.render(&diags) },
        "summary": format!("{name}: {n} error{}", if n == 1 { "" } else { "s" }),
        "errors": n,
        "map_svg": svg,
    })
}

/// A byte offset of `text` in UTF-16 units.
fn utf16(text: &str, byte: usize) -> usize {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    text[..b].encode_utf16().count()
}

/// Loads the user's text as a variant with parameters set (`name=value`), as `carto play NAME
/// --set …` would.
pub fn load(
    name: &str,
    text: &str,
    sets: &[String],
    maps: &[Source],
) -> Result<Variant, InputError> {
    // A bundled variant's own text is named as `carto` names it (what a log records and replay
    // compares); any other text is the user's file.
    let bundled = carto::bundled::RULES
        .iter()
        .any(|(n, t)| *n == name && *t == text);
    let source = if bundled {
        Source::new(format!("rules/{name}.rules"), text)
    } else if carto::bundled::RULES.iter().any(|(n, _)| *n == name) {
        // Edited: no longer the bundled file, whatever it is called.
        return load("my.rules", text, sets, maps);
    } else {
        Source::new(name, text)
    };
    variant_from_texts(
        &source,
        name,
        sets,
        &|i, e| InputError::new(Code::BadSet, format!("error: `{}`: {e}", sets[i])),
        maps,
    )
}

/// The page as `carto doc NAME` writes it (Markdown), the map as `carto render --map NAME` draws
/// it, and the parameters with their values in force.
fn doc(name: &str, text: &str, sets: &[String], maps: &[Source]) -> Value {
    let v = match load(name, text, sets, maps) {
        Ok(v) => v,
        Err(e) => return Failed::from(e).json(),
    };
    let page = carto::doc::page(&v);
    let markdown = carto::doc::markdown(&page, v.map.as_deref(), &carto::doc::Links::None);
    let map = v
        .map
        .as_deref()
        .map(|m| carto::render::svg::map_svg(m, &carto::doc::holding_titles(&v)));
    json!({
        "name": v.name,
        "title": page.title,
        "markdown": markdown,
        "map_svg": map,
        "params": page.params,
        "players": page.players,
        "warnings": v.warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_finds_an_error_at_its_line() {
        let text = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "base")
            .unwrap()
            .1;
        let clean = check("my.rules", text, &[]);
        assert_eq!(clean["errors"], 0, "{clean}");
        let broken = text.replacen("variant \"base\"", "variantx \"base\"", 1);
        let r = check("my.rules", &broken, &[]);
        assert!(r["errors"].as_u64().unwrap() >= 1, "{r}");
        assert!(r["diagnostics"][0]["from"].is_u64(), "{r}");
    }

    #[test]
    fn doc_has_the_page_and_the_map() {
        let text = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "france")
            .unwrap()
            .1;
        let d = doc("france", text, &[], &[]);
        assert!(d["markdown"].as_str().unwrap().starts_with("# "), "{d}");
        assert!(d["map_svg"].as_str().unwrap().contains("<svg"), "{d}");
    }

    /// A house rule given as text: its page is `carto doc`'s, with the rules it adds and the
    /// changes it makes read from the text itself (there is no file to read them from).
    #[test]
    fn a_house_rules_page_reads_its_own_text() {
        let text = "import \"france\"\nvariant \"mine\" {\n  title = \"Mine\"\n}\n\
            change action sell_abroad limit group sale 2\n\
            rule bonus on placed { score(player, 0) }\n";
        let d = doc("my.rules", text, &[], &[]);
        let md = d["markdown"].as_str().unwrap();
        assert!(md.contains("| **Bonus**: When you place a tile"), "{md}");
        assert!(md.contains("`my.rules:6`<br><code>rule bonus"), "{md}");
        assert!(md.contains("up to 2 times per turn"), "{md}");
        assert!(
            md.contains("Changed by the house rule at my.rules:5."),
            "{md}"
        );
    }

    /// A map in the editor: its error at its line, and once fixed, the rules that name it load
    /// it (the page and the map drawn are the given map's).
    #[test]
    fn a_map_given_as_text_is_checked_and_used() {
        let germany = carto::map::bundled_map("germany").unwrap();
        let broken = germany.replacen("grid =", "grd =", 1);
        let m = check_map("my.toml", &broken);
        assert_eq!(m["errors"], 1, "{m}");
        assert_eq!(m["diagnostics"][0]["line"], 12, "{m}");
        assert!(m["text"].as_str().unwrap().contains("my.toml:12:1"), "{m}");
        let ok = check_map("my.toml", germany);
        assert_eq!(ok["errors"], 0, "{ok}");
        let rules = "import \"base\"\nvariant \"mine\" {\n  map = \"my.toml\"\n}\n";
        let maps = [Source::new("my.toml", germany)];
        let c = check("my.rules", rules, &maps);
        assert_eq!(c["errors"], 0, "{c}");
        let d = doc("my.rules", rules, &[], &maps);
        assert_eq!(d["map_svg"], ok["map_svg"], "{}", d["error"]);
        let none = check("my.rules", rules, &[]);
        assert_eq!(none["errors"], 1, "{none}");
    }
}
