//! `carto fmt`: the one canonical layout of a rules file (issue 35, B), used by the command and by the
//! language server's formatting request.
//!
//! The layout keeps the author's lines and comments and decides the rest:
//!
//! - **Indentation.** A line that starts an item, a statement or a header entry is indented two
//!   spaces per open block (`{ … }` of a `variant`, `chips`, `setup`, rule, action, `if`, `for`); a
//!   `}` closing a block stands at its opener's indentation. A line that continues the one before (an
//!   item's `when`/`choose`/`phase`/`limit` on lines of their own, the inside of brackets left open,
//!   a line after a trailing `and`, or one starting with `or`, `where`, an operator) keeps its
//!   indentation relative to the line its statement started on, at least two spaces more (a
//!   closing bracket: at least as much), so hand-aligned conditions stay aligned.
//! - **Spaces.** One space between words and around binary operators, `=` and `..`-free ranges
//!   (`2..6`), after `,` and `:`; none inside `( )`, `[ ]` and a table's `{ }`, before `,` `:` `)`,
//!   around `.`, after a unary `-`, between a name and its `(` or `[`; a block's braces on one line
//!   have a space inside (`{ f(x) }`); a comment at the end of a line keeps its distance from the code
//!   (at least one space), so comments aligned in a column stay aligned.
//! - **Lines.** Trailing blanks removed, at most one blank line in a row, none at the start or the
//!   end, one newline at the end. Long strings (`"""…"""`) are kept byte for byte.
//!
//! A file with a syntax error is not formatted (its errors are returned). The formatted text holds
//! exactly the tokens of the original (checked on every call: a difference is returned as an error,
//! never written), and formatting it again changes nothing (tests/fmt.rs, on every bundled file and
//! on generated ones).

use crate::diag::{Code, Diagnostic, Source};
use crate::lex::{self, Tok, Token};

/// The canonical layout of a rules file, or the file's syntax errors.
pub fn format_rules(text: &str) -> Result<String, Vec<Diagnostic>> {
    let (_, errors) = crate::parser::parse_file(&Source::new("", text));
    if !errors.is_empty() {
        return Err(errors);
    }
    let toks = lex::tokens(text);
    let out = Layout::new(text).run(&toks);
    if !same_tokens(text, &toks, &out) {
        return Err(vec![Diagnostic::error(
            Code::Syntax,
            0..0,
            "the formatter would change the file's tokens: it was left as it is (please report it)",
        )]);
    }
    Ok(out)
}

/// The canonical layout of a script: each line without blanks at either end, at most one blank
/// line in a row, none at the start or the end, one newline at the end (scripts are read line by
/// line, each line trimmed, so nothing they mean changes).
pub fn format_script(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if blank {
            out.push('\n');
            blank = false;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Whether `out` holds the tokens of `text` (`toks`), in order, comments without trailing blanks.
fn same_tokens(text: &str, toks: &[Token], out: &str) -> bool {
    let again = lex::tokens(out);
    again.len() == toks.len()
        && toks.iter().zip(&again).all(|(a, b)| {
            let (x, y) = (&text[a.span.clone()], &out[b.span.clone()]);
            a.tok == b.tok
                && match a.tok {
                    Tok::Comment => x.trim_end() == y,
                    _ => x == y,
                }
        })
}

/// What an open bracket is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// The braces of a block, a header or a chip set: they indent the lines inside.
    Block,
    /// A table's braces (`{1: 2}`), after an operator or a separator.
    Table,
    /// `(` or `[`.
    Bracket,
}

/// The state of the layout as it walks the tokens.
struct Layout<'t> {
    text: &'t str,
    out: String,
    open: Vec<Open>,
    /// Open `list<` angle brackets.
    angles: usize,
    /// The original and the canonical indentation of the line the current statement started on.
    start_orig: usize,
    start_canon: usize,
}

/// Words after which a line is not finished, and with which a line continues the one before.
const GO_ON_AFTER: &[&str] = &[
    "and", "or", "not", "in", "where", "when", "let", "for", "if", "ask", "choose", "from", "size",
    "of", "one", "on", "phase", "limit", "per", "group", "import", "variant", "param", "override",
    "holding", "rule", "action", "forced", "remove", "replace", "change", "then",
];
const GO_ON_WITH: &[&str] = &[
    "and", "or", "where", "in", "when", "choose", "phase", "limit", "size", "from", "per", "group",
    "one", "then",
];

/// Words that start an item.
const ITEM_WORDS: &[&str] = &crate::parser::ITEM_KEYWORDS;

/// Keywords that work as operators: a `(` after them is not a call, a `-` after them is unary.
fn operator_word(w: &str) -> bool {
    lex::is_keyword(w) && !matches!(w, "chips" | "holding" | "list" | "true" | "false")
}

