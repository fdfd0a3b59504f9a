//! `carto doc A --against B`: what a variant (usually a house rule importing B) changes from B:
//! parameters changed, added or removed; rules and actions added, replaced, changed or removed.

use super::page::{value_text, Item, Page};

pub fn against(a: &Page, b: &Page) -> String {
    let mut out = format!("# `{}` against `{}`\n\n", a.name, b.name);
    let mut any = false;
    let mut params = String::new();
    for pa in &a.params {
        match b.params.iter().find(|pb| pb.name == pa.name) {
            Some(pb) if pb.value != pa.value => params.push_str(&format!(
                "- `{}` changed: {} (was {})\n",
                pa.name,
                value_text(&pa.value),
                value_text(&pb.value)
            )),
            Some(_) => {}
            None => params.push_str(&format!(
                "- `{}` added: {} = {} — {}\n",
                pa.name,
                pa.ty,
                value_text(&pa.value),
                pa.doc
            )),
        }
    }
    for pb in &b.params {
        if !a.params.iter().any(|pa| pa.name == pb.name) {
            params.push_str(&format!("- `{}` removed\n", pb.name));
        }
    }
    if !params.is_empty() {
        any = true;
        out.push_str(&format!("## Parameters\n\n{params}\n"));
    }
    for (title, ia, ib) in [
        ("Rules", &a.rules, &b.rules),
        ("Player actions", &a.actions, &b.actions),
        ("Setup", &a.setup, &b.setup),
    ] {
        let text = items(ia, ib);
        if !text.is_empty() {
            any = true;
            out.push_str(&format!("## {title}\n\n{text}\n"));
        }
    }
    if !any {
        out.push_str("No differences: the same parameters, rules and actions.\n");
    }
    out
}

/// The item's name in bold, with its phase and limits for an action ("**Sell abroad** (phase 3, once
/// per turn)"), as on the page.
fn headed(it: &Item) -> String {
    if it.when.is_empty() {
        format!("**{}**", it.heading)
    } else {
        format!("**{}** ({})", it.heading, it.when)
    }
}

fn items(a: &[Item], b: &[Item]) -> String {
    let mut out = String::new();
    // The same text from the same file (a sentence may differ only by a parameter's value).
    let same = |x: &Item, y: &Item| x.source == y.source && x.file == y.file;
    let named = |list: &[Item], it: &Item| {
        list.iter()
            .find(|o| o.name == it.name && (it.kind != "setup" || same(o, it)))
            .cloned()
    };
    for ia in a {
        let head = headed(ia);
        match named(b, ia) {
            Some(ib) if same(&ib, ia) => {}
            // The same definition with house rules' changes (the sentence says where); a changed
            // phase or limit shows in the heading, with what it was.
            Some(ib) if ib.file == ia.file && ib.line == ia.line => {
                let was = if ib.when != ia.when && !ib.when.is_empty() {
                    format!(" (was {})", ib.when)
                } else {
                    String::new()
                };
                out.push_str(&format!("- {head} changed{was}: {}\n", ia.markdown));
                if core(&ib.markdown) != core(&ia.markdown) {
                    out.push_str(&format!("  - before: {}\n", ib.markdown));
                }
            }
            Some(ib) => {
                out.push_str(&format!(
                    "- {head} replaced (`{}:{}`, was `{}:{}`): {}\n",
                    ia.file, ia.line, ib.file, ib.line, ia.markdown
                ));
                out.push_str(&format!("  - before: {}\n", ib.markdown));
            }
            None => out.push_str(&format!(
                "- {head} added (`{}:{}`): {}\n",
                ia.file, ia.line, ia.markdown
            )),
        }
    }
    for ib in b {
        if named(a, ib).is_none() {
            out.push_str(&format!(
                "- {} removed (`{}:{}`): {}\n",
                headed(ib),
                ib.file,
                ib.line,
                ib.markdown
            ));
        }
    }
    out
}

/// A sentence without the notes on where house rules changed it.
fn core(s: &str) -> &str {
    let s = s
        .split(" Changed by the house rule at ")
        .next()
        .unwrap_or(s);
    s.split(" Replaced by the house rule at ")
        .next()
        .unwrap_or(s)
}
