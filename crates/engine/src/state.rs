//! The state of one game: board, players, followers, chips, tile stacks and the event record.
//! Effects of the rules go through the methods here, which keep every chip and follower in exactly
//! one place and record what happened.

use crate::board::Board;
use crate::compiled::CompiledTile;
use crate::features::NONE;
use crate::geometry::FeatureKind;
use crate::rng::Rng;

/// Where a chip is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Supply,
    Aside,
    Box,
    /// On a map square (cell index).
    Square(u32),
    /// A player's area.
    Hand(u8),
    /// Slot `i` of a square.
    Slot(u32, u8),
    /// Under a follower.
    Under(u16),
    /// In a named holding area (index into the rules' holdings).
    Holding(u8),
    /// In a player's own area of a per-player holding (`holding bid per player`): (holding, player).
    PlayerHolding(u8, u8),
}

/// Where a follower is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FollowerAt {
    Supply,
    /// On the board, standing on a feature node.
    Board(u32),
    /// In a named holding area (index into the rules' holdings).
    Holding(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chip {
    pub colour: u8,
    pub value: u8,
    pub face_up: bool,
    pub place: Place,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Follower {
    pub owner: u8,
    /// 1-based number among its owner's followers.
    pub num: u16,
    pub at: FollowerAt,
    pub strength: u8,
    pub placed_turn: u32,
    /// Cell it stands on (when on the board).
    pub cell: u32,
    pub kind: FeatureKind,
}

#[derive(Debug)]
pub struct Player {
    pub name: String,
    pub score: i64,
}

/// `clone_from` keeps the name's buffer (a look-ahead copies the players every time).
impl Clone for Player {
    fn clone(&self) -> Player {
        Player {
            name: self.name.clone(),
            score: self.score,
        }
    }

    fn clone_from(&mut self, src: &Player) {
        self.name.clone_from(&src.name);
        self.score = src.score;
    }
}

/// A stack of tiles on a square (dealt at setup), top = last.
#[derive(Clone, Debug, Default)]
pub struct TileStack {
    pub cell: u32,
    pub tiles: Vec<u16>,
}

/// A feature being scored, as the rules see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeatureInfo {
    pub root: u32,
    pub kind: Option<FeatureKind>,
    pub complete: bool,
    pub tiles: u32,
    pub shields: u32,
    /// Fields: completed cities next to it.
    pub cities: u32,
    /// Players holding the majority (bit per player).
    pub winners: u8,
}

/// A feature as it was when it scored, for people: kind, size and the square of its top-left tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredFeature {
    pub kind: FeatureKind,
    pub complete: bool,
    pub tiles: u32,
    pub shields: u32,
    pub cities: u32,
    pub cell: u32,
}

/// What an event happened to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvKind {
    TilePlaced {
        ty: u16,
        cell: u32,
        rot: u8,
    },
    TileDiscarded {
        ty: u16,
    },
    FollowerPlaced {
        f: u16,
        cell: u32,
        kind: FeatureKind,
        /// The feature node it stands on (its tile's segment, for pictures).
        node: u32,
    },
    FollowerReturned {
        f: u16,
    },
    FollowerMoved {
        f: u16,
        from: FollowerAt,
        to: FollowerAt,
    },
    FollowerStrength {
        f: u16,
        strength: u8,
    },
    ChipMoved {
        chip: u16,
        from: Place,
        to: Place,
        face_up: bool,
    },
    Score {
        player: u8,
        points: i64,
        rule: u16,
        /// The feature being scored, when the points come from scoring one (transcripts only).
        what: Option<ScoredFeature>,
        /// Otherwise the square the rule giving them is about (`placed`, `adjacent`, `abroad`).
        at: Option<u32>,
    },
    /// A decision: how many options there were and the one taken (transcripts only). With 0
    /// options, a step that offered no decision and was skipped (`taken` says why).
    Choice {
        options: u32,
        taken: String,
        /// The options, when there were few enough to list.
        listed: Vec<String>,
        /// Asked of the event's player by a rule (`ask`) rather than the turn's own decision.
        asked: bool,
    },
    /// The end of a turn, with the names of the options taken in it, in order, and who took each
    /// (empty when every choice was the turn's player's; see `State::turn_deciders`).
    TurnEnd {
        choices: Vec<String>,
        deciders: Vec<u8>,
    },
    /// A line of text the rules or the engine wrote.
    Note(String),
    /// A value the rules keep changed (`state NAME …`): declaration `id` (of player `of`, for one
    /// kept per player) is now `value`; `reset` when it went back to its start by its reset.
    Counter {
        id: u16,
        of: Option<u8>,
        value: i64,
        reset: Option<crate::counters::Reset>,
    },
}

