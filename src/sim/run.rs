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
#[cfg(not(target_arch = "wasm32"))]
use std::time::Duration;

/// Games a worker takes at a time.
const CHUNK: u64 = 8;

/// What to play.
pub struct Spec<'a> {
    /// One setting, two for a paired comparison, or one per point of a sweep (the same seeds
    /// under each).
    pub settings: Vec<&'a Variant>,
    pub players: Vec<String>,
    /// One agent spec per seat.
    pub agents: Vec<String>,
    pub seed: u64,
    /// Game numbers `first .. first + games`; game i has seed `seed + i`.
    pub first: u64,
    pub games: u64,
    pub threads: usize,
    /// Keeps each game's story for the report's figures (`--report`).
    pub report: bool,
}

/// The seed of game `i` of a run with seed `seed`.
pub(crate) fn game_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_add(i)
}

/// The statistics of a run (or of merged runs).
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub(crate) layout: Layout,
    /// Per setting.
    pub(crate) stats: Vec<Stats>,
    /// Paired differences of every setting after the first with the first (setting k minus
    /// setting 0 at index k − 1): one for a comparison, one per further point of a sweep.
    pub(crate) diffs: Vec<Stats>,
    /// The game numbers played, as sorted, disjoint half-open ranges.
    pub(crate) played: Vec<(u64, u64)>,
    pub interrupted: bool,
}

impl Results {
    pub fn games(&self) -> u64 {
        self.played.iter().map(|(a, b)| b - a).sum()
    }

    /// The differences of a comparison of two settings (b − a).
    pub(crate) fn diff(&self) -> Option<&Stats> {
        (self.stats.len() == 2).then(|| &self.diffs[0])
    }
}

/// A game that failed (a rule's error), with where to find it.
#[derive(Debug)]
pub struct SimError {
    pub game: u64,
    pub seed: u64,
    /// Its kind: a rule's failure, an agent that does not exist, a row that cannot be written.
    pub code: crate::diag::Code,
    pub error: String,
    /// The setting whose game failed (0, or 1 in a paired comparison, or a sweep's point).
    pub setting: usize,
    /// The error for people: a rule's failure with its place in the rules and the caret line
    /// (`Variant::explain`), anything else as `error`; ends with a newline.
    pub shown: String,
}

impl SimError {
    /// An error that is not a rule's failure in a game (an agent, a row), shown as it is.
    fn plain(game: u64, seed: u64, code: crate::diag::Code, error: String) -> SimError {
        SimError {
            game,
            seed,
            code,
            shown: format!("error: {error}\n"),
            error,
            setting: 0,
        }
    }

    /// The error with the game it happened in: `error: game 3 (seed 4): …` and the place in the
    /// rules, as `carto sim` and the playground show it.
    pub fn with_game(&self) -> String {
        let rest = self.shown.strip_prefix("error: ").unwrap_or(&self.shown);
        format!("error: game {} (seed {}): {rest}", self.game, self.seed)
    }
}

/// Adds a range to a sorted set of disjoint ranges, joining neighbours. A range at or after the
/// last one (a worker's chunks come in increasing order) joins or follows it without sorting: with
/// two workers each holds thousands of ranges, and sorting them for every chunk cost more than a
/// tenth of the second core.
pub(crate) fn add_range(set: &mut Vec<(u64, u64)>, r: (u64, u64)) {
    if r.0 >= r.1 {
        return;
    }
    match set.last_mut() {
        None => set.push(r),
        Some(last) if r.0 == last.1 => last.1 = r.1,
        Some(last) if r.0 > last.1 => set.push(r),
        Some(_) => {
            set.push(r);
            *set = joined(std::mem::take(set));
        }
    }
}

