//! Parses a rules file (grammar/carto.pest) into the syntax tree of `ast.rs`.
//!
//! Items are parsed one at a time: after a syntax error the parser skips to the next line that starts
//! with an item keyword and goes on, so independent mistakes in different items are all reported.
//! Syntax errors name what was expected in words, never in grammar-rule names.

use super::ast::*;
use crate::diag::{Code, Diagnostic, Source};
use pest::iterators::Pair;
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "../../../grammar/carto.pest"]
pub(crate) struct CartoParser;

/// The deepest nesting of brackets, blocks and expressions accepted.
pub(crate) const MAX_DEPTH: usize = 64;

/// The deepest syntax tree built: grammar levels per bracket times MAX_DEPTH, so that only the bracket
/// pre-scan or long operator chains (`a + a + …`, `not not …`) hit it.
const BUILD_LIMIT: usize = 12 * MAX_DEPTH;

/// Keywords that start an item, for error recovery and messages.
pub(crate) const ITEM_KEYWORDS: [&str; 14] = [
    "import", "variant", "param", "override", "chips", "holding", "state", "setup", "rule",
    "action", "forced", "remove", "replace", "change",
];

/// Parses `text` as `start`. pest's record of what it tried at each position (its "error detail",
/// which `expected_words` reads) costs about a third of a parse, and only a syntax error needs it: the
/// text is parsed without it, and again with it only when that fails. The record is a process-wide
/// switch read when a parse starts, so a parse with it holds a lock, turns it on, and turns it off
/// again; a parse without it never touches the switch (at worst it starts while another thread has
/// the record on, and is slower). The outcome is the same either way.
fn parse_rule(
    start: Rule,
    text: &str,
) -> Result<pest::iterators::Pairs<'_, Rule>, pest::error::Error<Rule>> {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    CartoParser::parse(start, text).or_else(|_| {
        let _held = DETAIL.lock().unwrap_or_else(|e| e.into_inner());
        pest::set_error_detail(true);
        let again = CartoParser::parse(start, text);
        pest::set_error_detail(false);
        again
    })
}

/// Parses a whole file. Returns the items that parsed, and every syntax error.
pub fn parse_file(source: &Source) -> (File, Vec<Diagnostic>) {
    parse_items(source, item_reach)
}

/// Item keywords that no rule reads but at the start of an item: `ident` refuses them, and only
/// `remove`, `replace` and `change` take a `rule` or an `action` (as their next word).
const ITEM_ONLY_KEYWORDS: [&str; 7] = [
    "import", "variant", "param", "override", "setup", "rule", "action",
];

/// How much of `text` the parse of the item at `pos` can read: up to a line after the item's
/// second word that starts with a word of [`ITEM_ONLY_KEYWORDS`], which no rule of the item can
/// take, plus the few bytes that the tokens tried there look at (`override` and the letter after it
/// are nine); or else the whole text.
///
/// The text is read as the grammar reads it from `pos`: comments, long strings and short strings
/// (a `\` takes the next character, a newline ends it unclosed) are skipped, so the word found
/// starts a token. An unclosed short string is as far as any parse gets (nothing else takes a
/// `"`); an unclosed long string gives no bound. So the parse of `&text[pos..reach]` reads exactly
/// the bytes that the parse of `&text[pos..]` reads, and its outcome is the same. What it saves is
/// pest's making of a syntax error, which walks the whole input it was given twice (for the line
/// and the column): with the rest of the file as the input, that was a tenth of checking a file
/// with mistakes.
fn item_reach(text: &str, pos: usize) -> usize {
    let bytes = text.as_bytes();
    let word = bytes[pos..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let next = skip_trivia(text, pos + word);
    let Some(from) = text[next..].find('\n').map(|i| next + i + 1) else {
        return text.len();
    };
    let mut i = pos;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                i += 1;
                let start = i + bytes[i..]
                    .iter()
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .count();
                let line = &bytes[start..];
                let item_only = |k: &&str| {
                    line.starts_with(k.as_bytes())
                        && !line
                            .get(k.len())
                            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                };
                if i >= from && ITEM_ONLY_KEYWORDS.iter().any(item_only) {
                    let mut reach = (start + 16).min(text.len());
                    while !text.is_char_boundary(reach) {
                        reach += 1;
                    }
                    return reach;
                }
            }
            b'#' => i = text[i..].find('\n').map_or(text.len(), |j| i + j),
            b'"' if bytes[i..].starts_with(b"\"\"\"") => match text[i + 3..].find("\"\"\"") {
                Some(j) => i += 3 + j + 3,
                None => return text.len(),
            },
            b'"' => {
                i += 1;
                while let Some(&b) = bytes.get(i) {
                    match b {
                        b'\\' => i += 2,
                        b'"' => {
                            i += 1;
                            break;
                        }
                        b'\n' => break,
                        _ => i += 1,
                    }
                }
            }
            _ => i += 1,
        }
    }
    text.len()
}

/// [`parse_file`], each item parsed from `pos` to `reach(text, pos)`.
fn parse_items(source: &Source, reach: fn(&str, usize) -> usize) -> (File, Vec<Diagnostic>) {
    let text = source.text.as_str();
    let mut file = File::default();
    let mut diags = Vec::new();
    if let Some(at) = too_deep(text) {
        diags.push(
            Diagnostic::error(
                Code::TooDeep,
                at..at + 1,
                format!("nesting is too deep (more than {MAX_DEPTH} levels)"),
            )
            .with_label("too deeply nested")
            .with_note("split the expression with `let`, or flatten the blocks"),
        );
        return (file, diags);
    }
    let mut pos = skip_trivia(text, 0);
    while pos < text.len() {
        match parse_rule(Rule::item, &text[pos..reach(text, pos)]) {
            Ok(mut pairs) => {
                let Some(pair) = pairs.next() else { break };
                let end = pos + pair.as_span().end();
                let b = Builder { base: pos };
                match b.item(pair) {
                    Ok(item) => file.items.push(item),
                    Err(d) => diags.push(d),
                }
                if end <= pos {
                    break;
                }
                pos = skip_trivia(text, end);
            }
            Err(e) => {
                diags.push(syntax_error(&e, pos, text));
                pos = next_item_line(text, pos);
            }
        }
    }
    (file, diags)
}

/// Parses one expression (a parameter value given on the command line, for instance).
pub fn parse_expr_text(text: &str) -> Result<Expr, Diagnostic> {
    if let Some(at) = too_deep(text) {
        return Err(Diagnostic::error(
            Code::TooDeep,
            at..at + 1,
            "nesting is too deep",
        ));
    }
    let start = skip_trivia(text, 0);
    let mut pairs =
        parse_rule(Rule::expr, &text[start..]).map_err(|e| syntax_error(&e, start, text))?;
    let pair = pairs
        .next()
        .ok_or_else(|| Diagnostic::error(Code::Syntax, 0..text.len(), "expected a value"))?;
    let end = skip_trivia(text, start + pair.as_span().end());
    if end < text.len() {
        return Err(Diagnostic::error(
            Code::Syntax,
            end..text.len(),
            "unexpected text after the value",
        ));
    }
    Builder { base: start }.expr(pair, 0)
}

