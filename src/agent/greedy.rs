//! `greedy`: the option with the best immediate gain for itself. An option's value is the position
//! it leads to once the turn is over (no further follower or action) and the game ended there: the
//! variant's own rules score what the option completed and what the features with followers are
//! worth now; the value is the player's lead over the best other player. The follower heuristic: a
//! follower still in the supply is worth more the more tiles are left, so none is spent on a
//! feature worth less than that. Ties are broken by the seeded generator.
//!
//! An option that runs no rule but the scoring of features (`quiet`: in every variant whose `scored`
//! rules score by the feature's facts alone, most placements: those not on or next to a square a
//! rule is about, returning no follower a `returned` rule would run for and change what the value
//! reads) is valued from the board without playing it (`value::Preview`). Any other option (one
//! collecting a chip, an action, …) is played in a sample of the game (a copy in which what the
//! player may not see, such as a face-down chip's value, is dealt afresh: `View::sample`), the
//! same sample for every option of a decision; the quiet checks read that sample too. An option
//! played in a copy that places no tile and leaves the followers on the board as they were (an
//! action that moved chips and scored, or sent a follower from the supply off the board) is valued
//! from the decision's own position read from the board, with the scores and spare followers the
//! copy reached, instead of reading the copy's board again. Both ways give the same value (a test
//! plays whole games of every bundled variant both ways).
//!
//! Where, once the turn's tile is placed, nothing the value reads depends on where chips lie
//! (`quiet::chips_unread_after_placement`: scoring by facts, no rule on anything but a tile placed
//! or drawn and the scoring, forced actions that only move chips), a decision whose options to be
//! played in copies each only move chips or pass (`quiet::chip_actions`: a chip laid back on the
//! map, say) gives every one of them the value of one, played once. Where that holds, or where
//! the rules read where chips lie only to move chips once the tile is placed (see below), and the
//! `placed` rules read and do only what the square settles (`quiet::placed_rules_by_square`: the
//! chips on it, covered squares, map facts; scores and chip moves) and no rule is about a tile's
//! sides, a placement played in a copy (one collecting a chip, say) teaches the points its rules
//! gave on that square (the copy's scores minus the board preview's): every other rotation on the
//! square is the preview's outcome plus those points (where the preview could read the placement
//! were it quiet: no follower returns where a `returned` rule could run for it). So too where the
//! forced actions' conditions read only the chips in hands and nothing but the scoring and
//! `returned` rules runs after the placement (`quiet::placed_rules_by_square_unforced`), from a
//! copy in which no forced action applied.
//!
//! Where, once the turn's tile is placed, the rules read chips only to move chips
//! (`Interp::chips_read_only_to_move_chips`: a taint analysis of chip facts through the rules),
//! an action's options that differ only in choices whose values reach nothing but chips moved
//! (`Interp::chip_choices`: the chips paid for an upgrade and the one kept, say) lead to positions
//! that differ only in where chips lie, and are worth the same: one of them is played in a copy.

use super::lookahead::{finish_quietly, margin, quiet_option, Scratch};
use super::points::{FeaturePoints, Points};
use super::quiet::{self, after_placement};
use super::value::{Outcome, Preview};
use super::{Agent, View};
use crate::features::NONE;
use crate::game::{Game, GameError, Hooks as _, Opt, Trigger};
use crate::lang::interp::Interp;
use crate::rng::Rng;
use crate::state::{Follower, FollowerAt};
use decision::Decision;

mod decision;

/// What a follower kept in the supply is worth, in points, at the start of the game (falling to 0
/// as the tiles run out).
const FOLLOWER_WORTH: f64 = 3.0;