impl<'t> Layout<'t> {
    fn new(text: &'t str) -> Self {
        Layout {
            text,
            out: String::with_capacity(text.len() + text.len() / 8),
            open: Vec::new(),
            angles: 0,
            start_orig: 0,
            start_canon: 0,
        }
    }

    fn s(&self, t: &Token) -> &'t str {
        &self.text[t.span.clone()]
    }

    fn run(mut self, toks: &[Token]) -> String {
        let mut line_end_of_prev = None::<usize>;
        for (i, t) in toks.iter().enumerate() {
            let start_line = self.line_of(t.span.start);
            let new_line = line_end_of_prev.is_none_or(|l| start_line > l);
            if new_line {
                if let Some(l) = line_end_of_prev {
                    self.out.push('\n');
                    if start_line > l + 1 {
                        self.out.push('\n');
                    }
                }
                let indent = self.indent(toks, i);
                self.out.extend(std::iter::repeat_n(' ', indent));
            } else if t.tok == Tok::Comment {
                // A comment after code keeps its distance (comments aligned in a column stay so).
                let gap = &self.text[toks[i - 1].span.end..t.span.start];
                self.out.extend(std::iter::repeat_n(' ', gap.len().max(1)));
            } else if self.space_before(toks, i) {
                self.out.push(' ');
            }
            self.emit(t);
            line_end_of_prev = Some(self.line_of(t.span.end));
        }
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.out
    }

    /// The line (0-based) of a byte offset. Counted afresh each time: the formatter is not in any
    /// hot path, and the files are short.
    fn line_of(&self, at: usize) -> usize {
        bytecount_newlines(&self.text.as_bytes()[..at])
    }

    /// Writes a token and updates the brackets open.
    fn emit(&mut self, t: &Token) {
        let s = self.s(t);
        match t.tok {
            Tok::Comment => self.out.push_str(s.trim_end()),
            _ => self.out.push_str(s),
        }
        if t.tok != Tok::Punct {
            return;
        }
        match s {
            "(" | "[" => self.open.push(Open::Bracket),
            "{" => {
                let table = self.out[..self.out.len() - 1]
                    .trim_end()
                    .ends_with(['=', '(', '[', ',', ':', '+', '-', '*', '/', '%', '<', '>']);
                self.open
                    .push(if table { Open::Table } else { Open::Block });
            }
            ")" | "]" | "}" => {
                self.open.pop();
            }
            "<" if self.out[..self.out.len() - 1].ends_with("list") => self.angles += 1,
            ">" if self.angles > 0 => self.angles -= 1,
            _ => {}
        }
    }

    /// The indentation of the line starting with token `i`.
    fn indent(&mut self, toks: &[Token], i: usize) -> usize {
        let t = &toks[i];
        let s = self.s(t);
        let line_start = self.text[..t.span.start].rfind('\n').map_or(0, |p| p + 1);
        let orig = self.text[line_start..t.span.start]
            .chars()
            .map(|c| if c == '\t' { 2 } else { 1 })
            .sum::<usize>();
        let blocks = self.open.iter().filter(|o| **o == Open::Block).count();
        let in_brackets = self.open.iter().any(|o| *o != Open::Block);
        let closes_block = s == "}" && self.open.last() == Some(&Open::Block);
        let closer = matches!(s, ")" | "]" | "}");
        let prev = toks[..i].iter().rev().find(|t| t.tok != Tok::Comment);
        let continues = if t.tok == Tok::Comment {
            in_brackets
        } else if closes_block {
            false
        } else if in_brackets {
            true
        } else if blocks == 0 {
            !(t.tok == Tok::Word && ITEM_WORDS.contains(&s))
        } else {
            prev.is_some_and(|p| self.unfinished_after(p)) || self.continues_with(t)
        };
        if !continues {
            let canon = 2 * (blocks - usize::from(closes_block));
            if t.tok == Tok::Comment {
                // A comment line does not start a statement: the lines after it continue the one
                // before it.
                return canon;
            }
            self.start_orig = orig;
            self.start_canon = canon;
            return canon;
        }
        let least = if closer { 0 } else { 2 };
        self.start_canon + orig.saturating_sub(self.start_orig).max(least)
    }

    /// Whether a line ending with `t` is not finished.
    fn unfinished_after(&self, t: &Token) -> bool {
        let s = self.s(t);
        match t.tok {
            // Outside brackets, a `,` only separates a chip set's entries.
            Tok::Punct => !matches!(s, ")" | "]" | "}" | "{" | ","),
            Tok::Word => GO_ON_AFTER.contains(&s),
            _ => false,
        }
    }

    /// Whether a line starting with `t` continues the line before.
    fn continues_with(&self, t: &Token) -> bool {
        let s = self.s(t);
        match t.tok {
            Tok::Punct => s != "{" && s != "}",
            Tok::Word => GO_ON_WITH.contains(&s),
            _ => false,
        }
    }

    /// Whether a space goes between token `i` and the one before it on the same line.
    fn space_before(&self, toks: &[Token], i: usize) -> bool {
        let (p, c) = (&toks[i - 1], &toks[i]);
        let (ps, cs) = (self.s(p), self.s(c));
        if c.tok == Tok::Comment {
            return true;
        }
        let punct = |t: &Token, s: &str, set: &[&str]| t.tok == Tok::Punct && set.contains(&s);
        if punct(p, ps, &["(", "["]) {
            return false;
        }
        if punct(p, ps, &["{"]) {
            return self.open.last() == Some(&Open::Block) && cs != "}";
        }
        if punct(c, cs, &["}"]) {
            return self.open.last() == Some(&Open::Block);
        }
        if punct(c, cs, &[")", "]", ",", ":", ".", ".."]) || punct(p, ps, &[".", ".."]) {
            return false;
        }
        if punct(p, ps, &["-"]) && self.unary_minus(toks, i - 1) {
            return false;
        }
        // `list<int>`, `list<list<square>>`.
        if (punct(c, cs, &["<"]) && ps == "list")
            || (self.angles > 0 && (punct(p, ps, &["<"]) || punct(c, cs, &[">"])))
        {
            return false;
        }
        if punct(c, cs, &["("]) {
            // A call or an action's parameters: right after the name; a limit's count `(n + 1)`
            // after `per turn` or `group g` is not a call.
            let count = i >= 2 && matches!(self.s(&toks[i - 2]), "per" | "group");
            return !(p.tok == Tok::Word && !operator_word(ps) && !count);
        }
        if punct(c, cs, &["["]) {
            let indexed = punct(p, ps, &[")", "]"]) || (p.tok == Tok::Word && !operator_word(ps));
            return !indexed;
        }
        true
    }

    /// Whether the `-` at token `i` is a unary minus (nothing that ends a value before it).
    fn unary_minus(&self, toks: &[Token], i: usize) -> bool {
        let Some(p) = toks[..i].iter().rev().find(|t| t.tok != Tok::Comment) else {
            return true;
        };
        let s = self.s(p);
        match p.tok {
            Tok::Punct => !matches!(s, ")" | "]" | "}"),
            Tok::Word => operator_word(s),
            _ => false,
        }
    }
}