fn skip_trivia(text: &str, mut pos: usize) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
            b'#' => {
                while pos < bytes.len() && bytes[pos] != b'\n' {
                    pos += 1;
                }
            }
            _ => break,
        }
    }
    pos
}

fn starts_item(line: &str) -> bool {
    let t = line.trim_start();
    ITEM_KEYWORDS.iter().any(|k| {
        t.strip_prefix(k)
            .is_some_and(|rest| rest.starts_with([' ', '\t', '"', '{']) || rest.is_empty())
    })
}

/// The start of the next line after `pos`'s line that begins with an item keyword (or the end).
fn next_item_line(text: &str, pos: usize) -> usize {
    let mut at = match text[pos..].find('\n') {
        Some(i) => pos + i + 1,
        None => return text.len(),
    };
    while at < text.len() {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        if starts_item(&text[at..end]) {
            return skip_trivia(text, at);
        }
        at = end + 1;
    }
    text.len()
}

/// Position of the first bracket nested deeper than MAX_DEPTH, skipping strings and comments.
fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// What a grammar rule means to a reader, for "expected …" messages.
fn rule_words(rk: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rk {
        item | file => "an item (`rule`, `action`, `param`, …)",
        ident => "a name",
        int => "a number",
        string | short_string | long_string => "a string",
        expr | disj | conj | negation | comparison | sum | product | unary | postfix | primary
        | paren | call | list | table | aggregate | comprehension | if_value => "an expression",
        agg_op => "an aggregate",
        range_op | cmp_op | add_op | mul_op | kw_and | kw_or | neg_op => "an operator",
        field => "`.`",
        index => "`[`",
        args => "`(`",
        block => "`{`",
        stmt | let_stmt | if_stmt | for_stmt | call_stmt | ask_stmt => "a statement",
        action_params => "`(`",
        action_param => "a parameter (`name: type`)",
        header_entry => "a header entry (`key = value`)",
        type_expr | list_type => "a type",
        chip_entry => "a chip entry (`colour value x count`)",
        table_entry => "a table entry (`key: value`)",
        when => "`when`",
        phase => "`phase`",
        limit => "`limit`",
        limit_per => "`per`",
        limit_group => "`group`",
        limit_count => "a count (a number, a parameter or `(expression)`)",
        choose => "`choose`",
        choose_chips => "`chips from`",
        choose_one => "an expression",
        size => "`size`",
        filter => "`where`",
        agg_map => "`:`",
        one_of => "`one of`",
        param_range => "`in` and the allowed values",
        else_if | else_block => "`else`",
        EOI => "the end of the file",
        kw_import => "`import`",
        kw_variant => "`variant`",
        kw_param => "`param`",
        kw_override => "`override`",
        kw_chips => "`chips`",
        kw_holding => "`holding`",
        kw_state => "`state`",
        kw_reset => "`reset`",
        state_reset => "`reset`",
        kw_setup => "`setup`",
        kw_rule => "`rule`",
        kw_on => "`on`",
        kw_when => "`when`",
        kw_action => "`action`",
        kw_forced => "`forced`",
        kw_phase => "`phase`",
        kw_limit => "`limit`",
        kw_per => "`per`",
        kw_group => "`group`",
        kw_choose => "`choose`",
        kw_from => "`from`",
        kw_size => "`size`",
        kw_where => "`where`",
        kw_let => "`let`",
        kw_if => "`if`",
        kw_then => "`then`",
        kw_else => "`else`",
        kw_for => "`for`",
        kw_in => "`in`",
        kw_not => "`not`",
        kw_true | kw_false => "an expression",
        kw_one => "`one`",
        kw_of => "`of`",
        kw_list => "`list`",
        kw_ask => "`ask`",
        kw_remove => "`remove`",
        kw_replace => "`replace`",
        kw_change => "`change`",
        remove | replace | change => "an item (`rule`, `action`, `param`, …)",
        def_kind => "`rule` or `action`",
        change_rule => "`rule`",
        change_action => "`action`",
        _ => return None,
    })
}

fn found_text(text: &str, pos: usize) -> (String, usize) {
    let rest = &text[pos..];
    let Some(c) = rest.chars().next() else {
        return ("the end of the file".into(), 0);
    };
    if c.is_ascii_alphanumeric() || c == '_' {
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        return (format!("`{}`", &rest[..len]), len);
    }
    if c == '\n' || c == '\r' {
        return ("the end of the line".into(), 0);
    }
    (format!("`{c}`"), c.len_utf8())
}

fn join_words(words: &[String]) -> String {
    match words.len() {
        0 => "something else".into(),
        1 => words[0].clone(),
        n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

/// A word with a non-ASCII letter (`café`) on the failing line, outside strings and comments: names
/// are ASCII, which the generic "expected …" message would not say.
fn non_ascii_name(text: &str, pos: usize) -> Option<Diagnostic> {
    let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    let line = &text[pos..line_end];
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if in_string {
            (escaped, in_string) = (!escaped && c == '\\', escaped || c != '"');
            continue;
        }
        match c {
            '"' => in_string = true,
            '#' => return None,
            c if !c.is_ascii() && c.is_alphanumeric() => {
                return Some(word_diagnostic(line, pos, i, c))
            }
            _ => {}
        }
    }
    None
}

fn word_diagnostic(line: &str, pos: usize, at: usize, c: char) -> Diagnostic {
    let in_word = |ch: char| ch.is_alphanumeric() || ch == '_';
    let start = line[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, ch)| in_word(ch))
        .last()
        .map_or(at, |(j, _)| j);
    let end = line[at..]
        .find(|ch: char| !in_word(ch))
        .map_or(line.len(), |j| at + j);
    Diagnostic::error(
        Code::InvalidName,
        pos + start..pos + end,
        format!(
            "`{}` is not a name: `{c}` is not an ASCII letter",
            &line[start..end]
        ),
    )
    .with_label("not a name")
    .with_note("names are made of ASCII letters, digits and `_`, and do not start with a digit")
}

/// Turns a pest error into a diagnostic at the right place, in human words.
fn syntax_error(e: &pest::error::Error<Rule>, base: usize, text: &str) -> Diagnostic {
    let rel = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    // pest puts the error where it last tried a grammar rule; when it got further with a bracket or
    // a separator (the `{` after `variant "x"`), the text is good up to there, and the error is there.
    // pest's record of what it tried, read once (`parse_attempts` copies it, `expected_tokens`
    // sorts it): where it got furthest, and the tokens it expected there.
    let attempts = e.parse_attempts().map(|att| {
        let tokens: Vec<String> = att
            .expected_tokens()
            .iter()
            .map(|t| t.to_string())
            .collect();
        (att.max_position, tokens)
    });
    let further = attempts
        .as_ref()
        .filter(|(max, _)| *max > rel)
        .filter(|(_, tokens)| tokens.iter().any(|t| kept_token(t)))
        .map(|(max, _)| *max);
    if let Some(d) = non_ascii_name(text, (base + rel).min(text.len())) {
        return d;
    }
    let pos = (base + further.unwrap_or(rel)).min(text.len());
    let positives = match (&e.variant, further) {
        (pest::error::ErrorVariant::ParsingError { .. }, Some(_)) => &[][..],
        (pest::error::ErrorVariant::ParsingError { positives, .. }, None) => &positives[..],
        (pest::error::ErrorVariant::CustomError { message }, _) => {
            return Diagnostic::error(
                Code::Syntax,
                pos..pos,
                format!("the parser gave up: {message}"),
            );
        }
    };
    let words = expected_words(attempts.as_ref(), positives, base, pos);
    if let Some(d) = unfinished_item(text, base, pos, &words) {
        return d;
    }
    if let Some(d) = unterminated_string(text, pos) {
        return d;
    }
    if let Some(d) = limit_mistake(text, pos) {
        return d;
    }
    let (found, len) = found_text(text, pos);
    let d = Diagnostic::error(
        Code::Syntax,
        pos..pos + len,
        format!("expected {}, found {found}", join_words(&words)),
    )
    .with_label(format!("expected {}", join_words(&words)));
    with_likely_mistake(d, text, pos, &words)
}