#[derive(Default)]
pub struct Greedy {
    /// Where options are played.
    scratch: Scratch,
    /// The decision's sample as dealt (made when first needed), copied into `scratch` for each
    /// option played; the forced actions' quiet check reads it.
    sample: Scratch,
    /// What is known of the decision being valued, forgotten when the next one starts.
    decision: Decision,
    /// A copy of the game with its chips as they lie now, where placements' quiet checks are asked.
    probe: Scratch,
    /// Rules that only move chips off the map (see `quiet::chips_only`), decided with `rules`.
    chips_only: Vec<bool>,
    /// Actions that only move chips (see `quiet::chip_actions`), decided with `rules`.
    chip_actions: Vec<bool>,
    /// Per action, its choices whose values reach nothing but chips moved
    /// (`Interp::chip_choices`), decided with `rules`.
    chip_choices: Vec<u64>,
    /// Per option of `copied`, the place in `copied` of an option alike it that is valued in its
    /// stead (its own place when it is valued itself): see `values`.
    alike: Vec<usize>,
    /// The scores and spare followers the last option played in a copy was valued by (`None`
    /// with more than 8 players).
    copy_out: Option<(Points, u32)>,
    /// Whether `value_in_copy` looks for forced actions applying in the copy (see `unforced`).
    watch_forced: bool,
    /// Whether, in the last copy `value_in_copy` played while `watch_forced`, no forced action
    /// applied to the player after the option, nor to the next player once the turn was over.
    unforced: bool,
    /// Per square of this decision where a placement was played in a copy, the points its rules
    /// gave (the copy's scores minus the preview's): see `values`.
    square_points: Vec<(u32, Points)>,
    /// What the rules allow (decided at the first decision).
    rules: Option<Rules>,
    /// The forced checks' answers (see `quiet::ForcedMemo`), made with `rules`.
    forced: quiet::ForcedMemo,
    best: Vec<usize>,
    /// The options of the decision played in copies.
    copied: Vec<usize>,
    /// The value of each option of the decision.
    values: Vec<f64>,
    preview: Preview,
    /// Reads the position an option played in a copy leaves, once its turn is over.
    after: Preview,
    points: FeaturePoints,
    /// Takes the quiet choice, unvalued, at a decision that offers neither a tile nor a follower
    /// ([`Greedy::rollout`]).
    quiet_actions: bool,
    /// Options read from the board while a follower returns and a `returned` rule would run for
    /// it, taken as changing nothing the value reads (`Rules::returned_harmless`; for the tests).
    #[cfg(test)]
    harmless_returns: usize,
    /// Options played in a copy that ended with the followers other than in the game, whose
    /// position was then looked at for being the decision's own (for the tests).
    #[cfg(test)]
    followers_moved: usize,
}

/// What the rules of the game allow, found at the first decision (see `quiet`).
#[derive(Clone, Copy)]
struct Rules {
    /// Quiet options may be read from the board.
    read: bool,
    /// Each decision is checked for forced actions.
    forced: bool,
    /// Each placement is checked for the rules it would run.
    placement: bool,
    /// A rule listens to followers returning.
    returned: bool,
    /// Whether those rules' conditions can be settled when the decision is taken
    /// (`quiet::returned_settled_now`).
    returned_now: bool,
    /// Whether those rules change nothing a value reads, run or not
    /// (`quiet::returned_rules_harmless`).
    returned_harmless: bool,
    /// Every option is played in a fresh sample of its own ([`Greedy::copying`]).
    copying: bool,
    /// The final scoring may be read from the board once a turn is over (see `value_in_copy`).
    end_read: bool,
    /// Once the turn's tile is placed, where chips lie changes no value
    /// (`quiet::chips_unread_after_placement`).
    chips_unread: bool,
    /// Once the turn's tile is placed, where chips lie changes only where chips lie
    /// (`Interp::chips_read_only_to_move_chips`, the placement's triggers exempt).
    chips_blind: bool,
    /// A placement's rules give the same points at every rotation on one square
    /// (`quiet::placed_rules_by_square`).
    by_square: bool,
    /// The same where no forced action applied in the copy the points were learnt from
    /// (`quiet::placed_rules_by_square_unforced`).
    by_square_unforced: bool,
    /// The forced check reads only chips in players' areas (`Interp::forced_reads_only_hands`).
    forced_hands: bool,
    /// Once the turn's tile is placed, the rules read nothing a sample deals afresh but the faces
    /// of chips in players' hands (`Interp::faces_read_only_in_hands`).
    faces_in_hands: bool,
}

/// The value of a final position for `me`: the lead over the best other player, and the followers
/// left in the supply, each worth `FOLLOWER_WORTH` times the share `left` of tiles still to come.
pub(super) fn worth(margin: i64, left: f64, spare: u32) -> f64 {
    margin as f64 + FOLLOWER_WORTH * left * f64::from(spare)
}

impl Greedy {
    /// A greedy player that values every option in a copy of the game (to check the preview).
    pub fn copying() -> Greedy {
        Greedy {
            rules: Some(Rules {
                read: false,
                forced: false,
                placement: false,
                returned: false,
                returned_now: false,
                returned_harmless: false,
                copying: true,
                end_read: false,
                chips_unread: false,
                chips_blind: false,
                by_square: false,
                by_square_unforced: false,
                forced_hands: false,
                faces_in_hands: false,
            }),
            ..Greedy::default()
        }
    }

    /// A greedy player for the playouts of a search (`mcts`): at a decision that offers no tile
    /// placement and no follower (actions only, with or without passing, such as paying chips for
    /// an upgrade or laying a chip back on the map) it takes the quiet choice (pass, else the first
    /// option) without valuing the options, which would each be played in a copy of the game.
    pub(crate) fn rollout() -> Greedy {
        Greedy {
            quiet_actions: true,
            ..Greedy::default()
        }
    }

    /// This decision's sample (dealt from `world` the first time it is asked for; a plain copy of
    /// the game where `unsampled`).
    fn sample(&mut self, view: &View, world: &Rng) -> &mut Game<Interp> {
        if self.decision.deal_sample() {
            if self.decision.unsampled() {
                return self.sample.load(view.game);
            }
            return view.sample(&mut self.sample, &mut world.clone());
        }
        self.sample.game_mut().expect("a sample")
    }

