//! Running many games on every core: workers take chunks of game numbers from a shared counter,
//! each adds its games to statistics of its own, and the statistics are summed at the end. Every
//! statistic is an exact integer histogram, so the sum is the same whatever the number of threads
//! or the order the games finished in. Per-game rows, when wanted, are put back in game order.

use super::play::play_counted;
use super::stats::{rule_names, Layout, Mapping, Outcome, Stats};
use crate::agent::{parse_agent, Agent};
use crate::game::{Config, Game, GameError};
use crate::lang::interp::Interp;
use crate::lang::ir::Program;
use crate::map::MapBoard;
use crate::variant::Variant;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Games a worker takes at a time.
const CHUNK: u64 = 8;

/// What to play.
pub struct Spec<'a> {
    /// One setting, or two for a paired comparison (the same seeds under both).
    pub settings: Vec<&'a Variant>,
    pub players: Vec<String>,
    /// One agent spec per seat.
    pub agents: Vec<String>,
    pub seed: u64,
    /// Game numbers `first .. first + games`; game i has seed `seed + i`.
    pub first: u64,
    pub games: u64,
    pub threads: usize,
}

/// The seed of game `i` of a run with seed `seed`.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_add(i)
}

/// The statistics of a run (or of merged runs).
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub layout: Layout,
    /// Per setting.
    pub stats: Vec<Stats>,
    /// Paired differences (second setting minus first), when there are two settings.
    pub diff: Option<Stats>,
    /// The game numbers played, as sorted, disjoint half-open ranges.
    pub played: Vec<(u64, u64)>,
    pub interrupted: bool,
}

impl Results {
    pub fn games(&self) -> u64 {
        self.played.iter().map(|(a, b)| b - a).sum()
    }
}

/// A game that failed (a rule's error), with where to find it.
#[derive(Debug)]
pub struct SimError {
    pub game: u64,
    pub seed: u64,
    pub error: String,
}

/// Adds a range to a sorted set of disjoint ranges, joining neighbours.
pub fn add_range(set: &mut Vec<(u64, u64)>, r: (u64, u64)) {
    if r.0 >= r.1 {
        return;
    }
    set.push(r);
    set.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(set.len());
    for &(a, b) in set.iter() {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    *set = out;
}

/// Per setting: the game, its layout mapping and its numbers of rule names and actions.
struct Table {
    game: Game<Interp>,
    agents: Vec<Box<dyn Agent>>,
    map: Mapping,
    rules: usize,
    actions: usize,
}

struct Worker<'a> {
    spec: &'a Spec<'a>,
    layout: &'a Layout,
    tables: Vec<Table>,
    outcomes: Vec<Outcome>,
    obs: Vec<Vec<Option<i64>>>,
    stats: Vec<Stats>,
    diff: Option<Stats>,
    played: Vec<(u64, u64)>,
}

impl<'a> Worker<'a> {
    fn new(spec: &'a Spec<'a>, layout: &'a Layout, maps: &[Mapping]) -> Result<Self, SimError> {
        let mut tables = Vec::new();
        for (v, map) in spec.settings.iter().zip(maps) {
            let v = own_copy(v);
            let game = v
                .new_game(
                    v.config.clone(),
                    &spec.players,
                    game_seed(spec.seed, spec.first),
                    false,
                )
                .map_err(|e| SimError {
                    game: spec.first,
                    seed: game_seed(spec.seed, spec.first),
                    error: e.to_string(),
                })?;
            // One set of agents per setting, kept from game to game (an agent's choices depend
            // only on the game it sees and the generator, so this changes no result).
            let agents = spec
                .agents
                .iter()
                .map(|a| parse_agent(a))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| SimError {
                    game: spec.first,
                    seed: game_seed(spec.seed, spec.first),
                    error: e,
                })?;
            tables.push(Table {
                game,
                agents,
                map: map.clone(),
                rules: rule_names(&v.program).len(),
                actions: v.program.actions.len(),
            });
        }
        let n = tables.len();
        Ok(Worker {
            spec,
            layout,
            tables,
            outcomes: vec![Outcome::default(); n],
            obs: vec![Vec::new(); n],
            stats: vec![Stats::new(layout); n],
            diff: (n == 2).then(|| Stats::new(layout)),
            played: Vec::new(),
        })
    }

    fn play(&mut self, i: u64) -> Result<(), GameError> {
        let seed = game_seed(self.spec.seed, i);
        for (k, t) in self.tables.iter_mut().enumerate() {
            t.game.reset(&self.spec.players, seed, false)?;
            play_counted(
                &mut t.game,
                &mut t.agents,
                seed,
                t.rules,
                t.actions,
                &mut self.outcomes[k],
            )?;
            self.outcomes[k].observe(self.layout, &t.map, &mut self.obs[k]);
            self.stats[k].add(&self.obs[k]);
        }
        if let Some(d) = &mut self.diff {
            d.add_diff(&self.obs[0], &self.obs[1]);
        }
        Ok(())
    }
}

/// A copy of a variant that shares nothing with the original: its program, configuration, tiles
/// and map are the worker's own. The game's hot path clones and drops these `Arc`s; were they
/// shared, every thread would write the same reference counts, and the cache lines holding them
/// would travel between cores at every turn (measured: a second thread cost 59% more CPU time).
fn own_copy(v: &Variant) -> Variant {
    let map = v.map.as_ref().map(|m| Arc::new(MapBoard::clone(m)));
    let mut cfg = Config::clone(&v.config);
    cfg.tiles = Arc::new(Vec::clone(&cfg.tiles));
    cfg.map = cfg.map.as_ref().map(|m| Arc::new(MapBoard::clone(m)));
    Variant {
        name: v.name.clone(),
        program: Arc::new(Program::clone(&v.program)),
        config: Arc::new(cfg),
        map,
        players: v.players,
        warnings: String::new(),
        texts: v.texts.clone(),
    }
}

