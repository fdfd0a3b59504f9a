//! The tokens of a rules file, with their byte spans: what the formatter (`fmt.rs`) lays out and what
//! an editor colours (the language server's semantic tokens). The grammar (grammar/carto.pest) is the
//! authority on what a file means; this reads the same words, numbers, strings, comments and
//! punctuation, and never fails: a character the grammar has no token for is a token of its own
//! ([`Tok::Other`]).

use std::ops::Range;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name or a keyword (`rule`, `score`, `feature`).
    Word,
    /// A number.
    Int,
    /// A string on one line (`"…"`; unclosed, it ends at the end of the line).
    Str,
    /// A long string (`"""…"""`), which may run over several lines.
    LongStr,
    /// `#` to the end of the line.
    Comment,
    /// An operator, a bracket or a separator (`==`, `..`, `(`, `,`).
    Punct,
    /// A character the language has no token for.
    Other,
}

/// One token: its kind and its bytes in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Range<usize>,
}

/// The punctuation of the language, longest first.
const PUNCT: [&str; 22] = [
    "==", "!=", "<=", ">=", "..", "<", ">", "=", "+", "-", "*", "/", "%", ".", ",", ":", "(", ")",
    "[", "]", "{", "}",
];

/// Every token of `text`, in order (the blanks between them are not tokens).
pub fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let tok = match b {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            b'#' => {
                i = text[i..].find('\n').map_or(text.len(), |j| i + j);
                Tok::Comment
            }
            b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                i = text[i + 3..]
                    .find("\"\"\"")
                    .map_or(text.len(), |j| i + 3 + j + 3);
                Tok::LongStr
            }
            b'"' => {
                i += 1;
                while let Some(&c) = bytes.get(i) {
                    match c {
                        b'\\' if bytes.get(i + 1).is_some_and(|n| *n != b'\n') => i += 2,
                        b'"' => {
                            i += 1;
                            break;
                        }
                        b'\n' => break,
                        _ => i += 1,
                    }
                }
                Tok::Str
            }
            b'0'..=b'9' => {
                i += bytes[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                Tok::Int
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                i += bytes[i..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
                Tok::Word
            }
            _ => match PUNCT.iter().find(|p| bytes[i..].starts_with(p.as_bytes())) {
                Some(p) => {
                    i += p.len();
                    Tok::Punct
                }
                None => {
                    i += text[i..].chars().next().map_or(1, char::len_utf8);
                    Tok::Other
                }
            },
        };
        out.push(Token {
            tok,
            span: start..i,
        });
    }
    out
}

/// Words the grammar reserves or reads as keywords where they stand (for colouring and spacing).
pub const KEYWORDS: &[&str] = &[
    "and", "or", "not", "true", "false", "in", "where", "if", "else", "let", "for", "import",
    "variant", "param", "override", "setup", "rule", "action", "when", "choose", "chips",
    "holding", "on", "forced", "phase", "limit", "per", "group", "from", "size", "one", "of",
    "list", "ask", "remove", "replace", "change", "then",
];

/// Whether `word` is one of [`KEYWORDS`].
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> Vec<(Tok, &str)> {
        tokens(text)
            .into_iter()
            .map(|t| (t.tok, &text[t.span]))
            .collect()
    }

    #[test]
    fn reads_words_numbers_strings_comments_and_punctuation() {
        use Tok::*;
        assert_eq!(
            shown("rule a on placed when x.y >= -1..2 { # hi\n  f(\"a\\\"b\", \"\"\"l\nm\"\"\") }"),
            vec![
                (Word, "rule"),
                (Word, "a"),
                (Word, "on"),
                (Word, "placed"),
                (Word, "when"),
                (Word, "x"),
                (Punct, "."),
                (Word, "y"),
                (Punct, ">="),
                (Punct, "-"),
                (Int, "1"),
                (Punct, ".."),
                (Int, "2"),
                (Punct, "{"),
                (Comment, "# hi"),
                (Word, "f"),
                (Punct, "("),
                (Str, "\"a\\\"b\""),
                (Punct, ","),
                (LongStr, "\"\"\"l\nm\"\"\""),
                (Punct, ")"),
                (Punct, "}"),
            ]
        );
    }

    #[test]
    fn never_fails() {
        use Tok::*;
        assert_eq!(
            shown("é @\"open\n\"\"\"never"),
            vec![
                (Other, "é"),
                (Other, "@"),
                (Str, "\"open"),
                (LongStr, "\"\"\"never")
            ]
        );
    }
}