    /// The value of option `i` for the deciding player `me`, played in a copy of the game: of the
    /// decision's sample, or, when `last` (no other option of the decision is played after it),
    /// in that sample itself (a copy of a game plays as the game).
    fn value_in_copy(
        &mut self,
        view: &View,
        i: usize,
        left: f64,
        world: &Rng,
        last: bool,
    ) -> Result<f64, GameError> {
        let me = view.me();
        self.copy_out = None;
        let copying = self.rules.is_some_and(|r| r.copying);
        let g = if copying {
            view.sample(&mut self.scratch, &mut world.clone())
        } else if last {
            // A copy of the decision's sample is that sample dealt again.
            self.sample(view, world);
            self.decision.sample_spent();
            self.sample.game_mut().expect("a sample")
        } else {
            self.sample(view, world);
            let sample = self.sample.game_mut().expect("a sample");
            // After an option that placed no tile and moved no follower, the scratch's board is
            // still the sample's: the rest is copied.
            let board_same = self.decision.load_scratch_from_sample()
                && self.scratch.game_mut().is_some_and(|g| {
                    g.st.board.placed.len() == sample.st.board.placed.len()
                        && g.st.followers == sample.st.followers
                });
            if board_same {
                self.scratch.reload(sample)
            } else {
                self.scratch.load(sample)
            }
        };
        g.choose(i)?;
        self.unforced = false;
        let unforced_now = self.watch_forced && self.forced.no_forced(g)?;
        let turn_over = rest_of_turn(g, copying)?;
        // Followers in the supply are counted before the final scoring returns any.
        let spare = u32::from(g.st.followers_in_supply(me));
        // The turn is over and the final scoring comes next: where it scores only the features
        // with followers, by their facts, and no forced action applies first, it is read from the
        // board (what `Preview::load` reads for passing) instead of played.
        let end_read = self.rules.is_some_and(|r| r.end_read);
        if turn_over && end_read && self.forced.no_forced(g)? {
            self.unforced = unforced_now;
            let game = view.game;
            // No tile placed and the followers on the board as they were (an action that moved
            // chips and scored, or sent a follower from the supply off the board): the position
            // is the decision's own, with the scores and spare followers of the copy.
            #[cfg(test)]
            {
                self.followers_moved += usize::from(g.st.followers != game.st.followers);
            }
            if g.st.board.placed.len() == game.st.board.placed.len()
                && board_followers_alike(&g.st.followers, &game.st.followers)
            {
                if !self.decision.preview_ready() {
                    self.preview.load(game, me, &mut self.points)?;
                    self.decision.set_preview_ready();
                }
                let mut o = self.preview.as_it_stands();
                let now = game.st.players.iter().zip(&g.st.players);
                for (k, (was, is)) in now.enumerate().take(o.scores.len()) {
                    o.scores[k] += is.score - was.score;
                }
                self.copy_out = Some((o.scores, spare));
                return Ok(worth(lead(&o, g.st.players.len(), me), left, spare));
            }
            // What the decision's preview read last stays true of the copy where the option
            // left it: only what the option changed is walked.
            self.after
                .load_after(g, me, &mut self.points, &self.preview)?;
            let o = self.after.as_it_stands();
            self.copy_out = Some((o.scores, spare));
            return Ok(worth(lead(&o, g.st.players.len(), me), left, spare));
        }
        finish_quietly(g)?;
        self.copy_out = final_scores(g).map(|scores| (scores, spare));
        Ok(worth(margin(g, me), left, spare))
    }

    /// Whether option `i` of the decision runs no rule but the scoring (see `quiet`).
    fn quiet(&mut self, game: &Game<Interp>, i: usize, rules: Rules) -> Result<bool, GameError> {
        match game.options[i] {
            Opt::Place { cell, rot } if rules.placement => {
                let placements = self.decision.placements();
                if let Some(q) = placements.remembered(game, cell, &self.chips_only) {
                    return Ok(q);
                }
                if !*self.decision.probed() {
                    quiet::load_probe(&mut self.probe, self.decision.probed(), game);
                }
                let probe = self.probe.game_mut().expect("a probe");
                self.decision.placements().runs_no_rule(
                    game,
                    probe,
                    cell,
                    rot as usize,
                    &self.chips_only,
                )
            }
            opt => Ok(quiet::option_runs_no_rule(game, opt)),
        }
    }

