//! The rules for names and paths that come from files (issue 18, "files from strangers"), in one
//! place: what a name that becomes part of a file name may hold, which characters a name shown in a
//! transcript may not hold, and (for paths a file names) where a file may be read from.
//!
//! - A name that becomes a file name is a name ([`is_name`]).
//! - A file names other files relative to its own folder, never by an absolute path ([`beside`]).
//! - A log names its rules as a bundled name or a `.rules` file in its folder ([`log_rules`]); while
//!   a log is loaded, every read is confined to its folder by canonical path, so a symbolic link out
//!   of it is caught too ([`crate::files::confined`]).
//! - `-` names standard input (a log or script to read) or standard output (a file to write).

use std::path::{Component, Path, PathBuf};

/// The name that means standard input or standard output.
pub const STDIO: &str = "-";

/// The most characters of a name that becomes part of a file name (a variant's name: `doc --out`
/// writes `NAME.md`).
pub const MAX_NAME: usize = 64;

/// Whether `s` is a name: 1 to [`MAX_NAME`] ASCII letters, digits, `-` and `_`, so it can be part of
/// a file name anywhere (no `/`, no `..`, no leading `.`, nothing a command line or a file system reads
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

/// The path of a file another file names (an import, a map, a map part, a tile set, a script's
/// variant): relative to the folder of the file `from` that names it, in that folder or below it. An
/// absolute path or one that leaves the folder (`..`) is refused: a shared file names the files that
/// go with it beside itself, never a place of the reader's machine (as a log names its rules).
///
/// Only a file of the kind expected is read (`ext`: `.rules` for rules and imports, `.toml` for maps
/// and tile sets): a stranger's file cannot make carto read, and quote in its error, a file of the
/// reader's machine that is of another kind (`../../.ssh/id_rsa`).
pub fn beside(from: &str, name: &str, ext: &str) -> Result<PathBuf, String> {
    if Path::new(name).is_absolute() {
        return Err(format!(
            "`{}` is an absolute path: a file names the files that go with it relative to its own \
             folder",
            name.escape_debug()
        ));
    }
    if !name.ends_with(ext) || name.len() == ext.len() {
        return Err(format!(
            "`{}` is not a `{ext}` file: only such a file is read here (it was not read)",
            name.escape_debug()
        ));
    }
    if Path::new(name)
        .components()
        .any(|c| matches!(c, Component::ParentDir))
    {
        return Err(format!(
            "`{}` leaves the folder of the file that names it (`..`): a file names the files that go \
             with it in its own folder or below it (it was not read)",
            name.escape_debug()
        ));
    }
    let dir = Path::new(from).parent().unwrap_or(Path::new(""));
    Ok(dir.join(name))
}

/// Checks the rules a log's `game_start` names by path (a bundled name is not a path): a `.rules`
/// file in the log's folder or below it. An absolute path, one that leaves the folder (`..`) or a
/// file of another kind is refused before anything is read, so a log cannot make carto read (and
/// quote) a file of the reader's machine; `--rules FILE` names rules kept elsewhere.
pub fn log_rules(rules: &str) -> Result<(), String> {
    let shown = rules.escape_debug();
    let why = if Path::new(rules).is_absolute() {
        "an absolute path"
    } else if Path::new(rules)
        .components()
        .any(|c| matches!(c, Component::ParentDir))
    {
        "a path that leaves the log's folder"
    } else if !rules.ends_with(".rules") {
        "not a rules file (a name ending in `.rules`) nor a bundled variant"
    } else {
        return Ok(());
    };
    Err(format!(
        "the log's `rules` is `{shown}`, {why}: a log names its rules relative to its own folder \
         (it was not read)\n  give the rules with `--rules FILE` if you trust them"
    ))
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
    fn log_rules_stay_in_the_folder() {
        assert_eq!(log_rules("house.rules"), Ok(()));
        assert_eq!(log_rules("sub/house.rules"), Ok(()));
        for bad in [
            "/etc/passwd",
            "../x.rules",
            "a/../../x.rules",
            "x.toml",
            "/abs.rules",
        ] {
            let e = log_rules(bad).unwrap_err();
            assert!(e.contains("it was not read"), "{bad}: {e}");
        }
        assert!(beside("a/b.rules", "/etc/passwd", ".toml").is_err());
        assert!(beside("a/b.rules", "/etc/x.toml", ".toml").is_err());
        // Only a file of the kind expected: never `../../.ssh/id_rsa` or a rules file as a map.
        let e = beside("a/b.rules", "../../.ssh/id_rsa", ".toml").unwrap_err();
        assert!(
            e.contains("is not a `.toml` file") && e.contains("it was not read"),
            "{e}"
        );
        assert!(beside("a/b.rules", "c.rules", ".toml").is_err());
        assert!(beside("a/b.rules", ".toml", ".toml").is_err());
        assert_eq!(
            beside("a/b.rules", "c.toml", ".toml").unwrap(),
            Path::new("a/c.toml")
        );
        assert_eq!(
            beside("a/b.script", "c/d.rules", ".rules").unwrap(),
            Path::new("a/c/d.rules")
        );
        // Never out of the folder: not `../c.rules`, nor `c/../../d.toml`.
        for up in ["../c.rules", "c/../../d.rules", "./../c.rules"] {
            let e = beside("a/b.script", up, ".rules").unwrap_err();
            assert!(
                e.contains("leaves the folder") && e.contains("it was not read"),
                "{e}"
            );
        }
    }

    #[test]
    fn control_chars() {
        assert_eq!(control_char("ann"), None);
        assert_eq!(control_char("a\nb"), Some('\n'));
        assert_eq!(control_char("a\u{1b}[31m"), Some('\u{1b}'));
    }
}