/// The brackets and separators a syntax error names when the parser tried them.
fn kept_token(token: &str) -> bool {
    matches!(
        token,
        "{" | "}" | "(" | ")" | "[" | "]" | "," | ":" | "=" | "<" | ">" | "x"
    )
}

/// What the parser expected at `pos`, in words: the brackets and separators it tried there (an
/// opener left out when a closer is also possible), then the grammar rules it tried, named.
fn expected_words(
    attempts: Option<&(usize, Vec<String>)>,
    positives: &[Rule],
    base: usize,
    pos: usize,
) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    if let Some((max_position, expected)) = attempts {
        for token in expected {
            let keep = kept_token(token);
            if keep && max_position + base == pos && !tokens.contains(token) {
                tokens.push(token.clone());
            }
        }
    }
    let closers = tokens
        .iter()
        .any(|t| matches!(t.as_str(), ")" | "]" | "}" | ","));
    let mut words: Vec<String> = Vec::new();
    for t in &tokens {
        let opener = matches!(t.as_str(), "(" | "[" | "{");
        let angle = matches!(t.as_str(), "<" | ">");
        if (opener && closers) || angle {
            continue;
        }
        words.push(format!("`{t}`"));
    }
    for r in positives {
        if let Some(w) = rule_words(*r) {
            if !words.iter().any(|x| x == w) {
                words.push(w.to_string());
            }
        }
    }
    if words.is_empty() {
        words.extend(tokens.iter().map(|t| format!("`{t}`")));
    }
    // "an operator" adds noise when a closing bracket or a separator is the likely fix.
    if words.len() > 2 {
        words.retain(|w| w != "an operator" && w != "`.`" && w != "`[`" && w != "`(`");
    }
    words
}

/// The start and end of the line holding `pos`.
fn line_around(text: &str, pos: usize) -> (usize, usize) {
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    (line_start, line_end)
}

/// An error on a later line that starts a new item: the item above (starting at `base`) is not
/// finished, and the new item's keyword is pointed at.
fn unfinished_item(text: &str, base: usize, pos: usize, words: &[String]) -> Option<Diagnostic> {
    let (line_start, line_end) = line_around(text, pos);
    let item_line = text[..base].matches('\n').count();
    let err_line = text[..pos].matches('\n').count();
    if err_line <= item_line || !starts_item(&text[line_start..line_end]) {
        return None;
    }
    let mut words = words.to_vec();
    if words.iter().any(|w| w == "a statement") && !words.iter().any(|w| w == "`}`") {
        words.insert(0, "`}`".to_string());
    }
    let kw = skip_trivia(text, line_start);
    let (_, kw_len) = found_text(text, kw);
    Some(
        Diagnostic::error(
            Code::Syntax,
            kw..kw + kw_len,
            format!("expected {}, found a new item", join_words(&words)),
        )
        .with_label("the item above ends before this")
        .with_note("the item above is not finished: is a `}`, a `)` or a value missing?"),
    )
}

/// A string is unterminated only when its line holds no closing quote; a whole string where
/// something else was expected gets the general message.
fn unterminated_string(text: &str, pos: usize) -> Option<Diagnostic> {
    let (_, line_end) = line_around(text, pos);
    let string_closes = text[pos..line_end]
        .get(1..)
        .is_some_and(|r| r.contains('"'));
    if !text[pos..].starts_with('"') || string_closes {
        return None;
    }
    Some(
        Diagnostic::error(
            Code::UnterminatedString,
            pos..pos + 1,
            "unterminated string",
        )
        .with_label("this string has no closing `\"` on its line")
        .with_note("use `\"\"\"…\"\"\"` for text over several lines"),
    )
}

/// A limit the parser stopped in: a negative count (`limit per turn -1`, `limit group g -2`), or a
/// count after a word that is no limit (`limit per_turn 1`: `per` and the unit are two words).
fn limit_mistake(text: &str, pos: usize) -> Option<Diagnostic> {
    let (line_start, _) = line_around(text, pos);
    let before: Vec<&str> = text[line_start..pos].split_whitespace().collect();
    let rest = &text[pos..];
    if let [.., "limit", "per" | "group", _] = before.as_slice() {
        // (`-` first: at the end of the file `rest` is empty, and `rest[1..]` would panic.)
        let after = rest.strip_prefix('-')?;
        let digits = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        if digits == 0 {
            return None;
        }
        let count = &rest[..1 + digits];
        return Some(
            Diagnostic::error(
                Code::NegativeLimit,
                pos..pos + count.len(),
                format!("a limit's count cannot be negative, found `{count}`"),
            )
            .with_label("a negative count")
            .with_note(
                "write a count of 1 or more (a number, a parameter or `(expression)`): an action \
                 allowed fewer times than once could never be taken",
            ),
        );
    }
    let [.., "limit", word] = before.as_slice() else {
        return None;
    };
    let counts = rest.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '(');
    if !counts || matches!(*word, "no_follower" | "not_extra") {
        return None;
    }
    let start = line_start + text[line_start..pos].rfind(word)?;
    let d = Diagnostic::error(
        Code::UnknownLimit,
        start..start + word.len(),
        format!("unknown limit `{word}`"),
    )
    .with_label("not a limit");
    Some(match word.strip_prefix("per_") {
        Some(unit) => d.with_note(format!(
            "did you mean `per {unit}`? `per` and the unit are two words: `limit per {unit} N`"
        )),
        None => d.with_note(
            "the limits are: `per turn N`, `per round N`, `group NAME [N]`, `no_follower`, `not_extra`",
        ),
    })
}

/// A note for a mistake the words alone do not explain: a rule without a name, an assignment.
fn with_likely_mistake(d: Diagnostic, text: &str, pos: usize, words: &[String]) -> Diagnostic {
    let (line_start, _) = line_around(text, pos);
    // `rule on placed`: the name is missing, and `on` was taken for it.
    if text[line_start..pos].split_whitespace().eq(["rule", "on"]) {
        return d.with_note("`on` was read as the rule's name: write `rule NAME on TRIGGER`");
    }
    // `name = value` as a statement: the language has no assignment.
    let assigns = text[pos..].starts_with('=') && !text[pos..].starts_with("==");
    if assigns && words.iter().any(|w| w == "`(`") {
        return d.with_note(
            "rules do not assign: `let NAME = …` names a value; a parameter's value comes from \
             its `param` default, `override NAME = …` or `--set NAME=…`",
        );
    }
    d
}

