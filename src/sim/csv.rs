//! The one CSV writer of the simulation (`--format csv` and `--per-game`): RFC 4180 fields, quoted
//! when they hold a comma, a quote, a carriage return or a line feed (quotes doubled), so any
//! player, rule or variant name comes back as one field.

/// One field as CSV writes it.
pub(crate) fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One record, fields joined by commas and quoted where needed, with its line feed.
pub fn row<S: AsRef<str>>(fields: &[S]) -> String {
    let mut out = String::new();
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&field(f.as_ref()));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_needed() {
        assert_eq!(field("ann"), "ann");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
        assert_eq!(field("cr\r"), "\"cr\r\"");
        assert_eq!(field(""), "");
        assert_eq!(row(&["1", "x,\"y\"", "z"]), "1,\"x,\"\"y\"\"\",z\n");
    }
}