fn bytecount_newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|b| **b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(text: &str) -> String {
        format_rules(text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn spaces_and_indentation() {
        assert_eq!(
            f("rule  a on placed when x>1 and(y ==- 2){\nscore( player,f (x) [1] )  # hi   \n\n\n\n}\n\n"),
            "rule a on placed when x > 1 and (y == -2) {\n  score(player, f(x)[1])  # hi\n\n}\n"
        );
        assert_eq!(
            f("param t: table = { 1 : 2 , 3: 4 }\nparam l: list < int > = [ 1 ,2 ]\n"),
            "param t: table = {1: 2, 3: 4}\nparam l: list<int> = [1, 2]\n"
        );
        assert_eq!(
            f("setup {if a {f(x)}  else{ g( 1 .. 2 ) }}"),
            "setup { if a { f(x) } else { g(1..2) } }\n"
        );
    }

    #[test]
    fn continuation_lines_keep_their_alignment() {
        let text = "forced ransom\n    when a > 0\n      and (b\n           or c)\n        choose s: chips(hand(player)) {\n  move(s, box, up)\n}\n";
        assert_eq!(f(text), text);
        // Moved as a whole with the statement they continue.
        assert_eq!(
            f("setup {\n      let x = [a,\n               b]\n}\n"),
            "setup {\n  let x = [a,\n           b]\n}\n"
        );
        // A continuation gets at least two spaces more.
        assert_eq!(
            f("rule a on placed\nwhen x {\n}\n"),
            "rule a on placed\n  when x {\n}\n"
        );
    }

    #[test]
    fn long_strings_are_kept_byte_for_byte() {
        let text = "variant \"v\" {\n   doc = \"\"\"\n  a  \n\n\n    b\"\"\"\n}\n";
        assert_eq!(
            f(text),
            "variant \"v\" {\n  doc = \"\"\"\n  a  \n\n\n    b\"\"\"\n}\n"
        );
    }

    #[test]
    fn every_bundled_rules_file_is_formatted() {
        for (name, text) in crate::check::BUNDLED_RULES {
            assert_eq!(f(text), *text, "{name}");
        }
    }

    #[test]
    fn a_syntax_error_is_not_formatted() {
        let e = format_rules("rule a on {\n").unwrap_err();
        assert_eq!(e[0].code, Code::Syntax);
    }

    #[test]
    fn scripts_are_trimmed() {
        assert_eq!(
            format_script("\n\n  variant base  \n\n\n# c\nplace U at 0,1 r0\n\n"),
            "variant base\n\n# c\nplace U at 0,1 r0\n"
        );
    }
}
