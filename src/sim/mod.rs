//! Simulation: many games of a variant played by agents, measured per seat and per game, with
//! paired comparisons of two settings, every core, slices of a run for several machines and their
//! exact merge. `carto sim` (src/cmd) is the command; this is the machinery.
//!
//! Rooms: `hist` (exact integer histograms), `stats` (what is measured), `play` (one game, counted),
//! `run` (threads and order), `ci` (intervals of paired differences), `progress` (the bar), `report` (table, CSV and the
//! JSON that `merge` reads back), `merge` (combining slices), `csv` (the one CSV writer), `sweep`
//! (the grid of a parameter sweep), `plot` (its chart), `skill` (reports across runs: per player
//! count, per skill pairing, the skill trace).

pub(crate) mod ci;
pub mod csv;
pub mod findings;
pub(crate) mod hist;
pub mod merge;
pub mod play;
pub mod plot;
#[cfg(not(target_arch = "wasm32"))]
pub mod progress;
pub mod report;
pub mod run;
pub mod skill;
pub mod stats;
pub(crate) mod story;
pub mod sweep;
pub mod tune;
pub mod tune_table;

use serde::{Deserialize, Serialize};

/// How a run was asked for: everything a slice must share with the others to be merged with them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The variant as the user named it (a bundled name or a path).
    pub variant: String,
    /// `--set name=value`, for both settings.
    pub sets: Vec<String>,
    /// `--vs name=value`: the second setting's changes.
    pub vs: Vec<String>,
    /// `--vs-rules FILE`: the second setting's rules.
    pub vs_rules: Option<String>,
    /// `--sweep NAME=…`: one setting per point of their grid (absent from JSON without a sweep).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sweep: Vec<String>,
    pub players: Vec<String>,
    /// One agent per seat.
    pub agents: Vec<String>,
    pub seed: u64,
    /// `--report`: the games' stories were kept and the report is written.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub report: bool,
}

impl RunInfo {
    pub(crate) fn paired(&self) -> bool {
        !self.vs.is_empty() || self.vs_rules.is_some()
    }

    /// The points of the sweep, each as `NAME=VALUE` settings (empty without a sweep).
    pub fn points(&self) -> Result<Vec<Vec<String>>, String> {
        if self.sweep.is_empty() {
            return Ok(Vec::new());
        }
        Ok(sweep::points(&sweep::parse_axes(&self.sweep)?))
    }

    /// The names of the run's settings in reports: `a` alone, `a` and `b` for a comparison, the
    /// points of a sweep (`sale_town=7`).
    pub fn setting_labels(&self) -> Vec<String> {
        match self.points() {
            Ok(p) if !p.is_empty() => p.iter().map(|p| sweep::label(p)).collect(),
            _ if self.paired() => vec!["a".into(), "b".into()],
            _ => vec!["a".into()],
        }
    }

    /// The changes of setting `k` beyond `--set`: `--vs` for b, the point of a sweep.
    fn setting_changes(&self, k: usize) -> Vec<String> {
        if !self.sweep.is_empty() {
            return self
                .points()
                .ok()
                .and_then(|p| p.get(k).cloned())
                .unwrap_or_default();
        }
        if k == 1 {
            self.vs.clone()
        } else {
            Vec::new()
        }
    }

    /// The `carto play` command that replays game `i` alone, under setting `setting`.
    pub fn replay_command(&self, setting: usize, i: u64) -> String {
        let variant = match (&self.vs_rules, setting) {
            (Some(f), 1) => f.as_str(),
            _ => self.variant.as_str(),
        };
        let mut cmd = format!(
            "carto play {} --seed {} --players {}",
            shell_word(variant),
            run::game_seed(self.seed, i),
            self.players.join(","),
        );
        // `carto play` plays random moves unless told otherwise.
        if self.agents.iter().any(|a| a != "random") {
            cmd.push_str(&format!(" --agents {}", self.agents.join(",")));
        }
        for s in self.sets.iter().chain(&self.setting_changes(setting)) {
            cmd.push_str(&format!(" --set {}", shell_word(s)));
        }
        cmd
    }
}

/// A word as a POSIX shell reads it back (quoted when it holds anything but plain characters).
pub fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
