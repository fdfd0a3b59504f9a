//! Looking ahead in a copy of the game: a scratch game that keeps its buffers between copies
//! (`Game::copy_unrecorded`), what the deciding player cannot know hidden from it (the order of the draw stack
//! and of the face-down supply, the rules' own randomness), and the simple policies look-aheads use.

use crate::game::{Game, GameError, Opt};
use crate::lang::interp::Interp;
use crate::rng::Rng;

/// Most decisions a look-ahead takes before it stops and reads the scores as they are (a safeguard:
/// games end long before, since every turn uses up a tile).
pub const MAX_LOOKAHEAD_DECISIONS: u32 = 5000;

/// A scratch copy of a game, reused from decision to decision.
#[derive(Default)]
pub struct Scratch {
    game: Option<Game<Interp>>,
}

impl Scratch {
    /// The scratch game, now a copy of `game` that records nothing (`Game::copy_unrecorded`: no
    /// event log, and only what play reads).
    pub fn load(&mut self, game: &Game<Interp>) -> &mut Game<Interp> {
        // The first load clones (sizing every buffer once), then each load copies into it.
        let g = self.game.get_or_insert_with(|| game.clone());
        g.copy_unrecorded(game);
        g
    }
}

/// Hides from a look-ahead what the player cannot know: the draw order, the order of the face-down
/// supply and the rules' randomness are drawn afresh from `rng`.
pub fn conceal(g: &mut Game<Interp>, rng: &mut Rng) {
    rng.shuffle(&mut g.st.stack);
    g.st.rng = rng.fork();
    g.st.shuffle_supply();
}

/// The quiet choice: pass or draw when offered (no follower, no action), else the first option.
pub fn quiet_option(options: &[Opt]) -> usize {
    options
        .iter()
        .position(|o| matches!(o, Opt::Pass | Opt::Draw))
        .unwrap_or(0)
}

/// Plays on with the quiet choice until the game is over (or the safeguard is reached).
pub fn finish_quietly(g: &mut Game<Interp>) -> Result<(), GameError> {
    let mut n = 0;
    while n < MAX_LOOKAHEAD_DECISIONS && g.advance()? {
        let i = quiet_option(&g.options);
        g.choose(i)?;
        n += 1;
    }
    Ok(())
}

/// Plays on with uniformly random choices until the game is over (or the safeguard is reached).
pub fn finish_randomly(g: &mut Game<Interp>, rng: &mut Rng) -> Result<(), GameError> {
    let mut n = 0;
    while n < MAX_LOOKAHEAD_DECISIONS && g.advance()? {
        let i = rng.below(g.options.len() as u32) as usize;
        g.choose(i)?;
        n += 1;
    }
    Ok(())
}

/// The player's score minus the best of the others' scores.
pub fn margin(g: &Game<Interp>, me: u8) -> i64 {
    let mine = g.st.players.get(me as usize).map_or(0, |p| p.score);
    let best_other =
        g.st.players
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != me as usize)
            .map(|(_, p)| p.score)
            .max()
            .unwrap_or(0);
    mine - best_other
}
