//! The state of a recorded game at any turn, rebuilt from its events: the tiles placed, where each
//! follower and chip was, and the scores. Pictures of past turns are drawn from these snapshots.

use crate::game::{Game, Hooks};
use crate::sight::Seat;
use crate::state::{EvKind, FollowerAt, Place};

/// A follower as it stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowerView {
    pub(crate) owner: u8,
    pub at: FollowerAt,
    /// The cell it stands on and the feature node (when on the board).
    pub cell: u32,
    pub(crate) node: u32,
    pub strength: u8,
}

/// A chip as it lay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChipView {
    pub place: Place,
    pub face_up: bool,
}

/// A stack of tiles the rules dealt onto a square (`deal`), as it stood: how many tiles are left in
/// it and its top tile (face up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StackView {
    pub(crate) cell: u32,
    pub(crate) left: u16,
    pub(crate) top: Option<u16>,
}

/// The stacks of a game state.
pub(crate) fn stacks_of(st: &crate::state::State) -> Vec<StackView> {
    st.tile_stacks
        .iter()
        .map(|s| StackView {
            cell: s.cell,
            left: s.tiles.len().min(u16::MAX as usize) as u16,
            top: s.tiles.last().copied(),
        })
        .collect()
}

/// The game after every event of turns up to `turn` (turn 0 is the setup).
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub(crate) turn: u32,
    /// Placed tiles in order: (tile type, cell, rotation).
    pub tiles: Vec<(u16, u32, u8)>,
    pub followers: Vec<FollowerView>,
    pub chips: Vec<ChipView>,
    pub scores: Vec<i64>,
    /// The tile stacks on squares (the events do not tell them: they come from the replay, see
    /// `with_stacks`; at first, those of the game's end).
    pub(crate) stacks: Vec<StackView>,
    /// Whether this is the end of the game.
    pub(crate) last: bool,
    /// Who the pictures are drawn for ([`Seat::Everyone`] unless set: a replay shows every chip's
    /// face; the Play tab draws the person's seat).
    pub seat: Seat,
}

/// The last turn with events (the final scoring's, when the game is over).
pub fn last_turn<H: Hooks>(game: &Game<H>) -> u32 {
    game.st.events.last().map_or(0, |e| e.turn)
}

/// Snapshots after each turn, 0 to the last, in one pass over the events.
pub fn every_turn<H: Hooks>(game: &Game<H>) -> Vec<Snapshot> {
    let last = last_turn(game);
    let mut s = initial(game);
    let mut out = Vec::with_capacity(last as usize + 1);
    let mut events = game.st.events.iter().peekable();
    for turn in 0..=last {
        while let Some(e) = events.next_if(|e| e.turn <= turn) {
            apply(&mut s, &e.kind);
        }
        s.turn = turn;
        s.last = turn == last;
        out.push(s.clone());
    }
    out
}

/// The snapshot after `turn` (the end when `None` or past the end).
pub fn at_turn<H: Hooks>(game: &Game<H>, turn: Option<u32>) -> Snapshot {
    let last = last_turn(game);
    let turn = turn.unwrap_or(last).min(last);
    let mut s = initial(game);
    for e in game.st.events.iter().take_while(|e| e.turn <= turn) {
        apply(&mut s, &e.kind);
    }
    s.turn = turn;
    s.last = turn == last;
    s
}

fn initial<H: Hooks>(game: &Game<H>) -> Snapshot {
    let st = &game.st;
    Snapshot {
        turn: 0,
        tiles: Vec::new(),
        followers: st
            .followers
            .iter()
            .map(|f| FollowerView {
                owner: f.owner,
                at: FollowerAt::Supply,
                cell: crate::features::NONE,
                node: crate::features::NONE,
                strength: 1,
            })
            .collect(),
        chips: vec![
            ChipView {
                place: Place::Supply,
                face_up: false,
            };
            st.chips.len()
        ],
        scores: vec![0; st.players.len()],
        stacks: stacks_of(st),
        last: false,
        seat: Seat::Everyone,
    }
}

fn apply(s: &mut Snapshot, e: &EvKind) {
    match *e {
        EvKind::TilePlaced { ty, cell, rot } => s.tiles.push((ty, cell, rot)),
        EvKind::FollowerPlaced { f, cell, node, .. } => {
            if let Some(fo) = s.followers.get_mut(f as usize) {
                (fo.at, fo.cell, fo.node) = (FollowerAt::Board(node), cell, node);
            }
        }
        EvKind::FollowerReturned { f } => {
            if let Some(fo) = s.followers.get_mut(f as usize) {
                fo.at = FollowerAt::Supply;
            }
        }
        EvKind::FollowerMoved { f, to, .. } => {
            if let Some(fo) = s.followers.get_mut(f as usize) {
                fo.at = to;
            }
        }
        EvKind::FollowerStrength { f, strength } => {
            if let Some(fo) = s.followers.get_mut(f as usize) {
                fo.strength = strength;
            }
        }
        EvKind::ChipMoved {
            chip, to, face_up, ..
        } => {
            if let Some(c) = s.chips.get_mut(chip as usize) {
                *c = ChipView { place: to, face_up };
            }
        }
        EvKind::Score { player, points, .. } => {
            if let Some(p) = s.scores.get_mut(player as usize) {
                *p = p.saturating_add(points);
            }
        }
        EvKind::TileDiscarded { .. }
        | EvKind::Choice { .. }
        | EvKind::TurnEnd { .. }
        | EvKind::Note(_)
        | EvKind::Counter { .. } => {}
    }
}

/// The stacks of every turn, from those seen at each decision of the replay (`Loaded::stacks`): a
/// turn ends with the stacks of the next turn's first decision, the last with those at the end.
pub(crate) fn with_stacks(snaps: &mut [Snapshot], seen: &[(u32, Vec<StackView>)]) {
    for s in snaps.iter_mut() {
        if let Some((_, st)) = seen.iter().find(|(turn, _)| *turn > s.turn) {
            s.stacks.clone_from(st);
        }
    }
}

/// The snapshot after `turn` of a loaded game, its tile stacks included.
pub fn at_turn_of(loaded: &super::load::Loaded, turn: Option<u32>) -> Snapshot {
    let mut s = at_turn(&loaded.game, turn);
    with_stacks(std::slice::from_mut(&mut s), &loaded.stacks);
    s
}