struct Builder {
    base: usize,
}

fn is_kw(rk: Rule) -> bool {
    use Rule::*;
    matches!(
        rk,
        kw_import
            | kw_variant
            | kw_param
            | kw_override
            | kw_chips
            | kw_holding
            | kw_state
            | kw_reset
            | kw_setup
            | kw_rule
            | kw_on
            | kw_when
            | kw_action
            | kw_forced
            | kw_phase
            | kw_limit
            | kw_per
            | kw_group
            | kw_choose
            | kw_from
            | kw_size
            | kw_where
            | kw_let
            | kw_if
            | kw_then
            | kw_else
            | kw_for
            | kw_in
            | kw_and
            | kw_or
            | kw_one
            | kw_of
            | kw_list
            | kw_ask
            | kw_remove
            | kw_replace
            | kw_change
            | range_op
    )
}

type Res<T> = Result<T, Diagnostic>;

/// The children of a pair, without keyword tokens.
fn kids(pair: Pair<'_, Rule>) -> std::iter::Peekable<impl Iterator<Item = Pair<'_, Rule>>> {
    pair.into_inner().filter(|p| !is_kw(p.as_rule())).peekable()
}

impl Builder {
    /// The pair's span, without the blanks pest lets an optional tail consume after it (`0..30 ` in
    /// `in 0..30 = 30`), so carets end at the last character written.
    fn span(&self, p: &Pair<'_, Rule>) -> Span {
        let s = p.as_span();
        let text = s.as_str();
        let end = s.start() + text.trim_end_matches([' ', '\t', '\r', '\n']).len();
        self.base + s.start()..self.base + end
    }

    fn internal(&self, span: Span) -> Diagnostic {
        Diagnostic::error(
            Code::Syntax,
            span,
            "internal parser error: unexpected syntax tree",
        )
    }

    fn next<'i>(
        &self,
        it: &mut impl Iterator<Item = Pair<'i, Rule>>,
        span: &Span,
    ) -> Res<Pair<'i, Rule>> {
        it.next().ok_or_else(|| self.internal(span.clone()))
    }

    fn ident(&self, p: Pair<'_, Rule>) -> Ident {
        Ident {
            span: self.span(&p),
            name: p.as_str().to_string(),
        }
    }

    fn int(&self, p: Pair<'_, Rule>) -> Res<i64> {
        p.as_str().parse::<i64>().map_err(|_| {
            Diagnostic::error(Code::NumberTooLarge, self.span(&p), "number too large")
                .with_label("does not fit in 64 bits")
        })
    }

    fn string(&self, p: Pair<'_, Rule>) -> Res<StrLit> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| self.internal(span.clone()))?;
        let raw = inner.as_str();
        let value = if inner.as_rule() == Rule::long_string {
            dedent(&raw[3..raw.len() - 3])
        } else {
            unescape(&raw[1..raw.len() - 1]).map_err(|(off, c)| {
                let at = span.start + 1 + off;
                Diagnostic::error(
                    Code::UnknownEscape,
                    at..at + 1 + c.len_utf8(),
                    format!("unknown escape `\\{c}`"),
                )
                .with_label("not an escape")
                .with_note("the escapes are `\\\"`, `\\\\`, `\\n` and `\\t`")
            })?
        };
        Ok(StrLit { value, span })
    }

    fn item(&self, pair: Pair<'_, Rule>) -> Res<Item> {
        let span = self.span(&pair);
        let inner = pair
            .into_inner()
            .next()
            .ok_or_else(|| self.internal(span.clone()))?;
        let rk = inner.as_rule();
        let mut it = kids(inner);
        let kind = match rk {
            Rule::import => ItemKind::Import(self.string(self.next(&mut it, &span)?)?),
            Rule::variant => self.variant_item(it, &span)?,
            Rule::param => ItemKind::Param(self.param_item(it, &span)?),
            Rule::override_item => {
                let name = self.ident(self.next(&mut it, &span)?);
                let value = self.expr(self.next(&mut it, &span)?, 0)?;
                ItemKind::Override { name, value }
            }
            Rule::chips => ItemKind::Chips(self.chip_entries(it)?),
            Rule::holding => {
                let name = self.ident(self.next(&mut it, &span)?);
                let title = match it.next_if(|p| p.as_rule() == Rule::string) {
                    Some(p) => Some(self.string(p)?),
                    None => None,
                };
                let per =
                    match it.next() {
                        None => false,
                        Some(p) => {
                            let word = p.into_inner().nth(1).map(|w| (self.span(&w), w.as_str()));
                            match word {
                                Some((_, "player")) => true,
                                Some((at, w)) => return Err(Diagnostic::error(
                                    Code::HoldingKind,
                                    at,
                                    format!(
                                        "a holding area is shared or `per player`, not per `{w}`"
                                    ),
                                )
                                .with_label("expected `player`")
                                .with_note(
                                    "write `holding NAME` (shared) or `holding NAME per player`",
                                )),
                                None => return Err(self.internal(span.clone())),
                            }
                        }
                    };
                ItemKind::Holding {
                    name,
                    title,
                    per_player: per,
                }
            }
            Rule::state_decl => ItemKind::State(self.state_item(it, &span)?),
            Rule::setup => ItemKind::Setup(self.block(self.next(&mut it, &span)?, 0)?),
            Rule::rule => self.rule_def(it, &span)?,
            Rule::action | Rule::forced => ItemKind::Action(self.action_def(rk, it, &span)?),
            Rule::remove => {
                let what = self.def_kind(self.next(&mut it, &span)?);
                let name = self.ident(self.next(&mut it, &span)?);
                ItemKind::Remove { what, name }
            }
            Rule::replace => self.replace_item(it, &span)?,
            Rule::change => ItemKind::Change(self.change(self.next(&mut it, &span)?)?),
            _ => return Err(self.internal(span)),
        };
        Ok(Item { kind, span })
    }

    /// `variant "NAME" { KEY = VALUE … }`, from the pairs after `variant`.
    fn variant_item<'i>(
        &self,
        mut it: impl Iterator<Item = Pair<'i, Rule>>,
        span: &Span,
    ) -> Res<ItemKind> {
        let name = self.string(self.next(&mut it, span)?)?;
        let mut entries = Vec::new();
        for e in it {
            let espan = self.span(&e);
            let mut k = kids(e);
            let key = self.ident(self.next(&mut k, &espan)?);
            let value = self.expr(self.next(&mut k, &espan)?, 0)?;
            entries.push(HeaderEntry {
                key,
                value,
                span: espan,
            });
        }
        Ok(ItemKind::Variant { name, entries })
    }

    /// `param NAME: TYPE [in RANGE] = DEFAULT ["doc"] [one of [ … ]]`, from the pairs after `param`.
    fn param_item<'i>(
        &self,
        mut it: impl Iterator<Item = Pair<'i, Rule>>,
        span: &Span,
    ) -> Res<ParamDecl> {
        let name = self.ident(self.next(&mut it, span)?);
        let ty = self.type_expr(self.next(&mut it, span)?, 0)?;
        let mut next = self.next(&mut it, span)?;
        let mut range = None;
        if next.as_rule() == Rule::param_range {
            let rspan = self.span(&next);
            let mut rk = kids(next);
            range = Some(self.expr(self.next(&mut rk, &rspan)?, 0)?);
            next = self.next(&mut it, span)?;
        }
        let default = self.expr(next, 0)?;
        let mut doc = None;
        let mut one_of = None;
        for p in it {
            match p.as_rule() {
                Rule::string => doc = Some(self.string(p)?),
                _ => {
                    let pspan = self.span(&p);
                    one_of = Some(self.expr_list_as_expr(self.next(&mut kids(p), &pspan)?)?);
                }
            }
        }
        Ok(ParamDecl {
            name,
            ty,
            default,
            doc,
            one_of,
            range,
        })
    }

    /// `state NAME: TYPE [in RANGE] [= START] [per player] [reset WHEN] ["doc"]`, from the pairs
    /// after `state` (`per player` and `reset` in either order, each at most once).
    fn state_item<'i>(
        &self,
        mut it: impl Iterator<Item = Pair<'i, Rule>>,
        span: &Span,
    ) -> Res<StateDecl> {
        let name = self.ident(self.next(&mut it, span)?);
        let ty = self.type_expr(self.next(&mut it, span)?, 0)?;
        let mut d = StateDecl {
            name,
            ty,
            range: None,
            start: None,
            per_player: None,
            reset: None,
            doc: None,
        };
        for p in it {
            let pspan = self.span(&p);
            match p.as_rule() {
                Rule::param_range => {
                    d.range = Some(self.expr(self.next(&mut kids(p), &pspan)?, 0)?);
                }
                Rule::expr => d.start = Some(self.expr(p, 0)?),
                Rule::string => d.doc = Some(self.string(p)?),
                Rule::per_player | Rule::state_reset => {
                    let per = p.as_rule() == Rule::per_player;
                    let word = self.ident(self.next(&mut kids(p), &pspan)?);
                    let twice = if per {
                        d.per_player.is_some()
                    } else {
                        d.reset.is_some()
                    };
                    if twice {
                        let what = if per { "`per`" } else { "`reset`" };
                        return Err(Diagnostic::error(
                            Code::GivenTwice,
                            pspan,
                            format!("{what} is given twice"),
                        )
                        .with_label("given again here"));
                    }
                    if per {
                        d.per_player = Some(word);
                    } else {
                        d.reset = Some(word);
                    }
                }
                _ => return Err(self.internal(pspan)),
            }
        }
        Ok(d)
    }

    /// `chips { COLOUR VALUE x COUNT, … }`, from the pairs after `chips`.
    fn chip_entries<'i>(&self, it: impl Iterator<Item = Pair<'i, Rule>>) -> Res<Vec<ChipEntry>> {
        let mut entries = Vec::new();
        for e in it {
            let espan = self.span(&e);
            let mut k = kids(e);
            let colour = self.ident(self.next(&mut k, &espan)?);
            let value = self.int(self.next(&mut k, &espan)?)?;
            let count = self.int(self.next(&mut k, &espan)?)?;
            entries.push(ChipEntry {
                colour,
                value,
                count,
                span: espan,
            });
        }
        Ok(entries)
    }

    /// `replace rule …` or `replace action|forced …`: the whole new definition.
    fn replace_item<'i>(
        &self,
        mut it: impl Iterator<Item = Pair<'i, Rule>>,
        span: &Span,
    ) -> Res<ItemKind> {
        let def = self.next(&mut it, span)?;
        let rk = def.as_rule();
        let inner = kids(def);
        Ok(ItemKind::Replace(Box::new(match rk {
            Rule::rule => self.rule_def(inner, span)?,
            _ => ItemKind::Action(self.action_def(rk, inner, span)?),
        })))
    }

    /// `rule NAME on TRIGGER [when C] { … }`, from the pairs after `rule`.
    fn rule_def<'i>(
        &self,
        mut it: impl Iterator<Item = Pair<'i, Rule>>,
        span: &Span,
    ) -> Res<ItemKind> {
        let name = self.ident(self.next(&mut it, span)?);
        let trigger = self.ident(self.next(&mut it, span)?);
        let mut when = None;
        let mut body = None;
        for p in it {
            match p.as_rule() {
                Rule::when => when = Some(self.when(p)?),
                _ => body = Some(self.block(p, 0)?),
            }
        }
        let body = body.ok_or_else(|| self.internal(span.clone()))?;
        Ok(ItemKind::Rule {
            name,
            trigger,
            when,
            body,
        })
    }

    /// `action NAME …` or `forced NAME …` (`rk`), from the pairs after the keyword.
    fn action_def<'i>(
        &self,
        rk: Rule,
        mut it: impl Iterator<Item = Pair<'i, Rule>>,
        span: &Span,
    ) -> Res<ActionDecl> {
        let name = self.ident(self.next(&mut it, span)?);
        let mut a = ActionDecl {
            forced: rk == Rule::forced,
            name,
            params: None,
            phase: None,
            limits: Vec::new(),
            when: None,
            choices: Vec::new(),
            body: Block {
                stmts: Vec::new(),
                span: span.clone(),
            },
        };
        for p in it {
            match p.as_rule() {
                Rule::action_params => a.params = Some(self.action_params(p)?),
                Rule::phase => a.phase = Some(self.phase(p)?),
                Rule::limit => a.limits.push(self.limit(p)?),
                Rule::when => a.when = Some(self.when(p)?),
                Rule::choose => a.choices.push(self.choose(p)?),
                _ => a.body = self.block(p, 0)?,
            }
        }
        Ok(a)
    }

    /// `(p: type, …)` of an asked action.
    fn action_params(&self, p: Pair<'_, Rule>) -> Res<Vec<(Ident, TypeExpr)>> {
        let mut params = Vec::new();
        for q in kids(p) {
            let qspan = self.span(&q);
            let mut qk = kids(q);
            let name = self.ident(self.next(&mut qk, &qspan)?);
            let ty = self.type_expr(self.next(&mut qk, &qspan)?, 0)?;
            params.push((name, ty));
        }
        Ok(params)
    }

    fn phase(&self, p: Pair<'_, Rule>) -> Res<Ident> {
        let pspan = self.span(&p);
        Ok(self.ident(self.next(&mut kids(p), &pspan)?))
    }

    /// `rule` or `action` after `remove`.
    fn def_kind(&self, p: Pair<'_, Rule>) -> DefKind {
        if p.as_str().trim() == "rule" {
            DefKind::Rule
        } else {
            DefKind::Action
        }
    }

    /// The parts after `change rule NAME` or `change action NAME`.
    fn change(&self, p: Pair<'_, Rule>) -> Res<Change> {
        let span = self.span(&p);
        let what = if p.as_rule() == Rule::change_rule {
            DefKind::Rule
        } else {
            DefKind::Action
        };
        let mut it = kids(p);
        let mut c = Change {
            what,
            name: self.ident(self.next(&mut it, &span)?),
            phase: None,
            limits: Vec::new(),
            when: None,
            choices: Vec::new(),
            body: None,
        };
        for q in it {
            match q.as_rule() {
                Rule::phase => c.phase = Some(self.phase(q)?),
                Rule::limit => c.limits.push(self.limit(q)?),
                Rule::when => c.when = Some(self.when(q)?),
                Rule::choose => c.choices.push(self.choose(q)?),
                _ => c.body = Some(self.block(q, 0)?),
            }
        }
        Ok(c)
    }

    fn expr_list_as_expr(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = self.span(&p);
        let items = kids(p).map(|e| self.expr(e, 1)).collect::<Res<Vec<_>>>()?;
        Ok(Expr {
            kind: ExprKind::List(items),
            span,
        })
    }

    fn type_expr(&self, p: Pair<'_, Rule>, depth: usize) -> Res<TypeExpr> {
        let span = self.span(&p);
        if depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                Code::TooDeep,
                span,
                "type nested too deeply",
            ));
        }
        let inner = self.next(&mut kids(p), &span)?;
        match inner.as_rule() {
            Rule::ident => Ok(TypeExpr::Named(self.ident(inner))),
            _ => {
                let lspan = self.span(&inner);
                let elem = self.next(&mut kids(inner), &lspan)?;
                Ok(TypeExpr::List(
                    Box::new(self.type_expr(elem, depth + 1)?),
                    lspan,
                ))
            }
        }
    }

    fn when(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = self.span(&p);
        self.expr(self.next(&mut kids(p), &span)?, 0)
    }

    /// A limit's count: a number, a parameter, or an expression in parentheses.
    fn limit_count(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = self.span(&p);
        self.expr(self.next(&mut kids(p), &span)?, 0)
    }

    fn limit(&self, p: Pair<'_, Rule>) -> Res<Limit> {
        let span = self.span(&p);
        let inner = self.next(&mut kids(p), &span)?;
        let kind = match inner.as_rule() {
            Rule::limit_per => {
                let mut k = kids(inner);
                let unit = self.ident(self.next(&mut k, &span)?);
                let count = self.limit_count(self.next(&mut k, &span)?)?;
                LimitKind::Per { unit, count }
            }
            Rule::limit_group => {
                let mut k = kids(inner);
                let group = self.ident(self.next(&mut k, &span)?);
                let count = match k.next() {
                    Some(c) => Some(self.limit_count(c)?),
                    None => None,
                };
                LimitKind::Group(group, count)
            }
            _ => LimitKind::Flag(self.ident(inner)),
        };
        Ok(Limit { kind, span })
    }

    fn choose(&self, p: Pair<'_, Rule>) -> Res<Choice> {
        let span = self.span(&p);
        let mut k = kids(p);
        let name = self.ident(self.next(&mut k, &span)?);
        let body = self.next(&mut k, &span)?;
        let chips = body.as_rule() == Rule::choose_chips;
        let mut k = kids(body);
        let from = self.expr(self.next(&mut k, &span)?, 0)?;
        let mut size = None;
        let mut filter = None;
        for q in k {
            let qspan = self.span(&q);
            let rk = q.as_rule();
            let e = self.expr(self.next(&mut kids(q), &qspan)?, 0)?;
            if rk == Rule::size {
                size = Some(e);
            } else {
                filter = Some(e);
            }
        }
        Ok(Choice {
            name,
            chips,
            from,
            size,
            filter,
            span,
        })
    }

    fn block(&self, p: Pair<'_, Rule>, depth: usize) -> Res<Block> {
        let span = self.span(&p);
        if depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                Code::TooDeep,
                span,
                format!("blocks nested too deeply (more than {MAX_DEPTH})"),
            ));
        }
        let stmts = kids(p)
            .map(|s| self.stmt(s, depth + 1))
            .collect::<Res<Vec<_>>>()?;
        Ok(Block { stmts, span })
    }

    fn stmt(&self, p: Pair<'_, Rule>, depth: usize) -> Res<Stmt> {
        let span = self.span(&p);
        let inner = self.next(&mut kids(p), &span)?;
        let rk = inner.as_rule();
        let mut k = kids(inner);
        let kind = match rk {
            Rule::let_stmt => {
                let name = self.ident(self.next(&mut k, &span)?);
                StmtKind::Let(name, self.expr(self.next(&mut k, &span)?, depth)?)
            }
            Rule::if_stmt => {
                let cond = self.expr(self.next(&mut k, &span)?, depth)?;
                let then = self.block(self.next(&mut k, &span)?, depth)?;
                let mut branches = vec![(cond, then)];
                let mut otherwise = None;
                for q in k {
                    let qspan = self.span(&q);
                    let rk = q.as_rule();
                    let mut qk = kids(q);
                    if rk == Rule::else_if {
                        let c = self.expr(self.next(&mut qk, &qspan)?, depth)?;
                        let b = self.block(self.next(&mut qk, &qspan)?, depth)?;
                        branches.push((c, b));
                    } else {
                        otherwise = Some(self.block(self.next(&mut qk, &qspan)?, depth)?);
                    }
                }
                StmtKind::If(branches, otherwise)
            }
            Rule::for_stmt => {
                let var = self.ident(self.next(&mut k, &span)?);
                let list = self.expr(self.next(&mut k, &span)?, depth)?;
                StmtKind::For(var, list, self.block(self.next(&mut k, &span)?, depth)?)
            }
            Rule::ask_stmt => {
                let who = self.expr(self.next(&mut k, &span)?, depth)?;
                let action = self.ident(self.next(&mut k, &span)?);
                let args = self.args(self.next(&mut k, &span)?, depth)?;
                StmtKind::Ask { who, action, args }
            }
            _ => {
                let name = self.ident(self.next(&mut k, &span)?);
                let args = self.args(self.next(&mut k, &span)?, depth)?;
                StmtKind::Call(name, args)
            }
        };
        Ok(Stmt { kind, span })
    }

    fn args(&self, p: Pair<'_, Rule>, depth: usize) -> Res<Vec<Expr>> {
        kids(p).map(|e| self.expr(e, depth + 1)).collect()
    }

    fn too_deep(&self, span: Span) -> Diagnostic {
        Diagnostic::error(
            Code::TooDeep,
            span,
            format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
        )
        .with_label("too deeply nested")
        .with_note("split it with `let`")
    }

    /// Builds any expression-level pair (expr, disj, …, primary): one named step per shape.
    fn expr(&self, p: Pair<'_, Rule>, depth: usize) -> Res<Expr> {
        let p = through_single_children(p);
        let span = self.span(&p);
        if depth > BUILD_LIMIT {
            return Err(self.too_deep(span));
        }
        let rk = p.as_rule();
        match rk {
            Rule::expr => self.range(p, span, depth),
            Rule::disj | Rule::conj => self.logical(p, rk, span, depth),
            Rule::negation | Rule::unary => self.prefixed(p, rk, span, depth),
            Rule::comparison | Rule::sum | Rule::product => self.operator_chain(p, span, depth),
            Rule::postfix => self.postfix(p, span, depth),
            Rule::primary | Rule::paren => self.parenthesised(p, rk, span, depth),
            Rule::call => self.call(p, span, depth),
            Rule::list => self.list(p, span, depth),
            Rule::table => self.table(p, span, depth),
            Rule::aggregate | Rule::comprehension => self.aggregate(p, rk, span, depth),
            Rule::if_value => self.if_value(p, span, depth),
            _ => self.literal(p, rk, span),
        }
    }

    /// `a` or `a..b`.
    fn range(&self, p: Pair<'_, Rule>, span: Span, depth: usize) -> Res<Expr> {
        let mut k = kids(p);
        let a = self.expr(self.next(&mut k, &span)?, depth + 1)?;
        let Some(b) = k.next() else {
            return Ok(a);
        };
        let b = self.expr(b, depth + 1)?;
        Ok(Expr {
            kind: ExprKind::Range(Box::new(a), Box::new(b)),
            span,
        })
    }

    /// `a or b or …`, `a and b and …`, folded to the left.
    fn logical(&self, p: Pair<'_, Rule>, rk: Rule, span: Span, depth: usize) -> Res<Expr> {
        let op = if rk == Rule::disj {
            BinOp::Or
        } else {
            BinOp::And
        };
        let mut k = kids(p);
        let mut acc = self.expr(self.next(&mut k, &span)?, depth + 1)?;
        for (i, q) in k.enumerate() {
            if depth + i > BUILD_LIMIT {
                return Err(self.too_deep(span));
            }
            let rhs = self.expr(q, depth + 1)?;
            acc = binary(op, acc, rhs);
        }
        Ok(acc)
    }

    /// `not not x`, `- - x`: the operand, then each prefix from the innermost out.
    fn prefixed(&self, p: Pair<'_, Rule>, rk: Rule, span: Span, depth: usize) -> Res<Expr> {
        let mut prefixes = Vec::new();
        let mut operand = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::kw_not | Rule::neg_op => prefixes.push(self.span(&q).start),
                _ => operand = Some(q),
            }
        }
        let operand = operand.ok_or_else(|| self.internal(span.clone()))?;
        if depth + prefixes.len() > BUILD_LIMIT {
            return Err(self.too_deep(span));
        }
        let mut acc = self.expr(operand, depth + 1)?;
        let op = if rk == Rule::negation {
            UnOp::Not
        } else {
            UnOp::Neg
        };
        for start in prefixes.into_iter().rev() {
            let s = start..acc.span.end;
            acc = Expr {
                kind: ExprKind::Unary(op, Box::new(acc)),
                span: s,
            };
        }
        Ok(acc)
    }

    /// `a == b`, `a + b - c`, `a * b / c`: operands and operators alternate, folded to the left.
    fn operator_chain(&self, p: Pair<'_, Rule>, span: Span, depth: usize) -> Res<Expr> {
        let mut k = p.into_inner();
        let mut acc = self.expr(self.next(&mut k, &span)?, depth + 1)?;
        let mut n = 0;
        while let Some(op) = k.next() {
            n += 1;
            if depth + n > BUILD_LIMIT {
                return Err(self.too_deep(span));
            }
            let op = binop(op.as_str());
            let rhs = self.expr(self.next(&mut k, &span)?, depth + 1)?;
            acc = binary(op, acc, rhs);
        }
        Ok(acc)
    }

    /// `x.field[index]…`, left to right.
    fn postfix(&self, p: Pair<'_, Rule>, span: Span, depth: usize) -> Res<Expr> {
        let mut k = p.into_inner();
        let mut acc = self.expr(self.next(&mut k, &span)?, depth + 1)?;
        for (n, q) in k.enumerate() {
            if depth + n > BUILD_LIMIT {
                return Err(self.too_deep(span));
            }
            let qspan = self.span(&q);
            let rk = q.as_rule();
            let inner = self.next(&mut kids(q), &qspan)?;
            let s = acc.span.start..qspan.end;
            let kind = if rk == Rule::field {
                ExprKind::Field(Box::new(acc), self.ident(inner))
            } else {
                ExprKind::Index(Box::new(acc), Box::new(self.expr(inner, depth + 1)?))
            };
            acc = Expr { kind, span: s };
        }
        Ok(acc)
    }

    /// A primary with more than one child, or `( e )` (whose span takes in the parentheses).
    fn parenthesised(&self, p: Pair<'_, Rule>, rk: Rule, span: Span, depth: usize) -> Res<Expr> {
        let inner = self.next(&mut kids(p), &span)?;
        let mut e = self.expr(inner, depth + 1)?;
        if rk == Rule::paren {
            e.span = span;
        }
        Ok(e)
    }

    /// `name(args)`.
    fn call(&self, p: Pair<'_, Rule>, span: Span, depth: usize) -> Res<Expr> {
        let mut k = kids(p);
        let name = self.ident(self.next(&mut k, &span)?);
        let args = self.args(self.next(&mut k, &span)?, depth)?;
        Ok(Expr {
            kind: ExprKind::Call(name, args),
            span,
        })
    }

    /// `[a, b, …]`.
    fn list(&self, p: Pair<'_, Rule>, span: Span, depth: usize) -> Res<Expr> {
        let items = kids(p)
            .map(|e| self.expr(e, depth + 1))
            .collect::<Res<Vec<_>>>()?;
        Ok(Expr {
            kind: ExprKind::List(items),
            span,
        })
    }

    /// `{key: value, …}`.
    fn table(&self, p: Pair<'_, Rule>, span: Span, depth: usize) -> Res<Expr> {
        let mut entries = Vec::new();
        for e in kids(p) {
            let espan = self.span(&e);
            let mut k = kids(e);
            let key = self.expr(self.next(&mut k, &espan)?, depth + 1)?;
            let val = self.expr(self.next(&mut k, &espan)?, depth + 1)?;
            entries.push((key, val));
        }
        Ok(Expr {
            kind: ExprKind::Table(entries),
            span,
        })
    }

    /// `count(x in L where C: E)` and the other aggregates, or `[x in L where C: E]`.
    fn aggregate(&self, p: Pair<'_, Rule>, rk: Rule, span: Span, depth: usize) -> Res<Expr> {
        let mut k = kids(p);
        let op = if rk == Rule::aggregate {
            agg_op(self.next(&mut k, &span)?.as_str())
        } else {
            AggOp::Collect
        };
        let var = self.ident(self.next(&mut k, &span)?);
        let list = Box::new(self.expr(self.next(&mut k, &span)?, depth + 1)?);
        let mut filter = None;
        let mut map = None;
        for q in k {
            let qspan = self.span(&q);
            let is_filter = q.as_rule() == Rule::filter;
            let e = Box::new(self.expr(self.next(&mut kids(q), &qspan)?, depth + 1)?);
            if is_filter {
                filter = Some(e);
            } else {
                map = Some(e);
            }
        }
        Ok(Expr {
            kind: ExprKind::Aggregate {
                op,
                var,
                list,
                filter,
                map,
            },
            span,
        })
    }

    /// `if c then a else b`.
    fn if_value(&self, p: Pair<'_, Rule>, span: Span, depth: usize) -> Res<Expr> {
        let mut parts = p.into_inner().filter(|q| q.as_rule() == Rule::expr);
        let mut part = || -> Res<Box<Expr>> {
            let q = parts.next().ok_or_else(|| self.internal(span.clone()))?;
            Ok(Box::new(self.expr(q, depth + 1)?))
        };
        let (c, a, b) = (part()?, part()?, part()?);
        Ok(Expr {
            kind: ExprKind::If(c, a, b),
            span,
        })
    }

    /// A number, a string, `true`, `false` or a name.
    fn literal(&self, p: Pair<'_, Rule>, rk: Rule, span: Span) -> Res<Expr> {
        let kind = match rk {
            Rule::int => ExprKind::Int(self.int(p)?),
            Rule::string => ExprKind::Str(self.string(p)?.value),
            Rule::kw_true => ExprKind::Bool(true),
            Rule::kw_false => ExprKind::Bool(false),
            Rule::ident => ExprKind::Name(p.as_str().to_string()),
            _ => return Err(self.internal(span)),
        };
        Ok(Expr { kind, span })
    }
}

