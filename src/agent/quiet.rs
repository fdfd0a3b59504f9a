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
//!   square's map facts, asked of a copy of the game whose chips lie as in the game) but rules that
//!   only move chips off the map ([`chips_only`]: none of what the value reads, when the rules have
//!   no forced action and nothing listens to a chip gained), a follower no `follower_placed` rule,
//!   and no follower returns while a `returned` rule could run for it ([`returned_settled_now`])
//!   and change what the value reads ([`returned_rules_harmless`]).
//!
//! The trigger contexts are those `Game::choose` fires a placement's triggers with; a test plays
//! whole games of every bundled variant both ways, event for event.

use super::lookahead::Scratch;
use super::points::scored_by_facts;
use crate::features::NONE;
use crate::game::{Ctx, Game, GameError, Hooks as _, Moment, Opt, Trigger};
use crate::geometry::EdgeKind;
use crate::lang::ast::BinOp;
use crate::lang::builtins::{Builtin, Changes, Field, PTy, PlaceKind, Role};
use crate::lang::interp::Interp;
use crate::lang::ir::{Expr, Place, Program, Stmt, Value};
use crate::state::FollowerAt;

/// Per rule of `game`'s program, whether running it changes nothing a quiet option's value reads:
/// its body only moves, draws and shuffles chips between places off the map (the supply, aside,
/// the box, a player's area) and logs. So it moves no chip on or off a square (which the tests that
/// pass rules over read), and scores nothing. Empty (no rule) when the rules have a forced action
/// (whose condition the chips could make hold) or a rule listens to a chip gained.
pub(crate) fn chips_only(game: &Game<Interp>) -> Vec<bool> {
    let h = &game.hooks;
    if has_forced(game) || listens_to_chips_gained(game) {
        return Vec::new();
    }
    h.program()
        .rules
        .iter()
        .map(|r| stmts_move_chips_off_map(&r.body.stmts))
        .collect()
}

fn stmts_move_chips_off_map(stmts: &[Stmt]) -> bool {
    stmts.iter().all(|s| match s {
        Stmt::Let(..) => true,
        Stmt::If(arms, other, _) => {
            arms.iter().all(|(_, b)| stmts_move_chips_off_map(b))
                && other.as_deref().is_none_or(stmts_move_chips_off_map)
        }
        Stmt::For(_, _, b, _) => stmts_move_chips_off_map(b),
        // Its places (the arguments its row types `place`) are off the map, and the chips it
        // moves are the chips of a place off the map.
        Stmt::Effect(b, args, _) => {
            moves_chips(*b)
                && b.args_of(args, PTy::is_place).all(off_map)
                && b.args_of(args, PTy::is_chips).all(|c| match c {
                    Expr::Call(c, from, _) if c.role() == Role::ChipsIn => {
                        matches!(from.as_slice(), [p] if off_map(p))
                    }
                    _ => false,
                })
        }
        Stmt::Ask { .. } => false,
    })
}

/// Whether, once the turn's tile is placed (and no extra turn is pending), where chips lie changes
/// nothing a value played to the end of the turn and the game reads (the scores and the followers):
/// every `scored` rule scores by the feature's facts alone, no rule listens to anything but a tile
/// placed or drawn (which the rest of such a turn, with no tile left to draw, fires no more) and
/// the scoring of features, and every forced action only moves chips ([`moves_chips_only`]). Then
/// the options of a decision that each only move chips (or pass) are worth the same: greedy values
/// one of them (`Greedy::values`).
pub(crate) fn chips_unread_after_placement(game: &Game<Interp>) -> bool {
    let h = &game.hooks;
    let prog = h.program();
    scored_by_facts(prog)
        && Trigger::ALL
            .iter()
            .all(|&t| ends_with_placement(t) || t.moment() == Moment::Scoring || !h.listens(t))
        && prog
            .actions
            .iter()
            .filter(|a| a.phase.is_none())
            .all(|a| moves_chips_only(&a.body.stmts))
}

/// Whether a rule listens to chips gained (by its trigger's moment): any effect moving chips may
/// then run it.
fn listens_to_chips_gained(game: &Game<Interp>) -> bool {
    Trigger::ALL
        .iter()
        .any(|&t| t.moment() == Moment::ChipGained && game.hooks.listens(t))
}

/// Whether a turn fires trigger `t` no more once its tile is placed, with no tile left to draw
/// (by its row's moment).
fn ends_with_placement(t: Trigger) -> bool {
    match t.moment() {
        Moment::TileDrawn | Moment::Placement | Moment::PlacementSide => true,
        Moment::TurnStart
        | Moment::FollowerPlaced
        | Moment::Scoring
        | Moment::FollowerReturned
        | Moment::ChipGained
        | Moment::Answered
        | Moment::End => false,
    }
}

/// The triggers a turn fires no more once its tile is placed, with no tile left to draw.
pub(crate) fn after_placement() -> Vec<Trigger> {
    Trigger::ALL
        .into_iter()
        .filter(|&t| ends_with_placement(t))
        .collect()
}