/// Ranges sorted and joined where they touch or overlap.
fn joined(mut ranges: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    ranges.retain(|r| r.0 < r.1);
    ranges.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
    for (a, b) in ranges {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
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
    diffs: Vec<Stats>,
    played: Vec<(u64, u64)>,
}

impl<'a> Worker<'a> {
    fn new(spec: &'a Spec<'a>, layout: &'a Layout, maps: &[Mapping]) -> Result<Self, SimError> {
        let mut tables = Vec::new();
        for (k, (v, map)) in spec.settings.iter().zip(maps).enumerate() {
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
                    code: e.code(),
                    error: e.to_string(),
                    setting: k,
                    shown: v.explain(&e),
                })?;
            // One set of agents per setting, kept from game to game (an agent's choices depend
            // only on the game it sees and the generator, so this changes no result).
            let agents = spec
                .agents
                .iter()
                .map(|a| parse_agent(a))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| {
                    SimError::plain(
                        spec.first,
                        game_seed(spec.seed, spec.first),
                        crate::diag::Code::BadArguments,
                        e,
                    )
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
        let mut outcome = Outcome::default();
        outcome.story.on = spec.report;
        Ok(Worker {
            spec,
            layout,
            tables,
            outcomes: vec![outcome; n],
            obs: vec![Vec::new(); n],
            stats: vec![Stats::new(layout); n],
            diffs: vec![Stats::new(layout); n.saturating_sub(1)],
            played: Vec::new(),
        })
    }

    /// Plays game `i` under every setting; the setting whose game failed with its error.
    fn play(&mut self, i: u64) -> Result<(), (usize, GameError)> {
        let seed = game_seed(self.spec.seed, i);
        for (k, t) in self.tables.iter_mut().enumerate() {
            t.game
                .reset(&self.spec.players, seed, false)
                .map_err(|e| (k, e))?;
            play_counted(
                &mut t.game,
                &mut t.agents,
                seed,
                t.rules,
                t.actions,
                &mut self.outcomes[k],
            )
            .map_err(|e| (k, e))?;
            self.outcomes[k].observe(self.layout, &t.map, &mut self.obs[k]);
            self.stats[k].add(&self.obs[k]);
        }
        for (d, o) in self.diffs.iter_mut().zip(&self.obs[1..]) {
            d.add_diff(&self.obs[0], o);
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
pub(crate) type RowSink<'a> = dyn FnMut(u64, u64, &[Vec<Option<i64>>]) -> Result<(), String> + 'a;

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
    Layout::new(&spec.players, &progs, spec.report)
}

/// Plays the games of `spec` and returns their statistics.
pub fn run(spec: &Spec, watch: Watch) -> Result<Results, SimError> {
    let (layout, maps) = layout_for(spec);
    let shared = Shared {
        next: AtomicU64::new(spec.first),
        done: AtomicU64::new(0),
        end: spec.first.saturating_add(spec.games),
        failures: Mutex::new(Vec::new()),
        stop: watch.stop,
    };
    let (workers, row_error) = play_on_threads(spec, &layout, &maps, &shared, watch);
    if let Some(f) = shared.first_failure() {
        return Err(f);
    }
    if let Some(e) = row_error {
        return Err(SimError::plain(
            spec.first,
            game_seed(spec.seed, spec.first),
            crate::diag::Code::CannotWrite,
            e,
        ));
    }
    Ok(sum_workers(spec, &layout, &workers))
}

/// One game's observations (one vector per setting), with its number.
type Row = (u64, Vec<Vec<Option<i64>>>);

/// What the threads of a run share: the next game number to take, the games done (for the
/// progress), the failures, and the flag that stops them all.
struct Shared<'a> {
    next: AtomicU64,
    done: AtomicU64,
    /// One past the last game number.
    end: u64,
    failures: Mutex<Vec<SimError>>,
    stop: &'a AtomicBool,
}

impl Shared<'_> {
    /// The next chunk of game numbers to play, `None` once every game is taken.
    fn take_chunk(&self) -> Option<(u64, u64)> {
        let a = self.next.fetch_add(CHUNK, Ordering::Relaxed);
        (a < self.end).then(|| (a, (a + CHUNK).min(self.end)))
    }

    /// Records a failure and stops every thread.
    fn fail(&self, e: SimError) {
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(e);
        stop_all(self.stop);
    }

    /// The failure of the first game that failed, if any.
    fn first_failure(self) -> Option<SimError> {
        let mut failures = self
            .failures
            .into_inner()
            .unwrap_or_else(|p| p.into_inner());
        failures.sort_by_key(|f| f.game);
        failures.into_iter().next()
    }
}

/// On wasm32 (the web playground) there are no threads and no clock: one worker plays every game
/// on the calling thread, then the rows are written in game order and the progress told once.
#[cfg(target_arch = "wasm32")]
fn play_on_threads<'a>(
    spec: &'a Spec<'a>,
    layout: &'a Layout,
    maps: &[Mapping],
    shared: &Shared,
    watch: Watch,
) -> (Vec<Worker<'a>>, Option<String>) {
    let (tx, rx) = mpsc::channel::<Row>();
    let worker = work(spec, layout, maps, shared, tx, watch.rows.is_some());
    let mut order = InOrder {
        pending: rx.try_iter().collect(),
        next: spec.first,
        error: None,
    };
    if let Some(rows) = watch.rows {
        order.write_next(rows, spec.seed, shared.stop);
        order.write_rest(rows, spec.seed);
    }
    (watch.tick)(shared.done.load(Ordering::Relaxed));
    (worker.into_iter().collect(), order.error)
}

