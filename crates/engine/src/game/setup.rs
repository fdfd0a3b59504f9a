//! A new game: players, followers, chips, the draw stack, the start tiles and the rules' setup,
//! reusing every buffer of the game before.

use super::{Acts, Config, Game, GameError, Hooks, Step};
use crate::board::Board;
use crate::features::NONE;
use crate::map::MapBoard;
use crate::state::{Chip, EvKind, Place, Player, State};
use std::sync::Arc;

impl<H: Hooks> Game<H> {
    pub fn new(
        cfg: Arc<Config>,
        hooks: H,
        players: &[String],
        seed: u64,
        record: bool,
    ) -> Result<Self, GameError> {
        // The endless table reaches as far as a line of every tile of the game in any direction:
        // the tile sets' tiles, or a script's draw stack (at most `MAX_TILES`) when it is longer.
        let fixed = cfg.fixed_stack.as_ref().map_or(0, |s| s.len() as u32);
        let total: u32 = cfg.counts.iter().sum::<u32>().max(fixed);
        let board = match &cfg.map {
            Some(m) => Board::from_map(m),
            None => Board::unbounded(total as usize),
        };
        let st = State::new(board, cfg.tiles.clone(), seed);
        let mut g = Game {
            cfg,
            st,
            acts: Acts::of(&hooks),
            hooks,
            step: Step::Over,
            options: Vec::new(),
            decided: true,
            forced_pending: false,
            asked: None,
            forced_clean: false,
            resume: None,
            offer_phase: None,
            completed: Vec::new(),
            score_next: 0,
            follower_skipped: None,
            asks_open: false,
            answered_run: 0,
            acted_in: None,
            phase_end: None,
            placements: Vec::new(),
            n_placements: 0,
            scratch: Vec::new(),
            roots: Vec::new(),
            seed,
        };
        g.reset(players, seed, record)?;
        Ok(g)
    }

    /// Starts a new game, reusing every buffer.
    pub fn reset(&mut self, players: &[String], seed: u64, record: bool) -> Result<(), GameError> {
        let cfg = &*self.cfg;
        let st = &mut self.st;
        st.board.reset();
        st.board.border_fills_monastery = cfg.border_fills_monastery;
        st.rng = crate::rng::Rng::new(seed);
        self.seed = seed;
        st.record = record;
        clear_turn_state(st);
        seat_players(st, cfg, players);
        lay_out_chips(st, cfg, players.len());
        fill_stack(st, cfg);
        self.place_start_tiles()?;
        // Features the start tiles complete are not scored (no turn placed them).
        self.completed.clear();
        self.run_rules_setup()?;
        self.st.stack_start = self.st.stack.len() as u32;
        self.st.turn = 1;
        self.step = Step::TurnStart;
        self.decided = true;
        self.asked = None;
        self.forced_clean = false;
        self.score_next = 0;
        self.asks_open = false;
        self.answered_run = 0;
        self.acted_in = None;
        self.phase_end = None;
        Ok(())
    }

    /// Runs the rules' setup. Every chip appears once in a recorded setup: chips the setup leaves in
    /// the supply are logged last.
    fn run_rules_setup(&mut self) -> Result<(), GameError> {
        let before = self.st.events.len();
        self.hooks.setup(&mut self.st)?;
        if !self.st.record {
            return Ok(());
        }
        let mut moved = vec![false; self.st.chips.len()];
        for e in &self.st.events[before..] {
            if let EvKind::ChipMoved { chip, .. } = e.kind {
                if let Some(m) = moved.get_mut(chip as usize) {
                    *m = true;
                }
            }
        }
        for (i, m) in moved.iter().enumerate() {
            if !m && self.st.chips[i].place == Place::Supply {
                self.st.push(
                    None,
                    EvKind::ChipMoved {
                        chip: i as u16,
                        from: Place::Supply,
                        to: Place::Supply,
                        face_up: false,
                    },
                );
            }
        }
        Ok(())
    }

    /// The start tile on the start square (the endless table's 0,0); on a map with several start
    /// squares, the first gets the start tile and the others a tile from the stack, turned at random.
    fn place_start_tiles(&mut self) -> Result<(), GameError> {
        let cfg = &*self.cfg;
        let st = &mut self.st;
        let completed = &mut self.completed;
        let Some(map) = &cfg.map else {
            let cell = st.board.cell_at(0, 0).unwrap_or(0);
            put_setup_tile(
                st,
                completed,
                cfg,
                cell,
                cfg.start_tile,
                cfg.start_rot as usize,
            );
            st.start_cells.push(cell);
            return Ok(());
        };
        let chosen = choose_start_squares(st, cfg, map)?;
        for (k, &i) in chosen.iter().enumerate() {
            let (x, y) = map.starts[i].at;
            let Some(cell) = st.board.cell_at(x, y) else {
                return Err(GameError::Setup(format!(
                    "start square {} is outside the map",
                    map.starts[i].name
                )));
            };
            let (ty, rot) = if k == 0 {
                (cfg.start_tile, cfg.start_rot as usize)
            } else {
                let Some(ty) = st.stack.pop() else {
                    return Err(GameError::Setup(
                        "not enough tiles for the start squares".into(),
                    ));
                };
                (ty, st.rng.below(4) as usize)
            };
            put_setup_tile(st, completed, cfg, cell, ty, rot);
            st.start_cells.push(cell);
        }
        Ok(())
    }
}

