//! Reading a user's file: only regular files, at most [`MAX_FILE_BYTES`], valid UTF-8 text. Every
//! file carto reads from disk (rules, imports, maps, map parts, tile sets, scripts, logs) comes
//! through here, so `/dev/zero`, a FIFO or a huge file gets one clear message instead of exhausting
//! memory.

use crate::diag::Code;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file read by this process: its canonical path and, where the system has them, its device and
/// inode (a hard link has another path but the same inode).
struct Input {
    canonical: PathBuf,
    id: Option<(u64, u64)>,
    shown: String,
    /// How many times it was read (loading reads each file once: a test holds it to that).
    reads: usize,
}

/// Every file read from disk by this process: nothing may be written onto one of them.
static INPUTS: Mutex<Vec<Input>> = Mutex::new(Vec::new());

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// Remembers `path` as an input of this process.
fn remember(path: &Path, meta: &std::fs::Metadata) {
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut inputs = INPUTS.lock().unwrap_or_else(|p| p.into_inner());
    match inputs.iter_mut().find(|i| i.canonical == canonical) {
        Some(i) => i.reads += 1,
        None => inputs.push(Input {
            canonical,
            id: file_id(meta),
            shown: path.display().to_string(),
            reads: 1,
        }),
    }
}

/// How many times this process has read `path` (by canonical path).
pub fn times_read(path: &Path) -> usize {
    let Ok(canonical) = std::fs::canonicalize(path) else {
        return 0;
    };
    let inputs = INPUTS.lock().unwrap_or_else(|p| p.into_inner());
    inputs
        .iter()
        .find(|i| i.canonical == canonical)
        .map_or(0, |i| i.reads)
}

/// The canonical form of a path that may not exist yet: its folder's canonical path and its name.
fn canonical_target(path: &Path) -> Option<PathBuf> {
    if let Ok(c) = std::fs::canonicalize(path) {
        return Some(c);
    }
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(name))
}

/// The input `path` would overwrite, by canonical path (so `./x`, `a/../x` and a symbolic link are
/// caught) or by device and inode (a hard link); `None` when it is none of this process's inputs.
pub(crate) fn input_at(path: &Path) -> Option<String> {
    let inputs = INPUTS.lock().unwrap_or_else(|p| p.into_inner());
    if inputs.is_empty() {
        return None;
    }
    let id = std::fs::metadata(path).ok().as_ref().and_then(file_id);
    let canonical = canonical_target(path);
    inputs
        .iter()
        .find(|i| {
            canonical.as_ref().is_some_and(|c| *c == i.canonical) || (id.is_some() && id == i.id)
        })
        .map(|i| i.shown.clone())
}

/// Refuses to write `what` to `path` when `path` is a file this process read; the message is
/// without the `error: ` prefix.
pub fn refuse_input(path: &Path, what: &str) -> Result<(), String> {
    match input_at(path) {
        None => Ok(()),
        Some(input) => {
            let same = if input == path.display().to_string() {
                String::new()
            } else {
                format!(" (`{input}`)")
            };
            Err(format!(
                "will not write {what} to `{}`: it is a file this command read{same}, and carto \
                 never writes onto its input; name another file",
                path.display()
            ))
        }
    }
}

/// Writes `text` to `path` after [`refuse_input`]; the error's kind (a refused overwrite, a failed
/// write) and its message, without the `error: ` prefix.
pub fn write_text(path: &Path, text: &str, what: &str) -> Result<(), (Code, String)> {
    refuse_input(path, what).map_err(|e| (Code::OverwriteRefused, e))?;
    std::fs::write(path, text).map_err(|e| {
        let msg = format!("cannot write {what} to `{}`: {e}", path.display());
        (Code::CannotWrite, msg)
    })
}

/// The largest file carto reads (16 MiB: a game log of the longest game is under 1 MiB).
pub(crate) const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads `path` as text; the error is a message without the `error: ` prefix.
pub fn read_text(path: &Path) -> Result<String, String> {
    read_text_limited(path, MAX_FILE_BYTES)
}

thread_local! {
    /// The folder (canonical) reads are confined to while a log is loaded, and how to name it.
    static CONFINED: std::cell::RefCell<Option<(PathBuf, String)>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with every read of this thread confined to the folder `dir` (by canonical path, so a
/// symbolic link that leads out of it is caught): a file the data names outside it is refused unread.
pub fn confined<T>(dir: &Path, f: impl FnOnce() -> T) -> T {
    let shown = match dir.as_os_str().is_empty() {
        true => ".".to_string(),
        false => dir.display().to_string(),
    };
    let canonical = std::fs::canonicalize(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    })
    .unwrap_or_else(|_| dir.to_path_buf());
    let before = CONFINED.with(|c| c.replace(Some((canonical, shown))));
    let out = f();
    CONFINED.with(|c| *c.borrow_mut() = before);
    out
}

/// Refuses a read outside the folder of [`confined`], if any.
fn check_confined(path: &Path) -> Result<(), String> {
    CONFINED.with(|c| {
        let c = c.borrow();
        let Some((dir, shown)) = c.as_ref() else {
            return Ok(());
        };
        // A file that does not exist is reported as missing by the read itself.
        let Ok(real) = std::fs::canonicalize(path) else {
            return Ok(());
        };
        if real.starts_with(dir) {
            return Ok(());
        }
        Err(format!(
            "`{}` is outside the log's folder `{shown}` (it was not read): while a log is loaded, \
             carto reads only files in its folder",
            path.display()
        ))
    })
}

/// Reads standard input as text (a log or script piped in as `-`), with the limits of [`read_text`].
pub fn read_stdin() -> Result<String, String> {
    let shown = "standard input";
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{shown} is larger than {} MiB, the most carto reads",
            MAX_FILE_BYTES >> 20
        ));
    }
    text_of(bytes, shown)
}

