//! Every scripted game under `tests/scripts/` is played and its transcript snapshotted (insta).
//! A script's own `expect` lines are assertions too: a failing one fails the test with the script's
//! line. Scripts under a folder named `fail/`, or named `fail_*.script`, must fail; their error
//! message is snapshotted instead. A script names its rules file in its own folder or below it (never
//! `../x.rules`), so a failing script that needs a rules file of its variant's folder sits beside it
//! as `fail_NAME.script`.

use carto::diag::Source;
use carto::script::run_script;
use std::path::{Path, PathBuf};

fn scripts(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scripts(&p, out);
        } else if p.extension().is_some_and(|e| e == "script") {
            out.push(p);
        }
    }
}

#[test]
fn scripted_games() {
    let mut files = Vec::new();
    scripts(Path::new("tests/scripts"), &mut files);
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let src = Source::new(name.clone(), text.clone());
        let must_fail = path.components().any(|c| c.as_os_str() == "fail")
            || path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("fail_"));
        let body = match (run_script(&src), must_fail) {
            (Ok(run), false) => format!(
                "{}{}",
                run.warnings_text(),
                carto::output::transcript(&run.game)
            ),
            (Err(e), true) => e.text,
            (Ok(_), true) => {
                failures.push(format!("{name}: should have failed but ran"));
                continue;
            }
            (Err(e), false) => {
                failures.push(format!("{name}:\n{}", e.text));
                continue;
            }
        };
        let snap = name
            .trim_start_matches("tests/scripts/")
            .trim_end_matches(".script")
            .replace('/', "__");
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("scripts/snapshots");
        settings.set_prepend_module_to_snapshot(false);
        settings.set_description(name.clone());
        settings.bind(|| {
            insta::assert_snapshot!(
                snap,
                format!("----- SCRIPT\n{text}\n----- TRANSCRIPT\n{body}")
            );
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
