//! The rules for names and paths that come from files (issue 18, "files from strangers"), in one
//! place: what a name that becomes part of a file name may hold, which characters a name shown in a
//! transcript may not hold, and (for paths a file names) where a file may be read from.

/// The most characters of a name that becomes part of a file name (a variant's name: `doc --out`
/// writes `NAME.md`).
pub const MAX_NAME: usize = 64;

/// Whether `s` is a name: 1 to [`MAX_NAME`] ASCII letters, digits, `-` and `_`, so it can be part of
/// a file name anywhere (no `/`, no `..`, no leading `.`, nothing a shell or a file system treats
/// specially).
pub fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_NAME
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Why `s` is not a name (see [`is_name`]), for a message; `None` when it is one.
pub fn not_a_name(s: &str) -> Option<String> {
    if s.is_empty() {
        return Some("it is empty".into());
    }
    if s.chars().count() > MAX_NAME {
        return Some(format!(
            "it has {} characters, more than {MAX_NAME}",
            s.chars().count()
        ));
    }
    let bad = s
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))?;
    Some(format!("it holds {}", shown_char(bad)))
}

/// A character for a message: itself in backquotes, or its code for a control character or a space.
pub fn shown_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("the character U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

/// The first control character of `s` (a newline, a tab, an escape…): a name shown on a line of a
/// transcript or a log may hold none.
pub fn control_char(s: &str) -> Option<char> {
    s.chars().find(|c| c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["base", "a-b", "c_d", "a", &"x".repeat(64)] {
            assert!(is_name(ok), "{ok}");
            assert_eq!(not_a_name(ok), None);
        }
        for bad in [
            "",
            "../x",
            "/tmp/x",
            ".",
            "a b",
            "a.b",
            "é",
            &"x".repeat(65),
        ] {
            assert!(!is_name(bad), "{bad}");
            assert!(not_a_name(bad).is_some(), "{bad}");
        }
        assert_eq!(not_a_name("../x").unwrap(), "it holds `.`");
        assert_eq!(not_a_name("a\nb").unwrap(), "it holds the character U+000A");
    }

    #[test]
    fn control_chars() {
        assert_eq!(control_char("ann"), None);
        assert_eq!(control_char("a\nb"), Some('\n'));
        assert_eq!(control_char("a\u{1b}[31m"), Some('\u{1b}'));
    }
}