/// Skips the expression levels that have a single child (most of them), without recursing.
fn through_single_children(mut p: Pair<'_, Rule>) -> Pair<'_, Rule> {
    while matches!(
        p.as_rule(),
        Rule::expr
            | Rule::disj
            | Rule::conj
            | Rule::negation
            | Rule::comparison
            | Rule::sum
            | Rule::product
            | Rule::unary
            | Rule::postfix
            | Rule::primary
    ) {
        let mut it = p.clone().into_inner();
        match (it.next(), it.next()) {
            (Some(only), None) => p = only,
            _ => break,
        }
    }
    p
}

/// `a OP b`, spanning both.
fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    let span = a.span.start..b.span.end;
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        span,
    }
}

/// A comparison, additive or multiplicative operator as written.
fn binop(text: &str) -> BinOp {
    match text {
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        _ => BinOp::Rem,
    }
}

/// An aggregate's name as written (`agg_op` admits only these).
fn agg_op(text: &str) -> AggOp {
    match text {
        "count" => AggOp::Count,
        "sum" => AggOp::Sum,
        "any" => AggOp::Any,
        "all" => AggOp::All,
        "min" => AggOp::Min,
        "max" => AggOp::Max,
        "sort" => AggOp::Sort,
        _ => AggOp::Distinct,
    }
}