/// Whether a placement is worth, at every rotation on one square, what the board preview reads for
/// it plus the points its rules gave at one rotation (`Greedy::values`, where the preview could
/// read the placement were it quiet): where chips lie is read by nothing after the placement
/// ([`chips_unread_after_placement`]) or read only to move chips
/// (`Interp::chips_read_only_to_move_chips`, the triggers of [`after_placement`] exempt), no rule
/// listens to a tile's side next to a square or at a border exit (`adjacent`, `abroad`: they read
/// how the tile is turned), and every `placed` rule reads and does only what its square settles
/// (`Interp::rules_score_and_move_chips_by_square`: chips, covered squares, map facts; scores and
/// chip moves).
pub(crate) fn placed_rules_by_square(game: &Game<Interp>) -> bool {
    let h = &game.hooks;
    (chips_unread_after_placement(game) || h.chips_read_only_to_move_chips(&after_placement()))
        && Trigger::ALL
            .iter()
            .all(|&t| t.moment() != Moment::PlacementSide || !h.listens(t))
        && h.rules_score_and_move_chips_by_square(Trigger::Placed)
}

/// Whether a placement is worth, at every rotation on one square, what the board preview reads for
/// it plus the points its rules gave at one rotation played in a copy where no forced action
/// applied (after the placement, nor to the next player once the turn is over: `Greedy::values`
/// looks): no rule listens to a tile's side, every `placed` rule reads and does only what its
/// square settles (as for [`placed_rules_by_square`]), every forced action's condition reads only
/// the chips in players' hands (`Interp::forced_reads_only_hands`: they lie alike at every
/// rotation, so no forced action applies at any), and nothing else runs in the rest of the turn
/// but the scoring and `returned` rules (no rule on a chip gained, a follower placed, a turn's start
/// or an answer).
pub(crate) fn placed_rules_by_square_unforced(game: &Game<Interp>) -> bool {
    let h = &game.hooks;
    Trigger::ALL
        .iter()
        .all(|&t| runs_unforced_after_placement(t) || !h.listens(t))
        && h.forced_reads_only_hands()
        && h.rules_score_and_move_chips_by_square(Trigger::Placed)
}

/// Whether rules on trigger `t` may listen for [`placed_rules_by_square_unforced`] (by its row's
/// moment): the placement itself (checked by square), a tile drawn, the scoring, followers returning
/// and the ends; not a tile's side, a chip gained, a follower placed, a turn's start or an answer.
fn runs_unforced_after_placement(t: Trigger) -> bool {
    match t.moment() {
        Moment::Placement
        | Moment::TileDrawn
        | Moment::Scoring
        | Moment::FollowerReturned
        | Moment::End => true,
        Moment::PlacementSide
        | Moment::ChipGained
        | Moment::FollowerPlaced
        | Moment::TurnStart
        | Moment::Answered => false,
    }
}

/// Per action of `game`'s program (by index), whether its body only moves, draws and shuffles chips
/// (anywhere: on the map or off it) and logs: no score, no follower, no tile, no turn, no question.
pub(crate) fn chip_actions(game: &Game<Interp>) -> Vec<bool> {
    game.hooks
        .program()
        .actions
        .iter()
        .map(|a| moves_chips_only(&a.body.stmts))
        .collect()
}

/// Whether `stmts` only move, draw and shuffle chips and log (see [`chip_actions`]).
fn moves_chips_only(stmts: &[Stmt]) -> bool {
    stmts.iter().all(|s| match s {
        Stmt::Let(..) => true,
        Stmt::If(arms, other, _) => {
            arms.iter().all(|(_, b)| moves_chips_only(b))
                && other.as_deref().is_none_or(moves_chips_only)
        }
        Stmt::For(_, _, b, _) => moves_chips_only(b),
        Stmt::Effect(b, _, _) => moves_chips(*b),
        Stmt::Ask { .. } => false,
    })
}

/// A place off the map: the supply, aside, the box or a player's area.
fn off_map(e: &Expr) -> bool {
    match e {
        Expr::Const(Value::Place(p)) => {
            matches!(
                p,
                Place::Supply | Place::Aside | Place::Box | Place::Hand(_)
            )
        }
        Expr::Call(b, _, _) => b.role() == Role::Place(PlaceKind::Hand),
        _ => false,
    }
}

/// Whether effect `b` changes nothing but where chips lie and the log (its row's `Changes`).
fn moves_chips(b: Builtin) -> bool {
    b.changes()
        .is_some_and(|c| c.within(Changes::CHIPS.with(Changes::LOG)))
}

/// Whether every `returned` rule of `game` has a condition that reads only the returning
/// follower's strength and owner, the player, parameters and constants: none of which a quiet
/// option changes before its followers return, so that the condition evaluated now for each
/// follower says whether the rule will run ([`returned_runs_for_none`]).
pub(crate) fn returned_settled_now(game: &Game<Interp>) -> bool {
    let prog = game.hooks.program();
    prog.rules_for(Trigger::Returned).iter().all(|&r| {
        prog.rules[r as usize]
            .when
            .as_ref()
            .is_some_and(reads_returning_follower)
    })
}

/// The slots a `returned` rule binds: the player, then the follower.
fn reads_returning_follower(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Param(_) => true,
        Expr::Local(s) => *s < 2,
        Expr::Not(a) | Expr::Neg(a, _) => reads_returning_follower(a),
        Expr::Binary(_, a, b, _) => reads_returning_follower(a) && reads_returning_follower(b),
        Expr::Field(x, Field::FollowerStrength | Field::FollowerOwner, _) => {
            matches!(x.as_ref(), Expr::Local(1))
        }
        _ => false,
    }
}

