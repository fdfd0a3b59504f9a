//! Files from strangers (issue 18): no command writes onto a file it read, whatever name the output
//! is given (the same name, `./name`, a hard link, a symbolic link); a variant's name is a name, and
//! names shown on a line (titles, players) hold no control characters. Each case runs the built
//! binary in a folder of its own and checks that the input is left intact.

use crate::common;

use common::{carto_in, fresh_dir, write_file};
use std::path::Path;

const RULES: &str = "import \"base\"\nvariant \"mine\" {\n  title = \"Mine\"\n}\n";

/// Runs carto in `dir`; asserts it exits 1 refusing to write onto an input, and that `input` still
/// holds `text`.
fn refused(dir: &Path, args: &[&str], input: &str, text: &str) {
    let (code, _, err) = carto_in(dir, args);
    assert_eq!(code, 1, "{args:?}: {err}");
    assert!(
        err.contains("it is a file this command read")
            && err.contains("carto never writes onto its input"),
        "{args:?}: {err}"
    );
    let now = std::fs::read_to_string(dir.join(input)).unwrap();
    assert_eq!(now, text, "{args:?} changed {input}");
}

#[test]
fn play_never_writes_its_log_onto_its_rules() {
    let dir = fresh_dir("strangers", "play");
    write_file(&dir, "my.rules", RULES);
    std::fs::hard_link(dir.join("my.rules"), dir.join("hard")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("my.rules", dir.join("sym")).unwrap();
    let up = format!("../{}/my.rules", dir.file_name().unwrap().to_str().unwrap());
    for out in ["my.rules", "./my.rules", &up, "hard", "sym"] {
        if out == "sym" && !cfg!(unix) {
            continue;
        }
        let args = ["play", "my.rules", "--quiet", "--log", out];
        refused(&dir, &args, "my.rules", RULES);
    }
    // Another name is written.
    let (code, _, err) = carto_in(&dir, &["play", "my.rules", "--quiet", "--log", "g.log"]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(dir.join("g.log"))
        .unwrap()
        .contains("game_start"));
}

#[test]
fn run_render_view_sim_and_doc_never_write_onto_their_input() {
    let dir = fresh_dir("strangers", "others");
    let script = "variant my.rules\nseed 2\nrest random\n";
    write_file(&dir, "my.rules", RULES);
    write_file(&dir, "s.script", script);
    refused(
        &dir,
        &["run", "s.script", "--log", "s.script"],
        "s.script",
        script,
    );
    // The rules the script names are an input too.
    refused(
        &dir,
        &["run", "s.script", "--log", "./my.rules"],
        "my.rules",
        RULES,
    );
    let (code, _, err) = carto_in(&dir, &["run", "s.script", "--log", "g.log"]);
    assert_eq!(code, 0, "{err}");
    let log = std::fs::read_to_string(dir.join("g.log")).unwrap();
    refused(&dir, &["render", "g.log", "-o", "g.log"], "g.log", &log);
    refused(&dir, &["view", "g.log", "-o", "./g.log"], "g.log", &log);
    // The log names the rules: they are read too.
    refused(
        &dir,
        &["view", "g.log", "-o", "my.rules"],
        "my.rules",
        RULES,
    );
    refused(
        &dir,
        &["render", "s.script", "-o", "s.script"],
        "s.script",
        script,
    );
    let args = ["sim", "my.rules", "--games", "2", "--per-game", "my.rules"];
    refused(&dir, &args, "my.rules", RULES);
    // `sim --plot` neither (the chart of a sweep).
    let args = [
        "sim",
        "my.rules",
        "--games",
        "2",
        "--sweep",
        "followers=6..7",
        "--plot",
        "./my.rules",
    ];
    refused(&dir, &args, "my.rules", RULES);
    // `doc --out` writes NAME.md: here that is the rules file itself.
    write_file(&dir, "out/mine.md", RULES);
    let args = ["doc", "out/mine.md", "--out", "out"];
    refused(&dir, &args, "out/mine.md", RULES);
}

#[test]
fn a_variants_name_is_a_name() {
    let dir = fresh_dir("strangers", "names");
    for (i, name) in ["../x", "/tmp/x", "", "a b", "a\\nb"].iter().enumerate() {
        let file = format!("v{i}.rules");
        write_file(
            &dir,
            &file,
            format!("import \"base\"\nvariant \"{name}\" {{\n}}\n"),
        );
        let (code, _, err) = carto_in(&dir, &["doc", &file, "--out", "pages"]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(
            err.contains("a variant's name must be a name") && err.contains(&format!("{file}:2:9")),
            "{name}: {err}"
        );
    }
    // Nothing was written anywhere: not in the folder, not beside it.
    assert!(!dir.join("pages").exists());
    assert!(!dir.join("x.md").exists());
}

#[test]
fn titles_and_player_names_hold_no_control_characters() {
    let dir = fresh_dir("strangers", "control");
    write_file(
        &dir,
        "t.rules",
        "import \"base\"\nvariant \"t\" {\n  title = \"a\\nb\"\n}\n",
    );
    let (code, _, err) = carto_in(&dir, &["check", "t.rules"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the title holds the character U+000A") && err.contains("t.rules:3:3"),
        "{err}"
    );
    let (code, _, err) = carto_in(&dir, &["play", "base", "--players", "a\nb,c"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("player name 1 of 2 holds the character U+000A"),
        "{err}"
    );
    write_file(&dir, "s.script", "variant base\nplayers ann, b\u{1b}c\n");
    let (code, _, err) = carto_in(&dir, &["run", "s.script"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("holds the character U+001B") && err.contains("s.script:2:1"),
        "{err}"
    );
    let (code, _, err) = carto_in(&dir, &["play", "base", "--quiet", "--log", "g.log"]);
    assert_eq!(code, 0, "{err}");
    let log = std::fs::read_to_string(dir.join("g.log")).unwrap();
    write_file(&dir, "bad.log", log.replacen("\"ann\"", "\"a\\nn\"", 1));
    for cmd in ["replay", "render", "view"] {
        let (code, _, err) = carto_in(&dir, &[cmd, "bad.log"]);
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.contains("bad.log:1:1: player name `a\\nn` holds"),
            "{cmd}: {err}"
        );
    }
}

/// Runs carto in `dir` with `input` on standard input; (exit code, stdout, stderr).
fn carto_stdin(dir: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_carto"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A log of a game of `my.rules` (in `dir`), written beside it as `g.log`; its text.
fn logged_game(dir: &Path) -> String {
    write_file(dir, "my.rules", RULES);
    let (code, _, err) = carto_in(dir, &["play", "my.rules", "--quiet", "--log", "g.log"]);
    assert_eq!(code, 0, "{err}");
    let log = std::fs::read_to_string(dir.join("g.log")).unwrap();
    assert!(log.starts_with("{\"event\":\"game_start\""), "{log}");
    assert!(log.contains("\"rules\":\"my.rules\""), "{log}");
    log
}

#[test]
fn a_log_names_its_rules_in_its_own_folder() {
    let dir = fresh_dir("strangers", "log-rules");
    let log = logged_game(&dir);
    let cases = [
        ("/etc/passwd", "an absolute path"),
        ("../my.rules", "a path that leaves the log's folder"),
        ("sub/../../my.rules", "a path that leaves the log's folder"),
        ("g.log", "not a rules file"),
    ];
    for (rules, why) in cases {
        let bad = log.replacen(
            "\"rules\":\"my.rules\"",
            &format!("\"rules\":\"{rules}\""),
            1,
        );
        write_file(&dir, "bad.log", &bad);
        for cmd in ["replay", "render", "view"] {
            let (code, out, err) = carto_in(
                &dir,
                &[cmd, "bad.log", "-o", "x"][..if cmd == "replay" { 2 } else { 4 }],
            );
            assert_eq!(code, 1, "{cmd} {rules}: {err}");
            assert!(
                err.contains(&format!(
                    "bad.log:1:1: the log's `rules` is `{rules}`, {why}"
                )) && err.contains("(it was not read)"),
                "{cmd} {rules}: {err}"
            );
            // Nothing of the file is quoted (the first line of /etc/passwd names root).
            assert!(!err.contains("root") && !out.contains("root"), "{err}");
        }
    }
    assert!(!dir.join("x").exists());
}

#[test]
#[cfg(unix)]
fn a_log_loads_nothing_outside_its_folder() {
    let dir = fresh_dir("strangers", "confined");
    logged_game(&dir);
    // The log in a folder of its own, its rules a symbolic link to the rules outside it.
    std::fs::create_dir_all(dir.join("logs")).unwrap();
    std::fs::copy(dir.join("g.log"), dir.join("logs/g.log")).unwrap();
    std::os::unix::fs::symlink("../my.rules", dir.join("logs/my.rules")).unwrap();
    for cmd in ["replay", "render", "view"] {
        let (code, _, err) = carto_in(&dir, &[cmd, "logs/g.log"]);
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.contains("`logs/my.rules` is outside the log's folder `logs` (it was not read)"),
            "{cmd}: {err}"
        );
    }
    // Rules beside the log that import a file outside it: by `..` (refused in any file), or through a
    // symbolic link beside it that leads out (refused by the confinement).
    std::fs::remove_file(dir.join("logs/my.rules")).unwrap();
    write_file(&dir, "logs/my.rules", "import \"../my.rules\"\n");
    let (code, _, err) = carto_in(&dir, &["replay", "logs/g.log"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("leaves the folder of the file that names it"),
        "{err}"
    );
    write_file(&dir, "logs/my.rules", "import \"lib.rules\"\n");
    std::os::unix::fs::symlink("../my.rules", dir.join("logs/lib.rules")).unwrap();
    let (code, _, err) = carto_in(&dir, &["replay", "logs/g.log"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is outside the log's folder `logs`"), "{err}");
    // `--rules` names rules from anywhere.
    for cmd in ["replay", "render", "view"] {
        let (code, _, err) = carto_in(
            &dir,
            &[cmd, "logs/g.log", "--rules", "my.rules", "-o", "out"]
                [..if cmd == "replay" { 4 } else { 6 }],
        );
        assert_eq!(code, 0, "{cmd}: {err}");
    }
    // A log written away from its rules says it will need `--rules`.
    let (code, _, err) = carto_in(
        &dir,
        &["play", "my.rules", "--quiet", "--log", "logs/h.log"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: the log names its rules as `../my.rules`, outside its folder"),
        "{err}"
    );
}

#[test]
fn render_and_view_draw_only_a_log_that_replays() {
    let dir = fresh_dir("strangers", "verify");
    let log = logged_game(&dir);
    // ann's final score, edited.
    let end = log.lines().last().unwrap();
    let edited_end = end.replacen("\"scores\":{\"ann\":", "\"scores\":{\"ann\":9", 1);
    assert_ne!(end, edited_end, "{end}");
    write_file(&dir, "edited.log", log.replace(end, &edited_end));
    let last = log.lines().count();
    for cmd in ["replay", "render", "view"] {
        let (code, out, err) = carto_in(
            &dir,
            &[cmd, "edited.log", "-o", "x"][..if cmd == "replay" { 2 } else { 4 }],
        );
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.contains(&format!("edited.log:{last}:1: the replay differs here")),
            "{cmd}: {err}"
        );
        assert!(out.is_empty(), "{cmd}: {out}");
    }
    assert!(!dir.join("x").exists());
    for cmd in ["render", "view"] {
        let (code, _, err) = carto_in(&dir, &[cmd, "edited.log", "--draw-anyway", "-o", "x"]);
        assert_eq!(code, 0, "{cmd}: {err}");
        assert!(
            err.starts_with(&format!(
                "warning: edited.log:{last}:1: the replay differs here"
            )) && err.contains("drawing the replay, not the log's values (--draw-anyway)"),
            "{cmd}: {err}"
        );
        assert!(std::fs::metadata(dir.join("x")).unwrap().len() > 1000);
    }
}

#[test]
fn a_dash_is_standard_input_or_output() {
    let dir = fresh_dir("strangers", "dash");
    let (code, log, err) = carto_in(&dir, &["play", "base", "--seed", "4", "--log", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(log.starts_with("{\"event\":\"game_start\""), "{log}");
    assert!(
        log.lines().all(|l| l.starts_with('{')),
        "only the log: {log}"
    );
    assert!(!dir.join("-").exists());
    let (code, out, err) = carto_stdin(&dir, &["replay", "-"], &log);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("<stdin>: ") && out.contains("the replay is identical"),
        "{out}"
    );
    let (code, svg, err) = carto_stdin(&dir, &["render", "-", "-o", "-"], &log);
    assert_eq!(code, 0, "{err}");
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..svg.len().min(80)]
    );
    let (code, html, err) = carto_stdin(&dir, &["view", "-"], &log);
    assert_eq!(code, 0, "{err}");
    assert!(
        html.starts_with("<!DOCTYPE html>"),
        "{}",
        &html[..html.len().min(80)]
    );
    write_file(&dir, "s.script", "variant base\nseed 2\nrest random\n");
    let (code, log, err) = carto_in(&dir, &["run", "s.script", "--log", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(log.lines().all(|l| l.starts_with('{')), "{log}");
    let (code, out, err) = carto_stdin(&dir, &["run", "-"], "variant base\nseed 2\nrest random\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final"), "{out}");
    assert!(!dir.join("-").exists());
}

#[test]
#[cfg(unix)]
fn render_and_view_on_a_terminal_write_a_file() {
    // `script` gives carto a terminal for standard output.
    if !Path::new("/usr/bin/script").exists() {
        eprintln!("no /usr/bin/script: skipped");
        return;
    }
    let dir = fresh_dir("strangers", "terminal");
    logged_game(&dir);
    let bin = env!("CARGO_BIN_EXE_carto");
    for (cmd, file) in [("render", "g.svg"), ("view", "g.html")] {
        let line = format!("{bin} {cmd} g.log");
        let out = std::process::Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{said}");
        assert!(
            said.contains(&format!("wrote {file} (standard output is a terminal")),
            "{said}"
        );
        assert!(
            said.len() < 300,
            "the drawing went to the terminal: {}",
            said.len()
        );
        assert!(std::fs::metadata(dir.join(file)).unwrap().len() > 1000);
    }
}

#[test]
#[cfg(target_os = "linux")]
fn help_and_version_to_a_full_disk_fail() {
    for args in [&["--help"][..], &["--version"], &["play", "--help"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_carto"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
    // To a pipe, as ever.
    let (code, out, _) = carto_in(Path::new("."), &["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("carto "), "{out}");
}

#[test]
fn what_carto_prints_as_a_value_it_accepts() {
    let dir = fresh_dir("strangers", "set");
    let (code, _, err) = carto_in(&dir, &["play", "ukraine", "--set", "trade=many"]);
    assert_eq!(code, 1, "{err}");
    let shown = "trade={1: 1, 2: 3, 3: 6, 4: 10}";
    assert!(err.contains(&format!("(its default: `{shown}`)")), "{err}");
    let (code, _, err) = carto_in(&dir, &["play", "ukraine", "--quiet", "--set", shown]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn diagnostics_in_colour_when_asked() {
    let dir = fresh_dir("strangers", "colour");
    write_file(
        &dir,
        "v.rules",
        "import \"base\"\nvariant \"v\" {\n  nope = 1\n}\n",
    );
    let (code, _, plain) = carto_in(&dir, &["check", "v.rules"]);
    assert_eq!(code, 1);
    assert!(
        plain.contains("unknown header key") && !plain.contains('\u{1b}'),
        "{plain}"
    );
    let (code, _, never) = carto_in(&dir, &["check", "v.rules", "--color", "never"]);
    assert_eq!((code, &never), (1, &plain));
    let (code, _, coloured) = carto_in(&dir, &["--color", "always", "check", "v.rules"]);
    assert_eq!(code, 1);
    assert!(coloured.contains("\u{1b}["), "{coloured}");
    // Without its colours, the same text.
    let mut stripped = String::new();
    let mut rest = coloured.as_str();
    while let Some(i) = rest.find('\u{1b}') {
        stripped.push_str(&rest[..i]);
        let end = rest[i..].find('m').unwrap();
        rest = &rest[i + end + 1..];
    }
    stripped.push_str(rest);
    assert_eq!(stripped, plain);
    let (code, _, err) = carto_in(&dir, &["check", "v.rules", "--color", "sometimes"]);
    assert_eq!(code, 2, "{err}");
}

/// A rules file or a script names only files of the kind it needs, relative to itself: a map or
/// tile set `.toml`, an import or a script's variant `.rules`. Any other file (`../../etc/passwd`)
/// is refused unread, so its first line is never quoted; an absolute path is refused.
#[test]
fn a_file_names_only_files_of_its_kind() {
    let dir = fresh_dir("strangers", "kinds");
    write_file(&dir, "secret", "the first line of a secret\n");
    let header = |key: &str, value: &str| {
        format!("import \"base\"\nvariant \"e\" {{\n  title = \"E\"\n  {key} = {value}\n}}\n")
    };
    let cases = [
        (
            "map.rules",
            header("map", "\"../kinds/secret\""),
            "is not a `.toml` file",
        ),
        (
            "tiles.rules",
            header("tiles", "[\"./secret\"]"),
            "is not a `.toml` file",
        ),
        (
            "import.rules",
            "import \"./secret\"\n".to_string(),
            "is not a `.rules` file",
        ),
        (
            "abs.rules",
            header("map", "\"/etc/passwd.toml\""),
            "is an absolute path",
        ),
    ];
    for (file, text, says) in &cases {
        write_file(&dir, file, text);
        let (code, _, err) = carto_in(&dir, &["check", file]);
        assert_eq!(code, 1, "{file}: {err}");
        assert!(
            err.contains(says) && err.contains(&format!("{file}:")),
            "{file}: {err}"
        );
        assert!(
            !err.contains("secret\n") && !err.contains("first line"),
            "{file}: {err}"
        );
    }
    for (script, says) in [
        ("variant ../kinds/secret\n", "is not a `.rules` file"),
        ("variant /etc/passwd.rules\n", "is an absolute path"),
    ] {
        write_file(&dir, "s.script", script);
        let (code, _, err) = carto_in(&dir, &["run", "s.script"]);
        assert_eq!(code, 1, "{script}: {err}");
        assert!(
            err.contains(says) && err.contains("s.script:1:1"),
            "{script}: {err}"
        );
        assert!(!err.contains("first line"), "{err}");
    }
}

/// Nor a file outside its own folder: an import, a map, a tile set or a script's variant that leaves
/// it (`..`) is refused unread, as a log's rules are (`../../.cargo/credentials.toml` is a `.toml`).
/// A file in a folder below is read.
#[test]
fn a_file_names_files_only_in_its_folder_or_below() {
    let dir = fresh_dir("strangers", "updir");
    write_file(&dir, "lib.rules", "rule secret_rule on placed {\n}\n");
    write_file(&dir, "secret.toml", "token = \"the secret token\"\n");
    let header = |key: &str, value: &str| {
        format!("import \"base\"\nvariant \"e\" {{\n  title = \"E\"\n  {key} = {value}\n}}\n")
    };
    let cases = [
        (
            "import.rules",
            "import \"../lib.rules\"\n".to_string(),
            "1:8",
        ),
        ("map.rules", header("map", "\"../secret.toml\""), "4:9"),
        (
            "tiles.rules",
            header("tiles", "[\"base\", \"../secret.toml\"]"),
            "4:3",
        ),
    ];
    for (file, text, at) in &cases {
        write_file(&dir, &format!("sub/{file}"), text);
        let (code, _, err) = carto_in(&dir.join("sub"), &["check", file]);
        assert_eq!(code, 1, "{file}: {err}");
        assert!(
            err.contains("leaves the folder") && err.contains(&format!("{file}:{at}")),
            "{file}: {err}"
        );
        assert!(
            !err.contains("secret token") && !err.contains("secret_rule"),
            "{file}: {err}"
        );
    }
    write_file(&dir, "sub/s.script", "variant ../lib.rules\n");
    let (code, _, err) = carto_in(&dir.join("sub"), &["run", "s.script"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("leaves the folder") && err.contains("s.script:1:1"),
        "{err}"
    );
    // Below its folder is where a file may name files.
    write_file(&dir, "sub/lib/house.rules", RULES);
    write_file(&dir, "sub/ok.script", "variant lib/house.rules\nseed 1\n");
    let (code, _, err) = carto_in(&dir.join("sub"), &["run", "ok.script"]);
    assert_eq!(code, 0, "{err}");
}