/// Plays the games on `spec.threads` threads while the calling thread watches them (see
/// [`watch_workers`]); returns the workers that could start, and the first error writing a row.
#[cfg(not(target_arch = "wasm32"))]
fn play_on_threads<'a>(
    spec: &'a Spec<'a>,
    layout: &'a Layout,
    maps: &[Mapping],
    shared: &Shared,
    watch: Watch,
) -> (Vec<Worker<'a>>, Option<String>) {
    let (tx, rx) = mpsc::channel::<Row>();
    let want_rows = watch.rows.is_some();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..spec.threads.max(1))
            .map(|_| {
                let tx = tx.clone();
                s.spawn(move || work(spec, layout, maps, shared, tx, want_rows))
            })
            .collect();
        drop(tx);
        let row_error = watch_workers(spec, shared, rx, watch.tick, watch.rows);
        let workers = handles
            .into_iter()
            .filter_map(|h| h.join().ok().flatten())
            .collect();
        (workers, row_error)
    })
}

/// One thread of a run: a worker of its own plays chunks of games until none is left or the run
/// stops. The thread holds `tx` to its end (the calling thread watches until every one is
/// dropped); it carries each game's row when `want_rows`.
fn work<'a>(
    spec: &'a Spec<'a>,
    layout: &'a Layout,
    maps: &[Mapping],
    shared: &Shared,
    tx: mpsc::Sender<Row>,
    want_rows: bool,
) -> Option<Worker<'a>> {
    let mut w = match Worker::new(spec, layout, maps) {
        Ok(w) => w,
        Err(e) => {
            shared.fail(e);
            return None;
        }
    };
    let rows = want_rows.then_some(&tx);
    while let Some(chunk) = shared.take_chunk() {
        if !w.play_chunk(chunk, shared, rows) {
            break;
        }
    }
    Some(w)
}