/// Whether every `returned` rule of `game` changes nothing a quiet option's value reads, whether
/// it runs or not: its body only logs, moves chips and sets the strength of the returning follower
/// (no longer on a feature: no majority counts it), and the rules have no forced action (whose
/// condition the chips moved could make hold) and no rule on a chip gained. The value reads
/// scores, the followers in the supply and the features with followers on the board (by their
/// facts: no chip, no follower off the board).
pub(crate) fn returned_rules_harmless(game: &Game<Interp>) -> bool {
    let h = &game.hooks;
    let prog = h.program();
    !has_forced(game)
        && !listens_to_chips_gained(game)
        && prog
            .rules_for(Trigger::Returned)
            .iter()
            .all(|&r| harmless_on_return(&prog.rules[r as usize].body.stmts))
}

/// Whether `stmts` (a `returned` rule's body) only log, move chips and set the strength of the
/// returning follower (slot 1, which nothing binds again).
fn harmless_on_return(stmts: &[Stmt]) -> bool {
    stmts.iter().all(|s| match s {
        Stmt::Let(slot, _, _) => *slot != 1,
        Stmt::If(arms, other, _) => {
            arms.iter().all(|(_, b)| harmless_on_return(b))
                && other.as_deref().is_none_or(harmless_on_return)
        }
        Stmt::For(slot, _, b, _) => *slot != 1 && harmless_on_return(b),
        Stmt::Effect(b, args, _) => match b.changes() {
            // Chips moved or a line logged, nothing dealt afresh.
            Some(c) if c.within(Changes::CHIPS.with(Changes::LOG)) => !c.has(Changes::DEALS),
            // The strength of the returning follower.
            Some(c) if c.within(Changes::STRENGTH) => b
                .args_of(args, PTy::is_follower)
                .all(|f| matches!(f, Expr::Local(1))),
            _ => false,
        },
        Stmt::Ask { .. } => false,
    })
}

/// Whether no `returned` rule would run for any follower of `game` (on the board or in a
/// supply), were it to return now; for rules [`returned_settled_now`] accepts (their conditions are
/// worked out here from the follower's owner and strength: `false` when one cannot be).
pub(crate) fn returned_runs_for_none(game: &Game<Interp>) -> bool {
    let prog = game.hooks.program();
    let rules = prog.rules_for(Trigger::Returned);
    game.st.followers.iter().all(|fo| {
        !matches!(fo.at, FollowerAt::Board(_) | FollowerAt::Supply)
            || rules.iter().all(|&r| {
                let when = prog.rules[r as usize].when.as_ref();
                when.and_then(|w| returning(w, prog, fo.owner, fo.strength))
                    == Some(Value::Bool(false))
            })
    })
}

