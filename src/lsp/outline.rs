//! The shape of a document: its outline (document symbols), the colour of each token (semantic
//! tokens) and what folds (blocks, long strings, runs of comments).

use super::analysis::FileInfo;
use super::text::{position, range};
use crate::lang::ast::{Item, ItemKind};
use crate::lang::lex::{self, Tok};
use crate::lang::symbols::SymKind;
use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SemanticTokenType, SymbolKind};

/// The outline: every item, a chip set with its colours.
pub fn symbols(file: &FileInfo) -> Vec<DocumentSymbol> {
    file.ast
        .items
        .iter()
        .filter_map(|i| item_symbol(file, i))
        .collect()
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be given, though the protocol deprecates it.
fn symbol(
    file: &FileInfo,
    name: String,
    detail: &str,
    kind: SymbolKind,
    item: &std::ops::Range<usize>,
    sel: &std::ops::Range<usize>,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail: Some(detail.to_string()),
        kind,
        tags: None,
        deprecated: None,
        range: range(&file.text, item),
        selection_range: range(&file.text, sel),
        children: None,
    }
}

fn item_symbol(file: &FileInfo, i: &Item) -> Option<DocumentSymbol> {
    let f = |name: &str, detail: &str, kind, sel: &std::ops::Range<usize>| {
        symbol(file, name.to_string(), detail, kind, &i.span, sel)
    };
    let head = i.span.start..i.span.start;
    Some(match &i.kind {
        ItemKind::Import(s) => f(&s.value, "import", SymbolKind::MODULE, &head),
        ItemKind::Variant { name, .. } => f(&name.value, "variant", SymbolKind::NAMESPACE, &head),
        ItemKind::Param(p) => f(&p.name.name, "param", SymbolKind::VARIABLE, &p.name.span),
        ItemKind::Override { name, .. } => {
            f(&name.name, "override", SymbolKind::VARIABLE, &name.span)
        }
        ItemKind::Chips(entries) => {
            let mut s = f("chips", "chips", SymbolKind::ENUM, &head);
            s.children = Some(
                entries
                    .iter()
                    .map(|e| {
                        symbol(
                            file,
                            e.colour.name.clone(),
                            &format!("{} x {}", e.value, e.count),
                            SymbolKind::ENUM_MEMBER,
                            &e.colour.span,
                            &e.colour.span,
                        )
                    })
                    .collect(),
            );
            s
        }
        ItemKind::Holding { name, .. } => f(&name.name, "holding", SymbolKind::STRUCT, &name.span),
        ItemKind::State(st) => f(&st.name.name, "state", SymbolKind::VARIABLE, &st.name.span),
        ItemKind::Setup(_) => f("setup", "setup", SymbolKind::CONSTRUCTOR, &head),
        ItemKind::Rule { name, trigger, .. } => f(
            &name.name,
            &format!("rule on {}", trigger.name),
            SymbolKind::FUNCTION,
            &name.span,
        ),
        ItemKind::Action(a) => f(
            &a.name.name,
            if a.forced { "forced" } else { "action" },
            SymbolKind::METHOD,
            &a.name.span,
        ),
        ItemKind::Remove { what, name } => f(
            &name.name,
            &format!("remove {}", what_word(*what)),
            SymbolKind::EVENT,
            &name.span,
        ),
        ItemKind::Replace(_) => {
            let d =
                file.symbols.defs.iter().find(|d| {
                    d.item == i.span && matches!(d.kind, SymKind::Rule | SymKind::Action)
                })?;
            let w = if d.kind == SymKind::Rule {
                "rule"
            } else {
                "action"
            };
            f(
                &d.name,
                &format!("replace {w}"),
                SymbolKind::FUNCTION,
                &d.span.clone(),
            )
        }
        ItemKind::Change(_) => {
            let name = file.symbols.uses.iter().find(|u| {
                u.span.start >= i.span.start
                    && u.span.end <= i.span.end
                    && matches!(u.kind, SymKind::Rule | SymKind::Action)
            })?;
            let w = if name.kind == SymKind::Rule {
                "rule"
            } else {
                "action"
            };
            f(
                &name.name,
                &format!("change {w}"),
                SymbolKind::FUNCTION,
                &name.span.clone(),
            )
        }
    })
}