    /// Whether the options of the decision to be played in copies may be played in plain copies
    /// of the game instead of a sample: the turn's tile is placed and none of them draws or places
    /// one (each passes, places a follower or is an action), the rules read nothing a sample deals
    /// afresh from then on but the faces of chips in players' hands (`Rules::faces_in_hands`), and
    /// the deciding player sees every chip in a player's hand (`quiet::hands_face_up_but`).
    fn plain_copies(&self, view: &View, rules: Rules) -> bool {
        let game = view.game;
        rules.faces_in_hands
            && game.st.placed_now != NONE
            && self.copied.iter().all(|&i| {
                matches!(
                    game.options[i],
                    Opt::Pass | Opt::Follower { .. } | Opt::Action(_)
                )
            })
            && quiet::hands_face_up_but(game, view.me())
    }

    /// Whether every option of the decision to be played in a copy only moves chips (an action of
    /// `chip_actions`, or passing), after the turn's tile is placed and with no extra turn pending.
    fn copied_move_chips_only(&self, game: &Game<Interp>) -> bool {
        game.st.placed_now != NONE
            && !game.st.extra_turn_pending
            && !game.is_asked()
            && self.copied.iter().all(|&i| match game.options[i] {
                Opt::Pass => true,
                Opt::Action(h) => game
                    .hooks
                    .action_index(h)
                    .and_then(|a| self.chip_actions.get(a as usize))
                    .copied()
                    .unwrap_or(false),
                _ => false,
            })
    }

    /// Fills `alike`: an action option to be played in a copy that is alike an earlier one but in
    /// choices whose values reach nothing but chips moved (`Interp::offers_alike`) is valued as
    /// that one, when, the turn's tile placed and no extra turn pending, where chips lie changes
    /// only where chips lie (`Rules::chips_blind`): the two positions then differ only in the
    /// chips, and play on to the same scores, followers and strengths.
    fn group_alike(&mut self, game: &Game<Interp>, rules: Rules) {
        self.alike.clear();
        let blind = rules.chips_blind
            && game.st.placed_now != NONE
            && !game.st.extra_turn_pending
            && !game.is_asked();
        for k in 0..self.copied.len() {
            let mut of = k;
            if let (true, Opt::Action(h)) = (blind, game.options[self.copied[k]]) {
                let free = game
                    .hooks
                    .action_index(h)
                    .and_then(|a| self.chip_choices.get(a as usize))
                    .copied()
                    .unwrap_or(0);
                if free != 0 {
                    of = (0..k)
                        .find(|&j| {
                            self.alike[j] == j
                                && matches!(game.options[self.copied[j]],
                                    Opt::Action(g) if game.hooks.offers_alike(g, h, free))
                        })
                        .unwrap_or(k);
                }
            }
            self.alike.push(of);
        }
    }

    /// Whether no `returned` rule that would change what the value reads would run for a follower
    /// returning in this decision (none changes it, `Rules::returned_harmless`, or none would run).
    fn returns_quiet(&mut self, game: &Game<Interp>, rules: Rules) -> bool {
        if rules.returned_harmless {
            return true;
        }
        if !rules.returned_now {
            return false;
        }
        self.decision
            .returns_quiet(|| quiet::returned_runs_for_none(game))
    }

    /// The value of option `i` read from the board, when the option is quiet and the preview can
    /// read it (else `None`: it is played in a copy). `read`: the decision allows quiet options.
    fn value_read(
        &mut self,
        view: &View,
        i: usize,
        left: f64,
        read: bool,
    ) -> Result<Option<f64>, GameError> {
        let (game, me) = (view.game, view.me());
        if let Some(rules) = self.rules.filter(|_| read) {
            if self.quiet(game, i, rules)? {
                let opt = game.options[i];
                // Every placement that leaves the position as it stands is worth the same.
                let as_it_stands = matches!(opt, Opt::Place { cell, .. }
                    if self.preview.leaves_as_it_stands(game, cell));
                if let (true, Some(v)) = (as_it_stands, self.decision.as_it_stands_value()) {
                    return Ok(Some(v));
                }
                if let Some(o) = self.preview.outcome(game, opt, me, &mut self.points)? {
                    if !(o.returns && rules.returned) || self.returns_quiet(game, rules) {
                        #[cfg(test)]
                        {
                            self.harmless_returns += usize::from(
                                o.returns && rules.returned && !quiet::returned_runs_for_none(game),
                            );
                        }
                        let v = worth(lead(&o, game.st.players.len(), me), left, o.spare);
                        if as_it_stands {
                            self.decision.set_as_it_stands_value(v);
                        }
                        return Ok(Some(v));
                    }
                }
            }
        }
        Ok(None)
    }
}

/// The generator a decision's sample is dealt from: seeded by what the player sees (turn, seat,
/// options, tiles left), so that greedy draws nothing from the agents' generator but its tie-breaks
/// (its choices are those it made before it sampled) and a shuffle of the hidden changes nothing.
fn world(view: &View) -> Rng {
    let seen = (u64::from(view.turn()) << 40)
        ^ (u64::from(view.me()) << 32)
        ^ ((view.options().len() as u64) << 16)
        ^ view.tiles_left() as u64;
    Rng::new(seen)
}