/// Receives each game's number, seed and observations (one vector per setting).
pub type RowSink<'a> = dyn FnMut(u64, u64, &[Vec<Option<i64>>]) -> Result<(), String> + 'a;

/// What the caller sees while a run goes on.
pub struct Watch<'a> {
    /// Set (by Ctrl-C) to stop: games under way finish, no new one starts.
    pub stop: &'a AtomicBool,
    /// Called about ten times a second with the number of games done.
    pub tick: &'a mut dyn FnMut(u64),
    /// Called for every game in game order with its number, seed and observations (one vector per
    /// setting, laid out by [`layout_for`]).
    pub rows: Option<&'a mut RowSink<'a>>,
}

/// The figures of a run, and where each setting's rules and actions go among them.
pub fn layout_for(spec: &Spec) -> (Layout, Vec<Mapping>) {
    let progs: Vec<_> = spec.settings.iter().map(|v| &*v.program).collect();
    Layout::new(&spec.players, &progs)
}

/// Plays the games of `spec` and returns their statistics.
pub fn run(spec: &Spec, watch: Watch) -> Result<Results, SimError> {
    let (layout, maps) = layout_for(spec);
    let next = AtomicU64::new(spec.first);
    let done = AtomicU64::new(0);
    let end = spec.first.saturating_add(spec.games);
    let failures: Mutex<Vec<SimError>> = Mutex::new(Vec::new());
    let want_rows = watch.rows.is_some();
    let (tx, rx) = mpsc::channel::<(u64, Vec<Vec<Option<i64>>>)>();
    let threads = spec.threads.max(1);
    let Watch {
        stop,
        tick,
        mut rows,
    } = watch;
    let mut row_error = None;
    let workers: Vec<Worker> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let tx = tx.clone();
                let (layout, maps, next, done, failures) =
                    (&layout, &maps, &next, &done, &failures);
                s.spawn(move || {
                    let mut w = match Worker::new(spec, layout, maps) {
                        Ok(w) => w,
                        Err(e) => {
                            failures.lock().unwrap_or_else(|p| p.into_inner()).push(e);
                            stop_all(stop);
                            return None;
                        }
                    };
                    'chunks: loop {
                        let a = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if a >= end {
                            break;
                        }
                        let b = (a + CHUNK).min(end);
                        for i in a..b {
                            if stop.load(Ordering::Relaxed) {
                                done.fetch_add(i - a, Ordering::Relaxed);
                                add_range(&mut w.played, (a, i));
                                break 'chunks;
                            }
                            if let Err(e) = w.play(i) {
                                failures
                                    .lock()
                                    .unwrap_or_else(|p| p.into_inner())
                                    .push(SimError {
                                        game: i,
                                        seed: game_seed(spec.seed, i),
                                        error: e.to_string(),
                                    });
                                stop_all(stop);
                                add_range(&mut w.played, (a, i));
                                break 'chunks;
                            }
                            if want_rows {
                                let _ = tx.send((i, w.obs.clone()));
                            }
                        }
                        // Once a chunk: a shared counter written per game would be one more cache
                        // line travelling between the cores.
                        done.fetch_add(b - a, Ordering::Relaxed);
                        add_range(&mut w.played, (a, b));
                    }
                    Some(w)
                })
            })
            .collect();
        drop(tx);
        // The calling thread reports progress and writes rows in game order.
        let mut pending: BTreeMap<u64, Vec<Vec<Option<i64>>>> = BTreeMap::new();
        let mut next_row = spec.first;
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok((i, o)) => {
                    pending.insert(i, o);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if let Some(rows) = rows.as_mut() {
                while let Some(o) = pending.remove(&next_row) {
                    if row_error.is_none() {
                        if let Err(e) = rows(next_row, game_seed(spec.seed, next_row), &o) {
                            row_error = Some(e);
                            stop_all(stop);
                        }
                    }
                    next_row += 1;
                }
            }
            tick(done.load(Ordering::Relaxed));
        }
        // After an interruption, rows past a gap are still written, in order.
        if let Some(rows) = rows.as_mut() {
            for (i, o) in std::mem::take(&mut pending) {
                if row_error.is_none() {
                    if let Err(e) = rows(i, game_seed(spec.seed, i), &o) {
                        row_error = Some(e);
                    }
                }
            }
        }
        tick(done.load(Ordering::Relaxed));
        handles
            .into_iter()
            .filter_map(|h| h.join().ok().flatten())
            .collect()
    });
    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    failures.sort_by_key(|f| f.game);
    if let Some(f) = failures.into_iter().next() {
        return Err(f);
    }
    if let Some(e) = row_error {
        return Err(SimError {
            game: spec.first,
            seed: game_seed(spec.seed, spec.first),
            error: e,
        });
    }
    let mut stats: Vec<Stats> = vec![Stats::new(&layout); spec.settings.len()];
    let mut diff = (spec.settings.len() == 2).then(|| Stats::new(&layout));
    let mut played = Vec::new();
    for w in &workers {
        for (s, ws) in stats.iter_mut().zip(&w.stats) {
            s.merge(ws);
        }
        if let (Some(d), Some(wd)) = (&mut diff, &w.diff) {
            d.merge(wd);
        }
        for &r in &w.played {
            add_range(&mut played, r);
        }
    }
    let interrupted = played != [(spec.first, end)] && spec.games > 0;
    Ok(Results {
        layout,
        stats,
        diff,
        played,
        interrupted,
    })
}

fn stop_all(stop: &AtomicBool) {
    stop.store(true, Ordering::Relaxed);
}
