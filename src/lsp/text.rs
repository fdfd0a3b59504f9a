//! Places in a document as the protocol counts them (line, UTF-16 unit) and as carto counts them
//! (byte offset), and file URIs as paths.

use lsp_types::{Position, Range};

/// The position of byte `offset` of `text` (clamped to the text, and to a character boundary).
pub fn position(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|b| *b == b'\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[start..].chars().map(char::len_utf16).sum();
    Position::new(line as u32, character as u32)
}

/// The range of the bytes `span` of `text`.
pub fn range(text: &str, span: &std::ops::Range<usize>) -> Range {
    Range::new(position(text, span.start), position(text, span.end))
}

/// The byte offset of a position (past the end of a line: the line's end; past the last line: the
/// text's end).
pub fn offset(text: &str, pos: Position) -> usize {
    let mut start = 0;
    for _ in 0..pos.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0;
    for (i, c) in text[start..line_end].char_indices() {
        if units >= pos.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

/// The path of a `file:` URI (percent-escapes decoded); `None` for another scheme.
pub fn uri_path(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).and_then(|b| hex(*b)),
            bytes.get(i + 2).and_then(|b| hex(*b)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, ..) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The `file:` URI of an absolute path (bytes other than letters, digits and `/-._~` escaped).
pub fn path_uri(path: &str) -> String {
    let mut out = String::from("file://");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\n—é😀x\n";
        assert_eq!(position(text, 0), Position::new(0, 0));
        let x = text.find('x').unwrap();
        assert_eq!(position(text, x), Position::new(1, 4));
        assert_eq!(offset(text, Position::new(1, 4)), x);
        assert_eq!(offset(text, Position::new(1, 99)), x + 1);
        assert_eq!(offset(text, Position::new(9, 0)), text.len());
    }

    #[test]
    fn file_uris() {
        assert_eq!(
            uri_path("file:///a%20b/c.rules").as_deref(),
            Some("/a b/c.rules")
        );
        assert_eq!(path_uri("/a b/c.rules"), "file:///a%20b/c.rules");
        assert_eq!(uri_path("untitled:1"), None);
    }
}