/// Whether the followers `a` and `b` (of one game) stand on the board alike: each follower on the
/// board in either stands in both, on the same node, with the same strength. (Followers off the
/// board, in a supply or a holding, may differ.)
fn board_followers_alike(a: &[Follower], b: &[Follower]) -> bool {
    let on_board = |f: &Follower| matches!(f.at, FollowerAt::Board(_));
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || !(on_board(x) || on_board(y)))
}

/// The lead of `me` over the best other player in an outcome of a game of `seats` players.
fn lead(o: &Outcome, seats: usize, me: u8) -> i64 {
    let seats = seats.min(o.scores.len());
    let mine = o.scores.get(me as usize).copied().unwrap_or(0);
    let best_other = (0..seats)
        .filter(|&p| p != me as usize)
        .map(|p| o.scores[p])
        .max()
        .unwrap_or(0);
    mine - best_other
}

impl Greedy {
    /// The value of every option of the pending decision (see the module comment), in order. The
    /// features' points are asked of the memo this thread's agents share for the game's rules.
    pub(super) fn values(&mut self, view: &View) -> Result<&[f64], GameError> {
        self.points.share(view.game);
        let valued = self.value_options(view);
        self.points.unshare();
        valued?;
        Ok(&self.values)
    }

    /// What the rules allow, found at the first decision (see [`Rules`]).
    fn rules_of(&mut self, game: &Game<Interp>) -> Rules {
        if self.rules.is_none() {
            self.chips_only = quiet::chips_only(game);
            self.chip_actions = quiet::chip_actions(game);
            self.chip_choices = game.hooks.chip_choices();
            self.forced = quiet::ForcedMemo::new(game);
        }
        *self.rules.get_or_insert_with(|| Rules {
            read: quiet::rules_allow(game),
            forced: quiet::has_forced(game),
            placement: quiet::placement_listened(game),
            returned: game.hooks.listens(Trigger::Returned),
            returned_now: quiet::returned_settled_now(game),
            returned_harmless: quiet::returned_rules_harmless(game),
            copying: false,
            end_read: quiet::end_allows(game),
            chips_unread: quiet::chips_unread_after_placement(game),
            chips_blind: game.hooks.chips_read_only_to_move_chips(&after_placement()),
            by_square: quiet::placed_rules_by_square(game),
            by_square_unforced: quiet::placed_rules_by_square_unforced(game),
            forced_hands: game.hooks.forced_reads_only_hands(),
            faces_in_hands: game.hooks.faces_read_only_in_hands(&after_placement()),
        })
    }

    /// Starts a decision: forgets the last decision's samples, probes and remembered values, and
    /// reads the position when the rules and the forced actions allow options to be read from
    /// the board (whether they do).
    fn begin_decision(
        &mut self,
        view: &View,
        rules: Rules,
        world: &Rng,
    ) -> Result<bool, GameError> {
        let (game, me) = (view.game, view.me());
        self.decision.begin();
        let mut read = rules.read && game.st.players.len() <= 8 && !game.is_asked();
        if read && rules.forced {
            read = if rules.forced_hands && quiet::hands_face_up_but(game, me) {
                // No chip the check reads is hidden: answers remembered are read from the game,
                // others asked of the probe (the game's chips as they lie), and the sample is dealt
                // only if an option is played in a copy.
                self.forced.decision_allows_by_hands(
                    game,
                    &mut self.probe,
                    self.decision.probed(),
                )?
            } else {
                // The check only evaluates the forced actions' conditions in the sample (and puts
                // back the current player): the options are played in copies of that same sample.
                {
                    self.sample(view, world);
                    let sample = self.sample.game_mut().expect("a sample");
                    quiet::decision_allows(sample, &mut self.forced)?
                }
            };
        }
        if read {
            self.decision.set_preview_ready();
            self.preview.load(game, me, &mut self.points)?;
        }
        Ok(read)
    }

    /// Fills `values` (see [`Self::values`]).
    fn value_options(&mut self, view: &View) -> Result<(), GameError> {
        let game = view.game;
        let n = game.options.len();
        let tiles_total: u32 = game.cfg.counts.iter().sum();
        let left = game.st.stack.len() as f64 / f64::from(tiles_total.max(1));
        let world = world(view);
        let rules = self.rules_of(game);
        let read = self.begin_decision(view, rules, &world)?;
        // The options read from the board first, then those played in copies (the order changes
        // no value: each is worked out from the decision's position alone).
        self.values.clear();
        self.copied.clear();
        for i in 0..n {
            let v = self.value_read(view, i, left, read)?;
            if v.is_none() {
                self.copied.push(i);
            }
            self.values.push(v.unwrap_or(f64::NEG_INFINITY));
        }
        let plain = !self.decision.sampled() && self.plain_copies(view, rules);
        self.decision.set_unsampled(plain);
        if self.copied.len() > 1 && rules.chips_unread && self.copied_move_chips_only(game) {
            // Each only moves chips once the tile is placed, and nothing read after reads chips:
            // all are worth what one of them is (played in the sample itself).
            let i = self.copied[self.copied.len() - 1];
            let v = self.value_in_copy(view, i, left, &world, true)?;
            for &k in &self.copied {
                self.values[k] = v;
            }
            return Ok(());
        }
        self.value_copied(view, rules, left, &world)
    }

