//! Reading a user's file: only regular files, at most [`MAX_FILE_BYTES`], valid UTF-8 text. Every
//! file carto reads from disk (rules, imports, maps, map parts, tile sets, scripts, logs) comes
//! through here, so `/dev/zero`, a FIFO or a huge file gets one clear message instead of exhausting
//! memory.

use std::io::Read;
use std::path::Path;

/// The largest file carto reads (16 MiB: a game log of the longest game is under 1 MiB).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads `path` as text; the error is a message without the `error: ` prefix.
pub fn read_text(path: &Path) -> Result<String, String> {
    read_text_limited(path, MAX_FILE_BYTES)
}

/// [`read_text`] with a given size limit in bytes.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String, String> {
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
    if bytes.contains(&0) {
        return Err(format!("`{shown}` is a binary file, not text"));
    }
    // A UTF-8 byte-order mark (some Windows editors write one) is not part of the text.
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{shown}` is not valid UTF-8 (byte {} is not part of a character)",
            e.utf8_error().valid_up_to()
        )
    })
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
}