/// The map's start squares used this game (indexes into `map.starts`): those the game names, else
/// as many as the variant uses, drawn at random.
fn choose_start_squares(
    st: &mut State,
    cfg: &Config,
    map: &MapBoard,
) -> Result<Vec<usize>, GameError> {
    let mut chosen: Vec<usize> = Vec::new();
    for name in &cfg.start_names {
        match map.starts.iter().position(|s| &s.name == name) {
            Some(i) if !chosen.contains(&i) => chosen.push(i),
            Some(_) => {
                return Err(GameError::Setup(format!(
                    "start square `{name}` named twice"
                )))
            }
            None => {
                let names: Vec<&str> = map.starts.iter().map(|s| s.name.as_str()).collect();
                return Err(GameError::Setup(format!(
                    "the map has no start square `{name}` (it has: {})",
                    names.join(", ")
                )));
            }
        }
    }
    let want = cfg.start_squares.min(map.starts.len());
    if !chosen.is_empty() && chosen.len() != want {
        let n = chosen.len();
        let s = if n == 1 { "" } else { "s" };
        return Err(GameError::Setup(format!(
            "{n} start square{s} named, but this variant uses {want}"
        )));
    }
    if chosen.is_empty() {
        st.rng.sample_indices(map.starts.len(), want, &mut chosen);
    }
    Ok(chosen)
}

/// Places a tile of the setup (no legality check, no trigger) and logs it.
fn put_setup_tile(
    st: &mut State,
    completed: &mut Vec<u32>,
    cfg: &Config,
    cell: u32,
    ty: u16,
    rot: usize,
) {
    let Some(t) = cfg.tiles.get(ty as usize) else {
        return;
    };
    completed.clear();
    st.board.place(cell, ty, t, rot, completed);
    st.push(
        None,
        EvKind::TilePlaced {
            ty,
            cell,
            rot: rot as u8,
        },
    );
}

/// Turn counters and the logs of the game before, back to nothing.
fn clear_turn_state(st: &mut State) {
    st.events.clear();
    st.tally.clear();
    st.turn_choices.clear();
    st.turn_deciders.clear();
    st.tile_stacks.clear();
    st.turn = 0;
    st.round = 1;
    st.current = 0;
    st.in_extra_turn = false;
    st.final_scoring = false;
    st.extra_turn_pending = false;
    st.extra_turn_for = 0;
    st.regular = 0;
    st.current_tile = None;
    st.placed_now = NONE;
    st.follower_placed_now = false;
    st.start_cells.clear();
}

/// The players in seat order, each with every follower in supply.
fn seat_players(st: &mut State, cfg: &Config, players: &[String]) {
    st.players.clear();
    st.players.extend(players.iter().map(|n| Player {
        name: n.clone(),
        score: 0,
    }));
    st.seat_followers(players.len(), cfg.followers);
    st.counters.seat(&cfg.counters, players.len());
    st.order.reset(players.len());
}

/// Every chip of the set face down in the supply; no chip on a square or in a hand.
fn lay_out_chips(st: &mut State, cfg: &Config, players: usize) {
    clear_square_counts(st);
    st.chips_changed();
    st.chips.clear();
    st.hands.truncate(players);
    st.hands.iter_mut().for_each(Vec::clear);
    st.hands.resize_with(players, Vec::new);
    st.supply.clear();
    for (i, &(colour, value)) in cfg.chip_set.iter().enumerate() {
        st.chips.push(Chip {
            colour,
            value,
            face_up: false,
            place: Place::Supply,
        });
        st.supply.push(i as u16);
    }
}

/// No chip counted on any square: only the squares the last game's chips lie on are cleared (the
/// table has tens of thousands of squares).
fn clear_square_counts(st: &mut State) {
    let squares = st.board.kind.len();
    if st.on_square.len() != squares {
        st.on_square.clear();
        st.on_square.resize(squares, 0);
        return;
    }
    for c in &st.chips {
        if let Place::Square(cell) = c.place {
            if let Some(n) = st.on_square.get_mut(cell as usize) {
                *n = 0;
            }
        }
    }
}

/// The draw stack: the fixed order if the game names one, else every copy of every tile type but
/// the start tile's first, shuffled.
fn fill_stack(st: &mut State, cfg: &Config) {
    st.stack.clear();
    match &cfg.fixed_stack {
        Some(order) => st.stack.extend(order.iter().rev()),
        None => {
            for (ty, &n) in cfg.counts.iter().enumerate() {
                let n = if ty as u16 == cfg.start_tile {
                    n.saturating_sub(1)
                } else {
                    n
                };
                for _ in 0..n {
                    st.stack.push(ty as u16);
                }
            }
            let mut s = std::mem::take(&mut st.stack);
            st.rng.shuffle(&mut s);
            st.stack = s;
        }
    }
}
