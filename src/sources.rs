//! What a game's rules were read from, so a log can be replayed from any folder and say when its
//! rules changed: every file loaded for a variant (the rules file, what it imports, the map, the
//! map's parts, the tile sets; bundled ones too) with a SHA-256 of its text, for `game_start`'s
//! `sources`; the rules' path as the log writes it (relative to the log's folder); and the
//! differences between the files a log names and the files read now.

use crate::diag::Source;
use crate::lang::check::{BundledRules, RulesResolver};
use crate::map::{BundledResolver, MapResolver};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// The prefix of a bundled file's key in `sources` (`bundled:rules/base.rules`).
pub(crate) const BUNDLED: &str = "bundled:";

pub use crate::game::SourceFile;

/// The files read while loading one variant, recorded as they are resolved.
pub struct Sources {
    root: PathBuf,
    files: RefCell<BTreeMap<String, SourceFile>>,
    /// The texts, by the name carto read them under (to point into them after loading).
    texts: RefCell<BTreeMap<String, Source>>,
}

impl Sources {
    /// Starts a record for the rules file `rules` (`bundled` when it is built into carto).
    pub(crate) fn new(rules: &Source, bundled: bool) -> Self {
        let root = if bundled {
            PathBuf::new()
        } else {
            Path::new(&rules.name)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default()
        };
        let s = Sources {
            root,
            files: RefCell::new(BTreeMap::new()),
            texts: RefCell::new(BTreeMap::new()),
        };
        s.record(rules, bundled);
        s
    }

    /// Records one file; a bundled one under the path it has in carto's source tree.
    pub(crate) fn record(&self, src: &Source, bundled: bool) {
        let key = if bundled {
            format!("{BUNDLED}{}", src.name)
        } else {
            let p = Path::new(&src.name);
            let rel = p.strip_prefix(&self.root).unwrap_or(p);
            slashed(rel)
        };
        let file = SourceFile {
            key: key.clone(),
            hash: sha256(&src.text),
            shown: src.name.clone(),
        };
        self.files.borrow_mut().insert(key, file);
        self.texts
            .borrow_mut()
            .insert(src.name.clone(), src.clone());
    }

    /// The files recorded, by key, and their texts, by name.
    pub(crate) fn into_parts(self) -> (Vec<SourceFile>, Vec<Source>) {
        (
            self.files.into_inner().into_values().collect(),
            self.texts.into_inner().into_values().collect(),
        )
    }
}

/// `sha256:` and the hex digest of `text`.
pub(crate) fn sha256(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn slashed(p: &Path) -> String {
    let parts: Vec<String> = p
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if p.is_absolute() {
        p.display().to_string()
    } else {
        parts.join("/")
    }
}

/// Resolves imports and tile sets as [`BundledRules`] does, recording every file it returns.
pub(crate) struct RecordingRules<'a>(pub &'a Sources);

impl RulesResolver for RecordingRules<'_> {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        let src = BundledRules.resolve(name, from)?;
        let bundled = !(name.contains('/') || name.ends_with(".rules"));
        self.0.record(&src, bundled);
        Ok(src)
    }

    fn tile_set(&self, path: &str, from: &Source) -> Option<Result<Source, String>> {
        let r = BundledRules.tile_set(path, from)?;
        if let Ok(src) = &r {
            self.0.record(src, false);
        }
        Some(r)
    }
}

/// Resolves map parts as [`BundledResolver`] does, recording every file it returns.
pub(crate) struct RecordingMaps<'a>(pub &'a Sources);

impl MapResolver for RecordingMaps<'_> {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        let src = BundledResolver.resolve(name, from)?;
        match crate::map::bundled_map(name) {
            Some(text) => self
                .0
                .record(&Source::new(format!("maps/{name}.toml"), text), true),
            None => self.0.record(&src, false),
        }
        Ok(src)
    }
}