    /// Values the options left to be played in copies (`copied`): an option alike an earlier
    /// one but in the chips it moves as that one; a placement whose rules' points its square
    /// settles as the preview plus the points learnt on the square; any other in a copy.
    fn value_copied(
        &mut self,
        view: &View,
        rules: Rules,
        left: f64,
        world: &Rng,
    ) -> Result<(), GameError> {
        let (game, me) = (view.game, view.me());
        self.group_alike(game, rules);
        let last_own = (0..self.copied.len()).rev().find(|&k| self.alike[k] == k);
        // A placement whose rules give what its square settles (chips collected, say) is the
        // preview's outcome plus those rules' points, the same at every rotation on the square:
        // learnt from the first one played in a copy.
        let by_square = (rules.by_square || rules.by_square_unforced)
            && self.decision.preview_ready()
            && game.st.placed_now == NONE
            && !game.st.extra_turn_pending
            && !game.is_asked();
        self.square_points.clear();
        let seats = game.st.players.len();
        for k in 0..self.copied.len() {
            let i = self.copied[k];
            if self.alike[k] != k {
                self.values[i] = self.values[self.copied[self.alike[k]]];
                continue;
            }
            let last = Some(k) == last_own;
            let opt = game.options[i];
            let read = match opt {
                // As `value_read` takes the preview: no follower returns where a `returned` rule
                // could run for it.
                Opt::Place { cell, .. } if by_square => {
                    match self.preview.outcome(game, opt, me, &mut self.points)? {
                        Some(o)
                            if !(o.returns && rules.returned)
                                || self.returns_quiet(game, rules) =>
                        {
                            Some((cell, o))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            let Some((cell, o)) = read else {
                self.values[i] = self.value_in_copy(view, i, left, world, last)?;
                continue;
            };
            if let Some((_, points)) = self.square_points.iter().find(|(c, _)| *c == cell) {
                let mut scores = o.scores;
                for (s, p) in scores.iter_mut().zip(points) {
                    *s += p;
                }
                let o = Outcome { scores, ..o };
                self.values[i] = worth(lead(&o, seats, me), left, o.spare);
                continue;
            }
            self.watch_forced = !rules.by_square;
            self.values[i] = self.value_in_copy(view, i, left, world, last)?;
            self.watch_forced = false;
            let learnt = rules.by_square || self.unforced;
            if let Some((scores, _)) = self
                .copy_out
                .filter(|&(_, spare)| learnt && spare == o.spare)
            {
                let mut points: Points = [0; 8];
                for (p, (s, r)) in points
                    .iter_mut()
                    .zip(scores.iter().zip(&o.scores))
                    .take(seats)
                {
                    *p = s - r;
                }
                self.square_points.push((cell, points));
            }
        }
        Ok(())
    }
}

impl Agent for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, view: &View, rng: &mut Rng) -> Result<usize, GameError> {
        if view.options().len() <= 1 {
            return Ok(0);
        }
        let actions_only = || {
            view.options()
                .iter()
                .all(|o| matches!(o, Opt::Pass | Opt::Draw | Opt::Action(_)))
        };
        if self.quiet_actions && actions_only() {
            return Ok(quiet_option(view.options()));
        }
        self.values(view)?;
        let mut best = f64::NEG_INFINITY;
        self.best.clear();
        for (i, &v) in self.values.iter().enumerate() {
            if v > best {
                best = v;
                self.best.clear();
            }
            if v == best {
                self.best.push(i);
            }
        }
        Ok(self.best[rng.below(self.best.len() as u32) as usize])
    }
}

/// Plays the rest of the turn of a copy after its option: the quiet choice at each decision (the
/// phases' actions passed without the rules listing them), with no tile left to draw so that the
/// final scoring runs next. Whether the turn ended with the game not over (never when `copying`:
/// such a copy plays on to the end).
fn rest_of_turn(g: &mut Game<Interp>, copying: bool) -> Result<bool, GameError> {
    g.pass_actions();
    g.st.stack.clear();
    let turn = g.st.turn;
    while g.st.turn == turn {
        let pending = if copying {
            g.advance()?
        } else {
            g.advance_in_turn()?
        };
        if !pending {
            return Ok(!copying && !g.is_over());
        }
        let q = quiet_option(&g.options);
        g.choose(q)?;
    }
    Ok(false)
}

/// The scores of a finished copy (for at most 8 players).
fn final_scores(g: &Game<Interp>) -> Option<Points> {
    if g.st.players.len() > 8 {
        return None;
    }
    let mut scores: Points = [0; 8];
    for (s, p) in scores.iter_mut().zip(&g.st.players) {
        *s = p.score;
    }
    Some(scores)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// A new game of `v` with `players` seats (ann, bob, cyd) from `seed`.
    fn game_of(v: &Variant, players: usize, seed: u64) -> Game<Interp> {
        let names: Vec<String> = ["ann", "bob", "cyd"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.new_game(v.config.clone(), &names, seed, false).unwrap()
    }

    /// Plays `game` to its end with greedy players (tie-breaks from `seed`); at each decision
    /// where `check` says the greedy that valued it afresh took the way under test, every option
    /// must be worth what a greedy playing each option in its own copy gives (`what` names the
    /// game in a failure). The number of decisions checked.
    fn checked_against_copies(
        mut game: Game<Interp>,
        seed: u64,
        what: &str,
        mut check: impl FnMut(&Greedy, &Game<Interp>) -> bool,
    ) -> usize {
        let mut rng = Rng::new(seed).fork();
        let mut player = Greedy::default();
        let mut checked = 0;
        while game.advance().unwrap() {
            let view = View::of(&game);
            let mut g = Greedy::default();
            g.values(&view).unwrap();
            if check(&g, &game) {
                let mut each = Greedy::copying();
                assert_eq!(g.values, each.values(&view).unwrap(), "{what}");
                checked += 1;
            }
            let i = player.choose(&view, &mut rng).unwrap();
            game.choose(i).unwrap();
        }
        checked
    }

    /// Options valued without a copy of their own (a decision's options that each only move chips,
    /// valued once for all; a placement's rules' points learnt at one rotation on a square) must
    /// be worth what a greedy playing each option in its own copy gives. Whole games of every
    /// bundled variant whose rules allow either, checked at each decision where either was used
    /// (every option of it compared); points by square are checked both where nothing reads where
    /// chips lie after the placement and where the rules read it only to move chips.
    #[test]
    fn options_valued_without_a_copy_of_their_own_are_worth_what_each_played_in_a_copy_is_worth() {
        let (mut moves, mut squares, mut blind_squares, mut unforced_squares) = (0, 0, 0, 0);
        for (name, v) in crate::agent::bundled_and(None) {
            let game = game_of(&v, 2, 7);
            let unread = quiet::chips_unread_after_placement(&game);
            if !unread
                && !quiet::placed_rules_by_square(&game)
                && !quiet::placed_rules_by_square_unforced(&game)
            {
                continue;
            }
            checked_against_copies(game, 7, &name, |g, game| {
                let moved = g.copied.len() > 1 && g.copied_move_chips_only(game);
                let placements = g
                    .copied
                    .iter()
                    .filter(|&&i| matches!(game.options[i], Opt::Place { .. }))
                    .count();
                let by_square = g.rules.is_some_and(|r| r.by_square || r.by_square_unforced)
                    && !g.square_points.is_empty()
                    && placements > g.square_points.len();
                moves += usize::from(moved);
                squares += usize::from(by_square);
                let proved = g.rules.is_some_and(|r| r.by_square);
                blind_squares += usize::from(by_square && !unread && proved);
                unforced_squares += usize::from(by_square && !proved);
                moved || by_square
            });
        }
        // Both ways were taken at some decisions.
        assert!(
            moves > 5 && squares > 5 && blind_squares > 5 && unforced_squares > 5,
            "{moves}, {squares}, {blind_squares} and {unforced_squares} decisions checked"
        );
    }

    /// Action options valued as an earlier option alike them but in choices whose values reach
    /// nothing but chips moved (chips paid, say: `group_alike`) must be worth what a greedy
    /// playing each option in its own copy gives. Whole games of every bundled variant whose rules
    /// allow it (two and three players), checked at each decision where an option was valued so
    /// (every option of it compared).
    #[test]
    fn action_options_alike_but_in_the_chips_they_move_are_worth_what_each_played_in_a_copy_is_worth(
    ) {
        let (mut decisions, mut shared, mut variants) = (0, 0, 0);
        for (name, v) in crate::agent::bundled_and(None) {
            for (players, seed) in [(2, 7), (3, 11)] {
                let game = game_of(&v, players, seed);
                if !game.hooks.chips_read_only_to_move_chips(&after_placement()) {
                    continue;
                }
                variants += usize::from(players == 2);
                decisions += checked_against_copies(game, seed, &name, |g, _| {
                    let n = g.alike.iter().enumerate().filter(|&(k, &j)| j != k).count();
                    shared += n;
                    n > 0
                });
            }
        }
        eprintln!("{variants} variants, {decisions} decisions, {shared} options shared");
        assert!(
            variants >= 2 && decisions > 10 && shared > 30,
            "{variants} variants, {decisions} decisions, {shared} options shared"
        );
    }

    /// The chips scattered and collected, and a rule that scores a point for each follower that
    /// comes back.
    fn bonus() -> crate::variant::Variant {
        crate::agent::fixture("bonus")
    }

    /// Options read from the board though a follower returns and a `returned` rule would run for
    /// it, where those rules change nothing the value reads (`quiet::returned_rules_harmless`: a
    /// chip moved, the returning follower's strength set), must be worth what a greedy playing
    /// each option in a copy of its own gives. Whole games of every bundled variant (two and three
    /// players), checked at each decision where an option was read so (every option compared);
    /// and of [`bonus`], whose `returned` rule scores, so that reading there would show.
    #[test]
    fn options_read_while_harmless_returned_rules_run_are_worth_what_each_played_in_a_copy_is_worth(
    ) {
        let mut decisions = 0;
        for (name, v) in crate::agent::bundled_and(Some(("bonus", bonus()))) {
            for (players, seed) in [(2, 7), (3, 11)] {
                let game = game_of(&v, players, seed);
                let harmless = quiet::returned_rules_harmless(&game);
                assert!(name != "bonus" || !harmless, "bonus scores on a return");
                decisions +=
                    checked_against_copies(game, seed, &name, |g, _| g.harmless_returns > 0);
            }
        }
        assert!(decisions > 50, "{decisions} decisions");
    }

    /// A bundled map with the chips scattered and collected, and a forced action that pays every
    /// chip in hand for points that depend on how the turn's tile is turned (whether it continues
    /// a road or city to a border exit).
    fn tithe() -> crate::variant::Variant {
        crate::agent::fixture("tithe")
    }

    /// Points by square learnt only from a copy in which no forced action applied
    /// (`Rules::by_square_unforced`): in [`tithe`], a forced action after each chip collected
    /// scores by how the tile is turned. Whole games, checked at each decision where points were learnt on a square (every
    /// option compared with a greedy playing each option in its own copy).
    #[test]
    fn placement_points_are_learnt_only_where_no_forced_action_applied() {
        let v = tithe();
        let mut decisions = 0;
        for seed in 1..=40 {
            let game = game_of(&v, 3, seed);
            assert!(
                quiet::placed_rules_by_square_unforced(&game)
                    && !quiet::placed_rules_by_square(&game)
            );
            decisions += checked_against_copies(game, seed, &format!("seed {seed}"), |g, game| {
                game.st.placed_now == NONE && !g.copied.is_empty()
            });
        }
        assert!(decisions > 50, "{decisions} decisions");
    }

    /// Options played in a copy that moved followers but placed no tile (a follower sent from the
    /// supply off the board, a follower upgraded on it), valued as the decision's own position
    /// where the followers on the board stand as they did (`board_followers_alike`), must be
    /// worth what a greedy playing each option in a fresh sample of its own gives. Whole games of
    /// every bundled variant (two and three players), checked at each decision where such an
    /// option was played in a copy (every option of it compared).
    #[test]
    fn options_moving_followers_but_no_tile_are_worth_what_each_played_in_a_copy_is_worth() {
        let mut decisions = 0;
        for (name, v) in crate::agent::bundled_and(None) {
            for (players, seed) in [(2, 7), (3, 11)] {
                let game = game_of(&v, players, seed);
                decisions +=
                    checked_against_copies(game, seed, &name, |g, _| g.followers_moved > 0);
            }
        }
        assert!(decisions > 50, "{decisions} decisions");
    }

    /// Rules that read a face hidden from the player after the turn's tile is placed: an action
    /// after the turn scores the face-down chips on the squares next to the tile placed.
    fn peek() -> crate::variant::Variant {
        crate::agent::fixture("peek")
    }

    /// Options played in plain copies of the game rather than a sample (`plain_copies`) must be
    /// worth what a greedy playing each option in a fresh sample of its own gives. Whole games of
    /// every bundled variant (two and three players), checked at each decision where plain copies
    /// were played (every option of it compared); and of [`peek`], whose rules read a hidden face
    /// after the placement, so that plain copies taken there would show.
    #[test]
    fn options_played_in_plain_copies_are_worth_what_each_played_in_a_sample_is_worth() {
        let (mut decisions, mut variants) = (0, 0);
        for (name, v) in crate::agent::bundled_and(Some(("peek", peek()))) {
            for (players, seed) in [(2, 7), (3, 11)] {
                let game = game_of(&v, players, seed);
                let sees = game.hooks.faces_read_only_in_hands(&after_placement());
                assert!(name != "peek" || !sees, "peek reads a hidden face");
                variants += usize::from(sees && players == 2);
                decisions += checked_against_copies(game, seed, &name, |g, _| {
                    g.decision.unsampled() && !g.copied.is_empty()
                });
            }
        }
        eprintln!("{variants} variants, {decisions} decisions");
        assert!(
            variants >= 3 && decisions > 100,
            "{variants} variants, {decisions} decisions"
        );
    }
}