impl Worker<'_> {
    /// Plays the games `a..b` of a chunk, sending each game's row to `rows` if given, and records
    /// the games played; false when the run stopped (interrupted, or a game failed) before `b`.
    fn play_chunk(
        &mut self,
        (a, b): (u64, u64),
        shared: &Shared,
        rows: Option<&mpsc::Sender<Row>>,
    ) -> bool {
        for i in a..b {
            if shared.stop.load(Ordering::Relaxed) {
                shared.done.fetch_add(i - a, Ordering::Relaxed);
                add_range(&mut self.played, (a, i));
                return false;
            }
            if let Err((k, e)) = self.play(i) {
                shared.fail(SimError {
                    game: i,
                    seed: game_seed(self.spec.seed, i),
                    code: e.code(),
                    error: e.to_string(),
                    setting: k,
                    shown: self.spec.settings[k].explain(&e),
                });
                add_range(&mut self.played, (a, i));
                return false;
            }
            if let Some(tx) = rows {
                let _ = tx.send((i, self.obs.clone()));
            }
        }
        // Once a chunk: a shared counter written per game would be one more cache line travelling
        // between the cores.
        shared.done.fetch_add(b - a, Ordering::Relaxed);
        add_range(&mut self.played, (a, b));
        true
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// The calling thread's part while the workers play: it reports progress about ten times a
/// second and writes the rows in game order, until every worker is done. Returns the first error
/// writing a row.
fn watch_workers(
    spec: &Spec,
    shared: &Shared,
    rx: mpsc::Receiver<Row>,
    tick: &mut dyn FnMut(u64),
    mut rows: Option<&mut RowSink>,
) -> Option<String> {
    let mut order = InOrder {
        pending: BTreeMap::new(),
        next: spec.first,
        error: None,
    };
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok((i, o)) => {
                order.pending.insert(i, o);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if let Some(rows) = rows.as_mut() {
            order.write_next(rows, spec.seed, shared.stop);
        }
        tick(shared.done.load(Ordering::Relaxed));
    }
    if let Some(rows) = rows.as_mut() {
        order.write_rest(rows, spec.seed);
    }
    tick(shared.done.load(Ordering::Relaxed));
    order.error
}

/// Rows received from the workers, put back in game order.
struct InOrder {
    pending: BTreeMap<u64, Vec<Vec<Option<i64>>>>,
    /// The next game to write.
    next: u64,
    /// The first error writing a row: no row is written after it.
    error: Option<String>,
}

impl InOrder {
    /// Writes the rows of the games that come next, as far as they have arrived; an error stops
    /// the run.
    fn write_next(&mut self, rows: &mut RowSink, seed: u64, stop: &AtomicBool) {
        while let Some(o) = self.pending.remove(&self.next) {
            if self.error.is_none() {
                if let Err(e) = rows(self.next, game_seed(seed, self.next), &o) {
                    self.error = Some(e);
                    stop_all(stop);
                }
            }
            self.next += 1;
        }
    }

    /// After an interruption, the rows past a gap, still in order.
    fn write_rest(&mut self, rows: &mut RowSink, seed: u64) {
        for (i, o) in std::mem::take(&mut self.pending) {
            if self.error.is_none() {
                if let Err(e) = rows(i, game_seed(seed, i), &o) {
                    self.error = Some(e);
                }
            }
        }
    }
}

/// The results of the run: every worker's statistics and games played, summed.
fn sum_workers(spec: &Spec, layout: &Layout, workers: &[Worker]) -> Results {
    let mut stats: Vec<Stats> = vec![Stats::new(layout); spec.settings.len()];
    let mut diffs = vec![Stats::new(layout); spec.settings.len().saturating_sub(1)];
    let mut all_played = Vec::new();
    for w in workers {
        for (s, ws) in stats.iter_mut().zip(&w.stats) {
            s.merge(ws);
        }
        for (d, wd) in diffs.iter_mut().zip(&w.diffs) {
            d.merge(wd);
        }
        all_played.extend_from_slice(&w.played);
    }
    let played = joined(all_played);
    let end = spec.first.saturating_add(spec.games);
    let interrupted = played != [(spec.first, end)] && spec.games > 0;
    Results {
        layout: layout.clone(),
        stats,
        diffs,
        played,
        interrupted,
    }
}

fn stop_all(stop: &AtomicBool) {
    stop.store(true, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::add_range;

    #[test]
    fn ranges_join_in_any_order() {
        let mut set = Vec::new();
        for r in [
            (0, 8),
            (16, 24),
            (8, 16),
            (40, 48),
            (24, 30),
            (5, 10),
            (31, 31),
        ] {
            add_range(&mut set, r);
        }
        assert_eq!(set, [(0, 30), (40, 48)]);
        add_range(&mut set, (30, 40));
        assert_eq!(set, [(0, 48)]);
    }

    #[test]
    fn increasing_chunks_stay_apart_until_joined() {
        let mut set = Vec::new();
        add_range(&mut set, (0, 8));
        add_range(&mut set, (16, 24));
        add_range(&mut set, (24, 32));
        assert_eq!(set, [(0, 8), (16, 32)]);
    }
}