impl EvKind {
    /// Whether the event holds text or lists (anything to free when it is dropped).
    #[inline(always)]
    fn holds_text(&self) -> bool {
        match self {
            EvKind::Choice { .. } | EvKind::TurnEnd { .. } | EvKind::Note(_) => true,
            EvKind::TilePlaced { .. }
            | EvKind::TileDiscarded { .. }
            | EvKind::FollowerPlaced { .. }
            | EvKind::FollowerReturned { .. }
            | EvKind::FollowerMoved { .. }
            | EvKind::FollowerStrength { .. }
            | EvKind::ChipMoved { .. }
            | EvKind::Score { .. }
            | EvKind::Counter { .. } => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub turn: u32,
    pub player: Option<u8>,
    pub kind: EvKind,
}

pub struct State {
    pub board: Board,
    pub tiles: std::sync::Arc<Vec<CompiledTile>>,
    pub players: Vec<Player>,
    pub followers: Vec<Follower>,
    /// Followers each player has (their followers are `f * per_player ..`).
    pub per_player: u16,
    /// How many of each player's followers are out of their supply (on the board or held), kept
    /// by [`State::place_follower`] and [`State::move_follower`] (every follower starts in supply),
    /// so the follower step knows without a search whether the player has one left.
    away: Vec<u16>,
    pub chips: Vec<Chip>,
    /// How many chips lie on each cell (so an empty square is known without a search).
    pub on_square: Vec<u8>,
    /// The chips each player holds in hand, in chip order (a hand is listed without a search).
    pub hands: Vec<Vec<u16>>,
    /// Chips in the supply, top = last.
    pub supply: Vec<u16>,
    /// Counts every change of the chips (a chip moved or turned, the supply shuffled or laid out):
    /// a reader that saw the same count saw the same chips. Change chips only through the methods
    /// that count (`move_chip`, `shuffle_supply`) or call `chips_changed`.
    pub chip_changes: u32,
    /// The draw stack, top = last.
    pub stack: Vec<u16>,
    /// How many tiles the draw stack held when the first turn began (after the setup drew from it).
    pub stack_start: u32,
    pub tile_stacks: Vec<TileStack>,
    pub turn: u32,
    pub round: u32,
    pub current: u8,
    pub in_extra_turn: bool,
    /// Set while the game-end scoring runs.
    pub(crate) final_scoring: bool,
    pub extra_turn_pending: bool,
    /// Who plays the pending extra turn (`extra_turn()`: the current player; `extra_turn_for`).
    pub extra_turn_for: u8,
    /// The player of the last regular turn: after extra turns, play goes on with the next one.
    pub(crate) regular: u8,
    /// The tile this turn is about (drawn or taken).
    pub current_tile: Option<u16>,
    /// Placed-tile index of this turn's tile.
    pub placed_now: u32,
    pub follower_placed_now: bool,
    pub rng: Rng,
    pub record: bool,
    pub events: Vec<Event>,
    /// Names of the options taken in the current turn (when recording).
    pub turn_choices: Vec<String>,
    /// Who took each of `turn_choices`, once a decision of the turn was asked of a player by a rule
    /// (`ask`); empty while every choice is the turn's player's.
    pub turn_deciders: Vec<u8>,
    pub start_cells: Vec<u32>,
    /// The feature being scored now (set only when recording), named by the score events.
    pub(crate) scoring: Option<ScoredFeature>,
    /// The square the rule running now is about (set only when recording).
    pub(crate) scoring_at: Option<u32>,
    /// Counters for statistics (points by rule, chips, followers), cleared by each new game.
    pub tally: crate::tally::Tally,
    /// The values the rules keep (`state NAME …`), in slots.
    pub counters: crate::counters::Counters,
    /// The order of play as the rules changed it (who starts rounds, direction, skips, extra turns
    /// waiting).
    pub order: crate::order::Order,
    /// Scratch space for walking a feature's members.
    walk: crate::facts::Walk,
}

/// A copy of a game's state, for agents that look ahead; `clone_from` keeps every buffer, and the
/// board copies only the cells the game touched (see [`Board::copy_from`]).
impl Clone for State {
    fn clone(&self) -> State {
        let mut s = State::new(self.board.clone(), self.tiles.clone(), 0);
        s.clone_from(self);
        s
    }

    fn clone_from(&mut self, src: &State) {
        self.copy(src, true, true);
    }
}

/// The square a chip lies on, as an index of `State::on_square`.
fn square_of(c: &Chip) -> Option<usize> {
    match c.place {
        Place::Square(cell) => Some(cell as usize),
        _ => None,
    }
}

impl State {
    /// Makes this state a copy of `src` that records nothing, for a look-ahead: no event log and no
    /// names of the turn's choices are copied, and the per-square chip counts are copied only where
    /// chips lie (the table has tens of thousands of squares). Keeps every buffer.
    pub(crate) fn copy_unrecorded(&mut self, src: &State) {
        self.copy(src, false, true);
    }

    /// `copy_unrecorded` of all but the board, for a state whose board already is `src`'s: copied
    /// from it, with no tile placed and no follower moved since (the caller knows it; debug builds
    /// check the tiles placed). The board is most of a copy's cost.
    pub(crate) fn copy_unrecorded_but_board(&mut self, src: &State) {
        self.copy(src, false, false);
    }

    /// `clone_from`, or without the record (`copy_unrecorded`); the board too when `with_board`.
    fn copy(&mut self, src: &State, recorded: bool, with_board: bool) {
        // Every field named, so that a new one cannot be forgotten here.
        let State {
            board,
            tiles,
            players,
            followers,
            per_player,
            away,
            chips,
            on_square,
            hands,
            supply,
            chip_changes,
            stack,
            stack_start,
            tile_stacks,
            turn,
            round,
            current,
            in_extra_turn,
            final_scoring,
            extra_turn_pending,
            extra_turn_for,
            regular,
            current_tile,
            placed_now,
            follower_placed_now,
            rng,
            record,
            events,
            turn_choices,
            turn_deciders,
            start_cells,
            scoring,
            scoring_at,
            tally,
            counters,
            order,
            walk: _,
        } = src;
        if with_board {
            self.board.copy_from(board);
        } else {
            debug_assert_eq!(self.board.placed.len(), board.placed.len());
        }
        self.tiles.clone_from(tiles);
        self.players.clone_from(players);
        self.followers.clone_from(followers);
        self.per_player = *per_player;
        self.away.clone_from(away);
        self.copy_chip_places(chips, on_square, recorded);
        self.hands.clone_from(hands);
        self.supply.clone_from(supply);
        self.chip_changes = *chip_changes;
        self.stack.clone_from(stack);
        self.stack_start = *stack_start;
        self.tile_stacks.clone_from(tile_stacks);
        self.turn = *turn;
        self.round = *round;
        self.current = *current;
        self.in_extra_turn = *in_extra_turn;
        self.final_scoring = *final_scoring;
        self.extra_turn_pending = *extra_turn_pending;
        self.extra_turn_for = *extra_turn_for;
        self.regular = *regular;
        self.current_tile = *current_tile;
        self.placed_now = *placed_now;
        self.follower_placed_now = *follower_placed_now;
        self.rng.clone_from(rng);
        if recorded {
            self.record = *record;
            self.events.clone_from(events);
            self.turn_choices.clone_from(turn_choices);
            self.turn_deciders.clone_from(turn_deciders);
        } else {
            self.record = false;
            self.events.clear();
            self.turn_choices.clear();
            self.turn_deciders.clear();
        }
        self.start_cells.clone_from(start_cells);
        self.scoring = *scoring;
        self.scoring_at = *scoring_at;
        self.tally.copy_from(tally);
        self.counters.copy_from(counters);
        self.order.copy_from(order);
        // `walk` is scratch space: each state keeps its own.
    }
}

impl State {
    /// Makes this state's chips (where each lies, which way up, the hands, the supply) those of
    /// `src`, a state of a game of the same map, and nothing else: for a copy that answers
    /// questions about the chips as they lie (`agent::quiet`) without copying the whole game.
    pub fn copy_chips_from(&mut self, src: &State) {
        self.copy_chip_places(&src.chips, &src.on_square, false);
        self.hands.clone_from(&src.hands);
        self.supply.clone_from(&src.supply);
        self.chip_changes = src.chip_changes;
    }

    /// Takes the chips and the per-square chip counts of another state; the counts copied whole
    /// when `whole`, else only where chips lie (ours cleared, then theirs taken).
    fn copy_chip_places(&mut self, chips: &[Chip], on_square: &[u8], whole: bool) {
        if whole || self.on_square.len() != on_square.len() {
            self.on_square.clear();
            self.on_square.extend_from_slice(on_square);
        } else {
            for c in &self.chips {
                if let Some(n) = square_of(c).and_then(|i| self.on_square.get_mut(i)) {
                    *n = 0;
                }
            }
            for c in chips {
                if let Some(i) = square_of(c).filter(|&i| i < on_square.len()) {
                    self.on_square[i] = on_square[i];
                }
            }
        }
        self.chips.clear();
        self.chips.extend_from_slice(chips);
    }

    pub fn new(board: Board, tiles: std::sync::Arc<Vec<CompiledTile>>, seed: u64) -> State {
        State {
            board,
            tiles,
            players: Vec::new(),
            followers: Vec::new(),
            per_player: 0,
            away: Vec::new(),
            chips: Vec::new(),
            on_square: Vec::new(),
            hands: Vec::new(),
            supply: Vec::new(),
            chip_changes: 0,
            stack: Vec::new(),
            stack_start: 0,
            tile_stacks: Vec::new(),
            turn: 0,
            round: 1,
            current: 0,
            in_extra_turn: false,
            final_scoring: false,
            extra_turn_pending: false,
            extra_turn_for: 0,
            regular: 0,
            current_tile: None,
            placed_now: NONE,
            follower_placed_now: false,
            rng: Rng::new(seed),
            record: false,
            events: Vec::new(),
            turn_choices: Vec::new(),
            turn_deciders: Vec::new(),
            start_cells: Vec::new(),
            scoring: None,
            scoring_at: None,
            tally: Default::default(),
            counters: Default::default(),
            order: Default::default(),
            walk: Default::default(),
        }
    }

    #[inline]
    pub fn push(&mut self, player: Option<u8>, kind: EvKind) {
        if self.record {
            self.events.push(Event {
                turn: self.turn,
                player,
                kind,
            });
        } else if !kind.holds_text() {
            // Nothing to free: no call to the event's drop glue on every move of a game that
            // records nothing (the variant is known where `push` is inlined, so this test is too).
            std::mem::forget(kind);
        }
    }

    /// The player acting now: none during setup and final scoring.
    pub fn acting(&self) -> Option<u8> {
        (self.turn > 0 && !self.final_scoring).then_some(self.current)
    }

    // ---- scores ----

    pub fn score(&mut self, player: u8, points: i64, rule: u16) {
        if points == 0 {
            return;
        }
        if let Some(p) = self.players.get_mut(player as usize) {
            p.score = p.score.saturating_add(points);
            self.tally.score(player, points, rule);
            let who = self.acting();
            self.push(
                who,
                EvKind::Score {
                    player,
                    points,
                    rule,
                    what: self.scoring,
                    at: self.scoring_at.filter(|_| self.scoring.is_none()),
                },
            );
        }
    }

    /// The feature `info` describes, for the score events of a recorded game: its top-left tile.
    pub(crate) fn scored_feature(&self, info: &FeatureInfo) -> Option<ScoredFeature> {
        let kind = info.kind?;
        let f = &self.board.features;
        let mut best: Option<(i32, i32, u32)> = None;
        f.for_each_member(info.root, |m| {
            let cell = self.board.placed[f.tile[m as usize] as usize].cell;
            let (x, y) = self.board.xy(cell);
            if best.is_none_or(|(by, bx, _)| (y, x) < (by, bx)) {
                best = Some((y, x, cell));
            }
        });
        Some(ScoredFeature {
            kind,
            complete: info.complete,
            tiles: info.tiles,
            shields: info.shields,
            cities: info.cities,
            cell: best?.2,
        })
    }

    // ---- chips ----

    /// Moves a chip to `to`, face up or down as asked (the supply too: a rule that lays a chip
    /// face up there shows it to everyone).
    pub fn move_chip(&mut self, chip: u16, to: Place, face_up: bool) {
        let Some(c) = self.chips.get(chip as usize).copied() else {
            return;
        };
        if c.place == Place::Supply {
            if let Some(i) = self.supply.iter().position(|&x| x == chip) {
                self.supply.remove(i);
            }
        }
        if to == Place::Supply {
            self.supply.push(chip);
        }
        if let Place::Square(cell) = c.place {
            if let Some(n) = self.on_square.get_mut(cell as usize) {
                *n = n.saturating_sub(1);
            }
        }
        if let Place::Square(cell) = to {
            if let Some(n) = self.on_square.get_mut(cell as usize) {
                *n += 1;
            }
        }
        if let Place::Hand(p) = c.place {
            if let Some(h) = self.hands.get_mut(p as usize) {
                if let Ok(i) = h.binary_search(&chip) {
                    h.remove(i);
                }
            }
        }
        if let Place::Hand(p) = to {
            if let Some(h) = self.hands.get_mut(p as usize) {
                if let Err(i) = h.binary_search(&chip) {
                    h.insert(i, chip);
                }
            }
        }
        if c.place != to {
            if let Place::Hand(p) = c.place {
                self.tally.chips_spent[p as usize % crate::tally::SLOTS] += 1;
            }
            if let Place::Hand(p) = to {
                self.tally.chips_gained[p as usize % crate::tally::SLOTS] += 1;
            }
        }
        self.chips_changed();
        self.chips[chip as usize].place = to;
        self.chips[chip as usize].face_up = face_up;
        let who = self.acting();
        self.push(
            who,
            EvKind::ChipMoved {
                chip,
                from: c.place,
                to,
                face_up,
            },
        );
    }

    pub fn chips_at(&self, place: Place, out: &mut Vec<u16>) {
        if place == Place::Supply {
            out.extend(self.supply.iter().rev());
            return;
        }
        if let Place::Hand(p) = place {
            out.extend(self.hand(p));
            return;
        }
        if self.chip_count(place) == Some(0) {
            return;
        }
        for (i, c) in self.chips.iter().enumerate() {
            if c.place == place {
                out.push(i as u16);
            }
        }
    }

    /// The chips in a player's hand, in chip order.
    pub fn hand(&self, player: u8) -> &[u16] {
        self.hands
            .get(player as usize)
            .map_or(&[], |h| h.as_slice())
    }

    /// How many chips lie in a place, when the state keeps that count (squares, hands, the supply).
    pub fn chip_count(&self, place: Place) -> Option<usize> {
        match place {
            Place::Square(cell) => {
                Some(self.on_square.get(cell as usize).map_or(0, |&n| n as usize))
            }
            Place::Hand(p) => Some(self.hand(p).len()),
            Place::Supply => Some(self.supply.len()),
            _ => None,
        }
    }

    pub fn shuffle_supply(&mut self) {
        let mut s = std::mem::take(&mut self.supply);
        self.rng.shuffle(&mut s);
        self.supply = s;
        self.chips_changed();
    }

    /// Counts a change of the chips made without `move_chip` (see [`State::chip_changes`]).
    pub fn chips_changed(&mut self) {
        self.chip_changes = self.chip_changes.wrapping_add(1);
    }

    // ---- followers ----

    pub fn follower_id(&self, f: u16) -> String {
        let fo = &self.followers[f as usize];
        format!("{}.{}", self.players[fo.owner as usize].name, fo.num)
    }

    pub fn followers_in_supply(&self, player: u8) -> u16 {
        self.own_followers(player)
            .iter()
            .filter(|f| f.at == FollowerAt::Supply)
            .count() as u16
    }

    /// Whether `player` has a follower in supply: one comparison with the count of those away
    /// (a search only for followers set up without [`State::seat_followers`], as some tests do).
    pub(crate) fn has_follower_in_supply(&self, player: u8) -> bool {
        match self.away.get(player as usize) {
            Some(&away) => away < self.own_followers(player).len() as u16,
            None => self
                .own_followers(player)
                .iter()
                .any(|f| f.at == FollowerAt::Supply),
        }
    }

    /// Gives each of `players` players `per_player` followers, numbered from 1, all in supply.
    pub(crate) fn seat_followers(&mut self, players: usize, per_player: u16) {
        self.per_player = per_player;
        self.followers.clear();
        for p in 0..players {
            for k in 0..per_player {
                self.followers.push(Follower {
                    owner: p as u8,
                    num: k + 1,
                    at: FollowerAt::Supply,
                    strength: 1,
                    placed_turn: 0,
                    cell: NONE,
                    kind: FeatureKind::Road,
                });
            }
        }
        self.away.clear();
        self.away.resize(players, 0);
    }

    /// Counts follower `f` leaving its owner's supply (`-1`: coming back).
    fn count_away(&mut self, f: usize, delta: i16) {
        let owner = self.followers[f].owner as usize;
        if let Some(n) = self.away.get_mut(owner) {
            *n = n.wrapping_add_signed(delta);
        }
    }

    /// The followers of `player` (those of [`State::player_followers`]).
    fn own_followers(&self, player: u8) -> &[Follower] {
        let n = self.per_player as usize;
        let first = player as usize * n;
        self.followers.get(first..first + n).unwrap_or(&[])
    }

    pub fn player_followers(&self, player: u8) -> impl Iterator<Item = u16> {
        let n = self.per_player;
        (player as u16 * n)..(player as u16 * n + n)
    }

    /// Places a follower from the player's supply on a node of the tile just placed.
    pub fn place_follower(&mut self, player: u8, node: u32) -> Option<u16> {
        let f = self
            .player_followers(player)
            .find(|&f| self.followers[f as usize].at == FollowerAt::Supply)?;
        let cell = self.board.placed[self.board.features.tile[node as usize] as usize].cell;
        let kind = self.board.features.kind[node as usize];
        let fo = &mut self.followers[f as usize];
        fo.at = FollowerAt::Board(node);
        fo.cell = cell;
        fo.kind = kind;
        fo.placed_turn = self.turn;
        self.count_away(f as usize, 1);
        self.board.features.add_follower(node, 1);
        self.follower_placed_now = true;
        self.tally.followers_placed[player as usize % crate::tally::SLOTS] += 1;
        self.push(
            Some(player),
            EvKind::FollowerPlaced {
                f,
                cell,
                kind,
                node,
            },
        );
        Some(f)
    }

    /// Moves a follower to its owner's supply or a holding area.
    pub fn move_follower(&mut self, f: u16, to: FollowerAt) {
        let Some(fo) = self.followers.get(f as usize).copied() else {
            return;
        };
        if fo.at == to {
            return;
        }
        if let FollowerAt::Board(node) = fo.at {
            self.board.features.add_follower(node, -1);
        }
        self.followers[f as usize].at = to;
        match (fo.at == FollowerAt::Supply, to == FollowerAt::Supply) {
            (true, false) => self.count_away(f as usize, 1),
            (false, true) => self.count_away(f as usize, -1),
            _ => {}
        }
        let who = self.acting();
        match (fo.at, to) {
            (FollowerAt::Board(_), FollowerAt::Supply) => {
                self.push(who, EvKind::FollowerReturned { f })
            }
            _ => self.push(who, EvKind::FollowerMoved { f, from: fo.at, to }),
        }
    }

    pub fn set_strength(&mut self, f: u16, strength: u8) {
        if let Some(fo) = self.followers.get_mut(f as usize) {
            if fo.strength != strength {
                fo.strength = strength;
                let who = self.acting();
                self.push(who, EvKind::FollowerStrength { f, strength });
            }
        }
    }

    /// Followers standing on the feature whose root is `root`.
    pub fn feature_followers(&mut self, root: u32, out: &mut Vec<u16>) {
        if self.board.features.follower_count(root) == 0 {
            return;
        }
        for i in 0..self.followers.len() {
            if let FollowerAt::Board(node) = self.followers[i].at {
                if self.board.features.find(node) == root {
                    out.push(i as u16);
                }
            }
        }
    }

    // ---- features ----

    /// Everything the rules may read about a feature, computed once when it is scored.
    pub fn feature_info(&mut self, node: u32) -> FeatureInfo {
        let root = self.board.features.find(node);
        let mut info = self.walk.facts(&self.board, &self.tiles, root);
        info.winners = self.majority(root);
        info
    }

    /// Players whose followers on the feature have the greatest total strength (ties: all of them).
    pub fn majority(&mut self, root: u32) -> u8 {
        if self.board.features.follower_count(root) == 0 {
            return 0;
        }
        let mut strength = [0u32; 8];
        for i in 0..self.followers.len() {
            if let FollowerAt::Board(node) = self.followers[i].at {
                if self.board.features.find(node) == root {
                    let fo = self.followers[i];
                    strength[(fo.owner & 7) as usize] += fo.strength as u32;
                }
            }
        }
        crate::facts::majority(&strength)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a player has a follower in supply, found by a search (the reference).
    fn searched(st: &State, player: u8) -> bool {
        st.own_followers(player)
            .iter()
            .any(|f| f.at == FollowerAt::Supply)
    }

    /// The count of followers away from their supply follows every move: to a holding, between
    /// two holdings and back, for each player separately, and in a copy (placing on the board,
    /// which needs a placed tile, is played by the games of `scripts/compare-logs.sh`).
    #[test]
    fn follower_in_supply_follows_every_move() {
        let mut st = State::new(Board::unbounded(4), Default::default(), 1);
        st.seat_followers(2, 2);
        let moves = [
            (0, FollowerAt::Holding(2)),
            (1, FollowerAt::Holding(0)),
            (1, FollowerAt::Holding(1)),
            (3, FollowerAt::Holding(2)),
            (1, FollowerAt::Holding(2)),
            (0, FollowerAt::Supply),
            (0, FollowerAt::Holding(0)),
            (1, FollowerAt::Supply),
            (0, FollowerAt::Supply),
            (2, FollowerAt::Holding(0)),
        ];
        let mut seen = Vec::new();
        for (f, to) in moves {
            st.move_follower(f, to);
            let mut copy = State::new(Board::unbounded(4), Default::default(), 1);
            copy.copy_unrecorded(&st);
            for p in 0..2 {
                assert_eq!(
                    st.has_follower_in_supply(p),
                    searched(&st, p),
                    "{f} to {to:?}"
                );
                assert_eq!(copy.has_follower_in_supply(p), searched(&st, p));
                seen.push(st.has_follower_in_supply(p));
            }
        }
        // Both answers were given (the moves emptied a supply and filled it again).
        assert!(seen.contains(&true) && seen.contains(&false));
    }
}
