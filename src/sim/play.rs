//! One game of a simulation: the agents decide, the driver counts what the state does not (turns and
//! actions, per seat), and the game's [`Outcome`] is read from the scores and the state's tally.

use super::stats::Outcome;
use crate::agent::{Agent, View};
use crate::game::{Game, GameError, Hooks as _, Opt};
use crate::lang::interp::Interp;
use crate::rng::Rng;

/// The generator the agents draw from in the game with seed `seed`; `carto play --seed` uses the
/// same, so any game of a simulation replays alone.
pub fn agent_rng(seed: u64) -> Rng {
    Rng::new(seed).fork()
}

/// Plays game `seed` (already reset) to its end with one agent per seat, filling `out`.
pub(crate) fn play_counted(
    game: &mut Game<Interp>,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    rules: usize,
    actions: usize,
    out: &mut Outcome,
) -> Result<(), GameError> {
    let seats = game.st.players.len();
    out.reset(seats, rules, actions);
    let story = &mut out.story;
    story.reset(story.on, seats);
    let mut rng = agent_rng(seed);
    while game.advance()? {
        let who = game.decider() as usize;
        out.story.decision(who, game.options.len());
        if out.story.on && game.is_asked() {
            count_ask(game, who, actions, &mut out.asked);
        }
        let i = agents[who % agents.len()].choose(&View::of(game), &mut rng)?;
        match game.options.get(i) {
            Some(Opt::Place { .. }) => {
                out.story.snapshot(game.st.players.iter().map(|p| p.score));
                out.turns[who] += 1
            }
            Some(&Opt::Action(h)) => {
                if let Some(a) = game.hooks.action_index(h) {
                    if (a as usize) < actions {
                        out.actions[who * actions + a as usize] += 1;
                    }
                }
            }
            _ => {}
        }
        game.choose(i)?;
    }
    out.story.snapshot(game.st.players.iter().map(|p| p.score));
    let t = &game.st.tally;
    if out.story.on {
        out.fired
            .extend((0..game.hooks.program().rules.len()).map(|r| t.fired_of(r)));
    }
    for s in 0..seats {
        out.scores[s] = game.st.players[s].score;
        out.followers[s] = t.followers_placed[s];
        out.gained[s] = t.chips_gained[s];
        out.spent[s] = t.chips_spent[s];
        for r in 0..rules {
            out.points[s * rules + r] = t.points_of(r, s);
        }
    }
    Ok(())
}

/// An asked decision of seat `who`: the action asked (that of its options) is counted once.
fn count_ask(game: &Game<Interp>, who: usize, actions: usize, asked: &mut [u32]) {
    let asked_action = game.options.iter().find_map(|o| match *o {
        Opt::Action(h) => game.hooks.action_index(h),
        _ => None,
    });
    if let Some(a) = asked_action.map(|a| a as usize).filter(|&a| a < actions) {
        if let Some(c) = asked.get_mut(who * actions + a) {
            *c += 1;
        }
    }
}
