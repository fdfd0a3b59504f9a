//! Options that run no rule but the scoring of features: for them, `greedy`'s value read from the
//! board ([`super::value::Preview`]) is the value playing the option in a copy gives, even where the
//! rules do more than score features (chips collected from squares, actions, forced actions). An
//! option is quiet when, played with the quiet choices to the end of the game:
//! - the rules (once per program): every `scored` rule scores by the feature's facts alone
//!   ([`scored_by_facts`]) and no rule listens to the turn's end, the round's end or the game's end;
//! - the decision (once per decision, in a sample of the game): no forced action can apply to the
//!   deciding player or to the one who plays next while the chips stay as they are (a quiet option
//!   moves no chip);
//! - the option: a placement reaches no `placed`, `adjacent` or `abroad` rule (each settled without
//!   running it, by the tests play itself uses to pass rules over: the chips on the square and the
//!   square's map facts, asked of a copy of the game whose chips lie as in the game), a follower no
//!   `follower_placed` rule, and no follower returns while a rule listens to `returned`.
//!
//! The trigger contexts are those `Game::choose` fires a placement's triggers with; a test plays
//! whole games of every bundled variant both ways, event for event.

use super::points::scored_by_facts;
use crate::features::NONE;
use crate::game::{Ctx, Game, GameError, Hooks as _, Opt, Trigger};
use crate::geometry::EdgeKind;
use crate::lang::interp::Interp;

/// Whether the rules of `game` let options be quiet at all (see the module comment).
pub fn rules_allow(game: &Game<Interp>) -> bool {
    let h = &game.hooks;
    scored_by_facts(h.program())
        && [Trigger::TurnEnd, Trigger::RoundEnd, Trigger::GameEnd]
            .iter()
            .all(|&t| !h.listens(t))
}

/// Whether the final scoring of `game`'s rules, once a turn is over and no forced action applies,
/// scores only the features with followers by their facts (no rule listens to the game's end), so
/// that `Preview::load` reads what it gives; for at most 8 players.
pub fn end_allows(game: &Game<Interp>) -> bool {
    let h = &game.hooks;
    scored_by_facts(h.program()) && !h.listens(Trigger::GameEnd) && game.st.players.len() <= 8
}

/// Whether no forced action can apply, in the sample `g` of a decision of its current player, to
/// that player or the one who plays next (`g.st.current` is put back).
pub fn decision_allows(g: &mut Game<Interp>) -> Result<bool, GameError> {
    let now = g.st.current;
    let n = g.st.players.len().max(1) as u8;
    let next = if g.st.extra_turn_pending {
        now
    } else {
        (now + 1) % n
    };
    let mut quiet = g.hooks.no_forced_while_chips_stay(&mut g.st)?;
    if quiet && next != now {
        g.st.current = next;
        let q = g.hooks.no_forced_while_chips_stay(&mut g.st);
        g.st.current = now;
        quiet = q?;
    }
    Ok(quiet)
}

/// The triggers a placement fires.
const PLACEMENT: [Trigger; 3] = [Trigger::Placed, Trigger::Adjacent, Trigger::Abroad];

/// Whether the rules of `game` have forced actions (each decision's sample is then checked with
/// [`decision_allows`]).
pub fn has_forced(game: &Game<Interp>) -> bool {
    game.hooks
        .program()
        .actions
        .iter()
        .any(|a| a.phase.is_none())
}

/// Whether a rule listens to a trigger a placement fires (each placement is then checked with
/// [`placement_runs_no_rule`]).
pub fn placement_listened(game: &Game<Interp>) -> bool {
    PLACEMENT.iter().any(|&t| game.hooks.listens(t))
}

/// Whether option `opt` of the pending decision of `game` runs no rule when taken, for any option
/// but a placement while [`placement_listened`]; whether followers return is the preview's to say.
pub fn option_runs_no_rule(game: &Game<Interp>, opt: Opt) -> bool {
    match opt {
        Opt::Pass => true,
        Opt::Follower { .. } => !game.hooks.listens(Trigger::FollowerPlaced),
        Opt::Place { .. } => !placement_listened(game),
        Opt::Draw | Opt::Action(_) => false,
    }
}

/// Whether placing the tile in hand of `game` on `cell` turned `rot` reaches no `placed`,
/// `adjacent` or `abroad` rule: the contexts `Game::choose` fires them with (the square, each map
/// square next to it with the tile's side facing it, each exit of the map the tile's side
/// continues), asked of the rules of `probe`, a copy of the game with its chips where they lie
/// (what the tests read: the chips on a square, and the map).
pub fn placement_runs_no_rule(
    game: &Game<Interp>,
    probe: &mut Game<Interp>,
    cell: u32,
    rot: usize,
) -> Result<bool, GameError> {
    let Some(ty) = game.st.current_tile else {
        return Ok(false);
    };
    let edges = game.cfg.tiles[ty as usize].rot[rot].edges;
    let b = &game.st.board;
    let ctx = Ctx {
        player: game.st.current,
        placed: b.placed.len() as u32,
        cell,
        ..Ctx::default()
    };
    let (h, st) = (&mut probe.hooks, &mut probe.st);
    if h.listens(Trigger::Placed) && !h.runs_nothing(st, Trigger::Placed, &ctx)? {
        return Ok(false);
    }
    if h.listens(Trigger::Adjacent) {
        for s in 0..4 {
            let n = b.neighbour(cell, s);
            if b.square[n as usize] == NONE {
                continue;
            }
            let c = Ctx {
                cell: n,
                edge: Some(EdgeKind::on_side(edges, s)),
                ..ctx
            };
            if !h.runs_nothing(st, Trigger::Adjacent, &c)? {
                return Ok(false);
            }
        }
    }
    if h.listens(Trigger::Abroad) {
        let at = b.xy(cell);
        for e in game.cfg.map.iter().flat_map(|m| m.exits.iter()) {
            if e.at == at && EdgeKind::on_side(edges, e.side as usize) == e.feature {
                let c = Ctx {
                    edge: Some(e.feature),
                    ..ctx
                };
                if !h.runs_nothing(st, Trigger::Abroad, &c)? {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}
