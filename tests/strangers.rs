//! Files from strangers (issue 18): no command writes onto a file it read, whatever name the output
//! is given (the same name, `./name`, a hard link, a symbolic link); a variant's name is a name, and
//! names shown on a line (titles, players) hold no control characters. Each case runs the built
//! binary in a folder of its own and checks that the input is left intact.

mod common;

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