/// The rules path a log written to `log` records: a bundled name as it is; a path relative to the
/// log's folder, so the log replays from any folder while it stays beside its rules.
pub fn rules_for_log(rules: &str, log: &Path) -> String {
    if is_bundled(rules) {
        return rules.to_string();
    }
    let abs = |p: &Path| std::fs::canonicalize(p).ok();
    let dir = log.parent().filter(|d| !d.as_os_str().is_empty());
    let (Some(file), Some(dir)) = (abs(Path::new(rules)), abs(dir.unwrap_or(Path::new("."))))
    else {
        return rules.to_string();
    };
    relative(&file, &dir)
        .map(|p| slashed(&p))
        .unwrap_or_else(|| file.display().to_string())
}

/// `to` relative to the folder `from` (both absolute), with `..` where needed.
fn relative(to: &Path, from: &Path) -> Option<PathBuf> {
    let (a, b): (Vec<_>, Vec<_>) = (to.components().collect(), from.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return None;
    }
    let mut p = PathBuf::new();
    for _ in common..b.len() {
        p.push("..");
    }
    for c in &a[common..] {
        p.push(c);
    }
    Some(p)
}

fn is_bundled(rules: &str) -> bool {
    crate::lang::check::BUNDLED_RULES
        .iter()
        .any(|(n, _)| *n == rules)
}

/// Where a replay finds the rules a log names: a bundled name as it is; a path relative to the log's
/// folder (or, for a log written before paths were, relative to the current folder when only that
/// file exists).
pub(crate) fn locate_rules(rules: &str, log: &str) -> String {
    if is_bundled(rules) || Path::new(rules).is_absolute() {
        return rules.to_string();
    }
    let beside = tidy(&Path::new(log).parent().unwrap_or(Path::new("")).join(rules));
    if !beside.exists() && Path::new(rules).exists() {
        return rules.to_string();
    }
    beside.display().to_string()
}

/// `p` without `.` and without a folder followed by `..` (`../logs/../house/h.rules` is
/// `../house/h.rules`).
fn tidy(p: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out.iter().collect()
}

/// What changed between the files a log's `sources` names (key → hash) and the files read now, one
/// sentence each, in key order.
pub(crate) fn changes(logged: &BTreeMap<String, String>, now: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for f in now {
        let what = match f.key.strip_prefix(BUNDLED) {
            Some(p) => format!("the bundled `{p}` (built into this carto)"),
            None => format!("`{}`", f.shown),
        };
        match logged.get(&f.key) {
            Some(h) if *h == f.hash => {}
            Some(_) => out.push(format!("{what} has changed since the game was played")),
            None => out.push(format!(
                "{what} is read now but was not when the game was played"
            )),
        }
    }
    for k in logged.keys() {
        if !now.iter().any(|f| &f.key == k) {
            let what = match k.strip_prefix(BUNDLED) {
                Some(p) => format!("the bundled `{p}`"),
                None => format!("`{k}`"),
            };
            out.push(format!(
                "{what} was read when the game was played but is not now"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_text() {
        // `printf abc | sha256sum`
        assert_eq!(
            sha256("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn tidy_paths() {
        assert_eq!(
            tidy(Path::new("../logs/../house/h.rules")),
            Path::new("../house/h.rules")
        );
        assert_eq!(tidy(Path::new("./a/./b/../c")), Path::new("a/c"));
        assert_eq!(tidy(Path::new("../../x")), Path::new("../../x"));
    }

    #[test]
    fn relative_paths() {
        let r = relative(Path::new("/a/b/house.rules"), Path::new("/a/c/d")).unwrap();
        assert_eq!(slashed(&r), "../../b/house.rules");
        let r = relative(Path::new("/a/house.rules"), Path::new("/a")).unwrap();
        assert_eq!(slashed(&r), "house.rules");
    }

    #[test]
    fn keys_are_relative_to_the_rules_folder() {
        let s = Sources::new(&Source::new("x/y/house.rules", "a"), false);
        s.record(&Source::new("x/y/../m.toml", "b"), false);
        s.record(&Source::new("rules/base.rules", "c"), true);
        let keys: Vec<String> = s.into_parts().0.into_iter().map(|f| f.key).collect();
        assert_eq!(
            keys,
            ["../m.toml", "bundled:rules/base.rules", "house.rules"]
        );
    }
}
