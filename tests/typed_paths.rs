//! What the user types on the command line is theirs (issue 33 E): a path typed after `--map` may be
//! absolute or leave the current folder; the rules for strangers' files (`paths::beside`) hold for
//! the paths written inside files, which are still refused when absolute.

use crate::common::{carto_in, fresh_dir, write_file};

const MAP: &str = "name = \"Mine\"\ngrid = \"\"\"\n~~~~\n~..~\n~..~\n~~~~\n\"\"\"\n[legend]\n\"~\" = \"sea\"\n\".\" = \"land\"\n";
const RULES: &str = "import \"base\"\nvariant \"mine\" {\n  map = \"mine.toml\"\n}\n";

#[test]
fn an_absolute_map_path_typed_is_read() {
    let dir = fresh_dir("typed", "abs");
    let map = write_file(&dir.join("maps"), "mine.toml", MAP);
    let abs = map.canonicalize().unwrap();
    let abs = abs.to_str().unwrap();
    assert!(abs.starts_with('/'), "{abs}");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let (code, out, err) = carto_in(&work, &["render", "--map", abs, "-o", "map.svg"]);
    assert_eq!(code, 0, "{out}{err}");
    let svg = std::fs::read_to_string(work.join("map.svg")).unwrap();
    assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{svg}");
    write_file(&work, "my.rules", RULES);
    let (code, out, err) = carto_in(&work, &["check", "my.rules", "--map", abs]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 errors"), "{out}");
}

#[test]
fn a_map_path_typed_may_leave_the_folder() {
    let dir = fresh_dir("typed", "up");
    write_file(&dir.join("maps"), "mine.toml", MAP);
    let work = dir.join("work");
    write_file(&work, "my.rules", RULES);
    let (code, out, err) = carto_in(
        &work,
        &["render", "--map", "../maps/mine.toml", "-o", "map.svg"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(work.join("map.svg").exists());
    let (code, out, err) = carto_in(&work, &["check", "my.rules", "--map", "../maps/mine.toml"]);
    assert_eq!(code, 0, "{out}{err}");
}

/// A path written inside a file is a stranger's: a map's part and a header's map named by an
/// absolute path are still refused, whatever the command line named.
#[test]
fn an_absolute_path_inside_a_file_is_still_refused() {
    let dir = fresh_dir("typed", "inside");
    let part = write_file(&dir, "part.toml", MAP);
    let part = part.canonicalize().unwrap();
    let composite = format!(
        "[[part]]\nmap = \"{}\"\noffset = [0, 0]\n",
        part.to_str().unwrap()
    );
    let outer = write_file(&dir, "outer.toml", composite);
    let outer = outer.canonicalize().unwrap();
    let (code, out, err) = carto_in(
        &dir,
        &["render", "--map", outer.to_str().unwrap(), "-o", "x.svg"],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("is an absolute path"), "{err}");
    assert!(!dir.join("x.svg").exists());
    let rules = format!(
        "import \"base\"\nvariant \"mine\" {{\n  map = \"{}\"\n}}\n",
        part.to_str().unwrap()
    );
    write_file(&dir, "abs.rules", rules);
    let (code, out, err) = carto_in(&dir, &["check", "abs.rules"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("is an absolute path"),
        "{out}{err}"
    );
}

/// A file whose name is not UTF-8 (Linux names are bytes) is read by the commands that read files:
/// `check` (rules, a script, a log), `run`, `replay`, `view` and `render`; messages show its name
/// with `�`.
#[test]
#[cfg(unix)]
fn a_file_whose_name_is_not_utf8_is_read() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;
    let dir = fresh_dir("typed", "bytes");
    let run = |args: &[&OsStr]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_carto"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let os = |s: &'static str| OsStr::new(s);
    let rules = OsStr::from_bytes(b"caf\xe9.rules");
    std::fs::write(dir.join(rules), RULES.replace("mine.toml", "france")).unwrap();
    let (code, out, err) = run(&[os("check"), rules]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.starts_with("caf\u{FFFD}.rules: 0 errors"), "{out}");
    let script = OsStr::from_bytes(b"partie-\xe9t\xe9.script");
    std::fs::write(
        dir.join(script),
        "variant base\nplayers ann, bob\nseed 1\ntiles F, E, U\nplace F at 0,-1 r90\nfollower city N+S\n",
    )
    .unwrap();
    let (code, out, err) = run(&[os("run"), script, os("--log"), os("g.log")]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = run(&[os("check"), script]);
    assert_eq!(code, Some(0), "{out}{err}");
    let log = OsStr::from_bytes(b"partie-\xe9t\xe9.log");
    std::fs::rename(dir.join("g.log"), dir.join(log)).unwrap();
    let (code, out, err) = run(&[os("replay"), log]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("the replay is identical"), "{out}");
    let (code, out, err) = run(&[os("view"), log, os("-o"), os("v.html")]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(std::fs::read_to_string(dir.join("v.html"))
        .unwrap()
        .contains("<html"));
    let (code, out, err) = run(&[os("render"), log, os("-o"), os("r.svg")]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = run(&[os("check"), log]);
    assert_eq!(code, Some(0), "{out}{err}");
    // A file that is missing is said with its name shown.
    let (code, _, err) = run(&[os("replay"), OsStr::from_bytes(b"no-\xe9.log")]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no-\u{FFFD}.log"), "{err}");
}

/// Runs carto in `dir` with arguments that may be any bytes: (exit code, stdout, stderr).
#[cfg(unix)]
fn run_bytes(dir: &std::path::Path, args: &[&[u8]]) -> (Option<i32>, String, String) {
    use std::os::unix::ffi::OsStrExt as _;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_carto"))
        .args(args.iter().map(|a| std::ffi::OsStr::from_bytes(a)))
        .current_dir(dir)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A folder holding base's rules under a name that is not UTF-8 (`b\xe9se.rules`).
#[cfg(unix)]
fn bytes_dir(name: &str) -> std::path::PathBuf {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = fresh_dir("typed", name);
    let rules = std::ffi::OsStr::from_bytes(b"b\xe9se.rules");
    std::fs::write(dir.join(rules), "import \"base\"\nvariant \"bese\" {}\n").unwrap();
    dir
}

/// The bytes of a file name in `dir` exist as a file.
#[cfg(unix)]
fn exists(dir: &std::path::Path, name: &[u8]) -> bool {
    use std::os::unix::ffi::OsStrExt as _;
    dir.join(std::ffi::OsStr::from_bytes(name)).is_file()
}

#[test]
#[cfg(unix)]
fn play_reads_and_logs_to_names_that_are_not_utf8() {
    let dir = bytes_dir("bytes_play");
    let (code, out, err) = run_bytes(
        &dir,
        &[
            b"play",
            b"b\xe9se.rules",
            b"--log",
            b"g\xe9.log",
            b"--quiet",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("ann: "), "{out}");
    assert!(exists(&dir, b"g\xe9.log"));
    // The log replays with the rules named on the command line.
    let (code, out, err) = run_bytes(
        &dir,
        &[b"replay", b"g\xe9.log", b"--rules", b"b\xe9se.rules"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    // A run's log too.
    std::fs::write(
        dir.join("s.script"),
        "variant base\nplayers ann, bob\nseed 1\ntiles F, E, U\nplace F at 0,-1 r90\n",
    )
    .unwrap();
    let (code, out, err) = run_bytes(&dir, &[b"run", b"s.script", b"--log", b"r\xe9.log"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(exists(&dir, b"r\xe9.log"));
    // A missing one is said with its name shown.
    let (code, _, err) = run_bytes(&dir, &[b"play", b"n\xe9.rules"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("n\u{FFFD}.rules"), "{err}");
}

#[test]
#[cfg(unix)]
fn doc_reads_and_writes_names_that_are_not_utf8() {
    let dir = bytes_dir("bytes_doc");
    let (code, out, err) = run_bytes(&dir, &[b"doc", b"b\xe9se.rules"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("bese"), "{out}");
    let (code, out, err) = run_bytes(&dir, &[b"doc", b"base", b"--out", b"d\xe9"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(exists(&dir, b"d\xe9/base.md"));
}

#[test]
#[cfg(unix)]
fn sim_reads_and_writes_names_that_are_not_utf8() {
    let dir = bytes_dir("bytes_sim");
    let (code, out, err) = run_bytes(
        &dir,
        &[
            b"sim",
            b"b\xe9se.rules",
            b"--games",
            b"2",
            b"--quiet",
            b"--vs-rules",
            b"b\xe9se.rules",
            b"--per-game",
            b"p\xe9.csv",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.starts_with("b\u{FFFD}se.rules: 2 games"), "{out}");
    assert!(exists(&dir, b"p\xe9.csv"));
    let (code, out, err) = run_bytes(
        &dir,
        &[
            b"sim",
            b"base",
            b"--games",
            b"2",
            b"--quiet",
            b"--sweep",
            b"farm_city=3..4",
            b"--plot",
            b"c\xe9.svg",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(exists(&dir, b"c\xe9.svg"));
    let (code, json, err) = run_bytes(
        &dir,
        &[b"sim", b"base", b"--games", b"2", b"--format", b"json"],
    );
    assert_eq!(code, Some(0), "{err}");
    std::fs::write(
        dir.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"s\xe9.json")),
        json,
    )
    .unwrap();
    let (code, out, err) = run_bytes(&dir, &[b"sim", b"merge", b"s\xe9.json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.starts_with("base: 2 games"), "{out}");
}

#[test]
#[cfg(unix)]
fn tune_and_bench_read_names_that_are_not_utf8() {
    let dir = fresh_dir("typed", "bytes_tune");
    let rules = format!("{}/examples/compensation.rules", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(rules).unwrap();
    std::fs::write(
        dir.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"k\xe9.rules")),
        text,
    )
    .unwrap();
    let (code, json, err) = run_bytes(
        &dir,
        &[
            b"tune",
            b"k\xe9.rules",
            b"k=0..1",
            b"--target",
            b"balance",
            b"--first-game",
            b"0",
            b"--games",
            b"4",
            b"--format",
            b"json",
            b"--quiet",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    std::fs::write(
        dir.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"t\xe9.json")),
        json,
    )
    .unwrap();
    let (code, out, err) = run_bytes(&dir, &[b"tune", b"merge", b"t\xe9.json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("best: k="), "{out}");
    let (code, out, err) = run_bytes(&dir, &[b"bench", b"k\xe9.rules", b"--games", b"2"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("k\u{FFFD}.rules"), "{out}");
}

#[test]
#[cfg(unix)]
fn render_and_view_write_names_that_are_not_utf8() {
    let dir = bytes_dir("bytes_render");
    let (code, out, err) = run_bytes(&dir, &[b"render", b"--map", b"france", b"-o", b"m\xe9.svg"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(exists(&dir, b"m\xe9.svg"));
    let (code, out, err) = run_bytes(
        &dir,
        &[b"play", b"b\xe9se.rules", b"--log", b"g.log", b"--quiet"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    for (cmd, out_name) in [
        (&b"render"[..], &b"g\xe9.svg"[..]),
        (b"view", b"g\xe9.html"),
    ] {
        let (code, out, err) = run_bytes(
            &dir,
            &[cmd, b"g.log", b"--rules", b"b\xe9se.rules", b"-o", out_name],
        );
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(exists(&dir, out_name));
    }
}

#[test]
#[cfg(unix)]
fn a_map_typed_may_have_a_name_that_is_not_utf8() {
    let dir = fresh_dir("typed", "bytes_map");
    std::fs::write(
        dir.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"m\xe9.toml")),
        MAP,
    )
    .unwrap();
    let (code, out, err) = run_bytes(&dir, &[b"render", b"--map", b"m\xe9.toml", b"-o", b"m.svg"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(exists(&dir, b"m.svg"));
    std::fs::write(dir.join("v.rules"), "import \"base\"\nvariant \"v\" {}\n").unwrap();
    let (code, out, err) = run_bytes(&dir, &[b"check", b"v.rules", b"--map", b"m\xe9.toml"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // A broken one is named with `�`.
    std::fs::write(
        dir.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"b\xe9.toml")),
        "grid = 3\n",
    )
    .unwrap();
    let (code, _, err) = run_bytes(&dir, &[b"check", b"v.rules", b"--map", b"b\xe9.toml"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("b\u{FFFD}.toml"), "{err}");
}

#[test]
#[cfg(unix)]
fn fmt_rewrites_a_file_whose_name_is_not_utf8() {
    let dir = fresh_dir("typed", "bytes_fmt");
    let name = <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"f\xe9.rules");
    std::fs::write(dir.join(name), "import   \"base\"\nvariant \"f\" {}\n").unwrap();
    let (code, out, err) = run_bytes(&dir, &[b"fmt", b"--check", b"f\xe9.rules"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.starts_with("f\u{FFFD}.rules:1: not formatted"), "{out}");
    let (code, out, err) = run_bytes(&dir, &[b"fmt", b"f\xe9.rules"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out, "f\u{FFFD}.rules: formatted\n");
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    assert!(text.starts_with("import \"base\"\n"), "{text}");
    // Nothing is left beside it.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}
