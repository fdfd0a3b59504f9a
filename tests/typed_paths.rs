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