fn what_word(k: crate::lang::ast::DefKind) -> &'static str {
    match k {
        crate::lang::ast::DefKind::Rule => "rule",
        crate::lang::ast::DefKind::Action => "action",
    }
}

/// The token types of [`tokens`], in the order of the legend the server announces.
pub const TOKEN_TYPES: [SemanticTokenType; 12] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::EVENT,
    SemanticTokenType::METHOD,
    SemanticTokenType::ENUM_MEMBER,
];

/// The semantic tokens of a file, encoded as the protocol wants them (five numbers a token:
/// line and start relative to the token before, length, type, no modifiers).
pub fn tokens(file: &FileInfo) -> Vec<u32> {
    let text = &file.text;
    let toks = lex::tokens(text);
    let kind_at = |at: usize| file.symbols.at(at).map(|(k, ..)| k);
    let mut out = Vec::new();
    let (mut line, mut col) = (0u32, 0u32);
    for (i, t) in toks.iter().enumerate() {
        let s = &text[t.span.clone()];
        let prev = i.checked_sub(1).map(|j| &text[toks[j].span.clone()]);
        let next = toks.get(i + 1).map(|n| &text[n.span.clone()]);
        let ty = match t.tok {
            Tok::Comment => 7,
            Tok::Str | Tok::LongStr => 5,
            Tok::Int => 6,
            Tok::Punct => 8,
            Tok::Other => continue,
            Tok::Word if prev == Some("on") => 9,
            Tok::Word if prev == Some(".") => 2,
            Tok::Word => match kind_at(t.span.start) {
                Some(SymKind::Rule | SymKind::Action) => 10,
                Some(SymKind::Colour | SymKind::Holding) => 11,
                Some(SymKind::Local) => 3,
                Some(SymKind::Param) if !lex::is_keyword(s) => 4,
                _ if lex::is_keyword(s)
                    || s == "x" && prev.is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit())) =>
                {
                    0
                }
                _ if next == Some("(") => 1,
                _ => continue,
            },
        };
        // A token over several lines (a long string) is one token per line.
        let mut start = t.span.start;
        for piece in s.split_inclusive('\n') {
            let body = piece.trim_end_matches('\n');
            let p = position(text, start);
            let len: usize = body.chars().map(char::len_utf16).sum();
            if len > 0 {
                let dl = p.line - line;
                let dc = if dl == 0 {
                    p.character - col
                } else {
                    p.character
                };
                out.extend([dl, dc, len as u32, ty, 0]);
                (line, col) = (p.line, p.character);
            }
            start += piece.len();
        }
    }
    out
}

/// What folds: each `{ … }` over several lines, each long string over several lines, each run of
/// two or more comment lines.
pub fn folding(file: &FileInfo) -> Vec<FoldingRange> {
    let text = &file.text;
    let line = |at: usize| position(text, at).line;
    let mut out = Vec::new();
    let mut open = Vec::new();
    let mut comments: Option<(u32, u32)> = None;
    let fold = |a: u32, b: u32, kind: Option<FoldingRangeKind>| FoldingRange {
        start_line: a,
        start_character: None,
        end_line: b,
        end_character: None,
        kind,
        collapsed_text: None,
    };
    for t in lex::tokens(text) {
        let s = &text[t.span.clone()];
        if t.tok == Tok::Comment {
            let l = line(t.span.start);
            comments = match comments {
                Some((a, b)) if b + 1 == l => Some((a, l)),
                Some((a, b)) => {
                    if b > a {
                        out.push(fold(a, b, Some(FoldingRangeKind::Comment)));
                    }
                    Some((l, l))
                }
                None => Some((l, l)),
            };
            continue;
        }
        match (t.tok, s) {
            (Tok::Punct, "{") => open.push(line(t.span.start)),
            (Tok::Punct, "}") => {
                if let Some(a) = open.pop() {
                    let b = line(t.span.start);
                    if b > a {
                        out.push(fold(a, b, Some(FoldingRangeKind::Region)));
                    }
                }
            }
            (Tok::LongStr, _) => {
                let (a, b) = (line(t.span.start), line(t.span.end));
                if b > a {
                    out.push(fold(a, b, None));
                }
            }
            _ => {}
        }
    }
    if let Some((a, b)) = comments.filter(|(a, b)| b > a) {
        out.push(fold(a, b, Some(FoldingRangeKind::Comment)));
    }
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out
}