/// The value of a condition [`returned_settled_now`] accepts for a follower of `owner` with
/// `strength` returning; `None` where it cannot tell (a type or an operation it does not know, an
/// overflow, a division by 0: the rule then counts as one that may run).
fn returning(e: &Expr, prog: &Program, owner: u8, strength: u8) -> Option<Value> {
    use Value as V;
    let go = |x: &Expr| returning(x, prog, owner, strength);
    Some(match e {
        Expr::Const(v) => *v,
        Expr::Param(p) => prog.params.get(*p as usize)?.value,
        Expr::Local(0) => V::Player(owner),
        Expr::Field(_, Field::FollowerStrength, _) => V::Int(i64::from(strength)),
        Expr::Field(_, Field::FollowerOwner, _) => V::Player(owner),
        Expr::Not(a) => match go(a)? {
            V::Bool(b) => V::Bool(!b),
            _ => return None,
        },
        Expr::Neg(a, _) => match go(a)? {
            V::Int(n) => V::Int(n.checked_neg()?),
            _ => return None,
        },
        Expr::Binary(op, a, b, _) => {
            let (x, y) = (go(a)?, go(b)?);
            match (op, x, y) {
                (BinOp::And, V::Bool(p), V::Bool(q)) => V::Bool(p && q),
                (BinOp::Or, V::Bool(p), V::Bool(q)) => V::Bool(p || q),
                (BinOp::Eq | BinOp::Ne, V::Int(_), V::Int(_))
                | (BinOp::Eq | BinOp::Ne, V::Bool(_), V::Bool(_))
                | (BinOp::Eq | BinOp::Ne, V::Player(_), V::Player(_)) => {
                    V::Bool((x == y) == (*op == BinOp::Eq))
                }
                (_, V::Int(m), V::Int(n)) => match op {
                    BinOp::Lt => V::Bool(m < n),
                    BinOp::Le => V::Bool(m <= n),
                    BinOp::Gt => V::Bool(m > n),
                    BinOp::Ge => V::Bool(m >= n),
                    BinOp::Add => V::Int(m.checked_add(n)?),
                    BinOp::Sub => V::Int(m.checked_sub(n)?),
                    BinOp::Mul => V::Int(m.checked_mul(n)?),
                    _ => return None,
                },
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// Whether the rules of `game` let options be quiet at all (see the module comment).
pub(crate) fn rules_allow(game: &Game<Interp>) -> bool {
    let h = &game.hooks;
    scored_by_facts(h.program())
        && Trigger::ALL
            .iter()
            .all(|&t| t.moment() != Moment::End || !h.listens(t))
}

/// Whether the final scoring of `game`'s rules, once a turn is over and no forced action applies,
/// scores only the features with followers by their facts (no rule listens to the game's end), so
/// that `Preview::load` reads what it gives; for at most 8 players.
pub(crate) fn end_allows(game: &Game<Interp>) -> bool {
    let h = &game.hooks;
    scored_by_facts(h.program()) && !h.listens(Trigger::GameEnd) && game.st.players.len() <= 8
}

/// Whether no forced action can apply, in the sample `g` of a decision of its current player, to
/// that player or the one who plays next (`g.st.current` is put back). Each check is asked of
/// `memo`.
pub(crate) fn decision_allows(
    g: &mut Game<Interp>,
    memo: &mut ForcedMemo,
) -> Result<bool, GameError> {
    let now = g.st.current;
    let next = g.st.next_player();
    let mut quiet = memo.no_forced(g)?;
    if quiet && next != now {
        g.st.current = next;
        let q = memo.no_forced(g);
        g.st.current = now;
        quiet = q?;
    }
    Ok(quiet)
}

/// Most answers a [`ForcedMemo`] keeps.
const FORCED_MEMO: usize = 8;

/// `Interp::no_forced_while_chips_stay`, its answers remembered by all they read where the forced
/// check reads only chips in players' areas (`Interp::forced_reads_only_hands`: then the answer is
/// that of the current player and the chips in each player's hand, each by its id, face and which
/// way up; nothing else the check reads changes in a game). A hand changes seldom (a chip
/// collected, a set paid), so the check is asked again of the same hands decision after decision.
/// Answers are remembered by what the state checked holds, not by where it came from: a sample
/// of the game and the game itself share them when their hands are alike.
#[derive(Default)]
pub(crate) struct ForcedMemo {
    /// Whether answers are remembered (the rules' forced check reads only hands).
    on: bool,
    /// The answers: what was read, and the answer.
    seen: Vec<(Vec<u64>, bool)>,
    /// The answer `seen` replaces next once full.
    next: usize,
    /// What the check asked now reads.
    key: Vec<u64>,
}

impl ForcedMemo {
    /// A memo for the rules of `game` (remembering answers only where the forced check reads only
    /// hands).
    pub(crate) fn new(game: &Game<Interp>) -> ForcedMemo {
        ForcedMemo {
            on: game.hooks.forced_reads_only_hands(),
            ..ForcedMemo::default()
        }
    }

    /// Whether no forced action can apply to the current player of `g` while its chips stay as
    /// they are (`Interp::no_forced_while_chips_stay`), remembered.
    pub(crate) fn no_forced(&mut self, g: &mut Game<Interp>) -> Result<bool, GameError> {
        if !self.on {
            return g.hooks.no_forced_while_chips_stay(&mut g.st);
        }
        if let Some(quiet) = self.recall(&g.st, g.st.current) {
            return Ok(quiet);
        }
        let quiet = g.hooks.no_forced_while_chips_stay(&mut g.st)?;
        self.remember(quiet);
        Ok(quiet)
    }

    /// The answer remembered for `current` as the current player of `st` (which the check is
    /// asked of then, or `st` with its chips), if any; else `None`, and what it read is kept for
    /// [`ForcedMemo::remember`]. Only while the memo is on.
    fn recall(&mut self, st: &crate::state::State, current: u8) -> Option<bool> {
        self.key.clear();
        self.key.push(u64::from(current));
        for p in 0..st.hands.len() {
            let hand = st.hand(p as u8);
            self.key
                .push(1 << 63 | (p as u64) << 32 | hand.len() as u64);
            for &id in hand {
                let c = &st.chips[id as usize];
                self.key.push(
                    u64::from(id) << 32
                        | u64::from(c.colour) << 16
                        | u64::from(c.value) << 8
                        | u64::from(c.face_up),
                );
            }
        }
        self.seen
            .iter()
            .find(|(k, _)| *k == self.key)
            .map(|&(_, quiet)| quiet)
    }

    /// Remembers `quiet` as the answer for what the last [`ForcedMemo::recall`] read.
    fn remember(&mut self, quiet: bool) {
        if self.seen.len() < FORCED_MEMO {
            self.seen.push((self.key.clone(), quiet));
        } else {
            let (key, q) = &mut self.seen[self.next];
            key.clone_from(&self.key);
            *q = quiet;
            self.next = (self.next + 1) % FORCED_MEMO;
        }
    }

    /// [`decision_allows`] for a decision of `game`, whose forced check reads only hands, none of
    /// them hidden from the decider (`Interp::forced_reads_only_hands`, [`hands_face_up_but`]):
    /// answers remembered are read from `game` itself, and a check not remembered is asked of
    /// `probe` ([`load_probe`]; its current player is put back).
    pub(crate) fn decision_allows_by_hands(
        &mut self,
        game: &Game<Interp>,
        probe: &mut Scratch,
        probed: &mut bool,
    ) -> Result<bool, GameError> {
        if !self.on {
            return decision_allows(load_probe(probe, probed, game), self);
        }
        let st = &game.st;
        let now = st.current;
        let next = st.next_player();
        for (k, p) in [now, next].into_iter().enumerate() {
            if k == 1 && p == now {
                break;
            }
            let quiet = match self.recall(st, p) {
                Some(quiet) => quiet,
                None => {
                    let g = load_probe(probe, probed, game);
                    g.st.current = p;
                    let quiet = g.hooks.no_forced_while_chips_stay(&mut g.st);
                    g.st.current = now;
                    let quiet = quiet?;
                    self.remember(quiet);
                    quiet
                }
            };
            if !quiet {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// `probe` with the chips of `game` as they lie, and where play stands and what the rules keep
/// (`State::copy_turn_from`: the turn, round and current player, the extra turns, the order of
/// play, the kept values), copied the first time in a decision (`probed` says whether it was).
pub(crate) fn load_probe<'a>(
    probe: &'a mut Scratch,
    probed: &mut bool,
    game: &Game<Interp>,
) -> &'a mut Game<Interp> {
    if !*probed {
        *probed = true;
        let g = probe.with_chips_of(game);
        g.st.copy_turn_from(&game.st);
        return g;
    }
    probe.game_mut().expect("a probe")
}

/// Whether every chip in a player's area but `me`'s lies face up (see
/// `Interp::forced_reads_only_hands`).
pub(crate) fn hands_face_up_but(game: &Game<Interp>, me: u8) -> bool {
    game.st
        .chips
        .iter()
        .all(|c| c.face_up || !matches!(c.place, crate::state::Place::Hand(p) if p != me))
}

/// The triggers a placement fires.
const PLACEMENT: [Trigger; 3] = [Trigger::Placed, Trigger::Adjacent, Trigger::Abroad];

/// Whether the rules of `game` have forced actions (each decision's sample is then checked with
/// [`decision_allows`]).
pub(crate) fn has_forced(game: &Game<Interp>) -> bool {
    game.hooks
        .program()
        .actions
        .iter()
        .any(|a| a.phase.is_none())
}

/// Whether a rule listens to a trigger a placement fires (each placement is then checked with
/// [`Placements::runs_no_rule`]).
pub(crate) fn placement_listened(game: &Game<Interp>) -> bool {
    PLACEMENT.iter().any(|&t| game.hooks.listens(t))
}

/// Whether option `opt` of the pending decision of `game` runs no rule when taken, for any option
/// but a placement while [`placement_listened`]; whether followers return is the preview's to say.
pub(crate) fn option_runs_no_rule(game: &Game<Interp>, opt: Opt) -> bool {
    match opt {
        Opt::Pass => true,
        Opt::Follower { .. } => !game.hooks.listens(Trigger::FollowerPlaced),
        Opt::Place { .. } => !placement_listened(game),
        Opt::Draw | Opt::Action(_) => false,
    }
}

/// What [`Placements::runs_no_rule`] has answered in one decision for the square last asked about:
/// each trigger's answer depends on the decision (its player, its tile, the probe's chips) and on
/// the context's square and side alone, so the rotations of one square (listed one after another)
/// ask the rules once per trigger context, not once per rotation. And the `placed` answers of
/// every square across decisions, where the rules make them depend on the square and whether
/// chips lie on it alone (`Interp::runs_nothing_by_square`).
pub(crate) struct Placements {
    /// Per trigger a placement fires ([`PLACEMENT`]), whether a rule not allowed listens to it
    /// (`None`: not worked out since [`Placements::clear`]). A trigger only allowed rules listen
    /// to runs none of the others in any context: it is not asked.
    asked: Option<[bool; 3]>,
    /// Whether, of the triggers in `asked`, `placed` alone is asked.
    placed_only: bool,
    /// Per cell, the `placed` answers remembered across decisions: bit 0 set when known with no
    /// chip on the square, bit 1 that answer; bits 2 and 3 the same with chips on it. Empty while
    /// the rules do not let them be remembered.
    squares: Vec<u8>,
    /// What `squares` was worked out for: the address of the program, the number of cells and the
    /// rules allowed (checked at each decision; anything else changed forgets `squares`).
    squares_for: (usize, usize, Vec<bool>),
    /// The square the answers below are for (`NONE`: none yet).
    cell: u32,
    /// Whether `placed` runs no rule but those allowed, for `cell`.
    placed: bool,
    /// Per square next to `cell` and side kind facing it, whether `adjacent` runs none.
    adjacent: Vec<(u32, EdgeKind, bool)>,
    /// Per exit feature at `cell`, whether `abroad` runs none.
    abroad: Vec<(EdgeKind, bool)>,
}

impl Default for Placements {
    fn default() -> Placements {
        Placements {
            asked: None,
            placed_only: false,
            squares: Vec::new(),
            squares_for: (0, 0, Vec::new()),
            cell: NONE,
            placed: false,
            adjacent: Vec::new(),
            abroad: Vec::new(),
        }
    }
}

impl Placements {
    /// Forgets every answer of the decision (at each decision: the probe's chips, the player or
    /// the tile may have changed); those remembered per square and chips are kept.
    pub(crate) fn clear(&mut self) {
        self.asked = None;
        self.forget_square();
    }

    /// Works out, at a decision's first placement asked about, per trigger a placement fires
    /// whether a rule not allowed listens to it (see `asked`), and forgets the answers remembered
    /// per square if what they were worked out for changed.
    fn begin(&mut self, game: &Game<Interp>, allowed: &[bool]) -> [bool; 3] {
        let h = &game.hooks;
        let prog = h.program();
        let asked = PLACEMENT.map(|t| {
            prog.rules_for(t)
                .iter()
                .any(|&r| !allowed.get(r as usize).copied().unwrap_or(false))
        });
        self.asked = Some(asked);
        self.placed_only = !(asked[1] || asked[2]);
        let of = (prog as *const Program as usize, game.st.board.square.len());
        if (self.squares_for.0, self.squares_for.1) != of || self.squares_for.2 != allowed {
            self.squares_for = (of.0, of.1, allowed.to_vec());
            self.squares.clear();
            if h.runs_nothing_by_square(Trigger::Placed) {
                self.squares.resize(of.1, 0);
            }
        }
        asked
    }

    /// Whether `placed` fired for a placement on `cell` runs no rule but those allowed: remembered
    /// per square and whether chips lie on it, where the rules let it be (`squares`).
    fn placed_quiet(
        &mut self,
        game: &Game<Interp>,
        probe: &mut Game<Interp>,
        cell: u32,
        allowed: &[bool],
    ) -> Result<bool, GameError> {
        let (h, st) = (&mut probe.hooks, &mut probe.st);
        let Some(m) = self.squares.get_mut(cell as usize) else {
            let ctx = Self::context(game, cell);
            return h.runs_nothing_but(st, Trigger::Placed, &ctx, allowed);
        };
        let shift = if st.chip_count(crate::state::Place::Square(cell)) == Some(0) {
            0
        } else {
            2
        };
        if *m >> shift & 1 != 0 {
            return Ok(*m >> shift & 2 != 0);
        }
        let ctx = Self::context(game, cell);
        let quiet = h.runs_nothing_but(st, Trigger::Placed, &ctx, allowed)?;
        *m |= (1 | u8::from(quiet) << 1) << shift;
        Ok(quiet)
    }

    /// What [`Placements::runs_no_rule`] answers for a placement of `game`'s tile on `cell`, where
    /// it is known without asking the rules or reading the probe (`None` otherwise): where only
    /// `placed` is asked, true when no rule but those allowed listens to it, else the answer
    /// remembered for the square and whether chips lie on it (read from `game`, whose chips the
    /// probe holds). `game` and `allowed` must be those of the last call since
    /// [`Placements::clear`].
    #[inline]
    pub(crate) fn remembered(
        &mut self,
        game: &Game<Interp>,
        cell: u32,
        allowed: &[bool],
    ) -> Option<bool> {
        let placed = match self.asked {
            Some(a) => a[0],
            None => self.begin(game, allowed)[0],
        };
        if !self.placed_only {
            return None;
        }
        if !placed {
            return Some(true);
        }
        let m = *self.squares.get(cell as usize)?;
        let chips = game
            .st
            .on_square
            .get(cell as usize)
            .is_some_and(|&n| n != 0);
        let shift = if chips { 2 } else { 0 };
        (m >> shift & 1 != 0).then_some(m >> shift & 2 != 0)
    }

    /// Forgets the answers for the square last asked about.
    fn forget_square(&mut self) {
        self.cell = NONE;
        self.adjacent.clear();
        self.abroad.clear();
    }

    /// Whether placing the tile in hand of `game` on `cell` turned `rot` reaches no `placed`,
    /// `adjacent` or `abroad` rule but those marked in `allowed` ([`chips_only`]): the contexts
    /// `Game::choose` fires them with (the square, each map square next to it with the tile's side
    /// facing it, each exit of the map the tile's side continues), asked of the rules of `probe`, a
    /// copy of the game with its chips where they lie (what the tests read: the chips on a square,
    /// and the map). `probe`, `game` and `allowed` must be those of the last call since
    /// [`Placements::clear`].
    #[inline]
    pub(crate) fn runs_no_rule(
        &mut self,
        game: &Game<Interp>,
        probe: &mut Game<Interp>,
        cell: u32,
        rot: usize,
        allowed: &[bool],
    ) -> Result<bool, GameError> {
        if self.cell == cell && self.placed_only {
            return Ok(self.placed);
        }
        self.ask(game, probe, cell, rot, allowed)
    }

    /// [`Placements::runs_no_rule`] but for a square asked again when no side trigger is asked.
    #[inline(never)]
    fn ask(
        &mut self,
        game: &Game<Interp>,
        probe: &mut Game<Interp>,
        cell: u32,
        rot: usize,
        allowed: &[bool],
    ) -> Result<bool, GameError> {
        let Some(ty) = game.st.current_tile else {
            return Ok(false);
        };
        let [placed, adjacent, abroad] = match self.asked {
            Some(a) => a,
            None => self.begin(game, allowed),
        };
        if self.cell != cell {
            self.forget_square();
            self.placed = !placed || self.placed_quiet(game, probe, cell, allowed)?;
            self.cell = cell;
        }
        if !self.placed || !(adjacent || abroad) {
            return Ok(self.placed);
        }
        let edges = game.cfg.tiles[ty as usize].rot[rot].edges;
        self.sides_quiet(game, probe, cell, edges, [adjacent, abroad], allowed)
    }

    /// The context `placed` is fired with for a placement of `game`'s tile on `cell`.
    fn context(game: &Game<Interp>, cell: u32) -> Ctx {
        Ctx {
            player: game.st.current,
            placed: game.st.board.placed.len() as u32,
            cell,
            ..Ctx::default()
        }
    }

    /// Whether the tile's sides (`edges`) on `cell` reach no `adjacent` rule (when asked) and no
    /// `abroad` rule (when asked) but those allowed, the answers remembered per square and side
    /// in the decision.
    fn sides_quiet(
        &mut self,
        game: &Game<Interp>,
        probe: &mut Game<Interp>,
        cell: u32,
        edges: u8,
        [adjacent, abroad]: [bool; 2],
        allowed: &[bool],
    ) -> Result<bool, GameError> {
        let b = &game.st.board;
        let ctx = Self::context(game, cell);
        let (h, st) = (&mut probe.hooks, &mut probe.st);
        if adjacent {
            for s in 0..4 {
                let n = b.neighbour(cell, s);
                if b.square[n as usize] == NONE {
                    continue;
                }
                let kind = EdgeKind::on_side(edges, s);
                let quiet = match self.adjacent.iter().find(|a| a.0 == n && a.1 == kind) {
                    Some(a) => a.2,
                    None => {
                        let c = Ctx {
                            cell: n,
                            edge: Some(kind),
                            ..ctx
                        };
                        let q = h.runs_nothing_but(st, Trigger::Adjacent, &c, allowed)?;
                        self.adjacent.push((n, kind, q));
                        q
                    }
                };
                if !quiet {
                    return Ok(false);
                }
            }
        }
        if abroad {
            let at = b.xy(cell);
            for e in game.cfg.map.iter().flat_map(|m| m.exits.iter()) {
                if e.at == at && EdgeKind::on_side(edges, e.side as usize) == e.feature {
                    let quiet = match self.abroad.iter().find(|a| a.0 == e.feature) {
                        Some(a) => a.1,
                        None => {
                            let c = Ctx {
                                edge: Some(e.feature),
                                ..ctx
                            };
                            let q = h.runs_nothing_but(st, Trigger::Abroad, &c, allowed)?;
                            self.abroad.push((e.feature, q));
                            q
                        }
                    };
                    if !quiet {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }
}

/// [`Placements::runs_no_rule`] asked afresh and the slow way: every trigger context of the
/// placement asked of the rules, whatever rules listen to it (the reference the remembered and
/// skipped answers are checked against).
#[cfg(test)]
pub(crate) fn placement_runs_no_rule(
    game: &Game<Interp>,
    probe: &mut Game<Interp>,
    cell: u32,
    rot: usize,
    allowed: &[bool],
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
    if h.listens(Trigger::Placed) && !h.runs_nothing_but(st, Trigger::Placed, &ctx, allowed)? {
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
            if !h.runs_nothing_but(st, Trigger::Adjacent, &c, allowed)? {
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
                if !h.runs_nothing_but(st, Trigger::Abroad, &c, allowed)? {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::lookahead::Scratch;
    use crate::rng::Rng;
    use crate::variant::{bundled_variants, load_variant};

    /// The forced check asked of a `ForcedMemo` answers as asked of the rules each time: whole
    /// games of every bundled variant whose forced check reads only hands (every player at every
    /// decision, in the game itself).
    #[test]
    fn remembered_forced_checks_answer_as_the_rules_do() {
        let (mut asked, mut variants) = (0, 0);
        for (name, _) in bundled_variants() {
            let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            let names = ["ann".to_string(), "bob".to_string()];
            let mut game = v.new_game(v.config.clone(), &names, 5, false).unwrap();
            if !game.hooks.forced_reads_only_hands() || !has_forced(&game) {
                continue;
            }
            variants += 1;
            let mut memo = ForcedMemo::new(&game);
            let mut rng = Rng::new(5);
            while game.advance().unwrap() {
                let now = game.st.current;
                for p in 0..game.st.players.len() as u8 {
                    game.st.current = p;
                    let slow = game.hooks.no_forced_while_chips_stay(&mut game.st).unwrap();
                    assert_eq!(memo.no_forced(&mut game).unwrap(), slow, "{name}");
                    asked += 1;
                }
                game.st.current = now;
                let i = rng.below(game.options.len() as u32) as usize;
                game.choose(i).unwrap();
            }
        }
        assert!(
            variants >= 1 && asked > 100,
            "{variants} variants, {asked} checks"
        );
    }

    /// A decision's forced check read from the game where remembered (`decision_allows_by_hands`)
    /// answers as the check asked afresh of a copy of the game: whole games of every bundled
    /// variant whose forced check reads only hands, at every decision where the decider sees
    /// every chip in a hand (both answers met).
    #[test]
    fn forced_checks_read_from_the_game_answer_as_asked_of_a_copy() {
        let (mut quiet, mut not, mut variants) = (0, 0, 0);
        for (name, _) in bundled_variants() {
            let v = load_variant(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            for seed in [5, 6] {
                let names: Vec<String> = ["ann", "bob", "cyd"][..seed as usize % 2 + 2]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                let mut game = v.new_game(v.config.clone(), &names, seed, false).unwrap();
                if !game.hooks.forced_reads_only_hands() || !has_forced(&game) {
                    break;
                }
                variants += usize::from(seed == 5);
                let mut memo = ForcedMemo::new(&game);
                let mut probe = Scratch::default();
                let mut rng = Rng::new(seed);
                while game.advance().unwrap() {
                    if hands_face_up_but(&game, game.decider()) {
                        let mut probed = false;
                        let got = memo
                            .decision_allows_by_hands(&game, &mut probe, &mut probed)
                            .unwrap();
                        let mut copy = game.clone();
                        let want = decision_allows(&mut copy, &mut ForcedMemo::default()).unwrap();
                        assert_eq!(got, want, "{name}: seed {seed}, turn {}", game.st.turn);
                        if got {
                            quiet += 1;
                        } else {
                            not += 1;
                        }
                    }
                    let i = rng.below(game.options.len() as u32) as usize;
                    game.choose(i).unwrap();
                }
            }
        }
        assert!(
            variants >= 1 && quiet > 100 && not > 10,
            "{variants} variants, {quiet} quiet, {not} not"
        );
    }

    /// The probe loaded at a decision holds where play stands and what the rules keep as the game
    /// does, though it was loaded whole at an earlier decision: at every decision of random games
    /// of [`order`](../../tests/fixtures/agents/order.rules) (kept values per player and for the
    /// game, a flag reset each turn, play reversed each round, skipped turns and extra turns for
    /// another player), the probe's kept values, next player, extra turns and round are the
    /// game's (each changed many times, so that a probe left as first loaded would show).
    #[test]
    fn the_probe_holds_the_games_kept_values_and_order_of_play() {
        let v = crate::agent::fixture("order");
        let (mut changed, mut decisions) = (0, 0);
        for seed in [1, 2] {
            let names: Vec<String> = ["ann", "bob", "cyd"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let mut game = v.new_game(v.config.clone(), &names, seed, false).unwrap();
            let mut probe = Scratch::default();
            let mut rng = Rng::new(seed);
            let mut first: Option<(Vec<i64>, u8, bool)> = None;
            while game.advance().unwrap() {
                let mut probed = false;
                let p = load_probe(&mut probe, &mut probed, &game);
                let at = format!("seed {seed}, turn {}", game.st.turn);
                assert_eq!(p.st.counters.values, game.st.counters.values, "{at}");
                assert_eq!(p.st.next_player(), game.st.next_player(), "{at}");
                assert_eq!(p.st.order.reversed, game.st.order.reversed, "{at}");
                assert_eq!(p.st.order.skips, game.st.order.skips, "{at}");
                assert_eq!(p.st.in_extra_turn, game.st.in_extra_turn, "{at}");
                assert_eq!(p.st.round, game.st.round, "{at}");
                let now = (
                    game.st.counters.values.clone(),
                    game.st.next_player(),
                    game.st.order.reversed,
                );
                let first = first.get_or_insert_with(|| now.clone());
                changed += usize::from(first.0 != now.0 && (first.1 != now.1 || first.2 != now.2));
                decisions += 1;
                let i = rng.below(game.options.len() as u32) as usize;
                game.choose(i).unwrap();
            }
        }
        assert!(
            decisions > 100 && changed > 50,
            "{decisions} decisions, {changed} with kept values and order unlike the first"
        );
    }

    /// A bundled map and its chips with rules on a tile's side facing a square (`adjacent`) and on a
    /// border exit (`abroad`) that run for one kind of side only: a placement's answer then depends
    /// on how the tile is turned, not only on its square. One `adjacent` rule only draws chips
    /// into the player's area (allowed: [`chips_only`]), next to one that scores.
    fn sides() -> crate::variant::Variant {
        crate::agent::fixture("sides")
    }

    /// A placement's checks remembered per square and side within a decision, and per square and
    /// chips on it across the decisions of a game, answer what asking the rules afresh for that
    /// placement answers: at every placement option of random games of every bundled variant
    /// whose rules listen to a placement, and of [`sides`] (both answers met many times, and
    /// squares of one decision answered differently, so that a memo that mixed squares, sides or
    /// chips up would show).
    #[test]
    fn placement_checks_remembered_answer_as_asked_afresh() {
        let (mut quiet, mut not, mut mixed, mut read) = (0, 0, 0, 0);
        let variants = crate::agent::bundled_and(Some(("sides", sides())));
        for (name, v) in &variants {
            let seeds = if name == "sides" { 60 } else { 2 };
            for seed in 1..=seeds {
                let names: Vec<String> = ["ann", "bob", "cyd"][..seed as usize % 2 + 2]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                let mut game = v.new_game(v.config.clone(), &names, seed, false).unwrap();
                if !placement_listened(&game) {
                    break;
                }
                let allowed = chips_only(&game);
                assert!(
                    name != "sides" || allowed.contains(&true),
                    "sides: `gain` allowed"
                );
                let (mut probe, mut fresh) = (Scratch::default(), Scratch::default());
                let mut memo = Placements::default();
                let mut rng = Rng::new(seed);
                while game.advance().unwrap() {
                    memo.clear();
                    let mut probed = false;
                    let mut answers = (false, false);
                    for &opt in &game.options {
                        let Opt::Place { cell, rot } = opt else {
                            continue;
                        };
                        let rot = rot as usize;
                        // As greedy asks: the remembered answer first, the probe (the game's
                        // chips) loaded only for an answer not remembered.
                        let got = match memo.remembered(&game, cell, &allowed) {
                            Some(q) => {
                                read += 1;
                                q
                            }
                            None => {
                                let p = load_probe(&mut probe, &mut probed, &game);
                                memo.runs_no_rule(&game, p, cell, rot, &allowed).unwrap()
                            }
                        };
                        let f = fresh.with_chips_of(&game);
                        let want = placement_runs_no_rule(&game, f, cell, rot, &allowed).unwrap();
                        assert_eq!(got, want, "{name}: seed {seed}, turn {}", game.st.turn);
                        if got {
                            quiet += 1;
                            answers.0 = true;
                        } else {
                            not += 1;
                            answers.1 = true;
                        }
                    }
                    mixed += usize::from(answers.0 && answers.1);
                    let i = rng.below(game.options.len() as u32) as usize;
                    game.choose(i).unwrap();
                }
            }
        }
        assert!(
            quiet > 1000 && not > 100 && mixed > 50 && read > 1000,
            "{quiet} quiet, {not} not, {mixed} decisions with both, {read} read remembered"
        );
    }
}