/// The text of a file's bytes: no NUL byte, no byte-order mark, valid UTF-8. A file that is not
/// text is refused at the first byte that is not, with its `file:line:col` and its line.
fn text_of(mut bytes: Vec<u8>, shown: &str) -> Result<String, String> {
    // A UTF-8 byte-order mark (some Windows editors write one) is not part of the text.
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    let nul = bytes.iter().position(|b| *b == 0);
    let bad = match std::str::from_utf8(&bytes) {
        Ok(_) => None,
        Err(e) => Some(e.valid_up_to()),
    };
    let at = match (nul, bad) {
        (None, None) => return Ok(String::from_utf8(bytes).unwrap_or_default()),
        (Some(n), Some(b)) => n.min(b),
        (Some(n), None) => n,
        (None, Some(b)) => b,
    };
    let what = if bytes[at] == 0 {
        "a NUL byte (0x00): this is a binary file, not text".to_string()
    } else {
        format!(
            "byte 0x{:02X} is not part of a UTF-8 character: carto reads UTF-8 text",
            bytes[at]
        )
    };
    // The bytes before `at` are text; the bad byte is shown as `�`.
    let before = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
    let line_end = bytes[at..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(bytes.len(), |i| at + i);
    let rest: String = String::from_utf8_lossy(&bytes[at + 1..line_end])
        .chars()
        .map(|c| match c.is_control() && c != '\t' {
            true => '\u{FFFD}',
            false => c,
        })
        .collect();
    let text = format!("{before}\u{FFFD}{rest}");
    let src = crate::diag::Source::new(shown, text);
    let (line, col) = src.line_col(at);
    let diag = crate::diag::Diagnostic::error(
        crate::diag::Code::Unreadable,
        at..at + '\u{FFFD}'.len_utf8(),
        "",
    )
    .with_label("not text");
    let rendered = src.render(&[diag]);
    // The rendered diagnostic without its first line (`error: `): the message says it instead. A
    // binary file's line is noise: shown only when it is mostly text.
    let snippet = rendered.split_once('\n').map_or("", |(_, s)| s);
    let noise = snippet
        .chars()
        .filter(|c| *c == '\u{FFFD}' || c.is_control() && *c != '\n')
        .count();
    let snippet = if noise > 4 { "" } else { snippet };
    Err(
        format!("{shown}:{line}:{col}: {what}\n{}", snippet.trim_end())
            .trim_end()
            .to_string(),
    )
}

/// [`read_text`] with a given size limit in bytes.
pub(crate) fn read_text_limited(path: &Path, limit: u64) -> Result<String, String> {
    check_confined(path)?;
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("no file `{shown}`"),
        _ => format!("cannot read `{shown}`: {e}"),
    })?;
    if meta.is_dir() {
        return Err(format!("`{shown}` is a directory, not a file"));
    }
    if !meta.is_file() {
        return Err(format!(
            "`{shown}` is not a regular file (a device, pipe or socket): carto reads only files"
        ));
    }
    let too_big = || {
        format!(
            "`{shown}` is larger than {} MiB, the most carto reads",
            limit >> 20
        )
    };
    if meta.len() > limit {
        return Err(too_big());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    // The file may grow after the size check: never read more than the limit.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    remember(path, &meta);
    text_of(bytes, &shown.to_string())
}

/// For a file that does not exist: the name of the nearest file beside it (a likely typo), if any.
pub fn nearest_file(path: &Path) -> Option<String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name()?.to_str()?;
    let names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(String::from))
        .take(1000)
        .collect();
    crate::diag::did_you_mean(name, names.iter().map(|n| n.as_str())).map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_and_directories() {
        let e = read_text(Path::new("/dev/zero")).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read_text(Path::new("/")).unwrap_err();
        assert!(e.contains("is a directory"), "{e}");
        let e = read_text(Path::new("/no/such/file")).unwrap_err();
        assert_eq!(e, "no file `/no/such/file`");
    }

    #[test]
    fn refuses_a_file_over_the_limit() {
        let dir = std::env::temp_dir().join(format!("carto-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("big.txt");
        std::fs::write(&p, "x".repeat(2 << 20)).unwrap();
        let e = read_text_limited(&p, 1 << 20).unwrap_err();
        assert!(
            e.ends_with("is larger than 1 MiB, the most carto reads"),
            "{e}"
        );
        // Exactly at the limit is fine.
        std::fs::write(&p, "x".repeat(1 << 20)).unwrap();
        assert_eq!(read_text_limited(&p, 1 << 20).unwrap().len(), 1 << 20);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn knows_its_inputs_by_any_name() {
        let dir = std::env::temp_dir().join(format!("carto-inputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("in.txt");
        std::fs::write(&p, "x").unwrap();
        let other = dir.join("other.txt");
        assert_eq!(input_at(&p), None);
        read_text(&p).unwrap();
        assert!(input_at(&p).is_some());
        assert!(input_at(&dir.join(".").join("in.txt")).is_some());
        assert_eq!(input_at(&other), None);
        std::fs::hard_link(&p, dir.join("hard.txt")).unwrap();
        assert!(input_at(&dir.join("hard.txt")).is_some());
        let (code, e) = write_text(&p, "y", "the log").unwrap_err();
        assert!(e.starts_with("will not write the log to"), "{e}");
        assert_eq!(code, Code::OverwriteRefused);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "x");
        write_text(&other, "y", "the log").unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