/// Resolves `\"`, `\\`, `\n`, `\t`; on an unknown escape returns its byte offset and character.
fn unescape(s: &str) -> Result<String, (usize, char)> {
    let mut out = String::with_capacity(s.len());
    let mut it = s.char_indices();
    while let Some((i, c)) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some((_, '"')) => out.push('"'),
            Some((_, '\\')) => out.push('\\'),
            Some((_, 'n')) => out.push('\n'),
            Some((_, 't')) => out.push('\t'),
            Some((_, other)) => return Err((i, other)),
            None => return Err((i, '\\')),
        }
    }
    Ok(out)
}

/// Removes the common indentation of a `"""…"""` text and its blank first and last lines.
fn dedent(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: Vec<&str> = lines
        .iter()
        .map(|l| {
            if l.len() >= indent && l.is_char_boundary(indent) {
                &l[indent..]
            } else {
                l.trim_start()
            }
        })
        .collect();
    while out.first().is_some_and(|l| l.trim().is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items parsed from the rest of the file, as before [`item_reach`].
    fn the_rest(text: &str, _: usize) -> usize {
        text.len()
    }

    /// Every tree and every syntax error of `text` is the same whether an item is parsed up to its
    /// reach or from the rest of the file.
    fn same_with_and_without_reach(text: &str) {
        let src = Source::new("f.rules", text);
        let bounded = parse_items(&src, item_reach);
        let whole = parse_items(&src, the_rest);
        assert_eq!(format!("{bounded:?}"), format!("{whole:?}"), "{text}");
    }

    #[test]
    fn an_item_parsed_up_to_its_reach_is_the_item_parsed_from_the_rest_of_the_file() {
        let texts = [
            // `rule` and `action` as the word after `remove`, `replace`, `change`.
            "remove\nrule x\nrule y on z {}\n",
            "replace\n# a rule\nrule r on placed { f() }\naction a { }\n",
            "change\naction a\n  limit per turn 1\naction b { }\n",
            // A mistake before the next item, at it, and none.
            "param p: int = 1 +\nparam q: int = 2\n",
            "param p: int = 1\nparam q: int = (2\nsetup { }\n",
            "variant \"v\" {\n  rule = 1\n}\nsetup { }\n",
            "setup {\n  f(1,\n}\nrule r on placed { }\n",
            "holding h \"Title\"\n  per player\nimport \"base\"\n",
            "holding h\n\"Title\"\nimport \"base\"\n",
            // Strings over lines, closed and not; keywords in strings and comments.
            "rule r on x {\n  f(\"\"\"\nrule\nand more, and more, and more\n\"\"\", \"\"\"a\"\"\")\n}\nrule s on y { }\n",
            "rule r on x {\n  f(\"\"\"\"\nrule\nand more, and more, and more\n\"\"\"\"\")\n}\nrule s on y { }\n",
            "rule r on x {\n  f(\"\"\"\nrule\nand more, and more, and more\n)\n}\nrule s on y { }\n",
            "rule r on x {\n  f(\"a\\\\\nrule q, and more, and more, and more\")\n}\nrule s on y { }\n",
            "rule r on x {\n  f(\"a #\", \"b\\\"\nrule q, and more, and more, and more\")\n}\nrule s on y { }\n",
            "rule r on x {\n # \"\"\" \nrule q, and more, and more, and more\n}\nrule s on y { }\n",
            "rule r on x { f(\"é\\é\") }\nrule s on y { }\n",
            "rule r on x {\n  f(\"\"\"\nrule\nand more, and more, and more\n\"\"\")\n}\nrule s on y { }\n",
            "rule r on x {\n  f(\"a\\\nrule q, and more, and more, and more\")\n}\nrule s on y { }\n",
            "rule r on x {\n  f(\"a\nrule q\")\n}\nrule s on y { }\n",
            // Keywords in comments, in strings, inside a longer word, after blanks.
            "rule r on x {\n# rule\n  f(\"\nrule\")\n  ruler()\n}\n\t rule s on y { }\r\n",
            "action a when x\nrulers\nrule b on c { }",
            "override x = \n\noverride",
            "import",
            "",
        ];
        for text in texts {
            same_with_and_without_reach(text);
        }
        // Every bundled rules file, whole, cut short, and with a mistake every few hundred bytes.
        for (_, text) in crate::bundled::RULES {
            same_with_and_without_reach(text);
            for at in (0..text.len())
                .step_by(1297)
                .filter(|&i| text.is_char_boundary(i))
            {
                same_with_and_without_reach(&text[..at]);
                for wrong in [")", "\"", "{", "rule", "\n}\n"] {
                    same_with_and_without_reach(&format!("{}{wrong}{}", &text[..at], &text[at..]));
                }
            }
        }
    }
}
