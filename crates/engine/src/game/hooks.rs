//! What the engine asks of the rules: setup, triggers, actions (offered, forced, asked), and their
//! names. The engine alone runs with [`super::NoRules`].

use super::{Ctx, GameError, Opt, Phase, Trigger};
use crate::sight::Seat;
use crate::state::State;

/// The rules of a variant, as the engine sees them. Every method has a default that does nothing,
/// so the engine alone (tests, measurements) needs no rules at all.
pub trait Hooks {
    /// Runs the variant's setup (after start squares, before turn 1).
    fn setup(&mut self, _st: &mut State) -> Result<(), GameError> {
        Ok(())
    }
    /// Runs the rules for a trigger.
    fn fire(&mut self, _st: &mut State, _trigger: Trigger, _ctx: &Ctx) -> Result<(), GameError> {
        Ok(())
    }
    /// Appends the actions available to the current player now: `Opt::Action(handle)`.
    fn actions(
        &mut self,
        _st: &mut State,
        _phase: Phase,
        _out: &mut Vec<Opt>,
    ) -> Result<(), GameError> {
        Ok(())
    }
    /// Whether any action may ever be offered in `phase`, or forced (`None`): when not, the engine
    /// does not ask for them ([`Hooks::actions`], [`Hooks::forced`]). Asked once, when a game is
    /// made; the default says yes.
    fn may_offer(&self, _phase: Option<Phase>) -> bool {
        true
    }
    /// Whether a rule asked a player for a decision that is not offered yet (`ask`).
    fn asking(&self) -> bool {
        false
    }
    /// Offers the next asked decision: appends its options to `out` and returns the asked player;
    /// `None` when no request is left.
    fn next_ask(&mut self, _st: &mut State, _out: &mut Vec<Opt>) -> Result<Option<u8>, GameError> {
        Ok(None)
    }
    /// Forgets every asked decision not yet offered (a game ended early).
    fn clear_asks(&mut self) {}
    /// Forced actions that apply now (the player must take one).
    fn forced(&mut self, _st: &mut State, _out: &mut Vec<Opt>) -> Result<(), GameError> {
        Ok(())
    }
    /// Runs an action offered by `actions` or `forced`.
    fn run(&mut self, _st: &mut State, _handle: u32) -> Result<(), GameError> {
        Ok(())
    }
    fn action_name(&self, _st: &State, _handle: u32) -> String {
        String::new()
    }
    /// An offered action's name as `seat` sees it (`action_name` is the decider's: a chip the
    /// decider may not see is named by where it lies; [`Seat::Everyone`] names every chip by its face).
    fn action_name_for(&self, st: &State, handle: u32, _seat: Seat) -> String {
        self.action_name(st, handle)
    }
    /// Which of the rules' actions (their index in the program) an offered action is.
    fn action_index(&self, _handle: u32) -> Option<u16> {
        None
    }
    /// Names of the rules, indexed by the `rule` of score events.
    fn rule_name(&self, _rule: u16) -> &str {
        ""
    }
    /// Whether score source `rule` is an action (a player's choice) rather than a rule.
    fn is_action(&self, _rule: u16) -> bool {
        false
    }
    /// Whether any rule listens to a trigger (lets the engine skip work).
    fn listens(&self, _trigger: Trigger) -> bool {
        false
    }
    /// Whether scoring a feature that no follower stands on may change the game (a `scored` rule
    /// that does more than score the feature's winners, who are none): when not, final scoring
    /// skips the incomplete features without followers. The default says yes.
    fn scores_unheld(&self) -> bool {
        true
    }
    /// Why the option `name`, which is not among the legal ones, is refused: which rule or limit.
    /// `now` is the phase whose actions are on offer (`None` for a forced decision or no actions).
    fn explain(&mut self, _st: &mut State, _now: Option<Phase>, _name: &str) -> Option<String> {
        None
    }
    /// Why each action of `phase` is not on offer now, by action name (`explain` for each): kept
    /// when a player's phase ends, so that a move still aimed at it is explained for that player.
    fn refusals(&mut self, _st: &mut State, _phase: Phase) -> Vec<(String, String)> {
        Vec::new()
    }
}
