//! Issue 33, C: no function in `src/` or `crates/*/src` runs over 100 lines (from its `fn` line to
//! its closing brace), so that each says one thing a reader can hold. Functions are found by a small
//! lexer that skips comments, strings (raw ones too) and character literals, so braces in text do
//! not count.

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 100;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text with every comment, string and character literal blanked (newlines kept), so that the
/// braces left are the code's.
fn code_only(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            i + 2 + text[i + 2..].find("*/").map_or(rest.len(), |k| k + 2)
        } else if rest.starts_with(b"r\"") || rest.starts_with(b"r#") {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(1 + hashes) != Some(&b'"') {
                i += 1;
                continue;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let from = i + 2 + hashes;
            from + text[from..]
                .find(&close)
                .map_or(b.len(), |k| k + close.len())
        } else if rest[0] == b'"' {
            let mut k = i + 1;
            while k < b.len() && b[k] != b'"' {
                k += if b[k] == b'\\' { 2 } else { 1 };
            }
            k + 1
        } else if rest[0] == b'\'' {
            // A character literal (`'{'`, `'\''`), not a lifetime (`'a`).
            match (rest.get(1), rest.get(2), rest.get(3)) {
                (Some(b'\\'), ..) => {
                    i + 2 + rest[2..].iter().position(|&c| c == b'\'').unwrap_or(0) + 1
                }
                (Some(_), Some(b'\''), _) => i + 3,
                _ => {
                    i += 1;
                    continue;
                }
            }
        } else {
            i += 1;
            continue;
        };
        blank(&mut out, i, end);
        i = end;
    }
    out
}

/// Each function of `text` longer than `MAX_LINES`: its name, first line and length in lines.
fn long_functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = String::from_utf8_lossy(&code_only(text)).into_owned();
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find("fn ").filter(|&k| {
            k == 0
                || !line.as_bytes()[k - 1].is_ascii_alphanumeric() && line.as_bytes()[k - 1] != b'_'
        }) else {
            continue;
        };
        let name: String = line[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The body: from the first `{` after the signature to the brace that closes it (a `;`
        // first is a declaration without a body).
        let (mut depth, mut opened) = (0i64, false);
        let mut last = None;
        'walk: for (j, l) in lines.iter().enumerate().skip(i) {
            let from = if j == i { at } else { 0 };
            for c in l[from..].chars() {
                match c {
                    ';' if !opened => break 'walk,
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => {
                        depth -= 1;
                        if opened && depth == 0 {
                            last = Some(j);
                            break 'walk;
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Some(j) = last {
            if j + 1 - i > MAX_LINES {
                found.push((name, i + 1, j + 1 - i));
            }
        }
    }
    found
}

#[test]
fn no_function_is_over_100_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for dir in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        rust_files(&dir.path().join("src"), &mut files);
    }
    files.sort();
    assert!(files.len() > 100, "{} files", files.len());
    let mut long = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (name, line, n) in long_functions(&text) {
            let path = f.strip_prefix(root).unwrap_or(f).display();
            long.push(format!("{path}:{line}: `{name}` is {n} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}

/// The counting itself: braces in strings, raw strings, characters and comments do not count, a
/// declaration without a body is no function, and a function of 101 lines is found.
#[test]
fn long_functions_are_found() {
    let body = "    let x = 1;\n".repeat(99);
    let text = format!(
        "fn short() {{ let s = \"}}}}\"; let r = r#\"{{\"#; let c = '{{'; // }}\n}}\n\
         fn decl();\nfn long() {{\n{body}}}\nfn lifetime<'a>(x: &'a str) -> &'a str {{ x }}\n"
    );
    assert_eq!(long_functions(&text), vec![("long".to_string(), 4, 101)]);
    let text = format!("fn exact() {{\n{}}}\n", "    let x = 1;\n".repeat(98));
    assert!(long_functions(&text).is_empty());
}
